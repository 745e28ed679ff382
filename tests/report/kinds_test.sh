#!/usr/bin/env bash
# `trainbench report` draws every kind of result, each page checked in headless Chromium
# against its summary.json and timeseries.csv (check_job_dom.py): datagen (write rate), stage
# (time account, MB/s, streams), a sweep (AU and MB/s by accelerator count), a replay (latency
# against the original's), a sai3-bench workload (latency per op, MB/s), train (images/s,
# data wait) and a staged train (stage then train on one time axis). Two stages compare on one
# page; a stage and a replay shorter than one --interval say so instead of drawing empty
# charts; a sweep draws its probes with no verdict apart; kinds that cannot share a page, and
# --png / --check-replication of results that are not a run's, are refused (exit 2).
source "$(dirname "$0")/../lib/common.sh"
cd "$WORK"
res=$WORK/res

# kind_of FOLDER: its summary's kind.
kind_of() { json "$1/summary.json" 'd["kind"]'; }
# page_ok FOLDER...: report them, render the page, check its DOM against the folders.
page_ok() {
  local out=$WORK/page-$checks.html
  "$TB" report "$@" -o "$out" >"$WORK/report.out" 2>&1 || { cat "$WORK/report.out"; fail "report $*"; }
  chromium_dump_dom "$out" "$out.dom"
  check "the $(kind_of "$1") page of $*" $PY "$SRC/tests/report/check_job_dom.py" "$out.dom" \
    "$(kind_of "$1")" "$@"
}

# Each job long enough for several --interval rows (a shorter one has no time chart: below).
expect_exit 0 dg.out "$TB" datagen resnet50_h100 dataset.num_files_train=64 dataset.num_samples_per_file=8 \
  dataset.record_length_bytes=100000 dataset.record_length_bytes_stdev=0 dataset.data_folder="$WORK/d" \
  --no-progress --output "$res" --interval 0.05
datagen=$(json_last_line dg.out 'd["trainbench"]["results"]')
page_ok "$datagen"

head -c 60000000 /dev/urandom >blob.bin
for n in 1 2; do
  expect_exit 0 "stage$n.out" "$TB" stage "$WORK/blob.bin" "$WORK/dest$n" --no-progress \
    --output "$res" --interval 0.05
done
stage1=$(json_last_line stage1.out 'd["trainbench"]["results"]')
stage2=$(json_last_line stage2.out 'd["trainbench"]["results"]')
page_ok "$stage1"
page_ok "$stage1" "$stage2"  # a comparison of one kind

# A sweep on this file system (the dataset too small for more than 40 accelerators: the
# growth ends there, which the page shows too).
sw=(resnet50_h100 dataset.num_files_train=400 dataset.num_samples_per_file=1
  dataset.record_length_bytes=10000 dataset.record_length_bytes_stdev=0 dataset.data_folder="$WORK/sw"
  reader.batch_size=1 train.computation_time=0.005 train.epochs=1 output.folder="$res")
expect_exit 0 swd.out "$TB" datagen "${sw[@]}" --no-progress
expect_exit 0 sweep.out "$TB" sweep "${sw[@]}" --find-max-accelerators --max 64 --no-progress
sweep1=$(json_last_line sweep.out 'd["trainbench"]["results"]')
page_ok "$sweep1"
# Two find-max sweeps on one page: each box says its answer (another --max is another search).
expect_exit 0 sweep2.out "$TB" sweep "${sw[@]}" --find-max-accelerators --max 48 --no-progress
page_ok "$sweep1" "$(json_last_line sweep2.out 'd["trainbench"]["results"]')"
# A grid over two keys: a line per read_threads value, accelerators along x.
expect_exit 0 grid.out "$TB" sweep "${sw[@]}" reader.read_threads=1,2 --accelerators 1,2,4 --no-progress
page_ok "$(json_last_line grid.out 'd["trainbench"]["results"]')"

# A replay of a run's op-log: each operation's latency, the original's against the replay's.
expect_exit 0 oprun.out "$TB" run "${sw[@]}" train.computation_time=0.001 --no-progress \
  --op-log "$WORK/ops.tsv"
expect_exit 0 replay.out "$TB" replay "$WORK/ops.tsv" --no-progress --output "$res" --mode timed \
  --interval 0.05
page_ok "$(json_last_line replay.out 'd["trainbench"]["results"]')"

# A stage and a replay shorter than one --interval: one partial row each, so no empty chart but
# a note that says why (the other charts are drawn).
head -c 1000000 /dev/urandom >small.bin
expect_exit 0 short_stage.out "$TB" stage "$WORK/small.bin" "$WORK/dest-short" --no-progress \
  --output "$res" --interval 30
