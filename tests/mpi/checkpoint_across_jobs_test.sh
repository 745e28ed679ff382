#!/usr/bin/env bash
# MLPerf Storage's checkpoint sequence across jobs (write, then read in another job, so the
# reads are not the writer's): a 2-rank job writes 2 checkpoints of llama3_8b's layout
# (scaled down) and reads none; a second 2-rank job with checkpoint.num_checkpoints_write=0
# finds them by their records and reads every byte the first wrote, each rank its own shard
# (the op-log says which files each rank read); with checkpoint.read_shard_offset=1 each
# rank reads the other's shard. Over a folder with nothing recorded in it the read-only job
# refuses (exit 2) before any work, naming the folder and the job to run first, and leaves
# no results.
source "$(dirname "$0")/../lib/common.sh"
cd "$WORK"
skip_unless "command -v mpirun" "$MPI_NEEDS"

small=(model.num_layers=2 model.transformer.hidden_size=256 model.transformer.ffn_hidden_size=1024
  model.transformer.vocab_size=2000 model.transformer.num_attention_heads=8
  "checkpoint.checkpoint_folder=$WORK/ck" --no-progress)

# The first job writes, and reads nothing back.
mpi_launch 120 -np 2 "$TB" run llama3_8b "${small[@]}" "output.folder=$WORK/w" \
  checkpoint.num_checkpoints_write=2 checkpoint.num_checkpoints_read=0 >w.txt 2>w.err ||
  { cat w.err; fail "the writing job"; }
contains w.err "run complete: 2 checkpoint(s) written, none read back"
written=$(ls -d "$WORK"/w/*/)summary.json
check "the writing job wrote 2 checkpoints over 2 ranks and read none" "$PY" - "$written" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
assert s["complete"], s["stop_reason"]
rows = [(c["operation"], c["path"], c["ranks"]) for c in s["checkpoints"]]
assert rows == [("write", "global_epoch1_step1", 2), ("write", "global_epoch1_step2", 2)], rows
PY

# read_job NAME OVERRIDES...: a 2-rank job that only reads (its op-log NAME.rank000R.tsv).
read_job() {
  local name=$1
  shift
  mpi_launch 120 -np 2 "$TB" run llama3_8b "${small[@]}" "output.folder=$WORK/$name" \
    checkpoint.num_checkpoints_write=0 checkpoint.num_checkpoints_read=2 \
    --op-log "$WORK/$name.tsv" "$@" >"$name.txt" 2>"$name.err" ||
    { cat "$name.err"; fail "the reading job $name"; }
  contains "$name.err" "run complete: 2 checkpoint(s) read that an earlier job wrote, none written"
  contains "$name.err" "reading 2 checkpoint(s) an earlier job wrote in $WORK/ck"
}

# check_read NAME OFFSET: job NAME read every byte written, each rank the shard of rank
# (rank + OFFSET) % 2 and no other, all of it GETs in its op-log.
check_read() {
  check "job $1 read every byte the writing job wrote, rank r rank (r + $2) % 2's shard" \
    "$PY" - "$written" "$(ls -d "$WORK/$1"/*/)summary.json" "$WORK/$1" "$2" "$1.txt" <<'PY'
import csv, json, sys
w, r = (json.load(open(p)) for p in sys.argv[1:3])
assert r["complete"], r["stop_reason"]
wrote = {c["path"]: c["bytes"] for c in w["checkpoints"]}
read = {c["path"]: c["bytes"] for c in r["checkpoints"]}
assert [c["operation"] for c in r["checkpoints"]] == ["read", "read"], r["checkpoints"]
assert read == wrote and sum(read.values()) == sum(wrote.values()) > 0, (read, wrote)
assert all(c["ranks"] == 2 and c["GB_per_second"] > 0 for c in r["checkpoints"]), r["checkpoints"]
line = json.loads(open(sys.argv[5]).read().splitlines()[-1])["trainbench_metrics"]
assert line["checkpoint_read_GB_per_second"] > 0 and line["checkpoint_write_GB_per_second"] is None
offset = int(sys.argv[4])
got = 0
for rank in (0, 1):
    rows = list(csv.DictReader(open(f"{sys.argv[3]}.rank000{rank}.tsv"), delimiter="\t"))
    gets = [x for x in rows if x["op"] == "GET"]
    assert not [x for x in rows if x["op"] == "PUT"], "a reading job wrote"
    shard = f"zero_pp_rank_{(rank + offset) % 2}_mp_rank_0_"
    assert gets and all(shard in x["file"] for x in gets), (rank, {x["file"] for x in gets})
    got += sum(int(x["bytes"]) for x in gets)
assert got == sum(wrote.values()), (got, wrote)
PY
}

read_job own
check_read own 0
read_job other checkpoint.read_shard_offset=1
check_read other 1
contains other.err "global_epoch1_step2 read:"
grep -q "by this rank (rank 1's shard)" other.err || fail "rank 0 does not say it read rank 1's shard: $(cat other.err)"

# Written by 2 ranks, so one rank's shards do not match: refused, saying why.
expect_exit 2 one.txt "$TB" run llama3_8b "${small[@]}" "output.folder=$WORK/one" \
  checkpoint.num_checkpoints_write=0 checkpoint.num_checkpoints_read=1
contains one.txt "global_epoch1_step2: written by 2 ranks, this run has 1"
[ ! -e "$WORK/one" ] || fail "a refused job left results: $(ls -R "$WORK/one")"

# Nothing recorded there: refused before any work, the folder named, no results folder.
mkdir "$WORK/empty"
expect_exit 2 empty.txt mpi_launch 60 -np 2 "$TB" run llama3_8b "${small[@]}" \
  "checkpoint.checkpoint_folder=$WORK/empty" "output.folder=$WORK/e" \
  checkpoint.num_checkpoints_write=0 checkpoint.num_checkpoints_read=1
contains empty.txt "checkpoint.checkpoint_folder $WORK/empty holds no checkpoint trainbench wrote"
contains empty.txt "checkpoint.num_checkpoints_write=1 checkpoint.num_checkpoints_read=0"
[ -z "$(ls -A "$WORK/e" 2>/dev/null)" ] || fail "a refused job left results: $(ls -R "$WORK/e")"
[ -z "$(ls -A "$WORK/empty")" ] || fail "a refused job wrote into the checkpoint folder"
done_ok
