# shellcheck shell=bash disable=SC2034  # its variables are for the tests that source it
# Part of the test library (sourced by common.sh): the stage tests (stage/, torch/). The
# servers (stage/servers.sh) are the suite's, started once by the stage.servers_start fixture
# (STAGE_SERVERS_DIR); a test run by hand without them starts its own under $WORK and stops
# them on exit.
#
#   stage_use_servers                       # loads the servers' env (STAGE_ORIGIN, ... servers.sh)
#   mark=$(stage_log_mark)                  # the origin's access log position now
#   stage_origin_bytes_since MARK /big.bin  # body bytes the origin sent for that path since MARK
#   fault_proxy_start "127.0.0.1:${STAGE_ORIGIN##*:}" STATS ARGS...  # (common.sh)
#   stage_check_account OUT SECONDS         # the time account in OUT's last line adds up, and
#                                           # its wall time is within the SECONDS the command took
#   stage_summary_of OUT                    # the summary.json the stage in OUT wrote

# stage_use_servers: the suite's servers (skip rule when its fixture failed or skipped), or
# this test's own when run by hand (STAGE_SERVERS_DIR unset).
stage_use_servers() {
  if [ -n "${STAGE_SERVERS_DIR:-}" ] && [ -s "$STAGE_SERVERS_DIR/env" ]; then
    # shellcheck disable=SC1091
    source "$STAGE_SERVERS_DIR/env"
    return
  fi
  skip_unless '[ -z "${STAGE_SERVERS_DIR:-}" ]' \
    "no stage servers under ${STAGE_SERVERS_DIR:-} (stage.servers_start failed or skipped)"
  local own=$WORK/servers code=0
  at_exit "bash '$SRC/tests/stage/servers.sh' stop '$own'"
  bash "$SRC/tests/stage/servers.sh" start "$own" || code=$?
  skip_unless "[ $code != 77 ]" "nginx or squid missing (scripts/setup.sh installs them)"
  [ "$code" -eq 0 ] || fail "tests/stage/servers.sh start $own failed ($code)"
  # shellcheck disable=SC1091
  source "$own/env"
}

# stage_log_mark: the origin access log's line count now.
stage_log_mark() { wc -l <"$STAGE_ACCESS_LOG"; }

# stage_origin_bytes_since MARK PATH: bytes nginx's origin port sent for PATH since line MARK.
stage_origin_bytes_since() {
  local port=${STAGE_ORIGIN##*:}
  awk -v mark="$1" -v port="$port" -v path="$2" \
    'NR > mark && $1 == port && index($3, path) == 1 { sum += $6 } END { printf "%.0f\n", sum }' \
    "$STAGE_ACCESS_LOG"
}

# stage_summary_of OUT: the summary.json of the results folder OUT names ("results: DIR").
stage_summary_of() {
  local folder
  folder=$(sed -n 's/^results: //p' "$1" | tail -n 1)
  [ -n "$folder" ] || fail "no results folder named in $1"
  echo "$folder/summary.json"
}

# stage_check_account OUT SECONDS: the shares on OUT's last line add up to wall_s within 2%, and
# wall_s is no more than the SECONDS the command took (and most of them).
stage_check_account() {
  local out=$1 seconds=$2
  "$PY" - "$out" "$seconds" <<'PY' || fail "time account of $out"
import json, sys
line = json.loads(open(sys.argv[1]).read().splitlines()[-1])["trainbench_stage"]
seconds = float(sys.argv[2])
parts = line["transfer_s"] + line["retry_wasted_s"] + line["verify_s"] + line["extract_s"]
wall = line["wall_s"]
print(f"account: wall {wall:.2f} s (command {seconds:.2f} s) = transfer {line['transfer_s']:.2f} "
      f"+ wasted {line['retry_wasted_s']:.2f} + verify {line['verify_s']:.2f} "
      f"+ extract {line['extract_s']:.2f} ({parts:.2f})")
assert min(line[k] for k in ("transfer_s", "retry_wasted_s", "verify_s", "extract_s")) >= 0
assert abs(parts - wall) <= 0.02 * wall, (parts, wall)
assert wall <= seconds and wall >= 0.8 * seconds - 0.3, (wall, seconds)
PY
  checks=$((checks + 1))
}

# stage_make_class_tar TAR SRC: a tar in ImageNet's layout at TAR: class folder n01 (3 JPEGs) and
# n02.tar, a nested tar of class n02 (3 JPEGs), as the ILSVRC2012 train tar holds one tar a
# class; SRC/n01 and SRC/n02 keep the originals to compare against.
stage_make_class_tar() {
  local tar=$1 src=$2
  mkdir -p "$src/n01" "$src/n02" "$src.top"
  "$PY" - "$src" <<'PY'
import random, sys
from PIL import Image
rng = random.Random(7)
for cls in ("n01", "n02"):
    for i in range(3):
        im = Image.new("RGB", (48 + 8 * i, 40))
        im.putdata([(rng.randrange(256), rng.randrange(256), rng.randrange(256))
                    for _ in range(im.width * im.height)])
        im.save(f"{sys.argv[1]}/{cls}/{cls}_{i}.JPEG", quality=90)
PY
  cp -r "$src/n01" "$src.top/n01"
  tar -cf "$src.top/n02.tar" -C "$src/n02" .
  tar -cf "$tar" -C "$src.top" .
}

# stage_check_job_account SUMMARY SECONDS: a `train --stage-to` job's summary.json: its shares
# (transfer, retry wasted, verify, extract, compute) add up to wall_s within 2%, and wall_s
# is no more than the SECONDS the command took (and most of them).
stage_check_job_account() {
  "$PY" - "$1" "$2" <<'PY' || fail "time account of $1"
import json, sys
j = json.load(open(sys.argv[1]))
seconds = float(sys.argv[2])
keys = ("transfer_s", "retry_wasted_s", "verify_s", "extract_s", "compute_s")
parts = sum(j[k] for k in keys)
print("job account: wall %.2f s (command %.2f s) = %s" % (
    j["wall_s"], seconds, " + ".join("%s %.2f" % (k, j[k]) for k in keys)))
assert j["command"] == "train", j["command"]
assert min(j[k] for k in keys) >= 0
assert abs(parts - j["wall_s"]) <= 0.02 * j["wall_s"], (parts, j["wall_s"])
# The command's time also holds what comes before the job's clock (LibTorch's load, which a
# loaded host stretches to seconds) and after it: a floor, not a match.
assert j["wall_s"] <= seconds and j["wall_s"] >= 0.25 * seconds - 0.5, (j["wall_s"], seconds)
PY
  checks=$((checks + 1))
}

# stage_check_campaign BINARY DIR EXPR: `stage --report DIR` exits 0 and EXPR holds over its
# {"trainbench_campaign": ...} object (as `c`).
stage_check_campaign() {
  expect_exit 0 "$WORK/campaign.out" "$1" stage --report "$2"
  cat "$WORK/campaign.out"
  "$PY" -c "import json,sys; c=json.loads(open(sys.argv[1]).read().splitlines()[-1])['trainbench_campaign']; sys.exit(0 if ($3) else 1)" \
    "$WORK/campaign.out" || fail "campaign of $2: $3"
  checks=$((checks + 1))
}
