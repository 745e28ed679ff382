#!/usr/bin/env bash
# The traps of a shared file system across hosts (issue 47; mlcommons/storage issues 464, 434),
# on the suite's CephFS, each host with its own ceph-fuse client:
# - host B sees a local folder of its own at the data path (a full datagen copy), host A the
#   CephFS folder: a run over both is refused with exit 2 before any work;
# - a datagen on host B while one on host A writes the same folder is refused (the dataset's
#   lock holds across the two clients);
# - a read-only checkpoint run on host B reads every byte a job on host A wrote, and over both
#   hosts with checkpoint.read_shard_offset=1 each host reads the shard the other wrote.
source "$(dirname "$0")/../lib/common.sh"
cd "$WORK"
skip_unless "command -v mpirun" "$MPI_NEEDS"
cephfs_use_cluster
data=$CEPHFS_WORK/data
cephfs_workload 16 1
expect_exit 0 dg.out "$TB" datagen "${w[@]}" --no-progress

# Not shared: host B's own copy bound over the data path in B's mount namespace alone.
expect_exit 0 dgb.out "$TB" datagen "${w[@]}" "dataset.data_folder=$WORK/b-local" --no-progress
nsenter --mount="$CEPHFS_MOUNT_NS/hostb" mount --bind "$WORK/b-local" "$data"
at_exit "nsenter --mount='$CEPHFS_MOUNT_NS/hostb' umount '$data' 2>/dev/null"
code=0
cephfs_mpirun 120 -np 2 "$TB" run "${w[@]}" "output.folder=$WORK/out-split" --no-progress >split.out 2>&1 || code=$?
[ "$code" = 2 ] || { cat split.out; fail "a run over hosts that do not share the data folder exited $code, not 2"; }
contains split.out "dataset.data_folder $data: the ranks' hosts do not share it"
contains split.out "(hostb sees "
contains split.out "fuse.ceph-fuse"
if grep -q "results in\|epoch 1" split.out; then cat split.out; fail "the refused run began its work"; fi
[ -z "$(ls -A "$WORK/out-split" 2>/dev/null)" ] || fail "the refused run left results"
nsenter --mount="$CEPHFS_MOUNT_NS/hostb" umount "$data"

# A second writer on the other host: datagen on hosta is held (SIGSTOP) while it holds the
# dataset's lock; hostb's datagen of the same folder is refused, and hosta's then finishes.
data2=$CEPHFS_WORK/data2
w2=("${w[@]}" "dataset.data_folder=$data2" dataset.num_files_train=64)
"$CEPHFS_HOSTS/rsh" hosta "$(printf '%q ' "$TB" datagen "${w2[@]}" --no-progress) & echo pid \$!; wait" >dga.out 2>&1 &
wait_for_line dga.out "^pid " "hosta's datagen did not start"
pid_a=$(sed -n 's/^pid //p' dga.out)
for _ in $(seq 100); do [ -e "$data2/.trainbench.lock" ] && break; sleep 0.05; done
kill -STOP "$pid_a"
code=0
cephfs_on hostb 60 "$TB" datagen "${w2[@]}" --no-progress >dgb2.out 2>&1 || code=$?
kill -CONT "$pid_a"
[ "$code" = 1 ] || { cat dgb2.out; fail "a second datagen on hostb exited $code, not 1"; }
contains dgb2.out "is being written by another trainbench"
contains dgb2.out "on hosta"
for _ in $(seq 600); do kill -0 "$pid_a" 2>/dev/null || break; sleep 0.1; done
contains dga.out "datagen: 64 files"

# Checkpoints read across jobs and hosts.
ck=$CEPHFS_WORK/ckpt
small=(model.num_layers=2 model.transformer.hidden_size=256 model.transformer.ffn_hidden_size=1024
  model.transformer.vocab_size=2000 model.transformer.num_attention_heads=8
  "output.folder=$WORK/out" "checkpoint.checkpoint_folder=$ck" --no-progress)
cephfs_on hosta 120 "$TB" run llama3_8b "${small[@]}" checkpoint.num_checkpoints_write=1 \
  checkpoint.num_checkpoints_read=0 >cka.out 2>&1 || { cat cka.out; fail "hosta writes a checkpoint"; }
written=$(json "$(newest_summary)" 'sum(c["bytes"] for c in d["checkpoints"] if c["operation"] == "write")')
cephfs_on hostb 120 "$TB" run llama3_8b "${small[@]}" checkpoint.num_checkpoints_write=0 \
  checkpoint.num_checkpoints_read=1 >ckb.out 2>&1 || { cat ckb.out; fail "hostb reads hosta's checkpoint"; }
read_b=$(json "$(newest_summary)" 'sum(c["bytes"] for c in d["checkpoints"] if c["operation"] == "read")')
check "hostb read every byte hosta wrote ($read_b of $written)" test "$read_b" = "$written" -a "$written" -gt 0
contains ckb.out "read that an earlier job wrote, none written"

# Over both hosts: a 2-rank job writes; a 2-rank read-only job with read_shard_offset=1 has
# each host read the other's shard (the op-log names the files each rank read).
ck2=$CEPHFS_WORK/ckpt2
cephfs_mpirun 120 -np 2 "$TB" run llama3_8b "${small[@]}" "checkpoint.checkpoint_folder=$ck2" \
  checkpoint.num_checkpoints_write=1 checkpoint.num_checkpoints_read=0 >ck2w.out 2>&1 ||
  { cat ck2w.out; fail "a 2-host checkpoint write"; }
written=$(json "$(newest_summary)" 'sum(c["bytes"] for c in d["checkpoints"] if c["operation"] == "write")')
cephfs_mpirun 120 -np 2 "$TB" run llama3_8b "${small[@]}" "checkpoint.checkpoint_folder=$ck2" \
  checkpoint.num_checkpoints_write=0 checkpoint.num_checkpoints_read=1 checkpoint.read_shard_offset=1 \
  --op-log "$WORK/ck2r.tsv" >ck2r.out 2>&1 || { cat ck2r.out; fail "a 2-host read of the other's shards"; }
read2=$(json "$(newest_summary)" 'sum(c["bytes"] for c in d["checkpoints"] if c["operation"] == "read")')
check "both hosts read every byte ($read2 of $written)" test "$read2" = "$written"
contains ck2r.out "(rank 1's shard)"
# Each rank's op-log (hosta's rank 0, hostb's rank 1) names only the other rank's shard files.
for r in 0 1; do
  other=$((1 - r))
  log=$WORK/ck2r.rank000$r.tsv
  grep -q "zero_pp_rank_${other}_" "$log" || fail "rank $r's op-log names no file of rank $other's shard"
  ! grep -q "zero_pp_rank_${r}_" "$log" || fail "rank $r read its own shard: $(grep "zero_pp_rank_${r}_" "$log" | head -n 2)"
  checks=$((checks + 1))
done
echo "PASS: cephfs traps ($checks checks)"
