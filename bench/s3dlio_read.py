"""s3dlio's side of bench/s3_read_vs_s3dlio.sh: reads every URI whole, PASSES times, with
s3dlio.get_many(uris, max_in_flight=C) (its defaults: the endpoint and keys from the AWS_*
environment). Prints one JSON line: the bytes received and the read phase's wall and CPU
seconds (the process's own start-up is outside them; /usr/bin/time around it has the whole).

    python bench/s3dlio_read.py URIS_FILE CONCURRENCY PASSES
"""
import json
import os
import sys
import time

# s3dlio imports its PyTorch, JAX and TensorFlow integrations when it finds them; with .venv's
# torch that alone costs ~2.6 CPU-s a start, none of it S3: hide them (get_many needs none).
for _name in ("torch", "jax", "tensorflow"):
    sys.modules[_name] = None
import s3dlio  # noqa: E402


def main():
    uris = [line.strip() for line in open(sys.argv[1]) if line.strip()]
    concurrency, passes = int(sys.argv[2]), int(sys.argv[3])
    t0, c0 = time.monotonic(), os.times()
    total = 0
    for _ in range(passes):
        got = s3dlio.get_many(uris, max_in_flight=concurrency)
        if len(got) != len(uris):
            sys.exit(f"s3dlio_read: get_many returned {len(got)} objects, not {len(uris)}")
        total += sum(len(memoryview(data)) for _, data in got)
        del got
    t1, c1 = time.monotonic(), os.times()
    cpu = (c1.user - c0.user) + (c1.system - c0.system)
    print(json.dumps({"bytes": total, "read_seconds": t1 - t0, "read_cpu_seconds": cpu,
                      "s3dlio": getattr(s3dlio, "__version__", "?")}))


if __name__ == "__main__":
    main()
