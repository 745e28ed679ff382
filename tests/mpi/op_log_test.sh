#!/usr/bin/env bash
# run --op-log under mpirun: one op-log per rank (FILE.rank0000.tsv.zst, FILE.rank0001.tsv.zst),
# each rank's client_id its own, and together one line per read the job counted; datagen
# --op-log the same way, the ranks' logs together one PUT per file written.
source "$(dirname "$0")/../lib/common.sh"
cd "$WORK"
skip_unless "command -v mpirun" "$MPI_NEEDS"
skip_unless "command -v zstd" "no zstd (Debian's zstd)"
mpi_launch 120 -np 2 "$TB" datagen resnet50_h100 "${MPI_SMALL[@]}" --no-progress \
  --op-log "$WORK/dg.tsv" >d.txt 2>&1 || { cat d.txt; fail "datagen over 2 ranks"; }
check "datagen: no log under the plain name" test ! -e "$WORK/dg.tsv"
check "datagen: one PUT per file over the ranks' logs, each rank its own client" "$PY" - "$WORK/data" <<'PY'
import csv, os, sys
files = {os.path.join(d, f) for d, _, fs in os.walk(sys.argv[1]) for f in fs if f != ".trainbench.lock"}
puts = []
for r in (0, 1):
    ops = list(csv.DictReader(open(f"dg.rank{r:04}.tsv"), delimiter="\t"))
    assert ops and all(o["client_id"].endswith(f":{r}") for o in ops), r
    puts += [o["file"] for o in ops if o["op"] == "PUT"]
assert sorted(puts) == sorted(files), (len(puts), len(files))
PY
mpi_launch 120 -np 2 "$TB" run resnet50_h100 "${MPI_SMALL[@]}" reader.batch_size=2 train.epochs=2 \
  -a 2 --no-progress --op-log "$WORK/ops.tsv.zst" >r.txt 2>&1 || { cat r.txt; fail "run over 2 ranks"; }
check "no log under the plain name" test ! -e "$WORK/ops.tsv.zst"
for r in 0000 0001; do
  zstd -dcq "$WORK/ops.rank$r.tsv.zst" >"ops.$r.txt" || fail "ops.rank$r.tsv.zst does not decompress"
done
check "one line per read, each rank its own client" "$PY" - "$(results_dir)/summary.json" <<'PY'
import csv, json, sys
s = json.load(open(sys.argv[1]))
rows = {r: list(csv.DictReader(open(f"ops.{r}.txt"), delimiter="\t")) for r in ("0000", "0001")}
assert sum(len(v) for v in rows.values()) == s["read_latency_ms"]["count"], {k: len(v) for k, v in rows.items()}
for r, ops in rows.items():
    assert ops and all(o["client_id"].endswith(":" + str(int(r))) for o in ops), r
PY
done_ok
