#!/usr/bin/env bash
# cli_sched_rooted.sh — scatter, gather and p2p at the command line: `sched`'s --root,
# --src and --dst and every refusal (one line, exit 2), and `verify` on hand-written
# scatter and p2p files with their exact costs:
#   p2p 0 -> 3 on complete(4), a third direct and a third via each of 1 and 2: 2 steps,
#     tau = d * (1/3 + 1/3) = 2, optimum d / maxflow = 1, distance 1;
#   scatter from 0 around uniring(1,4): loads 3, 2, 1 shards of M/4: tau 3/2, optimum 3/4.
set -u
bin=$1
. "$(dirname "$0")/lib_cli.sh"

# ---- usage ----
expect 0 "$bin" help sched
for opt in "--src S --dst T" "scatter, gather or p2p" "root of broadcast, reduce, scatter and gather"; do
  grep -qF -- "$opt" "$tmp/out" || fail "help sched lacks '$opt'"
done
expect_err 2 "topocoll sched: --root does not apply to p2p (give --src S --dst T)" \
  "$bin" sched 'complete(4)' --coll p2p --algo dbt --root 1
expect_err 2 "topocoll sched: --src applies to --coll p2p only" \
  "$bin" sched 'complete(4)' --coll scatter --algo dbt --src 1
expect_err 2 "topocoll sched: --dst applies to --coll p2p only" \
  "$bin" sched 'complete(4)' --coll allgather --algo dbt --dst 1
expect_err 2 "topocoll sched: p2p needs --src S and --dst T (missing --dst)" \
  "$bin" sched 'complete(4)' --coll p2p --algo dbt --src 1
expect_err 2 "topocoll sched: p2p needs --src S and --dst T (missing --src)" \
  "$bin" sched 'complete(4)' --coll p2p --algo dbt --dst 1
expect_err 2 "topocoll sched: --src and --dst are both node 2 (p2p needs two nodes)" \
  "$bin" sched 'complete(4)' --coll p2p --algo dbt --src 2 --dst 2
expect_err 2 "topocoll sched: --root applies to broadcast, reduce, scatter and gather only" \
  "$bin" sched 'complete(4)' --coll allgather --algo bfb --root 1
expect_err 2 "unknown collective 'scatterv' (allgather, reduce-scatter, allreduce, broadcast, reduce, alltoall, scatter, gather, p2p)" \
  "$bin" sched 'complete(4)' --coll scatterv --algo dbt

# ---- verify: hand-written files ----
cat >"$tmp/p2p.json" <<'JSON'
{"format": "topocoll-schedule", "version": 1,
 "graph": {"spec": "complete(4)", "nodes": 4, "arcs": [[0, 1], [0, 2], [0, 3], [1, 0], [1, 2], [1, 3], [2, 0], [2, 1],
   [2, 3], [3, 0], [3, 1], [3, 2]]},
 "schedule": {"collective": "p2p", "algorithm": "hand", "nodes": 4, "nshards": 1, "source": 0, "destination": 3,
   "units": 3, "steps": 2, "rs_steps": 0,
   "transfers": [[0, 1, 2, 0, 1], [0, 1, 0, 1, 2], [0, 1, 1, 2, 3], [0, 2, 5, 1, 2], [0, 2, 8, 2, 3]]}}
JSON
expect 0 "$bin" verify "$tmp/p2p.json"
grep -qx "collective        p2p (source 0, destination 3)" "$tmp/out" || fail "p2p report: $(cat "$tmp/out")"
grep -qx "steps             2 (T_L = 2 alpha); distance 0 -> 3: 1 hop" "$tmp/out" || fail "p2p steps: $(cat "$tmp/out")"
grep -qx "T_B factor        2/1 = 2.000000 M/B; optimum 1/1: not BW-optimal" "$tmp/out" || fail "p2p tau: $(cat "$tmp/out")"
expect 0 "$bin" verify "$tmp/p2p.json" --json
python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); assert (j["source"], j["destination"], j["tb_factor"]) == (0, 3, "2/1"), j' \
  "$tmp/out" || fail "p2p json: $(cat "$tmp/out")"
# the relay 1 hands its third on twice: flow semantics refuse it (exit 1, the transfer named)
sed 's/\[0, 2, 8, 2, 3\]\]/[0, 2, 8, 2, 3], [0, 2, 4, 1, 2]]/' "$tmp/p2p.json" >"$tmp/p2p_dup.json"
expect_err 1 "node 1 has already sent on every copy of units [1,2) of shard 0 (0 -> 3) it held" \
  "$bin" verify "$tmp/p2p_dup.json"

