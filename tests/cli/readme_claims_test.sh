#!/usr/bin/env bash
# What the README and docs/ say a first user will meet is what the binary does: the README's
# tour names the MLPerf Storage versions in the order `workloads` lists them; the mpirun
# examples (docs/distributed.md) say the flags Open MPI needs as root or with more ranks than
# cores; "an unknown key is an error" (docs/configuration.md) holds under
# storage.storage_options too; the tour starts with datasize, shows a run's output and says
# what AU and the page-cache warning mean.
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
# The tour starts with datasize (how big the dataset must be), shows a run's output as the
# binary prints it (its table's header), and says what AU and the page-cache warning mean.
first_cmd=$(sed -n '/^## A tour/,/^```$/p' "$readme" | grep -m1 '^build/trainbench ')
[[ "$first_cmd" == 'build/trainbench datasize '* ]] || fail "the tour does not start with datasize: $first_cmd"
grep -q '^\*\*AU\*\* (accelerator utilization)' "$readme" || fail "the README does not say what AU is"
grep -q '^memory; `trainbench datasize` says\|\*\*The page-cache warning\*\*' "$readme" ||
  fail "the README does not say what the page-cache warning means"
make_tiny_dataset
"$TRAINBENCH" run resnet50_h100 "${TINY[@]}" "output.folder=$WORK/results" --no-progress >"$WORK/run.out" 2>&1 || fail "tiny run: $(cat "$WORK/run.out")"
header=$(grep -m1 '^phase  *epoch' "$WORK/run.out")
check "the README's sample run has the table the binary prints: $header" grep -qxF "$header" "$readme"
done_ok
