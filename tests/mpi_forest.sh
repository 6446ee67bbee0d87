#!/usr/bin/env bash
# mpi_forest.sh — ForestColl's trees pipelined into step schedules (`sched --algo
# forestcoll`, forest.h's tc_forest_lower) run under MPI, against the MPI library's own
# collective:
#   - `topocoll run` on the schedule files of allgather, reduce-scatter and allreduce on
#     hypercube(3) (8 ranks, P = 2; the allreduce also in place with int64 max) and the
#     allreduce on genkautz(2,10) (10 ranks, P = 3): every size verified, the report naming
#     the collective and forestcoll; and on fabrics, where the switch hops collapse into
#     direct sends (program.h), all three collectives on fig2toy() (8 ranks, P = 2) and the
#     reduce-scatter and allreduce on dgx_a100(2) (16 ranks, P = 2) — in-trees whose
#     partials cross one switch on several edges, each relayed as the verifier relays it;
#   - mpi_collectives on the same files: every count class, datatype, op, in place and out
#     of place equal to MPI's, bit for bit (tests/mpi_collectives.c).
# $1 = build directory, $2 = mpirun.
set -u
build=$1
mpirun=$2
bin=$build/topocoll
. "$(dirname "$0")/lib_cli.sh"
. "$(dirname "$0")/lib_mpi.sh"
transport=""
mpiargs="-x ASAN_OPTIONS=detect_leaks=0"

plan hc3-ag 'hypercube(3)' allgather forestcoll --chunks 2
plan hc3-rs 'hypercube(3)' reduce-scatter forestcoll --chunks 2
plan hc3-ar 'hypercube(3)' allreduce forestcoll --chunks 2
plan gk10-ar 'genkautz(2,10)' allreduce forestcoll --chunks 3
plan toy-ag 'fig2toy()' allgather forestcoll --chunks 2
plan toy-rs 'fig2toy()' reduce-scatter forestcoll --chunks 2
plan toy-ar 'fig2toy()' allreduce forestcoll --chunks 2
plan dgx-rs 'dgx_a100(2)' reduce-scatter forestcoll --chunks 2
plan dgx-ar 'dgx_a100(2)' allreduce forestcoll --chunks 2

# run_ok FILE NP COLL DTYPE OP [RUN OPTIONS...]: `topocoll run` verifies every size
run_ok() {
  local file=$1 np=$2 coll=$3 dtype=$4 op=$5
  shift 5
  timeout 120 "$bin" run "$tmp/$file.json" --sizes 1KB..16KB --dtype "$dtype" --op "$op" --iters 2 --warmup 0 \
    --timeout 100s --json --mpirun-args "$mpiargs" "$@" >"$tmp/out" 2>"$tmp/err" ||
    { fail "topocoll run $file $*: $(cat "$tmp/err")"; return; }
  python3 - "$tmp/out" "$np" "$coll" "$dtype" "$op" <<'PY' || fail "topocoll run $file $*: $(cat "$tmp/out")"
import json, sys
j = json.load(open(sys.argv[1]))
np, coll, dtype, op = int(sys.argv[2]), sys.argv[3], sys.argv[4], sys.argv[5]
assert j["verified"] is True and j["np"] == np, (j["verified"], j["np"])
assert (j["collective"], j["algorithm"], j["dtype"], j["op"]) == (coll, "forestcoll", dtype, op), j
assert len(j["results"]) == 5 and all(r["verified"] is True for r in j["results"]), j["results"]
PY
}

run_ok hc3-ag 8 allgather int32 sum
run_ok hc3-rs 8 reduce-scatter double sum
run_ok hc3-ar 8 allreduce int32 sum
run_ok hc3-ar 8 allreduce int64 max --inplace 1
run_ok gk10-ar 10 allreduce float sum
run_ok toy-ag 8 allgather int32 sum
run_ok toy-rs 8 reduce-scatter double sum
run_ok toy-ar 8 allreduce int64 max --inplace 1
run_ok dgx-rs 16 reduce-scatter int32 sum
run_ok dgx-ar 16 allreduce float sum

t=$tmp
run 8 $t/hc3-ag.json $t/hc3-rs.json $t/hc3-ar.json $t/toy-ag.json $t/toy-rs.json $t/toy-ar.json
run 10 $t/gk10-ar.json
run 16 $t/dgx-rs.json $t/dgx-ar.json

finish mpi_forest
