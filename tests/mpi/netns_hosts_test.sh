#!/usr/bin/env bash
# Self-test of netns_hosts.sh: mpirun -np 2 with one rank in each network
# namespace "host", then an MPI_Allreduce across them whose bytes must show
# up on the hosts' veths.
source "$(dirname "$0")/../lib/common.sh"
# shellcheck source=netns_hosts.sh
source "$SRC/tests/mpi/netns_hosts.sh"

MPI_TIMEOUT=${MPI_TIMEOUT:-60}

skip_unless '[ "$(id -u)" = 0 ]' "needs root"
skip_unless "command -v mpirun" "$MPI_NEEDS"
skip_unless "command -v mpicc" "no mpicc (Debian's libopenmpi-dev)"
skip_unless netns_can "ip netns / unshare --uts / bridge not permitted here"

tmp=$WORK
hosts=$tmp/hosts
at_exit 'netns_down "$hosts"'
# On a failure, the launches the agent logged (hooks run last registered first, with the
# test's exit status in $code).
at_exit '[ "$code" = 0 ] || [ ! -s "$hosts/rsh.log" ] || { echo "--- launches (rsh.log):"; cut -c1-300 "$hosts/rsh.log"; }'

# Leftovers of runs that were killed with -9 (their exit hooks never ran): their
# namespaces and links.
netns_gc || true

rc=0
netns_up "$hosts" 1 || rc=$?
skip_unless "[ $rc != 77 ]" "cannot make namespaces"
[ $rc = 0 ] || fail "netns_up failed"
# shellcheck disable=SC1091
. "$hosts/netns.env"
echo "hosts: hosta=$NETNS_IP_A (ns $NETNS_A) hostb=$NETNS_IP_B (ns $NETNS_B) mpirun side=$NETNS_IP_ROOT"
echo "mpirun flags: $(netns_print_flags "$hosts")"

# run_mpi OUTFILE ARGS...: bounded mpirun with the hosts' flags, stdout to
# OUTFILE, stderr to OUTFILE.err (mpirun sometimes warns there, e.g.
# "plm:rsh: Warning: setpgid(...) failed in parent with errno=Permission
# denied(13)": a harmless race with the agent's exec); prints the wall time
# in ms on stdout.
run_mpi() {
  local out=$1 t0 t1 rc
  shift
  t0=$(date +%s%N)
  timeout -k 5 "$MPI_TIMEOUT" mpirun "${NETNS_MPIRUN_ARGS[@]}" "$@" >"$out" 2>"$out.err"
  rc=$?
  t1=$(date +%s%N)
  echo $(((t1 - t0) / 1000000))
  if [ -s "$out.err" ]; then
    sed 's/^/mpirun stderr: /' "$out.err" >&2
  fi
  return $rc
}

# 1. hostname and address of each rank. The environment reaches the ranks
# only through -x, as over ssh.
export NETNS_SELFTEST_X=forwarded NETNS_SELFTEST_NOX=leaked
# shellcheck disable=SC2016 # expanded by the ranks' shell
ms=$(run_mpi "$tmp/out1" -np 2 -x NETNS_SELFTEST_X sh -c \
  'echo "rank=$OMPI_COMM_WORLD_RANK host=$(hostname) $(ip -4 -o addr show | awk "\$2 != \"lo\" {print \"ip=\" \$4}") x=$NETNS_SELFTEST_X nox=${NETNS_SELFTEST_NOX:-}"') ||
  { cat "$tmp/out1"; fail "mpirun -np 2 (hostname) failed or timed out"; }
echo "--- mpirun -np 2 hostname/ip (${ms} ms):"
sort "$tmp/out1"
grep -qx "rank=0 host=hosta ip=$NETNS_IP_A/24 x=forwarded nox=" "$tmp/out1" || fail "rank 0 is not hosta/$NETNS_IP_A"
grep -qx "rank=1 host=hostb ip=$NETNS_IP_B/24 x=forwarded nox=" "$tmp/out1" || fail "rank 1 is not hostb/$NETNS_IP_B"
[ "$(wc -l <"$tmp/out1")" = 2 ] || fail "expected 2 lines of output"

