#!/usr/bin/env python3
"""repro_multiport_table.py — the sizes and tables of repro_multiport.sh (paper 002's SimGrid
experiments, digest-002 §7-§8).

  blocks LIST              check a --sizes list of per-destination blocks b (comma list or a
                           doubling range A..B; B, KiB, MiB, GiB: powers of two) and print it
                           in bytes; a bad list is one error line and exit 2
  msizes COLL N LIST       simulate's --sizes for COLL on N ranks: M = b N for alltoall,
                           allgather and scatter, M = b for allreduce (the vector) and p2p
  merge J1 J2...           one simulate JSON from several runs of one plan at different sizes
  table DIR...             the tables of the DIRs' SETUP.COLL.ALGO.BWTAG.json (simulate --json):
                           every run, then each headline number of the dissertation beside
                           our simulated value and the alpha-beta model's; one run kept in
                           several DIRs (runs of the same plan at other sizes) is one run

The headline rows take the claim's setup and block size when the run has them; otherwise the
nearest it has, and the "at" column says so with a '*'. A value the run cannot give is said
in words, never filled in. SMPI's own algorithms have no schedule here, so no model value.
"""
import json
import math
import os
import re
import sys

UNITS = {"B": 1, "KiB": 1 << 10, "MiB": 1 << 20, "GiB": 1 << 30}


def die(msg):
    print(f"repro_multiport.sh: {msg}", file=sys.stderr)
    sys.exit(2)


def parse_size(text):
    m = re.fullmatch(r"(\d+)(B|KiB|MiB|GiB)", text)
    if not m or int(m.group(1)) == 0:
        die(f"--sizes: bad size '{text}' (a positive whole number of B, KiB, MiB or GiB, e.g. 64KiB)")
    return int(m.group(1)) * UNITS[m.group(2)]


def parse_blocks(text):
    if ".." in text:
        lo, hi = (parse_size(p) for p in text.split("..", 1))
        if lo > hi:
            die(f"--sizes: empty range '{text}'")
        out = []
        while lo <= hi:
            out.append(lo)
            lo *= 2
        return out
    return [parse_size(p) for p in text.split(",")]


def per_rank_blocks(coll):
    """whether simulate's M is b N (a block per rank) rather than b"""
    return coll not in ("allreduce", "p2p")


def msize(coll, n, b):
    return b * n if per_rank_blocks(coll) else b


def fmt_size(b):
    for unit in ("GiB", "MiB", "KiB"):
        if b >= UNITS[unit] and b % UNITS[unit] == 0:
            return f"{b // UNITS[unit]} {unit}"
    return f"{b} B"


def fmt_time(t):
    if t is None:
        return "-"
    if t < 1e-3:
        return f"{t * 1e6:.4f} us"
    if t < 1:
        return f"{t * 1e3:.4f} ms"
    return f"{t:.4f} s"


class Runs:
    """(setup, coll, algo, bwtag) -> {b: (simulated, model)}; SMPI algorithms as 'smpi:NAME'
    with no model."""

    def __init__(self, dirs):
        self.data, self.specs, self.order = {}, {}, []
        for d, name in sorted((d, name) for d in dirs for name in os.listdir(d)):
            parts = name.split(".")
            if len(parts) != 5 or parts[4] != "json":
                continue
            setup, coll, algo, tag = parts[:4]
            try:
                with open(os.path.join(d, name)) as f:
                    j = json.load(f)
            except ValueError:  # a run still writing, or one that was interrupted
                print(f"repro_multiport.sh: {name}: not a finished simulate --json; left out",
                      file=sys.stderr)
                continue
            n = j["nodes"]
            self.specs[setup, coll, algo, tag] = (j["spec"], n)
            for r in j["results"]:
                b = r["size_bytes"] // n if per_rank_blocks(coll) else r["size_bytes"]
                self.put((setup, coll, algo, tag), b, r["sim_time_s"], r["model_time_s"])
                for smpi, t in (r.get("smpi_time_s") or {}).items():
                    if t is not None:
                        self.specs[setup, coll, "smpi:" + smpi, tag] = (j["spec"], n)
                        self.put((setup, coll, "smpi:" + smpi, tag), b, t, None)
        self.setups = sorted({k[0] for k in self.data})

    def put(self, key, b, sim, model):
        if key not in self.data:
            self.data[key] = {}
            self.order.append(key)
        self.data[key][b] = (sim, model)

    def setup(self, family, want):
        """the setup of FAMILY nearest WANT (its size parameter), and whether it is WANT"""
        have = [int(s[len(family):]) for s in self.setups
                if s.startswith(family) and s[len(family):].isdigit()]
        if not have:
            return None, False
        best = min(have, key=lambda a: (abs(a - want), a))
        return f"{family}{best}", best == want

    def block(self, key, want):
        """the run's block nearest WANT in log scale, and whether it is WANT"""
        have = self.data.get(key)
        if not have:
            return None, False
        best = min(have, key=lambda b: (abs(math.log(b / want)), b))
        return best, best == want

    def key(self, setup, coll, algo, tag=None):
        """the run of ALGO on SETUP at link rate TAG (None: the setup's only rate)"""
        for k in self.order:
            if k[:3] == (setup, coll, algo) and (tag is None or k[3] == tag):
                return k
        return (setup, coll, algo, tag)

    def get(self, key, b):
        return self.data.get(key, {}).get(b)


