#!/usr/bin/env bash
# cli_sched.sh — drives `topocoll sched` and `topocoll verify`: exact steps and
# T_B factors against the paper, predicted times against the closed form
# T = T_L*alpha + tau*M/B (B = degree * link bandwidth), schedule files that `verify`
# accepts, a corrupted file that it rejects naming the transfer, and the exit codes
# (0 ok, 1 invalid schedule or failed write, 2 bad usage or input) with one-line errors.
# Expected numbers (paper 000):
#   bipartite(2) = K_{2,2} BFB allgather: T_L 2, tau 3/4 (Figure 1), BW- and Moore-optimal;
#   torus(3,3,2) BFB: T_L 3, tau 17/18 (§6.2, Thm 13 + BFB ring), Moore bound 2;
#   genkautz(4,64) = Π_{4,64} BFB: T_L 3, tau 21/16 = 1.312 (Table 7); four nodes have a self-loop
#     and only three links from others, so the optimum is (63/64)(4/3) = 21/16: BW-optimal;
#   biring(2,8) BFB ring: T_L floor(8/2) = 4, tau 7/8 (App. F.1);
#   reduce-scatter by Thm 2 / Cor 1.1 costs what the allgather costs (Thm 1);
#   allreduce = RS + AG: both terms double (§3);
#   genkautz(4,1024) allreduce with alpha 10us, 25 Gbps links, M = 1 MiB (M/B = 83.88608 us,
#   Table 4's 1 MB/100 Gbps read as 2^20 B): 2(50 + 341/256 M/B) = 323.5 us (Table 4);
#   torus-dor on 3x3x2: T_L = Σ(d_i - 1) = 5 (§6.2).
set -u
bin=$1
. "$(dirname "$0")/lib_cli.sh"

# check_json KEY=PYTHON-VALUE... : compare keys of the JSON report in $tmp/out
check_json() {
  python3 - "$tmp/out" "$@" <<'PY' || fail "json values ($*): $(cat "$tmp/out")"
import json, sys
j = json.load(open(sys.argv[1]))
for kv in sys.argv[2:]:
    k, v = kv.split("=", 1)
    want = eval(v)
    assert j[k] == want, (k, j[k], want)
PY
}

# ---- help ----
expect 0 "$bin" --help
grep -q '^  sched ' "$tmp/out" || fail "--help does not list sched"
grep -q '^  verify ' "$tmp/out" || fail "--help does not list verify"
expect 0 "$bin" help sched
for opt in --coll --algo --root --chunks --alpha --link-bw --size --factor --out --json torus-dor shiftedring; do
  grep -q -- "$opt" "$tmp/out" || fail "help sched lacks $opt"
done
expect 0 "$bin" help verify
grep -q 'FILE.json \[SPEC\]' "$tmp/out" || fail "help verify lacks the usage line"

# ---- exact costs from the paper ----
expect 0 "$bin" sched 'bipartite(2)' --coll allgather --algo bfb --json
check_json 'spec="bipartite(2)"' 'collective="allgather"' 'algorithm="bfb"' nodes=4 degree=2 steps=2 \
  'tb_factor="3/4"' tb_factor_float=0.75 'tb_optimal_factor="3/4"' bw_optimal=True moore_optimal=True \
  verified=True chunks_per_shard=2 transfers=16
python3 -c "import json; j=json.load(open('$tmp/out')); assert 'time_s' not in j and 'root' not in j" ||
  fail "time_s or root reported without being asked"

expect 0 "$bin" sched 'torus(3,3,2)' --coll allgather --algo bfb --json
check_json nodes=18 degree=5 steps=3 moore_steps=2 'tb_factor="17/18"' 'tb_optimal_factor="17/18"' bw_optimal=True \
  moore_optimal=False verified=True

expect 0 "$bin" sched 'genkautz(4,64)' --coll allgather --algo bfb --json
check_json nodes=64 degree=4 steps=3 'tb_factor="21/16"' tb_factor_float=1.3125 'tb_optimal_factor="21/16"' \
  bw_optimal=True moore_optimal=True verified=True
