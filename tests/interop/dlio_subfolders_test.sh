# DLIO and trainbench read each other's datasets in numbered subfolders (train/00..11 for
# num_subfolders_train=12, files i % 12; DLIO pads to the digits of the count).
source "$(dirname "$0")/common.bash"
dlio_both_ways tfrecord 3
dlio_both_ways npy 12
