#!/usr/bin/env bash
# datagen and run over 1, 2 and 4 ranks on this machine: ranks split the dataset's files and
# the accelerators' shards without overlap, so the job reads the same samples per epoch as
# one process with the same total accelerators (the sum of the varying sample sizes an epoch
# took says which samples it took), with uneven accelerators per rank too; a random shuffle
# is one order over all ranks (its seed is rank 0's); rank 0 reports hosts and ranks, and its
# epoch lines (its own share) say they are rank 0's.
source "$(dirname "$0")/../lib/common.sh"
cd "$WORK"
skip_unless "command -v mpirun" "$MPI_NEEDS"

# datagen: 3 ranks write the same files and manifest as one process; a second run resumes.
"$TB" datagen resnet50_h100 "${MPI_SMALL[@]}" "dataset.data_folder=$WORK/one" --no-progress \
  >/dev/null 2>&1 || fail "datagen, one process"
mpi_launch 120 -np 3 "$TB" datagen resnet50_h100 "${MPI_SMALL[@]}" --no-progress >dg.txt 2>&1 ||
  { cat dg.txt; fail "datagen over 3 ranks"; }
grep -q "^datagen: 16 files (16 written, 0 already complete)" dg.txt || fail "datagen line: $(cat dg.txt)"
[ "$(grep -c '^datagen:' dg.txt)" = 1 ] || fail "only rank 0 prints the result line"
cmp "$WORK/one/trainbench_manifest.json" "$WORK/data/trainbench_manifest.json" ||
  fail "the manifest of 3 ranks differs from one process's"
(cd "$WORK/one" && find train -type f | sort | xargs md5sum) >one.md5
(cd "$WORK/data" && find train -type f | sort | xargs md5sum) >ranks.md5
cmp one.md5 ranks.md5 || fail "files of 3 ranks differ from one process's"
ls -a "$WORK/data" | grep -q journal && fail "a rank's journal was left behind"
mpi_launch 120 -np 3 "$TB" datagen resnet50_h100 "${MPI_SMALL[@]}" --no-progress >dg2.txt 2>&1 ||
  { cat dg2.txt; fail "datagen again"; }
grep -q "(0 written, 16 already complete)" dg2.txt || fail "resume over ranks: $(cat dg2.txt)"

# A datagen of another rank count stopped midway (one process, stopped by a file it cannot
# write): a rerun over 2 ranks keeps the files it finished, says so, writes only the rest (the
# same bytes as one process's), and leaves no journal of either rank count behind.
mkdir -p "$WORK/mixed/train/img_10_of_16.tfrecord/blocker"
code=0
"$TB" datagen resnet50_h100 "${MPI_SMALL[@]}" "dataset.data_folder=$WORK/mixed" --threads 1 \
  --no-progress >mixed1.txt 2>&1 || code=$?
[ "$code" = 1 ] || fail "datagen into a blocked file: exit $code: $(cat mixed1.txt)"
ls -a "$WORK/mixed" | grep -qx '.trainbench_manifest.journal' || fail "no journal of the stopped datagen"
rm -r "$WORK/mixed/train/img_10_of_16.tfrecord"
mpi_launch 120 -np 2 "$TB" datagen resnet50_h100 "${MPI_SMALL[@]}" "dataset.data_folder=$WORK/mixed" \
  --no-progress >mixed2.txt 2>&1 || { cat mixed2.txt; fail "datagen over 2 ranks after one process"; }
grep -q "recorded by an earlier datagen of another rank count" mixed2.txt ||
  fail "the rerun does not say it kept the earlier files: $(cat mixed2.txt)"
counts=$(sed -n 's/^datagen: 16 files (\([0-9]*\) written, \([0-9]*\) already complete).*/\1 \2/p' mixed2.txt)
[ -n "$counts" ] && [ "${counts#* }" -ge 10 ] || fail "the rerun wrote again what was finished: $(cat mixed2.txt)"
(cd "$WORK/mixed" && find train -type f | sort | xargs md5sum) >mixed.md5
cmp one.md5 mixed.md5 || fail "files after the rank-count change differ from one process's"
ls -a "$WORK/mixed" | grep -q journal && fail "a journal was left behind: $(ls -a "$WORK/mixed")"

# datasize under mpirun: --accelerators is each rank's, as run's is; the run it suggests is
# launched the same way with the per-rank count (it suggested the total as a per-rank count).
mpi_launch 60 -np 2 "$TB" datasize resnet50_h100 -a 4 --host-memory-gib 1 >ds.txt 2>&1 ||
  { cat ds.txt; fail "datasize over 2 ranks"; }
