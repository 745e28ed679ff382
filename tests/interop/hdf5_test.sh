# h5py reads trainbench's HDF5 files, records_0 in DLIO's (samples, side, side), also named
# records (DLIO 2.0.0's name) by a second hard link, no other dataset than labels: contiguous
# (manifest extents are its samples), chunked by whole samples (extents inside chunks),
# chunked gzip (no extents).
source "$(dirname "$0")/../lib/common.sh"
skip_unless "python_has numpy h5py PIL" "$INTEROP_NEEDS"
interop_datagen "$WORK/contiguous" dataset.format=hdf5 dataset.num_samples_per_file=4
interop_read_dataset "$WORK/contiguous" hdf5 none
interop_datagen "$WORK/chunked" dataset.format=hdf5 dataset.num_samples_per_file=5 \
  dataset.enable_chunking=true dataset.chunk_size=300000
interop_read_dataset "$WORK/chunked" hdf5 rows
interop_datagen "$WORK/gzip" dataset.format=hdf5 dataset.num_samples_per_file=3 dataset.compression=gzip \
  dataset.compression_level=2 dataset.enable_chunking=true dataset.chunk_size=65536
interop_read_dataset "$WORK/gzip" hdf5 gzip
