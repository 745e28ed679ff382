# numpy loads trainbench's .npz files, x in DLIO's (side, side, samples): stored (manifest
# extents are equal shares of x inside the archive) and deflated (dataset.compression=gzip,
# as np.savez_compressed writes).
source "$(dirname "$0")/../lib/common.sh"
skip_unless "python_has numpy h5py PIL" "$INTEROP_NEEDS"
interop_datagen "$WORK/stored" dataset.format=npz dataset.num_samples_per_file=4
interop_read_dataset "$WORK/stored" npz stored
interop_datagen "$WORK/deflated" dataset.format=npz dataset.num_samples_per_file=4 dataset.compression=gzip \
  dataset.compression_level=6
interop_read_dataset "$WORK/deflated" npz deflated
