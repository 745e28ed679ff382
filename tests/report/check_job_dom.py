"""Checks the report page of a datagen, stage, train, staged-train, sweep, replay, sai3, fidelity
or mix result (Chromium's
--dump-dom, after the page's scripts ran) against the results folders it was made from: the
page knows the kind, the outcome is summary.json's, every figure in the table is
summary.json's value, every chart was drawn, and the points it drew are timeseries.csv's
columns (a stage's time account: summary.json's shares); a job shorter than one --interval
(one row) has a note in place of each time chart. A mix's page (one section per mix): its
jobs' table and the AU inside/outside bursts table say summary.json's figures, each as the
page formats numbers; the AU chart has a line per training job (series.t_s/au_percentage,
nulls as gaps) and the checkpoint bursts as its bands; the storage charts are storage.series.
Usage: check_job_dom.py DOM.html KIND RESULTS_DIR..."""
import csv
import html
import json
import os
import re
import sys
from decimal import ROUND_HALF_UP, Decimal

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from dom_page import Page, close  # noqa: E402

# The charts of each kind: chart id -> (timeseries.csv column, scale); None: from summary.json.
CHARTS = {
    "datagen": {"write-rate": ("io_MB_per_second", 1)},
    "stage": {"time-account": None, "stage-rate": ("io_MB_per_second", 1),
              "streams": ("reads_in_flight", 1)},
    "train": {"images": ("samples_per_second", 1), "wait": ("data_wait_share", 100)},
    "staged_train": {"time-account": None, "streams": ("reads_in_flight", 1),
                     "stage-train": ("io_MB_per_second", 1), "wait": ("data_wait_share", 100)},
    "sweep": {"au-by-count": "au_percentage", "throughput-by-count": "MB_per_second"},
    "replay": {"replay-latency": "latency_ms", "replay-rate": ("io_MB_per_second", 1)},
    "sai3": {"sai3-latency": "latency_ms", "sai3-rate": ("io_MB_per_second", 1)},
    # bench/fidelity.sh's study: each path's figure at each storage speed.
    "fidelity": {"fidelity-rate": "images_per_second", "fidelity-stall": "stall_percent",
                 "fidelity-error": "error_percent", "fidelity-stall-error": "stall_error_points"},
}
SHARES = ["transfer_s", "retry_wasted_s", "verify_s", "extract_s"]
# A mix's tables: each figure of a job (its key in summary.json's jobs[]) and the digits the
# page writes it with (None: as it is).
MIX_JOB_COLUMNS = [("name", None), ("workload", None), ("role", None), ("every_s", 2),
                   ("accelerators", 0), ("au_percentage", 2), ("samples_per_second", 1),
                   ("MB_per_second", 1), ("read_latency_ms.p99", 3), ("checkpoints_written", 0),
                   ("checkpoint_write_GB_per_second", 3)]
REPLAY_JOB_COLUMNS = [("name", None), ("op", None), ("original.count", 0), ("replayed.count", 0),
                      ("original.latency_ms.p50", 3), ("replayed.latency_ms.p50", 3),
                      ("original.latency_ms.p99", 3), ("replayed.latency_ms.p99", 3),
                      ("original.MiB_per_second", 1), ("replayed.MiB_per_second", 1),
                      ("replayed.errors", 0)]
MIX_BASELINE_COLUMNS = [("alone.au_percentage", 2), ("alone.cost.au_points", 2),
                        ("alone.cost.samples_per_second_ratio", 3),
                        ("alone.checkpoint_write_GB_per_second", 3)]
MIX_END_COLUMNS = [("stop_reason", None), ("results", None)]
MIX_BURST_AU_COLUMNS = [("name", None), ("au_percentage", 2), ("au_in_bursts_percentage", 2),
                        ("au_outside_bursts_percentage", 2), ("intervals_in_bursts", 0)]


def at(d, path):
    for key in path.split("."):
        if not isinstance(d, dict) or key not in d:
            return None
        d = d[key]
    return d


dom, kind, folders = sys.argv[1], sys.argv[2], sys.argv[3:]
# A training that read data has a chart of its reads; one on synthetic data has none.
if kind == "train" and any(json.load(open(f"{f}/summary.json")).get("trainbench", {}).get("data")
                           not in (None, "synthetic") for f in folders):
    CHARTS["train"] = dict(CHARTS["train"], **{"train-io": ("io_MB_per_second", 1)})
