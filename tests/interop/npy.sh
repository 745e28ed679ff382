# numpy loads trainbench's .npy files; every manifest extent holds its row's bytes.
source "$(dirname "$0")/common.bash"
datagen "$TMP/d" dataset.format=npy dataset.num_samples_per_file=4
read_dataset "$TMP/d" npy
