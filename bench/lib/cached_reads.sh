# Shared by bench/run_vs_fio.sh, bench/retinanet_vs_fio.sh and bench/accelerator_scaling.sh:
# sourced, not run.

# cached_dataset TB DATA FILES: the resnet50_h100 dataset of FILES files at DATA (datagen
# skips what is already there), read once so it sits in the page cache.
cached_dataset() {
  "$1" datagen resnet50_h100 "dataset.num_files_train=$3" "dataset.data_folder=$2" --no-warnings >/dev/null
  cat "$2"/train/* >/dev/null
}

# fio_engine_lines ENGINE: the [global] lines for ENGINE ("psync", "io_uring", or either
# with "+thread": fio's jobs as threads of one process, `--thread`, rather than processes,
# each of which fio puts in its own session and so its own scheduler group).
fio_engine_lines() {
  printf "ioengine=%s\n" "${1%+thread}"
  [[ $1 == *+thread ]] && printf "thread\n"
  return 0
}

# write_fio_job JOBFILE DATA BS ENGINE LOOPS JOBS: a fio job file whose JOBS jobs read
# disjoint shares of DATA's train files, each start to end in BS pieces, as trainbench's
# readers share one pass (jobs reading the same files at once would find each other's
# bytes in CPU caches and flatter fio). invalidate=0 keeps the page cache.
write_fio_job() {
  local jobfile=$1 data=$2 bs=$3 engine=$4 loops=$5 jobs=$6 files=("$2"/train/*)
  {
    printf "[global]\nrw=read\nbs=%s\niodepth=1\ninvalidate=0\nloops=%s\ngroup_reporting\n" \
      "$bs" "$loops"
    fio_engine_lines "$engine"
    for ((j = 0; j < jobs; j++)); do
      local mine=()
      for ((i = j; i < ${#files[@]}; i += jobs)); do mine+=("${files[i]}"); done
      printf "[job%s]\nfilename=%s\n" "$j" "$(IFS=:; echo "${mine[*]}")"
    done
  } >"$jobfile"
}

# best_of_alternating REPEAT "PEER_CMD ARGS" "TB_CMD ARGS": runs the two commands in turn
# REPEAT times (so load on a shared host hits both alike); each prints space-separated
# figures, higher is better. Sets BEST_PEER and BEST_TB to each one's element-wise best.
best_of_alternating() {
  local best='import sys; a = sys.argv[1].split(); b = sys.argv[2].split()
print(*(a if not b else b if not a else [max(float(x), float(y)) for x, y in zip(a, b)]))'
  BEST_PEER="" BEST_TB=""
  for _ in $(seq "$1"); do
    BEST_PEER=$(/usr/bin/python3 -c "$best" "$BEST_PEER" "$($2)")
    BEST_TB=$(/usr/bin/python3 -c "$best" "$BEST_TB" "$($3)")
  done
}

# engines_table REPEAT "LABEL_WIDTHS" "FORMATS" THREADS...: for each thread count, fio psync
# against trainbench's pread and fio io_uring against its uring engine, and above one thread
# the same with fio's jobs as threads (psync+thread, io_uring+thread: trainbench's readers
# are threads of one process too, so this is the like-for-like row on a loaded host): the caller's
# `fio_run ENGINE JOBS` and `tb_run THREADS ENGINE`, best of REPEAT alternating rounds, one
# row: the thread count and engines (LABEL_WIDTHS "8 15"), then per figure fio's,
# trainbench's and their ratio (FORMATS, one per figure: "9.2f 13.2f"; ratios 7.2f); figures
# past those (counts: bytes, reads) end the row as "fio: ... tb: ...".
# The caller's `before_threads THREADS` runs first, if defined.
engines_table() {
  local repeat=$1 widths=$2 formats=$3 t pair
  shift 3
  for t in "$@"; do
    if declare -F before_threads >/dev/null; then before_threads "$t"; fi
    local pairs=("psync pread" "io_uring uring")
    ((t > 1)) && pairs+=("psync+thread pread" "io_uring+thread uring")
    for pair in "${pairs[@]}"; do
      set -- $pair
      best_of_alternating "$repeat" "fio_run $1 $t" "tb_run $t $2"
      /usr/bin/python3 -c 'import sys
t, e, widths, formats, f, b = sys.argv[1:]
tw, ew = widths.split()
row = [f"{t:<{tw}}", f"{e:<{ew}}"]
n = len(formats.split())
for fmt, x, y in zip(formats.split(), map(float, f.split()), map(float, b.split())):
    row += [f"{x:{fmt}}", f"{y:{fmt}}", f"{y / x if x else 0:7.2f}"]
if len(f.split()) > n:  # figures past the formatted ones: counts shown as they are
    row += ["fio:", *(f"{float(v):.0f}" for v in f.split()[n:]), "tb:",
            *(f"{float(v):.0f}" for v in b.split()[n:])]
print(" ".join(row))' "$t" "$1/$2" "$widths" "$formats" "$BEST_PEER" "$BEST_TB"
    done
  done
}
