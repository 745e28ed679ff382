# DLIO from PyPI on its pytorch framework and data loader (torch from requirements.txt, the path
# DLIO's unet3d workload takes) trains over datagen's npz files, and trainbench
# over what DLIO then generates, 40 samples an epoch each.
source "$(dirname "$0")/../lib/common.sh"
skip_unless_pypi dlio_benchmark torch
INTEROP_DLIO_FRAMEWORK=pytorch
interop_dlio_pypi npz
check "DLIO ran its pytorch data loader" grep -q "data_loader: pytorch" "$WORK/dlio_reads_npz/.hydra/config.yaml"
done_ok
