#!/usr/bin/env bash
# cli_rank_map.sh — the plan's ranks.csv, rank -> node -> port beside wiring.csv, and
# `export --format msccl --rank-map` (issue #14 §8: the cables, the ranks and the schedules
# agree). Oracles: wiring.csv itself (every ranks.csv row is one end of one of its cables,
# every end appears once), the rank map (rank r plays compute node r), and the exporter's own
# re-verification of a relabelled schedule; `run --rank-map`'s refusals, before anything is
# launched (tests/mpi_rank_map.sh runs a mapped schedule).
bin=${1:?usage: cli_rank_map.sh TOPOCOLL}
. "$(dirname "$0")/lib_cli.sh"

W=(--alpha 10us --link-bw 25Gbps --size 1MB)
same_as_wiring() { # DIR: ranks.csv is wiring.csv seen from each end
  python3 - "$1" <<'PY'
import csv, sys
d = sys.argv[1]
wiring = list(csv.DictReader(open(f"{d}/wiring.csv")))
lines = open(f"{d}/ranks.csv").read().splitlines()
assert lines[0] == "rank,node,label,port,direction,peer_rank,peer_node,peer_port,cable", lines[0]
rows = list(csv.DictReader(open(f"{d}/ranks.csv")))
want = []
for c in wiring:
    a, b = (c["from_node"], c["from_port"]), (c["to_node"], c["to_port"])
    kind = c["kind"]
    ends = [("tx", a, b), ("rx", b, a)] if kind == "simplex" else [(kind, a, b)] + ([(kind, b, a)] if kind != "loopback" else [])
    for direction, (n, p), (m, q) in ends:
        want.append((int(n), int(p), direction, int(m), int(q), int(c["cable"])))
got = [(int(r["node"]), int(r["port"]), r["direction"], int(r["peer_node"]), int(r["peer_port"]), int(r["cable"])) for r in rows]
assert sorted(got) == sorted(want), (len(got), len(want))
assert got == sorted(got, key=lambda t: (t[0], t[1], {"tx": 0, "rx": 1}.get(t[2], 0))), "not by node, port"
assert all(r["rank"] == r["node"] and r["peer_rank"] == r["peer_node"] for r in rows), "rank r is not node r"
PY
}

expect 0 "$bin" plan --nodes 8 --degree 2 "${W[@]}" --out "$tmp/dup"
grep -q 'wiring.csv ranks.csv allgather.json' "$tmp/out" || fail "plan does not list ranks.csv: $(tail -1 "$tmp/out")"
[ "$(wc -l <"$tmp/dup/ranks.csv")" -eq 17 ] || fail "duplex ranks.csv: not 8 cables x 2 ends + header"
same_as_wiring "$tmp/dup" || fail "duplex ranks.csv is not wiring.csv's ends"
expect 0 "$bin" plan --nodes 8 --degree 2 "${W[@]}" --links simplex --out "$tmp/sim"
same_as_wiring "$tmp/sim" || fail "simplex ranks.csv is not wiring.csv's ends"
grep -q ',tx,' "$tmp/sim/ranks.csv" && grep -q ',rx,' "$tmp/sim/ranks.csv" || fail "simplex ranks.csv lacks tx/rx ends"

# ---- export --rank-map ----
expect 0 "$bin" export "$tmp/dup/allreduce.json" --format msccl --out "$tmp/plain.xml"
expect 0 "$bin" export "$tmp/dup/allreduce.json" --format msccl --rank-map "$tmp/dup/ranks.csv" --out "$tmp/mapped.xml"
cmp -s "$tmp/plain.xml" "$tmp/mapped.xml" || fail "the plan's own rank map changed the MSCCL file"
# ranks renumbered to follow a hostfile (node u is now rank (u + 5) mod 8): exported, verified
python3 - "$tmp/dup/ranks.csv" "$tmp/renum.csv" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
for r in rows:
    r["rank"], r["peer_rank"] = str((int(r["node"]) + 5) % 8), str((int(r["peer_node"]) + 5) % 8)
w = csv.DictWriter(open(sys.argv[2], "w", newline=""), fieldnames=list(rows[0]), lineterminator="\n")
w.writeheader()
w.writerows(rows)
PY
expect 0 "$bin" export "$tmp/dup/allreduce.json" --format msccl --rank-map "$tmp/renum.csv" --out "$tmp/renum.xml"
grep -q '^wrote .*: MSCCL allreduce on 8 GPUs' "$tmp/out" || fail "renumbered export: $(cat "$tmp/out")"
cmp -s "$tmp/plain.xml" "$tmp/renum.xml" && fail "renumbered ranks left the MSCCL file unchanged"

# refusals: one line, exit 2, nothing written
expect_err 2 "$tmp/sim/ranks.csv: line 2: node 0 port 0 tx to node" \
  "$bin" export "$tmp/dup/allreduce.json" --format msccl --rank-map "$tmp/sim/ranks.csv" --out "$tmp/bad.xml"
