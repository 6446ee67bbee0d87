#!/usr/bin/env bash
# mpi_alltoall.sh — the MPI executor's alltoall (tc_mpi_alltoall, run_mpi.h) against the MPI
# library's MPI_Alltoall, bit for bit (mpi_collectives: counts 0, 1, 2, around the chunk
# count and larger, four datatypes, out of place and in place, messages cut into pieces of
# 5 elements), on the routing baselines' schedules: direct, sssp and ewsp on hypercube(3),
# torus(3,3) and genkautz(2,10) — sssp and ewsp relay shards over several hops, ewsp splits
# a shard over several paths (6 units on hypercube(3)) — and sssp and ewsp on fig2toy(),
# whose GPUs reach each other only through switches (every hop through a switch collapsed
# into a message between ranks). Then `topocoll run` of an alltoall schedule: one size,
# checked against MPI_Alltoall, and its line in the table.
# $1 = build directory, $2 = mpirun.
set -u
build=$1
mpirun=$2
bin=$build/topocoll
. "$(dirname "$0")/lib_cli.sh"
. "$(dirname "$0")/lib_mpi.sh"

transport="--mca btl self,vader --mca pml ob1"

for algo in direct sssp ewsp; do
  plan "$algo-hc" 'hypercube(3)' alltoall "$algo"
  plan "$algo-torus" 'torus(3,3)' alltoall "$algo"
  plan "$algo-gk" 'genkautz(2,10)' alltoall "$algo"
done
plan sssp-fig 'fig2toy()' alltoall sssp
plan ewsp-fig 'fig2toy()' alltoall ewsp
# The relays are real: sssp on torus(3,3) has two steps, ewsp on hypercube(3) splits shards.
grep -q '"steps": 2,' "$tmp/sssp-torus.json" || fail "sssp on torus(3,3): not two steps"
grep -q '"units": 6,' "$tmp/ewsp-hc.json" || fail "ewsp on hypercube(3): shards not split in six units"

t=$tmp
run 8 $t/direct-hc.json $t/sssp-hc.json $t/ewsp-hc.json $t/sssp-fig.json $t/ewsp-fig.json
run 9 $t/direct-torus.json $t/sssp-torus.json $t/ewsp-torus.json
run 10 $t/direct-gk.json $t/sssp-gk.json $t/ewsp-gk.json

# topocoll run: the executor beside MPI_Alltoall, checked.
timeout 120 "$bin" run "$t/sssp-torus.json" --sizes 9KB --iters 1 --warmup 0 --mpirun-args "$transport" \
  >"$tmp/out" 2>"$tmp/err" || fail "topocoll run: $(cat "$tmp/err")"
grep -q '^alltoall "sssp" on torus(3,3), 9 ranks, ' "$tmp/out" || fail "topocoll run header: $(cat "$tmp/out")"
grep -Eq '^ +9 KB +250 +int32 +- +-( +[0-9.]+){3} +0( +[0-9.]+){3} +0( +[0-9.]+){2}$' "$tmp/out" ||
  fail "topocoll run: no row checked out of place and in place at 9 KB: $(cat "$tmp/out")"

finish mpi_alltoall