grep -q "ranks            2 on 1 host(s), 8 accelerators" ds.txt || fail "datasize ranks line: $(cat ds.txt)"
grep -q "^  mpirun -np 2 trainbench run resnet50_h100 .* --accelerators 4   # 4 per rank, 8 in all" ds.txt ||
  fail "datasize's run line under mpirun: $(cat ds.txt)"

# epoch_takes SUMMARY: per train epoch, samples and the bytes of the samples taken.
epoch_takes() { json "$1" '[(p["samples"], p["requested_bytes"]) for p in d["phases"] if p["kind"] == "train"]'; }

# 4 accelerators, batch 3: 10 steps per epoch, and 8 of the 128 samples are left out, which
# ones depending on every accelerator's shard.
common=(resnet50_h100 "${MPI_SMALL[@]}" reader.batch_size=3 train.epochs=2 --no-progress)
"$TB" run "${common[@]}" -a 4 >one.txt 2>&1 || { cat one.txt; fail "run, one process"; }
one=$(epoch_takes "$(newest_summary)")
bytes_one=$(json "$(newest_summary)" 'd["io_characterization"]["POSIX_BYTES_READ"]')
for shape in "2 2" "4 1"; do
  set -- $shape
  mpi_launch 120 -np "$1" "$TB" run "${common[@]}" -a "$2" >r.txt 2>&1 ||
    { cat r.txt; fail "run over $1 ranks x $2"; }
  s=$(newest_summary)
  [ "$(epoch_takes "$s")" = "$one" ] ||
    fail "$1 ranks x $2 took other samples than 1 x 4: $(epoch_takes "$s") vs $one"
  [ "$(json "$s" 'd["io_characterization"]["POSIX_BYTES_READ"]')" = "$bytes_one" ] ||
    fail "$1 ranks x $2: bytes read differ from one process's"
  [ "$(json "$s" 'd["num_accelerators"], d["num_ranks"], d["num_hosts"]')" = "(4, $1, 1)" ] ||
    fail "accelerators/ranks/hosts in summary"
  [ "$(json "$s" 'len(d["ranks"]), d["hosts"][0]["ranks"], d["hosts"][0]["accelerators"]')" = \
    "($1, $(json "$s" 'list(range('"$1"'))'), 4)" ] || fail "hosts and ranks rows: $(json "$s" 'd["hosts"]')"
  [ "$(ls "$(results_dir)"/rank-*.json | wc -l)" = "$1" ] || fail "one rank-N.json per rank"
  grep -q "over $1 ranks on 1 host(s)" r.txt || fail "the run line names the ranks"
  # Rank 0's epoch lines are its own share, under a table of the sum: they say so.
  grep -q "^trainbench[^:]*: rank 0's share: epoch 1/2: " r.txt || fail "rank 0's epoch lines unlabelled: $(cat r.txt)"
  if grep -q "^trainbench[^:]*: epoch " r.txt; then fail "an epoch line that does not say whose: $(cat r.txt)"; fi
  grep -q "lines marked \"rank 0's share:\" are this rank's own accelerators ($2 of 4); the table at the end sums the $1 ranks" r.txt ||
    fail "no line says what rank 0's lines are: $(cat r.txt)"
done
grep -q "^trainbench: epoch 1/2: " one.txt || fail "one process's epoch lines: $(cat one.txt)"
# Uneven: rank 0 drives 3 accelerators, rank 1 one (mpirun's MPMD form).
mpi_launch 120 -np 1 "$TB" run "${common[@]}" -a 3 : -np 1 "$TB" run "${common[@]}" -a 1 >u.txt 2>&1 ||
  { cat u.txt; fail "uneven run"; }
s=$(newest_summary)
[ "$(epoch_takes "$s")" = "$one" ] || fail "3+1 accelerators took other samples than 1 x 4"
[ "$(json "$s" '[r["accelerators"] for r in d["ranks"]]')" = "[3, 1]" ] || fail "per-rank accelerators"
# The rules' per-host fields (rank 0 has every rank's host): one host, 3 + 1 accelerators.
[ "$(json "$s" '(len(d["host_memory_GB"]), d["host_cpu_count"] == [__import__("os").cpu_count()], d["rules"]["same_accelerators_per_host"]["accelerators_per_host"], abs(d["data_size_per_host_GB"] - d["train_bytes"] / 2**30) < 1e-9)')" = \
  "(1, True, [4], True)" ] || fail "rules' fields over ranks: $(json "$s" 'd["rules"]')"
# Histograms are merged bucket by bucket: the job's read count is the ranks' sum.
[ "$(json "$s" 'd["read_latency_ms"]["count"] == sum(json.load(open(f))["read_latency_ms"]["count"] for f in __import__("glob").glob("'"$(results_dir)"'/rank-*.json"))')" = True ] ||
  fail "read latency counts do not add up over ranks"

