# PIL decodes trainbench's JPEG and PNG files: one grayscale square image per file,
# side floor(sqrt(sample size)) as DLIO draws it, and each of the num_samples_per_file
# samples (DLIO counts that many per image) is the whole file.
source "$(dirname "$0")/common.bash"
for format in jpeg png; do
  datagen "$TMP/$format" dataset.format=$format dataset.num_files_train=4
  read_dataset "$TMP/$format" image
done
datagen "$TMP/three" dataset.format=png dataset.num_samples_per_file=3
read_dataset "$TMP/three" image 3
