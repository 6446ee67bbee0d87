#!/usr/bin/env bash
# cli_kautz.sh — `topocoll sched` with the multi-port Kautz K(d,2) algorithms of paper 002
# Ch. 3 (docs/multiport.md), and `topocoll topo`'s note on paper 002's K(d,k) = kautz(d,k-1).
# Expected numbers (Table 3.2; derivations in tests/test_kautz_coll.c):
#   kautz-m allgather on K(2,2): d+1 = 3 steps, tau = 1 (T_B = (d+1) (M/n) / b with M the
#   whole result), 30 transfers (12 + 12 + 6 arcs); alpha 1us, 100 Gbps links, M = 1 MB:
#   T = 3 us + 1e6 / (2 * 1.25e10) s = 43 us;
#   kautz-c alltoall on K(2,2): 2 steps, tau = (2d+1)/(d+1) = 5/3, 6 * (2*5 - 2) = 48 transfers;
#   kautz-c broadcast from 4 on K(3,2): 2 steps, tau = 2d = 6 (T_B = 2 M/b), 11 transfers;
#   kautz-m gather to 5 on K(3,2): 2 steps, tau = (d+2)/(d+1) = 5/4 (T_B = (d+2)(M/n)/b), 19
#   transfers (11 arcs + 8 grandchildren's blocks riding the depth-1 arcs);
#   p2p on K(3,2) from 0 = (0,1) to 1 = (0,2) (type 1): kautz-mp 3 paths of 2, 3, 3 hops, 3
#   steps, tau = 3 (T_B = 3 (M/3)/b), 8 transfers; kautz-sp 0 -> 7 = (2,0): 2 hops, tau = 6;
#   kautz on K(4,2) allgather, alpha 1us, 100 Gbps, copies at 10 GBps: Kautz-C reorders 3/2 M,
#   Kautz-M nothing, 3 more steps: the switch is at 3 us * 10 GB/s / (3/2) = 20 KB.
set -u
bin=$1
. "$(dirname "$0")/lib_cli.sh"

has_line() { grep -qxF -- "$1" "$tmp/out" || fail "no line '$1' in: $(cat "$tmp/out")"; }

expect 0 "$bin" sched --list
for a in kautz-c kautz-m kautz; do
  grep -q "^$a	allgather,reduce-scatter,allreduce,broadcast,reduce,alltoall,scatter,gather	" "$tmp/out" || fail "--list: $a"
done
for a in kautz-mp kautz-sp; do grep -q "^$a	p2p	" "$tmp/out" || fail "--list: $a"; done

expect 0 "$bin" sched 'kautz(2,1)' --coll allgather --algo kautz-m --alpha 1us --link-bw 100Gbps --size 1MB
has_line "algorithm         kautz-m"
has_line "verified          yes"
has_line "steps             3 (T_L = 3 alpha); Moore bound 2: not Moore-optimal"
has_line "T_B factor        1/1 = 1.000000 M/B; optimum 5/6: not BW-optimal"
has_line "transfers         30"
has_line "time              4.3e-05 s (alpha 1e-06 s, link 1.25e+10 B/s, M 1000000 B)"

expect 0 "$bin" sched 'kautz(2,1)' --coll alltoall --algo kautz-c
has_line "steps             2 (T_L = 2 alpha); Moore bound 2: Moore-optimal"
has_line "T_B factor        5/3 = 1.666667 M/B; lower bound 4/3: not proven BW-optimal"
has_line "transfers         48"

expect 0 "$bin" sched 'kautz(3,1)' --coll broadcast --algo kautz-c --root 4
has_line "collective        broadcast (root 4)"
has_line "T_B factor        6/1 = 6.000000 M/B; optimum 1/1: not BW-optimal"
has_line "transfers         11"

expect 0 "$bin" sched 'kautz(3,1)' --coll gather --algo kautz-m --root 5
has_line "collective        gather (root 5)"
has_line "steps             2 (T_L = 2 alpha); Moore bound 2: Moore-optimal"
has_line "T_B factor        5/4 = 1.250000 M/B; optimum 11/12: not BW-optimal"
has_line "transfers         19"