def ratio(x, y):
    return f"{x / y:.2f}" if x is not None and y is not None and y > 0 else "-"


class Headlines:
    def __init__(self, runs):
        self.r = runs
        self.rows = []

    def row(self, num, claim, paper, at, sim, model):
        self.rows.append((num, claim, paper, at, sim, model))

    def missing(self, num, claim, paper, why):
        self.row(num, claim, paper, "-", why, "-")

    def pair(self, num, claim, paper, family, want_m, coll, num_algo, den_algo, want_b, tag=None):
        """time(num_algo) / time(den_algo) at (family want_m, want_b): simulated and model"""
        setup, exact_s = self.r.setup(family, want_m)
        if setup is None:
            return self.missing(num, claim, paper, f"not in this run (setup {family}{want_m})")
        ka, kb = self.r.key(setup, coll, num_algo, tag), self.r.key(setup, coll, den_algo, tag)
        b, exact_b = self.r.block(kb, want_b)
        va, vb = self.r.get(ka, b) if b else None, self.r.get(kb, b) if b else None
        if va is None or vb is None:
            return self.missing(num, claim, paper, f"not in this run ({coll} {num_algo}/{den_algo} on {setup})")
        model = ratio(va[1], vb[1]) if va[1] is not None and vb[1] is not None else "- (SMPI algorithm)"
        star = "" if exact_s and exact_b else "*"
        self.row(num, claim, paper, f"{setup}, b = {fmt_size(b)}{star}", ratio(va[0], vb[0]), model)

    def times(self, num, claim, paper, family, want_m, coll, algos, want_b, tag=None):
        setup, exact_s = self.r.setup(family, want_m)
        if setup is None:
            return self.missing(num, claim, paper, f"not in this run (setup {family}{want_m})")
        b, exact_b = self.r.block(self.r.key(setup, coll, algos[0], tag), want_b)
        vals = [(a, self.r.get(self.r.key(setup, coll, a, tag), b) if b else None) for a in algos]
        if any(v is None for _, v in vals):
            return self.missing(num, claim, paper, f"not in this run ({coll} on {setup})")
        sim = ", ".join(f"{a.replace('smpi:', '')} {fmt_time(v[0])}" for a, v in vals)
        model = ", ".join(f"{a} {fmt_time(v[1])}" for a, v in vals if v[1] is not None) or "- (SMPI algorithms)"
        star = "" if exact_s and exact_b else "*"
        self.row(num, claim, paper, f"{setup}, b = {fmt_size(b)}{star}", sim, model)

    def extreme(self, num, claim, paper, family, want_m, coll, num_algo, den_algo, lo=None, hi=None, fn=max):
        """fn over the run's blocks in [lo, hi] of time(num_algo) / time(den_algo)"""
        setup, exact_s = self.r.setup(family, want_m)
        ka, kb = self.r.key(setup, coll, num_algo), self.r.key(setup, coll, den_algo)
        common = sorted(set(self.r.data.get(ka, {})) & set(self.r.data.get(kb, {})))
        blocks = [b for b in common if (lo is None or b >= lo) and (hi is None or b <= hi)]
        if setup is None or not blocks:
            return self.missing(num, claim, paper, f"not in this run ({coll} {num_algo}/{den_algo} on {family}{want_m})")
        sims = {b: self.r.get(ka, b)[0] / self.r.get(kb, b)[0] for b in blocks}
        models = {b: self.r.get(ka, b)[1] / self.r.get(kb, b)[1] for b in blocks}
        bs, bm = fn(sims, key=sims.get), fn(models, key=models.get)
        star = "" if exact_s else "*"
        span = f"{fmt_size(blocks[0])}..{fmt_size(blocks[-1])}"
        self.row(num, claim, paper, f"{setup}, b in {span}{star}",
                 f"{sims[bs]:.2f} at {fmt_size(bs)}", f"{models[bm]:.2f} at {fmt_size(bm)}")

    def p2p(self, want_d):
        """K10 and K11: multi-path over single-path P2P from one source, its destinations'
        times summed over §3.3.1's types, each type's one simulated destination weighted
        by how many there are: d^2 - 1 of type 1, 1 of type 2, d - 1 of type 3 (Eq. 3.9's
        average, whose limit is (2d^2 + d - 2) / (3(d + 1)))"""
        setup, exact_s = self.r.setup("kautz", want_d)
        claims = (("K10", "multi-path P2P / single path, 2-500 MB, K(16,2)", "6.1-10.3"),
                  ("K11", "P2P limit (2d^2+d-2)/(3(d+1)), d = 16", "10.31"))
        keys = {(a, t): self.r.key(setup, "p2p", f"kautz-{a}-t{t}") for a in ("mp", "sp") for t in (1, 2, 3)}
        common = sorted(set.intersection(*(set(self.r.data.get(k, {})) for k in keys.values()))) if setup else []
        if not common:
            for num, claim, paper in claims:
                self.missing(num, claim, paper, f"not in this run (p2p kautz-mp/kautz-sp on kautz{want_d})")
            return
        d = int(setup[len("kautz"):])
        weight = {1: d * d - 1, 2: 1, 3: d - 1}

        def speedup(b, kind):
            total = {a: sum(weight[t] * self.r.get(keys[a, t], b)[kind] for t in weight) for a in ("sp", "mp")}
            return total["sp"] / total["mp"]
        star = "" if exact_s else "*"
        sims = [speedup(b, 0) for b in common]
        models = [speedup(b, 1) for b in common]
        span = f"{fmt_size(common[0])}..{fmt_size(common[-1])}"
        self.row("K10", claims[0][1], claims[0][2], f"{setup}, M in {span}{star}",
                 f"{min(sims):.2f}-{max(sims):.2f}", f"{min(models):.2f}-{max(models):.2f}")
        limit = (2 * d * d + d - 2) / (3 * (d + 1))
        self.row("K11", claims[1][1], claims[1][2], f"{setup}, M = {fmt_size(common[-1])}{star}",
                 f"{sims[-1]:.2f} (limit at d = {d}: {limit:.2f})", f"{models[-1]:.2f}")

    def sweep(self, num, claim, paper, coll, num_algo, den_algos):
        setup, exact_s = self.r.setup("sweep", 8)
        if setup is None:
            return self.missing(num, claim, paper, "not in this run (setup sweep8)")
        sims, models, at = [], [], None
        for tag in ("100Gbps", "200Gbps", "400Gbps"):
            ka = self.r.key(setup, coll, num_algo, tag)
            b = next(iter(self.r.data.get(ka, {})), None)
            dens = [(d, self.r.get(self.r.key(setup, coll, d, tag), b)) for d in den_algos] if b else []
            dens = [(d, v) for d, v in dens if v is not None]
            if b is None or not dens:
                return self.missing(num, claim, paper, f"not in this run ({coll} at {tag} on {setup})")
            va = self.r.get(ka, b)
            d_sim = min(dens, key=lambda dv: dv[1][0])
            sims.append(f"{va[0] / d_sim[1][0]:.2f}" + (f" ({d_sim[0].replace('smpi:', '')})" if len(den_algos) > 1 else ""))
            d_mod = [(d, v) for d, v in dens if v[1] is not None]
            if d_mod:
                dm = min(d_mod, key=lambda dv: dv[1][1])
                models.append(f"{va[1] / dm[1][1]:.2f}")
            else:
                models.append("-")
            at = b
        star = "" if exact_s and at == 16 << 20 else "*"
        self.row(num, claim, paper, f"{setup}, b = {fmt_size(at)}, 100/200/400 Gbps{star}",
                 " / ".join(sims), " / ".join(models))


