#!/usr/bin/env bash
# DLIO's checkpoint.mode=subset (MLPerf Storage v3.0, Rules 4.3.5: llama3_8b on 8 processes,
# one 8-GPU node): the ranks write their shards of a job of model.parallelism.data x tensor x
# pipeline ranks. `datasize --checkpoint` shows the mode, the subset's share of the whole
# job and whether it is MLPerf's subset; a run over 4 and 8 ranks writes (and reads back,
# byte for byte) exactly the shards datasize computes, and summary.json says the mode and
# the rules' verdict. Scaled down: llama3_8b's layout with 2 small layers.
source "$(dirname "$0")/../lib/common.sh"
cd "$WORK"
skip_unless "command -v mpirun" "$MPI_NEEDS"

small=(model.num_layers=2 model.transformer.hidden_size=256 model.transformer.ffn_hidden_size=1024
  model.transformer.vocab_size=2000 model.transformer.num_attention_heads=8
  "output.folder=$WORK/out" checkpoint.num_checkpoints_write=2 checkpoint.num_checkpoints_read=1)
subset=(checkpoint.mode=subset model.parallelism.data=8)

# The full-size figures: MLPerf's subset is the whole 8-rank checkpoint (the rules' "105 GB").
"$TB" datasize llama3_8b --checkpoint --ranks 8 "${subset[@]}" >ds8.txt || fail "datasize subset"
"$TB" datasize llama3_8b --checkpoint --ranks 8 >ds8_default.txt || fail "datasize default"
grep -q "^mode  *subset$" ds8.txt || fail "no mode line: $(cat ds8.txt)"
grep -q "^rules  *MLPerf Storage v3.0's subset: llama3_8b on 8 processes" ds8.txt ||
  fail "8B on 8 is MLPerf's subset: $(cat ds8.txt)"
[ "$(grep '^checkpoint ' ds8.txt)" = "$(grep '^checkpoint ' ds8_default.txt)" ] ||
  fail "8B subset on 8 differs from the default: $(cat ds8.txt ds8_default.txt)"
# 4 ranks of the 8-rank job: half of it (ZeRO 3: equal shards), and not MLPerf's subset.
"$TB" datasize llama3_8b --checkpoint --ranks 4 "${subset[@]}" >ds4.txt || fail "datasize 4"
grep -q "^whole job .* over its 8 ranks (these 4 write 50.00% of it)$" ds4.txt ||
  fail "4 of 8: $(cat ds4.txt)"
grep -q "^rules  *not a valid MLPerf subset: .*8 processes" ds4.txt || fail "4 ranks: $(cat ds4.txt)"
# Refused: subset without the job's size, more ranks than the job (usage errors, exit 2).
set +e
"$TB" datasize llama3_8b --checkpoint --ranks 8 checkpoint.mode=subset >no_data.txt 2>&1
[ $? = 2 ] && grep -q "model.parallelism.data" no_data.txt || fail "subset without data: $(cat no_data.txt)"
"$TB" datasize llama3_8b --checkpoint --ranks 16 "${subset[@]}" >too_many.txt 2>&1
[ $? = 2 ] && grep -q "16 ranks are more than the job" too_many.txt || fail "16 of 8: $(cat too_many.txt)"
set -e

for n in 4 8; do
  folder=$WORK/ck$n
  mpi_launch 180 -np "$n" "$TB" run llama3_8b "${small[@]}" "${subset[@]}" \
    "checkpoint.checkpoint_folder=$folder" >run$n.txt 2>err$n.txt ||
    { cat err$n.txt; fail "subset checkpointing over $n ranks"; }
  s=$(newest_summary)
  [ "$(json "$s" 'd["complete"]')" = True ] || fail "$n ranks: $(json "$s" 'd["stop_reason"]')"
  [ "$(json "$s" '(d["checkpoint_mode"], d["checkpoint_job_ranks"])')" = "('subset', 8)" ] ||
    fail "$n ranks: mode $(json "$s" 'd.get("checkpoint_mode")')"
  want=$([ "$n" = 8 ] && echo True || echo False)
  [ "$(json "$s" 'd["rules"]["checkpoint_subset"]["passed"]')" = "$want" ] ||
    fail "$n ranks: subset verdict $(json "$s" 'd["rules"]')"
  grep -q "^rules: subset mode, $n of the job's 8 ranks: " run$n.txt || fail "table: $(cat run$n.txt)"
  dir=$folder/global_epoch1_step1
  [ "$(ls "$dir" | grep -c '^zero_pp_rank_[0-7]_mp_rank_0_\(model\|optim\)_states.pt$')" = $((2 * n)) ] ||
    fail "$n ranks: shard files $(ls "$dir")"
  on_disk=$(du -b --apparent-size -c "$dir"/* | tail -n 1 | cut -f1)
  "$TB" datasize llama3_8b --checkpoint --ranks "$n" "${small[@]}" "${subset[@]}" >dss$n.txt
  want=$(/usr/bin/python3 -c "print(f'{$on_disk / 2**30:.2f} GiB')")
  grep -q "^checkpoint  *$want" dss$n.txt || fail "$n ranks wrote $want, datasize: $(cat dss$n.txt)"
  [ "$(json "$s" '[c["bytes"] for c in d["checkpoints"]]')" = "[$on_disk, $on_disk, $on_disk]" ] ||
    fail "$n ranks: checkpoints $(json "$s" 'd["checkpoints"]')"
done
echo OK
