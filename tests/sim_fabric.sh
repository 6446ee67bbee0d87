#!/usr/bin/env bash
# sim_fabric.sh — `topocoll simulate` of schedules on fabrics in SimGrid SMPI: compute nodes
# are hosts, switches routers (simgrid.h), rank r runs on the r-th compute node, and every
# hop through switches is collapsed into one direct send, routed by SimGrid through the
# routers. The schedules come from tests/fabric_sched.py. $1 = build dir.
#   - islands(1) allreduce (2 compute nodes, one switch between them): each rank sends one
#     message of M/2 in each half, over host -> router -> host, so the simulated time is
#     exactly 2 (2 alpha + (M/2 + 16)/bw) = 4 alpha + (M + 32)/bw (SMPI's 16-byte envelope,
#     sim_simulate.sh), every checked size equal to MPI's;
#   - the ring allgather on dgx_a100(2) (16 GPUs, NVSwitches and NIC-IB-NIC chains) beside
#     SMPI's own ring and pair allgathers on the same platform (their messages take
#     SimGrid's shortest paths through the routers): every size checked, both algorithms ok;
#   - the hierarchical reduce-scatter on islands(3): checked;
#   - ForestColl's allreduce on dgx_a100(2) (`sched --algo forestcoll --chunks 2`: in-trees
#     whose partials cross one switch on several edges, relayed as the verifier relays them)
#     beside SMPI's rdb: every size checked;
#   - a replicating switch is refused before anything is simulated (exit 2, the line).
set -u
build=$1
bin=$build/topocoll
. "$(dirname "$0")/lib_cli.sh"
gen="python3 $(cd "$(dirname "$0")" && pwd)/fabric_sched.py"
export TMPDIR=$tmp/work # simulate's working directories; nothing may be left in it
mkdir -p "$TMPDIR"
unset TOPOCOLL_SMPI_EXEC TOPOCOLL_SMPIRUN
cd "$tmp" || exit 1

"$bin" topo 'dgx_a100(2)' --graph-json dgx.json >/dev/null || fail "dgx_a100(2) graph"
"$bin" topo 'fig2toy(1)' --graph-json fig.json >/dev/null || fail "fig2toy(1) graph"
$gen ring dgx.json 0,1,2,3,4,5,6,7,15,14,13,12,11,10,9,8 1 dgx-ag.json || fail "dgx ring"
$gen islands 1 allreduce isl1.json || fail "islands(1)"
$gen islands 3 reduce-scatter isl3-rs.json || fail "islands(3)"
$gen replicate fig.json rep.json || fail "replicating schedule"
"$bin" sched 'dgx_a100(2)' --coll allreduce --algo forestcoll --chunks 2 --out dgx-fc-ar.json >/dev/null ||
  fail "forestcoll allreduce on dgx_a100(2)"

# check CODE: assertions over j, the JSON report in $tmp/out
check() {
  python3 - "$tmp/out" "$1" <<'PY' || fail "$1: $(head -c 2000 "$tmp/out")"
import json, sys
j = json.load(open(sys.argv[1]))
R = j["results"]
exec(sys.argv[2])
PY
}

expect 0 "$bin" simulate isl1.json --link-bw 100Gbps --alpha 1ms --sizes 1KB..64KB --check-max 8KB --smpi-algos none \
  --json
check '
bw, a = 12.5e9, 1e-3
assert j["nodes"] == 3 and j["steps"] == 5 and len(R) == 7, j
for r in R:
    m = r["size_bytes"]
    assert r["checked"] == (m <= 8000), r
    assert abs(r["sim_time_s"] - (4 * a + (m + 32) / bw)) <= 1e-15, r
'

expect 0 "$bin" simulate dgx-ag.json --link-bw 100Gbps --alpha 1us --sizes 16KB,64KB --smpi-algos ring,pair --json
check '
assert j["collective"] == "allgather" and j["nodes"] == 36 and j["steps"] == 60, j
assert [r["size_bytes"] for r in R] == [16000, 64000] and all(r["checked"] for r in R), R
assert all(r["sim_time_s"] > 0 and set(r["smpi_time_s"]) == {"ring", "pair"} for r in R), R
assert [(s["name"], s["status"]) for s in j["smpi_algorithms"]] == [("ring", "ok"), ("pair", "ok")], j
'
expect 0 "$bin" simulate dgx-ag.json --link-bw 100Gbps --alpha 1us --sizes 16KB --smpi-algos none
grep -q '^allgather "fabric-ring" on dgx_a100(2): 16 ranks in SimGrid SMPI' "$tmp/out" || fail "header: $(cat "$tmp/out")"

expect 0 "$bin" simulate isl3-rs.json --link-bw 100Gbps --alpha 1us --sizes 6KB,60KB --smpi-algos none --json
check 'assert j["collective"] == "reduce-scatter" and all(r["checked"] and r["sim_time_s"] > 0 for r in R), R'

expect 0 "$bin" simulate dgx-fc-ar.json --link-bw 100Gbps --alpha 1us --sizes 16KB,64KB --smpi-algos rdb --json
check '
assert (j["collective"], j["algorithm"], j["spec"]) == ("allreduce", "forestcoll", "dgx_a100(2)"), j
assert j["nodes"] == 36 and j["steps"] == 66, j
assert [r["size_bytes"] for r in R] == [16000, 64000] and all(r["checked"] and r["sim_time_s"] > 0 for r in R), R
assert [(s["name"], s["status"]) for s in j["smpi_algorithms"]] == [("rdb", "ok")], j
'

expect_err 2 "topocoll simulate: rep.json: switch 8 replicates shard 0 units [0,1) at step 2: it sends them on more often than it received them, and in the executors switches only relay (one send per chunk received)" \
  "$bin" simulate rep.json --link-bw 100Gbps --alpha 1us --sizes 1KB --smpi-algos none
[ -z "$(ls -A "$TMPDIR")" ] || fail "working directories left behind: $(ls -A "$TMPDIR")"

finish sim_fabric
