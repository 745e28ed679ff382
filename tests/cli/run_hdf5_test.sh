#!/usr/bin/env bash
# A run over a DLIO-layout HDF5 dataset written by h5py (no manifest: it is scanned):
# samples are read through libhdf5, one hyperslab each; both DLIO layouts (records_0
# plus labels, and the older 3-D `records`) work.
source "$(dirname "$0")/../lib/common.sh"
cd "$WORK"
skip_unless "python_has h5py numpy" "$PY with h5py and numpy (scripts/setup.sh installs them)"
/usr/bin/python3 - "$WORK/data/train" <<'PY'
import os, sys
import h5py, numpy as np
folder = sys.argv[1]
os.makedirs(folder)
rng = np.random.default_rng(1)
for i in range(3):
    with h5py.File(f"{folder}/img_{i}_of_3.h5", "w") as f:
        if i < 2:
            f.create_dataset("records_0", data=rng.integers(0, 255, (40, 3000), dtype=np.uint8))
            f.create_dataset("labels", data=np.zeros(40, dtype=np.uint8))
        else:
            f.create_dataset("records", data=rng.integers(0, 255, (40, 50, 60), dtype=np.uint8))
PY
"$TB" run resnet50_h100 "${TINY[@]}" dataset.format=hdf5 dataset.num_files_train=3 \
  dataset.num_samples_per_file=40 train.computation_time=0.002 reader.batch_size=10 \
  reader.read_threads=2 train.epochs=2 --accelerators 3 >out.txt 2>err.txt ||
  { cat err.txt; fail "hdf5 run failed"; }
last_line_json out.txt line.json
# 120 samples of 3000 bytes, 3 accelerators x batch 10: 4 steps, every sample, 2 epochs.
[ "$(json line.json 'd["trainbench_metrics"]["bytes_read"]')" = $((120 * 3000 * 2)) ] ||
  fail "hdf5 bytes read: $(cat line.json)"
dir=$(results_dir)
[ "$(json "$dir/summary.json" 'd["read_latency_ms"]["count"]')" = 240 ] || fail "one read per sample"
[ "$(json line.json 'd["trainbench_metrics"]["requested_bytes"]')" = $((120 * 3000 * 2)) ] ||
  fail "hdf5 requested bytes: $(cat line.json)"
# Contiguous datasets: the reads are counted at the samples' real offsets, one file
# after another (consecutive within a file).
[ "$(json "$dir/summary.json" 'd["io_characterization"]["POSIX_CONSEC_READS"] > 0')" = True ] ||
  fail "hdf5 consecutive reads"
[ "$(json "$dir/summary.json" 'd["format"]')" = hdf5 ] || fail "format"
# A file without the sample dataset is named.
/usr/bin/python3 -c 'import h5py,sys; h5py.File(sys.argv[1],"w").create_dataset("x", data=[1])' \
  "$WORK/data/train/img_2_of_3.h5"
rc=0
"$TB" run resnet50_h100 "${TINY[@]}" dataset.format=hdf5 dataset.num_files_train=3 \
  dataset.num_samples_per_file=40 train.computation_time=0 >out.txt 2>err.txt || rc=$?
[ "$rc" = 1 ] && grep -q "img_2_of_3.h5.*records_0" err.txt || { cat err.txt; fail "bad hdf5 not named"; }
echo OK
