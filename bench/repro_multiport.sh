#!/usr/bin/env bash
# repro_multiport.sh — paper 002's SimGrid experiments (its §3.2.2 and §4.3; digest-002 §7),
# re-run with `topocoll sched` + `topocoll simulate`, and its headline numbers (digest §8:
# K1–K11, F1–F15) printed beside our simulated value and the α-β model's value
# (repro_multiport_table.py). Nothing is tuned to the dissertation's numbers; where they
# differ, docs/reproduction.md (paper 002) says why.
#
# Setups (--setups, a comma list; the sizes are the dissertation's per-destination block b):
#   kautzD   K(D,2) = kautz(D,1) at 12.5 GB/s per link against the (D+1) x D 2dfc-like
#            Dragonfly hyperx(D+1,D) (degree 2D-1) at the same per-node bandwidth,
#            12.5 D/(2D-1) GB/s per link (Table 3.3: D = 16, 272 nodes, 6.45 GB/s);
#            allgather, alltoall, allreduce by kautz-c and kautz-m, and DF-C read as `do`
#            on the Dragonfly (docs/reproduction.md says why). No SMPI algorithms.
#            K7: scatter from node 0 by kautz-c and kautz-m against FC, fc-direct on
#            complete(D(D+1)) at the same per-node bandwidth, 12.5 D/(N-1) GB/s per link
#            (no DF-C: `do` builds no scatter). K10: p2p from node 0 by kautz-mp and
#            kautz-sp to one destination of each of §3.3.1's three types (found by the
#            schedules' hop counts), at its own sizes M = 2 MiB..512 MiB (--quick:
#            1 MiB, 4 MiB); the table weighs the types by how many destinations each has.
#   2dfcM    the M x M 2dfc hyperx(M,M) at 100 Gbps: alltoall do/md/multitree against SMPI's
#            bruck and pair; allgather do/md/multitree against bruck, pair, ring; allreduce
#            do/md against lr (ring) and rdb (Figs 4.9-4.12).
#   sweepM   hyperx(M,M) at one block size (16 MiB; --quick: 64 KiB) and links of
#            100/200/400 Gbps: alltoall do/md, allgather md against SMPI's ring, allreduce
#            do/md against lr and rdb (Figs 4.13-4.15: M = 8).
# alpha = 1 us everywhere. b maps to simulate's M (docs/running.md) as M = b N for alltoall
# (each rank's send buffer), allgather (the whole result) and scatter (the root's buffer),
# and M = b for allreduce (the vector; Fig. 4.12's rdb at 35.9 us for 8 KB on 256 nodes
# rules out b N) and p2p (the message).
#
# usage: bench/repro_multiport.sh [--quick] [--setups LIST] [--sizes LIST] [--colls LIST]
#                                 [--build DIR] [--timeout 3600] [--keep DIR]
#   default: --setups kautz16,2dfc4,2dfc8,2dfc16,sweep8 --sizes 1KiB..64MiB (the full run:
#   hours on 2 cores; the schedules' large sizes run without computing, in no memory per
#   byte, but SMPI's own algorithms need up to M per rank of real temporaries, and those
#   that do not fit leave their large sizes out);
#   --quick: --setups kautz2,2dfc4,sweep4 --sizes 1KiB,64KiB (a minute or so).
#   --sizes takes a comma list or a doubling range A..B of KiB/MiB/GiB (powers of two).
#   --colls runs only these collectives of each setup (a comma list of allgather, alltoall,
#   allreduce, scatter, p2p; default all), e.g. to add K7/K10 to a kept directory.
#   --keep DIR keeps the plans and simulate's JSON there. Default build: build-bench
#   (configured and built if it lacks topocoll-smpi-exec).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
build="$root/build-bench"
setups=kautz16,2dfc4,2dfc8,2dfc16,sweep8
sizes=1KiB..64MiB
sweep_size=16MiB
p2p_sizes=2MiB..512MiB
colls=allgather,alltoall,allreduce,scatter,p2p
timeout=3600
keep=
quick=0
usage_error() { echo "repro_multiport.sh: $*" >&2; exit 2; }
while [ $# -gt 0 ]; do
  case $1 in
    --quick) quick=1; shift ;;
    --setups) [ $# -ge 2 ] || usage_error "--setups needs a value"; setups_given=$2; shift 2 ;;
    --sizes) [ $# -ge 2 ] || usage_error "--sizes needs a value"; sizes_given=$2; shift 2 ;;
    --colls) [ $# -ge 2 ] || usage_error "--colls needs a value"; colls=$2; shift 2 ;;
    --build) [ $# -ge 2 ] || usage_error "--build needs a value"
      build=$(cd "$2" 2>/dev/null && pwd) || usage_error "--build: no directory '$2'"; shift 2 ;;
    --timeout) [ $# -ge 2 ] || usage_error "--timeout needs a value"
      [[ $2 =~ ^[1-9][0-9]*$ ]] || usage_error "--timeout: '$2' is not a whole number of seconds"
      timeout=$2; shift 2 ;;
    --keep) [ $# -ge 2 ] || usage_error "--keep needs a value"; keep=$2; shift 2 ;;
    *) usage_error "unknown argument '$1' (see the header of $0)" ;;
  esac
