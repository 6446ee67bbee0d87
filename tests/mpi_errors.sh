#!/usr/bin/env bash
# mpi_errors.sh — the executor library's errors reach every rank and nothing hangs (every
# mpirun has a deadline): mpi_errors (tests/mpi_errors.c) on 4 and on 3 ranks — a plan of
# the wrong size, a truncated file, a schedule the verifier rejects, a file only the last
# rank cannot read, and the call errors (count overflow, unsupported datatype and op, wrong
# collective, NULL buffer, one rank's bad count, a broadcast naming another root than its
# plan's) — the same code and message on every rank, and the plans still work afterwards; and mpi_program_check
# (tests/mpi_program_check.c, one process): hand-made programs the executor must refuse
# (TC_EFAIL naming the broken rule) or accept, and exact element layouts. (topocoll-exec's
# errors: mpi_exec_driver.sh.)
# $1 = build directory, $2 = mpirun.
set -u
build=$1
mpirun=$2
bin=$build/topocoll
. "$(dirname "$0")/lib_cli.sh"
. "$(dirname "$0")/lib_mpi.sh"
plan ar4 'torus(2,2)' allreduce bfb
plan ag4 'torus(2,2)' allgather bfb
plan ar3 'circulant(3,1)' allreduce bfb
plan ag3 'circulant(3,1)' allgather bfb
plan ar9 'torus(3,3)' allreduce bfb
plan bc4 'complete(4)' broadcast dbt --root 1
plan bc3 'complete(3)' broadcast binomial --root 1
head -c 300 "$tmp/ag4.json" >"$tmp/truncated.json"
# Drop one transfer of the allgather: a node then forwards units it never received.
for n in 4 3; do
  python3 - "$tmp/ag$n.json" "$tmp/invalid$n.json" <<'PY' || fail "could not write invalid$n.json"
import json, sys
d = json.load(open(sys.argv[1]))
d["schedule"]["transfers"].pop(3)
json.dump(d, open(sys.argv[2], "w"))
PY
done
for np in 4 3; do
  mpi -np $np "$build/mpi_errors" "$tmp/ar$np.json" "$tmp/ag$np.json" "$tmp/ar9.json" "$tmp/truncated.json" \
    "$tmp/invalid$np.json" "$tmp/bc$np.json" >"$tmp/out" 2>"$tmp/err" ||
    fail "mpi_errors on $np ranks: $(grep '^mpi_errors' "$tmp/err" | head -5)"
  grep -qx "mpi_errors: every error reached all $np ranks" "$tmp/out" || fail "mpi_errors on $np ranks: $(cat "$tmp/out")"
done

mpi -np 1 "$build/mpi_program_check" >"$tmp/out" 2>"$tmp/err" || fail "mpi_program_check: $(cat "$tmp/err")"
grep -qx "mpi_program_check: all checks passed" "$tmp/out" || fail "mpi_program_check: $(cat "$tmp/out")"

finish mpi_errors
