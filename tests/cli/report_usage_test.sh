#!/usr/bin/env bash
# `trainbench report`'s words to a user who gave it the wrong thing: a results folder that does
# not exist is named as such (not as the default -o inside it); --help's report line, the
# results argument's help and the "not a trainbench summary" message list every kind of job
# whose results it draws.
source "$(dirname "$0")/../lib/common.sh"
cd "$WORK"

# No -o given: the missing results folder is the mistake, and the answer says what to give.
expect_exit 2 out "$TRAINBENCH" report nosuchdir
contains out "trainbench: error: results folder 'nosuchdir' does not exist"
contains out 'printed as "results: FOLDER"'
if grep -q -- "-o nosuchdir" out; then fail "blames an -o that was not given: $(cat out)"; fi
touch afile
expect_exit 2 out "$TRAINBENCH" report afile
contains out "results folder 'afile' is not a folder"

# Every kind report draws (report/result_envelope.cc's ResultKinds), by its command's name.
kinds=(run checkpoint datagen stage train "staged train" sweep grid replay sai3-bench "fidelity study")
mkdir bogus
echo '{"kind": "bogus"}' >bogus/summary.json
expect_exit 2 out "$TRAINBENCH" report bogus
contains out "not a trainbench summary"
expect_exit 0 help "$TRAINBENCH" --help
expect_exit 0 report_help "$TRAINBENCH" report --help
grep -E '^ +report ' help >help.line || fail "no report line in --help: $(cat help)"
grep -E '^ +results ' report_help >results.line || fail "no results line in report --help"
for kind in "${kinds[@]}"; do
  # Each a word of the list, so "train" is not found in "staged train" alone.
  for file in out help.line results.line; do
    grep -qE "(\(|, | or | a | of )$kind(,| or |\)|\$)" "$file" ||
      fail "$file does not list '$kind': $(cat "$file")"
    checks=$((checks + 1))
  done
done
done_ok
