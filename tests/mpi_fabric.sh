#!/usr/bin/env bash
# mpi_fabric.sh — schedules on fabrics run under MPI: rank r plays the r-th compute node and
# every hop through switches is collapsed into direct sends (program.h). The schedules come
# from tests/fabric_sched.py (nothing in topocoll generates on graphs with switches yet):
#   - a ring allgather on dgx_a100(2) (16 GPUs; NVSwitch hops and NIC-IB-NIC chains) and on
#     fig2toy(1) (8; 2 units per shard), and the hierarchical allgather, reduce-scatter and
#     allreduce on islands(3) (6 compute nodes, a switch between the islands);
#   - `topocoll run` of each: every size verified against MPI's own collective (exit 0, the
#     JSON report's np is the compute node count, its rows all "verified": true), the
#     reduce-scatter in place with int64 max;
#   - mpi_collectives (tests/mpi_collectives.c) on the islands and fig2toy plans: every count
#     class, datatype, op, in place and out of place equal MPI's;
#   - refused before mpirun starts: a replicating switch (exit 2, the lowering's line) and
#     --np other than the compute node count.
# $1 = build directory, $2 = mpirun.
set -u
build=$1
mpirun=$2
bin=$build/topocoll
. "$(dirname "$0")/lib_cli.sh"
. "$(dirname "$0")/lib_mpi.sh"
gen="python3 $(cd "$(dirname "$0")" && pwd)/fabric_sched.py"
mpiargs="-x ASAN_OPTIONS=detect_leaks=0" # the sanitizer build's executor: Open MPI leaks by design
T="timeout 120"
transport="--mca btl self,vader --mca pml ob1"
cd "$tmp" || exit 1

"$bin" topo 'dgx_a100(2)' --graph-json dgx.json >/dev/null || fail "dgx_a100(2) graph"
"$bin" topo 'fig2toy(1)' --graph-json fig.json >/dev/null || fail "fig2toy(1) graph"
$gen ring dgx.json 0,1,2,3,4,5,6,7,15,14,13,12,11,10,9,8 1 dgx-ag.json || fail "dgx ring"
$gen ring fig.json 0,1,2,3,4,5,6,7 2 fig-ag.json || fail "fig2toy ring"
for c in allgather reduce-scatter allreduce; do $gen islands 3 $c "isl-$c.json" || fail "islands $c"; done
$gen replicate fig.json rep.json || fail "replicating schedule"

# run_ok FILE NP COLL DTYPE OP [RUN ARGS...]: `topocoll run --json` verified every size
run_ok() {
  local f=$1 np=$2 coll=$3 dtype=$4 op=$5
  shift 5
  expect 0 $T "$bin" run "$f" --sizes 4KB,64KB --iters 1 --warmup 0 --dtype "$dtype" --op "$op" --json \
    --mpirun-args "$mpiargs" "$@"
  python3 - "$tmp/out" "$f" "$np" "$coll" <<'PY' || fail "run $f: $(cat "$tmp/out") $(cat "$tmp/err")"
import json, sys
j = json.load(open(sys.argv[1]))
assert j["verified"] is True and j["file"] == sys.argv[2] and j["np"] == int(sys.argv[3]), j
assert j["collective"] == sys.argv[4] and len(j["results"]) == 2, j
assert all(r["verified"] is True for r in j["results"]), j["results"]
PY
}
run_ok dgx-ag.json 16 allgather int32 sum
run_ok fig-ag.json 8 allgather float sum
run_ok isl-allgather.json 6 allgather double sum
run_ok isl-reduce-scatter.json 6 reduce-scatter int64 max --inplace 1
run_ok isl-allreduce.json 6 allreduce int32 sum

run 6 isl-allgather.json isl-reduce-scatter.json isl-allreduce.json
run 8 fig-ag.json

# Refused before anything is launched.
printf '#!/bin/sh\ntouch "%s/mpirun-started"\n' "$tmp" >fake-mpirun
chmod +x fake-mpirun
TOPOCOLL_MPIRUN=$tmp/fake-mpirun expect_err 2 "topocoll run: rep.json: switch 8 replicates shard 0 units [0,1) at step 2: it sends them on more often than it received them, and in the executors switches only relay (one send per chunk received)" \
  "$bin" run rep.json
TOPOCOLL_MPIRUN=$tmp/fake-mpirun expect_err 2 "topocoll run: --np 36 does not match the schedule's 16 compute nodes (rank r plays the r-th compute node)" \
  "$bin" run dgx-ag.json --np 36
[ ! -e mpirun-started ] || fail "run launched mpirun for a schedule the executor refuses"

finish mpi_fabric
