#!/usr/bin/env python3
"""bench_exec_table.py — the markdown table of bench_exec.sh for one (np, baseline).

usage: bench_exec_table.py NP BASELINE REPORT.json...
Each REPORT is one `topocoll run --json` output (several runs, several size bands); each
time in it is the median over the iterations of the slowest rank. Per size, over the runs:
the best (least) time of the executor and of MPI and the ratio of the two — on a shared
machine other load only ever adds time, so the best run is the closest to what the
machine can do — and the median of the per-run ratios executor / MPI (each run times both
in the same processes on the same data). Every result must be verified; anything else is
an error (exit 1).
"""
import json
import statistics
import sys


def fmt_size(b):
    for unit, n in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if b >= n and b % n == 0:
            return f"{b // n} {unit}"
    return f"{b} B"


def fmt_time(s):
    if s < 1e-3:
        return f"{s * 1e6:.1f} us"
    if s < 1:
        return f"{s * 1e3:.3f} ms"
    return f"{s:.3f} s"


def main():
    np, baseline, files = sys.argv[1], sys.argv[2], sys.argv[3:]
    per_size = {}
    for path in files:
        with open(path) as f:
            report = json.load(f)
        if report["verified"] is not True or report["np"] != int(np):
            sys.exit(f"bench_exec_table.py: {path}: not verified or wrong np")
        for r in report["results"]:
            if r["verified"] is not True or not r["time_s"] or not r["mpi_time_s"]:
                sys.exit(f"bench_exec_table.py: {path}: size {r['size_bytes']} not verified or not timed")
            per_size.setdefault(r["size_bytes"], []).append((r["time_s"], r["mpi_time_s"]))
    name = "Open MPI ring (coll_tuned_allreduce_algorithm 4)" if baseline == "ring" else "Open MPI default"
    print(f"\n### {np} ranks: ring plan by the executor vs {name}\n")
    print("| size | executor | MPI_Allreduce | ratio | median ratio | algbw executor | algbw MPI | runs |")
    print("| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for size in sorted(per_size):
        pairs = per_size[size]
        t = min(p[0] for p in pairs)
        m = min(p[1] for p in pairs)
        median_ratio = statistics.median(p[0] / p[1] for p in pairs)
        print(f"| {fmt_size(size)} | {fmt_time(t)} | {fmt_time(m)} | {t / m:.2f} | {median_ratio:.2f} "
              f"| {size / t / 1e9:.3f} GB/s | {size / m / 1e9:.3f} GB/s | {len(pairs)} |")


if __name__ == "__main__":
    main()