GRID = kind == "sweep" and json.load(open(f"{folders[0]}/summary.json")).get("mode") == "grid"
if GRID:
    CHARTS["sweep"] = {"grid-au": "au_percentage", "grid-samples": "samples_per_second",
                       "grid-mbps": "MB_per_second"}


class JobRowsPage(Page):
    """Page, and the rows of a mix's job tables: table id -> [(job, [(key, data-value, text)])]."""

    def __init__(self):
        super().__init__()
        self.job_rows, self._job_table, self._job_cell = {}, None, None

    def handle_starttag(self, tag, attrs):
        super().handle_starttag(tag, attrs)
        a = dict(attrs)
        if tag == "table":
            self._job_table = a.get("id")
        if tag == "tr" and "data-job" in a and self._job_table:
            self.job_rows.setdefault(self._job_table, []).append((a["data-job"], []))
        if tag == "td" and "data-key" in a and self._job_table:
            self._job_cell = [a["data-key"], a.get("data-value"), ""]

    def handle_data(self, data):
        super().handle_data(data)
        if self._job_cell is not None:
            self._job_cell[2] += data

    def handle_endtag(self, tag):
        if tag == "td" and self._job_cell is not None:
            self.job_rows[self._job_table][-1][1].append(tuple(self._job_cell))
            self._job_cell = None
        super().handle_endtag(tag)
        if tag == "table":
            self._job_table = None


def formatted(v, digits):
    """v as the page writes it: '-' for null, numbers as toLocaleString('en-US') with `digits`
    decimals (rounding half away from zero, as it does), else as it is."""
    if v is None:
        return "-"
    if isinstance(v, bool):
        return str(v).lower()
    if isinstance(v, (int, float)):
        rounded = Decimal(v).quantize(Decimal(1).scaleb(-(digits or 0)), rounding=ROUND_HALF_UP)
        return f"{rounded:,.{digits or 0}f}"
    return str(v)


page = JobRowsPage()
page.feed(open(dom, encoding="utf-8").read())
assert page.body.get("data-report-ready") == "true", "the page's script did not finish"
assert page.body.get("data-kind") == kind, page.body.get("data-kind")


def series_rows(folder):
    path = f"{folder}/timeseries.csv"
    return [r for r in csv.DictReader(open(path)) if r["rank"] == "0"] if os.path.exists(path) else []


# A mix's charts, one set per mix of the page (the first without a suffix).
suffix = lambda i: f"-{i + 1}" if i else ""
if kind == "mix":
    CHARTS["mix"] = {f"mix-{c}{suffix(i)}": None for i in range(len(folders))
                     for c in ("au", "storage", "share")}
# Jobs shorter than one --interval (one partial row each) get a note instead of a time chart.
if kind != "mix" and not GRID and all(len(series_rows(f)) < 2 for f in folders):
    series = [c for c, src in CHARTS[kind].items() if isinstance(src, tuple)]
    assert sorted(page.missing) == sorted(series), (page.missing, series)
    CHARTS[kind] = {c: src for c, src in CHARTS[kind].items() if c not in series}
assert set(page.canvases) == set(CHARTS[kind]), (set(page.canvases), page.missing)
for name, c in page.canvases.items():
    assert c.get("data-rendered") == "true", name
points = {k: json.loads(c["data-points"]) for k, c in page.canvases.items()}
summaries = [json.load(open(f"{f}/summary.json")) for f in folders]
assert [s["kind"] for s in summaries] == [kind] * len(folders)
assert page.verdicts == [str(s["complete"]).lower() for s in summaries], page.verdicts
# A job that ended has final figures: its outcome box says them, never that it did not end.
# (the page's text, not its script, which holds the words for a job that did not end)
shown = re.sub(r"(?s)<(script|style).*?</\1>", "", open(dom, encoding="utf-8").read())
if any(s["complete"] for s in summaries):
    assert "no final figures" not in shown, "an ended job 'did not end'"
if kind == "sweep" and not GRID:  # the answer sentence itself, in every box of a comparison
    text = html.unescape(shown)
    for s in summaries:
        assert s["mode"] == "find_max", s.get("mode")
        assert s["sentence"] and s["sentence"] in text, s["sentence"]

