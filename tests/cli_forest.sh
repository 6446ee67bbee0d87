#!/usr/bin/env bash
# cli_forest.sh — `topocoll forest` (ForestColl, paper 001; docs/forestcoll.md): the report's
# exact numbers, the k-scan table, the forest JSON document, and every refusal.
# Expected numbers (paper 001 §5.1, §5.3): A100 2x8 allgather 346.67 GB/s = 16·325/15 with
# 1/x* = 3/65, k = 13, y = 5/3, the cut one GPU's ingress (300 + 25); the best ring 213.33 =
# 16·200/15 (the cluster cut, 8·25), 1.625x; allreduce half of it, 173.33. MI250 2x16 at fixed
# k = 1..10 (§5.1's table) and its optimum 354.13 at k = 83 (1/x* = 15/166). The Fig. 2 toy:
# 1/x* = 1, k = 1, S* = cluster 1 + its switch w1 = {0,1,2,3,9}, 8 batches of 1 tree.
set -u
bin=$1
. "$(dirname "$0")/lib_cli.sh"

expect 0 "$bin" forest 'dgx_a100(2)' --size 1GB
cat >"$tmp/want" <<'OUT'
forest dgx_a100(2): allgather on 16 compute + 20 switch nodes (ForestColl, paper 001)
    optimum         algbw 346.67 GB/s = 1040/3 (1/x* = 3/65: T = (M/N)·(1/x*))
    bottleneck cut  15 compute nodes, 325 leaving: 15/325 = 3/65; S* = {1-35}
OUT
head -n 3 "$tmp/out" | cmp -s - "$tmp/want" || fail "dgx_a100(2) report head: $(head -n 3 "$tmp/out")"
grep -q '^    trees           k = 13 per node (208 in all), y = 5/3 GB/s per tree, [0-9]* batches$' "$tmp/out" ||
  fail "dgx_a100(2) trees line: $(grep trees "$tmp/out")"
grep -qx '  ring              at most 213.33 GB/s (every ring sends N-1 shards across the min cut, 200): forestcoll 1.625x that' "$tmp/out" ||
  fail "dgx_a100(2) ring line: $(grep ring "$tmp/out")"
grep -qx '  at 1 GB           T = 2.885 ms (bandwidth term; latency is not modelled)' "$tmp/out" ||
  fail "dgx_a100(2) --size line: $(grep 'at 1' "$tmp/out")"
grep -q '^  verified ' "$tmp/out" || fail "dgx_a100(2) not reported verified"
# a list of sizes: one line each, in the order given (T = M / (1040/3 GB/s))
expect 0 "$bin" forest 'dgx_a100(2)' --size 1GB,2GB
[ "$(grep '^  at ' "$tmp/out")" = "$(printf '  at 1 GB           T = 2.885 ms (bandwidth term; latency is not modelled)\n  at 2 GB           T = 5.769 ms (bandwidth term; latency is not modelled)')" ] ||
  fail "dgx_a100(2) --size 1GB,2GB: $(grep '^  at ' "$tmp/out")"

expect 0 "$bin" forest 'dgx_a100(2)' --coll allreduce
grep -qx '  allreduce         algbw 173.33 GB/s = 520/3 (T = T_RS + T_AG)' "$tmp/out" ||
  fail "allreduce line: $(grep '^  allreduce' "$tmp/out")"
[ "$(grep -c '^    optimum         algbw 346.67 GB/s' "$tmp/out")" -eq 2 ] || fail "allreduce: both halves at 346.67"

# §5.1's fixed-k table for MI250 2x16, search only, with the optimum row.
expect 0 "$bin" forest 'mi250(2)' --k-scan 1..10
awk 'NR > 2 && NR < 13 {print $1, $2, $3}' "$tmp/out" >"$tmp/rows"
cat >"$tmp/want" <<'OUT'
1 1/10 320.00
2 3/16 341.33
3 7/25 342.86
4 3/8 341.33
5 23/50 347.83
6 14/25 342.86
7 16/25 350.00
8 37/50 345.95
9 41/50 351.22
10 23/25 347.83
OUT
cmp -s "$tmp/rows" "$tmp/want" || fail "mi250(2) k-scan rows: $(cat "$tmp/rows")"
grep -q '^     opt  k = 83            354.13 GB/s  100.0%  (1/x\* = 15/166)$' "$tmp/out" || fail "k-scan optimum row: $(tail -n 1 "$tmp/out")"
expect 0 "$bin" forest 'mi250(2)' --k-scan 2..2 --json
python3 - "$tmp/out" <<'PY' || fail "k-scan --json"
import json, sys
j = json.load(open(sys.argv[1]))
assert j['k_scan'] == [{'k': 2, 'U': '3/16', 'algbw': '1024/3', 'algbw_float': 1024 / 3}], j['k_scan']
assert j['optimum']['k'] == 83 and j['optimum']['inv_x'] == '15/166', j['optimum']
PY

