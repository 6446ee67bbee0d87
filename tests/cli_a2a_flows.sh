#!/usr/bin/env bash
# cli_a2a_flows.sh — `topocoll sched SPEC --coll alltoall` with the flow-based generators of
# paper 003 (a2a_flows.h, docs/alltoall.md): tsMCF (--algo mcf, --steps), pMCF (--paths),
# MCF-extP and the ILP baselines; their options and every refusal as one line with exit 2.
# Expected numbers (derivations in tests/test_a2a_flows.c):
#   mcf on Q3: Σ_t U_t = 7/3 + 4/3 + 1/3 = 4 = 1/F, tau = (3/8) 4 = 3/2 = the distance
#   bound (BW-optimal), chunks 3 (the LP's denominators), 3 steps;
#   pmcf (disjoint) and mcf-extp on K4,4: f = 2/5 (the MCF optimum); ilp-disjoint on K4,4:
#   f = 1/3 (max load 3 = ⌈80/32⌉), one path per pair (56).
set -u
bin=$1
. "$(dirname "$0")/lib_cli.sh"

has_line() { grep -qxF -- "$1" "$tmp/out" || fail "no line '$1' in: $(cat "$tmp/out")"; }
has() { grep -qF -- "$1" "$tmp/out" || fail "no '$1' in: $(cat "$tmp/out")"; }

# ---- help and list ----
expect 0 "$bin" help sched
for opt in --steps --paths --time-limit; do grep -q -- "$opt" "$tmp/out" || fail "help sched lacks $opt"; done
expect 0 "$bin" sched --list
for a in mcf pmcf mcf-extp ilp-disjoint ilp-shortest; do
  grep -q "^$a	alltoall	" "$tmp/out" || fail "--list lacks $a"
done

# ---- tsMCF ----
expect 0 "$bin" sched 'hypercube(3)' --coll alltoall --algo mcf
has_line "algorithm         mcf"
has_line "verified          yes"
has_line "steps             3 (T_L = 3 alpha); Moore bound 2: not Moore-optimal"
has_line "T_B factor        3/2 = 1.500000 M/B; lower bound 3/2: BW-optimal"
has_line "chunks per shard  3 (64 shards)"
grep -q "routing f" "$tmp/out" && fail "mcf has no routing to report"
# a fourth step does not help on Q3: the tie-break leaves it empty
expect 0 "$bin" sched 'hypercube(3)' --coll alltoall --algo mcf --steps 4 --json
has '"steps": 3,'
has '"tb_factor": "3/2",'
expect 0 "$bin" sched 'hypercube(3)' --coll alltoall --algo mcf --chunks 6 --out "$tmp/ts.json"
expect 0 "$bin" verify "$tmp/ts.json" 'hypercube(3)'

# ---- path-based ----
expect 0 "$bin" sched 'bipartite(4)' --coll alltoall --algo pmcf
has "routing f         2/5 = 0.400000"
expect 0 "$bin" sched 'bipartite(4)' --coll alltoall --algo pmcf --paths shortest --routes-out "$tmp/p.routes"
has "routing f         2/5 = 0.400000"
[ -s "$tmp/p.routes" ] || fail "--routes-out wrote no route file"
expect 0 "$bin" sched 'genkautz(3,8)' --coll alltoall --algo pmcf --paths lmax --steps 3
has "routing f         1/4 = 0.250000"
expect 0 "$bin" sched 'bipartite(4)' --coll alltoall --algo mcf-extp
has "routing f         2/5 = 0.400000"
expect 0 "$bin" sched 'bipartite(4)' --coll alltoall --algo ilp-disjoint --time-limit 30s
has "routing f         1/3 = 0.333333 (max link load 3/1"
has "; 56 paths)"
expect 0 "$bin" sched 'hypercube(3)' --coll alltoall --algo ilp-shortest
has "routing f         1/4 = 0.250000"

# ---- refusals: one line, exit 2 ----
expect_err 2 "topocoll sched: --paths: unknown path set 'bogus' (disjoint, shortest or lmax)" \
  "$bin" sched 'hypercube(3)' --coll alltoall --algo pmcf --paths bogus
expect_err 2 "topocoll sched: --paths applies to --algo pmcf only" \
  "$bin" sched 'hypercube(3)' --coll alltoall --algo ewsp --paths disjoint
expect_err 2 "topocoll sched: --steps applies to --algo mcf and to --algo pmcf --paths lmax only" \
  "$bin" sched 'hypercube(3)' --coll alltoall --algo pmcf --steps 3
expect_err 2 "topocoll sched: --time-limit applies to --algo mcf, pmcf, mcf-extp, ilp-disjoint and ilp-shortest only" \
  "$bin" sched 'hypercube(3)' --coll alltoall --algo ewsp --time-limit 1s
expect_err 2 "topocoll sched: mcf: 2 steps are fewer than the diameter 3 (some pair needs 3 hops)" \
  "$bin" sched 'hypercube(3)' --coll alltoall --algo mcf --steps 2
expect_err 2 "topocoll sched: pmcf: paths of at most 1 hops cannot join every pair (the diameter is 3)" \
  "$bin" sched 'hypercube(3)' --coll alltoall --algo pmcf --paths lmax --steps 1
expect_err 2 "topocoll sched: --routes-out: mcf builds a step schedule, not a routing" \
  "$bin" sched 'hypercube(3)' --coll alltoall --algo mcf --routes-out "$tmp/x.routes"
[ ! -e "$tmp/x.routes" ] || fail "a refused --routes-out left a file"
expect_err 2 "topocoll sched: ilp-disjoint: at most 64 nodes (the graph has 128): the single-path ILP is NP-hard" \
  "$bin" sched 'hypercube(7)' --coll alltoall --algo ilp-disjoint
expect 0 "$bin" sched 'hypercube(3)' --coll alltoall --algo mcf --chunks 5
has_line "verified          yes"
has_line "chunks per shard  5 (64 shards)"
expect_err 2 "topocoll sched: mcf: all-to-all needs a graph of compute nodes only" \
  "$bin" sched 'fattree(4)' --coll alltoall --algo mcf
expect_err 2 "topocoll sched: mcf builds alltoall, not allgather" \
  "$bin" sched 'hypercube(3)' --coll allgather --algo mcf

finish cli_a2a_flows
