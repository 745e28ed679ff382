# DLIO and trainbench read each other's datasets in numbered subfolders (train/00..11 for
# num_subfolders_train=12, files i % 12; DLIO pads to the digits of the count).
source "$(dirname "$0")/../lib/common.sh"
skip_unless "python_has numpy h5py PIL" "$INTEROP_NEEDS"
interop_dlio_both_ways tfrecord 3
interop_dlio_both_ways npy 12