# The forest document: exact values, the trees, and the same through --out.
expect 0 "$bin" forest 'fig2toy()' --json --out "$tmp/toy.json"
cmp -s "$tmp/out" "$tmp/toy.json" || fail "--json and --out differ"
python3 - "$tmp/out" <<'PY' || fail "fig2toy() --json values"
import json, sys
j = json.load(open(sys.argv[1]))
assert (j['format'], j['collective'], j['compute_nodes'], j['switch_nodes']) == ('topocoll-forest', 'allgather', 8, 3), j
assert (j['algbw'], j['k'], j['y'], j['inv_x'], j['optimal'], j['verified']) == ('8', 1, '1', '1', True, True), j
assert j['bottleneck_cut'] == [0, 1, 2, 3, 9] and (j['bottleneck_compute'], j['bottleneck_exit']) == (4, 4), j
assert (j['trees'], j['batch_count'], len(j['batches'])) == (8, 8, 8), j
roots = sorted(b['root'] for b in j['batches'])
assert roots == list(range(8)), roots
for b in j['batches']:
    assert b['trees'] == 1 and len(b['edges']) == 7, b
    for e in b['edges']:
        for r in e['routes']:
            assert r['path'][0] == e['from'] and r['path'][-1] == e['to'], e
            assert all(v >= 8 for v in r['path'][1:-1]), e  # only switches inside
PY
expect 0 "$bin" forest 'dgx_a100(2)' --k 2 --search bisect
grep -qx '    fixed k         algbw 342.86 GB/s = 2400/7 (U\* = 7/75, Algorithm 3)' "$tmp/out" ||
  fail "--k 2: $(sed -n 2p "$tmp/out")"

# LP (6) beside the trees: equal on the toy (4 = N·x* / 2), better on a 3-node path (a single
# root in the middle: 3 against RS + AG's 9/4), refused when too large.
expect 0 "$bin" forest 'fig2toy()' --coll allreduce --lp
grep -qx '  LP (6)            algbw 4.00 GB/s = 4 (certified exactly): the trees are the best allreduce of any shape' "$tmp/out" ||
  fail "toy --lp: $(grep LP "$tmp/out")"
printf '{"format": "topocoll-graph", "version": 1, "nodes": 3, "arcs": [[0, 1, 3], [1, 0, 3], [1, 2, 3], [2, 1, 3]]}' >"$tmp/path.json"
expect 0 "$bin" forest "file($tmp/path.json)" --coll allreduce --lp
grep -qx '  allreduce         algbw 2.25 GB/s = 9/4 (T = T_RS + T_AG)' "$tmp/out" || fail "path allreduce: $(grep '^  allreduce' "$tmp/out")"
grep -qx '  LP (6)            algbw 3.00 GB/s = 3 (certified exactly): an allreduce with unequal shards does better than RS + AG here' "$tmp/out" ||
  fail "path --lp: $(grep LP "$tmp/out")"
expect_err 2 "lp-allreduce: LP (6) on 32 compute nodes and 176 links would have 71136 variables, beyond the limit of 40000" \
  "$bin" forest 'mi250(2)' --coll allreduce --lp
expect_err 2 "--lp certifies an allreduce: give --coll allreduce" "$bin" forest 'mi250(2)' --lp

# Refusals: usage, then fabrics ForestColl cannot handle.
expect_err 2 "--k expects an integer in 1..1000000000, got '0'" "$bin" forest 'mi250(2)' --k 0
expect_err 2 "--coll must be allgather, reduce-scatter or allreduce, got 'bcast'" "$bin" forest 'mi250(2)' --coll bcast
expect_err 2 "--k-scan 3..1 is empty (A > B)" "$bin" forest 'mi250(2)' --k-scan 3..1
expect_err 2 "--k-scan needs A..B, e.g. 1..10 (got '5')" "$bin" forest 'mi250(2)' --k-scan 5
expect_err 2 "--k and --k-scan exclude each other" "$bin" forest 'mi250(2)' --k 2 --k-scan 1..3
expect_err 2 "missing SPEC" "$bin" forest
printf '{"format": "topocoll-graph", "version": 1, "nodes": 3, "kinds": ["compute", "compute", "switch"], "arcs": [[0, 2, 2], [2, 0, 1], [1, 2, 1], [2, 1, 1]]}' >"$tmp/uneven.json"
expect_err 2 "forestcoll: node 0 has ingress 1 but egress 2: removing switches needs them equal at every node" \
  "$bin" forest "file($tmp/uneven.json)"
