#!/usr/bin/env bash
# mpi_redundant.sh — the MPI executor (run_mpi.h) on verified schedules with a redundant
# receive-reduce (its data reaches no owner), bit for bit against the MPI library: the
# fuzzer's reproducers in fuzz/regressions/msccl/ (the BFB allreduce on torus(3,3) plus the
# owner sending its own shard at the last reduce-scatter step, whose receiver once sent its
# accumulator before anything was in it — a wrong result on rank 0; the biring allreduce on
# biring(2,5) with one reduce-scatter transfer widened). Every count class, datatype, op,
# in place and out of place (tests/mpi_collectives.c).
# $1 = build directory, $2 = mpirun.
set -u
build=$1
mpirun=$2
bin=$build/topocoll
. "$(dirname "$0")/lib_cli.sh"
. "$(dirname "$0")/lib_mpi.sh"

transport=""
regressions=$(dirname "$0")/../fuzz/regressions/msccl
run 9 "$regressions/redundant-reduce-receive-garbage.json"
run 5 "$regressions/redundant-reduce-receive-deadlock.json"

finish mpi_redundant