expect_exit 0 short_replay.out "$TB" replay "$WORK/ops.tsv" --no-progress --output "$res" --interval 30
for short in "stage stage-rate,streams time-account" "replay replay-rate replay-latency"; do
  set -- $short
  folder=$(json_last_line "short_$1.out" 'd["trainbench"]["results"]')
  "$TB" report "$folder" -o "$WORK/short_$1.html" >report.out 2>&1 || { cat report.out; fail "report $folder"; }
  chromium_dump_dom "$WORK/short_$1.html" "$WORK/short_$1.dom"
  check "a $1 shorter than one --interval: a note, not empty charts" $PY - "$WORK/short_$1.dom" \
    "$SRC/tests/report" "$2" "$3" <<'PY'
import re, sys
sys.path.insert(0, sys.argv[2])
from dom_page import Page
dom = open(sys.argv[1], encoding="utf-8").read()
page = Page()
page.feed(dom)
missing, drawn = sys.argv[3].split(","), sys.argv[4].split(",")
assert sorted(page.missing) == sorted(missing), (page.missing, sorted(page.canvases))
assert sorted(page.canvases) == sorted(drawn), sorted(page.canvases)
notes = re.findall(r'data-chart-missing="[^"]+">([^<]*)<', dom)
assert notes and all("shorter than one --interval (30.00 s): no time series" in n for n in notes), notes
print("short job ok:", notes[0])
PY
done

# A sai3-bench config's workload: each operation's latency, the MB/s of prepare then the op mix.
expect_exit 0 sai3.out "$TB" run "$SRC/tests/data/sai3-bench/resnet50_1-host.yaml" \
  target="file://$WORK/s3t/" duration=1s concurrency=2 perf_log.interval=0.1s output.folder="$res" \
  prepare.ensure_objects.0.count=16 prepare.directory_structure.width=2 \
  prepare.directory_structure.files_per_dir=4 workload.1.op=stat workload.1.path='scan.d*/**/*' \
  workload.1.weight=30 --no-progress
sai3=$(json_last_line sai3.out 'd["trainbench"]["results"]')
page_ok "$sai3"
# On file:// its objects are re-read from the page cache, and its files are kept open across
# GETs (sai3-bench opens one per GET): the page says both, in a run page's words for the first.
"$TB" report "$sai3" -o "$WORK/sai3.html" >report.out 2>&1 || { cat report.out; fail "report $sai3"; }
chromium_dump_dom "$WORK/sai3.html" "$WORK/sai3.dom"
check "the sai3 page's page-cache warning and open-files note" $PY - "$WORK/sai3.dom" <<'PY'
import re, sys
dom = open(sys.argv[1], encoding="utf-8").read()
warning = re.search(r'data-warning="page-cache"[^>]*>([^<]*)<', dom)
assert warning, "no page-cache warning"
assert re.match(r"the data its GETs read \([0-9.]+ [KM]B\) is smaller than 5x host memory "
                r"\([0-9.]+ GB\): the page cache can serve it, so this measures memory, not storage",
                warning.group(1)), warning.group(1)
note = re.search(r'data-note="open-files"[^>]*>([^<]*)<', dom)
assert note and "sai3-bench opens the file for every GET" in note.group(1), note
print("sai3 page notes ok")
PY

# Refusals: mixed kinds, and what only a run's results have.
expect_exit 2 mixed.out "$TB" report "$stage1" "$datagen" -o "$WORK/mixed.html"
contains mixed.out "different kinds"
contains mixed.out "$datagen (datagen)"
[ ! -e "$WORK/mixed.html" ] || fail "a page was written for mixed kinds"
expect_exit 2 png.out "$TB" report "$stage1" --png "$WORK/png"
contains png.out "--png"
expect_exit 2 repl.out "$TB" report --check-replication "$stage1" "$stage2"
contains repl.out "--check-replication"

# Training: needs the LibTorch plugin (the torch suite's rule).
skip_unless train_has_libtorch "trainbench built without LibTorch"
mkdir -p jpg/c1 jpg/c2
$PY -c "
from PIL import Image
for c, colour in (('c1', (200, 0, 0)), ('c2', (0, 0, 200))):
    for i in range(8): Image.new('RGB', (40, 40), colour).save(f'jpg/{c}/{i}.JPEG')"
tiny=("${TRAIN_TINY[@]}" --allow-cpu --steps-per-epoch 3 --interval 0.05 --output "$res")
expect_exit 0 train.out "$TB" train "${tiny[@]}" --data "$WORK/jpg"
page_ok "$(json_last_line train.out 'd["trainbench"]["results"]')"
expect_exit 0 staged.out "$TB" train "${tiny[@]}" --data "$WORK/jpg" --stage-to "$WORK/staged"
staged=$(json_last_line staged.out 'd["trainbench"]["results"]')
check "a staged train's kind" test "$(kind_of "$staged")" = staged_train
page_ok "$staged"
done_ok
