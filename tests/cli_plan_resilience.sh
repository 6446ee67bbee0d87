#!/usr/bin/env bash
# cli_plan_resilience.sh — `plan` reports the chosen topology after any single link failure
# (issue #14 §8): worst and typical T_L / T_B, the schedules re-synthesized (BFB) on the
# degraded graph and verified. The plan fails one link per automorphism class; the oracle
# (at N = 12) fails every link, one `topocoll sched SPEC --without-links u-v` each (a
# separate path through the CLI), and must find the same worst and median over links and the
# same link count. Two clusters: N = 16, d = 4 duplex (circulant(16,3,4), 32 cables,
# offsets 3 and 4 in 2 classes) and N = 12, d = 3 simplex (dcirculant(12,1,2,5), 36 fibres,
# 3 classes), at α = 10 µs, 25 Gbit/s links.
bin=${1:?usage: cli_plan_resilience.sh TOPOCOLL}
. "$(dirname "$0")/lib_cli.sh"

check() { # DIR SPEC: the summary's resilience table against every link failed by sched
  python3 - "$bin" "$1" "$2" <<'PY'
import csv, json, re, subprocess, sys
from fractions import Fraction as F
bin_, d, spec = sys.argv[1:]
s = open(f"{d}/summary.md").read()
rows = {m.group(1): m for m in re.finditer(
    r"^\| (typical \(median link\)|worst) \| (\d+)-(\d+) \((\d+) like it\) \| (\d+)α \| (\S+) M/B \(B = (\d+)·b\) \|",
    s, re.M)}
assert set(rows) == {"typical (median link)", "worst"}, s[s.find("## Resilience"):][:800]
links = [(int(r["from_node"]), int(r["to_node"])) for r in csv.DictReader(open(f"{d}/wiring.csv"))]
total = int(re.search(r"Each of the (\d+) ", s).group(1))
assert total == len(links), (total, len(links))
alpha, b = 10e-6, 25e9 / 8
sizes = [int(x.split()[0]) * 1e6 for x in re.search(r"allreduce sizes M \(weight\) \| (.*) \|", s).group(1).replace(" MB", " x").split(",") if x.strip()]
seen = []
for u, v in links:
    out = subprocess.run([bin_, "sched", spec, "--coll", "allreduce", "--algo", "bfb", "--without-links", f"{u}-{v}",
                          "--json"], capture_output=True, text=True, check=True).stdout
    j = json.loads(out)
    assert j["verified"], j
    tau = F(j["tb_factor"])
    t = sum(j["steps"] * alpha + float(tau) * m / (j["degree"] * b) for m in sizes) / len(sizes)
    seen.append((t, j["steps"], tau))
seen.sort()
median = seen[(len(seen) + 1) // 2 - 1]
for name, want in (("worst", seen[-1]), ("typical (median link)", median)):
    m = rows[name]
    assert (int(m.group(5)), F(m.group(6))) == (want[1], want[2]), (name, m.group(0), want)
PY
}

expect 0 "$bin" plan --nodes 16 --degree 4 --alpha 10us --link-bw 25Gbps --size 1MB --out "$tmp/p16"
grep -qx 'resilience   one failed link of 32: worst 6 steps, T_B factor 5/2, 260.0 us (1.24x); typical 6 steps, T_B factor 5/2, 260.0 us (1.24x) (BFB re-synthesized, verified)' \
  "$tmp/out" || fail "N = 16 resilience line: $(grep resilience "$tmp/out")"
grep -qF 'so one link of each of the 2 classes was failed' "$tmp/p16/summary.md" || fail "N = 16: not 2 classes"
grep -qxF '| intact | none | 6α | 15/8 M/B (B = 4·b) | 210.0 µs | 1.00× |' "$tmp/p16/summary.md" || fail "N = 16 intact row"

expect 0 "$bin" plan --nodes 12 --degree 3 --alpha 10us --link-bw 25Gbps --size 1MB,64MB --links simplex --out "$tmp/p12"
grep -qF 'Each of the 36 simplex links (arcs) of `dcirculant(12,1,2,5)` failed in turn' "$tmp/p12/summary.md" ||
  fail "N = 12 resilience paragraph: $(grep 'Each of' "$tmp/p12/summary.md")"
grep -qF 'so one link of each of the 3 classes was failed' "$tmp/p12/summary.md" || fail "N = 12: not 3 classes"
check "$tmp/p12" 'dcirculant(12,1,2,5)' || fail "N = 12: the summary's failures are not those of every link"

finish cli_plan_resilience
