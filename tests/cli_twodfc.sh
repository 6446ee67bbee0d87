#!/usr/bin/env bash
# cli_twodfc.sh — `topocoll sched` with the 2dfc algorithms do, md, multitree (paper 002
# Ch. 4): MD's alltoall on the 8x8 2dfc is BW-optimal in 2 steps, tau = (d/N) max(m1,m2) =
# (14/64) 8 = 7/4; DO's is (14/64)(8+8) = 7/2; MULTITREE's parity construction takes m/2+1 = 5
# steps and says it was chosen; the greedy on another spelling of the same graph likewise
# 5; and the refusals.
set -u
bin=$1
. "$(dirname "$0")/lib_cli.sh"

has_line() { grep -qxF -- "$1" "$tmp/out" || fail "no line '$1' in: $(cat "$tmp/out")"; }

expect 0 "$bin" sched 'hyperx(8,8)' --coll alltoall --algo md
has_line "steps             2 (T_L = 2 alpha); Moore bound 2: Moore-optimal"
has_line "T_B factor        7/4 = 1.750000 M/B; lower bound 7/4: BW-optimal"
has_line "chunks per shard  2 (4096 shards)"
expect 0 "$bin" sched 'hyperx(8,8)' --coll alltoall --algo do
has_line "T_B factor        7/2 = 3.500000 M/B; lower bound 7/4: not proven BW-optimal"
expect 0 "$bin" sched 'hyperx(8,8)' --coll allgather --algo multitree
has_line "steps             5 (T_L = 5 alpha); Moore bound 2: not Moore-optimal"
has_line "chosen            the 2dfc parity construction (paper 002 §4.1.2)"
expect 0 "$bin" sched 'hamming(2,8)' --coll allgather --algo multitree
has_line "steps             5 (T_L = 5 alpha); Moore bound 2: not Moore-optimal"
has_line "chosen            the greedy round-robin trees (paper 002 §2.2.3)"
expect 0 "$bin" sched 'hyperx(4,4)' --coll allreduce --algo md
has_line "T_B factor        45/16 = 2.812500 M/B; optimum 15/8: not BW-optimal"

expect_err 2 "topocoll sched: do needs SPEC written as hyperx(m2,m1) (the m2 x m1 2dfc) to know its rows and columns" \
  "$bin" sched 'torus(4,4)' --coll alltoall --algo do
expect_err 2 "topocoll sched: md builds allgather, allreduce and alltoall, not reduce-scatter" \
  "$bin" sched 'hyperx(4,4)' --coll reduce-scatter --algo md
# MD splits each block in 2; P = 3 rounds every pair's two path shares to whole chunks
expect 0 "$bin" sched 'hyperx(4,4)' --coll alltoall --algo md --chunks 3
has_line "verified          yes"
has_line "chunks per shard  3 (256 shards)"

finish cli_twodfc
