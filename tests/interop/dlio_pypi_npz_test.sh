# DLIO from PyPI trains over datagen's npz files, and trainbench over DLIO's (same sample counts).
source "$(dirname "$0")/../lib/common.sh"
skip_unless_pypi dlio_benchmark tensorflow
interop_dlio_pypi npz
done_ok
