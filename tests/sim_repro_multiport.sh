#!/usr/bin/env bash
# sim_repro_multiport.sh — bench/repro_multiport.sh --quick on its smallest 2dfc setup, 4x4
# (hyperx(4,4), 100 Gbps, alpha = 1 us, b = 1 KiB and 64 KiB). $1 = build dir.
#
# Where the numbers come from:
#   - the α-β column is Table 4.2 (paper 002) with the construction's MULTITREE and the
#     derived allgather rows of docs/multiport.md, for m = 4, b the block, beta = 1/12.5e9:
#       alltoall   DO 2α + 8bβ,  MD 2α + 4bβ,    MULTITREE 3α + 5bβ
#       allgather  DO 2α + 5bβ,  MD 2α + 2.5bβ,  MULTITREE 3α + 3bβ
#       allreduce (M = b, block b/16) DO 4α + 10(b/16)β, MD = DO-RS + MD-AG 4α + 7.5(b/16)β
#   - the simulated column is that plus one 16-byte SMPI envelope per step on the busiest
#     arc (sim_simulate.sh's rule; every arc of these schedules moves in lockstep);
#   - the headline rows say which setup and size they were taken at, and the claims whose
#     setups are not in the run say so instead of a number.
set -u
build=$1
root=$(cd "$(dirname "$0")/.." && pwd)
. "$(dirname "$0")/lib_cli.sh"
export TMPDIR=$tmp/work # the script's and simulate's scratch; nothing may be left in it
mkdir -p "$TMPDIR"
unset TOPOCOLL_SMPI_EXEC TOPOCOLL_SMPIRUN

bash "$root/bench/repro_multiport.sh" --quick --setups 2dfc4 --build "$build" --keep "$tmp/json" \
  >"$tmp/table" 2>"$tmp/log" || fail "repro_multiport.sh --quick failed: $(cat "$tmp/log")"

# us with 4 decimals, as the table prints times below 1 ms
us() { awk -v t="$1" 'BEGIN { printf "%.4f us", t }'; }
# row COLL ALGO STEPS COEF B: the run's row, model = STEPS + COEF*B/12500 us (B bytes)
row() {
  local coll=$1 algo=$2 steps=$3 coef=$4 b=$5 label=$6
  local model sim
  model=$(us "$(awk -v s="$steps" -v c="$coef" -v b="$b" 'BEGIN { printf "%.10f", s + c * b / 12500 }')")
  sim=$(us "$(awk -v s="$steps" -v c="$coef" -v b="$b" 'BEGIN { printf "%.10f", s + c * b / 12500 + s * 16 / 12500 }')")
  local want="| 2dfc4 | \`hyperx(4,4)\` | $coll | $algo | 100Gbps | $label | $sim | $model |"
  grep -qxF -- "$want" "$tmp/table" || fail "no row '$want' in: $(grep -F "| $coll | $algo |" "$tmp/table")"
}
for size in "1024 1 KiB" "65536 64 KiB"; do
  set -- $size
  b=$1 label="$2 $3"
  row alltoall do 2 8 "$b" "$label"
  row alltoall md 2 4 "$b" "$label"
  row alltoall multitree 3 5 "$b" "$label"
  row allgather do 2 5 "$b" "$label"
  row allgather md 2 2.5 "$b" "$label"
  row allgather multitree 3 3 "$b" "$label"
  row allreduce do 4 0.625 "$b" "$label"   # 10/16
  row allreduce md 4 0.46875 "$b" "$label" # 7.5/16
done

