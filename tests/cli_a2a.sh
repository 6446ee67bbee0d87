#!/usr/bin/env bash
# cli_a2a.sh — `topocoll a2a` (all-to-all as a certified MCF, paper 003; docs/alltoall.md):
# the report's exact lines, the JSON document, and every refusal (one line, exit 2).
# Expected numbers (paper 003 §5.2 and its exact recomputation, docs/reproduction.md): Q3
# f = 1/4 (tb_factor d/(N·f) = 3/(8/4) = 3/2); K4,4 2/5; the 3x3x3 torus with host cap 4
# f = 2/27 (tb_factor 6·27/(27·2) = 3); at 1 GB and 25 Gbps each pair's 1/27 GB at
# (2/27)·3.125 GB/s takes 160 ms, plus alpha 2 us.
set -u
bin=$1
. "$(dirname "$0")/lib_cli.sh"

expect 0 "$bin" a2a 'hypercube(3)'
cat >"$tmp/want" <<'OUT'
a2a hypercube(3): all-to-all on 8 nodes, 24 arcs, degree 3 (maximum concurrent MCF, paper 003)
  f               1/4 exact (lower bound = upper bound)
  lower bound     1/4 = 0.25 (flows checked: capacity, conservation)
  upper bound     1/4 = 0.25 (dual lengths: sum c*l / sum dist_l)
  gap             0
  per commodity   8 x 7 flows certify 1/4 on their own
  tb_factor       d/(N*f) = 3/2 = 1.5 (all-to-all time in units of M/B, B = d*b)
  distance bound  1/4 = 0.25 (sum c / sum dist)
  Moore bound     3/11 = 0.272727273 (sum c / (N*S_min), S_min(8,3) = 11)
  bisection bound 1/4 = 0.25 (a cut of 4 nodes, 4 out and 4 in)
  solved by       lp on clp (80 rows, 169 columns)
OUT
cmp -s "$tmp/out" "$tmp/want" || fail "hypercube(3) report: $(cat "$tmp/out")"

expect 0 "$bin" a2a 'torus(3,3,3)' --host-cap 4 --engine glpk --size 1GB --link-bw 25Gbps --alpha 2us
grep -qx '  host cap        4 per node in and out (paper 003 §3.2.2)' "$tmp/out" || fail "host cap line: $(cat "$tmp/out")"
grep -qx '  f               2/27 exact (lower bound = upper bound)' "$tmp/out" || fail "torus f line: $(cat "$tmp/out")"
grep -qx '  per commodity   27 x 26 flows certify 2/27 on their own' "$tmp/out" || fail "torus commodity line: $(cat "$tmp/out")"
grep -qx '  tb_factor       d/(N\*f) = 3 = 3 (all-to-all time in units of M/B, B = d\*b)' "$tmp/out" ||
  fail "torus tb_factor line: $(grep tb_factor "$tmp/out")"
grep -qx '  time at 1 GB    T = alpha + (M/N)/(f\*b) = 160.002 ms' "$tmp/out" || fail "torus time line: $(grep time "$tmp/out")"
grep -q '^  solved by       lp on glpk (918 rows, ' "$tmp/out" || fail "torus solved-by line: $(grep solved "$tmp/out")"

expect 0 "$bin" a2a 'bipartite(4)' --method full --json
python3 - "$tmp/out" <<'PY' || fail "bipartite(4) --method full --json: $(cat "$tmp/out")"
import json, sys
d = json.load(open(sys.argv[1]))
want = {"spec": "bipartite(4)", "nodes": 8, "arcs": 32, "degree": 4, "method": "full", "engine": "clp",
        "host_cap": None, "f": "2/5", "exact": True, "lower_bound": 0.4, "upper_bound": 0.4,
        "lower_bound_exact": "2/5", "upper_bound_exact": "2/5", "gap": 0.0, "commodity_lower_bound": "2/5",
        "tb_factor": "5/4"}
for k, v in want.items():
    assert d[k] == v, (k, d[k], v)
assert "time_s" not in d
PY

