#!/usr/bin/env bash
# Ctrl-C during `trainbench train` stops it with exit 130, as in `run` and `datagen`, after the
# step in flight, keeping the figures of the steps done (issue 46.7): summary.json, incomplete,
# has images/s, steps and images so far; the final line says the same; the page draws an
# incomplete training with its figures, not "the job did not end". A training killed with
# SIGKILL before it measured keeps a summary that names its model, batch, precision and device.
source "$(dirname "$0")/../lib/common.sh"
skip_unless train_has_libtorch "trainbench built without LibTorch"
cd "$WORK"
"$TRAINBENCH" train "${TRAIN_TINY[@]}" --steps-per-epoch 100000 --log-interval 1 --output "$WORK/res" \
  --interval 0.2 >out 2>&1 &
pid=$!
for _ in $(seq 600); do
  grep -q "Step \[3/" out && break
  sleep 0.1
done
grep -q "Step \[3/" out || fail "training did not start: $(cat out)"
kill -INT "$pid"
code=0
wait "$pid" || code=$?
check "interrupted train exits 130 (got $code)" test "$code" -eq 130
contains out "interrupted (Ctrl-C) after "
folder=$(ls -d "$WORK"/res/train-*/ | head -n 1)
check "summary.json: incomplete, with the figures of the steps done" "$PY" - "$folder/summary.json" out <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
assert s["kind"] == "train" and s["complete"] is False, s["complete"]
assert s["stop_reason"].startswith("interrupted (Ctrl-C) after "), s["stop_reason"]
steps = s["trainbench"]["steps"]
assert steps >= 3 and s["trainbench"]["interrupted"] is True, s["trainbench"]
r = s["radix_metrics"]
assert r["total_images"] == 4 * steps, (r["total_images"], steps)
assert r["images_per_second"] > 0 and r["elapsed_seconds"] > 0, r
assert abs(r["images_per_second"] - r["total_images"] / r["elapsed_seconds"]) < 1e-6 * r["images_per_second"], r
line = json.loads([l for l in open(sys.argv[2]) if l.startswith("{")][-1])
assert line["radix_metrics"]["total_images"] == r["total_images"], line
print("interrupted at", steps, "steps:", round(r["images_per_second"], 1), "images/s")
PY
"$TB" report "$folder" -o "$WORK/page.html" >report.out 2>&1 || { cat report.out; fail "report of the interrupted training"; }
chromium_dump_dom "$WORK/page.html" page.dom
check "the page: incomplete, its images/s, no 'did not end'" "$PY" - page.dom "$folder/summary.json" <<'PY'
import json, re, sys
dom = open(sys.argv[1]).read()
s = json.load(open(sys.argv[2]))
text = re.sub(r"<[^>]+>", " ", re.sub(r"(?s)<(script|style).*?</\1>", "", dom))
assert 'data-report-ready="true"' in dom
assert "incomplete" in text and "no final figures" not in text, text[:800]
assert f'{s["radix_metrics"]["images_per_second"]:.1f} images/s' in text, text[:800]
assert "undefined" not in text and "NaN" not in text
PY

# Killed (SIGKILL) as soon as its first summary is there: what it was is known already.
"$TRAINBENCH" train "${TRAIN_TINY[@]}" --steps-per-epoch 100000 --output "$WORK/killed" >killed.out 2>&1 &
pid=$!
for _ in $(seq 600); do
  ls "$WORK"/killed/train-*/summary.json >/dev/null 2>&1 && break
  sleep 0.05
done
kill -KILL "$pid"
wait "$pid" 2>/dev/null || true
killed=$(ls -d "$WORK"/killed/train-*/ | head -n 1)
check "a killed training's summary names what it was" "$PY" - "$killed/summary.json" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
assert s["complete"] is False, s
t, r = s["trainbench"], s["radix_metrics"]
assert (t["model"], t["precision"], t["device"], r["batch_size"]) == ("resnet18", "fp32", "cpu", 4), s
assert t["device_name"], t
PY
"$TB" report "$killed" -o "$WORK/killed.html" >report.out 2>&1 || { cat report.out; fail "report of the killed training"; }
chromium_dump_dom "$WORK/killed.html" killed.dom
check "the killed page: model, batch, device; no '- ,' subtitle" "$PY" - killed.dom <<'PY'
import re, sys
dom = open(sys.argv[1]).read()
text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", re.sub(r"(?s)<(script|style).*?</\1>", "", dom)))
assert "resnet18" in text and "fp32" in text, text[:1500]
assert "Z - ," not in text and "did not end" in text, text[:600]
PY
echo "train_interrupt: ok ($checks checks)"
