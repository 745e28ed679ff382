#!/usr/bin/env bash
# srun starts trainbench's ranks itself, through PMIx (MpiDefault=pmix: Debian's Slurm 22.05
# has mpi/pmix_v4 and its Open MPI 4.1 the same libpmix2): datagen on 2 nodes x 2 tasks
# splits the files over the 4 ranks, and run takes the same samples and reads the same bytes
# per epoch as mpirun over the same two hosts outside Slurm, with the same row per host. A
# step without PMI (--mpi=none) is warned about on every task.
source "$(dirname "$0")/../lib/common.sh"
cd "$WORK"
skip_unless "command -v mpirun" "$MPI_NEEDS"
slurm_use_cluster

slurm_srun 120 -N2 --ntasks-per-node=2 "$TB" datagen resnet50_h100 "${MPI_SMALL[@]}" \
  --no-progress >dg.txt 2>&1 || { cat dg.txt; fail "datagen under srun"; }
contains dg.txt "datagen: 16 files (16 written"
contains dg.txt "trainbench[0/4 hosta]"

common=(resnet50_h100 "${MPI_SMALL[@]}" reader.batch_size=3 train.epochs=2 --no-progress -a 1)
slurm_srun 120 -N2 --ntasks-per-node=2 "$TB" run "${common[@]}" >srun.txt 2>&1 ||
  { cat srun.txt; fail "run under srun"; }
mv out out.srun
slurm_mpirun 120 -np 4 "$TB" run "${common[@]}" >mpirun.txt 2>&1 ||
  { cat mpirun.txt; fail "run under mpirun"; }
mv out out.mpirun

# figures SUMMARY: per phase, what was taken and read; then the hosts' rows.
figures() {
  json "$1" '[(p["kind"], p["epoch"], p["samples"], p["requested_bytes"], p["bytes_read"]) for p in d["phases"]]'
}
hosts() {
  json "$1" '(d["num_hosts"], d["num_ranks"], d["num_accelerators"], [(h["host"], h["ranks"], h["accelerators"]) for h in d["hosts"]])'
}
s_srun=$(ls out.srun/*/summary.json)
s_mpi=$(ls out.mpirun/*/summary.json)
echo "srun:   $(figures "$s_srun")"
echo "mpirun: $(figures "$s_mpi")"
check "srun's run is complete" test "$(json "$s_srun" 'd["complete"]')" = True
check "srun and mpirun took the same samples and bytes per epoch" \
  test "$(figures "$s_srun")" = "$(figures "$s_mpi")"
check "two train epochs, each taking samples" \
  test "$(json "$s_srun" '[p["samples"] > 0 for p in d["phases"] if p["kind"] == "train"]')" = "[True, True]"
want="(2, 4, 4, [('hosta', [0, 1], 2), ('hostb', [2, 3], 2)])"
check "srun: a row per host, ranks 0-1 on hosta: $(hosts "$s_srun")" test "$(hosts "$s_srun")" = "$want"
check "mpirun: the same rows: $(hosts "$s_mpi")" test "$(hosts "$s_mpi")" = "$want"
contains srun.txt "over 4 ranks on 2 host(s) (hosta, hostb)"

# Without PMI (srun --mpi=none) every task would run alone: each says so.
slurm_srun 60 -N2 --ntasks-per-node=1 --mpi=none "$TB" clean resnet50_h100 "${MPI_SMALL[@]}" \
  >nopmi.txt 2>&1 || { cat nopmi.txt; fail "clean under srun --mpi=none"; }
check "both tasks warn that they run alone: $(cat nopmi.txt)" \
  test "$(grep -c "srun started 2 tasks without PMI, so each runs alone: launch with srun --mpi=pmix" nopmi.txt)" = 2
done_ok
