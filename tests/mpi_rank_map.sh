#!/usr/bin/env bash
# mpi_rank_map.sh — the MPI side of the plan's rank map (issue #14 §8; rank_map.h,
# tc_mpi_plan_load_mapped): with a ranks.csv that renumbers the ranks (node u played by MPI
# rank (u + 2) mod 4 on the plan's torus(2,2)), MPI rank r plays the node the file gives it
# and the results are still MPI's:
#   - `topocoll run --rank-map` of the plan's allreduce, allgather and reduce-scatter
#     (the last two have a block per rank: a map applied to the peers but not to the data
#     would put rank r's block at another rank's place) and of a broadcast from node 0,
#     whose root is then MPI rank 2, and of a scatter and a gather from node 0 (root rank 2
#     too): every size verified, out of place and in place;
#   - the PMPI interposer with TOPOCOLL_RANK_MAP under mpi_app (results checked against
#     closed forms by the program itself): the same calls served as without a map; under
#     mpi_rooted_app the broadcast plan from node 0 serves MPI_Bcast from root 2, the calls
#     the map makes it play;
#   - a TOPOCOLL_RANK_MAP that does not fit the plans (another plan's wiring): rank 0 prints
#     one "topocoll: TOPOCOLL_RANK_MAP: ...; aborting" line and the job fails.
# $1 = build directory, $2 = mpirun.
set -u
build=$1
mpirun=$2
bin=$build/topocoll
. "$(dirname "$0")/lib_cli.sh"
mpiargs="-x ASAN_OPTIONS=detect_leaks=0 --mca btl self,vader --mca pml ob1"
lib=$build/libtopocoll_pmpi.so
preload=$lib
asan=$(ldd "$lib" | awk '/libasan/ {print $3}')
[ -z "$asan" ] || preload="$asan:$lib"

W=(--alpha 10us --link-bw 25Gbps --size 1MB)
expect 0 "$bin" plan --nodes 4 --degree 2 "${W[@]}" --out "$tmp/p4"
expect 0 "$bin" plan --nodes 8 --degree 2 "${W[@]}" --out "$tmp/p8"
grep -q '"spec": "torus(2,2)"' "$tmp/p4/allreduce.json" || fail "plan --nodes 4 --degree 2 is no longer torus(2,2)"
expect 0 "$bin" sched 'torus(2,2)' --coll broadcast --algo binomial --root 0 --out "$tmp/bc0.json"
python3 - "$tmp/p4/ranks.csv" "$tmp/renum.csv" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
for r in rows:
    r["rank"], r["peer_rank"] = str((int(r["node"]) + 2) % 4), str((int(r["peer_node"]) + 2) % 4)
w = csv.DictWriter(open(sys.argv[2], "w", newline=""), fieldnames=list(rows[0]), lineterminator="\n")
w.writeheader()
w.writerows(rows)
PY

# ---- topocoll run --rank-map ----
for f in allreduce allgather reduce-scatter; do
  expect 0 timeout 120 "$bin" run "$tmp/p4/$f.json" --rank-map "$tmp/renum.csv" --sizes 1KB,64KB --iters 1 --json \
    --mpirun-args "$mpiargs"
  python3 - "$tmp/out" <<'PY' || fail "run --rank-map $f: $(cat "$tmp/out")"
import json, sys
j = json.load(open(sys.argv[1]))
assert j["verified"] is True and len(j["results"]) == 2, j
for r in j["results"]:
    for key in ("out_of_place", "in_place"):
        assert r[key]["verified"] is True and r[key]["wrong"] == 0, (key, r)
PY
done
expect 0 timeout 120 "$bin" run "$tmp/bc0.json" --rank-map "$tmp/renum.csv" --sizes 1KB,64KB --iters 1 \
  --mpirun-args "$mpiargs"
