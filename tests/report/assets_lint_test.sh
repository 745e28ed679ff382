#!/usr/bin/env bash
# The report page's assets (src/report/page/assets/) pass their linters, at the versions of
# tests/report/lint/package-lock.json: ESLint over the script as the page runs it (its files
# joined in page_assets.h's kPageScripts order, so names shared between them are checked
# across files) and stylelint over the style sheet. Any finding fails the test, named by file
# and line. A copy with an unused variable and an unknown CSS property planted shows that
# the linters see the files and that a finding names the file and line it is in.
source "$(dirname "$0")/../lib/common.sh"
lint=$SRC/tests/report/lint
skip_unless 'command -v node && [ -d "$lint/node_modules/eslint" ] && [ -d "$lint/node_modules/stylelint" ]' \
  "node and tests/report/lint's packages are needed (scripts/setup.sh runs npm ci there)"
cd "$WORK"
lint_assets() { node "$lint/lint_assets.mjs" "$1" "$SRC/src/report/page/page_assets.h"; }

lint_assets "$SRC/src/report/page/assets" >lint.out 2>&1 || {
  cat lint.out
  fail "the report page's assets have lint findings (above)"
}
contains lint.out "report assets: 3 scripts and 1 style sheets, 0 findings"

cp -r "$SRC/src/report/page/assets" planted
js_line=$(($(wc -l <planted/job_page.js) + 1))
css_line=$(($(wc -l <planted/page.css) + 1))
echo '  const plantedUnused = 1;' >>planted/job_page.js
echo '.planted { colr: red; }' >>planted/page.css
if lint_assets planted >planted.out 2>&1; then
  cat planted.out
  fail "the linters passed a planted unused variable and an unknown property"
fi
contains planted.out "planted/job_page.js:$js_line:9: 'plantedUnused' is assigned a value but never used."
contains planted.out "planted/page.css:$css_line:12: Unexpected unknown property \"colr\""
contains planted.out "2 findings"
done_ok
