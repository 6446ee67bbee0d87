#!/usr/bin/env bash
# cli_sched_without.sh — a degraded cluster (issue #14 §8): the spec operation
# without(G, u1, v1, ...) and `topocoll sched SPEC --without-links LIST`, which builds,
# verifies and writes schedules on G without those links.
# By hand: torus(4,4) has 64 arcs (32 duplex links); without 0-1 and 5-6 it keeps 60, stays
# bidirectional, and its diameter stays 4 (every pair still has a 4-hop route around the
# missing links), so BFB's allgather takes 4 steps and its allreduce 8. dcirculant(5,1,2) is
# one-way: without 0-1 drops the arc 0->1 alone (10 -> 9 arcs), and its diameter grows from
# 2 to 3 (0 now reaches 1 by 0->2->4->1).
bin=${1:?usage: cli_sched_without.sh TOPOCOLL}
. "$(dirname "$0")/lib_cli.sh"

# ---- the spec operation ----
expect 0 "$bin" topo 'without(torus(4,4),0,1,5,6)' --json
python3 -c "
import json; j = json.load(open('$tmp/out'))
assert (j['nodes'], j['arcs'], j['bidirectional'], j['diameter'], j['strongly_connected']) == (16, 60, True, 4, True), j" ||
  fail "without(torus(4,4),0,1,5,6): $(head -c 300 "$tmp/out")"
expect 0 "$bin" topo 'without(dcirculant(5,1,2),0,1)' --json
python3 -c "
import json; j = json.load(open('$tmp/out'))
assert (j['arcs'], j['bidirectional'], j['diameter']) == (9, False, 3), j" ||
  fail "without(dcirculant(5,1,2),0,1): $(head -c 300 "$tmp/out")"
# parallel links go one at a time: biring(4,5) has two links 0-1
expect 0 "$bin" topo 'without(biring(4,5),0,1,0,1)' --json
python3 -c "import json; j = json.load(open('$tmp/out')); assert j['arcs'] == 16, j['arcs']" || fail "two parallel links 0-1"
expect_err 2 'without: there is no link 0-1 (left) in the graph' "$bin" topo 'without(biring(4,5),0,1,0,1,0,1)'
expect_err 2 'without: there is no link 0-2 (left) in the graph' "$bin" topo 'without(torus(4,4),0,2)'
expect_err 2 'without: there is no arc 1-0 (left) in the graph' "$bin" topo 'without(dcirculant(5,1,2),1,0)'
expect_err 2 'without: link 0-16 names a node outside 0..15' "$bin" topo 'without(torus(4,4),0,16)'
expect_err 2 'without: the graph left is not strongly connected' "$bin" topo 'without(biring(2,4),0,1,1,2)'
expect_err 2 'without: needs node pairs u, v (got 1 numbers)' "$bin" topo 'without(torus(4,4),0)'

# ---- sched --without-links ----
expect 0 "$bin" sched 'torus(4,4)' --coll allreduce --algo bfb --without-links 0-1,5-6 --out "$tmp/ar.json" --json
python3 -c "
import json; j = json.load(open('$tmp/out'))
assert (j['spec'], j['verified'], j['steps']) == ('without(torus(4,4),0,1,5,6)', True, 8), j" ||
  fail "sched --without-links report: $(head -c 400 "$tmp/out")"
python3 -c "
import json; g = json.load(open('$tmp/ar.json'))['graph']
arcs = {tuple(a[:2]) for a in g['arcs']}
assert g['spec'] == 'without(torus(4,4),0,1,5,6)' and len(g['arcs']) == 60, g['spec']
assert not arcs & {(0, 1), (1, 0), (5, 6), (6, 5)}, arcs" || fail "the schedule file's graph still has a failed link"
# the file names its degraded topology: verify rebuilds it from that spec
expect 0 "$bin" verify "$tmp/ar.json" 'without(torus(4,4),0,1,5,6)'
grep -q '^verified' "$tmp/out" || fail "verify on the degraded graph: $(cat "$tmp/out")"

expect_err 2 "topocoll sched: --without-links expects links u-v separated by commas (e.g. 0-1,5-6), got '0-1,x'" \
  "$bin" sched 'torus(4,4)' --coll allreduce --algo bfb --without-links 0-1,x
expect_err 2 "topocoll sched: --without-links expects links u-v separated by commas (e.g. 0-1,5-6), got '0-1,'" \
  "$bin" sched 'torus(4,4)' --coll allreduce --algo bfb --without-links 0-1,
expect_err 2 'without: the graph left is not strongly connected' \
  "$bin" sched 'biring(2,4)' --coll allgather --algo bfb --without-links 0-1,1-2
expect_err 2 "torus-dor needs SPEC written as torus(l1,...,lk)" \
  "$bin" sched 'torus(4,4)' --coll allreduce --algo torus-dor --without-links 0-1
[ ! -e "$tmp/none.json" ] || fail "a refused sched wrote its file"

finish cli_sched_without