def headlines(runs):
    h = Headlines(runs)
    K, MiB, KiB = "kautz", 1 << 20, 1 << 10
    h.pair("K1", "alltoall DF-C / Kautz-M, 272 nodes, 64 MB", "up to 11", K, 16, "alltoall", "do", "kautz-m", 64 * MiB)
    h.pair("K2", "allgather DF-C / Kautz-C at 32 MB", "7", K, 16, "allgather", "do", "kautz-c", 32 * MiB)
    h.pair("K2", "alltoall DF-C / Kautz-M at 64 MB", "11", K, 16, "alltoall", "do", "kautz-m", 64 * MiB)
    setup, exact = runs.setup(K, 16)
    if setup is None:
        h.missing("K3", "allgather: Kautz-C fastest of DF-C, Kautz-C, Kautz-M below", "128 KB",
                  "not in this run (setup kautz16)")
    else:
        keys = [runs.key(setup, "allgather", a) for a in ("kautz-c", "kautz-m", "do")]
        common = sorted(set.intersection(*(set(runs.data.get(k, {})) for k in keys)))
        last = [None, None]  # the largest b at which Kautz-C is fastest: simulated, model
        for b in common:
            for kind in (0, 1):
                if min(keys, key=lambda k: runs.get(k, b)[kind]) == keys[0]:
                    last[kind] = b
        say = lambda b: f"up to b = {fmt_size(b)}" if b else "at no b of the run"
        span = f"b in {fmt_size(common[0])}..{fmt_size(common[-1])}" if common else "no common b"
        h.row("K3", "allgather: Kautz-C fastest of DF-C, Kautz-C, Kautz-M below", "128 KB",
              f"{setup}, {span}" + ("" if exact else "*"), say(last[0]), say(last[1]))
    for coll, paper in (("allgather", "1.5"), ("alltoall", "1.1")):
        h.extreme("K4", f"{coll} Kautz-C / Kautz-M for 2-64 MB", paper, K, 16, coll, "kautz-c", "kautz-m",
                  lo=2 * MiB, hi=64 * MiB)
    for coll in ("alltoall", "allreduce"):
        h.pair("K5", f"{coll} Kautz-M / Kautz-C at 100 KB (numerical, K(64,2))", "> 20", K, 16, coll,
               "kautz-m", "kautz-c", 100 * 1000)
    h.missing("K6", "bcast DF-C and Kautz-C as a share of FC, 4160 nodes (numerical)", "6 % and 3 %",
              "not in this script: an alpha-beta comparison with FC, no simulation in the text either")
    for algo in ("kautz-c", "kautz-m"):
        name = {"kautz-c": "Kautz-C", "kautz-m": "Kautz-M"}[algo]
        h.pair("K7", f"scatter {name} / FC at equal per-node bandwidth, large M (numerical)", "~1", K, 16,
               "scatter", algo, "fc-direct", 64 * MiB)
    h.missing("K7", "scatter DF-C / FC (numerical)", "~2", "not simulated: `do` builds no scatter (no DF-C scatter schedule)")
    for coll in ("allgather", "alltoall"):
        h.pair("K8", f"{coll} DF-C / Kautz-C for large M", "up to 2", K, 16, coll, "do", "kautz-c", 64 * MiB)
    h.missing("K9", "training time Kautz-M / DF-C (ResNet50, VGG16)", "85 %, 79 %",
              "not reproduced: the V100 compute times are not given")
    h.p2p(16)
    F = "2dfc"
    h.pair("F1", "allreduce DO / MD, 4x4, 32 MB", "1.38", F, 4, "allreduce", "do", "md", 32 * MiB)
    for algo in ("do", "multitree", "md"):
        h.pair("F2", f"alltoall Bruck / {algo.upper()}, 8x8, 32 KB", {"do": "8.78", "multitree": "9.60", "md": "11.98"}[algo],
               F, 8, "alltoall", "smpi:bruck", algo, 32 * KiB)
    for algo, paper in (("multitree", "1.58"), ("do", "1.66")):
        h.extreme("F3", f"alltoall {algo.upper()} / MD, 16x16, max over b", paper, F, 16, "alltoall", algo, "md")
    setup, exact = runs.setup(F, 8)
    kb, kp = runs.key(setup, "alltoall", "smpi:bruck"), runs.key(setup, "alltoall", "smpi:pair")
    both = sorted(set(runs.data.get(kb, {})) & set(runs.data.get(kp, {})))
    if both:
        flips = [b for b in both if runs.get(kp, b)[0] < runs.get(kb, b)[0]]
        h.row("F4", "alltoall: Bruck wins small b, Pair large b", "qualitative", setup + ("" if exact else "*"),
              f"Pair faster from b = {fmt_size(flips[0])}" if flips else "Bruck faster at every b of the run",
              "- (SMPI algorithms)")
    else:
        h.missing("F4", "alltoall: Bruck wins small b, Pair large b", "qualitative", "not in this run")
    for m in (4, 8):
        h.times("F5", f"allgather Bruck, Pair, Ring at 1 MB ({m}x{m})", "2.7 / 4.8 / 3.5 ms", F, m, "allgather",
                ["smpi:bruck", "smpi:pair", "smpi:ring"], 1 * MiB)
    h.times("F6", "allgather MD, 16x16, 4 MB", "44.5 ms", F, 16, "allgather", ["md"], 4 * MiB)
    for algo, paper in (("smpi:bruck", "6.83"), ("smpi:pair", "16.3")):
        h.pair("F6", f"allgather {algo[5:]} / MD, 16x16, 4 MB", paper, F, 16, "allgather", algo, "md", 4 * MiB)
    for m, paper in ((4, "1.5"), (8, "1.2"), (16, "~1")):
        h.extreme("F7", f"allgather DO / MD, {m}x{m}, max over b", paper, F, m, "allgather", "do", "md")
    h.extreme("F8", f"allreduce DO / MD, 4x4, least over b (MD wins only < 8 KB)", "< 1 above 8 KB", F, 4,
              "allreduce", "do", "md", fn=min)
    h.times("F9", "allreduce rdb, ring at 8 KB, 16x16 (bitree: no SMPI algorithm)", "35.9 us / 2.06 ms", F, 16,
            "allreduce", ["smpi:rdb", "smpi:lr"], 8 * KiB)
    h.times("F10", "allreduce ring at 8 MB", "13.1 ms", F, 8, "allreduce", ["smpi:lr"], 8 * MiB)
    h.pair("F10", "allreduce rdb / ring at 8 MB", "2.74", F, 8, "allreduce", "smpi:rdb", "smpi:lr", 8 * MiB)
    for m, paper in ((4, "1.38"), (8, "1.30"), (16, "1.17")):
        h.pair("F11", f"allreduce DO / MD, {m}x{m}, 32 MB", paper, F, m, "allreduce", "do", "md", 32 * MiB)
    for m in (8, 16):
        h.extreme("F12", f"allreduce DO / MD, {m}x{m}, least over b", "< 1 (MD slightly worse)", F, m,
                  "allreduce", "do", "md", fn=min)
    h.sweep("F13", "alltoall MD / DO, 8x8, 16 MB", "0.70 / 0.89 / 0.95", "alltoall", "md", ["do"])
    h.sweep("F14", "allgather MD / Ring, 8x8, 16 MB", "0.16 / 0.25 / 0.40", "allgather", "md", ["smpi:ring"])
    h.sweep("F15", "allreduce MD / best other (DO, ring, rdb), 8x8, 16 MB", "< 1, rising with bandwidth",
            "allreduce", "md", ["do", "smpi:lr", "smpi:rdb"])
    return h.rows


