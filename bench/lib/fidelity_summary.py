"""The fidelity study's results (bench/fidelity.sh): from the points it measured
(WORK/points/rows.jsonl, one JSON object a storage speed) the table as CSV and markdown
(WORK/fidelity.csv, WORK/fidelity.md) and a results folder of kind "fidelity"
(WORK/report/fidelity-<started>/summary.json) that `trainbench report` draws: images/s and
the stall share of each path (real, emulated, emulated*, predicted) against the storage's
speed, and each path's error against the real training.

Usage: fidelity_summary.py WORK STUDY_JSON partial|complete
STUDY_JSON: the study's settings and calibration (see bench/fidelity.sh: shape, compute_s,
preprocess_s, preprocess_stdev_s, demand_MB_per_second, mean_file_bytes, calibration,
trainbench, started, bound_percent, drift_bound_percent, config).
The bench calls it after each point ("partial": the results are marked incomplete, so a
study stopped midway keeps the points it measured) and once at the end ("complete"). Every
file is replaced whole (written aside, renamed).
Drift: a round whose calibrated compute and real compute per step are apart by more than
drift_bound_percent has drifted (rows.jsonl: each round's drift_percent and drifted; the tries
the bench set aside and ran again in "retried"); the calibrated emulation of a point is
judged over the rounds that held, and a point with none is not judged (its emulated error is
shown, but left out of the worst errors and the bound).
"""
import csv
import datetime
import json
import math
import os
import statistics
import subprocess
import sys

PATHS = ["real", "emulated", "emulated*", "predicted", "predicted*"]
# The rows.jsonl keys of each path's images/s and stall share.
KEYS = {"real": ("real_images_per_second", "real_stall_percent"),
        "emulated": ("emulated_samples_per_second", "emulated_stall_percent"),
        "emulated*": ("emulated_real_samples_per_second", "emulated_real_stall_percent"),
        "predicted": ("predicted_images_per_second", "predicted_stall_percent"),
        "predicted*": ("predicted_real_images_per_second", "predicted_real_stall_percent")}
# Each path but real: the prefix of its rows.jsonl and fidelity.csv keys.
PREFIXES = {"emulated": "emulated", "emulated*": "emulated_real", "predicted": "predicted",
            "predicted*": "predicted_real"}
COLUMNS = ["speed", "cap_MB_per_second", "storage_MB_per_second", "real_images_per_second",
           "real_stall_percent", "emulated_samples_per_second", "emulated_stall_percent",
           "emulated_error_percent", "emulated_stall_error_points",
           "emulated_real_samples_per_second", "emulated_real_stall_percent",
           "emulated_real_error_percent", "emulated_real_stall_error_points",
           "predicted_images_per_second", "predicted_stall_percent", "predicted_error_percent",
           "predicted_stall_error_points", "predicted_real_images_per_second",
           "predicted_real_stall_percent", "predicted_real_error_percent",
           "predicted_real_stall_error_points", "calibrated_compute_ms", "real_compute_ms",
           "calibration_drift_percent", "tries", "retried_rounds", "drifted_rounds", "judged",
           "real_spread_percent", "real_stall_spread_points", "load_before", "load_after"]


def error_percent(a, b):
    return 100 * (a - b) / b if b else float("nan")


def label(r):
    if r["speed"] == "local":
        return "local folder"
    if r["speed"] == "s3":
        return "S3, uncapped"
    return f"S3 at {float(r['speed']):g} x demand ({r['cap_MB_per_second']:.2f} MB/s)"


# The paths measured in every round (bench/fidelity.sh REPEAT), beside that round's training.
PER_ROUND = ("emulated", "emulated*")


def with_errors(r):
    """Each path's error against the real training. With several rounds, an emulation's error
    is the median of its rounds' errors, each against the training of its own round (the
    calibration just before it, the emulation just after): a pair shares the host's speed of
    the moment, which on a shared VM moves a compute-bound training by 10-25% from one
    10 s run to the next. The real training's own spread over the rounds is kept beside it:
    no emulation can be judged closer than the training agrees with itself.
    The calibrated emulation's errors are over the rounds that held (drift within the bound)
    where one did; emulated* does not take the calibration, so every round counts for it."""
    rounds = r.get("rounds") or []
    held = [x for x in rounds if not x.get("drifted", False)]
    r.setdefault("judged", True)  # rows written before drift was judged
    r.setdefault("drifted_rounds", len(rounds) - len(held))
    r.setdefault("calibration_drift_percent", float("nan"))
    r["retried_rounds"] = len(r.get("retried", []))
    r.setdefault("tries", (len(rounds) or 1) + r["retried_rounds"])
    for path, prefix in PREFIXES.items():
        rate, stall = KEYS[path]
        used = (held or rounds) if path == "emulated" else rounds
        if len(rounds) > 1 and path in PER_ROUND:
            r[f"{prefix}_error_percent"] = statistics.median(
                error_percent(x[rate], x["real_images_per_second"]) for x in used)
            r[f"{prefix}_stall_error_points"] = statistics.median(
                x[stall] - x["real_stall_percent"] for x in used)
        else:
            r[f"{prefix}_error_percent"] = error_percent(r[rate], r["real_images_per_second"])
            r[f"{prefix}_stall_error_points"] = r[stall] - r["real_stall_percent"]
    rates = [x["real_images_per_second"] for x in rounds]
    stalls = [x["real_stall_percent"] for x in rounds]
    r["real_spread_percent"] = (100 * (max(rates) - min(rates)) / statistics.median(rates)
                                if len(rounds) > 1 else float("nan"))
    r["real_stall_spread_points"] = max(stalls) - min(stalls) if len(rounds) > 1 else float("nan")
    r.setdefault("storage_MB_per_second", float("nan"))
    return r


