# DLIO and trainbench read each other's png datasets (names, folders, layout, sample counts).
source "$(dirname "$0")/common.bash"
dlio_both_ways png
