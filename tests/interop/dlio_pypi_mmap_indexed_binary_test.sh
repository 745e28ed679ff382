# DLIO from PyPI trains over datagen's mmap_indexed_binary files, and trainbench over DLIO's (same sample counts).
source "$(dirname "$0")/../lib/common.sh"
skip_unless_pypi dlio_benchmark tensorflow
interop_dlio_pypi mmap_indexed_binary
done_ok
