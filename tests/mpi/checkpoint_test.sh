#!/usr/bin/env bash
# MLPerf Storage's LLM checkpointing, scaled down (llama3_8b's layout with 2 small layers):
# over 2 and 4 ranks every rank writes its ZeRO-3 shard (DLIO's zero_pp_rank_D_mp_rank_M
# files), the shards add up to the checkpoint `datasize --checkpoint` computes, every write
# is read back byte for byte (a read that differs fails the run), and rank 0 reports each
# checkpoint's bytes, slowest and fastest rank, and the gap between writing and reading.
source "$(dirname "$0")/lib.sh"

small=(model.num_layers=2 model.transformer.hidden_size=256 model.transformer.ffn_hidden_size=1024
  model.transformer.vocab_size=2000 model.transformer.num_attention_heads=8
  "output.folder=$WORK/out" checkpoint.num_checkpoints_write=3 checkpoint.num_checkpoints_read=2)
for n in 2 4; do
  folder=$WORK/ck$n
  launch 120 -np "$n" "$TB" run llama3_8b "${small[@]}" "checkpoint.checkpoint_folder=$folder" \
    >run$n.txt 2>err$n.txt || { cat err$n.txt; fail "checkpointing over $n ranks"; }
  s=$(newest_summary)
  [ "$(json "$s" 'd["complete"]')" = True ] || fail "$n ranks: $(json "$s" 'd["stop_reason"]')"
  [ "$(json "$s" '[(c["operation"], c["ranks"]) for c in d["checkpoints"]]')" = \
    "[('write', $n), ('write', $n), ('write', $n), ('read', $n), ('read', $n)]" ] ||
    fail "$n ranks: checkpoints $(json "$s" 'd["checkpoints"]')"
  for step in 1 2 3; do
    dir=$(echo "$folder"/*-step$step)
    [ "$(ls "$dir" | grep -c '^zero_pp_rank_[0-9]*_mp_rank_00_\(model\|optim\)_states.pt$')" = $((2 * n)) ] ||
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
echo OK
