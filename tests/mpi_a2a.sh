#!/usr/bin/env bash
# mpi_a2a.sh — the certified all-to-all MCF with its child LPs over MPI ranks
# (topocoll-a2a-mpi, `topocoll a2a --mpi N`; docs/alltoall.md): 4 ranks give exactly the
# result of 1 process — the same f, bounds, per-commodity certificate and the same exact
# per-commodity flows (their hash) — and the same certified numbers as `topocoll a2a` in
# one process. Expected: hypercube(3) f = 1/4, bipartite(4) f = 2/5, torus(3,3,3) with
# host cap 4 f = 2/27 (paper 003 §5.2).
# $1 = build directory, $2 = mpirun.
set -u
build=$1
mpirun=$2
bin=$build/topocoll
. "$(dirname "$0")/lib_cli.sh"

driver() {
  local np=$1
  shift
  timeout 120 "$mpirun" --allow-run-as-root --oversubscribe --bind-to none -np "$np" "$build/topocoll-a2a-mpi" "$@" \
    >"$tmp/out" 2>"$tmp/err"
}

for case in "hypercube(3)|1/4|" "bipartite(4)|2/5|" "torus(3,3,3)|2/27|--host-cap 4"; do
  IFS='|' read -r spec f extra <<<"$case"
  # shellcheck disable=SC2086 # $extra is a list of options
  driver 1 "$spec" $extra || fail "$spec on 1 rank: $(cat "$tmp/err")"
  head -n -1 "$tmp/out" >"$tmp/one"
  grep -q "^  child LPs       on 1 MPI ranks: " "$tmp/out" || fail "$spec: no child LPs line on 1 rank"
  # shellcheck disable=SC2086
  driver 4 "$spec" $extra || fail "$spec on 4 ranks: $(cat "$tmp/err")"
  head -n -1 "$tmp/out" >"$tmp/four"
  grep -q "^  child LPs       on 4 MPI ranks: " "$tmp/out" || fail "$spec: no child LPs line on 4 ranks"
  cmp -s "$tmp/one" "$tmp/four" || fail "$spec: 4 ranks differ from 1: $(diff "$tmp/one" "$tmp/four")"
  grep -qxF "  f               $f exact (lower bound = upper bound)" "$tmp/one" || fail "$spec: f is not $f: $(cat "$tmp/one")"
  # the same certified lines as one process without MPI
  # shellcheck disable=SC2086
  "$bin" a2a "$spec" $extra >"$tmp/plain" 2>"$tmp/err" || fail "$spec: topocoll a2a failed: $(cat "$tmp/err")"
  for what in "f  " "lower bound" "upper bound" "per commodity"; do
    a=$(grep "^  $what" "$tmp/one")
    b=$(grep "^  $what" "$tmp/plain")
    [ -n "$a" ] && [ "$a" = "$b" ] || fail "$spec: '$what' differs: MPI '$a', in-process '$b'"
  done
done

# through the CLI
export TOPOCOLL_MPIRUN=$mpirun
expect 0 "$bin" a2a 'bipartite(4)' --mpi 3
grep -qxF "  f               2/5 exact (lower bound = upper bound)" "$tmp/out" || fail "--mpi 3: $(cat "$tmp/out")"
grep -qxF "  child LPs       on 3 MPI ranks: 3 3 2 sources" "$tmp/out" || fail "--mpi 3 sources: $(cat "$tmp/out")"
printf 'nodes 3\n0 1\n1 2\n2 1\n' >"$tmp/oneway.txt"
expect_err 2 "topocoll a2a: all-to-all needs every node to reach every other: node 1 cannot reach node 0" \
  "$bin" a2a "file($tmp/oneway.txt)" --mpi 2
expect_err 2 "topocoll a2a: --mpi runs --method lp and prints its own report" "$bin" a2a 'hypercube(3)' --mpi 2 --json

finish mpi_a2a
