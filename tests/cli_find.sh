#!/usr/bin/env bash
# cli_find.sh — drives `topocoll find` (paper 000 §5.4): the Pareto frontier at N = 64, d = 4
# against paper 000 Table 7, specs that `topo` and `sched` rebuild, predicted times against
# the closed form, the weighted workload, the Figure 15 sweep as CSV, and the exit codes
# (0 ok, 2 bad usage or input) with one-line errors.
# Expected numbers (paper 000 Table 7, exact values from each row's construction), N = 64, d = 4:
#   Π_{4,64}         T_L 3, tau 21/16 (BFB LP (1) on Def. 16's graph)  printed 1.312
#   L(DBJMod(4,2))   T_L 4, tau <= 1 (Thm 7 bound, base not BFB)        printed 1.000
#   Diamond^{□2}     T_L 6, tau 63/64 (Thm 12: Diamond 3, 7/8)          printed 0.984
#   bound            T_L*(64,4) = 3 (1+4+16+64 >= 64 > 1+4+16), (N-1)/N = 63/64
# The frontier must contain, for every row, a member with T_L <= and tau <= the paper's
# (strictly better points are welcome: Table 7 lists what the paper's finder found, not a
# bound). Predicted allreduce time of a member (paper 000 §3.2, Table 4's column): 2(T_L*alpha + tau*M/B), B = d * link bandwidth; a weighted list of
# sizes gives the weighted mean (find.h).
set -u
bin=$1
. "$(dirname "$0")/lib_cli.sh"

W=(--alpha 10us --link-bw 25Gbps)

# ---- help ----
expect 0 "$bin" --help
grep -q '^  find ' "$tmp/out" || fail "--help does not list find"
expect 0 "$bin" help find
for opt in --nodes --degree --bidirectional --build --alpha --link-bw --size --json --sweep; do
  grep -q -- "$opt" "$tmp/out" || fail "help find lacks $opt"
done

# ---- the frontier at N = 64, d = 4 against Table 7 ----
expect 0 "$bin" find --nodes 64 --degree 4 --json
cp "$tmp/out" "$tmp/f64.json"
python3 - "$tmp/f64.json" <<'PY' || fail "find --json at N=64, d=4: $(head -c 2000 "$tmp/f64.json")"
import json, sys
from fractions import Fraction as F
j = json.load(open(sys.argv[1]))
assert j["nodes"] == 64 and j["degree"] == 4, j
assert j["bound"]["steps"] == 3 and j["bound"]["tb_factor"] == "63/64", j["bound"]
fr = j["frontier"]
assert fr, "empty frontier"
def tau(m):
    n, d = m["tb_factor"].split("/")
    return F(int(n), int(d))
for m in fr:
    for k in ("spec", "label", "steps", "tb_factor", "tb_factor_float", "tb_is_bound", "diameter", "verified",
              "avg_distance", "source"):
        assert k in m, (k, m)
    assert m["spec"] and m["label"] and m["source"], m        # rebuildable, classified, justified
    assert abs(m["tb_factor_float"] - float(tau(m))) < 1e-15, m
    assert m["verified"] is False and m["avg_distance"] is None, m   # nothing built without --build
    assert "time_s" not in m, m                                     # no workload, no time
    # no member beats the bounds (Def. 10, Thm 4)
    assert m["steps"] >= 3 and tau(m) >= F(63, 64), m
    if m["diameter"] is not None: assert m["diameter"] <= m["steps"], m   # T_L >= D(G) (Thm 3)
# Pareto: steps ascending, tau strictly descending, none dominated
for a, b in zip(fr, fr[1:]):
    assert a["steps"] < b["steps"] and tau(a) > tau(b), (a, b)
# Table 7's rows or better
for steps, t in ((3, F(21, 16)), (4, F(1)), (6, F(63, 64))):
    assert any(m["steps"] <= steps and tau(m) <= t for m in fr), ("no member as good as", steps, t)
# the Moore-optimal end: T_L = 3 is reached, with tau at most Π_{4,64}'s 21/16
assert fr[0]["steps"] == 3 and tau(fr[0]) <= F(21, 16), fr[0]
PY

# every spec is accepted by `topo` and rebuilds a 64-node, 4-regular topology
python3 -c "
import json, sys
for m in json.load(open('$tmp/f64.json'))['frontier']: print(m['spec'])" >"$tmp/specs"
[ -s "$tmp/specs" ] || fail "no specs in the frontier"
while read -r spec; do
  expect 0 "$bin" topo "$spec" --json --no-reverse-symmetry
  python3 - "$tmp/out" <<'PY' || fail "topo '$spec' does not give N = 64, d = 4: $(head -c 400 "$tmp/out")"
