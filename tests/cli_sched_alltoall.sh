#!/usr/bin/env bash
# cli_sched_alltoall.sh — `topocoll sched SPEC --coll alltoall`: the routing baselines of
# paper 003 lowered store-and-forward (hop h in step h), verified and costed; route files
# (--routes, --routes-out); schedule files that `verify` accepts or rejects; and every
# refusal as one line with exit 2.
# Expected numbers (derivations in tests/test_a2a_route.c and docs/alltoall_routes.md):
#   EwSP on Q3: f = 1/4, step loads 7/3 + 4/3 + 1/3 = 4, tau = (3/8) 4 = 3/2 = the distance
#   bound (BW-optimal); units 6 (paths at distance 3: 3! of them), 2 VC layers;
#   EwSP on K4,4: f = 2/5, tau = (4/8)(7/4 + 3/4) = 5/4, BW-optimal;
#   EwSP on torus(3,3,3): f = 1/9, tau = (6/27) 9 = 2, BW-optimal;
#   DOR on torus(3,3,3): f = 1/9 (9 shards on every arc), step loads 9, 6, 4:
#   tau = (6/27) 19 = 38/9, one VC layer; with alpha 1us, 1 GBps links, M = 27 MB:
#   T = 3 us + 38/9 * 27e6 / 6e9 s = 0.019003 s.
set -u
bin=$1
. "$(dirname "$0")/lib_cli.sh"

# has_line LINE : $tmp/out holds exactly this line
has_line() { grep -qxF -- "$1" "$tmp/out" || fail "no line '$1' in: $(cat "$tmp/out")"; }

# ---- help and list ----
expect 0 "$bin" help sched
for opt in --routes --routes-out alltoall; do grep -q -- "$opt" "$tmp/out" || fail "help sched lacks $opt"; done
expect 0 "$bin" sched --list
for a in direct sssp ewsp dor; do grep -q "^$a	alltoall	" "$tmp/out" || fail "--list lacks $a"; done

# ---- the baselines ----
expect 0 "$bin" sched 'hypercube(3)' --coll alltoall --algo ewsp
has_line "collective        alltoall"
has_line "steps             3 (T_L = 3 alpha); Moore bound 2: not Moore-optimal"
has_line "T_B factor        3/2 = 1.500000 M/B; lower bound 3/2: BW-optimal"
has_line "chunks per shard  6 (64 shards)"
has_line "transfers         264"
has_line "routing f         1/4 = 0.250000 (max link load 4/1 on arc 0: 0 -> 1; 120 paths)"
has_line "vc layers         2 (LASH-sequential)"

expect 0 "$bin" sched 'bipartite(4)' --coll alltoall --algo ewsp
has_line "T_B factor        5/4 = 1.250000 M/B; lower bound 5/4: BW-optimal"
has_line "routing f         2/5 = 0.400000 (max link load 5/2 on arc 0: 0 -> 4; 128 paths)"

expect 0 "$bin" sched 'torus(3,3,3)' --coll alltoall --algo ewsp
has_line "T_B factor        2/1 = 2.000000 M/B; lower bound 2/1: BW-optimal"
has_line "routing f         1/9 = 0.111111 (max link load 9/1 on arc 0: 0 -> 1; 2106 paths)"

expect 0 "$bin" sched 'torus(3,3,3)' --coll alltoall --algo dor --alpha 1us --link-bw 1GBps --size 27MB
has_line "T_B factor        38/9 = 4.222222 M/B; lower bound 2/1: not proven BW-optimal"
has_line "routing f         1/9 = 0.111111 (max link load 9/1 on arc 0: 0 -> 1; 702 paths)"
has_line "vc layers         1 (LASH-sequential)"
has_line "time              0.019003 s (alpha 1e-06 s, link 1e+09 B/s, M 27000000 B)"

expect 0 "$bin" sched 'genkautz(3,12)' --coll alltoall --algo ewsp --json
python3 - "$tmp/out" <<'PY' || fail "genkautz(3,12) json: $(cat "$tmp/out")"
import json, sys
j = json.load(open(sys.argv[1]))
assert j["collective"] == "alltoall" and j["verified"] is True, j
assert j["routing_f"] == "1/7" and j["routing_max_load"] == "7/1" and j["shards"] == 144, j
assert j["vc_layers"] == 2 and j["routing_paths"] == 132, j
PY

for a in direct sssp; do
  expect 0 "$bin" sched 'torus(3,3,3)' --coll alltoall --algo $a
  has_line "verified          yes"
done

# ---- route files: written, read back, refined ----
expect 0 "$bin" sched 'hypercube(3)' --coll alltoall --algo ewsp --routes-out "$tmp/q3.routes" --out "$tmp/q3.json"
has_line "routes written    $tmp/q3.routes"
head -4 "$tmp/q3.routes" >"$tmp/head"
printf 'topocoll-routes 1\n# spec hypercube(3)\nnodes 8\nalgorithm ewsp\n' | cmp -s - "$tmp/head" ||
  fail "route file header: $(cat "$tmp/head")"
