#!/usr/bin/env bash
# docs/architecture.md says what the sources are: its include picture (the ```mermaid block)
# and its list of what each folder includes (the ```text includes block) are what
# scripts/include_graph.py prints from src/ now (the picture's line counts aside: they are
# dated, the arrows are not), and every source file it names in code (`job_env.h`,
# `report/page/html_report.cc`) is in the repository. A difference fails with the diff and the
# command that regenerates the block.
source "$(dirname "$0")/../lib/common.sh"

repo_files "$WORK/files"

# check_doc DOC SRC_DIR FILE_LIST: prints what in DOC disagrees with SRC_DIR (and the files of
# FILE_LIST), then "checked N"; fails when anything does.
check_doc() {
  "$PY" - "$SRC/scripts/include_graph.py" "$@" <<'PYEOF'
import difflib, os, re, subprocess, sys

script, doc_path, src, file_list = sys.argv[1:5]
doc = open(doc_path, encoding="utf-8").read().splitlines()
files = [l.rstrip("\n") for l in open(file_list) if l.strip()]
problems, checked = [], 0

def block(first_line):
    """The fenced block of the doc that opens with first_line, fences included; None if none."""
    for i, line in enumerate(doc):
        if line.strip() == first_line:
            for j in range(i + 1, len(doc)):
                if doc[j].strip() == "```":
                    return doc[i:j + 1]
    return None

def compare(what, args, normalize=lambda line: line):
    global checked
    want = subprocess.run([sys.executable, script, *args, src], capture_output=True, text=True,
                          check=True).stdout.splitlines()
    have = block(want[0])
    checked += 1
    command = " ".join(["python3 scripts/include_graph.py", *args])
    if have is None:
        problems.append(f"{doc_path} has no {what} (a block opening with {want[0]}): "
                        f"add what `{command}` prints")
        return
    have, want = [normalize(l) for l in have], [normalize(l) for l in want]
    if have != want:
        diff = "\n".join(difflib.unified_diff(have, want, f"{doc_path} (now)",
                                              f"{command} (the sources)", lineterm="", n=1))
        problems.append(f"{doc_path}'s {what} is not the sources' (replace it with what "
                        f"`{command}` prints):\n{diff}")

# The picture's node labels carry each folder's lines of code, which every edit changes.
compare("include picture", [], lambda line: re.sub(r" \([0-9,]+ lines\)", "", line))
compare("list of includes", ["--list"])

# Source files named in code spans: a path (from the repository's root or from src/, or the
# end of a path) or a bare name that some file has.
names = {os.path.basename(f) for f in files}
file_set = set(files)
source_name = re.compile(r"^[A-Za-z0-9_./-]+\.(h|cc|cu|js|css|sh|py|yaml|cmake)$")
seen = set()
for n, line in enumerate(doc, 1):
    for span in re.findall(r"`([^`\s]+)`", line):
        if not source_name.match(span) or span in seen:
            continue
        seen.add(span)
        checked += 1
        if "/" in span:
            path = span.lstrip("./")
            if path in file_set or "src/" + path in file_set or any(
                    f.endswith("/" + path) for f in files):
                continue
        elif span in names:
            continue
        problems.append(f"{doc_path}:{n}: names `{span}`, which is not in the repository")

for p in problems:
    print(p)
print(f"checked {checked}")
sys.exit(1 if problems else 0)
PYEOF
}

# The checker itself catches what it must, on a scratch tree: a picture missing an arrow, a
# list naming an include that is gone, a file that is not there; and it passes the same doc
# once it is true, whatever the line counts say. A checker that passed everything could not
# pass this test.
mkdir -p "$WORK/tree/src/low" "$WORK/tree/src/mid" "$WORK/tree/src/top"
printf '#include "low/a.h"\nint b;\n' >"$WORK/tree/src/mid/b.h"
printf '#include "mid/b.h"\n#include "low/a.h"\n' >"$WORK/tree/src/top/c.cc"
echo 'int a;' >"$WORK/tree/src/low/a.h"
(cd "$WORK/tree" && find . -type f | sed 's|^\./||') >"$WORK/tree.files"
graph() { "$PY" "$SRC/scripts/include_graph.py" "$@" "$WORK/tree/src"; }
{
  echo "# Probe"
  graph | sed 's/(2 lines)/(99 lines)/'  # another day's line counts: not a difference
  graph --list
  echo 'The files: `mid/b.h`, `c.cc`, `src/low/a.h`.'
} >"$WORK/good.md"
check_doc "$WORK/good.md" "$WORK/tree/src" "$WORK/tree.files" >"$WORK/good.out" ||
  fail "a true doc was refused: $(cat "$WORK/good.out")"
check "the true doc's 2 blocks and 3 files were checked" grep -qx 'checked 5' "$WORK/good.out"
{
  echo "# Probe"
  graph | grep -v -- '--> mid'  # an arrow left out
  graph --list | sed 's|^top/ .*|top/  low/|'  # top/ no longer said to include mid/
  echo 'The files: `mid/b.h`, `mid/gone.cc`, `high/b.h`.'
} >"$WORK/bad.md"
check_doc "$WORK/bad.md" "$WORK/tree/src" "$WORK/tree.files" >"$WORK/bad.out" &&
  fail "a stale doc passed: $(cat "$WORK/bad.out")"
contains "$WORK/bad.out" "include picture is not the sources'"
contains "$WORK/bad.out" "+  top --> mid"
contains "$WORK/bad.out" "list of includes is not the sources'"
contains "$WORK/bad.out" "names \`mid/gone.cc\`, which is not in the repository"
contains "$WORK/bad.out" "names \`high/b.h\`, which is not in the repository"
echo "# Probe" >"$WORK/none.md"
check_doc "$WORK/none.md" "$WORK/tree/src" "$WORK/tree.files" >"$WORK/none.out" &&
  fail "a doc without the blocks passed"
contains "$WORK/none.out" "has no include picture (a block opening with \`\`\`mermaid)"
contains "$WORK/none.out" "has no list of includes (a block opening with \`\`\`text includes)"

check_doc "$SRC/docs/architecture.md" "$SRC/src" "$WORK/files" >"$WORK/out" ||
  fail "docs/architecture.md disagrees with the sources:
$(grep -v '^checked ' "$WORK/out")"
cat "$WORK/out"
check "the doc's blocks and files were checked" grep -qE '^checked [1-9][0-9]+' "$WORK/out"
done_ok
