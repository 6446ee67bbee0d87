#!/usr/bin/env bash
# cli_fabric_export.sh — `topocoll export` of fabrics and of schedules on them (schedules from
# tests/fabric_sched.py; rank r plays the r-th compute node, hops through switches become
# direct sends):
#   - MSCCL: the ring allgather on dgx_a100(2) is 16 GPUs (not 36 nodes) with the summary
#     line; the islands(3) allreduce is 6 GPUs; a
#     replicating switch is exit 2 with the lowering's line, nothing written;
#   - SimGrid: dgx_a100(2), from its spec and from the schedule, is 16 hosts n0..n15 (the
#     hostfile in rank order) and 20 routers n16..n35 joined by 96 links and 96 one-link
#     routes; the summary names both counts; a fabric whose switch is node 0 lists its
#     compute nodes n1, n2 in the hostfile.
set -u
bin=$1
. "$(dirname "$0")/lib_cli.sh"
gen="python3 $(cd "$(dirname "$0")" && pwd)/fabric_sched.py"
cd "$tmp" || exit 1

"$bin" topo 'dgx_a100(2)' --graph-json dgx.json >/dev/null || fail "dgx_a100(2) graph"
"$bin" topo 'fig2toy(1)' --graph-json fig.json >/dev/null || fail "fig2toy(1) graph"
$gen ring dgx.json 0,1,2,3,4,5,6,7,15,14,13,12,11,10,9,8 1 dgx-ag.json || fail "dgx ring"
$gen islands 3 allreduce isl.json || fail "islands(3)"
$gen replicate fig.json rep.json || fail "replicating schedule"

expect 0 "$bin" export dgx-ag.json --format msccl --out dgx.xml
grep -q "^wrote dgx.xml: MSCCL allgather on 16 GPUs, proto Simple, " "$tmp/out" || fail "msccl summary: $(cat "$tmp/out")"
grep -q '<algo name="fabric-ring allgather dgx_a100(2)" .*ngpus="16" coll="allgather"' dgx.xml || fail "dgx.xml: $(head -1 dgx.xml)"
[ "$(grep -c '<gpu id=' dgx.xml)" -eq 16 ] || fail "dgx.xml: not 16 gpu elements"
expect 0 "$bin" export isl.json --format msccl --out isl.xml
grep -q 'ngpus="6" coll="allreduce"' isl.xml || fail "isl.xml: $(head -1 isl.xml)"
expect_err 2 "topocoll export: switch 8 replicates shard 0 units [0,1) at step 2: it sends them on more often than it received them, and in the executors switches only relay (one send per chunk received)" \
  "$bin" export rep.json --format msccl --out rep.xml
[ ! -e rep.xml ] || fail "export wrote rep.xml"

# platform DIR: 16 hosts n0..n15 first, then 20 routers, 96 links and routes; hostfile n0..n15
platform() {
  local p=$1/platform.xml
  [ "$(grep -c '<host id=' "$p")" -eq 16 ] || fail "$p: hosts"
  [ "$(grep -c '<router id=' "$p")" -eq 20 ] || fail "$p: routers"
  [ "$(grep -c '<link id=' "$p")" -eq 96 ] || fail "$p: links"
  [ "$(grep -c '<route src=' "$p")" -eq 96 ] || fail "$p: routes"
  [ "$(grep -o '<host id="n[0-9]*"' "$p" | tr -dc '0-9\n' | tr '\n' ' ')" = "$(seq -s ' ' 0 15) " ] || fail "$p: host ids"
  [ "$(grep -o '<router id="n[0-9]*"' "$p" | tr -dc '0-9\n' | tr '\n' ' ')" = "$(seq -s ' ' 16 35) " ] ||
    fail "$p: router ids"
  grep -q '<link id="l0_16" bandwidth="937500000000Bps"' "$p" || fail "$p: NVSwitch link (300 x 25 Gbps)"
  grep -q '<link id="l18_34" bandwidth="78125000000Bps"' "$p" || fail "$p: IB link (25 x 25 Gbps)"
  [ "$(tr '\n' ' ' <"$1/hostfile")" = "$(seq -s ' ' -f 'n%g' 0 15) " ] || fail "$1/hostfile: $(cat "$1/hostfile")"
}
expect 0 "$bin" export 'dgx_a100(2)' --format simgrid --link-bw 25Gbps --alpha 1us --out spec
grep -qx "wrote spec/platform.xml and spec/hostfile: 16 hosts, 20 routers" "$tmp/out" || fail "summary: $(cat "$tmp/out")"
platform spec
expect 0 "$bin" export dgx-ag.json --format simgrid --link-bw 25Gbps --alpha 1us --out sched
platform sched
cmp spec/platform.xml sched/platform.xml || fail "the spec and the schedule give different platforms"

cat >sw0.json <<'JSON'
{"format": "topocoll-graph", "version": 1, "nodes": 3, "arcs": [[0, 1], [0, 2], [1, 0], [2, 0]],
 "kinds": ["switch", "compute", "compute"]}
JSON
expect 0 "$bin" export 'file(sw0.json)' --format simgrid --link-bw 25Gbps --alpha 1us --out sw0
grep -qx "wrote sw0/platform.xml and sw0/hostfile: 2 hosts, 1 router" "$tmp/out" || fail "summary: $(cat "$tmp/out")"
[ "$(cat sw0/hostfile)" = "$(printf 'n1\nn2')" ] || fail "sw0/hostfile: $(cat sw0/hostfile)"

finish cli_fabric_export
