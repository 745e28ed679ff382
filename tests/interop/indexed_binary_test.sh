# numpy reads trainbench's indexed binary datasets as DLIO's reader does: uint64 offsets
# and sizes from "<file>.off.idx" and "<file>.sz.idx", then the bytes they point at.
source "$(dirname "$0")/../lib/common.sh"
skip_unless "python_has numpy h5py PIL" "$INTEROP_NEEDS"
for format in indexed_binary mmap_indexed_binary; do
  interop_datagen "$WORK/$format" dataset.format=$format dataset.num_samples_per_file=5
  interop_read_dataset "$WORK/$format" indexed_binary
done
# DLIO's sample: side^2 bytes, side = floor(sqrt(record_length_bytes)): 114660 B give 338^2.
for format in indexed_binary mmap_indexed_binary; do
  interop_datagen "$WORK/dlio_$format" dataset.format=$format dataset.num_samples_per_file=3 \
    dataset.record_length_bytes=114660 dataset.record_length_bytes_stdev=0
  interop_read_dataset "$WORK/dlio_$format" indexed_binary 114244
done
