# PIL decodes trainbench's JPEG and PNG files: one grayscale square image per file,
# side floor(sqrt(sample size)) as DLIO draws it, and each of the num_samples_per_file
# samples (DLIO counts that many per image) is the whole file.
source "$(dirname "$0")/../lib/common.sh"
skip_unless "python_has numpy h5py PIL" "$INTEROP_NEEDS"
for format in jpeg png; do
  interop_datagen "$WORK/$format" dataset.format=$format dataset.num_files_train=4
  interop_read_dataset "$WORK/$format" image
done
interop_datagen "$WORK/three" dataset.format=png dataset.num_samples_per_file=3
interop_read_dataset "$WORK/three" image 3
