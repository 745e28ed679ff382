#!/usr/bin/env bash
# The report of a checkpointing workload (llama3_8b, scaled down to 2 small layers) shows the
# checkpoints: a verdict with write and read GB/s, a throughput chart per checkpoint (each
# labelled by its step) and their table; no read-side figures (no AU chart, "storage only", a
# 0 B dataset or 0 accelerators, no dataset rows in the Run table), and the page runs without
# a script error. The JSON line counts the accelerator and leaves what was not measured (AU,
# samples/s, MB/s, read latency) null.
source "$(dirname "$0")/../lib/common.sh"
cd "$WORK"
small=(model.num_layers=2 model.transformer.hidden_size=256 model.transformer.ffn_hidden_size=1024
  model.transformer.vocab_size=2000 model.transformer.num_attention_heads=8
  "output.folder=$WORK/out" "checkpoint.checkpoint_folder=$WORK/ck"
  checkpoint.num_checkpoints_write=2 checkpoint.num_checkpoints_read=1)
"$TB" run llama3_8b "${small[@]}" --no-progress >run.out 2>run.err || {
  cat run.err
  fail "checkpointing run failed"
}
last_line_json run.out line.json
check "accelerators 1" [ "$(json line.json 'd["trainbench_metrics"]["accelerators"]')" = 1 ]
check "nothing read: null figures" [ "$(json line.json '[d["trainbench_metrics"][k] for k in
  ("au_percentage", "samples_per_second", "io_mb_per_second", "read_latency_ms")]')" = \
  "[None, None, None, None]" ]
check "checkpoint rates" [ "$(json line.json '[d["trainbench_metrics"]["checkpoint_" + k +
  "_GB_per_second"] > 0 for k in ("write", "read")]')" = "[True, True]" ]
dir=$(results_dir)
"$TB" report "$dir" >report.out 2>&1 || { cat report.out; fail "report failed"; }
page=$dir/report.html
chromium_run --enable-logging=stderr --v=0 --virtual-time-budget=5000 --dump-dom \
  "file://$page" >dom.html
[ -s dom.html ] || fail "chromium wrote no DOM: $(tail -5 "$WORK/chromium.log")"
if grep -E "Uncaught|CONSOLE.*Error" "$WORK/chromium.log"; then fail "a script error on the page"; fi
checks=$((checks + 1))
$PY - dom.html <<'PY' || fail "checkpoint report content"
import re, sys
dom = open(sys.argv[1]).read()
text = re.sub(r"<[^>]+>", " ", re.sub(r"(?s)<script.*?</script>", "", dom))
assert 'data-report-ready="true"' in dom, "the script did not finish"
assert re.search(r'data-chart="checkpoints"[^>]*data-rendered="true"|data-rendered="true"[^>]*data-chart="checkpoints"', dom), "no checkpoint chart"
assert 'data-chart="au"' not in dom, "an AU chart"
assert "Checkpointing" in text and re.search(r"write \d+\.\d+ GB/s, read \d+\.\d+ GB/s", text), text[:800]
assert "checkpointing over 1 rank(s)" in text
rows = re.findall(r"<tr>(.*?)</tr>", dom[dom.index('id="checkpoints-table"'):].split("</table>")[0])
ops = [re.sub(r"<[^>]+>", " ", r).split()[0] for r in rows[1:]]
assert ops == ["write", "write", "read"], ops
for bad in ("storage only", "0 accelerator(s)", "smaller than 5x", "no timeseries.csv"):
    assert bad not in text, bad
print("checkpoint report ok")
PY
checks=$((checks + 1))
# Each bar is labelled by the checkpoint it wrote or read (the read is of step 2, not "read
# 3"), and the Run table has no dataset rows for a job that reads none.
$PY - dom.html "$dir/summary.json" "$SRC/tests/report" <<'PY' || fail "checkpoint labels and Run table"
import json, sys
sys.path.insert(0, sys.argv[3])
from dom_page import Page
page = Page()
page.feed(open(sys.argv[1], encoding="utf-8").read())
s = json.load(open(sys.argv[2]))
assert [(c["operation"], c["step"]) for c in s["checkpoints"]] == \
    [("write", 1), ("write", 2), ("read", 2)], s["checkpoints"]
labels = json.loads(page.canvases["checkpoints"]["data-points"])["labels"]
assert labels == ["write step 1", "write step 2", "read step 2"], labels
fields = [row[0] for row in page.tables["run-table"] if row]
for absent in ("format", "read engine", "batch size", "steps per epoch", "train files / samples",
               "CPU us per sample"):
    assert absent not in fields, (absent, fields)
assert "workload" in fields and "run seconds" in fields, fields
print("labels", labels, "run table", fields)
PY
checks=$((checks + 1))
done_ok
