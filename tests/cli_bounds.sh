#!/usr/bin/env bash
# cli_bounds.sh — work is estimated and refused before it is spent: --max-memory on every
# command (the refusal names the estimate, the limit and the option; raising the limit lets
# the same command through), topo's --max-time on all-pairs distances, size checks of
# line/power, and tiny inputs that used to cost hours (a 217-byte schedule declaring 16 M
# nodes, an 11-byte edge list, a 3 KB spec with a missing ')').
# Every refusal here comes from an estimate, never from running out, so each command ends in
# milliseconds on any machine; --max-memory is set small to make them deterministic.
# Expected numbers (the estimates' formulas are in src/coll/collective.c, src/plan/
# plan_make.c, src/graph/graph.c, src/graph/distance.c):
#   debruijn(2,6): 64 nodes, 64*63 = 4032 transfers at least, 64 B each: 258 KB;
#   debruijn(2,11): 2048*2047 = 4.2 M transfers, 268 MB;
#   plan for 65536 nodes: 680 B * 65536 * 65535 = 2.9 TB, 4 * 65536 * 65535 = 17 G transfers;
#   find --build: 64 B * 65536 * 65535 = 275 GB;
#   a graph of 16777216 nodes: 25 B each, 419 MB;
#   all-pairs BFS of the edge list "0 1048575": 4096 batches * 2 passes * (2^20 + 1) visits
#   at 1.5e8 per second = 57.266 s.
set -u
bin=$1
. "$(dirname "$0")/lib_cli.sh"

hint="; raise the limit with --max-memory SIZE"

# --- the collective pipeline (sched), exact line; raising the limit lets it through ---
expect_err 2 "topocoll sched: bfb allgather on 64 nodes needs about 258 KB (4.0 K transfers) but the memory limit is 100 KB$hint" \
  "$bin" sched "debruijn(2,6)" --coll allgather --algo bfb --max-memory 100KB
expect 0 "$bin" sched "debruijn(2,6)" --coll allgather --algo bfb --max-memory 1MB
grep -q "^transfers         4032$" "$tmp/out" || fail "debruijn(2,6) allgather: $(cat "$tmp/out")"
expect_err 2 "bfb allgather on 2048 nodes needs about 268 MB (4.2 M transfers) but the memory limit is 10 MB$hint" \
  "$bin" sched "debruijn(2,11)" --coll allgather --algo bfb --max-memory 10MB
expect_err 2 "bfb allreduce on 2048 nodes needs about 537 MB (8.4 M transfers)" \
  "$bin" sched "debruijn(2,11)" --coll allreduce --algo bfb --max-memory 10MB
# the option's own errors
expect_err 2 "topocoll sched: --max-memory: size \"1x\": unknown unit \"x\"" \
  "$bin" sched "debruijn(2,6)" --coll allgather --algo bfb --max-memory 1x
expect_err 2 "topocoll sched: --max-memory: size \"0\" must be positive" \
  "$bin" sched "debruijn(2,6)" --coll allgather --algo bfb --max-memory 0
expect_err 2 "topocoll sched: --max-memory needs a size (see 'topocoll help sched')" \
  "$bin" sched "debruijn(2,6)" --coll allgather --algo bfb --max-memory

# --- plan --nodes and find --build: bounded by the estimate, before the finder runs ---
expect_err 2 "topocoll plan: a plan for 65536 nodes needs about 2.9 TB (17 G transfers in its three schedules) but the memory limit is 10 MB$hint" \
  "$bin" plan --nodes 65536 --degree 4 --alpha 10us --link-bw 25Gbps --size 1MB --max-memory 10MB --out "$tmp/plan"
[ ! -e "$tmp/plan" ] || fail "a refused plan left $tmp/plan"
expect 0 "$bin" plan --nodes 8 --degree 2 --alpha 10us --link-bw 25Gbps --size 1MB --max-memory 10MB --out "$tmp/plan8"
[ -s "$tmp/plan8/allreduce.json" ] || fail "plan --nodes 8 under 10 MB wrote no allreduce.json"
expect_err 2 "topocoll find: building the members for 65536 nodes needs about 275 GB (4.3 G transfers) but the memory limit is 10 MB$hint" \
  "$bin" find --nodes 65536 --degree 4 --build --max-memory 10MB
expect 0 "$bin" find --nodes 65536 --degree 4 --max-memory 10MB # predicting builds nothing

# --- a 217-byte schedule declaring 16 M nodes and no transfers ---
printf '{"format":"topocoll-schedule","version":1,"graph":{"nodes":16777216,"arcs":[]},"schedule":{"collective":"allgather","algorithm":"x","nodes":16777216,"nshards":16777216,"units":1,"steps":0,"rs_steps":0,"transfers":[]}}' >"$tmp/huge.json"
expect_err 2 "topocoll verify: $tmp/huge.json: graph.nodes: a graph of 16777216 nodes and 0 arcs needs about 419 MB but the memory limit is 10 MB$hint" \
  "$bin" verify "$tmp/huge.json" --max-memory 10MB
