"""Checks a report page's DOM (Chromium's --dump-dom, after the page's scripts ran) against
the results folders it was made from: every chart was drawn (data-rendered) and the points it
drew (data-points) are summary.json's and timeseries.csv's numbers.
Usage: check_dom.py DOM.html RESULTS_DIR..."""
import csv
import json
import sys
import os


sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from dom_page import Page, close  # noqa: E402


dom, folders = sys.argv[1], sys.argv[2:]
page = Page()
page.feed(open(dom, encoding="utf-8").read())
assert page.body.get("data-report-ready") == "true", "the page's script did not finish"
charts = {"au", "samples", "mbps", "wait", "latency", "cdf", "histogram"}
assert set(page.canvases) == charts, (set(page.canvases), page.missing)
for name, c in page.canvases.items():
    assert c.get("data-rendered") == "true", name
points = {k: json.loads(c["data-points"]) for k, c in page.canvases.items()}
n = len(folders)
for i, folder in enumerate(folders):
    s = json.load(open(f"{folder}/summary.json"))
    # Several ranks' results: the page draws the merged rows ("all"); one process: rank 0's.
    every = list(csv.DictReader(open(f"{folder}/timeseries.csv")))
    which = "all" if any(r["rank"] == "all" for r in every) else "0"
    rows = [r for r in every if r["rank"] == which]
    # AU per epoch: run i's bars are summary.json's train_au_percentage; the last set is the target.
    au = points["au"]["datasets"]
    assert len(au) == n + 1, len(au)
    assert all(close(x, y) for x, y in zip(au[i]["data"], s["metric"]["train_au_percentage"]))
    assert len(au[i]["data"]) == len(s["metric"]["train_au_percentage"])
    assert au[-1]["label"] == "target" and all(v == s["au_target_percentage"] for v in au[-1]["data"])
    # Time series: one point per row, at elapsed_s.
    for chart, column, scale in [("samples", "samples_per_second", 1),
                                 ("mbps", "io_MB_per_second", 1),
                                 ("wait", "data_wait_share", 100)]:
        data = points[chart]["datasets"][i]["data"]
        assert len(data) == len(rows), (chart, len(data), len(rows))
        for p, r in zip(data, rows):
            assert close(p["x"], float(r["elapsed_s"])), (chart, p, r)
            assert close(p["y"], float(r[column]) * scale), (chart, p, r)
    p99 = points["latency"]["datasets"][2 * i]["data"]
    for p, r in zip(p99, rows):
        want = float(r["read_latency_p99_ms"]) if int(r["reads"]) > 0 else None
        assert (p["y"] is None and want is None) or close(p["y"], want), (p, r)
    # The CDF: one point per histogram bucket, at its upper edge, ending at 1.
    h = s["read_latency_histogram"]
    cdf = points["cdf"]["datasets"][i]["data"]
    assert len(cdf) == len(h["counts"]), (len(cdf), len(h["counts"]))
    assert all(close(p["x"], x) for p, x in zip(cdf, h["high_ms"]))
    assert close(cdf[-1]["y"], 1.0), cdf[-1]
    seen = 0
    for p, c in zip(cdf, h["counts"]):
        seen += c
        assert close(p["y"], seen / h["count"]), (p, seen)
    hist = points["histogram"]["datasets"][i]["data"]
    assert close(sum(hist), 100, 1e-6), sum(hist)
    assert page.verdicts[i] == json.dumps(s["passed"]).replace("null", "null"), (page.verdicts, s["passed"])
    # The hosts table (results of several ranks): one row per summary.json host, in order.
    if i == 0 and s.get("hosts"):
        rows = [r for r in page.tables["hosts-table"] if r]
        assert len(rows) == len(s["hosts"]), rows
        for r, h in zip(rows, s["hosts"]):
            assert r[0] == h["host"] and r[2] == str(h["accelerators"]), (r, h)
            assert close(float(r[3].replace(",", "")), h["samples_per_second"], 0.01), (r, h)
            assert close(float(r[4].replace(",", "")), h["io_MB_per_second"], 0.01), (r, h)
            assert close(float(r[5]), h["au_mean_percentage"], 0.01), (r, h)
            assert r[9] == ("yes" if h["fits_in_page_cache"] else "no"), (r, h)
if n > 1:  # the comparison table: every row's values, run by run, and the deltas against run 1
    sums = [json.load(open(f"{f}/summary.json")) for f in folders]
    want = {  # metric -> (value from summary.json, which way is better)
        "samples/s (mean over epochs)": (lambda x: x["metric"]["train_throughput_mean_samples_per_second"], 1),
        "MB/s (mean over epochs)": (lambda x: x["metric"]["train_io_mean_MB_per_second"], 1),
        "AU % (mean)": (lambda x: x["metric"]["train_au_mean_percentage"], 1),
        "read latency p50 (ms)": (lambda x: x["read_latency_ms"]["p50"], -1),
        "read latency p99 (ms)": (lambda x: x["read_latency_ms"]["p99"], -1),
        "read latency p99.9 (ms)": (lambda x: x["read_latency_ms"]["p999"], -1),
        "data wait share (%)": (lambda x: 100 * x["io_characterization"]["data_wait_fraction"], -1),
        "CPU us per sample": (lambda x: x["cpu_us_per_sample"], -1),
        "run seconds": (lambda x: x["run_seconds"], 0),
    }
    assert set(page.metric_rows) == set(want), set(page.metric_rows) ^ set(want)
    for metric, (get, better) in want.items():
        cells = page.metric_rows[metric]
        assert len(cells) == n, (metric, cells)
        base = get(sums[0])
        for (value, text, cls), x in zip(cells, sums):
            assert close(float(value), get(x)), (metric, value, get(x))
        for (value, text, cls) in cells[1:]:
            if not base:
                continue
            delta = 100 * (float(value) - base) / base
            shown = float(text[text.index("(") + 1:text.index("%)")].replace(",", ""))
            assert abs(shown - delta) <= 0.05 + 1e-9, (metric, text, delta)
            if better and abs(delta) >= 0.05:
                assert cls == ("better" if delta * better > 0 else "worse"), (metric, text, cls)
            else:
                assert cls == "", (metric, text, cls)
    assert len(page.comparison) == 9 * n, len(page.comparison)
print("dom ok:", len(page.canvases), "charts,", n, "run(s)")
