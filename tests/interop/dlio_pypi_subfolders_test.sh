# DLIO from PyPI and trainbench read each other's train/ in 2 subfolders (DLIO asserts their
# count and takes train/*/*.npz by name), 40 samples an epoch each.
source "$(dirname "$0")/../lib/common.sh"
skip_unless_pypi dlio_benchmark tensorflow
INTEROP_DLIO_SUBFOLDERS=2
interop_dlio_pypi npz
check "datagen's files are in DLIO's subfolders" test -f "$WORK/ours_npz/train/1/img_1_of_4.npz"
check "DLIO's files are in its subfolders" test -f "$WORK/theirs_npz/train/1/img_1_of_4.npz"
done_ok