# within memory, the verifier counts before it replays: fails at once (exit 1, invalid)
printf '{"format":"topocoll-schedule","version":1,"graph":{"nodes":65536,"arcs":[]},"schedule":{"collective":"allreduce","algorithm":"x","nodes":65536,"nshards":65536,"units":1,"steps":0,"rs_steps":0,"transfers":[]}}' >"$tmp/big.json"
expect_err 1 "topocoll verify: $tmp/big.json: invalid: allreduce of 65536 shards among 65536 compute nodes needs at least 8589803520 transfers (one per shard and compute node besides its owner, in each half), but the schedule has 0" \
  "$bin" verify "$tmp/big.json"
expect_err 2 "graph.nodes: a graph of 16777216 nodes" "$bin" export "$tmp/huge.json" --format msccl --out "$tmp/x.xml" --max-memory 10MB
[ ! -e "$tmp/x.xml" ] || fail "a refused export left $tmp/x.xml"

# --- topo: an 11-byte edge list of 16 M nodes; all-pairs distances within --max-time ---
printf '0 16777215\n' >"$tmp/e16m.txt"
expect_err 2 "topocoll topo: bad spec \"file($tmp/e16m.txt)\": column 1: file: $tmp/e16m.txt: a graph of 16777216 nodes and 0 arcs needs about 419 MB but the memory limit is 10 MB$hint" \
  "$bin" topo "file($tmp/e16m.txt)" --max-memory 10MB
printf '0 1048575\n' >"$tmp/e1m.txt"
expect 0 "$bin" topo "file($tmp/e1m.txt)" --max-time 1s
grep -q "^nodes               1048576$" "$tmp/out" || fail "1 M-node edge list: nodes: $(cat "$tmp/out")"
grep -q "^strongly connected  no$" "$tmp/out" || fail "1 M-node edge list: connectivity: $(cat "$tmp/out")"
grep -q "^diameter            infinite (not strongly connected); distances not computed: all-pairs would take about 57.266 s (raise --max-time)$" "$tmp/out" \
  || fail "1 M-node edge list: diameter line: $(cat "$tmp/out")"
grep -q "^reverse-symmetric   not checked (beyond --max-time, as the distances)$" "$tmp/out" \
  || fail "1 M-node edge list: reverse symmetry: $(cat "$tmp/out")"
! grep -q "distance histogram" "$tmp/out" || fail "1 M-node edge list printed a histogram"
expect 0 "$bin" topo "file($tmp/e1m.txt)" --max-time 1s --json
grep -q '"distances_computed": false' "$tmp/out" || fail "--json lacks distances_computed false"
grep -q '"diameter": null' "$tmp/out" || fail "--json diameter is not null"
# a small graph with enough time is summarized in full, and the same one is skipped below it
expect 0 "$bin" topo "torus(8,8)" --max-time 1s
grep -q "^diameter            8$" "$tmp/out" || fail "torus(8,8) diameter: $(cat "$tmp/out")"
expect 0 "$bin" topo "torus(8,8)" --max-time 1ns
grep -q "^diameter            not computed" "$tmp/out" || fail "torus(8,8) under 1ns: $(cat "$tmp/out")"
expect_err 2 "topocoll topo: --max-time must be positive, got '0'" "$bin" topo "torus(8,8)" --max-time 0

# --- line(G,k) and power(G,k): sizes checked on every path, before building ---
expect 0 "$bin" topo "line(uniring(1,4),1000000000)" --no-reverse-symmetry # 1-regular: a fixed point
grep -q "^nodes               4$" "$tmp/out" || fail "line of a 1-regular graph: $(cat "$tmp/out")"
printf '0 1\n1 0\n1 2\n2 0\n' >"$tmp/irregular.txt" # node 1 has out-degree 2, the others 1: L^3 has 7 nodes (walks of 3 arcs)
expect_err 2 "line: L^60 of this graph would have more than 16777216 nodes" \
  "$bin" topo "line(file($tmp/irregular.txt),60)"
expect 0 "$bin" topo "line(file($tmp/irregular.txt),3)" --no-reverse-symmetry
grep -q "^nodes               7$" "$tmp/out" || fail "L^3 of the irregular graph: $(cat "$tmp/out")"
printf '0 0\n' >"$tmp/one.txt"
expect_err 2 "power: G^1000000000000 would have more than 134217728 arcs" \
  "$bin" topo "power(file($tmp/one.txt),1000000000000)"
expect 0 "$bin" topo "power(file($tmp/one.txt),3)" --no-reverse-symmetry
grep -q "^self-loops          3$" "$tmp/out" || fail "power of a one-node graph: $(cat "$tmp/out")"

# --- a 4 KB spec with a missing ')': parsed whole, refused before anything is built ---
inner="product($(printf 'biring(2,%d),' $(seq 3 17))biring(2,18))"
wide="product($(for i in $(seq 17); do printf '%s,' "$inner"; done)$inner)"
spec="$(printf 'line(%.0s' $(seq 20))$wide$(printf ',1)%.0s' $(seq 20))"
spec=${spec%)}
[ "${#spec}" -gt 3500 ] || fail "the broken spec is only ${#spec} bytes"
expect_err 2 "column $((${#spec} + 1)): expected ',' or ')', found end of spec" "$bin" topo "$spec"

finish cli_bounds
