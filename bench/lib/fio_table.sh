# Shared by bench/run_vs_fio.sh and bench/parquet_vs_fio.sh: sourced, not run.

# fio_table REPEAT THREADS...: per thread count and engine pair (fio psync vs trainbench
# pread, fio io_uring vs trainbench --io-engine uring), the best of REPEAT rounds of each
# tool (rounds alternate the tools, so load hits both alike): read GB/s, GB per CPU-second
# and their ratios. The caller defines `fio_run ENGINE JOBS` and `tb_run THREADS ENGINE`,
# each printing "GB/s GB_per_cpu_s [NOTE...]"; notes (the last round's) end the line.
fio_table() {
  local repeat=$1 t pair fio_engine tb_engine f b
  shift
  printf "%-8s %-15s %9s %9s %7s %13s %13s %7s\n" threads engine "fio GB/s" "tb GB/s" ratio \
    "fio GB/CPU-s" "tb GB/CPU-s" ratio
  for t in "$@"; do
    for pair in "psync pread" "io_uring uring"; do
      read -r fio_engine tb_engine <<<"$pair"
      f="0 0" b="0 0"
      for _ in $(seq "$repeat"); do
        f=$(_fio_table_best "$f" "$(fio_run "$fio_engine" "$t")")
        b=$(_fio_table_best "$b" "$(tb_run "$t" "$tb_engine")")
      done
      /usr/bin/python3 -c 'import sys
t, e, f, b = sys.argv[1:]
f = f.split(); b = b.split()
r = [float(x) for x in f[:2]]; s = [float(x) for x in b[:2]]
notes = " fio: " + " ".join(f[2:]) + "; tb: " + " ".join(b[2:]) if len(f) > 2 else ""
print(f"{t:<8} {e:<15} {r[0]:9.2f} {s[0]:9.2f} {s[0]/r[0]:7.2f} {r[1]:13.2f} {s[1]:13.2f} {s[1]/r[1]:7.2f}{notes}")' \
        "$t" "$fio_engine/$tb_engine" "$f" "$b"
    done
  done
}

# _fio_table_best "a b [notes]" "c d [notes]": element-wise maximum of the two rates, the
# second's notes.
_fio_table_best() {
  /usr/bin/python3 -c 'import sys; a=sys.argv[1].split(); b=sys.argv[2].split(); print(*[max(float(x), float(y)) for x, y in zip(a[:2], b[:2])], *b[2:])' "$1" "$2"
}
