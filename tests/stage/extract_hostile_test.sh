#!/usr/bin/env bash
# stage --extract with hostile archives (a local file as SOURCE: no servers needed): a `../`
# path, an absolute path, a symlink out of DEST and a member written through it, a device and
# a FIFO, a truncated member, a header claiming 10 GiB with no data; and a gzip'd tar, which
# extracts. Each is refused with an error naming the member, or handled safely (skipped with a
# warning naming it); nothing is written outside DEST.
source "$(dirname "$0")/../lib/common.sh"

box=$WORK/box      # DEST lives here: nothing else may appear in it
outside=$WORK/outside
mkdir -p "$box" "$outside"

# make NAME KIND: writes $WORK/NAME.tar (KIND picks the hostile part).
make() {
  "$PY" - "$WORK/$1" "$2" "$outside" <<'PY'
import gzip, io, sys, tarfile
path, kind, outside = sys.argv[1], sys.argv[2], sys.argv[3]
buf = io.BytesIO()

def add(tar, name, data=b"x\n", **fields):
    info = tarfile.TarInfo(name)
    info.size = len(data)
    for key, value in fields.items():
        setattr(info, key, value)
    tar.addfile(info, io.BytesIO(data) if info.isreg() else None)

with tarfile.open(fileobj=buf, mode="w", format=tarfile.GNU_FORMAT) as tar:
    add(tar, "fine.txt", b"fine\n")
    if kind == "dotdot":
        add(tar, "../escape.txt")
    elif kind == "absolute":
        add(tar, outside + "/abs.txt")
    elif kind == "symlink":
        add(tar, "link", b"", type=tarfile.SYMTYPE, linkname=outside)
        add(tar, "link/through.txt", b"through\n")
        add(tar, "hard", b"", type=tarfile.LNKTYPE, linkname=outside + "/hard-target")
    elif kind == "devices":
        add(tar, "null", b"", type=tarfile.CHRTYPE, devmajor=1, devminor=3)
        add(tar, "disk", b"", type=tarfile.BLKTYPE, devmajor=8, devminor=0)
        add(tar, "pipe", b"", type=tarfile.FIFOTYPE)
        add(tar, "after.txt", b"after\n")
    elif kind == "gzip":
        add(tar, "dir/b.txt", b"b\n" * 50000)
data = buf.getvalue()
if kind == "truncated":
    info = tarfile.TarInfo("cut.bin"); info.size = 100000
    data = data[:512 * 2] + info.tobuf(tarfile.GNU_FORMAT) + b"y" * 30000
elif kind == "huge":
    info = tarfile.TarInfo("huge.bin"); info.size = 10 * 1024**3
    data = data[:512 * 2] + info.tobuf(tarfile.GNU_FORMAT)
if kind == "gzip":
    data = gzip.compress(data)
open(path, "wb").write(data)
PY
}

# extract NAME CODE: stage --extract $WORK/NAME into $box/NAME, expecting exit CODE.
extract() {
  expect_exit "$2" "$WORK/$1.out" "$TRAINBENCH" stage "$WORK/$1" "$box/$1" --extract \
    --no-progress --output "$WORK/results"
  cat "$WORK/$1.out"
}

nothing_outside() {
  [ -z "$(ls -A "$outside")" ] && [ "$(ls "$box" | sort | tr '\n' ' ')" = "$1" ] &&
    [ ! -e "$WORK/escape.txt" ] && [ -z "$(find "$box" -name '*.tb-partial')" ]
}

make dotdot dotdot
extract dotdot 1
contains "$WORK/dotdot.out" "tar member '../escape.txt' at archive offset 1024"
check "../: nothing outside DEST" nothing_outside "dotdot "

make absolute absolute
extract absolute 1
contains "$WORK/absolute.out" "tar member '$outside/abs.txt' at archive offset 1024"
check "absolute: nothing outside DEST" nothing_outside "absolute dotdot "

make symlink symlink
extract symlink 0
contains "$WORK/symlink.out" "tar member 'link' at archive offset 1024 is a symbolic link: not created"
check "the symlink was not created" [ ! -L "$box/symlink/link" ]
check "the member through it is a plain file in DEST" \
  [ "$(cat "$box/symlink/link/through.txt")" = through ] && [ -d "$box/symlink/link" ]
check "the hard link was not created" [ ! -e "$box/symlink/hard" ]
check "symlink: nothing outside DEST" nothing_outside "absolute dotdot symlink "

make devices devices
extract devices 0
contains "$WORK/devices.out" "tar member 'null' at archive offset 1024 is a character device: not created"
check "no device or FIFO in DEST" [ ! -e "$box/devices/null" ] && [ ! -e "$box/devices/disk" ] &&
  [ ! -e "$box/devices/pipe" ]
check "the member after them is extracted" [ "$(cat "$box/devices/after.txt")" = after ]

make truncated truncated
extract truncated 1
contains "$WORK/truncated.out" "tar member 'cut.bin' at archive offset 1024 (30000 of its 100000 bytes read): Truncated tar archive"
check "truncated: the whole member before it is kept" [ "$(cat "$box/truncated/fine.txt")" = fine ]
check "truncated: no part of cut.bin has a name" [ ! -e "$box/truncated/cut.bin" ]

make huge huge
extract huge 1
contains "$WORK/huge.out" "tar member 'huge.bin' at archive offset 1024 (0 of its 10737418240 bytes read)"
check "huge: no file" [ ! -e "$box/huge/huge.bin" ]
check "huge/truncated: nothing outside DEST, no partial file" \
  nothing_outside "absolute devices dotdot huge symlink truncated "

make gzip.tgz gzip
extract gzip.tgz 0
check "gzip'd tar extracted" [ "$(cat "$box/gzip.tgz/fine.txt")" = fine ] &&
  [ "$(wc -c <"$box/gzip.tgz/dir/b.txt")" -eq 100000 ]
check "gzip: extract time counted" \
  [ "$(json_last_line "$WORK/gzip.tgz.out" 'd["trainbench_stage"]["extract_s"] > 0')" = True ]
done_ok
