#!/usr/bin/env python3
"""bench_a2a_tables.py — paper 000's all-to-all column (Table 7's MCF, Table 4's all-to-all
times) beside ours, every value certified (docs/reproduction.md).

For every row of paper 000 Table 7 (App. A.3) the paper's topology is built from its spec
(the reading of docs/reproduction.md) and `topocoll a2a SPEC --method dw --gap G
--time-limit T --json` certifies its MCF value f: a lower bound from checked flows and an
upper bound from dual lengths, both exact rationals. The bound row is `topocoll find
--json`'s bound.mcf, d/S_min(N,d) (paper 003 Theorem 1). Each printed value (3 significant
digits, so it stands for the interval printed ± half a unit of its last digit) is then
judged against our interval:
  agrees      the two intervals meet;
  too high    our certified upper bound lies below the printed interval: no flow reaches the
              printed value (the dual lengths prove it);
  too low     our certified lower bound lies above it: a checked flow beats it, so the
              printed value is not the optimum.
Table 4 (N = 1024, M = 1 MB = 2^20 B, 25 Gbps links, α irrelevant) is
T = (M/N)/(f·b) at our lower bound of f, beside the paper's µs.

Times are what the user waits for: each command is a fresh process, wall time printed.
The N = 512 and 1024 rows take minutes each on 2 cores (column generation without a large
automorphism group); --max-n limits the run.

usage: bench_a2a_tables.py --bin PATH/topocoll [--gap 1e-4] [--limit 300] [--max-n 1024]
"""
import argparse
import json
import subprocess
from fractions import Fraction

import a2a_certify

# (N, paper's name, our spec, printed MCF); the bound rows are computed, printed beside.
TABLE7 = [
    (32, "L(K_{4,4})", "line(bipartite(4))", "5.71e-2"),
    (32, "DistReg(4,32)", "drg(ag24-minus)", "5.26e-2"),
    (64, "Π_{4,64}", "genkautz(4,64)", "2.17e-2"),
    (64, "L(DBJMod(4,2))", "line(dbjmod(4,2))", "2.21e-2"),
    (64, "Diamond^□2", "power(diamond(),2)", "1.87e-2"),
    (128, "L^2(K_{4,4})", "line(bipartite(4),2)", "9.89e-3"),
    (128, "L(DistReg(4,32))", "line(drg(ag24-minus))", "9.26e-3"),
    (128, "BiRing(2,8)□UniRing(1,4)^□2", "product(biring(2,8),power(uniring(1,4),2))", "5.21e-3"),
    (256, "DBJ(4,4)", "debruijn(4,4)", "4.04e-3"),
    (256, "L^2(DBJMod(4,2))", "line(dbjmod(4,2),2)", "4.10e-3"),
    (256, "L(Diamond^□2)", "line(power(diamond(),2))", "3.62e-3"),
    (256, "DBJMod(2,4)^□2", "power(dbjmod(2,4),2)", "2.94e-3"),
    (512, "L^3(K_{4,4})", "line(bipartite(4),3)", "1.88e-3"),
    (512, "L^2(DistReg(4,32))", "line(drg(ag24-minus),2)", "1.78e-3"),
    (512, "L(UniRing(1,4)^□3□UniRing(1,2))", "line(product(power(uniring(1,4),3),uniring(1,2)))", "1.12e-3"),
    (512, "UniRing(1,4)^□3□UniRing(1,8)", "product(power(uniring(1,4),3),uniring(1,8))", "5.58e-4"),
    (1024, "Π_{4,1024}", "genkautz(4,1024)", "8.01e-4"),
    (1024, "L^3(C(16,{3,4}))", "line(circulant(16,3,4),3)", "8.12e-4"),
    (1024, "L^2(Diamond^□2)", "line(power(diamond(),2),2)", "7.34e-4"),
    (1024, "L(DBJMod(2,4)^□2)", "line(power(dbjmod(2,4),2))", "6.18e-4"),
    (1024, "(UniRing(1,4)□UniRing(1,8))^□2", "power(product(uniring(1,4),uniring(1,8)),2)", "2.79e-4"),
]
BOUNDS = {32: "5.80e-2", 64: "2.42e-2", 128: "1.00e-2", 256: "4.39e-3", 512: "1.90e-3", 1024: "8.57e-4"}
# Table 4: the N = 1024 members' all-to-all times (µs) and the bound's.
TABLE4_US = {"genkautz(4,1024)": 409.1, "line(circulant(16,3,4),3)": 403.5, "line(power(diamond(),2),2)": 446.6,
             "line(power(dbjmod(2,4),2))": 529.9, "power(product(uniring(1,4),uniring(1,8)),2)": 1174.4,
             "bound": 382.3}