# The figures table: each row's values are summary.json's, result by result.
assert page.figures, "no figures table"
for key, values in page.figures.items():
    assert len(values) == len(folders), (key, values)
    for s, shown in zip(summaries, values):
        want = at(s, key)
        if want is None:
            assert shown == "", (key, shown)
        elif isinstance(want, (int, float)) and not isinstance(want, bool):
            assert close(float(shown), float(want)), (key, shown, want)
        else:
            assert json.loads(shown) == want, (key, shown, want)

if kind == "sweep" and not GRID:  # how many counts were run, not --min under that name
    for s in summaries:
        assert "counts_tried" in page.figures, sorted(page.figures)
    # The answer's confirmation: its spread at each side and whether the repeats agree.
    for key in ("stable", "limited_by", "confirmation.runs_per_side",
                "confirmation.answer.au_median_percentage"):
        assert key in page.figures, (key, sorted(page.figures))
    tried = [str(len({p["accelerators"] for p in s["probes"]})) for s in summaries]
    assert page.figures["counts_tried"] == tried, (page.figures["counts_tried"], tried)

if kind == "fidelity":  # the points table: a row per storage speed, as measured
    rows = page.tables["fidelity-points-table"][1:]
    s0 = summaries[0]
    assert [r[0] for r in rows] == [p["storage"] for p in s0["points"]], rows
    for r, p in zip(rows, s0["points"]):
        real = p["paths"]["real"]
        assert r[3].startswith(f"{real['images_per_second']:,.1f}, {real['stall_percent']:,.1f}%"), (r, real)
        spread = p.get("real_spread_percent")
        assert r[9] == ("-" if spread is None else f"{spread:,.1f}%, {p['real_stall_spread_points']:,.1f}"), (r, p)
        # A point whose calibration missed the real compute in every round (host drift) says
        # its calibrated emulation is not judged; the compute cell has the drift.
        assert ("not judged: host drift" in r[4]) == (p.get("judged", True) is False), (r, p)
        if p.get("judged", True) is False:  # each round's drift, every one over the bound
            drifts = p["rounds_drift_percent"]
            assert drifts and all(abs(x) > s0["drift_bound_percent"] for x in drifts), p
            assert r[4].endswith("not judged: host drift " + ", ".join(f"{x:,.1f}%" for x in drifts)), (r, p)
        drift = p.get("calibration_drift_percent")
        compute_ms = [float(v.replace(",", "")) for v in r[8].split(" (")[0].split(", ")]
        assert abs(compute_ms[0] - p["calibrated_compute_ms"]) <= 0.5 + 1e-6 and \
            abs(compute_ms[1] - real["compute_ms"]) <= 0.5 + 1e-6, (r, p)  # whole ms, rounded
        assert drift is None or \
            f"({drift:,.1f}%; {p['drifted_rounds']} of {p['repeat']} drifted; {p['tries']} tries)" in r[8], (r, p)

def check_job_table(table, jobs, columns):
    """A table of a row per job (data-job) and a cell per figure (data-key, data-value): each
    figure as summary.json has it and as the page writes it."""
    rows = page.job_rows.get(table)
    assert rows is not None, (table, sorted(page.job_rows))
    assert [job for job, _ in rows] == [j["name"] for j in jobs], (table, rows)
    for (name, cells), j in zip(rows, jobs):
        assert [c[0] for c in cells] == [key for key, _ in columns], (table, name, cells)
        for (key, value, text), (_, digits) in zip(cells, columns):
            want = at(j, key)
            # The figure itself (as summary.json has it) and as the page writes it.
            assert (value == "" if want is None else json.loads(value) == want), \
                (table, name, key, value, want)
            shown = (("complete" if j["complete"] else want or "incomplete")
                     if key == "stop_reason" else formatted(want, digits))
            assert text.strip() == shown, (table, name, key, text, shown)


if kind == "replay":  # several op-logs replayed together: each job against its own original
    for i, s in enumerate(summaries):
        if "jobs" in s:
            rows = [dict(o, name=j["job"]) for j in s["jobs"] for o in j["ops"]]
            assert rows, s["jobs"]
            check_job_table("replay-jobs" + suffix(i), rows, REPLAY_JOB_COLUMNS)