python3 -c "import json; j=json.load(open('$tmp/out')); assert '%.3f' % j['tb_factor_float'] == '1.312'" ||
  fail "genkautz(4,64) does not print as Table 7's 1.312"

expect 0 "$bin" sched 'biring(2,8)' --coll allgather --algo bfbring --json
check_json 'algorithm="bfbring"' steps=4 'tb_factor="7/8"' bw_optimal=True verified=True

expect 0 "$bin" sched 'genkautz(4,64)' --coll reduce-scatter --algo bfb --json
check_json 'collective="reduce-scatter"' steps=3 'tb_factor="21/16"' verified=True

expect 0 "$bin" sched 'bipartite(2)' --coll allreduce --algo bfb --json
check_json 'collective="allreduce"' steps=4 'tb_factor="3/2"' 'tb_optimal_factor="3/2"' bw_optimal=True

expect 0 "$bin" sched 'torus(3,3,2)' --coll allgather --algo torus-dor --json
check_json 'algorithm="torus-dor"' steps=5 bw_optimal=False verified=True

expect 0 "$bin" sched 'complete(8)' --coll broadcast --algo dbt --root 3 --json
check_json 'collective="broadcast"' root=3 verified=True

# --chunks P: exactly P chunks per shard (bfb rounds, App. E.2; a ring baseline refines)
expect 0 "$bin" sched 'torus(3,3,2)' --coll allgather --algo bfb --chunks 7 --json
check_json chunks_per_shard=7 steps=3 verified=True
expect 0 "$bin" sched 'biring(2,8)' --coll allreduce --algo biring --chunks 4 --json
check_json chunks_per_shard=4 verified=True

# the text report
expect 0 "$bin" sched 'bipartite(2)' --coll allgather --algo bfb
grep -q '^T_B factor  *3/4 = 0.750000 M/B; optimum 3/4: BW-optimal$' "$tmp/out" || fail "text report T_B line: $(cat "$tmp/out")"
grep -q '^verified  *yes$' "$tmp/out" || fail "text report lacks the verdict"

# ---- predicted time against the closed form ----
# check_time ALPHA_S BW_BPS BYTES : time_s == steps*alpha + tau*M/(degree*bw)
check_time() {
  python3 - "$tmp/out" "$@" <<'PY' || fail "time_s ($*): $(cat "$tmp/out")"
import json, sys
from fractions import Fraction
j = json.load(open(sys.argv[1]))
alpha, bw, size = float(sys.argv[2]), float(sys.argv[3]), int(sys.argv[4])
num, den = map(int, j["tb_factor"].split("/"))
want = j["steps"] * alpha + float(Fraction(num, den)) * size / (j["degree"] * bw)
assert abs(j["time_s"] - want) <= 1e-12 * want, (j["time_s"], want)
assert j["alpha_s"] == alpha and j["link_bw_Bps"] == bw and j["size_bytes"] == size, j
PY
}
expect 0 "$bin" sched 'torus(3,3,2)' --coll allgather --algo bfb --alpha 10us --link-bw 25Gbps --size 1MB --json
check_time 1e-5 3.125e9 1000000
expect 0 "$bin" sched 'genkautz(4,64)' --coll allreduce --algo bfb --alpha 1.5ms --link-bw 100GBps --size 4MiB --json
check_time 1.5e-3 1e11 4194304
expect 0 "$bin" sched 'genkautz(4,1024)' --coll allreduce --algo bfb --alpha 10us --link-bw 25Gbps --size 1MiB --json
check_time 1e-5 3.125e9 1048576
python3 -c "import json; j=json.load(open('$tmp/out')); assert j['steps']==10 and j['tb_factor']=='341/128' and '%.1f' % (j['time_s']*1e6) == '323.5', j" ||
  fail "genkautz(4,1024) allreduce is not Table 4's 323.5 us"
# two of three quantities: no time
expect 0 "$bin" sched 'bipartite(2)' --coll allgather --algo bfb --alpha 10us --size 1MB --json
python3 -c "import json; j=json.load(open('$tmp/out')); assert 'time_s' not in j and j['alpha_s'] == 1e-5" ||
  fail "time_s without a bandwidth"

