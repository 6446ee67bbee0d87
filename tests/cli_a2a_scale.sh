#!/usr/bin/env bash
# cli_a2a_scale.sh — `topocoll a2a --method dw` (column generation, docs/alltoall.md
# "Scaling") and the analytic bounds every report carries: exact lines, the JSON "bounds"
# object, --progress on stderr, --time-limit, --no-symmetry, and the refusals.
# Expected numbers: K4,4 f = 2/5 (paper 003's table), distance bound 32/80 = 2/5, Moore
# 4/S_min(8,4) = 4/10, bisection 8/(4·4) = 1/2; the 3x3x3 torus 1/9 solved on one orbit of
# its 27 translations; genkautz(4,64) (252 arcs that are not loops, Σdist 10644): distance
# bound 252/10644 = 21/887, Moore 252/(64·165) = 21/880, its group of 4 found by the search,
# F <= 15/691 certified by the dual lengths.
set -u
bin=$1
. "$(dirname "$0")/lib_cli.sh"

expect 0 "$bin" a2a 'bipartite(4)' --method dw
cat >"$tmp/want" <<'OUT'
a2a bipartite(4): all-to-all on 8 nodes, 32 arcs, degree 4 (maximum concurrent MCF, paper 003)
  f               2/5 exact (lower bound = upper bound)
  lower bound     2/5 = 0.4 (flows checked: capacity, conservation)
  upper bound     2/5 = 0.4 (dual lengths: sum c*l / sum dist_l)
  gap             0
  tb_factor       d/(N*f) = 5/4 = 1.25 (all-to-all time in units of M/B, B = d*b)
  distance bound  2/5 = 0.4 (sum c / sum dist)
  Moore bound     2/5 = 0.4 (sum c / (N*S_min), S_min(8,4) = 10)
  bisection bound 1/2 = 0.5 (a cut of 4 nodes, 8 out and 8 in)
  solved by       dw on clp (5 rows, 10 columns, 2 rounds, symmetry group of 8)
OUT
cmp -s "$tmp/out" "$tmp/want" || fail "bipartite(4) dw report: $(diff "$tmp/out" "$tmp/want")"

expect 0 "$bin" a2a 'torus(3,3,3)' --method dw --json --size 1GB --link-bw 25Gbps
python3 - "$tmp/out" <<'PY' || fail "torus(3,3,3) dw --json: $(cat "$tmp/out")"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["method"] == "dw" and d["f"] == "1/9" and d["exact"] is True and d["gap"] == 0, d
assert d["symmetry_group"] == 27 and d["stopped_by_time_limit"] is False and d["rounds"] >= 1, d
assert d["commodity_lower_bound"] is None, d
b = d["bounds"]
assert b["distance"] == {"exact": "1/9", "value": 1 / 9}, b
assert b["moore"] == {"exact": "3/23", "value": 3 / 23, "degree": 6, "s_min": 46}, b
assert b["bisection"]["cut_size"] in (13, 14) and b["bisection"]["cut_out"] == b["bisection"]["cut_in"], b
# (N-1)·f·b = 26 · (1/9) · 3.125e9 bytes/s
assert abs(d["throughput_Bps"] - 26 / 9 * 3.125e9) < 1e-3, d["throughput_Bps"]
PY

# --progress: the rounds on stderr (a few a second: the first and the last at least, numbered
# from 1; tests/cli_progress.sh has the rules); the report on stdout
expect 0 "$bin" a2a 'genkautz(4,64)' --method dw --progress
grep -q '^topocoll a2a: \[[0-9.]* s\] dw: round 1, f in \[0\.02[0-9]*, 0\.02[0-9]*\], gap [0-9.e-]*, [0-9]* columns$' "$tmp/err" ||
  fail "progress lines: $(cat "$tmp/err")"
rounds=$(tail -n 1 "$tmp/err" | sed -n 's/^topocoll a2a: \[[0-9.]* s\] dw: round \([0-9]*\), .*/\1/p')
grep -q "^  solved by       dw on clp (79 rows, [0-9]* columns, $rounds rounds, symmetry group of 4)\$" "$tmp/out" ||
  fail "genkautz(4,64) solved-by line (last progress line: round $rounds): $(grep solved "$tmp/out")"
grep -qx '  distance bound  21/887 = 0.02367531 (sum c / sum dist)' "$tmp/out" || fail "distance line: $(cat "$tmp/out")"
grep -qx '  Moore bound     21/880 = 0.0238636364 (sum c / (N\*S_min), S_min(64,4) = 165)' "$tmp/out" ||
  fail "Moore line: $(grep Moore "$tmp/out")"
grep -qx '  upper bound     15/691 = 0.02170767 (dual lengths: sum c\*l / sum dist_l)' "$tmp/out" ||
  fail "genkautz(4,64) upper bound: $(grep upper "$tmp/out")"

# --no-symmetry: every source in the master (64 + 252 rows: 4 of the 256 arcs are loops),
# the same certified F
expect 0 "$bin" a2a 'genkautz(4,64)' --method dw --no-symmetry
grep -q '^  solved by       dw on clp (316 rows, [0-9]* columns, [0-9]* rounds, symmetry group of 1)$' "$tmp/out" ||
  fail "--no-symmetry solved-by line: $(grep solved "$tmp/out")"
grep -q '^  upper bound     15/691 = 0.02170767 ' "$tmp/out" || fail "--no-symmetry upper bound: $(grep upper "$tmp/out")"

# --time-limit: the first master always runs; the answer so far, certified, and a gap above
# --gap is our failure (exit 1) after the report
expect 1 "$bin" a2a 'genkautz(4,64)' --method dw --time-limit 1us --gap 1e-9
grep -q '^  solved by       dw on clp (79 rows, [0-9]* columns, 1 round, symmetry group of 4), stopped by --time-limit$' \
  "$tmp/out" || fail "--time-limit solved-by line: $(grep solved "$tmp/out")"
grep -q '^topocoll a2a: certified gap [0-9.e-]* exceeds --gap 1e-09 (lower [0-9/]*, upper [0-9/]*)$' "$tmp/err" ||
  fail "--time-limit gap line: $(cat "$tmp/err")"

# refusals: one line, exit 2
expect_err 2 "topocoll a2a: the dw method takes no host cap (use --method lp for --host-cap)" \
  "$bin" a2a 'hypercube(3)' --method dw --host-cap 4
expect_err 2 "topocoll a2a: --time-limit: time \"-1s\" must not be negative" "$bin" a2a 'hypercube(3)' --time-limit -1s
expect_err 2 "topocoll a2a: all-to-all needs a graph of compute nodes only: node 2 is a switch (5 switches)" \
  "$bin" a2a 'fattree(2)' --method dw
# the memory estimate (src/a2a/dw.c: flows 64·256·16, trees 16·63·8, group 4·64·4, pool
# 4·79·64·36 bytes = 998,976) against the limit, before anything is spent
expect_err 2 "topocoll a2a: all-to-all column generation needs about 999 KB (64 sources, 256 arcs) but the memory limit is 500 KB; raise the limit with --max-memory SIZE" \
  "$bin" a2a 'genkautz(4,64)' --method dw --max-memory 500KB

finish cli_a2a_scale
