"""Checks a report page's DOM (Chromium's --dump-dom, after the page's scripts ran) against
the results folders it was made from: every chart was drawn (data-rendered) and the points it
drew (data-points) are summary.json's and timeseries.csv's numbers.
Usage: check_dom.py DOM.html RESULTS_DIR..."""
import csv
import json
import sys
from html.parser import HTMLParser


class Page(HTMLParser):
    def __init__(self):
        super().__init__()
        self.canvases, self.verdicts, self.comparison, self.body = {}, [], [], {}
        self.missing = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "body":
            self.body = a
        if tag == "canvas" and "data-chart" in a:
            self.canvases[a["data-chart"]] = a
        if "data-chart-missing" in a:
            self.missing.append(a["data-chart-missing"])
        if tag == "div" and "verdict" in a.get("class", "").split():
            self.verdicts.append(a.get("data-passed"))
        if tag == "td" and "data-value" in a:
            self.comparison.append(a["data-value"])


def close(a, b, tol=1e-6):
    return abs(a - b) <= tol * max(1.0, abs(a), abs(b))


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
    rows = [r for r in csv.DictReader(open(f"{folder}/timeseries.csv")) if r["rank"] == "0"]
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
if n > 1:  # the comparison table's values, row by row, run by run
    sums = [json.load(open(f"{f}/summary.json")) for f in folders]
    first_row = [float(v) for v in page.comparison[:n]]
    want = [x["metric"]["train_throughput_mean_samples_per_second"] for x in sums]
    assert all(close(a, b) for a, b in zip(first_row, want)), (first_row, want)
    assert len(page.comparison) == 9 * n, len(page.comparison)
print("dom ok:", len(page.canvases), "charts,", n, "run(s)")
