#!/usr/bin/env bash
# MLPerf Storage's checks of a run's setup, in summary.json and the table: DLIO's
# host_memory_GB[] (GiB), host_cpu_count[], data_size_per_host_GB and potential_caching[];
# the dataset against 5x the hosts' memory; the results on another file system than the
# data (a warning when not: st_dev of the two folders); the same accelerators per host.
source "$(dirname "$0")/../lib/common.sh"
cd "$WORK"
make_tiny_dataset
mem_gib=$(awk '/^MemTotal:/ {printf "%.6f", $2 / 1048576}' /proc/meminfo)
cpus=$(getconf _NPROCESSORS_ONLN)

# Results beside the data: the same file system.
"$TB" run resnet50_h100 "${TINY[@]}" train.computation_time=0.001 reader.batch_size=50 \
  --accelerators 2 >same.txt 2>same.err || fail "run: $(cat same.err)"
s=$(results_dir)/summary.json
train_bytes=$(json "$s" 'd["train_bytes"]')
python3 - "$s" "$mem_gib" "$cpus" "$train_bytes" <<'PY' || fail "summary rules fields: $(cat "$s")"
import json, sys
d = json.load(open(sys.argv[1])); mem, cpus, data = float(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
assert len(d["host_memory_GB"]) == 1 and abs(d["host_memory_GB"][0] - mem) < 0.01, d["host_memory_GB"]
assert d["host_cpu_count"] == [cpus], d["host_cpu_count"]
assert abs(d["data_size_per_host_GB"] - data / 2**30) < 1e-9, d["data_size_per_host_GB"]
assert d["potential_caching"] == [1], d["potential_caching"]
r = d["rules"]
assert "GiB" in r["units"]
assert r["dataset_5x_memory"]["passed"] is False
assert r["dataset_5x_memory"]["dataset_bytes"] == data
assert r["results_on_other_file_system"]["passed"] is False, r
assert r["same_accelerators_per_host"] == {"passed": True, "accelerators_per_host": [2]}, r
PY
grep -q "warning: the results folder is on the same file system as the data" same.err ||
  fail "no same-file-system warning: $(cat same.err)"
grep -q "warning: the dataset (.*) is smaller than 5x the memory of the 1 host(s)" same.err ||
  fail "no 5x memory warning: $(cat same.err)"
grep -q "^rules: results on another file system than the data: NO (same file system)$" same.txt ||
  fail "table: $(cat same.txt)"
grep -q "^rules: dataset .* against 5 x the hosts' memory .*: TOO SMALL$" same.txt || fail "table"
grep -q "^rules: the same accelerators on every host (2): ok$" same.txt || fail "table"

# Results on another file system (/dev/shm is its own tmpfs mount): no warning.
shm=$(mktemp -d /dev/shm/trainbench-test.XXXXXX 2>/dev/null) || skip_other=1
if [ -z "${skip_other:-}" ]; then
  at_exit 'rm -rf "$shm"'
  [ "$(stat -c %d "$shm")" != "$(stat -c %d "$WORK")" ] || fail "/dev/shm shares $WORK's st_dev"
  "$TB" run resnet50_h100 "${TINY[@]}" "output.folder=$shm" train.computation_time=0.001 \
    reader.batch_size=50 >other.txt 2>other.err || fail "run: $(cat other.err)"
  s=$(ls -d "$shm"/*/)summary.json
  [ "$(json "$s" 'd["rules"]["results_on_other_file_system"]["passed"]')" = True ] ||
    fail "results on /dev/shm: $(json "$s" 'd["rules"]')"
  ! grep -q "same file system" other.err || fail "warned: $(cat other.err)"
  grep -q "^rules: results on another file system than the data: ok$" other.txt || fail "table"
fi
echo OK
