#!/usr/bin/env bash
# Out-of-range and non-finite numbers on the command line are usage errors (exit 2) that
# quote what was given and say what is expected; nothing wraps (-5 as 18446744073709551611)
# and no 300-digit range is printed.
source "$(dirname "$0")/../lib/common.sh"

bad() {
  local expected=$1
  shift
  expect_exit 2 "$WORK/out" "$TRAINBENCH" "$@"
  contains "$WORK/out" "$expected"
  if grep -qE '[0-9]{19,}' "$WORK/out"; then cat "$WORK/out"; fail "a huge number printed: $*"; fi
}

bad "'-5': expected an integer of at least 1" run resnet50_h100 --accelerators -5
bad "'0': expected an integer of at least 1" run resnet50_h100 --accelerators 0
bad "'-1': expected an integer from 0 to 1024" run resnet50_h100 --io-threads -1
# A thread or a queue entry each: a huge count is refused before any work (it aborted).
bad "'8000': expected an integer from 0 to 1024" run resnet50_h100 --io-depth 8000
bad "'1e6': expected an integer from 0 to 1024" run resnet50_h100 --io-depth 1e6
bad "at most 4096: lower one of them" run resnet50_h100 --io-threads 64 --io-depth 1024
bad "'100000': expected an integer from 0 to 1024" run resnet50_h100 --io-threads 100000
bad "'-2': expected an integer from 0 to 1024" datagen resnet50_h100 --threads -2
bad "'100000': expected an integer from 0 to 1024" datagen resnet50_h100 --threads 100000
bad "dataset.num_files_train and dataset.num_files_eval are 0" datagen resnet50_h100 dataset.num_files_train=0
bad "'0': expected a finite number above 0" datasize resnet50_h100 --host-memory-gib 0
bad "'nan': expected a finite number above 0" datasize resnet50_h100 --host-memory-gib nan
bad "'inf': expected a finite number above 0" datasize resnet50_h100 --host-memory-gib inf
bad "'-3': expected an integer of at least 1" datasize resnet50_h100 --host-memory-gib 64 --hosts -3
bad "'nan': expected a finite number above 0" train --lr nan --allow-cpu
bad "'-1': expected an integer of at least 0" train --seed -1 --allow-cpu
bad "'-0.5': expected a finite number of at least 0" train --momentum -0.5 --allow-cpu
bad "'x': expected an integer from 0 to 1024" train --workers x --allow-cpu
# A thread each: 100000 hung with threads growing and Ctrl-C ignored; a trillion epochs ended
# in std::bad_alloc (exit 1). Refused before any work, as run's and datagen's counts are.
bad "'100000': expected an integer from 0 to 1024" train --threads 100000 --allow-cpu
bad "'100000': expected an integer from 0 to 1024" train --workers 100000 --allow-cpu
# Inside that range but far beyond the cores: 1024 on 2 cores took 85 s a step (issue 46.10).
cores=$(nproc)
bad "--threads 1024: this host has $cores cores" train --threads 1024 --allow-cpu
bad "'1000000000000': expected an integer from 1 to 1000000" train --epochs 1000000000000 --allow-cpu
bad "'0': expected an integer from 1 to 65536" train --batch-size 0 --allow-cpu
bad "'8': expected an integer from 32 to 4096" train --image-size 8 --allow-cpu
bad "'0': expected an integer of at least 1" train --log-interval 0 --allow-cpu
# What does not fit is refused, not wrapped (2e22 samples as 3.7e18) or dropped (1e300 GiB).
bad "the rule asks for 2e+22 samples" datasize resnet50_h100 -n 100000000000000000
bad "the rule asks for inf samples" datasize resnet50_h100 --host-memory-gib 1e300
# Config values: non-finite numbers and negative counts are refused with the key.
bad "dataset.record_length_bytes" datagen resnet50_h100 dataset.record_length_bytes=nan
bad "dataset.num_files_train" datagen resnet50_h100 dataset.num_files_train=-4
# A sample size beyond 1 TiB wrapped: 1e30 was echoed, written as 49-byte samples and sized.
for cmd in datagen datasize config run; do
  bad "dataset.record_length_bytes: expected a number >= 1 and <= 1099511627776; got 1e30" \
    $cmd resnet50_h100 dataset.record_length_bytes=1e30
done
bad "dataset.record_length_bytes_stdev" datagen resnet50_h100 dataset.record_length_bytes_stdev=1e20
# A good value still works.
expect_exit 0 "$WORK/out" "$TRAINBENCH" datasize resnet50_h100 --host-memory-gib 64 --accelerators 8
contains "$WORK/out" "files"
echo "bad_numbers: ok"
