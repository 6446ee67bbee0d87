#!/usr/bin/env bash
# cli_find_a2a.sh — `topocoll find --a2a`: the all-to-all column of paper 000 Tables 4 and 7
# (App. A.5), every value certified (a2a.h), and every refusal of the all-to-all options.
#
# Values, each certified exact (checked flow = dual bound) by `topocoll a2a`:
#   N = 16, d = 4: debruijn(4,2) f = 7/53 (a2a T_B d/(N f) = 53/28), circulant(16,3,4)
#     f = 1/8 (2/1); bound d/S_min = 4/26 = 2/13 (S_min(16,4) = 4 + 2*11), T_B 13/8.
#   N = 32, d = 4 (Table 7's rows): L(K_{4,4}) 2/35 (printed 5.71e-2), DistReg(4,32) 1/19
#     (5.26e-2), bound 4/69 (5.80e-2).
#   Table 7's six bounds 4/69, 4/165, 4/400, 4/912, 4/2107, 4/4667 (N = 32 ... 1024).
# Time at --a2a-size M: (M/N)/(f·b). M = 1 MiB, b = 25 Gbps, N = 16: 65536 B / (7/53 ·
# 3.125e9 B/s) = 158.8 us and 167.8 us; allreduce 249.7 us and 217.3 us, so with weight W
# the de Bruijn graph wins exactly when 249.7 + 158.8 W < 217.3 + 167.8 W fails, i.e. W > 3.6.
set -u
bin=$1
. "$(dirname "$0")/lib_cli.sh"

W=(--alpha 10us --link-bw 25Gbps --size 1MiB)

expect 0 "$bin" help find
for opt in --a2a --a2a-size --a2a-weight --a2a-time-limit; do
  grep -q -- "$opt " "$tmp/out" || fail "help find lacks $opt"
done

# ---- the table at N = 32 (Table 7's first rows) ----
expect 0 "$bin" find --nodes 32 --degree 4 --a2a
grep -q '^  line(bipartite(4)) .* 5.71e-02 (2/35)  *2.188  ' "$tmp/out" || fail "N=32 L(K44) row: $(cat "$tmp/out")"
grep -q '^  drg(ag24-minus) .* 5.26e-02 (1/19)  *2.375  ' "$tmp/out" || fail "N=32 DistReg row: $(cat "$tmp/out")"
grep -q '^  theoretical bound .* 5.80e-02 (4/69)  *2.156  .*MCF d/S_min (paper 003 Thm 1)$' "$tmp/out" ||
  fail "N=32 bound row: $(cat "$tmp/out")"
[ ! -s "$tmp/err" ] || fail "N=32: no progress expected into a pipe: $(cat "$tmp/err")"

# ---- JSON at N = 16 with the workload: exact values, times, the choice ----
expect 0 "$bin" find --nodes 16 --degree 4 "${W[@]}" --a2a-size 1MiB --json
cp "$tmp/out" "$tmp/f16.json"
python3 - "$tmp/f16.json" <<'PY' || fail "find --json --a2a-size at N=16: $(head -c 3000 "$tmp/f16.json")"
import json, sys
j = json.load(open(sys.argv[1]))
m = j["frontier"]
assert [x["spec"] for x in m] == ["debruijn(4,2)", "circulant(16,3,4)"], m
want = [("7/53", "53/28", 7 / 53), ("1/8", "2/1", 1 / 8)]
for x, (f, tb, fv) in zip(m, want):
    assert x["mcf"] == f and x["mcf_exact"] is True and x["mcf_lower"] == f and x["mcf_upper"] == f, x
    assert x["mcf_gap"] == 0 and x["mcf_stopped_by_time_limit"] is False, x
    assert x["alltoall_tb_factor"] == tb, x
    t = (2**20 / 16) / (fv * 25e9 / 8)
    assert abs(x["alltoall_time_s"] - t) <= 1e-15, (x["alltoall_time_s"], t)
    assert abs(x["workload_time_s"] - (x["time_s"] + t)) <= 1e-15, x
b = j["bound"]
assert b["mcf"] == "2/13" and b["alltoall_tb_factor"] == "13/8", b
assert abs(b["alltoall_time_s"] - (2**20 / 16) / (2 / 13 * 25e9 / 8)) <= 1e-15, b
assert j["workload"]["a2a_bytes"] == 2**20 and j["workload"]["a2a_weight"] == 1, j["workload"]
assert j["choice"] == 1, j["choice"]
PY

# the table's time columns and the choice line
expect 0 "$bin" find --nodes 16 --degree 4 "${W[@]}" --a2a-size 1MiB
grep -q '^  debruijn(4,2) .*249.7 us  1.32e-01 (7/53)  *1.893  *158.8 us  BFB' "$tmp/out" ||
  fail "N=16 de Bruijn row: $(cat "$tmp/out")"