# SMPI's algorithms ran beside DO, once per collective, with no model value
for r in "alltoall smpi:bruck" "alltoall smpi:pair" "allgather smpi:bruck" "allgather smpi:pair" \
         "allgather smpi:ring" "allreduce smpi:lr" "allreduce smpi:rdb"; do
  set -- $r
  [ "$(grep -c "| 2dfc4 | \`hyperx(4,4)\` | $1 | $2 | 100Gbps | .* | - |\$" "$tmp/table")" -eq 2 ] ||
    fail "SMPI $2 for $1: expected 2 rows without a model value"
done

# headline rows: the model ratio of DO over MD allgather at 64 KiB is (2 + 5*5.24288) /
# (2 + 2.5*5.24288) = 28.2144 / 15.1072 = 1.87 (simulated: 28.21824 / 15.11104 = 1.87)
grep -qxF '| F7 | allgather DO / MD, 4x4, max over b | 1.5 | 2dfc4, b in 1 KiB..64 KiB | 1.87 at 64 KiB | 1.87 at 64 KiB |' \
  "$tmp/table" || fail "F7 4x4 row: $(grep '^| F7 ' "$tmp/table")"
# F1 at 32 MB is not in a quick run: the nearest size is taken and starred; the model's
# DO/MD allreduce at 64 KiB is 7.2768 / 6.4576 = 1.13
grep -qxF '| F1 | allreduce DO / MD, 4x4, 32 MB | 1.38 | 2dfc4, b = 64 KiB* | 1.13 | 1.13 |' "$tmp/table" ||
  fail "F1 row: $(grep '^| F1 ' "$tmp/table")"
grep -qxF '| F13 | alltoall MD / DO, 8x8, 16 MB | 0.70 / 0.89 / 0.95 | - | not in this run (setup sweep8) | - |' \
  "$tmp/table" || fail "F13 row: $(grep '^| F13 ' "$tmp/table")"
grep -qxF '| K1 | alltoall DF-C / Kautz-M, 272 nodes, 64 MB | up to 11 | - | not in this run (setup kautz16) | - |' \
  "$tmp/table" || fail "K1 row: $(grep '^| K1 ' "$tmp/table")"
[ "$(grep -c '^| [KF][0-9]* |' "$tmp/table")" -eq 44 ] || fail "expected 44 headline rows, got $(grep -c '^| [KF][0-9]* |' "$tmp/table")"
grep -qxF '| K10 | multi-path P2P / single path, 2-500 MB, K(16,2) | 6.1-10.3 | - | not in this run (p2p kautz-mp/kautz-sp on kautz16) | - |' \
  "$tmp/table" || fail "K10 row without p2p runs: $(grep '^| K10 ' "$tmp/table")"

# K7 and K10 on K(2,2) (--colls: scatter and p2p alone), alpha = 1 us, 12.5 GB/s per Kautz link:
#   scatter (M = 6b): Kautz-C = Kautz-M = 2α + 4bβ (Table 3.2: (d+2)M/(d(d+1)) = 4b), FC on
#   complete(6) at 12.5·2/5 = 5 GB/s per link α + b/5 GB/s; 2 steps resp. 1 of 16 bytes more
#   simulated; large-b ratio 1.6, at 64 KiB 22.97152 / 14.1072 = 1.63
#   p2p from node 0 (M = 1 MiB and 4 MiB): type 1 (node 1, 2 hops) multi-path 3(α + (M/2)β)
#   against single path 2(α + Mβ); type 2 (node 2) 3(α + (M/2)β) against α + Mβ; type 3
#   (node 3: on K(2,2) only the arc itself, §3.3.1's 4-hop detour being refused) α + Mβ both
bash "$root/bench/repro_multiport.sh" --quick --setups kautz2 --colls scatter,p2p --build "$build" \
  --keep "$tmp/kautz" >"$tmp/ktable" 2>"$tmp/klog" || fail "repro_multiport.sh --colls scatter,p2p failed: $(cat "$tmp/klog")"
# krow SPEC COLL ALGO BW STEPS COEF B LABEL: model STEPS + COEF*B/BW us, simulated + STEPS*16/BW
krow() {
  local model sim want
  model=$(us "$(awk -v s="$5" -v c="$6" -v b="$7" -v w="$4" 'BEGIN { printf "%.10f", s + c * b / w }')")
  sim=$(us "$(awk -v s="$5" -v c="$6" -v b="$7" -v w="$4" 'BEGIN { printf "%.10f", s + c * b / w + s * 16 / w }')")
  want="| kautz2 | \`$1\` | $2 | $3 | $([ "$4" = 5000 ] && echo 5.000000000GBps || echo 12.5GBps) | $8 | $sim | $model |"
  grep -qxF -- "$want" "$tmp/ktable" || fail "no row '$want' in: $(grep -F "| $2 | $3 |" "$tmp/ktable")"
}
for size in "1024 1 KiB" "65536 64 KiB"; do
  set -- $size
  krow 'kautz(2,1)' scatter kautz-c 12500 2 4 "$1" "$2 $3"
  krow 'kautz(2,1)' scatter kautz-m 12500 2 4 "$1" "$2 $3"
  krow 'complete(6)' scatter fc-direct 5000 1 1 "$1" "$2 $3"
done
for size in "1048576 1 MiB" "4194304 4 MiB"; do
  set -- $size
  krow 'kautz(2,1)' p2p kautz-mp-t1 12500 3 1.5 "$1" "$2 $3"
  krow 'kautz(2,1)' p2p kautz-sp-t1 12500 2 2 "$1" "$2 $3"
  krow 'kautz(2,1)' p2p kautz-mp-t2 12500 3 1.5 "$1" "$2 $3"
  krow 'kautz(2,1)' p2p kautz-sp-t2 12500 1 1 "$1" "$2 $3"
  krow 'kautz(2,1)' p2p kautz-mp-t3 12500 1 1 "$1" "$2 $3"
  krow 'kautz(2,1)' p2p kautz-sp-t3 12500 1 1 "$1" "$2 $3"
done
grep -qxF '| K7 | scatter Kautz-C / FC at equal per-node bandwidth, large M (numerical) | ~1 | kautz2, b = 64 KiB* | 1.63 | 1.63 |' \
  "$tmp/ktable" || fail "K7 row: $(grep '^| K7 ' "$tmp/ktable")"
# K10 weighs the types 3 : 1 : 1 (d^2 - 1, 1, d - 1 destinations): at 1 MiB single path
# 3·169.7722 + 2·84.8861 = 679.0888 us against multi-path 4·128.8291 + 84.8861 = 600.2025 us,
# 1.13; at 4 MiB 2692.3544 / 2361.8103 = 1.14
grep -qxF '| K10 | multi-path P2P / single path, 2-500 MB, K(16,2) | 6.1-10.3 | kautz2, M in 1 MiB..4 MiB* | 1.13-1.14 | 1.13-1.14 |' \
  "$tmp/ktable" || fail "K10 row: $(grep '^| K10 ' "$tmp/ktable")"

# bad input: one line, exit 2, before anything runs
expect_err 2 "--sizes: bad size '3KB'" bash "$root/bench/repro_multiport.sh" --sizes 3KB --build "$build"
expect_err 2 "unknown setup 'torus4'" bash "$root/bench/repro_multiport.sh" --setups torus4 --build "$build"
expect_err 2 "setup 'kautz1': the size must be 2..64" bash "$root/bench/repro_multiport.sh" --setups 2dfc4,kautz1 \
  --build "$build"
expect_err 2 "--timeout: '1h' is not a whole number of seconds" bash "$root/bench/repro_multiport.sh" --timeout 1h
expect_err 2 "--colls: unknown collective 'bcast' (allgather, alltoall, allreduce, scatter, p2p)" \
  bash "$root/bench/repro_multiport.sh" --colls scatter,bcast --build "$build"
[ -z "$(ls -A "$TMPDIR")" ] || fail "left behind in TMPDIR: $(ls -A "$TMPDIR")"
finish sim_repro_multiport
