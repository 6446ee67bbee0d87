#!/usr/bin/env bash
# cli_plan_a2a.sh — `topocoll plan --a2a-size M`: the all-to-all in the choice, summary.md's
# all-to-all columns and section, alltoall.json (verified again here) and alltoall.routes,
# and every refusal of the all-to-all options.
#
# Values (M = 1 MiB, alpha = 10 us, b = 25 Gbps, d = 4):
#   N = 16: debruijn(4,2) f = 7/53: allreduce 249.7 us + all-to-all (M/N)/(f b) = 158.8 us;
#     circulant(16,3,4) f = 1/8: 217.3 + 167.8 = 385.1 us, chosen. On it tsMCF reaches
#     sum_t U_t = 8 = 1/f in 3 steps: T_B = (d/N)·8 = 2 M/B, 3·10 + 2·83.886 = 197.8 us (1.18x
#     the fluid 167.8); EwSP ties (3 steps, 2) and SSSP needs 4 steps, 17/4. With weight 4 the
#     de Bruijn graph wins (3.6 is the turn: cli_find_a2a.sh).
#   N = 32: line(bipartite(4)) f = 2/35; tsMCF is not tried above 16 nodes; EwSP 3 steps,
#     19/8 M/B = 229.2 us beats SSSP 4 steps, 21/4 = 480.4 us, so its routing is written too.
set -u
bin=$1
. "$(dirname "$0")/lib_cli.sh"

W=(--alpha 10us --link-bw 25Gbps --size 1MiB)
L=(--links simplex) # the unidirectional frontier these numbers are of (duplex is the default)

expect 0 "$bin" help plan
for opt in --a2a-size --a2a-weight --a2a-time-limit alltoall.json alltoall.routes; do
  grep -q -- "$opt" "$tmp/out" || fail "help plan lacks $opt"
done

# ---- N = 16: tsMCF written ----
expect 0 "$bin" plan --nodes 16 --degree 4 "${W[@]}" "${L[@]}" --a2a-size 1MiB --out "$tmp/p16"
[ ! -s "$tmp/err" ] || fail "plan N=16 printed on stderr: $(cat "$tmp/err")"
cat >"$tmp/want" <<EOF
topology     circulant(16,3,4) (Circulant), chosen from 2 Pareto-efficient topologies
allreduce    6 steps, T_B factor 15/8, expected time 217.3 us (verified schedule)
all-to-all   mcf: 3 steps, T_B factor 2/1, time 197.8 us at 1048576 B per node (verified schedule; fluid optimum 167.8 us at the certified f)
cabling      simplex: 64 fibres; duplex cables would choose the same topology
resilience   one failed link of 64: worst 6 steps, T_B factor 5/2, 269.7 us (1.24x); typical 6 steps, T_B factor 5/2, 269.7 us (1.24x) (BFB re-synthesized, verified)
written      $tmp/p16: topology.json topology.dot wiring.csv ranks.csv allgather.json reduce-scatter.json allreduce.json alltoall.json summary.md plan.json
report       $tmp/p16/report.html and topology.svg ('topocoll report' on the directory rebuilds them with your saved results)
EOF
diff "$tmp/want" "$tmp/out" >/dev/null || fail "plan N=16 report: $(diff "$tmp/want" "$tmp/out")"
[ -f "$tmp/p16/alltoall.json" ] || fail "N=16: no alltoall.json"
[ ! -e "$tmp/p16/alltoall.routes" ] || fail "N=16: tsMCF is no routing, yet alltoall.routes was written"
expect 0 "$bin" verify "$tmp/p16/alltoall.json"
grep -q '^collective  *alltoall$' "$tmp/out" || fail "verify alltoall.json: $(cat "$tmp/out")"
grep -q '^T_B factor  *2/1 = 2.000000 M/B' "$tmp/out" || fail "verify alltoall.json T_B: $(cat "$tmp/out")"
# the report's all-to-all column: each member's certified f, as in summary.md (docs/report.md)
r="$tmp/p16/report.html"
grep -q '<figure id="fig-alltoall">' "$r" || fail "N=16 report.html has no all-to-all figure"
grep -q '<td>debruijn(4,2)</td>.*<td>7/53</td></tr>' "$r" || fail "N=16 report.html: de Bruijn's f"
grep -q '<tr class="chosen"><td>circulant(16,3,4)</td>.*<td>1/8</td></tr>' "$r" || fail "N=16 report.html: the choice's f"
s="$tmp/p16/summary.md"
for line in \
  '| all-to-all: bytes each node sends M (per allreduce) | 1 MiB (1) |' \
  '**`circulant(16,3,4)`** (Circulant): the least expected time of the Pareto frontier, 385.1 µs: the allreduce 217.3 µs (predicted; weighted mean over the sizes) plus 1 all-to-all(s) at the certified MCF.' \
  '| `debruijn(4,2)` | 249.7 µs | 249.7 µs | 7/53 = 0.132 | 158.8 µs | 408.5 µs |' \
  '| **`circulant(16,3,4)`** (chosen) | 217.3 µs | 217.3 µs | 1/8 = 0.125 | 167.8 µs | 385.1 µs |' \
  '| theoretical bound | | 2α | 0.938 M/B | 15/16 | 2 | 2/13 = 0.154 | Moore bound T_L* (Def. 10), Thm 4; MCF d/S_min (paper 003 Thm 1) |' \
  '| **tsMCF (`mcf`)**, written | 3α | 2 M/B | 197.8 µs | 1.18× |' \
  '| EwSP (`ewsp`) | 3α | 2 M/B | 197.8 µs | 1.18× |' \
  '| SSSP (`sssp`) | 4α | 17/4 M/B | 396.5 µs | 2.36× |' \
  '`alltoall.json` is the mcf schedule.' \
  '- `alltoall.json`: the all-to-all schedule (each rank'"'"'s send buffer is M)'; do
  grep -qxF -- "$line" "$s" || fail "N=16 summary.md lacks: $line"
