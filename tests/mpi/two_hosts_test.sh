#!/usr/bin/env bash
# Two hosts for real: network namespaces "hosta" and "hostb" (tests/mpi/netns_hosts.sh),
# Open MPI's launcher reaching each through an rsh agent that runs `ip netns exec`, one rank
# per host, MPI traffic over the veths only. datagen splits the files over the hosts, and
# run reads the same samples per epoch as one process with the same accelerators, with a
# row per host in summary.json. The dataset folder is shared (the namespaces share the
# mount namespace, as hosts share a parallel file system).
source "$(dirname "$0")/../lib/common.sh"
cd "$WORK"
skip_unless "command -v mpirun" "$MPI_NEEDS"
hosts=$WORK/hosts
mpi_two_hosts "$hosts"

# two_hosts SECONDS ARGS...: mpirun over the two hosts, bounded in time.
two_hosts() {
  local seconds=$1
  shift
  timeout -k 5 "$seconds" mpirun "${NETNS_MPIRUN_ARGS[@]}" "$@"
}

two_hosts 120 -np 2 "$TB" datagen resnet50_h100 "${MPI_SMALL[@]}" --no-progress >dg.txt 2>&1 ||
  { cat dg.txt; fail "datagen over two hosts"; }
grep -q "^datagen: 16 files (16 written" dg.txt || fail "datagen: $(cat dg.txt)"
grep -q "trainbench\[0/2 hosta\]" dg.txt || fail "rank 0 does not name host hosta: $(cat dg.txt)"

common=(resnet50_h100 "${MPI_SMALL[@]}" reader.batch_size=3 train.epochs=2 --no-progress)
"$TB" run "${common[@]}" -a 4 >one.txt 2>&1 || { cat one.txt; fail "run, one process"; }
one=$(json "$(newest_summary)" '[(p["samples"], p["requested_bytes"]) for p in d["phases"]]')

two_hosts 120 -np 2 "$TB" run "${common[@]}" -a 2 >two.txt 2>&1 || { cat two.txt; fail "run over two hosts"; }
s=$(newest_summary)
[ "$(json "$s" '[(p["samples"], p["requested_bytes"]) for p in d["phases"]]')" = "$one" ] ||
  fail "two hosts took other samples than one process"
[ "$(json "$s" 'd["num_hosts"], d["num_ranks"], d["num_accelerators"]')" = "(2, 2, 4)" ] ||
  fail "hosts/ranks/accelerators: $(json "$s" 'd["num_hosts"], d["num_ranks"]')"
[ "$(json "$s" '[(h["host"], h["ranks"], h["accelerators"]) for h in d["hosts"]]')" = \
  "[('hosta', [0], 2), ('hostb', [1], 2)]" ] || fail "per-host rows: $(json "$s" 'd["hosts"]')"
[ "$(json "$s" 'all(h["samples_per_second"] > 0 and h["io_MB_per_second"] > 0 for h in d["hosts"])')" = True ] ||
  fail "per-host rates"
grep -q "over 2 ranks on 2 host(s) (hosta, hostb)" two.txt || fail "the run line names the hosts"

# The report of that run, rendered by Chromium: its hosts table holds summary.json's rows
# (and every chart its points), as tests/report checks for one host.
"$TB" report "$(dirname "$s")" -o "$WORK/two.html" >report.txt 2>&1 || { cat report.txt; fail "report"; }
chromium_dump_dom "$WORK/two.html" two.dom
"$PY" "$SRC/tests/mpi/../report/check_dom.py" two.dom "$(dirname "$s")" || fail "the two-host report's DOM"
grep -q 'id="hosts-table"' two.dom || fail "no hosts table in the report"
echo OK
