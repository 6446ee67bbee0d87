#!/usr/bin/env bash
# cli_fabric.sh — `topocoll topo` on the switch fabrics of paper 001 (docs/spec.md,
# "Fabrics"): the report's node kinds and capacity range, the --json keys for them, the
# writers keeping kinds and capacities (graph JSON whole, the edge list its capacities,
# DOT switches as boxes and capacities as labels), and the refusals.
# Expected numbers: dgx_a100(2) has 16 GPUs and 20 switches (2 NVSwitches, 16 NICs, 2 IB
# switches) and 96 arcs: per GPU 3 links (NVSwitch 300, NIC 25, NIC to IB 25), both ways.
set -u
bin=$1
. "$(dirname "$0")/lib_cli.sh"

expect 0 "$bin" topo 'dgx_a100(2)'
head -n 4 "$tmp/out" >"$tmp/head"
cat >"$tmp/want" <<'EOF'
topology            dgx_a100(2)
nodes               36 (16 compute + 20 switch nodes)
arcs                96
capacities          25..300
EOF
cmp -s "$tmp/head" "$tmp/want" || fail "dgx_a100(2) report head: $(cat "$tmp/head")"
grep -qx 'bidirectional       yes' "$tmp/out" || fail "dgx_a100(2) is not reported bidirectional"

# One switch node, equal capacities: singular, and "all".
expect 0 "$bin" topo 'dgx_a100(1)'
grep -qx 'nodes               9 (8 compute + 1 switch node)' "$tmp/out" || fail "dgx_a100(1) nodes: $(sed -n 2p "$tmp/out")"
grep -qx 'capacities          all 300' "$tmp/out" || fail "dgx_a100(1) capacities: $(sed -n 4p "$tmp/out")"
# Unit capacities, no switches: neither line changes from the direct-connect report.
expect 0 "$bin" topo 'kautz(2,1)'
grep -qx 'nodes               6' "$tmp/out" || fail "kautz(2,1) nodes line changed"
! grep -q '^capacities' "$tmp/out" || fail "kautz(2,1) reports capacities"

expect 0 "$bin" topo 'mi250(2)' --json
python3 - "$tmp/out" <<'PY' || fail "mi250(2) --json values"
import json, sys
j = json.load(open(sys.argv[1]))
assert (j['nodes'], j['switches'], j['arcs']) == (33, 1, 176), j
assert (j['capacity_min'], j['capacity_max']) == (16, 200), j
assert j['bidirectional'] is True
PY

# No arcs: no capacity range.
printf '{"format": "topocoll-graph", "version": 1, "nodes": 2, "arcs": []}\n' >"$tmp/empty.json"
expect 0 "$bin" topo "file($tmp/empty.json)" --json
python3 -c "import json,sys; j=json.load(open('$tmp/out')); assert j['capacity_min'] is None and j['capacity_max'] is None" ||
  fail "a graph without arcs has a capacity range"

# Written and read back: graph JSON keeps everything; the edge list the capacities.
expect 0 "$bin" topo 'dgx_a100(2)' --graph-json "$tmp/g.json" --edges "$tmp/g.edges" --dot "$tmp/g.dot"
expect 0 "$bin" topo "file($tmp/g.json)"
tail -n +2 "$tmp/out" >"$tmp/back"
"$bin" topo 'dgx_a100(2)' | tail -n +2 >"$tmp/orig"
cmp -s "$tmp/back" "$tmp/orig" || fail "file(g.json) reports differently from dgx_a100(2)"
python3 - "$tmp/g.json" <<'PY' || fail "graph JSON kinds, labels, capacities"
import json, sys
j = json.load(open(sys.argv[1]))
assert j['kinds'] == ['compute'] * 16 + ['switch'] * 20
assert j['labels'][11] == 'gpu1.3' and j['labels'][17] == 'nvswitch1' and j['labels'][29] == 'nic1.3'
assert j['labels'][34:] == ['ib0', 'ib1']
assert [11, 17, 300] in j['arcs'] and [29, 35, 25] in j['arcs'] and [35, 29, 25] in j['arcs']
PY
expect 0 "$bin" topo "file($tmp/g.edges)" --json
python3 - "$tmp/out" <<'PY' || fail "edge list: capacities kept, kinds dropped"
import json, sys
j = json.load(open(sys.argv[1]))
assert (j['nodes'], j['arcs'], j['switches']) == (36, 96, 0), j
assert (j['capacity_min'], j['capacity_max']) == (25, 300), j
PY
grep -qx '  "17" \[label="nvswitch1", shape=box\];' "$tmp/g.dot" || fail "DOT: nvswitch1 is not a labelled box"
grep -qx '  "11" \[label="gpu1.3"\];' "$tmp/g.dot" || fail "DOT: gpu1.3 statement"
grep -qx '  "11" -- "17" \[label="300", penwidth=8\];' "$tmp/g.dot" || fail "DOT: the 300 GB/s link"
grep -qx '  "29" -- "35" \[label="25", penwidth=8\];' "$tmp/g.dot" || fail "DOT: the 25 GB/s NIC-IB link"

# Refusals: one line, exit 2.
expect_err 2 'topocoll topo: bad spec "mi250(2,12)": column 1: mi250: gcds must be 8 or 16 (got 12)' \
  "$bin" topo 'mi250(2,12)'
expect_err 2 'topocoll topo: bad spec "fattree(5)": column 1: fattree: k must be even (got 5)' "$bin" topo 'fattree(5)'
expect_err 2 'topocoll topo: bad spec "dgx_a100(1000000)": column 1: dgx_a100: 1000000 clusters of 8 GPUs exceed 16777216 nodes' \
  "$bin" topo 'dgx_a100(1000000)'
# A hand-written fabric with a link of no bandwidth is refused naming the arc.
cat >"$tmp/zero.json" <<'EOF'
{"format": "topocoll-graph", "version": 1, "nodes": 3,
 "arcs": [[0, 2, 25], [2, 0, 25], [1, 2, 0], [2, 1, 25]], "kinds": ["compute", "compute", "switch"]}
EOF
expect_err 2 "topocoll topo: bad spec \"file($tmp/zero.json)\": column 1: file: $tmp/zero.json: arcs[2][2]: capacity 0 of arc 1->2 must be >= 1" \
  "$bin" topo "file($tmp/zero.json)"

finish cli_fabric
