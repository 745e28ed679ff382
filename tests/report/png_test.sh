#!/usr/bin/env bash
# `trainbench report --png DIR` writes the main charts as PNG files with gnuplot: each
# decodes (PIL), has the size asked for, and is not blank; a relative DIR works too; without
# gnuplot it says which package to install.
source "$(dirname "$0")/../lib/common.sh"
cd "$WORK"
skip_unless "command -v gnuplot" "no gnuplot (Debian's gnuplot-nox)"
make_tiny_dataset
quick_run a
quick_run b 2
for set in one two; do
  folders=("$WORK/runs/a")
  [ $set = two ] && folders+=("$WORK/runs/b")
  "$TB" report "${folders[@]}" --png "$WORK/png-$set" -o "$WORK/$set.html" >png.out 2>&1 ||
    { cat png.out; fail "report --png failed"; }
  $PY - "$WORK/png-$set" <<'PY' || fail "PNG charts ($set)"
import os, sys
from PIL import Image, ImageStat
d = sys.argv[1]
names = sorted(os.listdir(d))
assert names == ["au_epochs.png", "data_wait.png", "latency_cdf.png", "read_latency.png",
                 "throughput.png"], names
for n in names:
    im = Image.open(os.path.join(d, n))
    im.load()
    assert im.size == (1100, 520), (n, im.size)
    rgb = im.convert("RGB")
    var = ImageStat.Stat(rgb).var
    colours = len(rgb.getcolors(1 << 20) or [])
    assert max(var) > 200 and colours > 8, (n, var, colours)
print("png ok:", names)
PY
  checks=$((checks + 1))
done
contains png.out "chart: $WORK/png-two/throughput.png"
# A relative folder, the form docs/report.md's examples use (`--png charts/`): gnuplot works
# in a folder of its own, so the path must not be taken from there.
mkdir -p sub
(cd sub && "$TB" report "$WORK/runs/a" --png charts/ -o rel.html) >rel.out 2>&1 ||
  { cat rel.out; fail "report --png charts/ (a relative folder) failed"; }
contains rel.out "chart: charts/throughput.png"
check "five PNGs in sub/charts" test "$(ls sub/charts/*.png | wc -l)" = 5
check "no scratch folder left in sub/charts" test -z "$(ls -A sub/charts | grep -v '\.png$')"
# No gnuplot on PATH: the error names the package; nothing half-written is left.
expect_exit 1 nognuplot.txt env PATH=/nonexistent "$TB" report "$WORK/runs/a" --png "$WORK/png-none" -o "$WORK/n.html"
contains nognuplot.txt "gnuplot-nox"
[ -z "$(ls -A "$WORK/png-none" 2>/dev/null)" ] || fail "files left in png-none: $(ls -A "$WORK/png-none")"
done_ok