grep -qx '1/2 0 1 3' "$tmp/q3.routes" || fail "route file lacks '1/2 0 1 3'"
[ "$(grep -c '^1/6 0 ' "$tmp/q3.routes")" -eq 6 ] || fail "route file: 0 -> 7 should have 6 paths of 1/6"
expect 0 "$bin" sched 'hypercube(3)' --coll alltoall --routes "$tmp/q3.routes"
has_line "routes            $tmp/q3.routes"
has_line "T_B factor        3/2 = 1.500000 M/B; lower bound 3/2: BW-optimal"
has_line "routing f         1/4 = 0.250000 (max link load 4/1 on arc 0: 0 -> 1; 120 paths)"
expect 0 "$bin" sched 'hypercube(3)' --coll alltoall --routes "$tmp/q3.routes" --chunks 12
has_line "chunks per shard  12 (64 shards)"
# P not a multiple of the 6 units: each pair's path shares rounded to whole chunks (App. E.2)
expect 0 "$bin" sched 'hypercube(3)' --coll alltoall --routes "$tmp/q3.routes" --chunks 5
has_line "verified          yes"
has_line "chunks per shard  5 (64 shards)"
expect 0 "$bin" sched 'hypercube(3)' --coll alltoall --algo ewsp --chunks 4
has_line "verified          yes"
has_line "chunks per shard  4 (64 shards)"

# ---- schedule files: verify accepts, and rejects a dropped transfer ----
expect 0 "$bin" verify "$tmp/q3.json"
has_line "collective        alltoall"
has_line "T_B factor        3/2 = 1.500000 M/B; lower bound 3/2: BW-optimal"
expect 0 "$bin" sched 'hypercube(3)' --coll alltoall --algo direct --out "$tmp/d.json"
python3 - "$tmp/d.json" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
assert j["schedule"]["transfers"][0] == [1, 1, 0, 0, 1]
del j["schedule"]["transfers"][0]
json.dump(j, open(sys.argv[1], "w"))
PY
expect_err 1 "topocoll verify: $tmp/d.json: invalid: node 1 never receives units [0,1) of shard 1 (owner 0)" \
  "$bin" verify "$tmp/d.json"

# ---- refusals: one line, exit 2, nothing written ----
expect_err 2 "topocoll sched: dor needs SPEC written as torus(l1,...,lk) to know the dimensions (DOR routes tori only)" \
  "$bin" sched 'hypercube(3)' --coll alltoall --algo dor
expect_line 2 "topocoll sched: ring builds allgather, reduce-scatter and allreduce, not alltoall (use --algo $(algos ' or ' alltoall))" \
  "$bin" sched 'hypercube(3)' --coll alltoall --algo ring
expect_err 2 "topocoll sched: ewsp builds alltoall, not allgather" "$bin" sched 'hypercube(3)' --coll allgather --algo ewsp
expect_err 2 "topocoll sched: --routes applies to --coll alltoall only" \
  "$bin" sched 'hypercube(3)' --coll allgather --algo bfb --routes "$tmp/q3.routes"
expect_err 2 "topocoll sched: --routes-out applies to --coll alltoall only" \
  "$bin" sched 'hypercube(3)' --coll allgather --algo bfb --routes-out "$tmp/x.routes"
expect_err 2 "topocoll sched: give --algo or --routes, not both" \
  "$bin" sched 'hypercube(3)' --coll alltoall --algo ewsp --routes "$tmp/q3.routes"
expect_err 2 "topocoll sched: missing --algo (or --routes)" "$bin" sched 'hypercube(3)' --coll alltoall
expect_err 2 "topocoll sched: cannot read $tmp/none.routes: No such file or directory" \
  "$bin" sched 'hypercube(3)' --coll alltoall --routes "$tmp/none.routes"
expect_err 2 "topocoll sched: $tmp/q3.routes:3: nodes \"8\", but the graph has 27" \
  "$bin" sched 'torus(3,3,3)' --coll alltoall --routes "$tmp/q3.routes"
grep -v '^1/6 0 ' "$tmp/q3.routes" >"$tmp/cut.routes"
expect_err 2 "topocoll sched: $tmp/cut.routes: commodity (0,7) has no path" \
  "$bin" sched 'hypercube(3)' --coll alltoall --routes "$tmp/cut.routes"
sed 's/^1\/2 0 1 3$/1\/2 0 1 2 3/' "$tmp/q3.routes" >"$tmp/broken.routes"
expect_err 2 "topocoll sched: $tmp/broken.routes:8: hop \"2\": the graph has no such arc from the previous node" \
  "$bin" sched 'hypercube(3)' --coll alltoall --routes "$tmp/broken.routes"
mkdir "$tmp/dir"
expect_err 2 "topocoll sched: cannot write $tmp/dir: it is a directory" "$bin" sched 'hypercube(3)' --coll alltoall --algo ewsp --routes-out "$tmp/dir"
printf '0 1\n1 2\n2 1\n' >"$tmp/oneway.txt" # 0 reaches 1 and 2, nothing reaches 0
expect_err 2 "topocoll sched: ewsp: node 1 cannot reach node 0: the graph is not strongly connected" \
  "$bin" sched "file($tmp/oneway.txt)" --coll alltoall --algo ewsp
rm -f "$tmp/new.json" "$tmp/new.routes"
expect 2 "$bin" sched 'hypercube(3)' --coll alltoall --algo dor --out "$tmp/new.json" --routes-out "$tmp/new.routes"
[ ! -e "$tmp/new.json" ] && [ ! -e "$tmp/new.routes" ] || fail "a refused run left a file"

finish cli_sched_alltoall