if kind == "mix":
    for i, s in enumerate(summaries):
        sfx, jobs = suffix(i), s["jobs"]
        trainings = [j for j in jobs if j["kind"] == "run"]
        assert trainings, f"{folders[i]}: no training job to draw"
        check_job_table("mix-jobs" + sfx, jobs, MIX_JOB_COLUMNS +
                        (MIX_BASELINE_COLUMNS if s["mix"]["baseline"] else []) + MIX_END_COLUMNS)
        check_job_table("mix-burst-au" + sfx, trainings, MIX_BURST_AU_COLUMNS)
        # Each training's AU over the mix's time axis, a gap (null) where it was not training.
        sets = points["mix-au" + sfx]["datasets"]
        assert [d["label"] for d in sets] == [j["name"] for j in trainings], sets
        for d, j in zip(sets, trainings):
            series = j["series"]
            assert [p["x"] for p in d["data"]] == series["t_s"], (j["name"], d["data"])
            assert [p["y"] for p in d["data"]] == series["au_percentage"], (j["name"], d["data"])
        # The bursts, each drawn as a band on the AU and the storage charts.
        for chart in ("mix-au", "mix-storage"):
            bands = json.loads(page.canvases[chart + sfx]["data-bands"])
            assert bands == s["bursts"], (chart + sfx, bands, s["bursts"])
        if s["bursts"]:
            rows = page.tables["mix-bursts" + sfx][1:]
            assert [(r[0], r[1], r[2], r[3]) for r in rows] == \
                [(b["job"], b["operation"], formatted(b["start_s"], 3), formatted(b["end_s"], 3))
                 for b in s["bursts"]], rows
        storage = s["storage"]["series"]
        sets = points["mix-storage" + sfx]["datasets"]
        assert len(sets) == 1, [d["label"] for d in sets]
        assert [(p["x"], p["y"]) for p in sets[0]["data"]] == \
            list(zip(storage["t_s"], storage["MB_per_second"])), sets[0]["data"]
        # Each job's share, in %, in the jobs' order.
        sets = points["mix-share" + sfx]["datasets"]
        shared = [j["name"] for j in jobs if j["name"] in storage["share"]]
        assert [d["label"] for d in sets] == shared, (sets, shared)
        for d, name in zip(sets, shared):
            assert [p["x"] for p in d["data"]] == storage["t_s"], name
            want = [None if v is None else 100 * v for v in storage["share"][name]]
            got = [p["y"] for p in d["data"]]
            assert all((g is None) == (w is None) and (g is None or close(g, w))
                       for g, w in zip(got, want)) and len(got) == len(want), (name, got, want)
    CHARTS["mix"] = {}  # checked above

