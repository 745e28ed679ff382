#!/usr/bin/env bash
# A full file system gives a clean error (exit 1, the path and the cause, what to do), and
# no partial file under a final name. A read-only target is refused before any work with
# exit 2, by datagen (dataset.data_folder) as by run (output.folder). Uses a private
# mount namespace with a small tmpfs; skipped where mounts are not allowed.
source "$(dirname "$0")/../lib/common.sh"

skip_unless "unshare -m true" "needs mount namespaces (root or user namespaces)"

cat >"$WORK/inner.sh" <<INNER
set -u
mnt=$WORK/mnt
mkdir -p \$mnt/full \$mnt/ro
mount -t tmpfs -o size=6m tmpfs \$mnt/full || exit 77
mount -t tmpfs -o size=1m tmpfs \$mnt/ro || exit 77
mount -o remount,ro \$mnt/ro || exit 77
code=0
# --force: past the free-space check, to meet the full disk while writing.
"$TRAINBENCH" datagen resnet50_h100 dataset.num_files_train=8 dataset.num_samples_per_file=20 \
  dataset.data_folder=\$mnt/full/d --force >$WORK/full.out 2>&1 || code=\$?
echo \$code >$WORK/full.code
find \$mnt/full -type f | sort >$WORK/full.files
for f in \$mnt/full/d/train/*.tfrecord; do
  [ -e "\$f" ] && stat -c '%s %n' "\$f"
done >$WORK/full.sizes
code=0
"$TRAINBENCH" datagen resnet50_h100 dataset.num_files_train=2 dataset.num_samples_per_file=2 \
  dataset.data_folder=\$mnt/ro/d >$WORK/ro.out 2>&1 || code=\$?
echo \$code >$WORK/ro.code
code=0
"$TRAINBENCH" run resnet50_h100 dataset.data_folder=\$mnt/full/d output.folder=\$mnt/ro/results \
  >$WORK/ro_run.out 2>&1 || code=\$?
echo \$code >$WORK/ro_run.code
umount \$mnt/full \$mnt/ro
INNER
rc=0
unshare -m bash "$WORK/inner.sh" || rc=$?
skip_unless "[ $rc != 77 ]" "cannot mount tmpfs here"

check "full disk exits 1" test "$(cat "$WORK/full.code")" -eq 1
contains "$WORK/full.out" "trainbench: error:"
contains "$WORK/full.out" "No space left on device"
contains "$WORK/full.out" "free space on that file system"
check "no temporary files on the full disk" bash -c "! grep -q tbtmp '$WORK/full.files'"
# Each file that made it under a final name is whole: 20 records of the planned size.
while read -r size name; do
  check "$name is whole" test "$size" -gt 2000000
done <"$WORK/full.sizes"
check "read-only target: datagen exits 2" test "$(cat "$WORK/ro.code")" -eq 2
contains "$WORK/ro.out" "dataset.data_folder $WORK/mnt/ro/d: cannot create the folder: Read-only file system; choose a writable folder"
check "read-only target: run exits 2" test "$(cat "$WORK/ro_run.code")" -eq 2
contains "$WORK/ro_run.out" "Read-only file system; choose a writable folder"
done_ok
