#!/usr/bin/env bash
# MLPerf Storage's LLM checkpointing, scaled down (llama3_8b's layout with 2 small layers):
# over 2 and 4 ranks every rank writes its ZeRO-3 shard (DLIO's zero_pp_rank_D_mp_rank_M
# files), the shards add up to the checkpoint `datasize --checkpoint` computes, every write
# is read back byte for byte (a read that differs fails the run), and rank 0 reports each
# checkpoint's bytes, slowest and fastest rank, and the gap between writing and reading.
source "$(dirname "$0")/../lib/common.sh"
cd "$WORK"
skip_unless "command -v mpirun" "$MPI_NEEDS"

small=(model.num_layers=2 model.transformer.hidden_size=256 model.transformer.ffn_hidden_size=1024
  model.transformer.vocab_size=2000 model.transformer.num_attention_heads=8
  "output.folder=$WORK/out" checkpoint.num_checkpoints_write=3 checkpoint.num_checkpoints_read=2)
for n in 2 4; do
  folder=$WORK/ck$n
  mpi_launch 120 -np "$n" "$TB" run llama3_8b "${small[@]}" "checkpoint.checkpoint_folder=$folder" \
    >run$n.txt 2>err$n.txt || { cat err$n.txt; fail "checkpointing over $n ranks"; }
  s=$(newest_summary)
  [ "$(json "$s" 'd["complete"]')" = True ] || fail "$n ranks: $(json "$s" 'd["stop_reason"]')"
  [ "$(json "$s" '[(c["operation"], c["ranks"]) for c in d["checkpoints"]]')" = \
    "[('write', $n), ('write', $n), ('write', $n), ('read', $n), ('read', $n)]" ] ||
    fail "$n ranks: checkpoints $(json "$s" 'd["checkpoints"]')"
  for step in 1 2 3; do
    # DLIO's names: global_epoch1_stepN, the mp rank unpadded.
    dir=$folder/global_epoch1_step$step
    [ "$(ls "$dir" | grep -c '^zero_pp_rank_[0-9]*_mp_rank_0_\(model\|optim\)_states.pt$')" = $((2 * n)) ] ||
      fail "$n ranks: shard files of step $step: $(ls "$dir")"
    on_disk=$(du -b --apparent-size -c "$dir"/* | tail -n 1 | cut -f1)
    [ "$(json "$s" 'd["checkpoints"]['$((step - 1))']["bytes"]')" = "$on_disk" ] ||
      fail "$n ranks: step $step has $on_disk bytes on disk, the summary says otherwise"
  done
  [ "$(json "$s" 'd["checkpoint_gap_s"] >= 0 and all(c["seconds_fastest_rank"] <= c["seconds"] for c in d["checkpoints"])')" = True ] ||
    fail "gap and spread"
  grep -q "^checkpoint write .* by $n ranks (slowest; fastest" run$n.txt || fail "table: $(cat run$n.txt)"
  tail -n 1 run$n.txt >line$n.json
  [ "$(json line$n.json 'd["trainbench_metrics"]["checkpoint_read_GB_per_second"] > 0')" = True ] ||
    fail "JSON line lacks the checkpoint rates"
  sizes[$n]=$(json "$s" 'd["checkpoints"][0]["bytes"]')
done
# However split, the checkpoint is the same bytes but for DLIO's small per-rank extra in each
# optimizer group (3 x 5 x hidden elements), and what datasize computes (GiB, 2 decimals).
[ $((sizes[4] - sizes[2])) = $((2 * 3 * 5 * 256 * 4)) ] ||
  fail "2 ranks wrote ${sizes[2]} bytes, 4 ranks ${sizes[4]}"
"$TB" datasize llama3_8b --checkpoint --ranks 4 "${small[@]}" >ds.txt || fail "datasize --checkpoint"
want=$(/usr/bin/python3 -c "print(f'{${sizes[4]} / 2**30:.2f} GiB')")
grep -q "^checkpoint  *$want" ds.txt || fail "datasize says $(grep '^checkpoint' ds.txt), the run wrote $want"

# ZeRO 1 with a pipeline (llama3_405b's layout, scaled down to 4 layers, pipeline 2, tensor
# 1, over 4 ranks: data parallelism 2): as DLIO (and DeepSpeed's pipeline engine), the
# data-parallel rank 0 ranks write the model states a layer a file,
# layer_<L>-model_<mp>_model_states.pt: stage 0 layers 0 (embedding) to 2, stage 1 layers 3
# to 6 (lm_head and final norm); every rank writes its optimizer shard.
pipe=(model.num_layers=4 model.parallelism.tensor=1 model.parallelism.pipeline=2
  model.transformer.hidden_size=256 model.transformer.ffn_hidden_size=1024
  model.transformer.vocab_size=2000 model.transformer.num_attention_heads=8
  model.transformer.num_kv_heads=8 "output.folder=$WORK/out" checkpoint.num_checkpoints_write=1
  checkpoint.num_checkpoints_read=1 "checkpoint.checkpoint_folder=$WORK/pipe")
mpi_launch 120 -np 4 "$TB" run llama3_405b "${pipe[@]}" >pipe.txt 2>pipe_err.txt ||
  { cat pipe_err.txt; fail "pipeline checkpointing over 4 ranks"; }
s=$(newest_summary)
[ "$(json "$s" 'd["complete"]')" = True ] || fail "pipeline: $(json "$s" 'd["stop_reason"]')"
dir=$WORK/pipe/global_epoch1_step1
want_files="layer_0-model_0_model_states.pt layer_1-model_0_model_states.pt layer_2-model_0_model_states.pt \
layer_3-model_1_model_states.pt layer_4-model_1_model_states.pt layer_5-model_1_model_states.pt \
layer_6-model_1_model_states.pt zero_pp_rank_0_mp_rank_0_optim_states.pt \
zero_pp_rank_0_mp_rank_1_optim_states.pt zero_pp_rank_1_mp_rank_0_optim_states.pt \
zero_pp_rank_1_mp_rank_1_optim_states.pt"
[ "$(ls "$dir" | tr '\n' ' ' | sed 's/ $//')" = "$(echo $want_files)" ] || fail "pipeline files: $(ls "$dir")"
# Layer sizes as DLIO computes them (bf16): the embedding and lm_head are hidden x vocab,
# the final norm hidden, a transformer layer its norms, attention and gated MLP.
h=256 f=1024 v=2000
layer=$(((h + h * 3 * h + h * h + h + 3 * h * f) * 2))
for l in 1 2 3 4; do
  [ "$(stat -c %s "$dir/layer_$l-model_$(((l - 1) / 2))_model_states.pt")" = $layer ] ||
    fail "layer $l: $(stat -c %s "$dir/layer_$l-model_$(((l - 1) / 2))_model_states.pt") bytes, want $layer"
done
[ "$(stat -c %s "$dir/layer_0-model_0_model_states.pt")" = $((h * v * 2)) ] || fail "embedding size"
[ "$(stat -c %s "$dir/layer_5-model_1_model_states.pt")" = $((h * v * 2)) ] || fail "lm_head size"
[ "$(stat -c %s "$dir/layer_6-model_1_model_states.pt")" = $((h * 2)) ] || fail "final norm size"
on_disk=$(du -b --apparent-size -c "$dir"/* | tail -n 1 | cut -f1)
[ "$(json "$s" 'd["checkpoints"][0]["bytes"]')" = "$on_disk" ] || fail "pipeline: summary bytes"
"$TB" datasize llama3_405b --checkpoint --ranks 4 "${pipe[@]}" >dsp.txt || fail "datasize pipeline"
want=$(/usr/bin/python3 -c "print(f'{$on_disk / 2**30:.2f} GiB')")
grep -q "^checkpoint  *$want" dsp.txt || fail "pipeline: datasize $(grep '^checkpoint' dsp.txt), wrote $want"
echo OK