import json, sys
j = json.load(open(sys.argv[1]))
assert j["nodes"] == 64 and j["out_degree"] == 4 and j["strongly_connected"], j
PY
done <"$tmp/specs"

# the table: every member, its 3-decimal tau as Table 7 prints it (%.3f), and the bound row
expect 0 "$bin" find --nodes 64 --degree 4
python3 - "$tmp/f64.json" "$tmp/out" <<'PY' || fail "find table: $(cat "$tmp/out")"
import json, sys
j = json.load(open(sys.argv[1]))
lines = open(sys.argv[2]).read().splitlines()
for m in j["frontier"]:
    row = [l for l in lines if l[2:].split()[:1] == [m["spec"]]]
    assert len(row) == 1, (m["spec"], lines)
    assert ("%.3f (%s)" % (m["tb_factor_float"], m["tb_factor"])) in row[0], row[0]
    assert row[0].split()[2] == str(m["steps"]), row[0]
bound = [l for l in lines if "theoretical bound" in l]
assert len(bound) == 1 and "0.984 (63/64)" in bound[0] and bound[0].split()[2] == "3", bound
PY

# ---- --build: every member built, its allgather verified, its topology measured ----
expect 0 "$bin" find --nodes 64 --degree 4 --build --json
cp "$tmp/out" "$tmp/b64.json"
python3 - "$tmp/f64.json" "$tmp/b64.json" <<'PY' || fail "find --build --json: $(head -c 2000 "$tmp/b64.json")"
import json, sys
from fractions import Fraction as F
p = json.load(open(sys.argv[1]))["frontier"]
b = json.load(open(sys.argv[2]))["frontier"]
def fr(s):
    n, d = s.split("/")
    return F(int(n), int(d))
assert [m["spec"] for m in p] == [m["spec"] for m in b], "building changed the frontier"
for m in b:
    assert m["verified"] is True, m
    assert isinstance(m["avg_distance"], float) and 1 <= m["avg_distance"] <= m["diameter"], m
    # the measured schedule keeps the prediction: equal, or below an upper bound (Thm 7)
    assert m["measured_steps"] == m["steps"], m
    if m["tb_is_bound"]: assert fr(m["measured_tb_factor"]) <= fr(m["tb_factor"]), m
    else: assert fr(m["measured_tb_factor"]) == fr(m["tb_factor"]), m
# ForestColl's allreduce optimum where the allgather misses (N-1)/N: debruijn(4,3)'s four
# looped nodes take M/4 each (water-filling) and meet the allreduce bound 2·63·4/252 = 2;
# line(circulant(16,3,4))'s equal-share trees reach 2·63/64 where 2·T_B = 2; circulant(64,6,7)
# is BW-optimal already (null)
fc = {m["spec"]: (m["forestcoll_allreduce_tb_factor"], m.get("forestcoll_weighted")) for m in b}
assert fc == {"debruijn(4,3)": ("2/1", True), "line(circulant(16,3,4))": ("63/32", False),
              "circulant(64,6,7)": (None, None)}, fc
PY
expect 0 "$bin" find --nodes 64 --degree 4 --build
grep -qxF '  ForestColl allreduce on debruijn(4,3): T_B -> 2.000 (2/1) M/B with water-filling root weights, against 2 T_B = 2.625 (21/8) (`plan` builds it)' "$tmp/out" ||
  fail "find --build lacks ForestColl's allreduce on debruijn(4,3): $(cat "$tmp/out")"
grep -qxF '  ForestColl allreduce on line(circulant(16,3,4)): T_B -> 1.969 (63/32) M/B, against 2 T_B = 2.000 (2/1) (`plan` builds it)' "$tmp/out" ||
  fail "find --build lacks ForestColl's allreduce on line(circulant(16,3,4))"
python3 -c "
import json
for m in json.load(open('$tmp/b64.json'))['frontier']: print(m['spec'], m['diameter'], repr(m['avg_distance']))
" >"$tmp/built"
# the same topology: `topo SPEC` measures the same diameter and average distance, and
# `sched SPEC` accepts the spec (BFB allgather on it, verified)
while read -r spec diam avg; do
  expect 0 "$bin" topo "$spec" --json --no-reverse-symmetry
  python3 - "$tmp/out" "$diam" "$avg" <<'PY' || fail "topo '$spec' differs from find --build: $(head -c 400 "$tmp/out")"
