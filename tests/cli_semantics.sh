#!/usr/bin/env bash
# cli_semantics.sh — inputs that are well-formed but mean nothing, or that overflow, are
# refused with one line and the right exit code (2 bad input, 1 our failure / an invalid
# schedule), and no error line carries a raw control byte or invalid UTF-8:
#   1. checked arithmetic: capacities near 2^63-1 in cost (node bandwidth), the baselines'
#      bundle weights, MSCCL element bounds;
#   2. the verifier: a shard owned by a switch;
#   3. the spec: positional after named, the registry's constraints (debruijn d >= 2 ...),
#      stats of a 0-node graph, an unreadable file(...);
#   4. --smpi-algos with empty names; a 1-node schedule: time 0, never nan/inf;
#   5. error lines neutralize control characters, ESC, DEL, C1 and invalid UTF-8; an empty
#      output path is refused;
#   6. run refuses what the executor cannot run before mpirun starts (a switch that
#      replicates, not one that relays);
#   7. verify given a graph JSON says so.
set -u
bin=$1
. "$(dirname "$0")/lib_cli.sh"
cd "$tmp" || exit 1

# no_raw_bytes: stderr ($tmp/err) holds no C0 control byte but its newlines, no DEL, no
# C1 control (as UTF-8) and is valid UTF-8
no_raw_bytes() {
  python3 - "$tmp/err" <<'PY' || fail "raw bytes in the error line of '$*': $(od -c "$tmp/err" | head -5)"
import sys
b = open(sys.argv[1], "rb").read()
t = b.decode("utf-8")  # raises on invalid UTF-8
bad = [c for c in t if (ord(c) < 0x20 and c != "\n") or 0x7f <= ord(c) <= 0x9f]
assert not bad, bad
PY
}

# k3_schedule NAME CAP UNITS HI: an allgather file on complete(3), every arc of capacity
# CAP, UNITS units per shard, each owner sending [0, HI) of its shard to both others in one step
k3_schedule() {
  local name=$1 cap=$2 units=$3 hi=$4
  cat >"$name" <<EOF
{"format": "topocoll-schedule", "version": 1,
 "graph": {"spec": "k3", "nodes": 3,
           "arcs": [[0, 1, $cap], [0, 2, $cap], [1, 0, $cap], [1, 2, $cap], [2, 0, $cap], [2, 1, $cap]]},
 "schedule": {"collective": "allgather", "algorithm": "hand", "nodes": 3, "nshards": 3, "units": $units,
              "steps": 1, "rs_steps": 0,
              "transfers": [[0, 1, 0, 0, $hi], [0, 1, 1, 0, $hi], [1, 1, 2, 0, $hi], [1, 1, 3, 0, $hi],
                            [2, 1, 4, 0, $hi], [2, 1, 5, 0, $hi]]}}
EOF
}

# ---- 1. checked arithmetic ----
# Two arcs of 2^62 out of every node: the node bandwidth 2^63 does not fit.
k3_schedule big.json 4611686018427387904 1 1
expect_err 2 "topocoll verify: the out-capacities of node 0 sum beyond 2^63-1 (arc 1 has 4611686018427387904)" \
  "$bin" verify big.json
# The same capacities less one: 2^63 - 2 fits, and the cost is exact.
k3_schedule fits.json 4611686018427387903 1 1
expect 0 "$bin" verify fits.json --json
grep -q '"degree": 9223372036854775806,' "$tmp/out" || fail "degree of fits.json: $(cat "$tmp/out")"
grep -q '"tb_factor": "2/3",' "$tmp/out" || fail "tb_factor of fits.json: $(cat "$tmp/out")"
# Bundle weights: two parallel arcs 0 -> 1 of 2^62 + 2^62 (and the ring closing back).
printf '0 1 4611686018427387904\n0 1 4611686018427387904\n1 2\n2 0\n' >bundle.edges
expect_err 2 "topocoll sched: ring: the capacities of the arcs 0 -> 1 sum beyond 2^63-1" \
  "$bin" sched 'file(bundle.edges)' --coll allgather --algo ring
printf '0 1 4611686018427387904\n0 1 4611686018427387904\n1 0\n' >k2.edges
expect_err 2 "topocoll sched: dbt: the capacities of the arcs 0 -> 1 sum beyond 2^63-1" \
  "$bin" sched 'file(k2.edges)' --coll allreduce --algo dbt
# MSCCL element bounds: chunks of 2^63-1 units (UBSan caught the old ceil(cnt/71)), and
# 3 x 2^62 chunks per loop.
k3_schedule units.json 1 9223372036854775807 9223372036854775807
expect_err 2 "topocoll export: MSCCL limit: gpu 0 needs at least 519626593625621180 XML elements (1 algo, 3 gpus, 519626593625621176 steps for its transfers) > 4095" \
  "$bin" export units.json --format msccl --out units.xml
