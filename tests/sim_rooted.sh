#!/usr/bin/env bash
# sim_rooted.sh — `topocoll simulate` of paper 002's contention-free multi-port schedules,
# where the α-β model is exact: Kautz-C broadcast on kautz(2,1) = K(2,2) (6 ranks, root 3)
# and the 2dfc dimension-order alltoall on hyperx(3,3) (9 ranks). Both send at most one
# (combined) message per link per step and every rank waits only for the messages of its
# step, so each step takes alpha + bytes/bw on its busiest link — the model's
# steps*alpha + tau*M/B — plus SMPI's 16-byte envelope per message (sim_simulate.sh), one
# per step on the critical path: simulated = model + steps*16/bw exactly (sizes that split
# into whole elements, so no rounding). The closed forms:
#   - Kautz-C broadcast: 2 steps, the root's M over its d = 2 out-links in step 1, every
#     first-level node's M over its links in step 2: model 2 alpha + 2 M/bw (tau 4, B = 2 bw);
#   - DO alltoall on the 3 x 3 2dfc: step 1 along rows, step 2 along columns, each link
#     carrying one combined message of 3 blocks of M/9: model 2 alpha + 2 M/(3 bw) (tau 8/3,
#     B = 4 bw).
# Every result is checked against SMPI's MPI_Bcast / MPI_Alltoall; SMPI's binomial_tree
# broadcast and bruck alltoall run beside. $1 = build dir.
set -u
build=$1
bin=$build/topocoll
. "$(dirname "$0")/lib_cli.sh"
export TMPDIR=$tmp/work # simulate's working directories; nothing may be left in it
mkdir -p "$TMPDIR"
unset TOPOCOLL_SMPI_EXEC TOPOCOLL_SMPIRUN

"$bin" sched 'kautz(2,1)' --coll broadcast --algo kautz-c --root 3 --out "$tmp/kc.json" >/dev/null || fail "sched kautz-c"
"$bin" sched 'hyperx(3,3)' --coll alltoall --algo do --out "$tmp/do.json" >/dev/null || fail "sched do"

# check COLL STEPS TAU DEGREE SMPI_ALGO MODEL_EXPR(m): the JSON in $tmp/out
check() {
  python3 - "$tmp/out" "$@" <<'PY' || fail "$1: $(head -c 2000 "$tmp/out")"
import json, sys
j = json.load(open(sys.argv[1]))
coll, steps, tau, degree, algo, model = sys.argv[2:8]
bw, a = 12.5e9, 1e-6
assert (j["collective"], j["steps"], j["tb_factor"], j["degree"]) == (coll, int(steps), tau, int(degree)), j
R = j["results"]
assert [r["size_bytes"] for r in R] == [36864, 1179648], R
for r in R:
    m = r["size_bytes"]
    assert r["checked"] is True, r
    assert abs(r["model_time_s"] - eval(model)) <= 1e-15, (r, eval(model))
    assert abs(r["sim_time_s"] - (r["model_time_s"] + int(steps) * 16 / bw)) <= 1e-15, r
    assert list(r["smpi_time_s"]) == [algo], r
PY
}

expect 0 "$bin" simulate "$tmp/kc.json" --link-bw 100Gbps --alpha 1us --sizes 36KiB,1152KiB --check-max 2MiB \
  --smpi-algos binomial_tree --json
check broadcast 2 4/1 2 binomial_tree '2 * a + 2 * m / bw'
expect 0 "$bin" simulate "$tmp/do.json" --link-bw 100Gbps --alpha 1us --sizes 36KiB,1152KiB --check-max 2MiB \
  --smpi-algos bruck --json
check alltoall 2 8/3 4 bruck '2 * a + 2 * m / (3 * bw)'
# The table names the root's collective and SMPI's broadcast algorithms.
expect 0 "$bin" simulate "$tmp/kc.json" --link-bw 100Gbps --alpha 1us --sizes 36KiB --smpi-algos flattree
grep -q '^broadcast "kautz-c" on kautz(2,1): 6 ranks in SimGrid SMPI' "$tmp/out" || fail "table header: $(head -3 "$tmp/out")"
grep -qx 'SMPI broadcast algorithms run at every size: flattree' "$tmp/out" || fail "table footer: $(tail -3 "$tmp/out")"
expect_err 2 "--smpi-algos: SMPI has no broadcast algorithm 'bruck'" "$bin" simulate "$tmp/kc.json" --link-bw 100Gbps \
  --alpha 1us --sizes 36KiB --smpi-algos bruck
[ -z "$(ls -A "$TMPDIR")" ] || fail "simulate left files in TMPDIR: $(ls -A "$TMPDIR")"

finish sim_rooted
