# shellcheck shell=bash
# Part of the test library, for the fixture scripts that start daemons for a suite
# (s3/gateway.sh, slurm/cluster.sh, container/image.sh): their state folder, telling their own processes from a recycled pid, and
# stopping them. The caller sets DIR (its state folder, which every daemon's command line
# names) and defines log MESSAGE.

# daemon_state_dir NAME ARG: sets DIR to ARG made absolute, without a trailing slash; refuses
# (exit 2, naming NAME) an empty DIR or /, which a stop would clear.
daemon_state_dir() {
  case $2 in
    /*) DIR=$2 ;;
    *) DIR=$PWD/$2 ;;
  esac
  DIR=${DIR%/}
  if [ -z "$DIR" ] || [ "$DIR" = / ]; then
    echo "$1: refusing DIR '$2'" >&2
    exit 2
  fi
}

# daemon_is_ours PID: the process runs and its command line names DIR.
daemon_is_ours() {
  local pid=$1
  [ -n "$pid" ] && [ -r "/proc/$pid/cmdline" ] || return 1
  tr '\0' ' ' 2>/dev/null <"/proc/$pid/cmdline" | grep -qF -- "$DIR/"
}

# daemon_stop PID [GRACE_S]: SIGTERM, at most GRACE_S (default 5) s, then SIGKILL and at
# most 5 s more. Returns 1 when it still runs.
daemon_stop() {
  local pid=$1 grace=${2:-5}
  daemon_is_ours "$pid" || return 0
  kill -TERM "$pid" 2>/dev/null || true
  for _ in $(seq $((grace * 10))); do
    daemon_is_ours "$pid" || return 0
    sleep 0.1
  done
  log "pid $pid still runs $grace s after SIGTERM: SIGKILL"
  kill -KILL "$pid" 2>/dev/null || true
  for _ in $(seq 50); do
    daemon_is_ours "$pid" || return 0
    sleep 0.1
  done
  log "could not kill pid $pid"
  return 1
}
