# Python's csv module parses trainbench's CSV files as DLIO's pandas to_csv(index=False,
# header=False) lays them out: one row of values per sample, at its manifest extent.
source "$(dirname "$0")/common.bash"
datagen "$TMP/d" dataset.format=csv dataset.num_samples_per_file=6 dataset.record_length_bytes=3000 \
  dataset.record_length_bytes_stdev=500
read_dataset "$TMP/d" csv
