# Sourced by the interop tests that read with tests/interop/node's packages (hyparquet):
# sets node_dir, and skips the test (exit 77; fails under CI) without node or the packages.
node_dir="$SRC/tests/interop/node"
if ! command -v node >/dev/null || [ ! -d "$node_dir/node_modules/hyparquet-compressors" ]; then
  why="node and tests/interop/node's packages are needed (scripts/setup.sh runs npm ci there)"
  [ "${CI:-}" = true ] && fail "$why"
  echo "skip: $why"
  exit 77
fi
