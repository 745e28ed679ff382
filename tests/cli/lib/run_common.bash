# Shared setup for the `trainbench run` end-to-end tests: the binary, a scratch folder
# removed on exit, a tiny dataset, and a reader for JSON fields (python3's json module).
source "$(dirname "${BASH_SOURCE[0]}")/../../lib/common.sh"
TB=$TRAINBENCH
cd "$WORK"

# A small ResNet-50-shaped dataset: 4 files x 100 samples of ~115 KB (46 MB) by default.
TINY=(dataset.num_files_train=4 dataset.num_samples_per_file=100 "dataset.data_folder=$WORK/data"
  "output.folder=$WORK/out")
make_tiny_dataset() {
  "$TB" datagen resnet50_h100 "${TINY[@]}" "$@" >/dev/null 2>&1 || fail "datagen failed"
}

# json FILE EXPR: evaluates a Python expression over the parsed document `d`.
json() {
  python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2"
}

# The final stdout line of a run, saved as a JSON file.
last_line_json() {
  tail -n 1 "$1" >"$2"
  json "$2" 'd["trainbench_metrics"]["workload"]' >/dev/null || fail "last stdout line is not the metrics JSON"
}

# The newest results folder.
results_dir() {
  local dir
  dir=$(ls -dt "$WORK"/out/*/ 2>/dev/null | head -n 1)
  [ -n "$dir" ] || fail "no results folder under $WORK/out"
  echo "${dir%/}"
}

# wait_for_line FILE REGEX WHAT: waits (at most 30 s) until FILE has a line matching REGEX.
wait_for_line() {
  for _ in $(seq 300); do
    grep -Eq "$2" "$1" 2>/dev/null && return 0
    sleep 0.1
  done
  fail "$3: $(cat "$1")"
}

# wait_for_start FILE: until a run's stderr says it has begun.
wait_for_start() { wait_for_line "$1" "trainbench: run " "the run did not start"; }