# node 0, the root, is played by MPI rank 2
grep -Eq '^ +1 KB +250 +int32 +- +2 +[0-9.]+ +[0-9.]+ +[0-9.]+ +0 +n/a ' "$tmp/out" ||
  fail "run --rank-map broadcast: $(cat "$tmp/out")"
# scatter and gather from node 0: their shards are named by node, and move with the map; the
# root is MPI rank 2, every size verified out of place and in place
for c in scatter gather; do
  expect 0 "$bin" sched 'torus(2,2)' --coll $c --algo binomial --root 0 --out "$tmp/$c.json"
  expect 0 timeout 120 "$bin" run "$tmp/$c.json" --rank-map "$tmp/renum.csv" --sizes 1KB,64KB --iters 1 \
    --mpirun-args "$mpiargs"
  grep -Eq '^ +64 KB +4000 +int32 +- +2 +[0-9.]+ +[0-9.]+ +[0-9.]+ +0 +[0-9.]+ +[0-9.]+ +[0-9.]+ +0 ' "$tmp/out" ||
    fail "run --rank-map $c: $(cat "$tmp/out")"
done

# ---- the interposer: TOPOCOLL_RANK_MAP ----
app_line="mpi_app: servable allreduce 16 allgather 8 reduce-scatter 8 alltoall 8, unservable 5"
plans="$tmp/p4/allreduce.json:$tmp/p4/allgather.json:$tmp/p4/reduce-scatter.json"
# app PROGRAM MAP: the program under the interposer with every plan and the map, verbose
app() {
  timeout 60 "$mpirun" --allow-run-as-root --oversubscribe --mca btl self,vader --mca pml ob1 -np 4 \
    -x LD_PRELOAD="$preload" -x TOPOCOLL_PLANS="$plans:$tmp/bc0.json" -x TOPOCOLL_RANK_MAP="$2" -x TOPOCOLL_VERBOSE=1 \
    "$build/$1" >"$tmp/out" 2>"$tmp/err"
}
app mpi_app "$tmp/renum.csv" || fail "mpi_app with a rank map: $(grep -v '^--\|^ \|^$' "$tmp/err" | head -5)"
grep -qxF "$app_line" "$tmp/out" || fail "mpi_app with a rank map: $(cat "$tmp/out")"
grep -qxF "topocoll: 32 calls served by topocoll (allreduce 16, allgather 8, reduce-scatter 8, alltoall 0, broadcast 0, reduce 0, scatter 0, gather 0), 15 fell back to MPI" \
  "$tmp/err" || fail "mpi_app with a rank map, counts: $(cat "$tmp/err")"
grep -qxF "topocoll: $tmp/bc0.json serves broadcast from root 2 (binomial, 4 ranks)" "$tmp/err" ||
  fail "the broadcast plan from node 0 does not serve root 2: $(cat "$tmp/err")"
app mpi_rooted_app "$tmp/renum.csv" || fail "mpi_rooted_app with a rank map: $(grep -v '^--\|^ \|^$' "$tmp/err" | head -5)"
grep -q '^mpi_rooted_app: servable broadcast 6 ' "$tmp/out" || fail "mpi_rooted_app with a rank map: $(cat "$tmp/out")"
grep -q '^topocoll: [0-9]* calls served by topocoll (.*, broadcast 6, ' "$tmp/err" ||
  fail "mpi_rooted_app: the root-2 broadcasts were not served: $(cat "$tmp/err")"
# A map of another wiring: the job is aborted with one line saying why.
app mpi_app "$tmp/p8/ranks.csv" && fail "a rank map of another plan: the job did not fail"
[ "$(grep -c '^topocoll: TOPOCOLL_RANK_MAP: ' "$tmp/err")" -eq 1 ] &&
  grep -q "^topocoll: TOPOCOLL_RANK_MAP: rank 0: $tmp/p8/ranks.csv: .*; aborting (the ranks would not play the nodes the map gives them)\$" \
    "$tmp/err" || fail "a rank map of another plan: $(cat "$tmp/err")"

finish mpi_rank_map
