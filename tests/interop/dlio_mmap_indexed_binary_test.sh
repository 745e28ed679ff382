# DLIO and trainbench read each other's mmap_indexed_binary datasets (names, folders, layout, sample counts).
source "$(dirname "$0")/common.bash"
dlio_both_ways mmap_indexed_binary