# ---- schedule files and verify ----
expect 0 "$bin" sched 'torus(3,3,2)' --coll allgather --algo bfb --out "$tmp/t.json" --json
check_json "out=\"$tmp/t.json\"" steps=3
[ -s "$tmp/t.json" ] || fail "--out wrote nothing"
python3 -c "import json; j=json.load(open('$tmp/t.json')); assert j['format']=='topocoll-schedule' and j['version']==1 and j['graph']['spec']=='torus(3,3,2)' and len(j['graph']['arcs'])==90" ||
  fail "schedule file header"
expect 0 "$bin" verify "$tmp/t.json"
grep -q '^verified  *yes$' "$tmp/out" || fail "verify text report"
expect 0 "$bin" verify "$tmp/t.json" 'torus(3,3,2)' --json
check_json "file=\"$tmp/t.json\"" 'spec="torus(3,3,2)"' steps=3 'tb_factor="17/18"' bw_optimal=True verified=True transfers=458
# an allreduce with rs_steps, and a rooted collective, also survive the file
expect 0 "$bin" sched 'bipartite(2)' --coll allreduce --algo bfb --out "$tmp/ar.json"
expect 0 "$bin" verify "$tmp/ar.json" --json
check_json 'collective="allreduce"' steps=4 'tb_factor="3/2"'
python3 -c "import json; assert json.load(open('$tmp/ar.json'))['schedule']['rs_steps'] == 2" || fail "rs_steps not 2"
expect 0 "$bin" sched 'complete(6)' --coll reduce --algo dbt --root 2 --out "$tmp/red.json"
expect 0 "$bin" verify "$tmp/red.json" --json
check_json 'collective="reduce"' root=2 verified=True

# corrupt one transfer: move the first step-2 transfer to step 1, before its sender has the data
python3 - "$tmp/t.json" "$tmp/bad.json" <<'PY' || fail "could not corrupt the file"
import json, sys
j = json.load(open(sys.argv[1]))
t = j["schedule"]["transfers"]
i = next(i for i, x in enumerate(t) if x[1] == 2)
t[i][1] = 1
json.dump(j, open(sys.argv[2], "w"))
open(sys.argv[2] + ".index", "w").write(str(i))
PY
idx=$(cat "$tmp/bad.json.index")
expect_err 1 "transfer #$idx " "$bin" verify "$tmp/bad.json"
grep -qF "$tmp/bad.json: invalid:" "$tmp/err" || fail "invalid verdict does not name the file"
expect 1 "$bin" verify "$tmp/bad.json" --json
check_json verified=False
# relabel a step-1 transfer's shard: its sender does not own that shard, and the shard it
# should have sent goes missing downstream (several violations; one names a transfer)
python3 - "$tmp/t.json" "$tmp/bad2.json" <<'PY' || fail "could not corrupt the file"
import json, sys
j = json.load(open(sys.argv[1]))
t = j["schedule"]["transfers"]
t[0][0] = (t[0][0] + 1) % 18
json.dump(j, open(sys.argv[2], "w"))
PY
expect_err 1 'invalid: transfer #' "$bin" verify "$tmp/bad2.json"

# verify: bad input is 2, never 1
expect_err 2 'graph.nodes: 18, but the given graph has 27 nodes' "$bin" verify "$tmp/t.json" 'torus(3,3,3)'
expect_err 2 'graph.arcs: 90 arcs, but the given graph has' "$bin" verify "$tmp/t.json" 'circulant(18,1,2,3)'
expect_err 2 "column 10" "$bin" verify "$tmp/t.json" 'torus(3,3'
expect_err 2 "cannot read $tmp/missing.json" "$bin" verify "$tmp/missing.json"
printf '{"format": "topocoll-schedule", "version": 2}' >"$tmp/v2.json"
expect_err 2 'version: unsupported version 2' "$bin" verify "$tmp/v2.json"
head -c 200 "$tmp/t.json" >"$tmp/cut.json"
expect_err 2 "$tmp/cut.json:" "$bin" verify "$tmp/cut.json"
expect_err 2 'missing FILE' "$bin" verify
expect_err 2 "unexpected argument 'x'" "$bin" verify "$tmp/t.json" 'torus(3,3,2)' x
expect_err 2 "unknown option '--frob'" "$bin" verify "$tmp/t.json" --frob