import json, sys
j = json.load(open(sys.argv[1]))
assert j["diameter"] == int(sys.argv[2]) and j["avg_distance"] == float(sys.argv[3]), (j, sys.argv)
PY
  expect 0 "$bin" sched "$spec" --coll allgather --algo bfb --json
  python3 -c "import json; j=json.load(open('$tmp/out')); assert j['nodes']==64 and j['verified']" ||
    fail "sched does not accept '$spec'"
done <"$tmp/built"

# ---- predicted allreduce times and the choice ----
# check_times ALPHA BW SIZE:WEIGHT... : time_s = Σ w 2(T_L α + tau M/(d b)) / Σ w, choice = argmin
check_times() {
  python3 - "$tmp/out" "$@" <<'PY' || fail "time_s ($*): $(head -c 2000 "$tmp/out")"
import json, sys
from fractions import Fraction as F
j = json.load(open(sys.argv[1]))
alpha, bw = float(sys.argv[2]), float(sys.argv[3])
sizes = [tuple(float(x) for x in s.split(":")) for s in sys.argv[4:]]
def t(steps, tau):
    return sum(w * 2 * (steps * alpha + float(tau) * m / (j["degree"] * bw)) for m, w in sizes) / sum(w for _, w in sizes)
def fr(s):
    n, d = s.split("/")
    return F(int(n), int(d))
times = []
for m in j["frontier"]:
    want = t(m["steps"], fr(m["tb_factor"]))
    assert abs(m["time_s"] - want) <= 1e-12 * want, (m["spec"], m["time_s"], want)
    times.append(m["time_s"])
assert abs(j["bound"]["time_s"] - t(j["bound"]["steps"], fr(j["bound"]["tb_factor"]))) <= 1e-12 * j["bound"]["time_s"]
assert j["choice"] == min(range(len(times)), key=lambda i: (times[i], j["frontier"][i]["steps"])), (j["choice"], times)
assert all(x >= j["bound"]["time_s"] for x in times)
ws = j["workload"]["sizes"]
assert [(s["bytes"], s["weight"]) for s in ws] == [(int(m), w) for m, w in sizes], ws
PY
}
expect 0 "$bin" find --nodes 64 --degree 4 "${W[@]}" --size 1MB --json
check_times 1e-5 3.125e9 1000000:1
expect 0 "$bin" find --nodes 64 --degree 4 "${W[@]}" --size 1KB --json
check_times 1e-5 3.125e9 1000:1
python3 -c "import json; j=json.load(open('$tmp/out')); assert j['choice'] == 0 and j['frontier'][0]['steps'] == 3" ||
  fail "at 1 KB (T_L-dominated, alpha 10us) the Moore-optimal member should win: $(head -c 800 "$tmp/out")"
expect 0 "$bin" find --nodes 64 --degree 4 "${W[@]}" --size 1GB --json
check_times 1e-5 3.125e9 1000000000:1
python3 -c "
import json; j=json.load(open('$tmp/out')); f=j['frontier']
assert j['choice'] == len(f) - 1, j['choice']" ||
  fail "at 1 GB (T_B-dominated) the least-T_B member should win: $(head -c 800 "$tmp/out")"
# weighted sizes (DDP-bucket-like): 1 MB three times as often as 64 MB; default weight 1; decimals
expect 0 "$bin" find --nodes 64 --degree 4 "${W[@]}" --size 1MB:3,64MB:1 --json
check_times 1e-5 3.125e9 1000000:3 64000000:1
expect 0 "$bin" find --nodes 64 --degree 4 "${W[@]}" --size 1MiB,4MiB:0.5 --json
check_times 1e-5 3.125e9 1048576:1 4194304:0.5
# the table marks the choice
expect 0 "$bin" find --nodes 64 --degree 4 "${W[@]}" --size 1MB
grep -q '^\* ' "$tmp/out" || fail "the table does not mark the chosen member: $(cat "$tmp/out")"

