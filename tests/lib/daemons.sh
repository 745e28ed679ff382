# shellcheck shell=bash
# Part of the test library, for the fixture scripts that start daemons for a suite
# (s3/gateway.sh, cephfs/cluster.sh, slurm/cluster.sh, container/image.sh): their state folder,
# telling their own processes from a recycled pid, stopping them, and clearing the folder. The
# caller sets DIR (its state folder, which every daemon's command line names), MARKER (for
# wipe: the file a start puts in DIR to say the folder is the fixture's own) and defines log
# MESSAGE.

# fixture_args NAME COMMANDS "$@": a fixture's command line, `COMMAND DIR` with COMMAND one of
# COMMANDS ("start|stop|status"; its usage, exit 2, otherwise): sets cmd, and DIR by
# daemon_state_dir. fixture_main runs the fixture's do_$cmd.
fixture_args() {
  local name=$1
  FIXTURE_COMMANDS=$2
  shift 2
  [ $# -eq 2 ] && [[ "|$FIXTURE_COMMANDS|" == *"|$1|"* ]] || fixture_usage
  cmd=$1
  daemon_state_dir "$name" "$2"
}

fixture_usage() {
  echo "usage: $0 $FIXTURE_COMMANDS DIR" >&2
  exit 2
}

fixture_main() {
  "do_$cmd"
}

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

# wipe KEEP_LOGS: removes DIR's state (all of DIR, or with KEEP_LOGS=1 all but log/ and the
# marker, so a stopped fixture's logs stay to be read); only a DIR the fixture made (it holds
# $MARKER) or an empty one: a DIR given by mistake (a home, a build folder) is refused, exit 1.
wipe() {
  local keep_logs=$1
  [ -d "$DIR" ] || return 0
  if [ ! -e "$DIR/$MARKER" ] && [ -n "$(ls -A "$DIR")" ]; then
    log "$DIR is not empty and was not made by this fixture (no $MARKER); not touching it"
    exit 1
  fi
  if [ "$keep_logs" = 1 ]; then
    find "$DIR" -mindepth 1 -maxdepth 1 ! -name log ! -name "$MARKER" -exec rm -rf {} +
  else
    rm -rf "$DIR"
  fi
}