# ---- sched --list: the registry, one algorithm a line (name, collectives, topology, summary) ----
"$bin" sched --list >"$tmp/list" || fail "sched --list failed"
# (the names are pinned once, by the registry's own test: test_baselines.c) — here they
# must be unique and the ones the "unknown algorithm" line lists, in the same order
[ "$(cut -f1 "$tmp/list" | sort | uniq -d)" = "" ] || fail "sched --list: a name twice"
expect 2 "$bin" sched 'bipartite(2)' --coll allgather --algo bfs
[ "$(cat "$tmp/err")" = "topocoll sched: unknown algorithm 'bfs' ($(cut -f1 "$tmp/list" | paste -sd, | sed 's/,/, /g')) (see 'topocoll help sched')" ] ||
  fail "sched --list names differ from the unknown-algorithm line: $(cat "$tmp/err")"
grep -q $'^rhd\tallgather,reduce-scatter,allreduce\t' "$tmp/list" || fail "sched --list: rhd's collectives: $(grep ^rhd "$tmp/list")"
grep -q $'^dbt\tallreduce,broadcast,reduce\t' "$tmp/list" || fail "sched --list: dbt's collectives: $(grep ^dbt "$tmp/list")"
[ "$(awk -F'\t' 'NF != 4' "$tmp/list" | wc -l)" = 0 ] || fail "sched --list: a line without 4 fields"
# --algo expand follows the spec's construction: Diamond's stored schedule is BW-optimal
# (7/8, paper 000 Table 9) where BFB is not; L(K_3) by Definition 1 and Theorem 10: 2 steps, tau 1
"$bin" sched 'diamond()' --coll allgather --algo expand >"$tmp/out" || fail "expand on diamond()"
grep -q '^T_B factor  *7/8 = 0.875000 M/B; optimum 7/8: BW-optimal$' "$tmp/out" || fail "expand diamond: $(cat "$tmp/out")"
"$bin" sched 'line(complete(3))' --coll allgather --algo expand >"$tmp/out" || fail "expand on line(complete(3))"
grep -q '^steps  *2 ' "$tmp/out" && grep -q '^T_B factor  *1/1 ' "$tmp/out" || fail "expand L(K3): $(cat "$tmp/out")"

# ---- forestcoll: ForestColl's trees pipelined in P chunks per tree (paper 001) ----
# The same deterministic forest as `topocoll forest --out`: D = its deepest tree in hops
# (d(v) = d(parent) + the edge's longest route), D + P - 1 steps, one transfer per route hop
# and chunk, k*P units per shard (k = 13 on A100 2x8); the file verifies again.
"$bin" forest 'dgx_a100(2)' --out "$tmp/dgx-forest.json" >/dev/null || fail "forest dgx_a100(2) --out"
expect 0 "$bin" sched 'dgx_a100(2)' --coll allgather --algo forestcoll --chunks 4 --json --out "$tmp/dgx-ag.json"
check_json 'algorithm="forestcoll"' nodes=36 shards=16 chunks_per_shard=52 verified=True
python3 - "$tmp/dgx-forest.json" "$tmp/out" <<'PY' || fail "forestcoll steps/transfers against the forest: $(cat "$tmp/out")"
import json, sys
forest, rep = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
P, deepest, hops = 4, 0, 0
for b in forest["batches"]:
    depth = {b["root"]: 0}
    edges = list(b["edges"])
    while edges:  # parents first, whatever the listing order
        e = next(e for e in edges if e["from"] in depth)
        edges.remove(e)
        depth[e["to"]] = depth[e["from"]] + max(len(r["arcs"]) for r in e["routes"])
        hops += sum(len(r["arcs"]) for r in e["routes"])
    deepest = max(deepest, max(depth.values()))
