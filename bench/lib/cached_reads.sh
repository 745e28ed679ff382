# Shared by bench/run_vs_fio.sh and bench/accelerator_scaling.sh: sourced, not run.

# cached_dataset TB DATA FILES: the resnet50_h100 dataset of FILES files at DATA (datagen
# skips what is already there), read once so it sits in the page cache.
cached_dataset() {
  "$1" datagen resnet50_h100 "dataset.num_files_train=$3" "dataset.data_folder=$2" --no-warnings >/dev/null
  cat "$2"/train/* >/dev/null
}

# write_fio_job JOBFILE DATA BS ENGINE LOOPS JOBS: a fio job file whose JOBS jobs read
# disjoint shares of DATA's train files, each start to end in BS pieces, as trainbench's
# readers share one pass (jobs reading the same files at once would find each other's
# bytes in CPU caches and flatter fio). invalidate=0 keeps the page cache.
write_fio_job() {
  local jobfile=$1 data=$2 bs=$3 engine=$4 loops=$5 jobs=$6 files=("$2"/train/*)
  {
    printf "[global]\nrw=read\nbs=%s\nioengine=%s\niodepth=1\ninvalidate=0\nloops=%s\ngroup_reporting\n" \
      "$bs" "$engine" "$loops"
    for ((j = 0; j < jobs; j++)); do
      local mine=()
      for ((i = j; i < ${#files[@]}; i += jobs)); do mine+=("${files[i]}"); done
      printf "[job%s]\nfilename=%s\n" "$j" "$(IFS=:; echo "${mine[*]}")"
    done
  } >"$jobfile"
}