[ ! -e units.xml ] || fail "export wrote units.xml"
k3_schedule units62.json 1 4611686018427387904 4611686018427387904
expect_err 2 "topocoll export: MSCCL limit: gpu 0 needs at least 259813296812810592 XML elements (1 algo, 3 gpus, 259813296812810588 steps for its transfers) > 4095" \
  "$bin" export units62.json --format msccl --out units62.xml

# ---- 2. the verifier: switches hold no data ----
k3_schedule k3.json 1 1 1
sed 's/"nodes": 3,$/"nodes": 3, "kinds": ["compute", "compute", "switch"],/' k3.json >k3sw.json
grep -q '"switch"' k3sw.json || fail "k3sw.json was not made"
expect_err 1 "topocoll verify: k3sw.json: invalid: shard 2 is owned by node 2, a switch (switches hold no data)" \
  "$bin" verify k3sw.json

# ---- 3. the spec ----
expect_err 2 'column 17: genkautz: positional argument after named argument '"'m'"' (usage: genkautz(d, m, loops=keep))' \
  "$bin" topo 'genkautz(4,m=64,5)'
expect_err 2 'bad spec "debruijn(1,3)": column 1: debruijn: d must be >= 2 (got 1)' "$bin" topo 'debruijn(1,3)'
expect_err 2 'bad spec "debruijn(2,0)": column 1: debruijn: n must be >= 1 (got 0)' "$bin" topo 'debruijn(2,0)'
expect_err 2 'jellyfish: needs 1 <= d < n (got d = 4, n = 4)' "$bin" topo 'jellyfish(4,4)'
expect_err 2 'jellyfish: needs n*d even (got n = 5, d = 3)' "$bin" topo 'jellyfish(5,3)'
expect_err 2 'biring: d must be even (got 3)' "$bin" topo 'biring(3,4)'
expect_err 2 'column 9: torus: l2 must be >= 2 (got 1)' "$bin" topo 'product(torus(3,1),complete(2))'
expect_err 2 'mincirculant: d must be a multiple of 4 (got 6)' "$bin" topo 'mincirculant(8,6)'
expect_err 2 "genkautz: loops must be 'keep' or 'drop' (got \"x\")" "$bin" topo 'genkautz(2,3,loops=x)'
expect 0 "$bin" topo 'debruijn(2,3)' --json
grep -q '"nodes": 8,' "$tmp/out" || fail "debruijn(2,3): $(cat "$tmp/out")"
# Every constraint in the --list column is what the parser checks: the column's text.
expect 0 "$bin" topo --list
grep -Eq '^debruijn +d, n +d >= 2, n >= 1 ' "$tmp/out" || fail "--list debruijn: $(grep debruijn "$tmp/out")"
echo '{"format": "topocoll-graph", "version": 1, "nodes": 0, "arcs": []}' >empty.json
expect_err 2 "topocoll topo: the graph has no nodes: there is nothing to report about it" "$bin" topo 'file(empty.json)'
expect_err 2 'file: cannot read missing.json: No such file or directory' "$bin" topo 'file(missing.json)'

# ---- 4. --smpi-algos, 1-node schedules ----
for list in ',,' 'ring,' ',ring' ''; do
  expect_err 2 "topocoll simulate: --smpi-algos: empty algorithm name in '$list' (a comma-separated list, 'strong', 'all' or 'none')" \
    "$bin" simulate k3.json --link-bw 1Gbps --alpha 1us --sizes 1KB --smpi-algos "$list"
done
echo '{"format": "topocoll-graph", "version": 1, "nodes": 1, "arcs": []}' >one.json
for coll in allgather reduce-scatter allreduce; do
  expect 0 "$bin" sched 'file(one.json)' --coll $coll --algo bfb --alpha 1us --link-bw 1Gbps --size 1MB --json
  python3 -c "import json,sys; j=json.load(open(sys.argv[1]), parse_constant=lambda c: sys.exit('constant ' + c)); \
assert j['time_s'] == 0.0 and j['steps'] == 0 and j['tb_factor'] == '0/1', j" "$tmp/out" ||
    fail "1-node $coll JSON: $(cat "$tmp/out")"
  expect 0 "$bin" sched 'file(one.json)' --coll $coll --algo bfb --alpha 1us --link-bw 1Gbps --size 1MB
  grep -q '^time              0 s ' "$tmp/out" || fail "1-node $coll time: $(cat "$tmp/out")"
  ! grep -qiE 'nan|inf' "$tmp/out" || fail "1-node $coll prints nan/inf: $(cat "$tmp/out")"
done
expect 0 "$bin" sched 'file(one.json)' --coll allgather --algo bfb --out one_s.json
expect 0 "$bin" verify one_s.json
! grep -qiE 'nan|inf' "$tmp/out" || fail "verify 1-node prints nan/inf: $(cat "$tmp/out")"
expect_err 2 "topocoll simulate: one_s.json: a schedule of 1 node moves nothing; there is nothing to simulate" \
  "$bin" simulate one_s.json --link-bw 1Gbps --alpha 1us --sizes 1KB

