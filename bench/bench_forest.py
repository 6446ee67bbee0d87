#!/usr/bin/env python3
"""bench_forest.py — `topocoll forest` (ForestColl, paper 001) timed end to end.

What the user runs: the whole command (build the fabric, search, switch removal, tree
packing, map-back, verification, report), each a fresh process, run once to warm the page
cache and then RUNS times; wall time from fork to exit and the process's peak resident
memory (wait4's ru_maxrss). A command that exits non-zero aborts the benchmark.

Table 1 compares with the authors' public Python implementation (networkx) on the figures
the project set as references (issue "ForestColl", §6): about 4-30 s on A100 2x8 (the table
uses 4 s, the favourable end for the reference), 28 s on A100 x4 and 119 s on MI250 x4 at
k = 2; for MI250 2x16 at the optimal k = 83 the Python pipeline's 53 s, as recomputed for
the paper's digest. Targets: >= 100x on A100 x4 and MI250 x2 (k = 83), <= 1.2 s on MI250 x4
at k = 2, <= 60 s and <= 4 GiB on dgx_a100(128) (1024 GPUs; the paper's Java implementation
took "within 10^4 s").

Table 2 is the scaling table: dgx_a100(n) for n = 2 ... 128 clusters, time, the max-flows
of each phase (from the report's "work" line) and memory.

usage: bench_forest.py --bin PATH/topocoll [--runs 3] [--max-clusters 128]
"""
import argparse
import os
import re
import statistics
import subprocess
import sys
import time


def run_once(argv):
    """One run whose time is not counted (it warms the page cache); aborts on failure."""
    proc = subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    if proc.returncode != 0:
        sys.exit(f"bench_forest: {' '.join(argv)} exited {proc.returncode}: {proc.stderr.decode().strip()}")


def measure(binary, args, runs):
    """Median wall time, peak RSS in MiB (largest over the runs), and the last report."""
    argv = [binary] + args
    run_once(argv)  # warm-up
    times, peak, report = [], 0, ""
    for _ in range(runs):
        t0 = time.monotonic()
        proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        out = proc.stdout.read()
        _, status, usage = os.wait4(proc.pid, 0)
        times.append(time.monotonic() - t0)
        if os.waitstatus_to_exitcode(status) != 0:
            sys.exit(f"bench_forest: {' '.join(argv)} exited {os.waitstatus_to_exitcode(status)}")
        peak = max(peak, usage.ru_maxrss / 1024.0)
        report = out.decode()
    return statistics.median(times), min(times), peak, report


def work(report):
    """(search, split, pack) max-flows summed over the report's parts."""
    s = sp = pk = 0
    for m in re.finditer(r"\((\d+) max-flows\); switch removal (\d+) max-flows; packing (\d+) max-flows", report):
        s, sp, pk = s + int(m.group(1)), sp + int(m.group(2)), pk + int(m.group(3))
    return s, sp, pk


def algbw(report):
    """The collective's algbw: the allreduce line when there is one, else the only part's."""
    m = re.search(r"^  allreduce\s+algbw ([\d.]+)", report, re.M) or \
        re.search(r"(?:optimum|fixed k)\s+algbw ([\d.]+)", report)
    return m.group(1) if m else "-"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--max-clusters", type=int, default=128)
    a = ap.parse_args()
    missed = 0

    print("## topocoll forest against the authors' Python (median of %d runs)\n" % a.runs)
    print("| command | algbw GB/s | median s | min s | peak MiB | reference s | speed-up | target | |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    cases = [
        ("forest 'dgx_a100(2)'", ["forest", "dgx_a100(2)"], 4.0, None, None),
        ("forest 'dgx_a100(4)'", ["forest", "dgx_a100(4)"], 28.0, 100.0, None),
        ("forest 'mi250(2)'  (k = 83)", ["forest", "mi250(2)"], 53.0, 100.0, None),
        ("forest 'mi250(4)' --k 2", ["forest", "mi250(4)", "--k", "2"], 119.0, None, 1.2),
        ("forest 'dgx_a100(2)' --coll allreduce", ["forest", "dgx_a100(2)", "--coll", "allreduce"], None, None, None),
    ]
    if a.max_clusters >= 128:
        cases.append(("forest 'dgx_a100(128)'  (1024 GPUs)", ["forest", "dgx_a100(128)"], None, None, 60.0))
    for label, args, ref, speedup_target, time_target in cases:
        med, lo, peak, report = measure(a.bin, args, a.runs)
        ratio = ref / med if ref else None
        ok = True
        target = ""
        if speedup_target:
            target = ">= %gx" % speedup_target
            ok = ratio >= speedup_target
        if time_target:
            target = "<= %g s" % time_target + (", <= 4096 MiB" if "128" in label else "")
            ok = med <= time_target and (peak <= 4096 if "128" in label else True)
        missed += not ok
        print("| `%s` | %s | %.3f | %.3f | %.0f | %s | %s | %s | %s |" % (
            label, algbw(report), med, lo, peak, "%g" % ref if ref else "-", "%.0fx" % ratio if ratio else "-",
            target or "-", ("met" if ok else "MISSED") if target else ""))

    print("\n## scaling: dgx_a100(n), allgather at the optimum\n")
    print("| clusters | GPUs | algbw GB/s | median s | search max-flows | split max-flows | pack max-flows | peak MiB |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    n = 2
    while n <= a.max_clusters:
        med, lo, peak, report = measure(a.bin, ["forest", "dgx_a100(%d)" % n], max(1, a.runs if n <= 32 else 1))
        s, sp, pk = work(report)
        print("| %d | %d | %s | %.3f | %d | %d | %d | %.0f |" % (n, 8 * n, algbw(report), med, s, sp, pk, peak))
        n *= 2
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
