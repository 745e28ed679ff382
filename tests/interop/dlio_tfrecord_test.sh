# DLIO and trainbench read each other's tfrecord datasets (names, folders, layout, sample counts).
source "$(dirname "$0")/../lib/common.sh"
skip_unless "python_has numpy h5py PIL" "$INTEROP_NEEDS"
interop_dlio_both_ways tfrecord