def write_atomically(path, text):
    tmp = f"{path}.partial"
    with open(tmp, "w") as f:
        f.write(text)
    os.replace(tmp, path)


def write_table(work, rows, study):
    with open(f"{work}/fidelity.csv.partial", "w", newline="") as f:
        out = csv.writer(f)
        out.writerow(COLUMNS)
        for r in rows:
            out.writerow([r[c] if isinstance(r[c], str) else str(int(r[c]))
                          if isinstance(r[c], (bool, int)) else f"{r[c]:.3f}" for c in COLUMNS])
    os.replace(f"{work}/fidelity.csv.partial", f"{work}/fidelity.csv")
    now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    repeated = study["config"].get("repeat", 1) > 1
    bound = study.get("drift_bound_percent")
    again = ("again before each round at each point: its column"
             if study["config"].get("calibrate_each", 1) else
             "the same figure for every round at every point")
    md = [f"Measured {now}; {study['shape']}; computation_time {study['compute_s']:.4f} s "
          f"({study['calibration']}; {again}), "
          f"reader.preprocess_time {study['preprocess_s'] * 1e3:.3f} ms (stdev "
          f"{study['preprocess_stdev_s'] * 1e3:.3f} ms), mean file "
          f"{study['mean_file_bytes'] / 1e3:.1f} KB, demand {study['demand_MB_per_second']:.2f} MB/s.",
          "",
          *([f"Each figure but storage MB/s and predicted is the median of "
             f"{study['config']['repeat']} rounds of calibration, training and emulation, one "
             "after another at each point; the errors of emulated and emulated* are the medians "
             "of their rounds' errors, each against its own round's training; the real "
             "training's spread is max - min over its rounds (img/s in % of the median, stall "
             "in points).", ""] if repeated else []),
          *([f"Drift: each round's real compute per step against its calibration, in %; over "
             f"{bound:g} % the round drifted (the host's speed moved between the two timings) "
             "and was set aside and run again while the point had retries left (tries: every "
             "calibration and training run at the point); the emulated column is over the "
             "rounds that held, and a point where none held is not judged (its figure shown, "
             "its error not counted).", ""]
            if bound is not None else []),
          "img/s and stall % (the share of the time the step waited for data; emulated: 100 - AU) "
          "with the error against real (img/s in %, stall in points); emulated* takes the real "
          "run's own compute per step as its computation_time, predicted* the real run's "
          "results as replay's --train-results; storage MB/s is what `run` read at the "
          "loader's reads in flight with no compute.",
          "",
          "| storage | storage MB/s | real | emulated | emulated* | predicted | predicted* | "
          "compute ms/step: calibrated, real |" +
          (" drift: median %, rounds drifted, tries |" if bound is not None else "") +
          (" real's spread |" if repeated else "") + " load (1 min, before/after) |",
          "|---|---|---|---|---|---|---|---|" + ("---|" if bound is not None else "") +
          ("---|" if repeated else "") + "---|"]

    def cell(rate, stall, e=None, p=None):
        return f"{rate:.1f}, {stall:.1f} %" + ("" if e is None else f" ({e:+.1f} %, {p:+.1f})")

    for r in rows:
        cells = [cell(r["real_images_per_second"], r["real_stall_percent"])]
        for path, prefix in PREFIXES.items():
            rate, stall = KEYS[path]
            cells.append(cell(r[rate], r[stall], r[f"{prefix}_error_percent"],
                              r[f"{prefix}_stall_error_points"]))
            if path == "emulated" and not r["judged"]:  # every round's drift, each over the bound
                cells[-1] += " not judged: host drift " + ", ".join(
                    f"{x['drift_percent']:+.1f} %" for x in r["rounds"])
        md.append(f"| {label(r)} | {r['storage_MB_per_second']:.2f} | " + " | ".join(cells) +
                  f" | {r['calibrated_compute_ms']:.0f}, {r['real_compute_ms']:.0f} | " +
                  (f"{r['calibration_drift_percent']:+.1f} %, {r['drifted_rounds']} of "
                   f"{len(r['rounds'])}, {r['tries']} | " if bound is not None else "") +
                  (f"{r['real_spread_percent']:.1f} %, {r['real_stall_spread_points']:.1f} | "
                   if repeated else "") +
                  f"{r['load_before']:.2f} / {r['load_after']:.2f} |")
    write_atomically(f"{work}/fidelity.md", "\n".join(md) + "\n")
    return md


