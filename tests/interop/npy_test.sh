# numpy loads trainbench's .npy files in DLIO's layout (side, side, samples); every manifest
# extent is its sample's equal share of the array.
source "$(dirname "$0")/../lib/common.sh"
skip_unless "python_has numpy h5py PIL" "$INTEROP_NEEDS"
interop_datagen "$WORK/d" dataset.format=npy dataset.num_samples_per_file=4
interop_read_dataset "$WORK/d" npy