cat >"$tmp/scatter.json" <<'JSON'
{"format": "topocoll-schedule", "version": 1,
 "graph": {"spec": "uniring(1,4)", "nodes": 4, "arcs": [[0, 1], [1, 2], [2, 3], [3, 0]]},
 "schedule": {"collective": "scatter", "algorithm": "hand", "nodes": 4, "nshards": 4, "root": 0,
   "units": 1, "steps": 3, "rs_steps": 0,
   "transfers": [[1, 1, 0, 0, 1], [2, 1, 0, 0, 1], [3, 1, 0, 0, 1], [2, 2, 1, 0, 1], [3, 2, 1, 0, 1], [3, 3, 2, 0, 1]]}}
JSON
expect 0 "$bin" verify "$tmp/scatter.json"
grep -qx "collective        scatter (root 0)" "$tmp/out" || fail "scatter report: $(cat "$tmp/out")"
grep -qx "T_B factor        3/2 = 1.500000 M/B; optimum 3/4: not BW-optimal" "$tmp/out" || fail "scatter tau: $(cat "$tmp/out")"
# shard 3 stops at node 2
sed 's/, \[3, 3, 2, 0, 1\]\]/]/; s/"steps": 3/"steps": 2/' "$tmp/scatter.json" >"$tmp/scatter_short.json"
expect_err 1 "node 3 never receives units [0,1) of shard 3 (owner 0), whose destination it is" \
  "$bin" verify "$tmp/scatter_short.json"

# ---- the multi-port baselines: built, verified, written, read back ----
expect 0 "$bin" sched 'complete(6)' --coll scatter --algo binomial --root 2 --out "$tmp/bin.json"
grep -qx "collective        scatter (root 2)" "$tmp/out" || fail "binomial scatter report: $(cat "$tmp/out")"
grep -qx "T_B factor        25/6 = 4.166667 M/B; optimum 5/6: not BW-optimal" "$tmp/out" || fail "binomial tau: $(cat "$tmp/out")"
expect 0 "$bin" verify "$tmp/bin.json"
grep -qx "steps             3 (T_L = 3 alpha); Moore bound 1: not Moore-optimal" "$tmp/out" || fail "verify steps: $(cat "$tmp/out")"
expect 0 "$bin" sched 'complete(8)' --coll p2p --algo fc-direct --src 2 --dst 5 --json
python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); assert (j["source"], j["destination"], j["steps"]) == (2, 5, 1), j' \
  "$tmp/out" || fail "fc-direct p2p json: $(cat "$tmp/out")"
# Bruck's combined messages: local copies, and --copy-bw adds them to the time
expect 0 "$bin" sched 'complete(8)' --coll allgather --algo bruck --alpha 0s --link-bw 1GBps --size 8MB --copy-bw 1GBps
grep -qx "local copy        3/4 = 0.750000 M (combined messages packed or reordered, busiest node per step)" "$tmp/out" \
  || fail "bruck local copy: $(cat "$tmp/out")"
# 7/8 M / 1 GB/s on the wire + 3/4 M / 1 GB/s of copies = 0.007 + 0.006 s
grep -qx "time              0.013 s (alpha 0 s, link 1e+09 B/s, M 8000000 B, local copies included)" "$tmp/out" \
  || fail "bruck time: $(cat "$tmp/out")"
# off complete(n) routed: pairwise's XOR partners around a one-way ring take 3 + 2 + 3 steps
expect 0 "$bin" sched 'uniring(1,4)' --coll alltoall --algo pairwise
grep -qx "steps             8 (T_L = 8 alpha); Moore bound 3: not Moore-optimal" "$tmp/out" || fail "pairwise routed: $(cat "$tmp/out")"
expect_line 2 "topocoll sched: binomial reduce: node 0 is 2 hops from node 2, and a partial cannot be relayed through a compute node (it would add its own)" \
  "$bin" sched 'uniring(1,4)' --coll reduce --root 0 --algo binomial
expect_err 2 "topocoll sched: binomial builds broadcast, reduce, scatter and gather, not allgather (use --algo" \
  "$bin" sched 'complete(4)' --coll allgather --algo binomial

finish cli_sched_rooted