assert rep["steps"] == deepest + P - 1, (rep["steps"], deepest)
assert rep["transfers"] == hops * P, (rep["transfers"], hops)
PY
expect 0 "$bin" verify "$tmp/dgx-ag.json" --json
check_json 'algorithm="forestcoll"' verified=True chunks_per_shard=52
# a fabric's allreduce (the reduce-scatter half relays partials through the switches) and
# the text report
expect 0 "$bin" sched 'fig2toy()' --coll allreduce --algo forestcoll --chunks 2 --out "$tmp/toy-ar.json"
grep -q '^algorithm  *forestcoll$' "$tmp/out" && grep -q '^chunks per shard  *2 (8 shards)$' "$tmp/out" ||
  fail "forestcoll text report: $(cat "$tmp/out")"
expect 0 "$bin" verify "$tmp/toy-ar.json" --json
check_json 'collective="allreduce"' verified=True
python3 -c "import json; j=json.load(open('$tmp/toy-ar.json'))['schedule']; assert 0 < j['rs_steps'] < j['steps']" ||
  fail "forestcoll allreduce file: rs_steps"
expect 0 "$bin" sched 'genkautz(4,64)' --coll allreduce --algo forestcoll --json
check_json nodes=64 shards=64 verified=True
# an allreduce on unequal links is built with equal shares and with the water-filling
# weights (forest.h) at the same P, and the smaller T_B factor is kept and named: on
# genkautz(4,64) the weights give the 4 looped nodes one share each, whose trees are 3 hops
# deep, so tau(P) = 2(P + 2)/P (tests/test_forest_weights.c): 6 against the equal shares' 3
# at P = 1, 33/16 against 1347/512 at P = 64 (the bound is 2)
expect 0 "$bin" sched 'genkautz(4,64)' --coll allreduce --algo forestcoll --chunks 64 --out "$tmp/gk-ar.json"
grep -qx 'T_B factor        33/16 = 2.062500 M/B; optimum 2/1: not BW-optimal' "$tmp/out" &&
  grep -qx 'chunks per shard  64 (4 shards)' "$tmp/out" &&
  grep -qx 'chosen            auto weights (water-filling: 4 of 64 nodes own the buffer): T_B factor 33/16 against 1347/512 with equal shares' "$tmp/out" ||
  fail "genkautz(4,64) weighted allreduce: $(cat "$tmp/out")"
expect 0 "$bin" verify "$tmp/gk-ar.json" --json
check_json shards=4 tb_factor='"33/16"' verified=True
expect 0 "$bin" sched 'genkautz(4,64)' --coll allreduce --algo forestcoll --json
check_json shards=64 tb_factor='"3/1"' chosen='"equal shares: T_B factor 3; auto weights (water-filling: 4 of 64 nodes own the buffer) give 6"'
expect 0 "$bin" sched 'hypercube(4)' --coll allreduce --algo forestcoll
grep -qx "chosen            equal shares (every node's links alike: the auto weights are equal)" "$tmp/out" ||
  fail "hypercube(4) forestcoll allreduce: $(cat "$tmp/out")"
expect 0 "$bin" sched 'hypercube(4)' --coll allgather --algo forestcoll
grep -q '^chosen' "$tmp/out" && fail "an allgather has nothing to choose: $(cat "$tmp/out")"
# auto weights a step schedule cannot hold (a triangle of prime capacities near 10^6: the
# shares are about 10^6 each) leave equal shares, with the reason
printf '0 1 1000003\n1 0 1000003\n1 2 1000033\n2 1 1000033\n0 2 1000037\n2 0 1000037\n' >"$tmp/tri.edges"
expect 0 "$bin" sched "file($tmp/tri.edges)" --coll allreduce --algo forestcoll
grep -qx 'chosen            equal shares: T_B factor 666722001120/500025500297 (auto weights refused: forestcoll: the weights add up to 3000073 shares; a step schedule holds at most 1048576 shards (divide the weights by a common factor, or use smaller ones))' \
  "$tmp/out" || fail "refused auto weights: $(cat "$tmp/out")"
# with the model, the choice of the fastest P's schedule: P = 64 and the weights at 1 GiB
expect 0 "$bin" sched 'genkautz(4,64)' --coll allreduce --algo forestcoll --alpha 1us --link-bw 100Gbps --size 1GiB --json
check_json chunks_chosen=64 shards=4 tb_factor='"33/16"' \
  chosen='"auto weights (water-filling: 4 of 64 nodes own the buffer): T_B factor 33/16 against 1347/512 with equal shares"'