# ---- 5. messages: no raw control bytes, one line; empty paths ----
expect_err 2 'bad spec "kautz(4,?[2J2)": column 9: kautz: argument '"'n'"' must be an integer, found a word' \
  "$bin" topo $'kautz(4,\e[2J2)'
no_raw_bytes topo ESC
expect_err 2 'bad spec "kautz(4,2)?x": column 12: expected end of spec, found '"'x'" "$bin" topo $'kautz(4,2)\nx'
no_raw_bytes topo newline
expect_err 2 "unknown option '--x??y'" "$bin" topo $'--x\x7f\xffy'
no_raw_bytes topo DEL and invalid UTF-8
expect_err 2 "cannot read a??b.json: No such file or directory" "$bin" verify $'a\xc2\x9bb.json'
no_raw_bytes verify C1
expect_err 2 "topocoll: no command 'x?y'" "$bin" $'x\ry'
no_raw_bytes command
expect_err 2 'file: cannot read tab?name: No such file or directory' "$bin" topo $'file("tab\tname")'
no_raw_bytes file
expect_err 2 "SMPI has no allgather algorithm 'ri?ng'" "$bin" simulate k3.json --link-bw 1Gbps --alpha 1us \
  --sizes 1KB --smpi-algos $'ri\nng'
no_raw_bytes smpi-algos
# valid UTF-8 is kept as it is
expect_err 2 "cannot read données.json" "$bin" verify 'données.json'
for opt in --dot --edges --wiring --graph-json --nx-edges --node-link; do
  expect_err 2 "topocoll topo: $opt needs a file name, not an empty string (see 'topocoll help topo')" \
    "$bin" topo 'kautz(2,1)' "$opt" ''
done
expect_err 2 "topocoll sched: --out needs a file name, not an empty string" \
  "$bin" sched 'kautz(2,1)' --coll allgather --algo bfb --out ''
expect_err 2 "topocoll export: --out needs a file name, not an empty string" "$bin" export k3.json --format msccl --out ''
expect_err 2 "topocoll plan: --out needs a directory, not an empty string" "$bin" plan --nodes 8 --degree 2 --out ''

# ---- 6. run: what the executor cannot run is refused before mpirun starts ----
# An allreduce through a switch: valid (switches forward), and runnable: the ranks are the
# compute nodes 0 and 1, each pair of hops through node 2 one direct send.
cat >swar.json <<'EOF'
{"format": "topocoll-schedule", "version": 1,
 "graph": {"spec": "switch", "nodes": 3, "arcs": [[0, 2], [1, 2], [2, 0], [2, 1]],
           "kinds": ["compute", "compute", "switch"]},
 "schedule": {"collective": "allreduce", "algorithm": "hand", "nodes": 3, "nshards": 2, "owners": [0, 1],
              "units": 1, "steps": 4, "rs_steps": 2,
              "transfers": [[0, 1, 1, 0, 1], [1, 1, 0, 0, 1], [0, 2, 2, 0, 1], [1, 2, 3, 0, 1],
                            [0, 3, 0, 0, 1], [1, 3, 1, 0, 1], [0, 4, 3, 0, 1], [1, 4, 2, 0, 1]]}}
EOF
expect 0 "$bin" verify swar.json
expect 0 "$bin" export swar.json --format msccl --out sw.xml
grep -q 'ngpus="2"' sw.xml || fail "sw.xml: not 2 GPUs"
# The switch sending shard 0 on to both ranks after receiving it once: replication.
sed 's/\[0, 4, 3, 0, 1\], \[1, 4, 2, 0, 1\]/[0, 4, 3, 0, 1], [1, 4, 2, 0, 1], [0, 4, 2, 0, 1]/' swar.json >swrep.json
expect 0 "$bin" verify swrep.json
printf '#!/bin/sh\ntouch "%s/mpirun-started"\n' "$tmp" >fake-mpirun
chmod +x fake-mpirun
export TOPOCOLL_MPIRUN=$tmp/fake-mpirun
expect_err 2 \
  "topocoll run: swrep.json: switch 2 replicates shard 0 units [0,1) at step 4: it sends them on more often than it received them, and in the executors switches only relay (one send per chunk received)" \
  "$bin" run swrep.json
expect_err 2 "topocoll export: switch 2 replicates shard 0 units [0,1) at step 4" "$bin" export swrep.json --format msccl --out sw2.xml
[ ! -e sw2.xml ] || fail "export wrote sw2.xml"
[ ! -e mpirun-started ] || fail "run launched mpirun for a schedule the executor refuses"

# ---- 7. verify given a graph JSON ----
"$bin" topo 'kautz(2,1)' --graph-json g.json >/dev/null || fail "graph JSON"
expect_err 2 "topocoll verify: g.json is a graph JSON (nodes/arcs), not a schedule; schedules are written by 'topocoll sched --out' and 'topocoll plan'" \
  "$bin" verify g.json
expect_err 2 "file: k3.json is a schedule JSON (graph and transfers), not a graph" "$bin" topo 'file(k3.json)'

finish cli_semantics
