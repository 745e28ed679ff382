# Python's csv module parses trainbench's CSV files as pandas' to_csv lays them out:
# a ",0,1,..." header, then one "index,values..." row per sample at its manifest extent.
source "$(dirname "$0")/common.bash"
datagen "$TMP/d" dataset.format=csv dataset.num_samples_per_file=6 dataset.record_length_bytes=3000 \
  dataset.record_length_bytes_stdev=500
read_dataset "$TMP/d" csv