def finite_or_none(x):
    return None if x is None or (isinstance(x, float) and math.isnan(x)) else x


def summary_of(rows, study, complete):
    points, worst = [], {}
    for r in rows:
        point = {"storage": label(r), "speed": r["speed"],
                 "cap_MB_per_second": r["cap_MB_per_second"] or None,
                 "storage_MB_per_second": finite_or_none(r["storage_MB_per_second"]),
                 "times_demand": finite_or_none(r["storage_MB_per_second"] /
                                                study["demand_MB_per_second"]),
                 "calibrated_compute_ms": r["calibrated_compute_ms"],
                 "repeat": r.get("repeat", 1),
                 # The calibrated emulation is judged where a round's calibration held.
                 "judged": r["judged"], "drifted_rounds": r["drifted_rounds"],
                 "tries": r["tries"], "retried_rounds": r["retried_rounds"],
                 "calibration_drift_percent": finite_or_none(r["calibration_drift_percent"]),
                 "rounds_drift_percent": [x["drift_percent"] for x in r.get("rounds", [])
                                          if "drift_percent" in x],
                 "real_spread_percent": finite_or_none(r["real_spread_percent"]),
                 "real_stall_spread_points": finite_or_none(r["real_stall_spread_points"]),
                 "load_before": r["load_before"], "load_after": r["load_after"], "paths": {}}
        for path in PATHS:
            rate, stall = KEYS[path]
            p = {"images_per_second": r[rate], "stall_percent": r[stall]}
            prefix = PREFIXES.get(path)
            if path == "emulated":
                p["judged"] = r["judged"]
            if prefix:
                p["error_percent"] = r[f"{prefix}_error_percent"]
                p["stall_error_points"] = r[f"{prefix}_stall_error_points"]
                w = worst.setdefault(path, {"error_percent": 0.0, "stall_error_points": 0.0})
                if path == "emulated":
                    w["points_judged"] = w.get("points_judged", 0) + bool(r["judged"])
                # A point not judged (its calibration missed the real compute): no error to count.
                if path != "emulated" or r["judged"]:
                    w["error_percent"] = max(w["error_percent"], abs(p["error_percent"]))
                    w["stall_error_points"] = max(w["stall_error_points"],
                                                  abs(p["stall_error_points"]))
            p["results"] = r.get(f"{prefix or 'real'}_results", "")
            point["paths"][path] = p
        point["paths"]["real"]["compute_ms"] = r["real_compute_ms"]
        points.append(point)
    bound = study["bound_percent"]
    # Judged over the points whose calibration held; null where none did (host drift).
    judged = sum(1 for p in points if p["judged"])
    within = None if not judged else worst["emulated"]["error_percent"] <= bound and \
        worst["emulated"]["stall_error_points"] <= bound
    now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y%m%dT%H%M%SZ")
    total = len(study["config"]["speeds"].split())
    version = subprocess.run([study["trainbench"], "--version"], capture_output=True,
                             text=True).stdout.split()[-1]
    return {
        "kind": "fidelity", "workload": "fidelity: " + study["shape"],
        "started": study["started"], "finished": now, "complete": complete,
        "stop_reason": "" if complete else
        f"{len(points)} of {total} storage speed{'' if total == 1 else 's'} measured when "
        "these results were written: the study did not end (stopped or killed?)",
        "host_names": [os.uname().nodename], "version": version, "config": study["config"],
        "points_total": total, "points_done": len(points),
        "demand_MB_per_second": study["demand_MB_per_second"],
        "computation_time_s": study["compute_s"], "calibration": study["calibration"],
        "preprocess_time_ms": study["preprocess_s"] * 1e3,
        "preprocess_time_stdev_ms": study["preprocess_stdev_s"] * 1e3,
        "mean_file_bytes": study["mean_file_bytes"], "bound_percent": bound,
        "drift_bound_percent": study.get("drift_bound_percent"),
        "points_not_judged": len(points) - judged,
        "emulated_within_bound": within, "paths": PATHS, "worst": worst, "points": points}


def main():
    work, study_json, state = sys.argv[1:]
    study = json.loads(study_json)
    rows = [with_errors(json.loads(line)) for line in open(f"{work}/points/rows.jsonl")]
    print("\n".join(write_table(work, rows, study)))
    summary = summary_of(rows, study, state == "complete")
    folder = f"{work}/report/fidelity-{study['started']}"
    os.makedirs(folder, exist_ok=True)
    write_atomically(f"{folder}/summary.json", json.dumps(summary, indent=1) + "\n")
    print(folder)


main()
