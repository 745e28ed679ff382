# numpy reads trainbench's indexed binary datasets as DLIO's reader does: uint64 offsets
# and sizes from "<file>.off.idx" and "<file>.sz.idx", then the bytes they point at.
source "$(dirname "$0")/common.bash"
for format in indexed_binary mmap_indexed_binary; do
  datagen "$TMP/$format" dataset.format=$format dataset.num_samples_per_file=5
  read_dataset "$TMP/$format" indexed_binary
done
# DLIO's sample: side^2 bytes, side = floor(sqrt(record_length_bytes)): 114660 B give 338^2.
for format in indexed_binary mmap_indexed_binary; do
  datagen "$TMP/dlio_$format" dataset.format=$format dataset.num_samples_per_file=3 \
    dataset.record_length_bytes=114660 dataset.record_length_bytes_stdev=0
  read_dataset "$TMP/dlio_$format" indexed_binary 114244
done