# without --chunks but with the alpha-beta model, a pipelined algorithm (forestcoll, dbt)
# takes the fastest P of 1, 2, 4, ..., 64, each P's time being that schedule's own (the
# same command with --chunks P)
# check_fastest SPEC COLL ALGO
check_fastest() {
  local P model="--alpha 5us --link-bw 25GBps --size 4MB"
  # shellcheck disable=SC2086 # $model is a list of options
  "$bin" sched "$1" --coll "$2" --algo "$3" $model --json >"$tmp/chosen.json" || fail "$3 on $1 without --chunks"
  for P in 1 2 4 8 16 32 64; do
    # shellcheck disable=SC2086
    "$bin" sched "$1" --coll "$2" --algo "$3" $model --chunks $P --json >"$tmp/p$P.json" || fail "$3 --chunks $P"
  done
  python3 - "$tmp" <<'PY' || fail "$3 on $1: chunks_chosen is not the fastest P: $(cat "$tmp/chosen.json")"
import json, sys
d = sys.argv[1]
chosen = json.load(open(d + "/chosen.json"))
times = {P: json.load(open("%s/p%d.json" % (d, P)))["time_s"] for P in (1, 2, 4, 8, 16, 32, 64)}
best = min(times, key=lambda P: (times[P], P))
assert chosen["chunks_chosen"] == best and chosen["chunks_tried_max"] == 64, (chosen["chunks_chosen"], times)
assert chosen["time_s"] == times[best] and "chunks_chosen" not in json.load(open(d + "/p1.json"))
assert len(set(times.values())) > 1, times  # P matters here
PY
}
check_fastest 'hypercube(4)' allreduce forestcoll
check_fastest 'complete(8)' allreduce dbt
expect 0 "$bin" sched 'hypercube(4)' --coll allreduce --algo forestcoll --alpha 5us --link-bw 25GBps --size 4MB
grep -q '^pipelining  *P = [0-9]*: the fastest of P = 1, 2, 4, ..., 64 at this size$' "$tmp/out" ||
  fail "forestcoll: the chosen P is not reported: $(cat "$tmp/out")"
# ---- several sizes: one report per size (text sections, a JSON array) ----
expect 0 "$bin" sched 'torus(3,3)' --coll allreduce --algo bfb --alpha 10us --link-bw 25Gbps --size 1MB,256MB
# T = 4 alpha + (16/9) M / (4 x 3.125 GB/s): 182.222 us at 1 MB, 36.4489 ms at 256 MB
[ "$(grep -c '^size  ' "$tmp/out")" -eq 2 ] && [ "$(grep -c '^topology  ' "$tmp/out")" -eq 2 ] ||
  fail "two sections: $(cat "$tmp/out")"
grep -qx 'size              1 MB (1000000 B)' "$tmp/out" && grep -qx 'size              256 MB (256000000 B)' "$tmp/out" ||
  fail "size lines: $(cat "$tmp/out")"
grep -qx 'time              0.000182222222 s (alpha 1e-05 s, link 3.125e+09 B/s, M 1000000 B)' "$tmp/out" &&
  grep -qx 'time              0.0364488889 s (alpha 1e-05 s, link 3.125e+09 B/s, M 256000000 B)' "$tmp/out" ||
  fail "time lines: $(cat "$tmp/out")"
expect 0 "$bin" sched 'torus(3,3)' --coll alltoall --algo direct --alpha 1us --link-bw 25Gbps --size 1M..4M --json
python3 - "$tmp/out" <<'PY' || fail "--size 1M..4M --json: $(cat "$tmp/out")"
import json, sys
from fractions import Fraction
a = json.load(open(sys.argv[1]))
assert isinstance(a, list) and [j["size_bytes"] for j in a] == [1 << 20, 2 << 20, 4 << 20], a
for j in a:
    num, den = map(int, j["tb_factor"].split("/"))
    want = j["steps"] * 1e-6 + float(Fraction(num, den)) * j["size_bytes"] / (j["degree"] * 3.125e9)
    assert abs(j["time_s"] - want) <= 1e-12 * want and j["tb_factor"] == a[0]["tb_factor"], (j, want)
