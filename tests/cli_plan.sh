#!/usr/bin/env bash
# cli_plan.sh — drives `topocoll plan`, the main job (paper 000 §5.4: find, choose for the
# workload, build; plan.h): every output file
# written, every schedule re-verified by `topocoll verify` against the chosen spec, the
# choice equal to `find`'s for the same workload, summary.md with the frontier, the choice
# and the baselines at their closed-form costs, weighted sizes, the directory written whole
# or not at all, progress only on a terminal, and the exit codes (0 ok, 1 failure with
# nothing written, 2 bad usage or input) with one-line errors.
# Closed forms the baselines must measure (baselines.h; N = 64, d = 4, allreduce = 2x):
#   ring on uniring(4,64):    T_L = 2(N-1) = 126, tau = 2(N-1)/N = 63/32 (paper 000 App. C.2)
#   BFB ring on biring(4,64): T_L = 2 floor(N/2) = 64, tau = 63/32 (App. F.1)
#   double binary tree, P = 1: K = floor(log2 64) = 6, T_L = 2(K+P-1) = 12,
#                              tau = d (K+P-1)/P = 24 (Sanders et al. two-tree, NCCL)
# Times: T_L*alpha + tau*M/B with B = d * link bandwidth (paper 000 §3.2); alpha = 10us,
# link 25 Gbps = 3.125e9 B/s.
set -u
bin=$1
. "$(dirname "$0")/lib_cli.sh"

FILES="topology.json topology.dot wiring.csv ranks.csv allgather.json reduce-scatter.json allreduce.json summary.md"
# simplex fibres: the checks below are of the unidirectional frontier and its baselines
# (duplex, the default, is cli_plan_links.sh's)
CLUSTER=(--nodes 64 --degree 4 --alpha 10us --link-bw 25Gbps --links simplex)
FIND_CLUSTER=(--nodes 64 --degree 4 --alpha 10us --link-bw 25Gbps)

# ---- help ----
expect 0 "$bin" --help
grep -q '^  plan ' "$tmp/out" || fail "--help does not list plan"
expect 0 "$bin" help plan
for opt in --nodes --degree --alpha --link-bw --size --bidirectional --out --force summary.md wiring.csv; do
  grep -q -- "$opt" "$tmp/out" || fail "help plan lacks $opt"
done

# ---- the main job: N = 64, d = 4, DDP-bucket-like weighted sizes ----
out=$tmp/p64
expect 0 "$bin" plan "${CLUSTER[@]}" --size 1MB:3,64MB:1 --out "$out"
[ ! -s "$tmp/err" ] || fail "plan printed on stderr although stderr is not a terminal: $(cat "$tmp/err")"
cp "$tmp/out" "$tmp/plan_stdout"
for f in $FILES; do [ -s "$out/$f" ] || fail "plan did not write $f"; done
[ -f "$out/.topocoll-plan" ] || fail "plan did not write its marker .topocoll-plan"
# the report's three (plan.json, report.html, topology.svg: cli_report.sh)
[ "$(ls -A "$out" | wc -l)" -eq 12 ] || fail "plan wrote other files than the eleven and the marker: $(ls -A "$out")"
ls -A "$tmp" | grep -q '^p64\.' && fail "plan left a temporary directory: $(ls -A "$tmp")"

# the choice is find's for the same cluster and workload
expect 0 "$bin" find "${FIND_CLUSTER[@]}" --size 1MB:3,64MB:1 --json
spec=$(python3 -c "import json; j=json.load(open('$tmp/out')); print(j['frontier'][j['choice']]['spec'])")
[ -n "$spec" ] || fail "find gave no choice"
grep -qF "$spec" "$tmp/plan_stdout" || fail "plan's report does not name the choice '$spec': $(cat "$tmp/plan_stdout")"

# the topology files describe the chosen spec's graph
expect 0 "$bin" topo "file($out/topology.json)" --json --no-reverse-symmetry
cp "$tmp/out" "$tmp/topo_file.json"
expect 0 "$bin" topo "$spec" --json --no-reverse-symmetry
python3 - "$tmp/topo_file.json" "$tmp/out" <<'PY' || fail "topology.json is not the graph of '$spec'"
import json, sys
a, b = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
assert a["nodes"] == 64 and a["out_degree"] == 4, a
for k in ("nodes", "arcs", "out_degree", "in_degree", "diameter", "avg_distance_exact", "distance_histogram"):
    assert a[k] == b[k], (k, a[k], b[k])
