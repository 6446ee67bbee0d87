#!/usr/bin/env bash
# sim_alltoall.sh — `topocoll simulate` of alltoall schedules in SimGrid SMPI: the simulated
# time against the α-β model, the bound column (the cost model's alltoall bound, cost.h)
# and SMPI's own alltoall algorithms (smpi/alltoall) run beside the schedule. $1 = build dir.
#
# Why the expected numbers hold (the rules of sim_simulate.sh: a message of m bytes over one
# link takes alpha + (m + 16)/bw in simulate's α-β configuration, the executor sends one
# message per (step, peer), and rounds a transfer by under one element):
#   - direct on complete(4): one step, every arc carries one shard of M/4; tau = 3/4 and
#     the bound's tau* = 3/4 (d/C times max(Σ dist / Σ cap, (C-1) / out-capacity) =
#     3/4 * 1), T_L* = 1: model = bound = alpha + M/(4 bw) and simulated = model + 16/bw;
#   - sssp on hypercube(3): three steps, shards relayed over up to three hops, uneven loads:
#     the ranks only wait for their own messages, so the simulation is at most the model's
#     synchronous steps plus the envelopes and rounding, simulated <= model + Σ_t (16 +
#     4 k_t)/bw, and no less than the model's last step (its one arc's bytes, alpha +
#     load/bw); the bound is 2 alpha + (3/8 * 4) M/(3 bw) (T_L* = 2 for 8 nodes of degree
#     3; the distance bound Σ dist / Σ cap = 96/24 = 4 shards);
#   - every result checked against SMPI's MPI_Alltoall (sizes <= --check-max);
#   - SMPI's basic_linear, bruck, pair and ring run at every size on hypercube(3) (8 ranks,
#     a power of two: pair applies); on complete(4)'s 4 ranks too.
set -u
build=$1
bin=$build/topocoll
. "$(dirname "$0")/lib_cli.sh"
export TMPDIR=$tmp/work # simulate's working directories; nothing may be left in it
mkdir -p "$TMPDIR"
unset TOPOCOLL_SMPI_EXEC TOPOCOLL_SMPIRUN

plan() { "$bin" sched "$1" --coll "$2" --algo "$3" --out "$tmp/$4" >/dev/null || fail "sched $1 $2 $3"; }
plan 'complete(4)' alltoall direct k4.json
plan 'hypercube(3)' alltoall sssp hc.json

# check PLAN PYTHON: assertions over j (the JSON in $tmp/out) and p (the plan)
check() {
  python3 - "$tmp/out" "$1" "$2" <<'PY' || fail "$2: $(head -c 2000 "$tmp/out")"
import collections, json, sys
j = json.load(open(sys.argv[1]))
p = json.load(open(sys.argv[2]))
R = j["results"]
def most_per_arc(p):  # step -> the most transfers on one arc in that step
    per = collections.defaultdict(collections.Counter)
    for shard, step, arc, lo, hi in p["schedule"]["transfers"]:
        per[step][arc] += 1
    return {t: max(c.values()) for t, c in per.items()}
exec(sys.argv[3])
PY
}

expect 0 "$bin" simulate "$tmp/k4.json" --link-bw 100Gbps --alpha 1us --sizes 4KB..1MB --check-max 64KB \
  --smpi-algos basic_linear,bruck,pair,ring --json
check "$tmp/k4.json" '
bw, a = 12.5e9, 1e-6
assert j["collective"] == "alltoall" and j["steps"] == 1 and j["degree"] == 3, j
assert j["tb_factor"] == "3/4" and j["bound_tb_factor"] == "3/4" and j["bound_steps"] == 1, j
assert len(R) == 9  # 4000, 8000, ..., 512000, then the top 1000000
for r in R:
    m = r["size_bytes"]
    assert m == r["requested_bytes"] and r["checked"] == (m <= 64000), r
    assert abs(r["model_time_s"] - (a + m / 4 / bw)) <= 1e-15, r
    assert abs(r["bound_time_s"] - r["model_time_s"]) <= 1e-15, r
    assert abs(r["sim_time_s"] - (a + (m / 4 + 16) / bw)) <= 1e-15, r
    assert sorted(r["smpi_time_s"]) == ["basic_linear", "bruck", "pair", "ring"], r
assert [(s["name"], s["status"]) for s in j["smpi_algorithms"]] == \
    [("basic_linear", "ok"), ("bruck", "ok"), ("pair", "ok"), ("ring", "ok")], j["smpi_algorithms"]
'
[ -z "$(ls -A "$TMPDIR")" ] || fail "simulate left files in TMPDIR: $(ls -A "$TMPDIR")"

expect 0 "$bin" simulate "$tmp/hc.json" --link-bw 10Gbps --alpha 1us --sizes 8KB,64KB,1MB --check-max 64KB \
  --smpi-algos basic_linear,bruck,pair,ring --json
check "$tmp/hc.json" '
bw, a = 1.25e9, 1e-6
assert j["steps"] == 3 and j["degree"] == 3 and j["bound_steps"] == 2 and j["bound_tb_factor"] == "3/2", j
k = most_per_arc(p)
slack = sum(16 + 4 * n for n in k.values()) / bw
tau = [int(x) for x in j["tb_factor"].split("/")]
for r in R:
    m = r["size_bytes"]
    assert r["checked"] == (m <= 64000), r
    assert abs(r["model_time_s"] - (3 * a + tau[0] / tau[1] * m / (3 * bw))) <= 1e-15, r
    assert abs(r["bound_time_s"] - (2 * a + 1.5 * m / (3 * bw))) <= 1e-15, r
    assert r["sim_time_s"] <= r["model_time_s"] + slack + 1e-15, (r, slack)
    assert r["sim_time_s"] >= r["bound_time_s"], r
    assert r["smpi_best_algorithm"] in ("basic_linear", "bruck", "pair", "ring"), r
assert all(s["status"] == "ok" for s in j["smpi_algorithms"]), j["smpi_algorithms"]
'
# The table names the collective and SMPI's alltoall algorithms.
expect 0 "$bin" simulate "$tmp/hc.json" --link-bw 10Gbps --alpha 1us --sizes 8KB --smpi-algos bruck
grep -q '^alltoall "sssp" on hypercube(3): 8 ranks in SimGrid SMPI' "$tmp/out" || fail "table header: $(head -3 "$tmp/out")"
grep -qx 'SMPI alltoall algorithms run at every size: bruck' "$tmp/out" || fail "table footer: $(tail -3 "$tmp/out")"
expect_err 2 "--smpi-algos: SMPI has no alltoall algorithm 'rab'" "$bin" simulate "$tmp/hc.json" --link-bw 10Gbps \
  --alpha 1us --sizes 8KB --smpi-algos rab

finish sim_alltoall
