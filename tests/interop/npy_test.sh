# numpy loads trainbench's .npy files in DLIO's layout (side, side, samples); every manifest
# extent is its sample's equal share of the array.
source "$(dirname "$0")/common.bash"
datagen "$TMP/d" dataset.format=npy dataset.num_samples_per_file=4
read_dataset "$TMP/d" npy
