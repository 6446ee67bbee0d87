#!/usr/bin/env bash
# cli_plan_links.sh — `topocoll plan --links duplex|simplex` (issue #14 §3): duplex cables by
# default (only topologies whose links pair up; wiring.csv has no simplex row), simplex
# fibres on request (one row per arc), and the report and summary.md saying what the other
# cabling would gain. The numbers: at N = 64, d = 4, α = 10 µs, 25 Gbit/s links, 1 MB, the
# duplex choice is circulant(64,6,7) (Thm 22: allreduce 2·6 steps, 2·63/64 M/B = 277.5 µs)
# and the simplex one line(circulant(16,3,4)) (2·4 steps, 2·1 M/B = 240.0 µs): 240/277.5 is
# 13.5 % less, 277.5/240 15.6 % more.
bin=${1:?usage: cli_plan_links.sh TOPOCOLL}
. "$(dirname "$0")/lib_cli.sh"

C=(--nodes 64 --degree 4 --alpha 10us --link-bw 25Gbps --size 1MB)

# ---- the default: duplex ----
expect 0 "$bin" plan "${C[@]}" --out "$tmp/dup"
cp "$tmp/out" "$tmp/dup.out"
grep -qx 'topology     circulant(64,6,7) (Circulant), chosen from 1 Pareto-efficient topologies' "$tmp/dup.out" ||
  fail "duplex plan chose: $(head -1 "$tmp/dup.out")"
grep -qx 'cabling      duplex: 128 cables; simplex fibres would choose line(circulant(16,3,4)): expected allreduce time 13.5 % less (predicted)' \
  "$tmp/dup.out" || fail "duplex cabling line: $(grep cabling "$tmp/dup.out")"
python3 - "$tmp/dup/wiring.csv" <<'PY' || fail "duplex wiring.csv is not 128 duplex cables on ports 0..3 of every node"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert len(rows) == 128, len(rows)
assert {r["kind"] for r in rows} == {"duplex"}, {r["kind"] for r in rows}   # no simplex row
used = sorted((int(r[e + "_node"]), int(r[e + "_port"])) for r in rows for e in ("from", "to"))
assert used == [(u, p) for u in range(64) for p in range(4)], used[:8]
PY
grep -qxF '**Duplex cables**: every link is a pair of opposite arcs on one port of each end, one cable: 128 cables (`wiring.csv`, kind `duplex`). Simplex fibres (`--links simplex`) would choose `line(circulant(16,3,4))` (L): expected allreduce time 240.0 µs against 277.5 µs for this plan'"'"'s choice, 13.5 % less (the finder'"'"'s predictions for both; all-to-alls not included).' \
  "$tmp/dup/summary.md" || fail "duplex summary.md cabling: $(grep -A2 '## Cabling' "$tmp/dup/summary.md")"
grep -qxF '| ports per node d | 4 (duplex links: bidirectional topologies only) |' "$tmp/dup/summary.md" ||
  fail "duplex summary.md cluster row: $(grep 'ports per node' "$tmp/dup/summary.md")"

# --links duplex and --bidirectional are the default spelled out
for opt in "--links duplex" --bidirectional; do
  # shellcheck disable=SC2086
  expect 0 "$bin" plan "${C[@]}" $opt --out "$tmp/same"
  cmp -s "$tmp/out" <(sed "s|$tmp/dup|$tmp/same|" "$tmp/dup.out") || fail "plan $opt differs from the default: $(cat "$tmp/out")"
  cmp -s "$tmp/same/wiring.csv" "$tmp/dup/wiring.csv" || fail "plan $opt wrote another wiring.csv"
  rm -rf "$tmp/same"
done

# ---- simplex fibres ----
expect 0 "$bin" plan "${C[@]}" --links simplex --out "$tmp/sim"
grep -qx 'topology     line(circulant(16,3,4)) (L), chosen from 3 Pareto-efficient topologies' "$tmp/out" ||
  fail "simplex plan chose: $(head -1 "$tmp/out")"
grep -qx 'cabling      simplex: 256 fibres; duplex cables would choose circulant(64,6,7): expected allreduce time 15.6 % more (predicted)' \
  "$tmp/out" || fail "simplex cabling line: $(grep cabling "$tmp/out")"
python3 - "$tmp/sim/wiring.csv" <<'PY' || fail "simplex wiring.csv is not 256 simplex fibres"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert len(rows) == 256 and {r["kind"] for r in rows} == {"simplex"}, (len(rows), {r["kind"] for r in rows})
tx = sorted((int(r["from_node"]), int(r["from_port"])) for r in rows)
rx = sorted((int(r["to_node"]), int(r["to_port"])) for r in rows)
assert tx == rx == [(u, p) for u in range(64) for p in range(4)]
PY

# where duplex is impossible: odd N and odd d (the simplex plan says so; the exhaustive
# circulant search's dcirculant(7,1,2,3) meets both bounds)
expect_err 2 "topocoll plan: duplex links pair up ports, so N*d must be even (N = 7, d = 3); simplex fibres can cable it (--links simplex)" \
  "$bin" plan --nodes 7 --degree 3 --alpha 10us --link-bw 25Gbps --size 1MB --out "$tmp/odd"
[ ! -e "$tmp/odd" ] || fail "a refused plan created its directory"
expect 0 "$bin" plan --nodes 7 --degree 3 --alpha 10us --link-bw 25Gbps --size 1MB --links simplex --out "$tmp/odd"
grep -qx 'topology     dcirculant(7,1,2,3) (DCirculant), chosen from 1 Pareto-efficient topologies' "$tmp/out" ||
  fail "N = 7 simplex plan chose: $(head -1 "$tmp/out")"
grep -qx 'cabling      simplex: 21 fibres; duplex links are not possible here' "$tmp/out" ||
  fail "N = 7 cabling line: $(grep cabling "$tmp/out")"
grep -qF 'Duplex cables (`--links duplex`): not possible here (find: no bidirectional topology has 7 nodes of odd degree 3' \
  "$tmp/odd/summary.md" || fail "N = 7 summary.md cabling: $(grep -A2 '## Cabling' "$tmp/odd/summary.md")"

# ---- refusals: one line, exit 2, nothing written ----
expect_err 2 "topocoll plan: --links expects duplex or simplex, got 'both'" "$bin" plan "${C[@]}" --links both --out "$tmp/bad"
expect_err 2 "topocoll plan: --bidirectional is --links duplex; it contradicts --links simplex" \
  "$bin" plan "${C[@]}" --links simplex --bidirectional --out "$tmp/bad"
expect_err 2 "topocoll plan: --fabric takes the cluster from the fabric; --links does not apply to it" \
  "$bin" plan --fabric 'hypercube(3)' --alpha 10us --link-bw 1GBps --size 1MB --links simplex --out "$tmp/bad"
[ ! -e "$tmp/bad" ] || fail "a refused plan created its directory"

finish cli_plan_links
