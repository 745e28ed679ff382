#!/usr/bin/env bash
# While `run` works, a terminal shows a block redrawn in place (epoch, step, samples/s, MB/s,
# AU so far, read p99, ETA), checked in tmux; event lines print above it and the table after
# it. When stderr is not a terminal, plain progress lines come every 10 intervals instead.
source "$(dirname "$0")/../lib/common.sh"
cd "$WORK"
skip_unless "command -v tmux" "no tmux (Debian's tmux)"
make_tiny_dataset
sock=$WORK/tmux.sock
tmux -S "$sock" new-session -d -x 150 -y 45 "cd $WORK && $TB run resnet50_h100 ${TINY[*]} \
  reader.batch_size=4 train.computation_time=0.05 train.epochs=3 --accelerators 4 \
  --interval 0.25 >$WORK/tmux.out; echo EXIT=\$? >>$WORK/tmux.out; sleep 60"
at_exit 'tmux -S "$sock" kill-server 2>/dev/null'
seen=""
for _ in $(seq 100); do
  tmux -S "$sock" capture-pane -p >pane.txt 2>/dev/null || true
  if grep -q "samples/s" pane.txt && grep -q "ETA ~" pane.txt && grep -q "read p99" pane.txt; then
    seen=yes
    break
  fi
  sleep 0.1
done
[ -n "$seen" ] || { cat pane.txt; fail "no live block on the terminal"; }
contains pane.txt "resnet50_h100 | train epoch"
contains pane.txt "AU "
contains pane.txt "(target 90%)"
# One block, redrawn in place: its title line appears once on screen.
[ "$(grep -c 'resnet50_h100 | ' pane.txt)" = 1 ] || { cat pane.txt; fail "the block is not redrawn in place"; }
for _ in $(seq 150); do
  grep -q EXIT= "$WORK/tmux.out" 2>/dev/null && break
  sleep 0.1
done
contains "$WORK/tmux.out" "EXIT=0"
tmux -S "$sock" capture-pane -p >end.txt
# Epoch lines were printed above the block, and the block stayed above nothing but them.
contains end.txt "epoch 3/3:"
[ "$(grep -c 'resnet50_h100 | ' end.txt)" = 1 ] || { cat end.txt; fail "stale blocks left on screen"; }

# Not a terminal: plain lines, about every 10 intervals (0.1 s here: every second). AU is "—"
# in a line that falls in an epoch's first 0.2 s (nothing measured yet).
"$TB" run resnet50_h100 "${TINY[@]}" reader.batch_size=4 train.computation_time=0.05 \
  train.epochs=3 --accelerators 4 --interval 0.1 >plain.out 2>plain.err || fail "plain run"
n=$(grep -c '^trainbench: progress ' plain.err || true)
[ "$n" -ge 2 ] || { cat plain.err; fail "expected progress lines on stderr, got $n"; }
grep -q $'\x1b' plain.err && fail "escape codes in a non-terminal's output"
grep '^trainbench: progress ' plain.err | head -1 | grep -Eq 'epoch [0-9]+/3 step [0-9]+/25 \| [0-9.]+ samples/s \| [0-9.]+ MB/s \| AU ([0-9.]+%|—) \| read p99 [0-9.]+ ms \| ETA' ||
  { cat plain.err; fail "progress line format"; }
checks=$((checks + 1))
done_ok