PY
expect 0 "$bin" sched 'torus(3,3)' --coll allgather --algo bfb --size 1K..64K --factor 8 --json
python3 -c "import json; a = json.load(open('$tmp/out')); assert [j['size_bytes'] for j in a] == [1024, 8192, 65536] and all('time_s' not in j for j in a), a" ||
  fail "--factor 8: $(cat "$tmp/out")"
# a pipelined algorithm picks P per size: each entry is what the one-size command gives
expect 0 "$bin" sched 'hypercube(4)' --coll allreduce --algo forestcoll --alpha 5us --link-bw 25GBps --size 4KB,4MB --json
cp "$tmp/out" "$tmp/both.json"
for sz in 4KB 4MB; do
  "$bin" sched 'hypercube(4)' --coll allreduce --algo forestcoll --alpha 5us --link-bw 25GBps --size $sz --json \
    >"$tmp/one-$sz.json" || fail "forestcoll at $sz"
done
python3 - "$tmp" <<'PY' || fail "per-size P: $(cat "$tmp/both.json")"
import json, sys
d = sys.argv[1]
both = json.load(open(d + "/both.json"))
one = [json.load(open(d + "/one-%s.json" % s)) for s in ("4KB", "4MB")]
assert both == one, (both, one)
assert both[0]["chunks_chosen"] != both[1]["chunks_chosen"], both  # P differs between the sizes here
PY
expect_err 2 "topocoll sched: --out writes one schedule, but forestcoll picks its pipelining P per size: give --chunks P or one --size" \
  "$bin" sched 'hypercube(4)' --coll allreduce --algo forestcoll --alpha 5us --link-bw 25GBps --size 4KB,4MB --out "$tmp/pp.json"
[ ! -e "$tmp/pp.json" ] || fail "the refused --out was written"
expect 0 "$bin" sched 'hypercube(4)' --coll allreduce --algo forestcoll --alpha 5us --link-bw 25GBps --size 4KB,4MB \
  --chunks 2 --out "$tmp/pp.json" --json
python3 -c "import json; a = json.load(open('$tmp/out')); assert len(a) == 2 and all(j['chunks_per_shard'] == a[0]['chunks_per_shard'] and j['out'] == '$tmp/pp.json' for j in a)" ||
  fail "--chunks with two sizes: $(cat "$tmp/out")"
[ -s "$tmp/pp.json" ] || fail "--chunks with two sizes: nothing written"

# refusals: a collective it does not build, a fabric ForestColl cannot handle
expect_line 2 "topocoll sched: forestcoll builds allgather, reduce-scatter and allreduce, not broadcast (use --algo $(algos ' or ' broadcast))" \
  "$bin" sched 'fig2toy()' --coll broadcast --algo forestcoll
printf '0 1\n1 2\n' >"$tmp/path.edges"
expect_err 2 'topocoll sched: forestcoll: compute node 1 cannot reach compute node 0' \
  "$bin" sched "file($tmp/path.edges)" --coll allgather --algo forestcoll

