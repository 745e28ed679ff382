#!/usr/bin/env bash
# The suite's and the benches' peers from PyPI (pyarrow, TensorFlow, PyTorch, DLIO, s3dlio, ...)
# in the project's one virtual environment, .venv/ (git ignores it), at the versions
# requirements.txt pins: every package there, the peers' own dependencies included, so that a
# fresh machine gets what the last session measured with. Wheels only (--only-binary): nothing
# is compiled here. --no-deps: the file is the whole set (DLIO's own list asks for a CUDA DALI
# and the full TensorFlow, which a CPU suite does not use); `pip check` says what it leaves out. Idempotent: when .venv already holds requirements.txt as it is, this costs
# a second. The tests find the environment's python at .venv/bin/python (tests/lib/common.sh).
# Environment: TRAINBENCH_VENV_PYTHON, the python3 that makes the environment (default: the
# first python3 on PATH whose venv module works; Debian's needs python3-venv).
set -euo pipefail
cd "$(dirname "$0")/.."
venv=.venv
stamp=$venv/.requirements.sha256
want=$(sha256sum requirements.txt | cut -d' ' -f1)
if [ -x "$venv/bin/python" ] && [ "$(cat "$stamp" 2>/dev/null)" = "$want" ]; then
  echo "setup: Python environment .venv holds requirements.txt"
  exit 0
fi
python=${TRAINBENCH_VENV_PYTHON:-python3}
if ! "$python" -c 'import venv, ensurepip' 2>/dev/null; then
  echo "setup: $python has no venv/ensurepip module: install python3-venv, or give" \
    "TRAINBENCH_VENV_PYTHON=/path/to/python3" >&2
  exit 1
fi
echo "setup: installing requirements.txt from PyPI into .venv ($("$python" --version); minutes the first time)"
[ -x "$venv/bin/python" ] || "$python" -m venv "$venv"
rm -f "$stamp"
# pip says what it installed at the end; its whole output goes to .venv/pip.log.
if ! "$venv/bin/python" -m pip install --disable-pip-version-check --no-input --progress-bar off \
  --only-binary=:all: --no-deps -r requirements.txt >"$venv/pip.log" 2>&1; then
  tail -n 20 "$venv/pip.log" >&2
  # The likeliest reasons, named from pip's own words.
  if grep -q "No space left on device" "$venv/pip.log"; then
    why="the disk is full (.venv takes about 5.4 GB with torch's CUDA libraries, TensorFlow"
    why+=" and pyarrow): free space and run this again"
  elif grep -qiE "No matching distribution|Could not find a version" "$venv/pip.log"; then
    why="a pinned version is not on the package index this machine uses"
  else
    why="is PyPI reachable from here?"
  fi
  echo "setup: pip could not install requirements.txt into .venv: $why; the whole log is" \
    "$venv/pip.log" >&2
  exit 1
fi
grep -E '^Successfully installed' "$venv/pip.log" | cut -c1-300 || true
"$venv/bin/python" -m pip check >"$venv/pip-check.log" 2>&1 ||
  echo "setup: $(wc -l <"$venv/pip-check.log") dependencies left out on purpose or missing: see $venv/pip-check.log"
echo "$want" >"$stamp"
echo "setup: .venv ready ($("$venv/bin/python" -m pip list --format=freeze 2>/dev/null | wc -l) packages)"
