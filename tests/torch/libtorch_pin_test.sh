#!/usr/bin/env bash
# The plugin's LibTorch is PyPI's torch in .venv at the version requirements.txt pins (the one
# place it is pinned): the libtorch_cpu.so the dynamic loader gives libtrainbench_train.so is
# the wheel's, no Debian LibTorch is loaded, and `train` runs with it. Registered only in builds
# with LibTorch (tests/CMakeLists.txt); a build against a GPU host's own PyTorch skips (CI fails).
source "$(dirname "$0")/../lib/common.sh"
plugin=$(dirname "$TRAINBENCH")/libtrainbench_train.so
[ -f "$plugin" ] || fail "no plugin at $plugin"
ldd "$plugin" >"$WORK/ldd" || fail "ldd $plugin"
grep -q 'not found' "$WORK/ldd" && { cat "$WORK/ldd"; fail "the plugin misses a library"; }
torch_cpu=$(awk '$1 == "libtorch_cpu.so" {print $3}' "$WORK/ldd")
[ -n "$torch_cpu" ] || { cat "$WORK/ldd"; fail "the plugin does not link libtorch_cpu.so"; }
grep -E '/usr/lib/.*libtorch' "$WORK/ldd" && fail "a Debian LibTorch is loaded"
venv=$(cd "$SRC/.venv" 2>/dev/null && pwd -P || true)
case $(readlink -f "$torch_cpu") in
  "$venv"/*) ;;
  *) skip_unless false "the plugin's LibTorch is $torch_cpu, not .venv's (a GPU host's PyTorch)" ;;
esac
# torch/lib/libtorch_cpu.so -> torch/version.py: the wheel's version, without its +cu130 tag.
version=$(sed -n "s/^__version__ = '\([^'+]*\).*/\1/p" "$(dirname "$torch_cpu")/../version.py")
pinned=$(sed -n 's/^torch==\([^ ]*\).*/\1/p' "$SRC/requirements.txt")
[ -n "$pinned" ] || fail "requirements.txt pins no torch"
[ "$version" = "$pinned" ] || fail "the plugin's LibTorch is $version, requirements.txt pins $pinned"
"$TRAINBENCH" train "${TRAIN_TINY[@]}" --steps-per-epoch 1 >"$WORK/out" 2>&1 ||
  { cat "$WORK/out"; fail "train with PyPI's LibTorch"; }
grep -q radix_metrics "$WORK/out" || { cat "$WORK/out"; fail "no JSON line"; }
echo "libtorch_pin: ok ($torch_cpu, torch $version as pinned)"
