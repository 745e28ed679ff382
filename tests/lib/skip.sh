# shellcheck shell=bash
# Part of the test library (sourced by common.sh, and alone by the fixture scripts
# s3/gateway.sh and stage/servers.sh): the skip rule. What cannot run here exits 77 (CTest's
# skip) with "SKIP: why"; under CI=true it fails (exit 1) with that reason instead, so in CI
# every suite runs or fails. The one exception, skipped under CI as well (the CI box has no
# GPU), is a test that needs a GPU or needs to be without one: skip_unless_gpu, skip_if_gpu.

# skip_unless CONDITION WHY: CONDITION is a shell command line, evaluated.
skip_unless() {
  eval "$1" >/dev/null 2>&1 && return 0
  if [ "${CI:-}" = true ]; then
    echo "FAIL: cannot run: $2 (CI=true: what cannot run fails, never skips)" >&2
    exit 1
  fi
  echo "SKIP: $2"
  exit 77
}

# has_gpu: nvidia-smi lists a GPU.
has_gpu() { command -v nvidia-smi >/dev/null && nvidia-smi -L >/dev/null 2>&1; }
# skip_unless_gpu WHY / skip_if_gpu WHY: the GPU exception: exit 77 under CI as well.
skip_unless_gpu() {
  has_gpu && return 0
  echo "SKIP (no GPU, also under CI): $1"
  exit 77
}
skip_if_gpu() {
  has_gpu || return 0
  echo "SKIP (a GPU is here, also under CI): $1"
  exit 77
}

# skip_unless_pypi MODULE...: the project's PyPI environment ($PYPI_PY, scripts/setup_python.sh)
# imports every MODULE.
skip_unless_pypi() {
  local m
  for m in "$@"; do
    skip_unless "'$PYPI_PY' -c 'import $m'" \
      "$m from PyPI is not in $PYPI_PY: run bash scripts/setup_python.sh (requirements.txt)"
  done
}
