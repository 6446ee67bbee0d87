# lib_mpi.sh — what the tests/mpi_*.sh scripts share (source it after lib_cli.sh, with
# $build, $mpirun and $bin set):
#   plan NAME SPEC COLL ALGO [EXTRA...]  generate $tmp/NAME.json with `topocoll sched`
#   run NP PLAN...                        mpi_collectives on NP ranks (transport options in
#                                         $transport): every plan must equal MPI's collective
#   mpi ARGS...                           mpirun over shared memory only (short runs: the
#                                         network transports' start-up would dominate), with
#                                         a deadline and no 1 s grace period for ranks that
#                                         exit non-zero

plan() {
  local name=$1 spec=$2 coll=$3 algo=$4
  shift 4
  "$bin" sched "$spec" --coll "$coll" --algo "$algo" "$@" --out "$tmp/$name.json" >"$tmp/out" 2>"$tmp/err" ||
    fail "topocoll sched $spec --coll $coll --algo $algo $*: $(cat "$tmp/err")"
}

run() {
  local np=$1
  shift
  # shellcheck disable=SC2086 # $transport is a list of options
  timeout 120 "$mpirun" --allow-run-as-root --oversubscribe ${transport:-} -np "$np" "$build/mpi_collectives" "$@" \
    >"$tmp/out" 2>"$tmp/err" || fail "mpi_collectives on $np ranks failed: $(grep -v '^--\|^ \|^$' "$tmp/err" | head -5)"
  local n
  n=$(grep -c "cases equal MPI's" "$tmp/out")
  [ "$n" -eq $# ] || fail "mpi_collectives on $np ranks: $n of $# plans reported equal"
  cat "$tmp/out"
}

mpi() {
  timeout 60 "$mpirun" --allow-run-as-root --oversubscribe --mca btl self,vader --mca pml ob1 \
    --mca odls_base_sigkill_timeout 0 "$@"
}
