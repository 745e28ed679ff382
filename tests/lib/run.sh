# shellcheck shell=bash disable=SC2034  # its variables are for the tests that source it
# Part of the test library (sourced by common.sh): `trainbench run` helpers for cli/, mpi/,
# report/: a tiny dataset, the newest results folder, the run's final stdout line.

# A small ResNet-50-shaped dataset: 4 files x 100 samples of ~115 KB (46 MB) by default.
TINY=(dataset.num_files_train=4 dataset.num_samples_per_file=100 "dataset.data_folder=$WORK/data"
  "output.folder=$WORK/out")
make_tiny_dataset() {
  "$TB" datagen resnet50_h100 "${TINY[@]}" "$@" >/dev/null 2>&1 || fail "datagen failed"
}

# last_line_json OUT FILE: the final stdout line of a run (OUT), saved as the JSON file FILE.
last_line_json() {
  tail -n 1 "$1" >"$2"
  json "$2" 'd["trainbench_metrics"]["workload"]' >/dev/null || fail "last stdout line is not the metrics JSON"
}

# results_dir: the newest results folder under $WORK/out.
results_dir() {
  local dir
  dir=$(ls -dt "$WORK"/out/*/ 2>/dev/null | head -n 1)
  [ -n "$dir" ] || fail "no results folder under $WORK/out"
  echo "${dir%/}"
}

# newest_summary: the newest results folder's summary.json.
newest_summary() { echo "$(results_dir)/summary.json"; }

# wait_for_start FILE: until a run's stderr says it has begun.
wait_for_start() { wait_for_line "$1" "trainbench: run " "the run did not start"; }
