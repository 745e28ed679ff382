# PIL decodes trainbench's JPEG and PNG files: one grayscale square image per file,
# side round(sqrt(sample size)), and the manifest's one extent is the whole file.
source "$(dirname "$0")/common.bash"
for format in jpeg png; do
  datagen "$TMP/$format" dataset.format=$format dataset.num_files_train=4
  read_dataset "$TMP/$format" image
done