expect 0 "$bin" a2a 'hypercube(3)' --json --size 8MB --link-bw 1GBps
python3 - "$tmp/out" <<'PY' || fail "hypercube(3) --json --size: $(cat "$tmp/out")"
import json, sys
d = json.load(open(sys.argv[1]))
# each pair's 1 MB at (1/4) GB/s
assert d["size"] == 8000000 and d["alpha"] == 0 and abs(d["time_s"] - 0.004) < 1e-15, d
assert d["times"] == [{"size": 8000000, "time_s": d["time_s"]}], d
PY
# a list of sizes: a time line each, and "times" (no single "size" then)
expect 0 "$bin" a2a 'hypercube(3)' --size 8MB,16MB --link-bw 1GBps
[ "$(grep '^  time at ' "$tmp/out")" = "$(printf '  time at 8 MB    T = alpha + (M/N)/(f*b) = 4.000 ms\n  time at 16 MB   T = alpha + (M/N)/(f*b) = 8.000 ms')" ] ||
  fail "hypercube(3) --size 8MB,16MB: $(cat "$tmp/out")"
expect 0 "$bin" a2a 'hypercube(3)' --json --size 8MB,16MB --link-bw 1GBps --alpha 1us
python3 - "$tmp/out" <<'PY' || fail "hypercube(3) --json --size 8MB,16MB: $(cat "$tmp/out")"
import json, sys
d = json.load(open(sys.argv[1]))
assert "size" not in d and "time_s" not in d, d
assert [t["size"] for t in d["times"]] == [8000000, 16000000], d
for t in d["times"]:
    want = 1e-6 + t["size"] / 8 / (0.25 * 1e9)
    assert abs(t["time_s"] - want) <= 1e-15, (t, want)
PY

# refusals: one line, exit 2
printf 'nodes 3\n0 1\n1 2\n2 1\n' >"$tmp/oneway.txt"
expect_err 2 "topocoll a2a: all-to-all needs every node to reach every other: node 1 cannot reach node 0" \
  "$bin" a2a "file($tmp/oneway.txt)"
expect_err 2 "topocoll a2a: all-to-all needs a graph of compute nodes only: node 2 is a switch (5 switches)" \
  "$bin" a2a 'fattree(2)'
expect_err 2 "topocoll a2a: the full link MCF takes at most 400000 variables, this graph needs 1548288 (use --method lp)" \
  "$bin" a2a 'torus(4,4,4)' --method full
expect_err 2 "topocoll a2a: missing SPEC" "$bin" a2a
expect_err 2 "topocoll a2a: --engine must be clp or glpk, got 'cplex'" "$bin" a2a 'hypercube(3)' --engine cplex
expect_err 2 "topocoll a2a: --method must be lp, full or dw, got 'mosek'" "$bin" a2a 'hypercube(3)' --method mosek
expect_err 2 "topocoll a2a: --host-cap expects an integer in 1..1000000000, got '0'" "$bin" a2a 'hypercube(3)' --host-cap 0
expect_err 2 "topocoll a2a: --host-cap expects an integer in 1..1000000000, got '0'" "$bin" a2a 'hypercube(3)' --host-cap 3/0
expect_err 2 "topocoll a2a: --host-cap needs a positive integer or fraction P/Q (got '/2')" "$bin" a2a 'hypercube(3)' --host-cap /2
expect_err 2 "topocoll a2a: --gap needs a number >= 0, e.g. 1e-6 (got '-1')" "$bin" a2a 'hypercube(3)' --gap -1
expect_err 2 "topocoll a2a: --size needs --link-bw (the bandwidth of capacity 1)" "$bin" a2a 'hypercube(3)' --size 1GB
expect_err 2 "topocoll a2a: --link-bw and --alpha are for the time of --size M: give --size" \
  "$bin" a2a 'hypercube(3)' --link-bw 1GBps
expect_err 2 "topocoll a2a: --threads expects an integer in 1..1024, got '0'" "$bin" a2a 'hypercube(3)' --threads 0
expect_err 2 "topocoll a2a: bad spec \"nosuch(3)\": column 1: unknown topology 'nosuch'" "$bin" a2a 'nosuch(3)'
expect_err 2 "topocoll a2a: more than one SPEC given ('hypercube(3)' and 'torus(3,3)')" "$bin" a2a 'hypercube(3)' 'torus(3,3)'

finish cli_a2a
