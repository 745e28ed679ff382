#!/usr/bin/env bash
# The sample `train` JSON line in docs/training.md is what the binary prints today: the same
# keys in both objects, and the defaults it claims (warmup_steps) are the binary's defaults.
# Catches a page pasted from an older build (it once showed warmup_steps 2 while the default is 5).
source "$(dirname "$0")/../lib/common.sh"
skip_unless train_has_libtorch "trainbench built without LibTorch"
grep -m1 '^{"radix_metrics"' "$SRC/docs/training.md" >"$WORK/readme.json" ||
  fail "no sample train JSON line in docs/training.md"
"$TRAINBENCH" train "${TRAIN_TINY[@]}" --steps-per-epoch 2 >"$WORK/out" 2>&1 ||
  fail "tiny train run failed: $(cat "$WORK/out")"
tail -n 1 "$WORK/out" >"$WORK/actual.json"
# "--warmup-steps INT:INT in [0, 1000000]=5": the type, its range, then the default.
default_warmup=$("$TRAINBENCH" train --help | grep -oE -- '--warmup-steps INT[^=]*=[0-9]+' |
  cut -d= -f2) || true
check "train --help shows the --warmup-steps default" test -n "$default_warmup"
$PY - "$WORK/readme.json" "$WORK/actual.json" "$default_warmup" <<'PYEOF' || fail "docs/training.md JSON"
import json, sys
readme, actual = (json.load(open(p)) for p in sys.argv[1:3])
for part in ("radix_metrics", "trainbench"):
    missing, extra = set(actual[part]) - set(readme[part]), set(readme[part]) - set(actual[part])
    assert not missing and not extra, (part, "docs/training.md lacks", missing, "docs/training.md has extra", extra)
assert readme["trainbench"]["warmup_steps"] == int(sys.argv[3]), readme["trainbench"]["warmup_steps"]
PYEOF
checks=$((checks + 1))
done_ok