for chart, source in CHARTS[kind].items():
    sets = points[chart]["datasets"]
    if GRID:  # each figure by the first key's value, a line per combination of the others
        s0 = summaries[0]
        first, others = s0["axes"][0], s0["axes"][1:]
        combo = lambda p: ", ".join(f"{a['key']}={p['values'][a['key']]}" for a in others)
        combos = list(dict.fromkeys(combo(p) for p in s0["points"]))
        assert points[chart]["labels"] == first["values"], points[chart]["labels"]
        for k, c in enumerate(combos):
            want = []
            for v in first["values"]:
                p = [q for q in s0["points"] if q["values"][first["key"]] == v and combo(q) == c]
                want.append(round(p[0]["run"][source], 6) if p else None)
            got = [None if y is None else round(y, 6) for y in sets[k]["data"]]
            assert got == want, (chart, c, got, want)
        continue
    if kind == "sweep":  # each probe at its count: short probes, then full-length runs,
        # those with a verdict (pass or FAIL) apart from those with none (no verdict, stopped)
        probes = summaries[0]["probes"]
        judged = lambda p: p["verdict"] in ("pass", "FAIL")
        groups = [(full, j) for full in (False, True) for j in (True, False)
                  if any(p["full"] == full and judged(p) == j for p in probes)]
        for k, (full, j) in enumerate(groups):
            want = [(p["accelerators"], round(p[source], 6)) for p in probes
                    if p["full"] == full and judged(p) == j]
            got = [(d["x"], round(d["y"], 6)) for d in sets[k]["data"]]
            assert got == want, (chart, full, j, got, want)
            assert ("no verdict" in sets[k]["label"]) != j, (chart, sets[k]["label"])
        if chart == "au-by-count":  # the target line
            assert all(d["y"] == summaries[0]["au_target_percentage"] for d in sets[-1]["data"])
        continue
    if kind == "fidelity":  # a line per path (real only where it is not the reference),
        # its points sorted by the storage's measured speed; then the bound's two lines
        s0 = summaries[0]
        paths = [p for p in s0["paths"] if p != "real" or chart in ("fidelity-rate", "fidelity-stall")]
        pts = sorted(s0["points"], key=lambda p: p["storage_MB_per_second"])
        for k, path in enumerate(paths):
            assert sets[k]["label"] == path, (chart, k, sets[k]["label"])
            want = [(round(p["storage_MB_per_second"], 6), round(p["paths"][path][source], 6))
                    for p in pts]
            got = [(round(d["x"], 6), round(d["y"], 6)) for d in sets[k]["data"]]
            assert got == want, (chart, path, got, want)
        bands = sets[len(paths):]
        # The speed axis holds the demand's mark (with only fast points it would not).
        lo, hi = json.loads(page.canvases[chart]["data-x-range"])
        assert lo <= s0["demand_MB_per_second"] <= hi, (chart, lo, hi, s0["demand_MB_per_second"])
        if chart in ("fidelity-error", "fidelity-stall-error"):
            assert sorted(d["data"][0]["y"] for d in bands) == \
                [-s0["bound_percent"], s0["bound_percent"]], (chart, bands)
        else:
            assert not bands, (chart, bands)
        continue
    if chart == "replay-latency":  # p50 and p99 of each op, the original's then the replay's
        ops = summaries[0]["ops"]
        assert points[chart]["labels"] == [o["op"] for o in ops], points[chart]["labels"]
        k = 0
        for side in ("original", "replayed"):
            for q in ("p50", "p99"):
                want = [round(o[side]["latency_ms"][q], 6) for o in ops]
                assert [round(y, 6) for y in sets[k]["data"]] == want, (chart, side, q)
                k += 1
        continue
    if chart == "sai3-latency":  # p50, p90, p99 of each op (and GETs' first byte, where measured)
        ops = summaries[0]["ops"]
        assert points[chart]["labels"] == [o["op"] for o in ops], points[chart]["labels"]
        for k, q in enumerate(("p50", "p90", "p99")):
            want = [round(o["latency_ms"][q], 6) for o in ops]
            assert [round(y, 6) for y in sets[k]["data"]] == want, (chart, q)
        assert len(sets) == 3 + any("first_byte_latency_ms" in o for o in ops), len(sets)
        continue
    if source is None:  # the time account: one bar per result, each share summary.json's
        parts = SHARES + (["compute_s"] if kind == "staged_train" else [])
        for k, part in enumerate(parts):
            assert [round(v, 9) for v in sets[k]["data"]] == \
                [round(s[part], 9) for s in summaries], (chart, part)
        for i, s in enumerate(summaries):  # with "other", the bar is the wall time
            assert close(sum(st["data"][i] for st in sets), s["wall_s"], 1e-6), (chart, i)
        continue
    column, scale = source
    for i, folder in enumerate(folders):
        rows = [r for r in csv.DictReader(open(f"{folder}/timeseries.csv")) if r["rank"] == "0"]
        assert rows, f"{folder}/timeseries.csv has no rows"
        drawn = sets[i]["data"]
        assert len(drawn) == len(rows), (chart, len(drawn), len(rows))
        for p, r in zip(drawn, rows):
            assert close(p["x"], float(r["elapsed_s"]), 1e-4), (chart, p, r["elapsed_s"])
            assert close(p["y"], float(r[column]) * scale, 1e-4), (chart, p, r[column])
    if chart == "stage-train":  # the training's images/s on the same time axis
        rows = [r for r in csv.DictReader(open(f"{folders[0]}/timeseries.csv")) if r["rank"] == "0"]
        images = sets[-1]["data"]
        assert [round(p["y"], 2) for p in images] == \
            [round(float(r["samples_per_second"]), 2) for r in rows], chart
        phases = {r["phase"] for r in rows}
        assert {"stage", "train"} <= phases, phases
print(f"dom ok: {kind}, {len(page.canvases)} charts, {len(page.figures)} figures, "
      f"{len(folders)} result(s)")
