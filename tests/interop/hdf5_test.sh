# h5py reads trainbench's HDF5 files, records_0 in DLIO's (samples, side, side): contiguous
# (manifest extents are its samples), chunked by whole samples (extents inside chunks),
# chunked gzip (no extents).
source "$(dirname "$0")/common.bash"
datagen "$TMP/contiguous" dataset.format=hdf5 dataset.num_samples_per_file=4
read_dataset "$TMP/contiguous" hdf5 none
datagen "$TMP/chunked" dataset.format=hdf5 dataset.num_samples_per_file=5 \
  dataset.enable_chunking=true dataset.chunk_size=300000
read_dataset "$TMP/chunked" hdf5 rows
datagen "$TMP/gzip" dataset.format=hdf5 dataset.num_samples_per_file=3 dataset.compression=gzip \
  dataset.compression_level=2 dataset.enable_chunking=true dataset.chunk_size=65536
read_dataset "$TMP/gzip" hdf5 gzip