# ---- sched: bad usage and input exit 2 with one line ----
expect_err 2 'unknown unit "xs"' "$bin" sched 'bipartite(2)' --coll allgather --algo bfb --alpha 10xs
expect_err 2 '--link-bw: bandwidth "25gBps": unknown unit' "$bin" sched 'bipartite(2)' --coll allgather --algo bfb --link-bw 25gBps
expect_err 2 '--size: size "1.5B" is not a whole number of bytes' "$bin" sched 'bipartite(2)' --coll allgather --algo bfb --size 1.5B
expect_err 2 'must not be negative' "$bin" sched 'bipartite(2)' --coll allgather --algo bfb --alpha -1us
expect_err 2 'must be positive' "$bin" sched 'bipartite(2)' --coll allgather --algo bfb --link-bw 0Gbps
expect_err 2 "did you mean 'kautz'" "$bin" sched 'kauts(4,2)' --coll allgather --algo bfb
expect_err 2 "unknown algorithm 'bfs'" "$bin" sched 'bipartite(2)' --coll allgather --algo bfs
expect_err 2 "unknown collective 'gathr'" "$bin" sched 'bipartite(2)' --coll gathr --algo bfb
expect_err 2 'missing --coll' "$bin" sched 'bipartite(2)' --algo bfb
expect_err 2 'missing --algo' "$bin" sched 'bipartite(2)' --coll allgather
expect_err 2 'missing SPEC' "$bin" sched --coll allgather --algo bfb
expect_err 2 '--out needs a value' "$bin" sched 'bipartite(2)' --coll allgather --algo bfb --out
expect_err 2 "unknown option '--frob'" "$bin" sched 'bipartite(2)' --coll allgather --algo bfb --frob
expect_err 2 '--root applies to broadcast, reduce, scatter and gather only' "$bin" sched 'bipartite(2)' --coll allgather --algo bfb --root 1
expect_err 2 "--root expects an integer" "$bin" sched 'complete(4)' --coll broadcast --algo dbt --root x
expect_err 2 '--root 9 is not a node' "$bin" sched 'complete(4)' --coll broadcast --algo dbt --root 9
expect_err 2 "--chunks expects an integer in 1.." "$bin" sched 'bipartite(2)' --coll allgather --algo bfb --chunks 0
expect_err 2 "--chunks expects an integer in 1.." "$bin" sched 'bipartite(2)' --coll allgather --algo bfb --chunks 99999999999999999999
expect_err 2 "--chunks expects an integer in 1.." "$bin" sched 'bipartite(2)' --coll allgather --algo bfb --chunks 4x
expect_line 2 "topocoll sched: bfb builds allgather, reduce-scatter and allreduce, not broadcast (use --algo $(algos ' or ' broadcast))" "$bin" sched 'bipartite(2)' --coll broadcast --algo bfb
expect_line 2 "topocoll sched: unknown algorithm 'bfs' ($(algos ', ')) (see 'topocoll help sched')" "$bin" sched 'bipartite(2)' --coll allgather --algo bfs
# ring off UniRing: a cycle of arcs where there is one (Kautz graphs have one), routed where not
expect 0 "$bin" sched 'kautz(2,2)' --coll allreduce --algo ring
grep -qx "steps             22 (T_L = 22 alpha); Moore bound 6: not Moore-optimal" "$tmp/out" || fail "ring on kautz(2,2): $(cat "$tmp/out")"
printf '0 1\n1 0\n1 2\n2 1\n' >"$tmp/path3.edges"
expect_line 2 "topocoll sched: ring reduce-scatter: node 0 is 2 hops from node 2, and a partial cannot be relayed through a compute node (it would add its own)" \
  "$bin" sched "file($tmp/path3.edges)" --coll reduce-scatter --algo ring
expect_err 2 'torus-dor needs SPEC written as torus(' "$bin" sched 'hypercube(3)' --coll allgather --algo torus-dor
expect_err 2 'P must be a multiple of 2' "$bin" sched 'biring(2,8)' --coll allgather --algo biring --chunks 3

# ---- an unwritable --out: exit 1, nothing created, no report ----
expect_err 1 "$tmp/nodir/x.json" "$bin" sched 'bipartite(2)' --coll allgather --algo bfb --out "$tmp/nodir/x.json"
[ ! -e "$tmp/nodir" ] || fail "failed write created something"
mkdir "$tmp/ro" && chmod 500 "$tmp/ro"
if [ ! -w "$tmp/ro" ]; then # (root can write anywhere)
  expect_err 1 "$tmp/ro/x.json" "$bin" sched 'bipartite(2)' --coll allgather --algo bfb --out "$tmp/ro/x.json"
  [ -z "$(ls -A "$tmp/ro")" ] || fail "failed write left a file in $tmp/ro"
fi
chmod 700 "$tmp/ro"
# a failed run leaves an existing file untouched
echo old >"$tmp/keep.json"
expect_err 2 'unknown unit' "$bin" sched 'bipartite(2)' --coll allgather --algo bfb --size 1XB --out "$tmp/keep.json"
[ "$(cat "$tmp/keep.json")" = old ] || fail "a failed run replaced the --out file"

finish cli_sched
