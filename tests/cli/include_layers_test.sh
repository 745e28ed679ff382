#!/usr/bin/env bash
# The layers of docs/architecture.md, read from the sources: every #include "FOLDER/..." in
# src/ points to a lower layer (or the folder itself), cli/ includes only app/, config/
# and common/, and the folders above storage/ include only its public
# headers (never its S3, libcurl or io_uring internals). A violation names the file, the line
# and the rule.
source "$(dirname "$0")/../lib/common.sh"

# Layer of each folder under src/: a folder may include only folders of lower layers.
declare -A layer=(
  [common]=0
  [config]=1 [dist]=1 [metrics]=1
  [storage]=2
  [formats]=3 [image]=3
  [dataset]=4 [train]=4
  [loader]=5 [stage]=5 [ops]=5 [sweep]=5
  [sim]=6 [report]=6
  [app]=7
  [cli]=8
)
declare -A cli_may=([app]=1 [config]=1 [common]=1 [cli]=1)
# storage/'s public headers are those at its top level (docs/architecture.md): the Storage
# interface and its decorators, the read engines' interface, errors, and the remote-object
# fetching that stage uses. Its subfolders (http/: the HTTP client on libcurl; s3/: the S3
# client on it; engines/: the pread, io_uring and null engines; posix/: the file system's
# storage and its lock) are its internals: the folder is the boundary.