expect 0 "$bin" sched 'kautz(3,1)' --coll p2p --algo kautz-mp --src 0 --dst 1
has_line "collective        p2p (source 0, destination 1)"
has_line "steps             3 (T_L = 3 alpha); distance 0 -> 1: 2 hops"
has_line "T_B factor        3/1 = 3.000000 M/B; optimum 1/1: not BW-optimal"
has_line "chunks per shard  3 (1 shards)"
has_line "transfers         8"
expect 0 "$bin" sched 'kautz(3,1)' --coll p2p --algo kautz-sp --src 0 --dst 7
has_line "steps             2 (T_L = 2 alpha); distance 0 -> 7: 2 hops"
has_line "T_B factor        6/1 = 6.000000 M/B; optimum 1/1: not BW-optimal"

# the size switch: below 20 KB Kautz-C, from it Kautz-M
expect 0 "$bin" sched 'kautz(4,1)' --coll allgather --algo kautz --alpha 1us --link-bw 100Gbps --size 10KB --copy-bw 10GBps
has_line "algorithm         kautz-c"
has_line "chosen            kautz-c: 10 KB is below the switch size 20 KB (Kautz-M predicted faster from it on)"
expect 0 "$bin" sched 'kautz(4,1)' --coll allgather --algo kautz --alpha 1us --link-bw 100Gbps --size 1MB --copy-bw 10GBps
has_line "algorithm         kautz-m"
has_line "steps             5 (T_L = 5 alpha); Moore bound 2: not Moore-optimal"
has_line "chosen            kautz-m: 1 MB is at or above the switch size 20 KB (Kautz-M predicted faster from it on)"
expect_err 2 "topocoll sched: kautz picks Kautz-C or Kautz-M by the predicted time at the message size: give --alpha, --link-bw and --size (and --copy-bw for the local reorder, paper 002 §3.2.2)" \
  "$bin" sched 'kautz(4,1)' --coll allgather --algo kautz

# the schedule file round-trips through the independent verifier
expect 0 "$bin" sched 'kautz(3,1)' --coll allreduce --algo kautz-m --out "$tmp/ar.json"
has_line "steps             8 (T_L = 8 alpha); Moore bound 4: not Moore-optimal"
expect 0 "$bin" verify "$tmp/ar.json" 'kautz(3,1)'

# refusals: one line, exit 2
expect_err 2 "topocoll sched: kautz-m: needs paper 002's K(d,2), written kautz(d,1), with d >= 2 (a graph of d(d+1) nodes, each of out-degree d; got 9 nodes)" \
  "$bin" sched 'torus(3,3)' --coll allgather --algo kautz-m
expect_err 2 "got 2 nodes)" "$bin" sched 'kautz(1,1)' --coll allgather --algo kautz-c
expect_err 2 "topocoll sched: --root 12 is not a node of kautz(3,1) (0..11)" \
  "$bin" sched 'kautz(3,1)' --coll broadcast --algo kautz-c --root 12

expect_line 2 "topocoll sched: kautz-c builds allgather, reduce-scatter, allreduce, broadcast, reduce, alltoall, scatter and gather, not p2p (use --algo $(algos ' or ' p2p))" \
  "$bin" sched 'kautz(3,1)' --coll p2p --algo kautz-c --src 3 --dst 4
expect_err 2 "topocoll sched: kautz-mp: needs paper 002's K(d,2), written kautz(d,1), with d >= 2" \
  "$bin" sched 'complete(4)' --coll p2p --algo kautz-mp --src 0 --dst 1

# topo names the dissertation's graph
expect 0 "$bin" topo 'kautz(16,1)'
has_line "paper 002           K(16,2) (the dissertation counts the diameter: its K(d,k) is kautz(d,k-1))"
has_line "nodes               272"
expect 0 "$bin" topo 'line(kautz(2,1))'
grep -q '^paper 002' "$tmp/out" && fail "topo printed the Kautz note for line(kautz(2,1))"

finish cli_kautz