M_BYTES, LINK_BW = 2**20, 25e9 / 8  # 1 MB = 2^20 B, 25 Gbps per link (paper 000 §8.3)


def interval(printed):
    """The values that print as `printed` (3 significant digits): value ± half a last digit."""
    mant, exp = printed.split("e")
    value = Fraction(mant) * Fraction(10) ** int(exp)
    half = Fraction(5, 1000) * Fraction(10) ** int(exp)
    return value - half, value + half


def verdict(printed, lower, upper):
    lo, hi = interval(printed)
    if upper < lo:
        return "too high (f <= our upper bound < printed)"
    if lower > hi:
        return "too low (a checked flow beats it)"
    return "agrees"


def certify(binary, spec, gap, limit):
    doc, seconds = a2a_certify.certify(binary, spec, gap, limit, "bench_a2a_tables")
    return (Fraction(doc["lower_bound_exact"]), Fraction(doc["upper_bound_exact"]), doc["exact"], doc["gap"],
            seconds)


def bound(binary, n):
    proc = subprocess.run([binary, "find", "--nodes", str(n), "--degree", "4", "--json"], capture_output=True,
                          text=True, check=True)
    return Fraction(json.loads(proc.stdout)["bound"]["mcf"])


def a2a_us(f):
    return (M_BYTES / 1024) / (float(f) * LINK_BW) * 1e6


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    ap.add_argument("--gap", type=float, default=1e-4)
    ap.add_argument("--limit", type=float, default=300)
    ap.add_argument("--max-n", type=int, default=1024)
    a = ap.parse_args()
    print("Paper 000 Table 7, MCF column (d = 4): printed vs certified (topocoll a2a --method dw "
          f"--gap {a.gap:g} --time-limit {a.limit:g}s)\n")
    print(f"{'N':>5}  {'paper topology':<34} {'printed':>8}  {'ours: f (exact) or [lower, upper]':<44} "
          f"{'s':>7}  verdict")
    ours = {}
    last_n = None
    for n, name, spec, printed in TABLE7:
        if n > a.max_n:
            continue
        if last_n is not None and n != last_n:
            print_bound(a.bin, last_n)
        last_n = n
        lower, upper, exact, gap, seconds = certify(a.bin, spec, a.gap, a.limit)
        ours[spec] = lower
        cell = f"{float(lower):.3e} = {lower}" if exact else f"[{float(lower):.5e}, {float(upper):.5e}] gap {gap:.1e}"
        print(f"{n:>5}  {name:<34} {printed:>8}  {cell:<44} {seconds:>7.1f}  {verdict(printed, lower, upper)}",
              flush=True)
    if last_n is not None:
        print_bound(a.bin, last_n)
    if a.max_n >= 1024:
        print("\nPaper 000 Table 4, all-to-all column (N = 1024, M = 1 MB, 25 Gbps links): "
              "(M/N)/(f·b) at our certified lower bound\n")
        for spec, paper in TABLE4_US.items():
            f = bound(a.bin, 1024) if spec == "bound" else ours[spec]
            print(f"  {spec:<48} paper {paper:>7.1f} µs   ours {a2a_us(f):>7.1f} µs")


def print_bound(binary, n):
    b = bound(binary, n)
    printed = BOUNDS[n]
    print(f"{n:>5}  {'theoretical bound d/S_min':<34} {printed:>8}  {f'{float(b):.3e} = {b}':<44} {'':>7}  "
          f"{verdict(printed, b, b)}", flush=True)


if __name__ == "__main__":
    main()