# scan ROOT OUT: writes ROOT/src's includes against the layers to OUT, one a line.
scan() {
  local root=$1 out=$2 dir folder hit target where header
  : >"$out"
  for dir in "$root"/src/*/; do
    folder=$(basename "$dir")
    [ -n "${layer[$folder]:-}" ] || {
      echo "src/$folder has no layer: add it to this test and to docs/architecture.md" >>"$out"
      continue
    }
    # FILE:LINE:#include "target/..."
    while IFS= read -r hit; do
      target=$(sed -E 's/.*#include "([a-z_]+)\/.*/\1/' <<<"$hit")
      header=$(sed -E 's/.*#include "[a-z_]+\/([^"]+)".*/\1/' <<<"$hit")
      where=${hit%%:#include*}
      where=${where#"$root"/}
      [ "$target" = "$folder" ] && continue
      if [ -z "${layer[$target]:-}" ]; then
        echo "$where: includes $target/, which is not a folder of src/" >>"$out"
      elif [ "$folder" = cli ] && [ -z "${cli_may[$target]:-}" ]; then
        echo "$where: cli/ includes $target/: cli/ parses flags and prints; the job belongs in app/" >>"$out"
      elif [ "${layer[$target]}" -ge "${layer[$folder]}" ]; then
        echo "$where: $folder/ (layer ${layer[$folder]}) includes $target/ (layer ${layer[$target]}): includes point down only" >>"$out"
      elif [ "$target" = storage ] && [[ $header == */* ]]; then
        echo "$where: includes storage/$header, one of storage's internals (its subfolders): use its public headers at storage/'s top level (docs/architecture.md)" >>"$out"
      fi
    done < <(grep -rnE '^#include "[a-z_]+/' "$dir" --include='*.h' --include='*.cc' --include='*.cu' || true)
  done
}

# app/'s families (docs/architecture.md): the frame every job fills below all, then the
# workload helpers at app/'s top, then the jobs' families; a sweep runs runs. A family
# includes only those below it (or itself): no arrow back up.
declare -A app_rank=([frame]=0 [top]=1 [dataset]=2 [replay]=2 [run]=2 [train]=2 [mix]=3 [sweep]=4)

# scan_app ROOT OUT: writes ROOT/src/app's includes against its families to OUT, one a line.
scan_app() {
  local root=$1 out=$2 hit where from to
  : >"$out"
  [ -d "$root/src/app" ] || return 0
  while IFS= read -r hit; do
    where=${hit%%:#include*}
    where=${where#"$root"/}
    from=$(sed -E 's#^src/app/([a-z_]+)/.*#\1#; t; s#.*#top#' <<<"$where")
    to=$(sed -E 's#.*\#include "app/([a-z_]+)/.*#\1#; t; s#.*#top#' <<<"$hit")
    [ "$from" = "$to" ] && continue
    if [ -z "${app_rank[$from]:-}" ] || [ -z "${app_rank[$to]:-}" ]; then
      echo "$where: app/$from or app/$to is not a family of app/: add it to this test and to docs/architecture.md" >>"$out"
    elif [ "${app_rank[$to]}" -ge "${app_rank[$from]}" ]; then
      echo "$where: app/$from includes app/$to: within app/, includes point down only" >>"$out"
    fi
  done < <(grep -rnE '^#include "app/' "$root/src/app" --include='*.h' --include='*.cc' || true)
}

# The scan sees what it must: an upward include, cli/ reaching past app/, an unknown folder.
mkdir -p "$WORK/bad/src/common" "$WORK/bad/src/cli" "$WORK/bad/src/extra"
printf '#include "app/run/run_job.h"\n' >"$WORK/bad/src/common/up.h"
printf '#include "storage/storage.h"\n#include "app/run/run_job.h"\n' >"$WORK/bad/src/cli/cmd.cc"
mkdir -p "$WORK/bad/src/stage"
printf '#include "storage/s3_source.h"\n#include "storage/http/curl_multi.h"\n' >"$WORK/bad/src/stage/fetch.cc"
# The operation engine (ops/) runs a plan or a mix for the jobs above it and knows none of them.
mkdir -p "$WORK/bad/src/ops"
printf '#include "app/frame/job_report.h"\n#include "loader/sampler.h"\n#include "dataset/manifest.h"\n' \
  >"$WORK/bad/src/ops/engine.cc"
# The sweep's search and judgement (sweep/) pick counts and judge a run's figures for the sweep
# jobs above it: a job, a run or a page is theirs, not its own.
mkdir -p "$WORK/bad/src/sweep"
printf '#include "app/run/run_job.h"\n#include "sim/emulated_training.h"\n#include "config/workload.h"\n' \
  >"$WORK/bad/src/sweep/search.cc"
scan "$WORK/bad" "$WORK/bad.txt"
check "an upward include is caught" grep -q '^src/common/up.h:1: common/ (layer 0) includes app/' "$WORK/bad.txt"
check "cli/ including storage/ is caught" grep -q '^src/cli/cmd.cc:1: cli/ includes storage/' "$WORK/bad.txt"
check "cli/ including app/ is allowed" bash -c "! grep -q 'cmd.cc:2' '$WORK/bad.txt'"
check "stage/ including storage's curl internals is caught" \
  grep -q '^src/stage/fetch.cc:2: includes storage/http/curl_multi.h, one of storage' "$WORK/bad.txt"
check "stage/ including storage's public s3_source.h is allowed" bash -c "! grep -q 'fetch.cc:1' '$WORK/bad.txt'"
check "ops/ including app/ is caught" grep -q '^src/ops/engine.cc:1: ops/ (layer 5) includes app/' "$WORK/bad.txt"
check "ops/ including loader/ (its own layer) is caught" \
  grep -q '^src/ops/engine.cc:2: ops/ (layer 5) includes loader/ (layer 5)' "$WORK/bad.txt"
check "ops/ including dataset/ is allowed" bash -c "! grep -q 'engine.cc:3' '$WORK/bad.txt'"
check "sweep/ including app/ is caught" grep -q '^src/sweep/search.cc:1: sweep/ (layer 5) includes app/' "$WORK/bad.txt"
check "sweep/ including sim/ (above it) is caught" \
  grep -q '^src/sweep/search.cc:2: sweep/ (layer 5) includes sim/ (layer 6)' "$WORK/bad.txt"
check "sweep/ including config/ is allowed" bash -c "! grep -q 'search.cc:3' '$WORK/bad.txt'"
check "a folder with no layer is caught" grep -q '^src/extra has no layer' "$WORK/bad.txt"

mkdir -p "$WORK/bad/src/app/frame" "$WORK/bad/src/app/run"
printf '#include "app/run/run_job.h"\n#include "app/frame/job_log.h"\n' >"$WORK/bad/src/app/frame/job_frame.cc"
printf '#include "app/frame/job_frame.h"\n#include "app/sweep/sweep_job.h"\n' >"$WORK/bad/src/app/run/run_job.cc"
scan_app "$WORK/bad" "$WORK/bad_app.txt"
check "app/frame/ including a job's family is caught" \
  grep -q '^src/app/frame/job_frame.cc:1: app/frame includes app/run' "$WORK/bad_app.txt"
check "app/run/ including the frame is allowed" bash -c "! grep -q 'run_job.cc:1' '$WORK/bad_app.txt'"
check "app/run/ including the sweep above it is caught" \
  grep -q '^src/app/run/run_job.cc:2: app/run includes app/sweep' "$WORK/bad_app.txt"

scan_app "$SRC" "$WORK/app_violations"
if [ -s "$WORK/app_violations" ]; then
  cat "$WORK/app_violations" >&2
  fail "$(wc -l <"$WORK/app_violations") include(s) of app/ against its families"
fi
top_files=$(find "$SRC/src/app" -maxdepth 1 -type f | wc -l)
check "app/ keeps at most 12 files at its top ($top_files): a job goes in its family's folder" \
  test "$top_files" -le 12

scan "$SRC" "$WORK/violations"
if [ -s "$WORK/violations" ]; then
  cat "$WORK/violations" >&2
  fail "$(wc -l <"$WORK/violations") include(s) against the layers"
fi
checks=$((checks + 1))
echo "OK: $checks checks, every include of src/ points down"