done
if [ "$quick" = 1 ]; then
  setups=kautz2,2dfc4,sweep4
  sizes=1KiB,64KiB
  sweep_size=64KiB
  p2p_sizes=1MiB,4MiB
fi
for c in ${colls//,/ }; do
  case $c in allgather | alltoall | allreduce | scatter | p2p) ;;
    *) usage_error "--colls: unknown collective '$c' (allgather, alltoall, allreduce, scatter, p2p)" ;;
  esac
done
setups=${setups_given:-$setups}
sizes=${sizes_given:-$sizes}
table="$here/repro_multiport_table.py"
# the sizes are checked before anything is built or simulated: one error line, exit 2
python3 "$table" blocks "$sizes" >/dev/null || exit 2
# and the setups: all of them, so a bad one cannot stop a run half way
for s in ${setups//,/ }; do
  [[ $s =~ ^(kautz|2dfc|sweep)([0-9]+)$ ]] ||
    usage_error "unknown setup '$s' (kautzD, 2dfcM or sweepM, e.g. kautz16,2dfc8,sweep8)"
  if [ "${BASH_REMATCH[2]}" -lt 2 ] || [ "${BASH_REMATCH[2]}" -gt 64 ]; then
    usage_error "setup '$s': the size must be 2..64"
  fi
done

. "$here/lib_bench.sh"
bench_setup topocoll-smpi-exec
out=$work/json
[ -z "$keep" ] || out=$keep
mkdir -p "$out"
out=$(cd "$out" && pwd)

wanted() { [[ ,$colls, == *,$1,* ]]; }

# run SETUP SPEC COLL ALGO BW SMPI_ALGOS BLOCKS [NAME [SCHED_OPTION...]]: plan, simulate,
# keep the JSON as SETUP.COLL.NAME.BWTAG.json (NAME defaults to ALGO; the table reads the
# setup and the link rate from the name)
run() {
  local setup=$1 spec=$2 coll=$3 algo=$4 bw=$5 smpi=$6 blocks=$7 name=${8:-$4}
  shift $(($# < 8 ? $# : 8))
  wanted "$coll" || return 0
  local n tag plan json
  n=$("$bin" topo "$spec" | awk '$1 == "nodes" { print $2; exit }')
  tag=$(echo "$bw" | tr -c 'A-Za-z0-9\n' '_')
  plan="$work/$setup.$coll.$name.$tag.plan.json"
  json="$out/$setup.$coll.$name.$tag.json"
  "$bin" sched "$spec" --coll "$coll" --algo "$algo" "$@" --out "$plan" >/dev/null
  local msizes
  msizes=$(python3 "$table" msizes "$coll" "$n" "$blocks")
  local start=$SECONDS
  if ! "$bin" simulate "$plan" --inplace 0 --link-bw "$bw" --alpha 1us --sizes "$msizes" --smpi-algos "$smpi" \
      --timeout "$timeout" --json >"$json" 2>"$work/err"; then
    # one size that fails (memory, the timeout) must not take the others with it: each
    # alone, and the ones that ran merged; the table says "not in this run" for the rest
    echo "  $setup $coll $algo on $spec at $bw: $(cat "$work/err"); each size alone" >&2
    local parts=() m
    for m in ${msizes//,/ }; do
      if "$bin" simulate "$plan" --inplace 0 --link-bw "$bw" --alpha 1us --sizes "$m" --smpi-algos "$smpi" \
          --timeout "$timeout" --json >"$json.$m" 2>"$work/err"; then
        parts+=("$json.$m")
      else
        echo "  $setup $coll $algo on $spec at $bw, M = $m bytes: $(cat "$work/err")" >&2
        rm -f "$json.$m"
      fi
    done
    rm -f "$json"
    if [ ${#parts[@]} -gt 0 ]; then
      python3 "$table" merge "${parts[@]}" >"$json"
      rm -f "${parts[@]}"
    fi
  fi
  echo "  $setup $coll $name on $spec at $bw: $((SECONDS - start)) s" >&2
}

# p2p_types D: "TYPE DST" for one destination of each of §3.3.1's types from node 0 of
# kautz(D,1): type 1 is 2 hops away, types 2 and 3 one hop; kautz-mp splits type 2 over d
# paths of up to 3 hops (3 steps, T_B factor 3 M/B) and type 3 over d - 1 (anything else)
p2p_types() {
  local d=$1 dst hops tb seen=
  for ((dst = 1; dst < d * (d + 1) && ${#seen} < 3; dst++)); do
    hops=$("$bin" sched "kautz($d,1)" --coll p2p --algo kautz-sp --src 0 --dst "$dst" --out "$work/p2p.json" |
      sed -n 's/^steps .*distance [0-9]* -> [0-9]*: \([0-9]*\) hops*$/\1/p')
    tb=$("$bin" sched "kautz($d,1)" --coll p2p --algo kautz-mp --src 0 --dst "$dst" --out "$work/p2p.json" |
      awk '$1 == "T_B" { print $3; exit }')
    local t=1
    [ "$hops" = 2 ] || { [ "$tb" = 3/1 ] && t=2 || t=3; }
    [[ $seen == *$t* ]] && continue
    seen+=$t
    echo "$t $dst"
  done
}

echo "machine: $(nproc) cores, $(smpirun -version 2>/dev/null | head -1); alpha 1 us"
for s in ${setups//,/ }; do
  case $s in
    kautz*)
      d=${s#kautz}
      df_bw=$(python3 -c "print(f'{12.5 * $d / (2 * $d - 1):.9f}GBps')")
      for coll in allgather alltoall allreduce; do
        run "$s" "kautz($d,1)" "$coll" kautz-c 12.5GBps none "$sizes"
        run "$s" "kautz($d,1)" "$coll" kautz-m 12.5GBps none "$sizes"
        run "$s" "hyperx($((d + 1)),$d)" "$coll" "do" "$df_bw" none "$sizes"
      done
      fc_bw=$(python3 -c "print(f'{12.5 * $d / ($d * ($d + 1) - 1):.9f}GBps')")
      run "$s" "kautz($d,1)" scatter kautz-c 12.5GBps none "$sizes"
      run "$s" "kautz($d,1)" scatter kautz-m 12.5GBps none "$sizes"
      run "$s" "complete($((d * (d + 1))))" scatter fc-direct "$fc_bw" none "$sizes"
      if wanted p2p; then
        while read -r t dst; do
          for algo in kautz-mp kautz-sp; do
            run "$s" "kautz($d,1)" p2p "$algo" 12.5GBps none "$p2p_sizes" "$algo-t$t" --src 0 --dst "$dst"
          done
        done < <(p2p_types "$d")
      fi ;;
    2dfc*)
      m=${s#2dfc}
      for algo in "do" md multitree; do
        run "$s" "hyperx($m,$m)" alltoall "$algo" 100Gbps "$([ "$algo" = "do" ] && echo bruck,pair || echo none)" "$sizes"
        run "$s" "hyperx($m,$m)" allgather "$algo" 100Gbps "$([ "$algo" = "do" ] && echo bruck,pair,ring || echo none)" "$sizes"
      done
      run "$s" "hyperx($m,$m)" allreduce "do" 100Gbps lr,rdb "$sizes"
      run "$s" "hyperx($m,$m)" allreduce md 100Gbps none "$sizes" ;;
    sweep*)
      m=${s#sweep}
      for bw in 100Gbps 200Gbps 400Gbps; do
        run "$s" "hyperx($m,$m)" alltoall "do" "$bw" none "$sweep_size"
        run "$s" "hyperx($m,$m)" alltoall md "$bw" none "$sweep_size"
        run "$s" "hyperx($m,$m)" allgather md "$bw" ring "$sweep_size"
        run "$s" "hyperx($m,$m)" allreduce "do" "$bw" lr,rdb "$sweep_size"
        run "$s" "hyperx($m,$m)" allreduce md "$bw" none "$sweep_size"
      done ;;
  esac
done
python3 "$table" table "$out"
