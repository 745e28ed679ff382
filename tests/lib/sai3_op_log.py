"""Writes a sai3-bench-style op-log (its TSV columns, relative keys under an endpoint) for the
replay tests: one operation a second, threads alternating.
Usage: sai3_op_log.py OUT ENDPOINT OP:BYTES:KEY..."""
import sys

HEAD = "idx thread op client_id n_objects bytes endpoint file error start first_byte end duration_ns"
out, endpoint, ops = sys.argv[1], sys.argv[2], sys.argv[3:]
with open(out, "w") as f:
    f.write("\t".join(HEAD.split()) + "\n")
    for i, spec in enumerate(ops):
        op, size, key = spec.split(":", 2)
        t = f"2026-01-01T00:00:{i:02d}.25Z"
        f.write("\t".join(map(str, [i, i % 2, op, "agent-1", 1, size, endpoint, key, "", t, "", t,
                                    1000])) + "\n")
