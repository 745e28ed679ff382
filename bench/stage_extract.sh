#!/usr/bin/env bash
# stage --extract, two binaries alternated: bash bench/stage_extract.sh OLD NEW TAR [RUNS]
# Each run extracts the local TAR into a fresh DEST beside it (removed, then sync, before each
# run) and prints: binary, wall_s, extract_s (from trainbench_stage), CPU seconds (user+sys).
# Make a tar of 10,000 files of 100 KiB with e.g.
#   python3 -c "import os; [os.makedirs(f'src/d{d}', exist_ok=True) or [open(f'src/d{d}/f{i}.bin','wb').write(os.urandom(102400)) for i in range(1000)] for d in range(10)]"
#   tar -cf ten_k.tar -C src .
set -euo pipefail
old=$1 new=$2 tar=$(realpath "$3") runs=${4:-5}
work=$(dirname "$tar")/stage-extract-bench
trap 'rm -rf "$work"' EXIT
mkdir -p "$work"
for _ in $(seq "$runs"); do
  for which in old new; do
    bin=$old
    [ "$which" = new ] && bin=$new
    rm -rf "$work/dest"
    sync
    /usr/bin/time -o "$work/time" -f "%U %S" "$bin" stage "$tar" "$work/dest" --extract \
      --no-progress --output "$work/results" >"$work/out"
    python3 - "$which" "$work" <<'PY'
import json, sys
which, work = sys.argv[1], sys.argv[2]
j = json.loads(open(f"{work}/out").read().splitlines()[-1])["trainbench_stage"]
user, system = map(float, open(f"{work}/time").read().split()[-2:])
print(which, round(j["wall_s"], 2), round(j["extract_s"], 2), round(user + system, 2))
PY
  done
done
