#!/usr/bin/env python3
"""bench_sim_scale_table.py — the table of bench_sim_scale.sh from its measurements.

Input: tab-separated rows "simulate <name> <run> <wall s> <max RSS KiB> <simulated s> <CPU s>"
and "export <name> 1 <platform.xml bytes> 0 0 0". Output: one markdown row per schedule with
the median wall time, CPU time and max RSS over its runs, the simulated time, the targets
and whether they are met (on wall time), and the speed-up over the time before (runs that
did not finish then: a lower bound); then the platform file's size against the 3.3 GB it
took before.
Exit status 1 when a target is missed.

usage: bench_sim_scale_table.py ROWS.tsv
"""
import math
import statistics
import sys

GIB = 1 << 30
# name prefix -> (time target s, RSS target bytes or None, time before s or None: a lower
# bound, those runs did not finish; bench_sim_scale.sh's header says when and how)
TARGETS = {"256 nodes, allreduce": (20, 2 * GIB, 600), "256 nodes, allgather": (20, 2 * GIB, 200),
           "256 nodes, alltoall": (20, 2 * GIB, 400), "1024 nodes": (120, None, None)}
EXPORT_BEFORE = 3.3e9  # bytes: kautz(4,5) with every route declared (routing="Full")


def main(path):
    runs, exports = {}, {}
    for line in open(path):
        kind, name, _run, a, b, c, cpu = line.rstrip("\n").split("\t")
        if kind == "simulate":
            runs.setdefault(name, []).append((float(a), int(b) * 1024, float(c), float(cpu)))
        else:
            exports[name] = int(a)
    missed = False
    print("| schedule (1 MB, checked, no SMPI algorithms) | runs | median wall | median CPU | median max RSS "
          "| simulated | target | met | before | speed-up |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | --- | --- | ---: | ---: |")
    for name, rs in runs.items():
        t_max, rss_max, before = next(v for k, v in TARGETS.items() if name.startswith(k + ","))
        target = f"<= {t_max} s" + (f", <= {rss_max / GIB:g} GiB" if rss_max else "")
        if any(math.isnan(r[2]) for r in rs):  # timed out: the bench's --timeout bounds it
            missed = True
            # no RSS: the killed simulation is not among the processes /usr/bin/time waited for
            print(f"| {name} | {len(rs)} | > {rs[-1][0]:.0f} s (timed out) | - | - | - | {target} | missed "
                  f"| {f'> {before} s' if before else 'not measured'} | - |")
            continue
        wall = statistics.median(r[0] for r in rs)
        rss = statistics.median(r[1] for r in rs)
        cpu = statistics.median(r[3] for r in rs)
        sim = {r[2] for r in rs}
        ok = wall <= t_max and (rss_max is None or rss <= rss_max)
        missed |= not ok
        speed = f">= {before / wall:.0f}x" if before else "-"
        print(f"| {name} | {len(rs)} | {wall:.1f} s | {cpu:.1f} s | {rss / GIB:.2f} GiB | "
              f"{', '.join(f'{t * 1e6:.3f} us' for t in sorted(sim))} | {target} | {'met' if ok else 'missed'} "
              f"| {f'> {before} s' if before else 'not measured'} | {speed} |")
    print()
    for name, size in exports.items():
        print(f"- `topocoll export '{name}' --format simgrid`: platform.xml {size / 1e6:.1f} MB "
              f"(before: {EXPORT_BEFORE / 1e9:.1f} GB, {EXPORT_BEFORE / size:.0f}x larger)")
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
