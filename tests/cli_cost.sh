#!/usr/bin/env bash
# cli_cost.sh — `topocoll cost` (paper 002 §4.4): the Fig. 4.19 table at 100000 endpoints
# (per endpoint relative to 2dfc25: 2dfc50 1.600, 2dfc100 2.807, Dragonfly 2.059, Slim Fly
# 1.493, 3D torus 8.690, 5D torus 10.111, each with its rack count), the Fig. 4.16 table at 1000 routers, one 2dfc's price by
# part, and every refusal's one line with exit 2.
set -u
bin=$1
. "$(dirname "$0")/lib_cli.sh"

expect 0 "$bin" cost
grep -q '^2dfc50 .* 2dfc 47x47, T=47 .* 103823 .* 1\.600$' "$tmp/out" || fail "cost: 2dfc50 row: $(cat "$tmp/out")"
grep -q '^2dfc100 .* 2dfc 60x60, T=30 .* 108000 .* 2\.807$' "$tmp/out" || fail "cost: 2dfc100 row"
grep -q '^2dfc25 .* 1419\.32 .* 1\.000$' "$tmp/out" || fail "cost: 2dfc25 row"
grep -q '^slimfly .* slimfly q=41 .* 104222 .* 41 .* 2119\.07 .* 1\.493$' "$tmp/out" || fail "cost: slimfly row"
grep -q '^dragonfly .* g=339) .* 114582 .* 339 .* 2922\.86 .* 2\.059$' "$tmp/out" || fail "cost: dragonfly row"
grep -q '^torus3d .* torus 47^3, p=1 .* 2209 .* 12333\.67 .* 8\.690$' "$tmp/out" || fail "cost: torus3d row"
grep -q '^torus5d .* torus 10^5, p=1 .* 10000 .* 1435005000\.00 .* 14350\.05 .* 10\.111$' "$tmp/out" || fail "cost: torus5d row"

expect 0 "$bin" cost --routers 1000
grep -q '^2dfc25 .* 1024 .* 65536 ' "$tmp/out" || fail "cost --routers: 2dfc25 row: $(cat "$tmp/out")"
grep -q '^slimfly .* slimfly q=23 .* 1058 .* 19044 ' "$tmp/out" || fail "cost --routers: slimfly row"
grep -q '^torus3d .* 1000 .* 1000 ' "$tmp/out" || fail "cost --routers: torus3d row"

expect 0 "$bin" cost --2dfc 3,2,2
grep -qx 'endpoints         12' "$tmp/out" || fail "cost --2dfc endpoints: $(cat "$tmp/out")"
grep -qx 'electrical cables 1610.04 USD (Eq. 4.13)' "$tmp/out" || fail "cost --2dfc electrical"
grep -qx 'bisection         0.500 (B_B = min(m1,m2)/(2T))' "$tmp/out" || fail "cost --2dfc bisection"

expect 0 "$bin" help cost
grep -q -- '--2dfc M2,M1,T' "$tmp/out" || fail "help cost lacks --2dfc"

expect_err 2 "topocoll cost: --endpoints expects an integer in 1..4611686018427387904, got '0'" "$bin" cost --endpoints 0
expect_err 2 "topocoll cost: --endpoints, --routers and --2dfc are exclusive (give one)" "$bin" cost --routers 5 --endpoints 9
expect_err 2 "topocoll cost: --2dfc expects M2,M1,T (three integers), got '3,2'" "$bin" cost --2dfc 3,2
expect_err 2 "topocoll cost: --2dfc T expects an integer in 1..4611686018427387904, got 'x'" "$bin" cost --2dfc 3,2,x
expect_err 2 "topocoll cost: 2dfc: more than 2^62 endpoints" "$bin" cost --2dfc 2147483648,2147483648,2
expect_err 2 "topocoll cost: unexpected argument 'hyperx(4,4)'" "$bin" cost 'hyperx(4,4)'

finish cli_cost
