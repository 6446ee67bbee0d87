#!/usr/bin/env bash
# mpi_rooted.sh — the MPI executor (run_mpi.h) on the rooted collectives and p2p, bit for
# bit against MPI_Bcast / MPI_Reduce / MPI_Scatter / MPI_Gather (p2p: MPI_Send/MPI_Recv),
# out of place and in place at the root, NULL where MPI ignores a buffer: paper 002's
# Kautz-C and Kautz-M on kautz(2,1) (6 ranks; K(2,2)) with the multi-path and single-path
# P2P, the binomial and FC-direct baselines on complete(8), the double binary tree; and the
# 2dfc algorithms' alltoall and allgather (do, md) on hyperx(4,4), 16 ranks. The same
# checks as mpi_executor.sh (tests/mpi_collectives.c).
# $1 = build directory, $2 = mpirun.
set -u
build=$1
mpirun=$2
bin=$build/topocoll
. "$(dirname "$0")/lib_cli.sh"
. "$(dirname "$0")/lib_mpi.sh"

transport="--mca btl self,vader --mca pml ob1"

# Kautz K(2,2) = kautz(2,1): 6 nodes; roots other than 0 on purpose.
for c in broadcast reduce scatter gather; do
  plan "kc-$c" 'kautz(2,1)' "$c" kautz-c --root 4
  plan "km-$c" 'kautz(2,1)' "$c" kautz-m --root 1
done
plan kmp 'kautz(2,1)' p2p kautz-mp --src 5 --dst 0
plan ksp 'kautz(2,1)' p2p kautz-sp --src 2 --dst 3
t=$tmp
run 6 $t/kc-broadcast.json $t/kc-reduce.json $t/kc-scatter.json $t/kc-gather.json \
  $t/km-broadcast.json $t/km-reduce.json $t/km-scatter.json $t/km-gather.json $t/kmp.json $t/ksp.json
grep -q "kc-scatter.json: scatter kautz-c on 6 ranks, root 4: .* cases equal MPI's" "$tmp/out" ||
  fail "the scatter line does not name its root: $(cat "$tmp/out")"
grep -q "kmp.json: p2p kautz-mp on 6 ranks, 5 -> 0: .* cases equal MPI's" "$tmp/out" ||
  fail "the p2p line does not name its ends: $(cat "$tmp/out")"

# Baselines on complete(8).
for c in broadcast reduce scatter gather; do
  plan "bin-$c" 'complete(8)' "$c" binomial --root 3
  plan "fc-$c" 'complete(8)' "$c" fc-direct --root 7
done
plan fc-p2p 'complete(8)' p2p fc-direct --src 1 --dst 6
plan dbt-bc 'complete(8)' broadcast dbt --root 2 --chunks 2
plan dbt-red 'complete(8)' reduce dbt --root 5 --chunks 2
run 8 $t/bin-broadcast.json $t/bin-reduce.json $t/bin-scatter.json $t/bin-gather.json \
  $t/fc-broadcast.json $t/fc-reduce.json $t/fc-scatter.json $t/fc-gather.json $t/fc-p2p.json \
  $t/dbt-bc.json $t/dbt-red.json

# 2dfc 4x4 (hyperx(4,4)): dimension order and multi-dimensional.
plan do-a2a 'hyperx(4,4)' alltoall do
plan md-a2a 'hyperx(4,4)' alltoall md
plan do-ag 'hyperx(4,4)' allgather do
plan md-ag 'hyperx(4,4)' allgather md
run 16 $t/do-a2a.json $t/md-a2a.json $t/do-ag.json $t/md-ag.json

finish mpi_rooted
