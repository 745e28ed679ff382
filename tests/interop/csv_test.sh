# Python's csv module parses trainbench's CSV files as pandas' to_csv(index=False) lays out
# DLIO's rows: the column names "0,1,..." (what DLIO 2.0.0's reader takes the first line for),
# then one row of values per sample, at its manifest extent (sample 0's with the header line).
source "$(dirname "$0")/../lib/common.sh"
skip_unless "python_has numpy h5py PIL" "$INTEROP_NEEDS"
interop_datagen "$WORK/d" dataset.format=csv dataset.num_samples_per_file=6 dataset.record_length_bytes=3000 \
  dataset.record_length_bytes_stdev=500
interop_read_dataset "$WORK/d" csv
# DLIO's line: side^2 values, side = floor(sqrt(record_length_bytes)): 4096 B give 64^2.
interop_datagen "$WORK/dlio" dataset.format=csv dataset.num_samples_per_file=3 dataset.record_length_bytes=4096 \
  dataset.record_length_bytes_stdev=0
interop_read_dataset "$WORK/dlio" csv 4096
