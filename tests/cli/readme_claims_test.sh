#!/usr/bin/env bash
# What the README and docs/ say a first user will meet is what the binary does: the README's
# tour names the MLPerf Storage versions in the order `workloads` lists them; the mpirun
# examples (docs/distributed.md) say the flags Open MPI needs as root or with more ranks than
# cores; "an unknown key is an error" (docs/configuration.md) holds under
# storage.storage_options too.
source "$(dirname "$0")/../lib/common.sh"
readme=$SRC/README.md
first=$("$TRAINBENCH" workloads | grep -m1 -oE 'MLPerf Storage v[0-9.]+')
tour=$(grep -m1 -E '^build/trainbench workloads +#' "$readme")
check "the tour names $first first: $tour" bash -c "[[ '$tour' == *'(${first}'* ]]"
check "mpirun needs --allow-run-as-root --oversubscribe: said" \
  grep -q -- '`--allow-run-as-root --oversubscribe`' "$SRC/docs/distributed.md"
grep -q "An unknown key is an error" "$SRC/docs/configuration.md" ||
  fail "docs/configuration.md no longer claims it"
expect_exit 2 "$WORK/out" "$TRAINBENCH" config resnet50_h100 storage.storage_options.endpont_url=x
contains "$WORK/out" "did you mean 'endpoint_url'?"
done_ok