# Start-up cost: a trivial job, a few times.
for _ in 1 2 3; do
  ms=$(run_mpi "$tmp/out_true" -np 2 true) || { cat "$tmp/out_true"; fail "mpirun -np 2 true failed"; }
  echo "mpirun -np 2 true across the namespaces: ${ms} ms"
done

# 2. A real MPI program: Allreduce across the hosts.
cat >"$tmp/allreduce.c" <<'EOF'
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Each rank prints its gethostname(); all ranks Allreduce a large vector
 * (so that the traffic is visible on the veth counters) and check the sum. */
int main(int argc, char **argv) {
  int rank, size, n = argc > 1 ? atoi(argv[1]) : 1 << 20, i, ok = 1;
  char host[256] = "", peer[256] = "", proc[MPI_MAX_PROCESSOR_NAME] = "";
  int len;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  gethostname(host, sizeof host);
  MPI_Get_processor_name(proc, &len);
  double *v = malloc(sizeof(double) * n), *s = malloc(sizeof(double) * n);
  for (i = 0; i < n; i++) v[i] = rank + 1;
  MPI_Allreduce(v, s, n, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  for (i = 0; i < n; i++)
    if (s[i] != size * (size + 1) / 2.0) ok = 0;
  /* The neighbour's host name, by message. */
  MPI_Sendrecv(host, sizeof host, MPI_CHAR, (rank + 1) % size, 0, peer,
               sizeof peer, MPI_CHAR, (rank + size - 1) % size, 0,
               MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  printf("rank=%d size=%d host=%s proc=%s from=%s sum=%s\n", rank, size, host,
         proc, peer, ok ? "ok" : "BAD");
  free(v);
  free(s);
  MPI_Finalize();
  return ok ? 0 : 1;
}
EOF
mpicc -O2 -o "$tmp/allreduce" "$tmp/allreduce.c" || fail "mpicc"

# tx bytes of a host's veth (seen from the root namespace, no sysfs needed).
tx_bytes() { ip -s -n "$1" link show eth0 | awk '/TX:/ {getline; print $1; exit}'; }
tx_a0=$(tx_bytes "$NETNS_A")
tx_b0=$(tx_bytes "$NETNS_B")
n=$((1 << 20)) # 8 MiB of doubles per rank
ms=$(run_mpi "$tmp/out2" -np 2 "$tmp/allreduce" $n) ||
  { cat "$tmp/out2"; fail "mpirun -np 2 allreduce failed or timed out"; }
tx_a=$(($(tx_bytes "$NETNS_A") - tx_a0))
tx_b=$(($(tx_bytes "$NETNS_B") - tx_b0))
echo "--- mpirun -np 2 allreduce (${ms} ms):"
sort "$tmp/out2"
echo "veth tx during the job: hosta $tx_a bytes, hostb $tx_b bytes (vector: $((n * 8)) bytes)"
grep -qx "rank=0 size=2 host=hosta proc=hosta from=hostb sum=ok" "$tmp/out2" || fail "rank 0 output"
grep -qx "rank=1 size=2 host=hostb proc=hostb from=hosta sum=ok" "$tmp/out2" || fail "rank 1 output"
# An allreduce of 8 MiB between two ranks sends at least half of it each
# way; all of it has to cross the veths (the only way between namespaces).
[ "$tx_a" -ge $((n * 8 / 2)) ] || fail "hosta's veth sent only $tx_a bytes: MPI traffic did not cross it"
[ "$tx_b" -ge $((n * 8 / 2)) ] || fail "hostb's veth sent only $tx_b bytes: MPI traffic did not cross it"

# 3. No orted is left in the namespaces after the jobs.
sleep 0.2
left=$(ip netns pids "$NETNS_A"; ip netns pids "$NETNS_B") || true
[ -z "$left" ] || fail "processes left in the namespaces: $left"

done_ok
