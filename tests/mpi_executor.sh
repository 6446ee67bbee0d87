#!/usr/bin/env bash
# mpi_executor.sh — the MPI executor (run_mpi.h) against the MPI library, bit for bit, on
# BFB schedules the CLI generates for tori, circulants, Kautz and generalized Kautz graphs,
# a line digraph and hypercubes, on 4 to 16 ranks (the baselines: mpi_baselines.sh).
# Plans with the same number of ranks run in one mpirun of mpi_collectives, which tries
# every count class, datatype, op, in place and out of place, and split messages (see
# tests/mpi_collectives.c).
# $1 = build directory, $2 = mpirun.
set -u
build=$1
mpirun=$2
bin=$build/topocoll
. "$(dirname "$0")/lib_cli.sh"
. "$(dirname "$0")/lib_mpi.sh"

# The MPI library's default transports (on one machine: shared memory through whichever
# PML it picks; mpi_baselines.sh forces ob1 + vader, so both paths are exercised).
transport=""


# BFB schedules
plan t22-ag 'torus(2,2)' allgather bfb
plan t22-rs 'torus(2,2)' reduce-scatter bfb
plan t22-ar 'torus(2,2)' allreduce bfb
plan t33-ar 'torus(3,3)' allreduce bfb
plan t44-ar 'torus(4,4)' allreduce bfb
plan c8-ag 'circulant(8,1,3)' allgather bfb
plan c8-rs 'circulant(8,1,3)' reduce-scatter bfb
plan c8-ar 'circulant(8,1,3)' allreduce bfb
plan k21-ar 'kautz(2,1)' allreduce bfb
plan k22-ag 'kautz(2,2)' allgather bfb
plan k22-ar 'kautz(2,2)' allreduce bfb
plan gk10-ag 'genkautz(2,10)' allgather bfb
plan gk10-rs 'genkautz(2,10)' reduce-scatter bfb
plan gk10-ar 'genkautz(2,10)' allreduce bfb
plan line-ar 'line(circulant(4,1))' allreduce bfb
plan line-rs 'line(circulant(4,1))' reduce-scatter bfb
plan hc3-rs 'hypercube(3)' reduce-scatter bfb
plan hc4-ag 'hypercube(4)' allgather bfb
plan c8-ar-p3 'circulant(8,1,3)' allreduce bfb --chunks 3
t=$tmp
run 4 $t/t22-ag.json $t/t22-rs.json $t/t22-ar.json
run 6 $t/k21-ar.json
run 8 $t/c8-ag.json $t/c8-rs.json $t/c8-ar.json $t/c8-ar-p3.json $t/line-ar.json $t/line-rs.json $t/hc3-rs.json
run 9 $t/t33-ar.json
run 10 $t/gk10-ag.json $t/gk10-rs.json $t/gk10-ar.json
run 12 $t/k22-ag.json $t/k22-ar.json
run 16 $t/t44-ar.json $t/hc4-ag.json

finish mpi_executor
