#!/usr/bin/env bash
# A checkpointing run that only reads (checkpoint.num_checkpoints_write=0) reads what an
# earlier job recorded in checkpoint.checkpoint_folder, and refuses (exit 2, before any work,
# no results, nothing written) when that is not there: no record at all, fewer checkpoints
# than num_checkpoints_read, ones written with another model or seed; a checkpoint whose
# write did not finish (a file missing) is passed over, named, for the whole ones before it.
# Each console line says what the run did, never "written and read" when nothing was written.
source "$(dirname "$0")/../lib/common.sh"
cd "$WORK"

small=(llama3_8b model.num_layers=2 model.transformer.hidden_size=256
  model.transformer.ffn_hidden_size=1024 model.transformer.vocab_size=2000
  model.transformer.num_attention_heads=8 "checkpoint.checkpoint_folder=$WORK/ck" --no-progress)
reads() { echo checkpoint.num_checkpoints_write=0 "checkpoint.num_checkpoints_read=$1"; }

# no_results NAME: a refused run left no results folder under $WORK/NAME.
no_results() { [ ! -e "$WORK/$1" ] || fail "a refused run left results: $(ls -R "$WORK/$1")"; }

# Nothing there yet (no folder): the folder and the job to run first are named; no folder made.
expect_exit 2 none.txt "$TB" run "${small[@]}" "output.folder=$WORK/none" $(reads 2)
contains none.txt "checkpoint.checkpoint_folder $WORK/ck holds no checkpoint trainbench wrote"
contains none.txt "checkpoint.num_checkpoints_write=2 checkpoint.num_checkpoints_read=0"
no_results none
[ ! -e "$WORK/ck" ] || fail "a read-only run made the checkpoint folder"
expect_exit 2 nothing.txt "$TB" run "${small[@]}" "output.folder=$WORK/nothing" $(reads 0)
contains nothing.txt "would write and read nothing"
no_results nothing

# An earlier job writes 2 (and reads none back: its line says so).
expect_exit 0 write.txt "$TB" run "${small[@]}" "output.folder=$WORK/w" \
  checkpoint.num_checkpoints_write=2 checkpoint.num_checkpoints_read=0
contains write.txt "run complete: 2 checkpoint(s) written, none read back"
if grep -q "written and read" write.txt; then fail "a run that read nothing says it read"; fi
written=$(ls -d "$WORK"/w/*/)summary.json

# Reading both: every byte written is read, by step.
expect_exit 0 read.txt "$TB" run "${small[@]}" "output.folder=$WORK/r" $(reads 2)
contains read.txt "run complete: 2 checkpoint(s) read that an earlier job wrote, none written"
check "every byte written is read back" "$PY" - "$written" "$(ls -d "$WORK"/r/*/)summary.json" <<'PY'
import json, sys
w, r = (json.load(open(p)) for p in sys.argv[1:])
assert r["complete"], r["stop_reason"]
assert [c["operation"] for c in r["checkpoints"]] == ["read", "read"], r["checkpoints"]
assert {c["path"]: c["bytes"] for c in r["checkpoints"]} == {c["path"]: c["bytes"] for c in w["checkpoints"]}
assert r["checkpoint_gap_s"] is None  # nothing written in this run
PY

# More than there are; another model; another seed: refused, each saying what it found.
expect_exit 2 more.txt "$TB" run "${small[@]}" "output.folder=$WORK/more" $(reads 3)
contains more.txt "holds 2 checkpoint(s) this run can read (global_epoch1_step1, global_epoch1_step2)"
contains more.txt "read 2 (checkpoint.num_checkpoints_read=2)"
no_results more
expect_exit 2 model.txt "$TB" run "${small[@]}" "output.folder=$WORK/model" $(reads 1) model.num_layers=3
contains model.txt "none that this run can read"
contains model.txt "this run's config makes"
no_results model
expect_exit 2 seed.txt "$TB" run "${small[@]}" "output.folder=$WORK/seed" $(reads 1) train.seed=7
contains seed.txt "written with train.seed=123, this run has 7"
no_results seed

# A write that did not finish (a file of step 2 missing): passed over and named; step 1 read.
rm "$WORK"/ck/global_epoch1_step2/*_optim_states.pt
expect_exit 0 cut.txt "$TB" run "${small[@]}" "output.folder=$WORK/cut" $(reads 1)
contains cut.txt "checkpoint not read (it does not match this run): global_epoch1_step2: zero_pp_rank_0_mp_rank_0_optim_states.pt is missing"
[ "$(json "$(ls -d "$WORK"/cut/*/)summary.json" '[(c["operation"], c["path"]) for c in d["checkpoints"]]')" = \
  "[('read', 'global_epoch1_step1')]" ] || fail "the cut run read $(cat cut.txt)"
done_ok
