#!/usr/bin/env bash
# Filters a build's output (stdin) down to its progress, ninja's "[n/N]" lines: on a
# terminal one line redrawn in place, otherwise a line a minute (and the first at once), so
# a build of several minutes is not silent. Everything else is left to the build's log.
# Usage: scripts/build.sh 2>&1 | tee build/build.log | scripts/build_progress.sh
set -uo pipefail
last=-60
shown=""
while IFS= read -r line; do
  [[ $line =~ ^\[([0-9]+)/([0-9]+)\] ]] || continue
  shown="[${BASH_REMATCH[1]}/${BASH_REMATCH[2]}]"
  if [ -t 1 ]; then
    printf '\rbuild: %s compiling' "$shown"
  elif ((SECONDS - last >= 60)); then
    echo "build: $shown after ${SECONDS} s"
    last=$SECONDS
  fi
done
if [ -t 1 ] && [ -n "$shown" ]; then printf '\r\033[K'; fi
exit 0
