#!/usr/bin/env bash
# Replaying a real training's data loading against slow storage: `train --op-log` reads a
# folder of JPEGs; its images are put in a bucket; the op-log is replayed against the bucket
# through a proxy that delays every request 500 ms, one read in flight, with --train-results:
# the replay says what that training's steps would lose to I/O there, simulating the
# training's loader (2 workers, one read in flight each, 4 batches ahead) over the replayed
# GETs. The figures hold together (the means beside it: a batch's loading = batch / the
# replayed rate, their step = max(compute, loading); the prediction's lost = predicted -
# compute, images/s = batch / predicted step), the rate is what one read in flight at 500 ms
# allows (2 images/s), and the first step waits for a whole batch of 4 such GETs (2 s): the
# training has no warm-up step, so that wait is in its timed steps and the loss is over 0
# however slow the tiny model's compute runs on a loaded box (3.3 s a step seen, over the
# 2 s a batch that the means compare it with). Against a local copy next to nothing is lost.
source "$(dirname "$0")/../lib/common.sh"
skip_unless train_has_libtorch "trainbench built without LibTorch"
skip_unless "python_has PIL numpy" "$PY with Pillow and numpy (scripts/setup.sh installs them)"
s3_use_gateway
s3_new_bucket trainreplay
at_exit "s3_remove_bucket $bucket"
cd "$WORK"
train_make_jpegs jpg
tiny=("${TRAIN_TINY[@]}")
[ "${tiny[-2]}" = --warmup-steps ] || fail "TRAIN_TINY no longer ends with --warmup-steps N"
tiny[-1]=0
expect_exit 0 train.out "$TB" train "${tiny[@]}" --allow-cpu --steps-per-epoch 3 --workers 2 \
  --data "$WORK/jpg" --op-log "$WORK/train.tsv.zst" --output "$WORK/res"
train_results=$(json_last_line train.out 'd["trainbench"]["results"]')
for f in jpg/n0*/*.JPEG; do
  check "put $f" [ "$(s3_status PUT "/$bucket/imgs/${f#jpg/}" "$WORK/body" -T "$f")" = 200 ]
done

# estimate_ok SUMMARY WANT_LOSS: the training figures of a replay's summary hold together.
estimate_ok() {
  "$PY" - "$1" "$2" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
t = s["training"]
(get,) = s["ops"]
rate = get["replayed"]["count"] / s["seconds"]
print(t)
assert t["model"] == "pipeline", t
assert t["batch_size"] == 4 and t["workers"] == 2 and t["io_depth"] == 1, t
assert t["prefetch_batches"] == 4, t  # train's loader: 2 per worker
# Every GET replayed is simulated: 3 batches, one a timed step.
assert t["simulated_gets"] == get["replayed"]["count"] == 12, (t, get)
assert t["simulated_batches"] == 3 and t["simulated_timed_steps"] == 3, t
assert abs(t["images_per_second_per_process"] - rate) <= 1e-6 * rate, (t, rate)
assert abs(t["load_s_per_batch"] - 4 / rate) <= 1e-6 * t["load_s_per_batch"], t
assert abs(t["compute_s_per_step"] + t["data_wait_s_per_step"] - t["step_s"]) < 1e-9, t
assert t["mean_model_step_s"] == max(t["compute_s_per_step"], t["load_s_per_batch"]), t
assert t["predicted_step_s"] >= t["compute_s_per_step"], t
assert abs(t["io_lost_s_per_step"] - (t["predicted_step_s"] - t["compute_s_per_step"])) < 1e-9, t
assert abs(t["io_lost_share"] - t["io_lost_s_per_step"] / t["predicted_step_s"]) < 1e-9, t
want_rate = 4 / t["predicted_step_s"]
assert abs(t["predicted_images_per_second_per_process"] - want_rate) <= 1e-6 * want_rate, t
if sys.argv[2] == "lost":
    # One read in flight, each held 500 ms by the proxy: at most 2 images/s, and a worker's
    # first batch takes 4 of them.
    assert rate <= 2.05 and t["first_batch_wait_s"] >= 4 * 0.5 - 0.01, (rate, t)
    # The first step's wait alone, over the 3 steps.
    assert t["io_lost_s_per_step"] >= t["first_batch_wait_s"] / 3 - 1e-9, t
else:
    # Local reads of a few KB: a loss far under one slow GET's 500 ms.
    assert t["first_batch_wait_s"] < 0.5 and t["io_lost_s_per_step"] < 0.1, t
PY
}

check "proxy" fault_proxy_start "${S3_TEST_ENDPOINT#http://}" "$WORK/proxy.json" --delay 1 --delay-ms 500
expect_exit 0 slow.out "$TB" replay train.tsv.zst --target "s3://$bucket/imgs" --no-progress --concurrency 1 \
  --s3-option "endpoint_url=$FAULT_PROXY_ENDPOINT" --s3-option s3_force_path_style=true \
  --train-results "$train_results" --output "$WORK/replays"
fault_proxy_stop
cat slow.out
contains slow.out "lost to I/O"
contains slow.out "its loader simulated over the 12 replayed GETs (2 worker(s) x 1 read(s) in flight, 4 batches ahead"
contains slow.out "the training's loader had 2 worker(s) x 1 read(s) in flight and this replay 1: give --concurrency 2"
check "through the slow proxy the steps lose time to I/O" estimate_ok \
  "$(json_last_line slow.out 'd["trainbench"]["results"]')/summary.json" lost
check "the final line carries the loss" [ "$(json_last_line slow.out 'd["trainbench_replay"]["io_lost_s_per_step"] > 0')" = True ]

cp -r jpg copy
expect_exit 0 local.out "$TB" replay train.tsv.zst --target "$WORK/copy" --no-progress \
  --train-results "$train_results/summary.json" --output "$WORK/replays"
check "against a local copy nothing is lost" estimate_ok \
  "$(json_last_line local.out 'd["trainbench"]["results"]')/summary.json" none

# Refused before any work: a folder that is no training's results, and a timed replay.
expect_exit 2 bad.out "$TB" replay train.tsv.zst --target "$WORK/copy" --train-results "$WORK/jpg"
contains bad.out "--train-results"
expect_exit 2 timed.out "$TB" replay train.tsv.zst --target "$WORK/copy" --mode timed \
  --train-results "$train_results"
contains timed.out "--mode parallel"
done_ok
