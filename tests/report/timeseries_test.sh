#!/usr/bin/env bash
# `run` writes timeseries.csv: one row per --interval with samples/s, MB/s, reads, reads in
# flight, data wait, read latency p50/p99, CPU and memory; the rows add up to the run's
# totals in summary.json, and summary.json carries the read-latency histogram's buckets.
source "$(dirname "$0")/../lib/common.sh"
cd "$WORK"
make_tiny_dataset
quick_run a
dir=$WORK/runs/a
[ -s "$dir/timeseries.csv" ] || fail "no timeseries.csv in $dir"
$PY - "$dir" <<'PY' || fail "timeseries.csv does not match summary.json"
import csv, json, sys
d = sys.argv[1]
s = json.load(open(f"{d}/summary.json"))
rows = list(csv.DictReader(open(f"{d}/timeseries.csv")))
cols = ["rank", "elapsed_s", "interval_s", "phase", "epoch", "samples_per_second",
        "io_MB_per_second", "reads", "reads_in_flight", "data_wait_share", "accelerators_waiting",
        "read_latency_p50_ms", "read_latency_p99_ms", "cpu_percent", "rss_bytes"]
assert list(rows[0].keys()) == cols, list(rows[0].keys())
assert len(rows) >= 5, len(rows)
assert {r["rank"] for r in rows} == {"0"}
f = lambda r, k: float(r[k])
t = [f(r, "elapsed_s") for r in rows]
assert all(b > a for a, b in zip(t, t[1:])), t
for k, r in enumerate(rows[:-1]):  # rows end at 0.2, 0.4, ... (a loaded box wakes late)
    assert abs(f(r, "elapsed_s") - 0.2 * (k + 1)) < 0.5, (k, r)
assert abs(sum(f(r, "interval_s") for r in rows) - t[-1]) < 1e-3
assert abs(t[-1] - s["run_seconds"]) < 0.3, (t[-1], s["run_seconds"])
samples = sum(f(r, "samples_per_second") * f(r, "interval_s") for r in rows)
want = sum(p["samples"] for p in s["phases"])
assert abs(samples - want) <= 0.01 * want + 1, (samples, want)
mb = sum(f(r, "io_MB_per_second") * f(r, "interval_s") for r in rows) * 1e6
assert abs(mb - s["cache"]["bytes_read"]) <= 0.01 * s["cache"]["bytes_read"], (mb, s["cache"])
reads = sum(int(r["reads"]) for r in rows)
assert reads == s["io_characterization"]["POSIX_READS"] == s["read_latency_ms"]["count"], reads
assert {r["phase"] for r in rows} >= {"train"}, {r["phase"] for r in rows}
assert {r["epoch"] for r in rows if r["phase"] == "train"} == {"1", "2"}
lat = s["read_latency_ms"]
for r in rows:
    assert 0 <= f(r, "data_wait_share") <= 1, r
    assert abs(f(r, "accelerators_waiting") - 4 * f(r, "data_wait_share")) < 0.01, r
    assert int(r["rss_bytes"]) > 0, r
    if int(r["reads"]) > 0:
        p50, p99 = f(r, "read_latency_p50_ms"), f(r, "read_latency_p99_ms")
        assert 0 < p50 <= p99 <= lat["max"] * 1.02 + 1e-3, (r, lat)
    else:
        assert f(r, "read_latency_p99_ms") == 0, r
assert max(f(r, "cpu_percent") for r in rows) > 0
# The run's wait in accelerator-seconds, summed over rows, is the phases' data_wait_s (the
# rows also count the wait that is still going on at each interval's end).
wait = sum(f(r, "accelerators_waiting") * f(r, "interval_s") for r in rows)
want = sum(p["data_wait_s"] for p in s["phases"])
assert abs(wait - want) <= 0.05 * want + 0.02, (wait, want)
h = s["read_latency_histogram"]
assert h["unit"] == "ms" and sum(h["counts"]) == h["count"] == lat["count"], h["count"]
assert all(lo < hi for lo, hi in zip(h["low_ms"], h["high_ms"]))
assert all(a < b for a, b in zip(h["low_ms"], h["low_ms"][1:]))
assert h["low_ms"][0] <= lat["p50"] <= h["high_ms"][-1]
assert s["timeseries_interval_s"] == 0.2
# The sampler's own CPU was measured: some, and less than the whole run's.
assert 0 < s["timeseries_cpu_seconds"] < s["cpu_seconds"], s["timeseries_cpu_seconds"]
assert abs(s["timeseries_cpu_share"] - s["timeseries_cpu_seconds"] / s["cpu_seconds"]) < 1e-9
print(len(rows), "rows")
PY
checks=$((checks + 1))

# --interval 0: no time series; a finer interval than 0.05 s is refused before the run.
"$TB" run resnet50_h100 "${TINY[@]}" train.computation_time=0 train.epochs=1 --interval 0 \
  --no-progress >/dev/null 2>&1 || fail "run --interval 0"
[ ! -e "$(results_dir)/timeseries.csv" ] || fail "--interval 0 wrote timeseries.csv"
grep -q '"timeseries_interval_s": 0' "$(results_dir)/summary.json" || fail "interval 0 in summary"
expect_exit 2 bad.txt "$TB" run resnet50_h100 "${TINY[@]}" --interval 0.01
contains bad.txt "--interval 0.01"
expect_exit 2 bad2.txt "$TB" run resnet50_h100 "${TINY[@]}" --interval -1
done_ok
