# DLIO and trainbench read each other's indexed_binary datasets (names, folders, layout, sample counts).
source "$(dirname "$0")/common.bash"
dlio_both_ways indexed_binary
