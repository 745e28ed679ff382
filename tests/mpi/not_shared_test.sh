#!/usr/bin/env bash
# The not-shared trap of a run over several hosts (issue 47; mlcommons/storage issue 464):
# host B sees a folder of its own at the data path (bound over it in B's mount namespace
# only, as a local disk of its own would be), holding a full copy of the dataset made with
# the same datagen. A 2-rank run over the hosts is refused with exit 2 before any work,
# naming the hosts and what each sees; over the shared folder it runs, and summary.json names
# each host's file system for the data folder, the probe file gone afterwards.
source "$(dirname "$0")/../lib/common.sh"
cd "$WORK"
skip_unless "command -v mpirun" "$MPI_NEEDS"
hosts=$WORK/hosts
mpi_two_hosts "$hosts"

w=(resnet50_h100 "${MPI_SMALL[@]}" reader.batch_size=3 train.epochs=1 --no-progress)
expect_exit 0 dg.out "$TB" datagen "${w[@]}" "dataset.data_folder=$WORK/data"
# Host B's own copy, written the same way at another path, then bound over the data path.
expect_exit 0 dgb.out "$TB" datagen "${w[@]}" "dataset.data_folder=$WORK/b-local"

# The launch agent of host B binds its copy over the data path before starting its ranks.
hostb_ip=$(sed -n 2p "$hosts/hostfile" | cut -d' ' -f1)
cat >"$WORK/rsh-b-local" <<EOF
#!/usr/bin/env bash
args=()
while [ \$# -gt 0 ]; do
  case \$1 in
    -x|-X|-t|-T|-n|-q|-A|-a) args+=("\$1"); shift ;;
    -o|-p|-l|-i|-F) args+=("\$1" "\$2"); shift 2 ;;
    *) break ;;
  esac
done
host=\$1
shift
case \$host in
  hostb|$hostb_ip) set -- "mount --bind '$WORK/b-local' '$WORK/data' &&" "\$@" ;;
esac
exec "$hosts/rsh" "\${args[@]}" "\$host" "\$@"
EOF
chmod 755 "$WORK/rsh-b-local"
split=("${NETNS_MPIRUN_ARGS[@]/#$hosts\/rsh/$WORK/rsh-b-local}")
[ "${split[*]}" != "${NETNS_MPIRUN_ARGS[*]}" ] || fail "the agent was not replaced: ${NETNS_MPIRUN_ARGS[*]}"

code=0
timeout -k 5 120 mpirun "${split[@]}" -np 2 "$TB" run "${w[@]}" "dataset.data_folder=$WORK/data" \
  "output.folder=$WORK/out-split" >split.out 2>&1 || code=$?
[ "$code" = 2 ] || { cat split.out; fail "a run over hosts that do not share the data folder exited $code, not 2"; }
contains split.out "dataset.data_folder $WORK/data: the ranks' hosts do not share it"
contains split.out "a file rank 0 wrote there on hosta was not found by ranks on other hosts (hostb sees "
if grep -q "results in\|epoch 1" split.out; then cat split.out; fail "the refused run began its work"; fi
[ -z "$(ls -A "$WORK/out-split" 2>/dev/null)" ] || fail "the refused run left results: $(ls "$WORK/out-split")"
[ -z "$(ls -A "$WORK/data" | grep trainbench.probe)" ] || fail "the probe file was left in the data folder"

# Over the shared folder the same run works; each host's file system is named.
timeout -k 5 120 mpirun "${NETNS_MPIRUN_ARGS[@]}" -np 2 "$TB" run "${w[@]}" "dataset.data_folder=$WORK/data" \
  "output.folder=$WORK/out" >shared.out 2>&1 || { cat shared.out; fail "the run over the shared folder"; }
check "summary.json names each host's file system for the data" "$PY" - "$(newest_summary)" "$WORK/data" <<'PY'
import json, os, sys
s = json.load(open(sys.argv[1]))
rows = s["filesystems"]["data"]
assert [r["host"] for r in rows] == ["hosta", "hostb"], rows
for r in rows:
    assert r["fs_type"] and r["source"] and sys.argv[2].startswith(r["mount_point"]), r
    assert r["sees_probe"] is True and r["network"] is False, r
assert s["filesystems"]["checkpoint"] is None, s["filesystems"]
assert not [f for f in os.listdir(sys.argv[2]) if f.startswith(".trainbench.probe")], os.listdir(sys.argv[2])
print("data folder:", [(r["host"], r["fs_type"], r["source"]) for r in rows])
PY
contains shared.out "on a local file system ("
contains shared.out "though every rank found rank 0's probe there"
grep "do not share it" split.out | head -n 1
echo "PASS: not_shared ($checks checks)"
