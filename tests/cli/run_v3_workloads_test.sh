#!/usr/bin/env bash
# MLPerf Storage v3.0's Parquet workloads (dlrm_b200, dlrm_mi355, flux_b200, flux_mi355):
# their files load with no warning, `trainbench workloads` lists them under v3.0, the
# resolved configs carry the published figures, and each runs scaled down here (a few
# files, few samples) reading every sample once.
source "$(dirname "$0")/../lib/common.sh"
cd "$WORK"
names=(dlrm_b200 dlrm_mi355 flux_b200 flux_mi355)

"$TB" workloads >list.txt || fail "trainbench workloads"
v3=$(sed -n '/^MLPerf Storage v3.0 training:/,/^$/p' list.txt)
for name in "${names[@]}"; do
  # As a file (a built-in never warns): every key but reader.data_loader (which no
  # emulation acts on) is one trainbench acts on: the parquet block, record_length, ...
  "$TB" config "$SRC/workloads/$name.yaml" >/dev/null 2>warn.txt || fail "config $name.yaml"
  ! grep -v "does not act on: reader.data_loader (line [0-9]*)$" warn.txt ||
    fail "$name.yaml: keys not acted on: $(cat warn.txt)"
  "$TB" config "$name" >"$name.yaml" 2>warn.txt || fail "config $name"
  [ ! -s warn.txt ] || fail "$name loads with warnings: $(cat warn.txt)"
  grep -q "^  $name  *parquet " <<<"$v3" || fail "$name not under v3.0: $(cat list.txt)"
done

# The published figures, as `config` resolves them.
python3 - <<'PY' || fail "resolved configs"
import yaml
def load(n): return yaml.safe_load(open(n + ".yaml"))
sizes = {"float16": 2, "float32": 4, "float64": 8, "int8": 1}
d = load("dlrm_mi355")
cols = d["dataset"]["parquet"]["columns"]
assert len(cols) == 200, len(cols)
assert sum(sizes[c["dtype"]] * c.get("size", 1) for c in cols) == 761
assert sum(1 for c in cols if c["read"]) == 40
assert d["dataset"]["record_length_bytes"] == 761
assert d["dataset"]["parquet"]["row_group_size"] == 6144
assert d["reader"]["batch_size"] == 18432
assert abs(d["train"]["computation_time"] - 0.0005625) < 1e-12
b = load("dlrm_b200")
assert sum(sizes[c["dtype"]] * c["size"] for c in b["dataset"]["parquet"]["columns"]) == 160
assert b["reader"]["batch_size"] == 16384 and b["dataset"]["parquet"]["row_group_size"] == 8192
for n, batch, per_file, compute in (("flux_b200", 64, 256, 1.8), ("flux_mi355", 72, 288, 2.025)):
    f = load(n)
    assert sum(4 * c["size"] for c in f["dataset"]["parquet"]["columns"]) == 2164832, n
    assert (f["reader"]["batch_size"], f["dataset"]["num_samples_per_file"]) == (batch, per_file), n
    assert abs(f["train"]["computation_time"] - compute) < 1e-9, n
PY

# Scaled down: 4 files; 2 accelerators; batches that divide the samples (every one read).
run_scaled() {  # run_scaled NAME SAMPLES_PER_FILE BATCH overrides...
  local name=$1 per_file=$2 batch=$3
  shift 3
  local args=(dataset.num_files_train=4 "dataset.num_samples_per_file=$per_file"
    "dataset.data_folder=$WORK/data-$name" "output.folder=$WORK/out" "reader.batch_size=$batch"
    train.computation_time=0.001 "$@")
  "$TB" datagen "$name" "${args[@]}" --no-progress >/dev/null 2>"$name.err" ||
    fail "datagen $name: $(cat "$name.err")"
  "$TB" run "$name" "${args[@]}" --accelerators 2 --no-progress >"$name.txt" 2>"$name.err" ||
    fail "run $name: $(cat "$name.err")"
  local s
  s=$(results_dir)/summary.json
  [ "$(json "$s" 'd["complete"] and d["workload"]')" = "$name" ] || fail "$name did not complete"
  local want=$((4 * per_file))
  [ "$(json "$s" '[p["samples"] for p in d["phases"] if p["kind"] == "train"]')" = "[$want]" ] ||
    fail "$name: train samples $(json "$s" 'd["phases"]'), expected $want"
  [ "$(json "$s" 'd["train_samples"]')" = "$want" ] || fail "$name: dataset samples"
}
run_scaled dlrm_b200 1024 256 dataset.parquet.row_group_size=256
run_scaled dlrm_mi355 768 192 dataset.parquet.row_group_size=96
run_scaled flux_b200 4 2
run_scaled flux_mi355 4 4
echo OK
