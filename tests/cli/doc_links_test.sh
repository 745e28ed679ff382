#!/usr/bin/env bash
# Every relative link in README.md and docs/ resolves inside a clone: the file (or folder) is
# in the repository (tracked, or new and not ignored: never build/ or results/, and never
# outside it, as ../shared/ once was), and a `#anchor` names a heading of that page by GitHub's
# rule (lower case, punctuation dropped, spaces to hyphens, -1, -2 for repeats). Links to
# other sites are not fetched.
source "$(dirname "$0")/../lib/common.sh"

repo_files "$WORK/files"
docs=$(cd "$SRC" && ls README.md docs/*.md)

# check_links ROOT FILE_LIST DOC...: prints one line per broken link of the DOCs (relative to
# ROOT) and, last, "checked N"; fails when any is broken.
check_links() {
  local root=$1 list=$2
  shift 2
  (cd "$root" && $PY - "$list" "$@") <<'PYEOF'
import os, re, sys, unicodedata
from urllib.parse import unquote

files = set(l.rstrip("\n") for l in open(sys.argv[1]) if l.strip())
dirs = set()
for f in files:
    d = os.path.dirname(f)
    while d:
        dirs.add(d)
        d = os.path.dirname(d)

def slug(text):
    # GitHub's anchors (github-slugger): the heading's text, lower case, every character that
    # is not a letter, mark, number, connector (_), space or hyphen dropped, spaces to hyphens.
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", text).strip().lower()
    keep = []
    for ch in text:
        cat = unicodedata.category(ch)
        if ch in " -" or cat[0] in "LMN" or cat == "Pc":
            keep.append(ch)
    return "".join(keep).replace(" ", "-")

def lines_outside_code(path):
    fence = None
    for n, line in enumerate(open(path, encoding="utf-8"), 1):
        m = re.match(r"^\s*(```+|~~~+)", line)
        if m:
            if fence is None:
                fence = m.group(1)[0] * 3
            elif m.group(1).startswith(fence):
                fence = None
            continue
        if fence is None:
            yield n, line.rstrip("\n")

anchor_cache = {}
def anchors(path):
    if path not in anchor_cache:
        seen, out = {}, set()
        for _, line in lines_outside_code(path):
            m = re.match(r"^#{1,6}\s+(.*?)\s*#*\s*$", line)
            if not m:
                continue
            base = slug(m.group(1))
            k = seen.get(base, 0)
            seen[base] = k + 1
            out.add(base if k == 0 else f"{base}-{k}")
        for _, line in lines_outside_code(path):  # explicit <a id="..."> / name="..."
            out.update(re.findall(r"<a\s+(?:id|name)=\"([^\"]+)\"", line))
        anchor_cache[path] = out
    return anchor_cache[path]

broken, checked = [], 0
for doc in sys.argv[2:]:
    for n, line in lines_outside_code(doc):
        text = re.sub(r"(`+).*?\1", "", line)  # links inside code spans are not links
        targets = re.findall(r"\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)", text)
        targets += re.findall(r"^\s*\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)", text)
        targets += re.findall(r"(?:src|href)=\"([^\"]+)\"", text)
        for target in targets:
            if re.match(r"^[A-Za-z][A-Za-z0-9+.-]*:", target):
                continue  # http:, https:, mailto:: another site
            checked += 1
            where = f"{doc}:{n}: ({target})"
            path, _, anchor = target.partition("#")
            path = unquote(path)
            if path.startswith("/"):
                broken.append(f"{where}: an absolute path; make it relative to {doc}")
                continue
            resolved = os.path.normpath(os.path.join(os.path.dirname(doc), path)) if path else doc
            if resolved == ".." or resolved.startswith("../"):
                broken.append(f"{where}: outside the repository ({resolved}); a clone does not have it")
                continue
            if resolved not in files and resolved not in dirs and resolved != ".":
                broken.append(f"{where}: {resolved} is not in the repository")
                continue
            if anchor and resolved.endswith(".md") and resolved in files:
                if unquote(anchor) not in anchors(resolved):
                    broken.append(f"{where}: {resolved} has no heading with the anchor #{anchor}")
for b in broken:
    print(b)
print(f"checked {checked}")
sys.exit(1 if broken else 0)
PYEOF
}

# The checker itself catches what it must (a missing file, a missing anchor, a path out of
# the repository, an ignored file) and passes good files, folders and anchors, on a scratch
# tree: a checker that passed everything could not pass this test.
mkdir -p "$WORK/tree/docs" "$WORK/tree/build"
echo "# Top" >"$WORK/tree/README.md"
touch "$WORK/tree/build/trainbench"
cat >"$WORK/tree/docs/probe.md" <<'EOF'
# Probe page

## A heading: with `code`, punctuation & more
## Top
## Top

[good](../README.md#top) [self](#a-heading-with-code-punctuation--more) [repeat](#top-1)
`[in code](no-such-file.md)` [folder](../docs)
```sh
[in a fence](no-such-file.md)
```
[missing](no-such-file.md)
[bad anchor](../README.md#no-such-heading)
[outside](../../shared/ARCHITECTURE.md)
[ignored](../build/trainbench)
EOF
printf 'README.md\ndocs/probe.md\n' >"$WORK/tree.files"
check_links "$WORK/tree" "$WORK/tree.files" docs/probe.md >"$WORK/probe.out" &&
  fail "broken links passed: $(cat "$WORK/probe.out")"
check "the self-check found 8 links" grep -qx 'checked 8' "$WORK/probe.out"
check "4 of them broken" test "$(grep -c '^docs/probe.md:' "$WORK/probe.out")" -eq 4
for what in "no-such-file.md is not in" "no heading with the anchor #no-such-heading" \
  "outside the repository" "build/trainbench is not in"; do
  contains "$WORK/probe.out" "$what"
done

# shellcheck disable=SC2086  # a list of names without spaces
check_links "$SRC" "$WORK/files" $docs >"$WORK/out" || fail "broken links in the docs:
$(grep -v '^checked ' "$WORK/out")"
cat "$WORK/out"
check "links were found and checked" grep -qE '^checked [1-9]' "$WORK/out"
check "README.md links the design document" grep -qF '](docs/architecture.md)' "$SRC/README.md"
done_ok
