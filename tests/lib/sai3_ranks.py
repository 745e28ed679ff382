"""What the ranks of a sai3-bench job under mpirun wrote, read from their op-logs: shared by
tests/mpi/sai3_run_test.sh and tests/s3/sai3_run_test.sh (imported, not run)."""
import csv
import json
import re


def prepared_puts(log_prefix, ranks, total):
    """Each rank's op-log LOG_PREFIX.rankNNNN.tsv: asserts that rank r PUT exactly prepared
    objects r, r + ranks, ... below TOTAL (prepare's 1/N each); returns every PUT's file and the
    count of GETs over all ranks."""
    files, gets = [], 0
    for rank in range(ranks):
        rows = list(csv.DictReader(open(f"{log_prefix}.rank{rank:04d}.tsv"), delimiter="\t"))
        puts = [r["file"] for r in rows if r["op"] == "PUT" and "prepared-" in r["file"]]
        numbers = sorted(int(re.search(r"prepared-(\d+)", p).group(1)) for p in puts)
        assert numbers == list(range(rank, total, ranks)), (rank, numbers)
        files += puts
        gets += sum(1 for r in rows if r["op"] == "GET")
    return files, gets


def merged_summary(path, ranks, total):
    """The summary.json at PATH: a sai3 job of RANKS ranks with no errors whose prepare wrote
    TOTAL objects; returned for further checks."""
    s = json.load(open(path))
    assert s["kind"] == "sai3" and s["ranks"] == ranks and s["errors"] == 0, s
    assert s["prepare"]["objects"] == total and s["prepare"]["written"] == total, s["prepare"]
    return s
