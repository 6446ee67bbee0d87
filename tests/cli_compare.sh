#!/usr/bin/env bash
# cli_compare.sh — `plan --compare` and `find --compare` (issue #14 §4): the user's
# alternatives beside the choice at the user's sizes, each on its own topology with its own
# fastest verified allreduce, and `find --json`'s per-size times for every member.
# The numbers, at N = 64, d = 4, α = 10 µs, b = 25 Gbit/s (B = 12.5 GB/s: 1 MB is 80 µs of
# M/B), sizes 1 MB and 64 MB (5.12 ms of M/B), weights 1:1:
#   torus(8,8): BFB, diameter 8, BW-optimal: 16α + 2·63/64 M/B = 317.5 µs | 10.240 ms
#   biring: the bidirectional ring on biring(4,64): 126α + 63/32 M/B = 1.418 ms | 11.340 ms
#   dbt: the double binary tree (K = 6), T_L = 2(K+P-1)α, T_B = 4(K+P-1)/P M/B: P = 8 at
#        1 MB (260 + 520 µs = 780.0 µs), P = 64 at 64 MB (1.38 ms + 22.08 ms = 23.460 ms)
#   the duplex plan's choice circulant(64,6,7): 12α + 63/32 M/B = 277.5 µs | 10.200 ms
bin=${1:?usage: cli_compare.sh TOPOCOLL}
. "$(dirname "$0")/lib_cli.sh"

C=(--nodes 64 --degree 4 --alpha 10us --link-bw 25Gbps --size 1MB,64MB)

# ---- plan ----
expect 0 "$bin" plan "${C[@]}" --compare 'torus(8,8)',biring,dbt --out "$tmp/p"
for line in \
  'compare      torus(8,8): expected allreduce time 5.279 ms, 1.01x the choice'"'"'s (verified schedules)' \
  'compare      biring on biring(4,64): expected allreduce time 6.379 ms, 1.22x the choice'"'"'s (verified schedules)' \
  'compare      dbt on its own topology (two trees): expected allreduce time 12.120 ms, 2.31x the choice'"'"'s (verified schedules)'; do
  grep -qxF -- "$line" "$tmp/out" || fail "plan --compare report lacks: $line; got $(cat "$tmp/out")"
done
for line in \
  '| size | `circulant(64,6,7)` | `torus(8,8)` | `biring` | `dbt` |' \
  '| 1 MB | 277.5 µs | 317.5 µs (bfb, 1.14×) | 1.418 ms (biring, 5.11×) | 780.0 µs (dbt, P = 8, 2.81×) |' \
  '| 64 MB | 10.200 ms | 10.240 ms (bfb, 1.00×) | 11.340 ms (biring, 1.11×) | 23.460 ms (dbt, P = 64, 2.30×) |' \
  '| expected | 5.239 ms | 5.279 ms (1.01×) | 6.379 ms (1.22×) | 12.120 ms (2.31×) |' \
  'Topologies: `torus(8,8)` on `torus(8,8)`; `biring` on `biring(4,64)`; `dbt` on `its own topology (two trees)`.'; do
  grep -qxF -- "$line" "$tmp/p/summary.md" || fail "summary.md lacks: $line"
done

# ---- find: the table's lines and the JSON ----
expect 0 "$bin" find "${C[@]}" --compare 'torus(8,8)',dbt
for line in \
  '  torus(8,8): 5.279 ms; 1 MB 317.5 us (bfb), 64 MB 10.240 ms (bfb)' \
  '  dbt on its own topology (two trees): 12.120 ms; 1 MB 780.0 us (dbt, P = 8), 64 MB 23.460 ms (dbt, P = 64)'; do
  grep -qxF -- "$line" "$tmp/out" || fail "find --compare lacks: $line; got $(tail -4 "$tmp/out")"
done
expect 0 "$bin" find "${C[@]}" --compare 'torus(8,8)',dbt --json
python3 - "$tmp/out" <<'PY' || fail "find --compare --json: $(head -c 800 "$tmp/out")"
import json, sys
j = json.load(open(sys.argv[1]))
close = lambda a, b: abs(a - b) <= 1e-9 * b
t, d = j["compare"]
assert (t["item"], t["topology"], t["algorithm_per_size"], t["chunks_per_size"]) == ("torus(8,8)", "torus(8,8)", ["bfb", "bfb"], [1, 1]), t
assert close(t["time_s_per_size"][0], 317.5e-6) and close(t["time_s_per_size"][1], 10.24e-3), t
assert close(t["time_s"], (317.5e-6 + 10.24e-3) / 2), t
assert (d["algorithm_per_size"], d["chunks_per_size"]) == (["dbt", "dbt"], [8, 64]), d
assert close(d["time_s_per_size"][0], 780e-6) and close(d["time_s_per_size"][1], 23.46e-3), d
# every member's predicted allreduce time per size: 2(T_L α + tau M/B)
for m in j["frontier"]:
    n, q = map(int, m["tb_factor"].split("/"))
    want = [2 * (m["steps"] * 10e-6 + n / q * s / 12.5e9) for s in (1e6, 64e6)]
    assert all(close(a, b) for a, b in zip(m["time_s_per_size"], want)), (m["spec"], m["time_s_per_size"], want)
    assert close(m["time_s"], sum(want) / 2), m
c = [m for m in j["frontier"] if m["spec"] == "circulant(64,6,7)"][0]
assert close(c["time_s_per_size"][0], 277.5e-6) and close(c["time_s_per_size"][1], 10.2e-3), c
PY

# ---- refusals: one line, exit 2, nothing written ----
expect_err 2 "topocoll plan: --compare torus(4,4): torus(4,4) has 16 nodes; the cluster has 64" \
  "$bin" plan "${C[@]}" --compare 'torus(4,4)' --out "$tmp/bad"
expect_err 2 "topocoll plan: --compare hypercube(6): hypercube(6) needs 6 ports on some node; the cluster has 4" \
  "$bin" plan "${C[@]}" --compare 'hypercube(6)' --out "$tmp/bad"
expect_err 2 "topocoll plan: --compare ring: ring has no topology of its own for 64 nodes of 4 duplex ports; name a topology instead" \
  "$bin" plan "${C[@]}" --compare ring --out "$tmp/bad"
expect_err 2 "topocoll plan: --compare nosuch: " "$bin" plan "${C[@]}" --compare nosuch --out "$tmp/bad"
expect_err 2 "topocoll plan: --compare: an empty or too long item in 'torus(8,8),,dbt'" \
  "$bin" plan "${C[@]}" --compare 'torus(8,8),,dbt' --out "$tmp/bad"
expect_err 2 "topocoll plan: --fabric takes the cluster from the fabric; --compare does not apply to it" \
  "$bin" plan --fabric 'hypercube(3)' --alpha 10us --link-bw 1GBps --size 1MB --compare dbt --out "$tmp/bad"
[ ! -e "$tmp/bad" ] || fail "a refused plan created its directory"
expect_err 2 "topocoll find: --compare compares times at your sizes: give --alpha, --link-bw and --size" \
  "$bin" find --nodes 64 --degree 4 --compare dbt
expect_err 2 "topocoll find: --sweep prints CSV; --compare does not apply" \
  "$bin" find --sweep 8..9 --degree 4 --alpha 10us --link-bw 25Gbps --size 1MB --compare dbt

finish cli_compare