sed '3s/^0,0,/1,0,/' "$tmp/dup/ranks.csv" >"$tmp/twice.csv"
expect_err 2 "$tmp/twice.csv: line 3: node 0 is rank 0 on an earlier line and 1 here" \
  "$bin" export "$tmp/dup/allreduce.json" --format msccl --rank-map "$tmp/twice.csv" --out "$tmp/bad.xml"
head -5 "$tmp/dup/ranks.csv" >"$tmp/short.csv"
expect_err 2 "$tmp/short.csv: 4 rows, but the wiring has 16 port ends" \
  "$bin" export "$tmp/dup/allreduce.json" --format msccl --rank-map "$tmp/short.csv" --out "$tmp/bad.xml"
python3 - "$tmp/dup/ranks.csv" "$tmp/swap.csv" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
for r in rows:   # node 1 claims rank 0 too: two nodes, one rank
    for k, n in (("rank", "node"), ("peer_rank", "peer_node")):
        if r[n] == "1": r[k] = "0"
w = csv.DictWriter(open(sys.argv[2], "w", newline=""), fieldnames=list(rows[0]), lineterminator="\n")
w.writeheader()
w.writerows(rows)
PY
expect_err 2 "$tmp/swap.csv: rank 0 plays both node 0 and node 1" \
  "$bin" export "$tmp/dup/allreduce.json" --format msccl --rank-map "$tmp/swap.csv" --out "$tmp/bad.xml"
expect_err 2 "cannot read $tmp/none.csv: No such file or directory" \
  "$bin" export "$tmp/dup/allreduce.json" --format msccl --rank-map "$tmp/none.csv" --out "$tmp/bad.xml"
expect_err 2 "--rank-map does not apply to --format simgrid" \
  "$bin" export "$tmp/dup/allreduce.json" --format simgrid --link-bw 1Gbps --alpha 1us --rank-map "$tmp/dup/ranks.csv" --out "$tmp/sg"
[ ! -e "$tmp/bad.xml" ] && [ ! -e "$tmp/sg" ] || fail "a refused export wrote a file"

# ---- run --rank-map: refused before anything is launched (no executor, no mpirun needed:
# TOPOCOLL_EXEC and TOPOCOLL_MPIRUN name programs that would fail the test if started) ----
export TOPOCOLL_EXEC=/bin/false TOPOCOLL_MPIRUN=/bin/false
expect_err 2 "topocoll run: $tmp/sim/ranks.csv: line 2: node 0 port 0 tx to node" \
  "$bin" run "$tmp/dup/allreduce.json" --rank-map "$tmp/sim/ranks.csv"
expect_err 2 "topocoll run: $tmp/twice.csv: line 3: node 0 is rank 0 on an earlier line and 1 here" \
  "$bin" run "$tmp/dup/allreduce.json" --rank-map "$tmp/twice.csv"
expect_err 2 "topocoll run: $tmp/swap.csv: rank 0 plays both node 0 and node 1" \
  "$bin" run "$tmp/dup/allreduce.json" --rank-map "$tmp/swap.csv"
expect_err 2 "topocoll run: $tmp/short.csv: 4 rows, but the wiring has 16 port ends" \
  "$bin" run "$tmp/dup/allreduce.json" --rank-map "$tmp/short.csv"
expect_err 2 "topocoll run: cannot read $tmp/none.csv: No such file or directory" \
  "$bin" run "$tmp/dup/allreduce.json" --rank-map "$tmp/none.csv"
expect_err 2 "topocoll run: --rank-map needs a ranks.csv file" "$bin" run "$tmp/dup/allreduce.json" --rank-map
# a map of 8 ranks for a schedule of 4 (another plan's wiring): refused, not truncated
expect 0 "$bin" plan --nodes 4 --degree 2 "${W[@]}" --out "$tmp/four"
expect_err 2 "topocoll run: $tmp/dup/ranks.csv: " "$bin" run "$tmp/four/allreduce.json" --rank-map "$tmp/dup/ranks.csv"
# a renumbering of a scatter is applied too (its root moves with its node): the run gets
# past the map to the launch, which the missing executor stops
spec=$(grep -o '"spec": "[^"]*"' "$tmp/dup/allreduce.json" | head -1 | cut -d'"' -f4)
expect 0 "$bin" sched "$spec" --coll scatter --algo binomial --root 0 --out "$tmp/sc.json"
TOPOCOLL_EXEC=/nonexistent expect_err 1 "TOPOCOLL_EXEC" "$bin" run "$tmp/sc.json" --rank-map "$tmp/renum.csv"
unset TOPOCOLL_EXEC
# the plan's own (identity) map is taken, also for scatter: it renames nothing
TOPOCOLL_EXEC=/nonexistent expect_err 1 "TOPOCOLL_EXEC" "$bin" run "$tmp/sc.json" --rank-map "$tmp/dup/ranks.csv"
unset TOPOCOLL_EXEC TOPOCOLL_MPIRUN

finish cli_rank_map
