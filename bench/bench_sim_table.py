#!/usr/bin/env python3
"""bench_sim_table.py — the table of bench_sim.sh from `topocoll simulate --json` outputs.

One markdown row per topology and size: the BFB allreduce's simulated time, the best SMPI
algorithm and its time, their ratio (SMPI / BFB: above 1, BFB is faster), the alpha-beta
lower bound T_L* alpha + tau* M/B and the ratio simulated / bound. Then the project's
targets, each marked met or missed: SMPI / BFB >= 1.5 at 1 MiB on the low-diameter
topologies (every one whose diameter-optimal T_L* is below the torus's, i.e. all but
tori), and simulated / bound <= 1.10 at 1 GiB; and the fit of paper 000 A.2 per topology.

usage: bench_sim_table.py OUT.json...
"""
import json
import sys

MIB, GIB = 1 << 20, 1 << 30


def fmt_size(b):
    for unit, n in (("GiB", GIB), ("MiB", MIB), ("KiB", 1 << 10)):
        if b >= n and b % n == 0:
            return f"{b // n} {unit}"
    return f"{b} B"


def fmt_time(t):
    if t is None:
        return "-"
    if t < 1e-3:
        return f"{t * 1e6:.2f} us"
    if t < 1:
        return f"{t * 1e3:.3f} ms"
    return f"{t:.3f} s"


def main(paths):
    runs = [json.load(open(p)) for p in paths]
    print("| topology | N | size | BFB simulated | best SMPI algorithm | SMPI time | SMPI / BFB "
          "| α-β lower bound | simulated / bound |")
    print("| --- | ---: | ---: | ---: | --- | ---: | ---: | ---: | ---: |")
    for j in runs:
        for r in j["results"]:
            best, t = r["smpi_best_algorithm"], r["smpi_best_time_s"]
            ratio = f"{t / r['sim_time_s']:.2f}" if t else "-"
            bound = r["bound_time_s"]
            over = f"{r['sim_time_s'] / bound:.3f}" if bound else "-"
            print(f"| `{j['spec']}` | {j['nodes']} | {fmt_size(r['size_bytes'])} | {fmt_time(r['sim_time_s'])} "
                  f"| {best or '-'} | {fmt_time(t)} | {ratio} | {fmt_time(bound)} | {over} |")
    print()
    print("Targets:")
    for j in runs:
        at = {r["size_bytes"]: r for r in j["results"]}
        low_diameter = not j["spec"].startswith("torus")
        if low_diameter and MIB in at and at[MIB]["smpi_best_time_s"]:
            r = at[MIB]
            ratio = r["smpi_best_time_s"] / r["sim_time_s"]
            print(f"- `{j['spec']}` at 1 MiB: {ratio:.2f}x faster than SMPI's best ({r['smpi_best_algorithm']}); "
                  f"target >= 1.5x: {'met' if ratio >= 1.5 else 'missed'}")
        if GIB in at and at[GIB]["bound_time_s"]:
            r = at[GIB]
            over = r["sim_time_s"] / r["bound_time_s"]
            print(f"- `{j['spec']}` at 1 GiB: simulated / lower bound = {over:.3f} (tau {j['tb_factor']} against the "
                  f"optimum {j['bound_tb_factor']}); target <= 1.10: {'met' if over <= 1.10 else 'missed'}")
    print()
    print("Cost-model fit (paper 000 A.2) from the simulated BFB times:")
    for j in runs:
        f = j["fit"]
        if f is None:
            print(f"- `{j['spec']}`: {j.get('fit_error', 'no fit')}")
            continue
        print(f"- `{j['spec']}`: alpha {f['alpha_s'] * 1e6:.4f} us ({f['alpha_rel_err'] * 100:+.3f} %), "
              f"1/B {f['inv_bw_s_per_byte']:.5g} s/B ({f['inv_bw_rel_err'] * 100:+.3f} %), "
              f"max |model - simulated| / simulated {f['max_rel_err'] * 100:.3f} %")
    print()
    for j in runs:
        ran = [a["name"] for a in j["smpi_algorithms"] if a["status"] == "ok"]
        print(f"`{j['spec']}`: SMPI algorithms that ran at every size: {', '.join(ran) or 'none'}")
        for a in j["smpi_algorithms"]:
            if a["status"] == "partial":
                missing = ", ".join(fmt_size(b) for b in a["missing_sizes"])
                print(f"  - {a['name']}: no time at {missing}: {a['reason']}")
            elif a["status"] == "skipped":
                print(f"  - {a['name']}: skipped: {a['reason']}")


if __name__ == "__main__":
    main(sys.argv[1:])