# shuffle random over 2 ranks x 2, batch 4: 8 steps take all 128 samples, each once per
# epoch, only if both ranks shuffle with the same seed.
total=$(json "$WORK/data/trainbench_manifest.json" 'sum(s[1] for f in d["files"] for s in f["samples"])' 2>/dev/null ||
  json "$(newest_summary)" 'd["train_bytes"]')
mpi_launch 120 -np 2 "$TB" run resnet50_h100 "${MPI_SMALL[@]}" reader.batch_size=4 train.epochs=2 \
  reader.sample_shuffle=random reader.file_shuffle=random -a 2 --no-progress >rnd.txt 2>&1 ||
  { cat rnd.txt; fail "random shuffle run"; }
s=$(newest_summary)
[ "$(json "$s" '[p["samples"] for p in d["phases"]]')" = "[128, 128]" ] || fail "random: samples per epoch"
[ "$(json "$s" 'len({json.load(open(f))["random_shuffle_seed"] for f in __import__("glob").glob("'"$(results_dir)"'/rank-*.json")})')" = 1 ] ||
  fail "ranks drew different random seeds"
req=$(json "$s" '[p["requested_bytes"] for p in d["phases"]]')
[ "$req" = "[$total, $total]" ] || fail "random: each epoch must take every sample once ($req vs $total per epoch)"
[ "$(json "$s" 'd["io_characterization"]["POSIX_BYTES_READ"]')" = $((2 * total)) ] ||
  fail "bytes read != dataset bytes x epochs"

# Checkpoints over 2 ranks: rank_zero writes the whole checkpoint from rank 0, all_ranks a
# share from each rank (together the same bytes); both read back whole.
ck=(resnet50_h100 "${MPI_SMALL[@]}" reader.batch_size=4 train.epochs=2 -a 2 --no-progress
  workflow.checkpoint=true checkpoint.epochs_between_checkpoints=1 checkpoint.num_checkpoints_read=1
  model.model_size_bytes=3000001)
for type in rank_zero all_ranks; do
  mpi_launch 120 -np 2 "$TB" run "${ck[@]}" "checkpoint.checkpoint_folder=$WORK/ck-$type" \
    "checkpoint.type=$type" >ck.txt 2>&1 || { cat ck.txt; fail "checkpoints $type"; }
  s=$(newest_summary)
  [ "$(json "$s" '[(c["operation"], c["bytes"]) for c in d["checkpoints"]]')" = \
    "[('write', 9000003), ('write', 9000003), ('read', 9000003)]" ] ||
    fail "$type checkpoints: $(json "$s" 'd["checkpoints"]')"
done
[ "$(ls "$WORK"/ck-rank_zero/*epoch1*/)" = "$(printf 'model.pt\noptimizer.pt')" ] || fail "rank_zero files"
[ "$(ls "$WORK"/ck-all_ranks/*epoch1*/ | tr '\n' ' ')" = \
  "model-rank0.pt model-rank1.pt optimizer-rank0.pt optimizer-rank1.pt " ] || fail "all_ranks files"

# datasize takes hosts, memory and accelerators from the ranks.
mpi_launch 60 -np 2 "$TB" datasize resnet50_h100 -n 3 >ds.txt 2>&1 || { cat ds.txt; fail "datasize"; }
grep -q "^ranks  *2 on 1 host(s), 6 accelerators" ds.txt || fail "datasize over ranks: $(cat ds.txt)"
grep -q "500 x 400 x 6, 5 x 1 x" ds.txt || fail "datasize rule"

# --drop-caches: one rank per host empties its page cache (where this box lets root do it).
if sync && echo 1 >/proc/sys/vm/drop_caches 2>/dev/null; then
mpi_launch 120 -np 2 "$TB" run "${common[@]}" -a 2 --drop-caches >dc.txt 2>&1 || { cat dc.txt; fail "drop caches"; }
grep -q "page caches dropped on 1 host(s)" dc.txt || fail "drop-caches line"
[ "$(json "$(newest_summary)" 'd["cache"]["dropped_before_run"]')" = True ] || fail "summary: dropped"
fi

# clean under mpirun: rank 0 removes, the others wait.
mpi_launch 60 -np 2 "$TB" clean resnet50_h100 "${MPI_SMALL[@]}" --yes >clean.txt 2>&1 || { cat clean.txt; fail "clean"; }
[ "$(grep -c '^clean: removed' clean.txt)" = 1 ] || fail "clean: one report"
[ ! -e "$WORK/data/trainbench_manifest.json" ] || fail "clean left the manifest"
echo OK