def table(dirs):
    runs = Runs(dirs)
    print("## Every run (b: the block per destination; allreduce: the vector; p2p: the message)\n")
    print("| setup | topology | collective | algorithm | link | b | simulated | α-β model |")
    print("| --- | --- | --- | --- | --- | ---: | ---: | ---: |")
    for key in runs.order:
        setup, coll, algo, tag = key
        spec, _ = runs.specs[key]
        for b, (sim, model) in sorted(runs.data[key].items()):
            print(f"| {setup} | `{spec}` | {coll} | {algo} | {tag.replace('_', '.')} | {fmt_size(b)} "
                  f"| {fmt_time(sim)} | {fmt_time(model)} |")
    print("\n## Headline numbers (digest-002 §8; ratios are time / time; * = not the claim's setup or size)\n")
    print("| # | claim | dissertation | at | simulated | α-β model |")
    print("| --- | --- | --- | --- | --- | --- |")
    for row in headlines(runs):
        print("| " + " | ".join(row) + " |")


def main(argv):
    if len(argv) == 3 and argv[1] == "blocks":
        print(",".join(str(b) for b in parse_blocks(argv[2])))
    elif len(argv) == 5 and argv[1] == "msizes":
        print(",".join(str(msize(argv[2], int(argv[3]), b)) for b in parse_blocks(argv[4])))
    elif len(argv) >= 3 and argv[1] == "merge":
        merged = None
        for path in argv[2:]:
            with open(path) as f:
                j = json.load(f)
            if merged is None:
                merged = j
            else:
                merged["results"] += j["results"]
        merged["fit"] = None
        merged["fit_error"] = "merged from runs of single sizes"
        json.dump(merged, sys.stdout)
    elif len(argv) >= 3 and argv[1] == "table":
        table(argv[2:])
    else:
        die("repro_multiport_table.py: usage: blocks LIST | msizes COLL N LIST | merge JSON... | table DIR...")


if __name__ == "__main__":
    main(sys.argv)