PY
arcs=$(python3 -c "import json; print(json.load(open('$tmp/topo_file.json'))['arcs'])")
grep -q '^cable,' "$out/wiring.csv" || fail "wiring.csv lacks its header"
bidir=0   # --links simplex: one fibre per arc, even where the chosen graph's arcs pair up
python3 - "$out/wiring.csv" "$arcs" "$bidir" <<'PY' || fail "wiring.csv does not cable every arc once on distinct ports"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
arcs, bidir = int(sys.argv[2]), int(sys.argv[3])
assert len(rows) == (arcs // 2 if bidir else arcs), (len(rows), arcs)   # one cable per arc (simplex) or link
assert all(r["kind"] == ("duplex" if bidir else "simplex") for r in rows), set(r["kind"] for r in rows)
ports = set()
for r in rows:
    for end in ("from", "to"):
        key = (r[end + "_node"], r[end + "_port"], "" if bidir else end)   # simplex: tx and rx sides differ
        assert key not in ports, ("port used twice", key)
        ports.add(key)
PY
grep -q 'digraph\|graph' "$out/topology.dot" || fail "topology.dot is not Graphviz"

# every schedule passes the independent verifier, on the graph rebuilt from the spec
for coll in allgather reduce-scatter allreduce; do
  expect 0 "$bin" verify "$out/$coll.json" "$spec" --json
  cp "$tmp/out" "$tmp/v_$coll.json"
  python3 -c "
import json; j=json.load(open('$tmp/out'))
assert j['verified'] and j['collective']=='$coll' and j['nodes']==64 and j['degree']==4, j" ||
    fail "verify $coll.json: $(head -c 600 "$tmp/out")"
done
# allreduce = reduce-scatter + allgather: steps and T_B add (paper 000 §3); the allgather
# keeps the finder's prediction (equal, or below a Theorem 7 upper bound)
expect 0 "$bin" find --nodes 64 --degree 4 --json
python3 - "$tmp" "$spec" "$tmp/out" <<'PY' || fail "schedule costs do not add up"
import json, sys
from fractions import Fraction as F
d = sys.argv[1]
v = {c: json.load(open(f"{d}/v_{c}.json")) for c in ("allgather", "reduce-scatter", "allreduce")}
def fr(s):
    n, m = s.split("/")
    return F(int(n), int(m))
ag, rs, ar = v["allgather"], v["reduce-scatter"], v["allreduce"]
assert ar["steps"] == ag["steps"] + rs["steps"], (ar["steps"], ag["steps"], rs["steps"])
assert fr(ar["tb_factor"]) == fr(ag["tb_factor"]) + fr(rs["tb_factor"]), (ar, ag, rs)
m = [m for m in json.load(open(sys.argv[3]))["frontier"] if m["spec"] == sys.argv[2]][0]
assert ag["steps"] == m["steps"], (ag, m)
assert fr(ag["tb_factor"]) <= fr(m["tb_factor"]) if m["tb_is_bound"] else fr(ag["tb_factor"]) == fr(m["tb_factor"]), (ag, m)
PY

# summary.md: cluster, choice, frontier table with the bound row, the baselines at their
# closed-form costs, and the baseline times at 1 MB
sum=$out/summary.md
grep -qF "\`$spec\`" "$sum" || fail "summary.md does not name the choice '$spec'"
grep -q '(chosen)' "$sum" || fail "summary.md does not mark the choice in the why-table"
grep -q "^| theoretical bound | | 3α | 0.984 M/B | 63/64 | 3 | " "$sum" || fail "summary.md lacks the bound row"
grep -q '1 MB (3), 64 MB (1)' "$sum" || fail "summary.md does not show the weighted sizes"
grep -q '^- ring on uniring(4,64): T_L = 126α, T_B = 63/32 M/B (B = 4·b)$' "$sum" ||
  fail "summary.md lacks the ring baseline at its closed form"
grep -q '^- BFB ring on biring(4,64): T_L = 64α, T_B = 63/32 M/B (B = 4·b)$' "$sum" ||
  fail "summary.md lacks the BFB ring baseline at its closed form"
python3 - "$sum" <<'PY' || fail "summary.md lacks the double binary tree at its closed forms: $(grep 'binary tree on' "$sum")"
import sys
from fractions import Fraction as F
K, d = 6, 4                       # floor(log2 64), the tree topology's node bandwidth
parts = []
for P in (1, 2, 4, 8, 16, 32, 64):
    tau = F(d * (K + P - 1), P)
    parts.append(f"P = {P}: T_L = {2 * (K + P - 1)}α, T_B = {tau.numerator}" + (f"/{tau.denominator}" if tau.denominator > 1 else "") + " M/B")
want = "- double binary tree on its own topology (two trees): " + "; ".join(parts) + " (B = 4·b)\n"
assert want in open(sys.argv[1]).read(), want
PY
grep -q '^| size | `.*` | ring | BFB ring | double binary tree |$' "$sum" || fail "summary.md lacks the baseline table"
python3 - "$sum" <<'PY' || fail "summary.md baseline times at 1 MB: $(grep '^| 1 MB' "$sum")"
import re, sys
rows = [l for l in open(sys.argv[1]) if l.startswith("| 1 MB |")]
assert len(rows) == 1, rows          # the baseline table's row (the why-table has sizes as columns)
cells = [c.strip() for c in rows[0].strip().strip("|").split("|")]
def sec(text):
    v, unit = re.match(r"([0-9.]+) (µs|ms|s)", text).groups()
    return float(v) * {"µs": 1e-6, "ms": 1e-3, "s": 1}[unit]
B = 4 * 3.125e9
ring = 126 * 1e-5 + 63 / 32 * 1e6 / B
bfbring = 64 * 1e-5 + 63 / 32 * 1e6 / B
dbt = min(2 * (6 + P - 1) * 1e-5 + 4 * (6 + P - 1) / P * 1e6 / B for P in (1, 2, 4, 8, 16, 32, 64))
for cell, want in zip(cells[2:], (ring, bfbring, dbt)):
    assert abs(sec(cell) - want) <= 1e-3 * want, (cell, want)
ours = sec(cells[1])
assert abs(sec(cells[2]) / ours - float(re.search(r"\(([0-9.]+)×", cells[2]).group(1))) < 0.01, cells
PY

# ---- bidirectional fabric; one size; default weight; the default directory name ----
(cd "$tmp" && "$bin" plan --nodes 16 --degree 4 --alpha 1us --link-bw 100Gbps --size 64MiB --bidirectional \
  >"$tmp/out" 2>"$tmp/err") || fail "plan --bidirectional at N = 16: $(cat "$tmp/err")"
for f in $FILES; do [ -s "$tmp/plan-16-4/$f" ] || fail "default directory plan-16-4 lacks $f"; done
expect 0 "$bin" topo "file($tmp/plan-16-4/topology.json)" --json --no-reverse-symmetry
python3 -c "import json; j=json.load(open('$tmp/out')); assert j['bidirectional'] and j['nodes']==16 and j['out_degree']==4, j" ||
  fail "plan --bidirectional chose a topology that is not bidirectional"
for coll in allgather reduce-scatter allreduce; do
  expect 0 "$bin" verify "$tmp/plan-16-4/$coll.json"
done
grep -q '^- bidirectional ring on biring(4,16): T_L = 30α, T_B = 15/8 M/B' "$tmp/plan-16-4/summary.md" ||
  fail "bidirectional plan lacks the traditional bidirectional ring (2(N-1) steps, 2(N-1)/N)"

expect 0 "$bin" plan --nodes 32 --degree 4 --alpha 10us --link-bw 25Gbps --size 1MB,4MB --out "$tmp/p32"
grep -q '1 MB (1), 4 MB (1)' "$tmp/p32/summary.md" || fail "a missing weight is not 1"
# ForestColl beside the chosen member (N <= 32): per size the faster one runs; on this
# bandwidth-optimal member the member's own allreduce wins, so no allreduce-forestcoll.json
grep -qx "ForestColl's allreduce: not tried on 64 nodes (the plan tries it up to 32)." "$sum" ||
  fail "the N = 64 plan does not say ForestColl was not tried"
p32spec=$(grep -o '^\*\*`[^`]*`' "$tmp/p32/summary.md" | tr -d '*`')
grep -qxF "| size | \`$p32spec\` | ForestColl | runs |" "$tmp/p32/summary.md" || fail "the N = 32 plan lacks the ForestColl table"
grep -qxF "| 4 MB | $(grep '^| 4 MB |' "$tmp/p32/summary.md" | tail -1 | cut -d'|' -f3 | sed 's/^ //; s/ $//') | $(grep '^| 4 MB |' "$tmp/p32/summary.md" | sed -n 1p | cut -d'|' -f4- | sed 's/^ //')" "$tmp/p32/summary.md" ||
  fail "the N = 32 ForestColl table's member column is not the baseline table's"
grep -qx "The chosen topology's allreduce is faster at the largest size: \`allreduce.json\` is the one to run." "$tmp/p32/summary.md" ||
  fail "the N = 32 plan does not say which allreduce runs at the largest size"
[ ! -e "$tmp/p32/allreduce-forestcoll.json" ] || fail "allreduce-forestcoll.json written although ForestColl loses"

# ---- the directory: refused when occupied; --force replaces only a plan directory ----
mkdir "$tmp/busy" && echo keep >"$tmp/busy/mine.txt"
expect_err 2 "output directory '$tmp/busy' exists and is not empty, and is not a plan directory written by topocoll plan" \
  "$bin" plan "${CLUSTER[@]}" --size 1MB --out "$tmp/busy"
[ "$(cat "$tmp/busy/mine.txt")" = keep ] && [ "$(ls -A "$tmp/busy")" = mine.txt ] || fail "a refused plan touched DIR"
expect_err 2 "'$tmp/busy' is not a plan directory written by topocoll plan (no .topocoll-plan); refusing to replace it" \
  "$bin" plan "${CLUSTER[@]}" --size 1MB --out "$tmp/busy" --force
[ "$(cat "$tmp/busy/mine.txt")" = keep ] && [ "$(ls -A "$tmp/busy")" = mine.txt ] || fail "a refused --force touched DIR"
[ "$(ls -A "$tmp" | grep -c '^busy')" -eq 1 ] || fail "a refused --force left directories beside DIR: $(ls -A "$tmp")"
expect_err 2 "output directory '$out' exists and is not empty (--force replaces it)" \
  "$bin" plan "${CLUSTER[@]}" --size 1MB --out "$out"
echo stale >"$out/stale.txt"
expect 0 "$bin" plan "${CLUSTER[@]}" --size 1MB --out "$out" --force
[ ! -e "$out/stale.txt" ] || fail "--force kept the old contents"
for f in $FILES .topocoll-plan; do [ -s "$out/$f" ] || fail "--force did not write $f"; done
[ "$(ls -A "$(dirname "$out")" | grep -c "^$(basename "$out")")" -eq 1 ] ||
  fail "--force left directories beside DIR: $(ls -A "$(dirname "$out")")"
expect_err 2 "a plan is a directory of files; '-' (standard output) cannot receive it" \
  "$bin" plan "${CLUSTER[@]}" --size 1MB --out -
mkdir "$tmp/empty"
expect 0 "$bin" plan "${CLUSTER[@]}" --size 1MB --out "$tmp/empty"
[ -s "$tmp/empty/summary.md" ] || fail "an existing empty DIR was not used"
echo x >"$tmp/afile"
expect_err 2 "is not a directory" "$bin" plan "${CLUSTER[@]}" --size 1MB --out "$tmp/afile"

# ---- an unwritable DIR: exit 1, one line, nothing left behind ----
expect_err 1 "$tmp/afile/sub" "$bin" plan "${CLUSTER[@]}" --size 1MB --out "$tmp/afile/sub"
[ "$(cat "$tmp/afile")" = x ] || fail "the failed plan touched $tmp/afile"
mkdir "$tmp/ro"
chmod a-w "$tmp/ro"
if ! touch "$tmp/ro/probe" 2>/dev/null; then     # permissions bind (not root)
  expect_err 1 "cannot create" "$bin" plan "${CLUSTER[@]}" --size 1MB --out "$tmp/ro/p"
  [ -z "$(ls -A "$tmp/ro")" ] || fail "a failed plan left files: $(ls -A "$tmp/ro")"
fi
if [ -d /proc/self ]; then                          # a file system that takes no directories
  expect_err 1 "cannot create" "$bin" plan "${CLUSTER[@]}" --size 1MB --out /proc/topocoll-plan-test
  [ ! -e /proc/topocoll-plan-test ] || fail "a failed plan left /proc/topocoll-plan-test"
fi

# ---- progress: on a terminal, nothing otherwise (checked above; tests/cli_progress.sh) ----
if command -v script >/dev/null 2>&1; then
  script -qec "'$bin' plan ${CLUSTER[*]} --size 1MB --out '$tmp/tty' >/dev/null" "$tmp/typescript" \
    >/dev/null 2>&1 </dev/null
  grep -q 'topocoll plan: \[[0-9.]* s\] finding the Pareto frontier' "$tmp/typescript" ||
    fail "no progress on a terminal: $(cat "$tmp/typescript")"
  grep -q 'topocoll plan: \[[0-9.]* s\] writing' "$tmp/typescript" || fail "no 'writing' progress line on a terminal"
  [ -s "$tmp/tty/summary.md" ] || fail "the plan under a terminal was not written"
else
  echo "cli_plan: 'script' not installed: progress on a terminal not checked" >&2
fi

# ---- bad usage and input: exit 2, one line, nothing written ----
expect_err 2 "--nodes expects an integer" "$bin" plan --nodes 1 --degree 4 --alpha 10us --link-bw 25Gbps --size 1MB --out "$tmp/bad"
expect_err 2 "--degree expects an integer" "$bin" plan --nodes 64 --degree 0 --alpha 10us --link-bw 25Gbps --size 1MB --out "$tmp/bad"
expect_err 2 "--size" "$bin" plan "${CLUSTER[@]}" --size 1MB:x --out "$tmp/bad"
expect_err 2 "--size" "$bin" plan "${CLUSTER[@]}" --size 12QB --out "$tmp/bad"
expect_err 2 "--size" "$bin" plan "${CLUSTER[@]}" --size 1MB, --out "$tmp/bad"
expect_err 2 "--size" "$bin" plan "${CLUSTER[@]}" --size 0B --out "$tmp/bad"
expect_err 2 "--link-bw" "$bin" plan --nodes 64 --degree 4 --alpha 10us --link-bw 0Gbps --size 1MB --out "$tmp/bad"
expect_err 2 "needs --alpha, --link-bw and --size" "$bin" plan --nodes 64 --degree 4 --out "$tmp/bad"
expect_err 2 "unknown option" "$bin" plan "${CLUSTER[@]}" --size 1MB --outdir "$tmp/bad"
[ ! -e "$tmp/bad" ] || fail "a refused plan created its directory"

# ---- --fabric: a cluster the user already has; no search ----
# dgx_a100(2) (paper 001 §5.3): the bottleneck cut is one GPU's ingress, 300 NVSwitch + 25 IB
# = 325 GB/s for the 15 other GPUs' shards: 1/x* = 15/325 = 3/65, k = 13, algbw 16·325/15 =
# 346.667 GB/s per half, 173.333 for the allreduce; any ring crosses the 8·25 = 200 GB/s
# cluster cut with N-1 shards: 16·200/15 = 213.333 GB/s, ForestColl 1.625x that.
FAB=(--alpha 10us --link-bw 1GBps)
fab=$tmp/fab
expect 0 "$bin" plan --fabric 'dgx_a100(2)' "${FAB[@]}" --size 1MB,1GiB --out "$fab"
[ ! -s "$tmp/err" ] || fail "plan --fabric printed on stderr: $(cat "$tmp/err")"
grep -qx 'fabric       dgx_a100(2) (16 compute + 20 switch nodes)' "$tmp/out" || fail "plan --fabric report: $(cat "$tmp/out")"
grep -qx 'optimum      allreduce algbw 173.333 GB/s (ForestColl; bottleneck cuts in summary.md)' "$tmp/out" ||
  fail "plan --fabric optimum: $(cat "$tmp/out")"
want="allgather-forestcoll.json allreduce-forestcoll.json forest.json plan.json ranks.csv reduce-scatter-forestcoll.json report.html summary.md topology.dot topology.json topology.svg wiring.csv"
[ "$(ls "$fab" | tr '\n' ' ')" = "$want " ] || fail "plan --fabric wrote: $(ls "$fab" | tr '\n' ' ')"
[ -f "$fab/.topocoll-plan" ] || fail "plan --fabric did not write the marker"
for c in allgather reduce-scatter allreduce; do
  expect 0 "$bin" verify "$fab/$c-forestcoll.json" 'dgx_a100(2)' --json
  python3 -c "import json; j=json.load(open('$tmp/out')); assert j['verified'] and j['collective']=='$c', j" ||
    fail "verify $c-forestcoll.json: $(head -c 400 "$tmp/out")"
done
python3 - "$fab/forest.json" <<'PY' || fail "forest.json is not the verified allreduce forest"
import json, sys
j = json.load(open(sys.argv[1]))
assert j["collective"] == "allreduce", j["collective"]
assert len(j["parts"]) == 2 and all(p["trees"] for p in j["parts"]), j.keys()
PY
fsum=$fab/summary.md
for line in \
  '# topocoll plan: fabric `dgx_a100(2)`' \
  '| switch nodes | 20 |' \
  '- BFB: not applicable (BFB needs a graph without switches; this fabric has 20)' \
  '- allgather (out-trees, k = 13 per node): algbw 346.667 GB/s; bottleneck cut of 15 compute nodes with 325 capacity leaving, 1/x* = 3/65; S* = {1-35}' \
  '- reduce-scatter (in-trees on the transpose, k = 13 per node): algbw 346.667 GB/s; bottleneck cut of 15 compute nodes with 325 capacity leaving, 1/x* = 3/65; S* = {1-35}' \
  'Every ring allgather sends N−1 shards across the least cut that splits the compute nodes (capacity 200), so no ring, nor several in parallel, beats 213.333 GB/s; ForestColl'"'"'s allgather reaches 346.667 GB/s, 1.625× that.' \
  '| 1 MB | n/a | 689.6 µs (P = 2) | 5.8 µs | ForestColl, P = 2 |' \
  '| 1 GiB | n/a | 9.373 ms (P = 64) | 6.195 ms | ForestColl, P = 64 |'; do
  grep -qxF -- "$line" "$fsum" || fail "fabric summary.md lacks: $line"
done
# the schedules' costs as the summary states them are `topocoll sched`'s at the same P
expect 0 "$bin" sched 'dgx_a100(2)' --coll allreduce --algo forestcoll --chunks 64 --json
python3 - "$tmp/out" "$fsum" <<'PY' || fail "the allreduce's cost in summary.md is not sched's at P = 64"
import json, sys
j = json.load(open(sys.argv[1]))
n, d = j["tb_factor"].split("/")
want = f"ForestColl allreduce, pipelined at P = 64 (the fastest of P = 1, 2, 4, ..., 64 at the largest size): T_L = {j['steps']}α, T_B = {n}/{d} M/B"
assert want in open(sys.argv[2]).read(), want
PY

# a switch-free graph: BFB beside ForestColl, and the per-size choice
# hypercube(3): BFB is bandwidth-optimal (allreduce 6α, 7/4 M/B); the cut is one node's 3
# in-links for 7 shards, 1/x* = 7/3, algbw 24/7 = 3.42857 GB/s per half.
hyp=$tmp/fabh
expect 0 "$bin" plan --fabric 'hypercube(3)' "${FAB[@]}" --size 1KB,1GB --out "$hyp"
for f in allgather-bfb.json reduce-scatter-bfb.json allreduce-bfb.json; do
  expect 0 "$bin" verify "$hyp/$f" 'hypercube(3)'
done
for line in \
  '- BFB allreduce: T_L = 6α, T_B = 7/4 M/B (B = 3·b)' \
  '- allgather (out-trees, k = 3 per node): algbw 3.42857 GB/s; bottleneck cut of 7 compute nodes with 3 capacity leaving, 1/x* = 7/3; S* = {1-7}' \
  '| 1 KB | 60.6 µs | 101.3 µs (P = 1) | 0.6 µs | BFB |' \
  '| 1 GB | 583.393 ms | 598.365 ms (P = 64) | 583.333 ms | BFB |'; do
  grep -qxF -- "$line" "$hyp/summary.md" || fail "hypercube(3) fabric summary.md lacks: $line"
done

# genkautz(4,64): 4 nodes have a self-loop, 3 links each way to others. BFB's allreduce
# (6α, 21/8 M/B) misses the cost model's bound 2 (cost.h); ForestColl's with equal shares too
# (1347/512 at P = 64), but with the water-filling weights — one share on each looped node,
# none elsewhere — its trees are 3 hops deep and tau(P) = 2(P + 2)/P (test_forest_weights.c):
# 33/16 at P = 64, 33/32 of the bound. At 1 GiB, B = 4·12.5 GB/s: 132 µs + 33/16·M/B =
# 44.424 ms against BFB's 6 µs + 21/8·M/B = 56.377 ms, the fluid optimum M/(2·12.5 GB/s) =
# 42.950 ms (the weighted forest's algbw, 2 links' worth).
gk=$tmp/fabgk
expect 0 "$bin" plan --fabric 'genkautz(4,64)' --alpha 1us --link-bw 100Gbps --size 1MB,1GiB --out "$gk"
for line in \
  '## The optimum and its certificate (paper 001, eq. (1), weighted roots)' \
  '- allgather (out-trees, k = 1 per share): algbw 50 GB/s; bottleneck cut holding 4 of the W = 4 shares with 4 capacity leaving, 1/x* = 1; S* = {1-63}' \
  'ForestColl'"'"'s allreduce has weighted roots: the auto weights (water-filling: 4 of 64 compute nodes own the buffer, forest.h) measure T_B = 33/16 M/B at P = 64, against 1347/512 M/B at P = 64 with equal shares, so the plan keeps them.' \
  '- ForestColl allreduce, pipelined at P = 64 (the fastest of P = 1, 2, 4, ..., 64 at the largest size): T_L = 132α, T_B = 33/16 M/B (B = 4·b)' \
  '| 1 GiB | 56.377 ms | 44.424 ms (P = 64) | 42.950 ms | ForestColl, P = 64 |'; do
  grep -qxF -- "$line" "$gk/summary.md" || fail "genkautz(4,64) fabric summary.md lacks: $line"
done
python3 - "$gk/forest.json" <<'PY' || fail "genkautz(4,64) forest.json: $(head -c 400 "$gk/forest.json")"
import json, sys
j = json.load(open(sys.argv[1]))
assert j["weights"] == [int(v in (12, 25, 38, 51)) for v in range(64)], j["weights"]
assert (j["algbw"], j["inv_x"], j["trees"]) == ("2", "1", 4), j
PY
expect 0 "$bin" verify "$gk/allreduce-forestcoll.json" 'genkautz(4,64)' --json
python3 -c "import json; j=json.load(open('$tmp/out')); assert (j['shards'], j['tb_factor'], j['steps']) == (4, '33/16', 132), j" ||
  fail "genkautz(4,64) allreduce-forestcoll.json: $(head -c 400 "$tmp/out")"

# auto weights ForestColl cannot lower (3000073 shares on a triangle of prime capacities)
# leave equal shares, and the summary says why
printf '0 1 1000003\n1 0 1000003\n1 2 1000033\n2 1 1000033\n0 2 1000037\n2 0 1000037\n' >"$tmp/tri.edges"
expect 0 "$bin" plan --fabric "file($tmp/tri.edges)" --alpha 1us --link-bw 1GBps --size 1MB --out "$tmp/ptri"
grep -qxF "ForestColl's allreduce has equal shares: the auto weights (water-filling) were refused: forestcoll: the weights add up to 3000073 shares; a step schedule holds at most 1048576 shards (divide the weights by a common factor, or use smaller ones)" \
  "$tmp/ptri/summary.md" || fail "the triangle plan's weights line: $(grep -i weights "$tmp/ptri/summary.md")"
grep -q '"weights"' "$tmp/ptri/forest.json" && fail "the triangle plan kept a weighted forest"

# a chosen member whose allreduce misses the bound: ForestColl is tried beyond 32 nodes. With
# alpha = 100us and most calls small, debruijn(4,3) wins the frontier (3 steps); it has 4
# self-loops like genkautz(4,64), and ForestColl's weighted allreduce beats its own at 1 GiB
# (P = 16: 36 steps, 9/4 M/B). Simplex fibres: de Bruijn graphs are not bidirectional.
dbj=$tmp/pdbj
expect 0 "$bin" plan --nodes 64 --degree 4 --alpha 100us --link-bw 100Gbps --size 64KB:100,1GiB:1 --links simplex \
  --out "$dbj"
grep -q '^topology     debruijn(4,3) ' "$tmp/out" || fail "the debruijn plan chose: $(head -1 "$tmp/out")"
for line in \
  '| 1 GiB | 56.971 ms | 51.918 ms (P = 16) | ForestColl, P = 16 |' \
  'ForestColl is faster at the largest size: its allreduce at P = 16 is written too, `allreduce-forestcoll.json`.' \
  'ForestColl'"'"'s allreduce has weighted roots: the auto weights (water-filling: 4 of 64 compute nodes own the buffer, forest.h) measure T_B = 9/4 M/B at P = 16, against 171/64 M/B at P = 8 with equal shares, so the plan keeps them.'; do
  grep -qxF -- "$line" "$dbj/summary.md" || fail "debruijn(4,3) plan summary.md lacks: $line"
done
expect 0 "$bin" verify "$dbj/allreduce-forestcoll.json" 'debruijn(4,3)' --json
python3 -c "import json; j=json.load(open('$tmp/out')); assert (j['shards'], j['tb_factor']) == (4, '9/4'), j" ||
  fail "debruijn(4,3) allreduce-forestcoll.json: $(head -c 400 "$tmp/out")"

# --fabric refusals: one line, exit 2, nothing written
expect_err 2 "--fabric takes the cluster from the fabric; --nodes does not apply to it" \
  "$bin" plan --fabric 'dgx_a100(2)' --nodes 16 "${FAB[@]}" --size 1MB --out "$tmp/badf"
expect_err 2 "--fabric takes the cluster from the fabric; --degree does not apply to it" \
  "$bin" plan --fabric 'dgx_a100(2)' --degree 4 "${FAB[@]}" --size 1MB --out "$tmp/badf"
expect_err 2 "--fabric takes the cluster from the fabric; --bidirectional does not apply to it" \
  "$bin" plan --fabric 'dgx_a100(2)' --bidirectional "${FAB[@]}" --size 1MB --out "$tmp/badf"
expect_err 2 "this command needs --alpha, --link-bw and --size together" "$bin" plan --fabric 'dgx_a100(2)' --out "$tmp/badf"
expect_err 2 "--fabric needs a fabric spec" "$bin" plan --fabric '' "${FAB[@]}" --size 1MB --out "$tmp/badf"
expect_err 2 "fabric nosuch(2): bad spec \"nosuch(2)\": column 1: unknown topology 'nosuch'" \
  "$bin" plan --fabric 'nosuch(2)' "${FAB[@]}" --size 1MB --out "$tmp/badf"
printf '{"format": "topocoll-graph", "version": 1, "nodes": 3, "kinds": ["compute", "compute", "switch"], "arcs": [[0, 2, 2], [2, 0, 1], [1, 2, 1], [2, 1, 1]]}' >"$tmp/uneven.json"
expect_err 2 "topocoll plan: fabric file($tmp/uneven.json): forestcoll: node 0 has ingress 1 but egress 2: removing switches needs them equal at every node" \
  "$bin" plan --fabric "file($tmp/uneven.json)" "${FAB[@]}" --size 1MB --out "$tmp/badf"
[ ! -e "$tmp/badf" ] || fail "a refused plan --fabric created its directory"
(cd "$tmp" && "$bin" plan --fabric 'hypercube(2)' "${FAB[@]}" --size 1MB >/dev/null 2>&1) || fail "plan --fabric with the default DIR"
[ -s "$tmp/plan-fabric/allreduce-forestcoll.json" ] || fail "plan --fabric's default DIR is not plan-fabric"

finish cli_plan
