#!/usr/bin/env bash
# mpi_baselines.sh — the MPI executor (run_mpi.h) against the MPI library, bit for bit, on
# the baselines the CLI generates (ring, biring, bfbring, shifted ring, double binary tree
# with its two shard owners, recursive halving/doubling, torus dimension order) and on two
# hand-made schedules whose copy transfers bring data the receiver already holds
# (tests/data/mpi/k4_redundant_*.json: receives into the redundant scratch area, pieces
# copied on, receives dropped whole). The same checks as mpi_executor.sh.
# $1 = build directory, $2 = mpirun.
set -u
build=$1
mpirun=$2
bin=$build/topocoll
. "$(dirname "$0")/lib_cli.sh"
. "$(dirname "$0")/lib_mpi.sh"
data=${TC_TEST_DATA:-$(dirname "$0")/data}/mpi

# ob1 + shared memory (vader) explicitly: mpi_executor.sh runs the library's default.
transport="--mca btl self,vader --mca pml ob1"


# baselines
plan ring-ar 'uniring(1,5)' allreduce ring
plan ring-ag 'uniring(1,5)' allgather ring
plan biring-ar 'biring(2,6)' allreduce biring
plan bfbring-ar 'biring(2,6)' allreduce bfbring
plan bfbring-rs 'biring(2,6)' reduce-scatter bfbring
plan shifted-ar 'circulant(8,1,3)' allreduce shiftedring
plan dbt-ar 'complete(7)' allreduce dbt --chunks 2
plan rhd-ar 'hypercube(3)' allreduce rhd
plan rhd-ag 'hypercube(3)' allgather rhd
plan dor-ar 'torus(3,3)' allreduce torus-dor

t=$tmp
run 4 "$data/k4_redundant_allgather.json" "$data/k4_redundant_allreduce.json"
# Those two must really exercise the redundant area: mpi_collectives says so of a plan
# with redundant receives (which its split-message case then cuts like any other).
[ "$(grep -c "redundant receives split" "$tmp/out")" -eq 2 ] ||
  fail "the k4_redundant plans did not exercise dropped redundant receives"
run 5 $t/ring-ar.json $t/ring-ag.json
run 6 $t/biring-ar.json $t/bfbring-ar.json $t/bfbring-rs.json
run 7 $t/dbt-ar.json
run 8 $t/shifted-ar.json $t/rhd-ar.json $t/rhd-ag.json
run 9 $t/dor-ar.json

finish mpi_baselines