printf '{"format": "topocoll-graph", "version": 1, "nodes": 3, "kinds": ["compute", "switch", "switch"], "arcs": [[0, 1, 1], [1, 0, 1], [1, 2, 1], [2, 1, 1]]}' >"$tmp/one.json"
expect_err 2 "forestcoll: the fabric has one compute node only: nothing to exchange" "$bin" forest "file($tmp/one.json)"
printf '{"format": "topocoll-graph", "version": 1, "nodes": 2, "kinds": ["switch", "switch"], "arcs": [[0, 1, 1], [1, 0, 1]]}' >"$tmp/none.json"
expect_err 2 "forestcoll: the fabric has no compute node" "$bin" forest "file($tmp/none.json)"
printf '{"format": "topocoll-graph", "version": 1, "nodes": 3, "arcs": [[0, 1, 1], [1, 2, 1], [2, 1, 1]]}' >"$tmp/oneway.json"
expect_err 2 "forestcoll: compute node 1 cannot reach compute node 0" "$bin" forest "file($tmp/oneway.json)"
# A fixed k whose tree counts floor(U*·b_e) break ingress = egress cannot remove switches.
printf '{"format": "topocoll-graph", "version": 1, "nodes": 3, "kinds": ["compute", "compute", "switch"], "arcs": [[0, 2, 3], [2, 0, 2], [2, 1, 3], [1, 2, 2], [0, 1, 1], [1, 0, 2]]}' >"$tmp/skew.json"
expect_err 2 "forestcoll: at k = 1 the tree counts floor(U*·b_e) leave node 0 with ingress != egress, so the switches cannot be removed" \
  "$bin" forest "file($tmp/skew.json)" --k 1 --out "$tmp/nothing.json"
[ -e "$tmp/nothing.json" ] && fail "a refused command wrote a file"
expect 0 "$bin" forest "file($tmp/skew.json)" --k 2
grep -qx '    fixed k         algbw 6.00 GB/s = 6 (U\* = 2/3, Algorithm 3)' "$tmp/out" || fail "skew --k 2: $(sed -n 2p "$tmp/out")"
expect_err 2 "forestcoll: 8000 compute nodes is beyond the 4096 ForestColl is built for here" "$bin" forest 'dgx_a100(1000)'
expect_err 2 "cannot write $tmp: it is a directory" "$bin" forest 'fig2toy()' --out "$tmp"

# ---- weighted roots (--weights; forest.h, docs/forestcoll.md "Weighted roots") ----
# genkautz(4,64): the four nodes with a self-loop (12, 25, 38, 51) have 3 links each way to
# others, the rest 4; water-filling gives the looped nodes a quarter of M each and the others
# nothing, and with those shares no cut beats 1/x* = 1 (S* = every node but 0: 4 shares, 4
# links into node 0), one tree per share and half: 4 GB/s a half, 2 GB/s the allreduce —
# the cost model's bound (tau* = 2 at d = 4), where equal shares reach 32/21.
expect 0 "$bin" forest 'genkautz(4,64)' --coll allreduce --weights auto
cat >"$tmp/want" <<'OUT'
forest genkautz(4,64): allreduce on 64 compute + 0 switch nodes (ForestColl, paper 001)
  weights           auto (allreduce water-filling): 4 of 64 compute nodes own the W = 4 shares (node:shares) 12:1 25:1 38:1 51:1
  reduce-scatter (in-trees, built on the transpose):
    optimum         algbw 4.00 GB/s = 4 (1/x* = 1: T = (M/W)·(1/x*))
    bottleneck cut  63 compute nodes owning 4 shares, 4 leaving: 4/4 = 1; S* = {1-63}
    trees           k = 1 per share (4 in all), y = 1 GB/s per tree, 4 batches