# ---- --bidirectional: only members whose links come in opposite pairs ----
expect 0 "$bin" find --nodes 64 --degree 4 --bidirectional --json
python3 - "$tmp/out" <<'PY' >"$tmp/bspecs" || fail "find --bidirectional: $(head -c 800 "$tmp/out")"
import json, sys
j = json.load(open(sys.argv[1]))
assert j["frontier"] and all(m["bidirectional"] for m in j["frontier"]), j
for m in j["frontier"]: print(m["spec"])
PY
while read -r spec; do
  expect 0 "$bin" topo "$spec" --json --no-reverse-symmetry
  python3 -c "import json; j=json.load(open('$tmp/out')); assert j['bidirectional'] and j['nodes']==64 and j['out_degree']==4, j" ||
    fail "'$spec' from find --bidirectional is not a bidirectional 64-node 4-regular topology"
done <"$tmp/bspecs"

# ---- the sweep (paper 000 Figure 15's data) ----
expect 0 "$bin" find --sweep 20..27 --degree 4 "${W[@]}" --size 1MB
cp "$tmp/out" "$tmp/sweep.csv"
python3 - "$tmp/sweep.csv" <<'PY' >"$tmp/sweep_rows" || fail "sweep CSV: $(cat "$tmp/sweep.csv")"
import csv, sys
from fractions import Fraction as F
rows = list(csv.reader(open(sys.argv[1])))
assert rows[0] == ["n", "spec", "label", "steps", "tb_factor", "time_s"], rows[0]
assert [int(r[0]) for r in rows[1:]] == list(range(20, 28)), rows
for r in rows[1:]:
    n, d = r[4].split("/")
    want = 2 * (int(r[3]) * 1e-5 + float(F(int(n), int(d))) * 1e6 / (4 * 3.125e9))
    assert abs(float(r[5]) - want) <= 1e-8 * want, (r, want)
    print(r[0], r[1], r[5])
PY
# each row: a spec that rebuilds an N-node 4-regular topology, and the least time of `find --nodes N`
while read -r n spec t; do
  expect 0 "$bin" topo "$spec" --json --no-reverse-symmetry
  python3 -c "import json; j=json.load(open('$tmp/out')); assert j['nodes']==$n and j['out_degree']==4, j" ||
    fail "sweep row $n: '$spec' is not an $n-node 4-regular topology"
  expect 0 "$bin" find --nodes "$n" --degree 4 "${W[@]}" --size 1MB --json
  python3 - "$tmp/out" "$spec" "$t" <<'PY' || fail "sweep row $n ($spec, $t) is not find's choice"
import json, sys
j = json.load(open(sys.argv[1]))
best = j["frontier"][j["choice"]]
assert best["spec"] == sys.argv[2] and abs(best["time_s"] - float(sys.argv[3])) <= 1e-8 * best["time_s"], best
PY
done <"$tmp/sweep_rows"

# ---- bad usage and input: exit 2, one line ----
expect_err 2 "--nodes expects an integer" "$bin" find --nodes 1 --degree 4
expect_err 2 "--degree expects an integer" "$bin" find --nodes 64 --degree 0
expect_err 2 "--nodes expects an integer" "$bin" find --nodes 64x --degree 4
expect_err 2 "missing --degree" "$bin" find --nodes 64
expect_err 2 "missing --nodes" "$bin" find --degree 4
expect_err 2 "--alpha, --link-bw and --size together" "$bin" find --nodes 64 --degree 4 --alpha 10us
expect_err 2 "--size" "$bin" find --nodes 64 --degree 4 "${W[@]}" --size 1XB
expect_err 2 "--size" "$bin" find --nodes 64 --degree 4 "${W[@]}" --size 1MB:0
expect_err 2 "--size" "$bin" find --nodes 64 --degree 4 "${W[@]}" --size 1MB:-1
expect_err 2 "--size" "$bin" find --nodes 64 --degree 4 "${W[@]}" --size 1MB,,2MB
expect_err 2 "--alpha" "$bin" find --nodes 64 --degree 4 --alpha fast --link-bw 25Gbps --size 1MB
expect_err 2 "--sweep expects N1..N2" "$bin" find --sweep 20 --degree 4 "${W[@]}" --size 1MB
expect_err 2 "N1 must not exceed N2" "$bin" find --sweep 30..20 --degree 4 "${W[@]}" --size 1MB
expect_err 2 "--sweep and --nodes" "$bin" find --sweep 20..30 --nodes 64 --degree 4 "${W[@]}" --size 1MB
expect_err 2 "needs --alpha, --link-bw and --size" "$bin" find --sweep 20..30 --degree 4
expect_err 2 "unknown option '--frobnicate'" "$bin" find --nodes 64 --degree 4 --frobnicate
expect_err 2 "--nodes needs a value" "$bin" find --degree 4 --nodes

finish cli_find