grep -q '^\* circulant(16,3,4) .*217.3 us  1.25e-01 (1/8)  *2.000  *167.8 us  Thm 22' "$tmp/out" ||
  fail "N=16 circulant row: $(cat "$tmp/out")"
grep -q '^  theoretical bound .*197.3 us  1.54e-01 (2/13)  *1.625  *136.3 us  ' "$tmp/out" ||
  fail "N=16 bound row: $(cat "$tmp/out")"
grep -qx '\* least predicted allreduce time 2(T_L + T_B) + 1 x all-to-all time for the workload: circulant(16,3,4)' \
  "$tmp/out" || fail "N=16 choice line: $(tail -1 "$tmp/out")"

# the weight: 3.6 all-to-alls per allreduce is where the choice turns
expect 0 "$bin" find --nodes 16 --degree 4 "${W[@]}" --a2a-size 1MiB --a2a-weight 3.5 --json
python3 -c 'import json,sys; assert json.load(open(sys.argv[1]))["choice"] == 1' "$tmp/out" || fail "weight 3.5"
expect 0 "$bin" find --nodes 16 --degree 4 "${W[@]}" --a2a-size 1MiB --a2a-weight 3.7 --json
python3 -c 'import json,sys; assert json.load(open(sys.argv[1]))["choice"] == 0' "$tmp/out" || fail "weight 3.7"

# without --a2a the members carry no all-to-all fields; the bound's are analytic, always there
expect 0 "$bin" find --nodes 16 --degree 4 --json
python3 - "$tmp/out" <<'PY' || fail "find --json without --a2a: $(cat "$tmp/out")"
import json, sys
j = json.load(open(sys.argv[1]))
assert all("mcf" not in x and "alltoall_tb_factor" not in x for x in j["frontier"]), j["frontier"]
assert j["bound"]["mcf"] == "2/13" and "alltoall_time_s" not in j["bound"], j["bound"]
PY

# ---- Table 7's bound row, N = 32 ... 1024: d / S_min(N, 4) ----
for pair in 32:4/69 64:4/165 128:1/100 256:1/228 512:4/2107 1024:4/4667; do
  n=${pair%%:*} want=${pair#*:}
  expect 0 "$bin" find --nodes "$n" --degree 4 --json
  got=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["bound"]["mcf"])' "$tmp/out")
  [ "$got" = "$want" ] || fail "bound mcf at N=$n: $got, want $want"
done

# ---- progress on stderr with --progress: the members certified, the first and the last ----
expect 0 "$bin" find --nodes 128 --degree 4 --a2a --progress
grep -q '^  circulant(128,8,9) .* 5.88e-03 (15/2552) ' "$tmp/out" || fail "N=128 circulant row: $(cat "$tmp/out")"
grep -qx 'topocoll find: \[[0-9.]* s\] all-to-all MCF: certifying line(bipartite(4),2) (128 nodes) (0/3)' "$tmp/err" ||
  fail "N=128 progress start: $(cat "$tmp/err")"
tail -n 1 "$tmp/err" | grep -qx 'topocoll find: \[[0-9.]* s\] all-to-all MCF: circulant(128,8,9): f = 0.00587774, gap 0 (3/3)' ||
  fail "N=128 progress end: $(cat "$tmp/err")"

# ---- refusals: one line, exit 2 ----
expect_err 2 "find: --a2a-size weighs all-to-alls against the allreduce workload: give --alpha, --link-bw and --size too" \
  "$bin" find --nodes 16 --degree 4 --a2a-size 1MiB
expect_err 2 "find: --a2a-weight needs --a2a-size" "$bin" find --nodes 16 --degree 4 "${W[@]}" --a2a-weight 2
expect_err 2 "find: --a2a-weight must be a positive number, got 'x'" \
  "$bin" find --nodes 16 --degree 4 "${W[@]}" --a2a-size 1MiB --a2a-weight x
expect_err 2 "find: --a2a-weight must be a positive number, got '0'" \
  "$bin" find --nodes 16 --degree 4 "${W[@]}" --a2a-size 1MiB --a2a-weight 0
expect_err 2 "find: --a2a-size: size \"0\" must be positive" "$bin" find --nodes 16 --degree 4 "${W[@]}" --a2a-size 0
expect_err 2 "find: --a2a-time-limit must be positive, got '0'" "$bin" find --nodes 16 --degree 4 --a2a-time-limit 0
expect_err 2 "find: --sweep chooses by predicted allreduce time; the all-to-all options do not apply" \
  "$bin" find --sweep 8..9 --degree 4 "${W[@]}" --a2a
expect_err 2 "find: --a2a-size" "$bin" find --nodes 16 --degree 4 "${W[@]}" --a2a-size 1XB

finish cli_find_a2a
