# Python's csv module parses trainbench's CSV files as DLIO's pandas to_csv(index=False,
# header=False) lays them out: one row of values per sample, at its manifest extent.
source "$(dirname "$0")/common.bash"
datagen "$TMP/d" dataset.format=csv dataset.num_samples_per_file=6 dataset.record_length_bytes=3000 \
  dataset.record_length_bytes_stdev=500
read_dataset "$TMP/d" csv
# DLIO's line: side^2 values, side = floor(sqrt(record_length_bytes)): 4096 B give 64^2.
datagen "$TMP/dlio" dataset.format=csv dataset.num_samples_per_file=3 dataset.record_length_bytes=4096 \
  dataset.record_length_bytes_stdev=0
read_dataset "$TMP/dlio" csv 4096
