#!/usr/bin/env bash
# trainbench run with sai3-bench's resnet50 4-hosts config over 4 ranks (its 4 agents), scaled
# down, against a folder: each rank's op-log shows it PUT exactly its 1/4 of the objects (object
# i on rank i mod 4), the listing holds all of them; rank 0's one final line and summary.json
# merge the 4 ranks (the GETs are every rank's op-log GETs together).
source "$(dirname "$0")/../lib/common.sh"
cd "$WORK"
skip_unless "command -v mpirun" "$MPI_NEEDS"
config=$SRC/tests/data/sai3-bench/resnet50_4-hosts.yaml
mpi_launch 120 -np 4 "$TB" run "$config" target="file://$WORK/t/" duration=1s concurrency=2 \
  output.folder="$WORK/out" prepare.ensure_objects.0.count=40 prepare.ensure_objects.0.size_spec.min=1000 \
  prepare.ensure_objects.0.size_spec.max=20000 prepare.ensure_objects.0.size_spec.mean=5000 \
  prepare.ensure_objects.0.size_spec.std_dev=2000 prepare.directory_structure.width=2 \
  prepare.directory_structure.files_per_dir=10 --no-progress --op-log "$WORK/ops.tsv" \
  >run.out 2>run.err || { cat run.out run.err; fail "run over 4 ranks"; }
check "one final line (rank 0's)" test "$(grep -c '"trainbench_sai3"' run.out)" = 1
folder=$(json_last_line run.out 'd["trainbench"]["results"]')
check "each rank prepared its 1/4; rank 0 merged the 4 ranks" "$PY" - "$WORK/t" "$folder/summary.json" \
  "$SRC/tests/lib" <<'PY'
import os, sys
sys.path.insert(0, sys.argv[3])
from sai3_ranks import merged_summary, prepared_puts
root = sys.argv[1]
listed = sorted(os.path.relpath(os.path.join(d, f), root) for d, _, fs in os.walk(root)
                for f in fs if f.startswith("prepared-"))
assert len(listed) == 40, listed
puts, gets = prepared_puts("ops", 4, 40)
assert sorted(os.path.relpath(p, root) for p in puts) == listed
s = merged_summary(sys.argv[2], 4, 40)
(get,) = s["ops"]
assert get["count"] == gets > 0, (get, gets)
assert len(s["host_names"]) >= 1
PY
contains run.err "distributed.stages"
done_ok