done
grep -qF 'dual lengths prove f ≤ 1/8); the fluid all-to-all of 1 MiB per node takes 167.8 µs' "$s" ||
  fail "N=16 summary.md: the certified f"

# the weight turns the choice
expect 0 "$bin" plan --nodes 16 --degree 4 "${W[@]}" "${L[@]}" --a2a-size 1MiB --a2a-weight 4 --out "$tmp/p16w"
head -1 "$tmp/out" | grep -qx 'topology     debruijn(4,2) (DeBruijn), chosen from 2 Pareto-efficient topologies' ||
  fail "weight 4: $(head -1 "$tmp/out")"
grep -qxF '| all-to-all: bytes each node sends M (per allreduce) | 1 MiB (4) |' "$tmp/p16w/summary.md" ||
  fail "weight 4: summary's workload row"

# ---- N = 32: EwSP and its routing written ----
expect 0 "$bin" plan --nodes 32 --degree 4 "${W[@]}" "${L[@]}" --a2a-size 1MiB --out "$tmp/p32"
sed -n 3p "$tmp/out" | grep -qx 'all-to-all   ewsp: 3 steps, T_B factor 19/8, time 229.2 us at 1048576 B per node (verified schedule; fluid optimum 183.5 us at the certified f)' ||
  fail "plan N=32 all-to-all line: $(cat "$tmp/out")"
for line in \
  '| tsMCF (`mcf`) | – | – | not built: not tried on 32 nodes (the plan tries it up to 16) | |' \
  '| **EwSP (`ewsp`)**, written | 3α | 19/8 M/B | 229.2 µs | 1.25× |' \
  '| SSSP (`sssp`) | 4α | 21/4 M/B | 480.4 µs | 2.62× |' \
  '`alltoall.json` is the ewsp schedule; `alltoall.routes` its routing (route file).'; do
  grep -qxF -- "$line" "$tmp/p32/summary.md" || fail "N=32 summary.md lacks: $line"
done
head -4 "$tmp/p32/alltoall.routes" | tr '\n' '|' | grep -qx 'topocoll-routes 1|# spec line(bipartite(4))|nodes 32|algorithm ewsp|' ||
  fail "N=32 alltoall.routes head: $(head -4 "$tmp/p32/alltoall.routes")"
# the route file lowers to the same schedule the plan wrote
expect 0 "$bin" sched "file($tmp/p32/topology.json)" --coll alltoall --routes "$tmp/p32/alltoall.routes"
grep -q '^T_B factor  *19/8 = 2.375000 M/B' "$tmp/out" || fail "N=32 route file T_B: $(cat "$tmp/out")"

# without --a2a-size nothing all-to-all is written or said
expect 0 "$bin" plan --nodes 16 --degree 4 "${W[@]}" "${L[@]}" --out "$tmp/p16n"
[ ! -e "$tmp/p16n/alltoall.json" ] || fail "no --a2a-size, yet alltoall.json"
! grep -q 'MCF' "$tmp/p16n/summary.md" || fail "no --a2a-size, yet an MCF column"

# ---- refusals: one line, exit 2, nothing written ----
expect_err 2 "plan: --a2a: the plan weighs all-to-alls of a size: give --a2a-size M" \
  "$bin" plan --nodes 16 --degree 4 "${W[@]}" --a2a --out "$tmp/r1"
expect_err 2 "plan: --a2a-time-limit needs --a2a-size" \
  "$bin" plan --nodes 16 --degree 4 "${W[@]}" --a2a-time-limit 10s --out "$tmp/r2"
expect_err 2 "plan: --a2a-weight needs --a2a-size" "$bin" plan --nodes 16 --degree 4 "${W[@]}" --a2a-weight 2 --out "$tmp/r3"
expect_err 2 "plan: --a2a-weight must be a positive number, got '-1'" \
  "$bin" plan --nodes 16 --degree 4 "${W[@]}" --a2a-size 1MiB --a2a-weight -1 --out "$tmp/r4"
expect_err 2 "plan: --fabric takes the cluster from the fabric; --a2a-size does not apply to it" \
  "$bin" plan --fabric 'hypercube(3)' "${W[@]}" --a2a-size 1MiB --out "$tmp/r5"
for d in r1 r2 r3 r4 r5; do [ ! -e "$tmp/$d" ] || fail "refused plan wrote $d"; done

finish cli_plan_a2a