OUT
head -n 6 "$tmp/out" | cmp -s - "$tmp/want" || fail "genkautz(4,64) --weights auto: $(head -n 6 "$tmp/out")"
grep -qx '  allreduce         algbw 2.00 GB/s = 2 (T = T_RS + T_AG)' "$tmp/out" ||
  fail "genkautz(4,64) weighted allreduce: $(grep '^  allreduce' "$tmp/out")"
# equal shares (the default, --weights equal, or 1 for every node) are the unweighted forest, to the byte
expect 0 "$bin" forest 'genkautz(4,64)' --coll allreduce --json
cp "$tmp/out" "$tmp/plain.json"
grep -q '"weights"' "$tmp/plain.json" && fail "an unweighted forest document has weights"
grep -qx '  "algbw": "32/21",' "$tmp/plain.json" || fail "genkautz(4,64) equal shares: $(grep '"algbw"' "$tmp/plain.json" | head -1)"
expect 0 "$bin" forest 'genkautz(4,64)' --coll allreduce --json --weights equal
cmp -s "$tmp/out" "$tmp/plain.json" || fail "--weights equal changed the forest document"
ones=$(printf '1,%.0s' $(seq 64)); ones=${ones%,}
expect 0 "$bin" forest 'genkautz(4,64)' --coll allreduce --json --weights "$ones"
cmp -s "$tmp/out" "$tmp/plain.json" || fail "--weights 1,...,1 changed the forest document"
expect 0 "$bin" forest 'hypercube(3)' --coll allreduce --weights auto
grep -qx '  weights           auto (allreduce water-filling): one share each (every node'"'"'s links alike), the unweighted forest' \
  "$tmp/out" || fail "hypercube(3) --weights auto: $(sed -n 2p "$tmp/out")"
# a list, through switches: fig2toy() with GPU 0 owning 2 shares and GPU 4 none. W = 8 and
# 1/x* = 5/4: cluster 1 and its switch {0-3, 9} hold 5 shares and 4 links leave them (the
# same cut as unweighted, now 5/4 instead of 4/4), so algbw 8/(5/4) = 32/5 and k = 4: 8 trees
# at GPU 0, none at GPU 4, 4 at the others.
expect 0 "$bin" forest 'fig2toy()' --weights 2,1,1,1,0,1,1,1 --json
python3 - "$tmp/out" <<'PY' || fail "fig2toy() --weights 2,1,1,1,0,1,1,1: $(head -c 600 "$tmp/out")"
import json, sys
j = json.load(open(sys.argv[1]))
assert j["weights"] == [2, 1, 1, 1, 0, 1, 1, 1], j["weights"]
assert (j["inv_x"], j["algbw"], j["k"], j["trees"]) == ("5/4", "32/5", 4, 32), j
assert j["bottleneck_cut"] == [0, 1, 2, 3, 9] and (j["bottleneck_compute"], j["bottleneck_exit"]) == (5, 4), j
roots = {}
for b in j["batches"]:
    roots[b["root"]] = roots.get(b["root"], 0) + b["trees"]
assert roots == {0: 8, 1: 4, 2: 4, 3: 4, 5: 4, 6: 4, 7: 4}, roots
PY
expect_err 2 "--weights gives 2 weights, fig2toy() has 8 compute nodes (one weight each, in id order)" \
  "$bin" forest 'fig2toy()' --weights 1,2
expect_err 2 "--weights expects an integer in 0..1048576, got 'x'" "$bin" forest 'fig2toy()' --weights 1,x,1,1,1,1,1,1
expect_err 2 "--weights expects an integer in 0..1048576, got '-1'" "$bin" forest 'fig2toy()' --weights -1,1,1,1,1,1,1,1
expect_err 2 "--weights expects auto, equal or integers w0,w1,... (got '1,,1')" "$bin" forest 'fig2toy()' --weights 1,,1
expect_err 2 "forestcoll: every weight is 0: at least one compute node must own a share of the buffer" \
  "$bin" forest 'fig2toy()' --weights 0,0,0,0,0,0,0,0 --out "$tmp/nothing.json"
[ -e "$tmp/nothing.json" ] && fail "a refused --weights wrote a file"
expect_err 2 "--weights auto is the allreduce's water-filling: give --coll allreduce" "$bin" forest 'fig2toy()' --weights auto
expect_err 2 "--weights and --k-scan exclude each other" "$bin" forest 'fig2toy()' --weights 1 --k-scan 1..2
finish cli_forest
