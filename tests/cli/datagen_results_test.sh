#!/usr/bin/env bash
# datagen --output keeps a results folder of the one shape every job has: summary.json opening
# with the envelope (kind datagen), the write figures, timeseries.csv of bytes written, and a
# final JSON line whose "trainbench" object names the folder. A folder that cannot take the
# results is refused (exit 2) before any file is written.
source "$(dirname "$0")/../lib/common.sh"

w=(resnet50_h100 dataset.num_files_train=6 dataset.num_samples_per_file=4
   dataset.record_length_bytes=200000 dataset.record_length_bytes_stdev=0
   dataset.data_folder="$WORK/d")
expect_exit 0 "$WORK/out" "$TRAINBENCH" datagen "${w[@]}" --no-progress --output "$WORK/results" \
  --interval 0.05
folder=$(json_last_line "$WORK/out" 'd["trainbench"]["results"]')
check "the results folder is named by kind and workload" \
  bash -c "[[ '$folder' == '$WORK/results/datagen-resnet50_h100-'* ]]"
contains "$WORK/out" "results: $folder"
check "the line's kind is datagen" test "$(json_last_line "$WORK/out" 'd["trainbench"]["kind"]')" = datagen
check "the line counts the files" \
  test "$(json_last_line "$WORK/out" 'd["trainbench_datagen"]["files_written"]')" = 6
s=$folder/summary.json
check "summary.json opens with the envelope" \
  test "$("$PY" -c 'import json,sys; print(next(iter(json.load(open(sys.argv[1])))))' "$s")" = kind
check "summary.json: kind, workload, complete" \
  test "$(json "$s" '(d["kind"], d["workload"], d["complete"])')" = "('datagen', 'resnet50_h100', True)"
check "summary.json: the config as written" \
  test "$(json "$s" 'd["config"]["dataset"]["num_files_train"]')" = 6
check "summary.json: a write rate" test "$(json "$s" 'd["write_MB_per_second"] > 0')" = True
check "timeseries.csv has rows" test "$(wc -l <"$folder/timeseries.csv")" -ge 2

# An --output that is a file: refused before the dataset is written.
touch "$WORK/not-a-folder"
expect_exit 2 "$WORK/refused" "$TRAINBENCH" datagen "${w[@]}" dataset.data_folder="$WORK/d2" \
  --no-progress --output "$WORK/not-a-folder"
contains "$WORK/refused" "--output"
check "nothing written for a refused job" test ! -e "$WORK/d2/train"
done_ok
