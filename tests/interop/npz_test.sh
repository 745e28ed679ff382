# numpy loads trainbench's .npz files, x in DLIO's (side, side, samples): stored (manifest
# extents are equal shares of x inside the archive) and deflated (dataset.compression=gzip,
# as np.savez_compressed writes).
source "$(dirname "$0")/common.bash"
datagen "$TMP/stored" dataset.format=npz dataset.num_samples_per_file=4
read_dataset "$TMP/stored" npz stored
datagen "$TMP/deflated" dataset.format=npz dataset.num_samples_per_file=4 dataset.compression=gzip \
  dataset.compression_level=6
read_dataset "$TMP/deflated" npz deflated
