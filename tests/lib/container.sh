# shellcheck shell=bash disable=SC2034  # its variables are for the tests that source it
# Part of the test library (sourced by common.sh): the container suite's helpers (container/).
# The image is built once for the suite by tests/container/image.sh (the
# container.image_build fixture) into a podman storage of the suite's own; its env file gives
# podman the suite's settings (CONTAINERS_CONF, CONTAINERS_STORAGE_CONF) and the image's name.
#
#   container_use_image            # loads $CONTAINER_DIR/env; skip_unless there is one
#   container_run OUT ERR ARGS...  # podman run --rm ARGS... (stdout to OUT, stderr to ERR),
#                                  # bounded by CONTAINER_RUN_SECONDS (300); returns its status
#   container_shell 'COMMAND'      # sh -c COMMAND in the image (for what the image holds)

# container_use_image: the suite's image, or the skip rule when container.image_build did not
# make one.
container_use_image() {
  if [ -n "${CONTAINER_DIR:-}" ] && [ -f "$CONTAINER_DIR/env" ]; then
    # shellcheck disable=SC1091
    source "$CONTAINER_DIR/env"
  fi
  skip_unless '[ -n "${CONTAINER_IMAGE:-}" ]' \
    "no container image (CONTAINER_DIR='${CONTAINER_DIR:-}' has no env file: container.image_build failed or skipped)"
}

# container_run OUT ERR ARGS...: `podman run --rm ARGS...`, killed (with its container: podman
# passes the signal on) after CONTAINER_RUN_SECONDS.
container_run() {
  local out=$1 err=$2
  shift 2
  timeout -k 10 "${CONTAINER_RUN_SECONDS:-300}" podman run --rm "$@" >"$out" 2>"$err"
}

# container_shell COMMAND: COMMAND run by the image's /bin/sh (not trainbench); prints stdout.
container_shell() {
  timeout -k 10 120 podman run --rm --entrypoint /bin/sh "$CONTAINER_IMAGE" -c "$1"
}
