#!/usr/bin/env bash
# mpi_pmpi.sh — the PMPI interposer (libtopocoll_pmpi.so, LD_PRELOAD) under mpi_app, an
# MPI program that knows nothing of topocoll and checks every result against closed forms
# (tests/mpi_app.c); it makes 16 allreduce, 8 allgather, 8 reduce-scatter and 8 alltoall
# calls the interposer can serve and 5 it must leave to MPI. On 4 ranks:
#   - without the interposer, and with it but no plans: correct results; with
#     TOPOCOLL_VERBOSE=1 rank 0 reports 0 served, 45 fell back;
#   - plans for three collectives (one list, ':' and ',' separated) plus a plan for 9
#     ranks: 32 served (16 + 8 + 8), 13 fell back, the 9-rank plan skipped with a warning;
#     the same with MPI_Init_thread instead of MPI_Init;
#   - all four, the alltoall plan's shards relayed over two hops (sssp on torus(2,2)) and a
#     second alltoall plan skipped: 40 served, 5 fell back;
#   - only an allreduce plan: 16 served, 29 fell back;
#   - a corrupt plan in the list: one warning line (even without TOPOCOLL_VERBOSE), the
#     other plans still serve, the program's results are still correct;
#   - on 6 ranks with the 4-rank plans only: everything falls back (four skipped plans);
#   - fabric plans (compute nodes behind a switch) serve like any other: 32 served, and a
#     plan for 6 compute nodes is skipped with its warning;
#   - the rooted collectives under mpi_rooted_app on 6 ranks (below).
# In the sanitizer build the ASan runtime must come first in the preload list: it is
# found with ldd and put there.
# $1 = build directory, $2 = mpirun.
set -u
build=$1
mpirun=$2
bin=$build/topocoll
. "$(dirname "$0")/lib_cli.sh"

lib=$build/libtopocoll_pmpi.so
preload=$lib
asan=$(ldd "$lib" | awk '/libasan/ {print $3}')
[ -z "$asan" ] || preload="$asan:$lib"

sched() { "$bin" sched "$1" --coll "$2" --algo "$3" --out "$tmp/$4.json" >/dev/null 2>"$tmp/err" || fail "sched $*: $(cat "$tmp/err")"; }
sched 'torus(2,2)' allreduce bfb ar4
sched 'circulant(4,1)' allgather bfb ag4
sched 'torus(2,2)' reduce-scatter bfb rs4
sched 'torus(3,3)' allreduce bfb ar9
sched 'torus(2,2)' alltoall sssp a2a4
sched 'complete(4)' alltoall direct a2a4d
printf '{"format": "topocoll-schedule", "version": 1, "graph": ' >"$tmp/corrupt.json"

app_line="mpi_app: servable allreduce 16 allgather 8 reduce-scatter 8 alltoall 8, unservable 5"

# app NP PLANS VERBOSE [APP ARGS...]: run mpi_app with the interposer (PLANS "-": none preloaded)
app() {
  local np=$1 plans=$2 verbose=$3
  shift 3
  if [ "$plans" = "-" ]; then
    timeout 60 "$mpirun" --allow-run-as-root --oversubscribe --mca btl self,vader --mca pml ob1 -np "$np" "$build/mpi_app" "$@" >"$tmp/out" 2>"$tmp/err"
  else
    timeout 60 "$mpirun" --allow-run-as-root --oversubscribe --mca btl self,vader --mca pml ob1 -np "$np" -x LD_PRELOAD="$preload" \
      -x TOPOCOLL_PLANS="$plans" -x TOPOCOLL_VERBOSE="$verbose" "$build/mpi_app" "$@" >"$tmp/out" 2>"$tmp/err"
  fi
  local rc=$?
  [ $rc -eq 0 ] || fail "mpi_app ($np ranks, plans '$plans') exited $rc: $(grep -v '^--\|^ \|^$' "$tmp/err" | head -5)"
  grep -qxF "$app_line" "$tmp/out" || fail "mpi_app ($np ranks, plans '$plans'): $(cat "$tmp/out")"
}

# counts SERVED AR AG RS FELL [A2A]: rank 0's verbose line, exactly once
# (mpi_app's own closing MPI_Reduce and MPI_Bcast are two of the calls that fall back)
counts() {
  local line="topocoll: $1 calls served by topocoll (allreduce $2, allgather $3, reduce-scatter $4, alltoall ${6:-0}, broadcast ${7:-0}, reduce ${8:-0}, scatter ${9:-0}, gather ${10:-0}), $5 fell back to MPI"
  [ "$(grep -cxF "$line" "$tmp/err")" -eq 1 ] || fail "expected '$line': $(cat "$tmp/err")"
}

app 4 - 0
[ ! -s "$tmp/err" ] || fail "mpi_app alone printed: $(cat "$tmp/err")"
app 4 "" 1
counts 0 0 0 0 47
app 4 "$tmp/ar4.json:$tmp/ag4.json,$tmp/rs4.json:$tmp/ar9.json" 1
counts 32 16 8 8 15
grep -qF "topocoll: warning: rank 0: $tmp/ar9.json: the schedule is for 9 nodes but the communicator has 4 ranks; plan skipped" \
  "$tmp/err" || fail "no warning for the 9-rank plan: $(cat "$tmp/err")"
app 4 "$tmp/ar4.json:$tmp/ag4.json,$tmp/rs4.json" 1 --init-thread
counts 32 16 8 8 15
app 4 "$tmp/ar4.json:$tmp/ag4.json,$tmp/rs4.json:$tmp/a2a4.json:$tmp/a2a4d.json" 1
counts 40 16 8 8 7 8
grep -qxF "topocoll: $tmp/a2a4.json serves alltoall (sssp, 4 ranks)" "$tmp/err" ||
  fail "no line for the alltoall plan: $(cat "$tmp/err")"
grep -qxF "topocoll: warning: $tmp/a2a4d.json: skipped (an earlier plan already serves alltoall)" "$tmp/err" ||
  fail "the second alltoall plan was not skipped: $(cat "$tmp/err")"
app 4 "$tmp/ar4.json" 1
counts 16 16 0 0 31
app 4 "$tmp/corrupt.json,$tmp/rs4.json" 0
[ "$(grep -c '^topocoll: ' "$tmp/err")" -eq 1 ] || fail "corrupt plan: not one line: $(cat "$tmp/err")"
grep -qF "topocoll: warning: rank 0: $tmp/corrupt.json:" "$tmp/err" && grep -qF "; plan not used" "$tmp/err" ||
  fail "corrupt plan warning: $(cat "$tmp/err")"
app 4 "$tmp/corrupt.json,$tmp/rs4.json" 1
counts 8 0 0 8 39
app 6 "$tmp/ar4.json:$tmp/ag4.json:$tmp/rs4.json:$tmp/a2a4.json" 1
counts 0 0 0 0 47
[ "$(grep -c 'plan skipped$' "$tmp/err")" -eq 4 ] || fail "6 ranks: expected four skipped plans: $(cat "$tmp/err")"
# Fabric plans (tests/fabric_sched.py: two islands with a switch, hops through it collapsed
# into direct sends): the 4 compute nodes of islands(2) serve the 4 ranks, the 6 of
# islands(3) do not.
gen="python3 $(cd "$(dirname "$0")" && pwd)/fabric_sched.py"
for c in allreduce allgather reduce-scatter; do $gen islands 2 $c "$tmp/isl-$c.json" || fail "islands(2) $c"; done
$gen islands 3 allreduce "$tmp/isl3-allreduce.json" || fail "islands(3) allreduce"
app 4 "$tmp/isl-allreduce.json:$tmp/isl-allgather.json,$tmp/isl-reduce-scatter.json:$tmp/isl3-allreduce.json" 1
counts 32 16 8 8 15
grep -qF "topocoll: warning: rank 0: $tmp/isl3-allreduce.json: the schedule is for 6 compute nodes but the communicator has 4 ranks; plan skipped" \
  "$tmp/err" || fail "no warning for the 6-rank fabric plan: $(cat "$tmp/err")"

# The rooted collectives (tests/mpi_rooted_app.c) on kautz(2,1), 6 ranks: plans from root 2
# serve its calls from root 2; the calls from root 0, an MPI_PROD reduce and the final
# MPI_Allreduce fall back; a second broadcast plan for root 2 is skipped, one for root 4
# kept (and never used), and a p2p plan is not used (no MPI call is a p2p).
sched_rooted() { "$bin" sched 'kautz(2,1)' --coll "$1" --algo "$2" "${@:4}" --out "$tmp/$3.json" >/dev/null 2>"$tmp/err" || fail "sched $*: $(cat "$tmp/err")"; }
sched_rooted broadcast kautz-c kbc2 --root 2
sched_rooted broadcast kautz-m kbc2m --root 2
sched_rooted broadcast kautz-m kbc4 --root 4
sched_rooted reduce kautz-m kred2 --root 2
sched_rooted scatter kautz-c ksc2 --root 2
sched_rooted gather kautz-m kga2 --root 2
sched_rooted p2p kautz-mp kp2p --src 0 --dst 3
rooted_line="mpi_rooted_app: servable broadcast 6 reduce 6 scatter 6 gather 6, unservable 26"
rooted_app() {
  timeout 60 "$mpirun" --allow-run-as-root --oversubscribe --mca btl self,vader --mca pml ob1 -np 6 -x LD_PRELOAD="$preload" \
    -x TOPOCOLL_PLANS="$1" -x TOPOCOLL_VERBOSE=1 "$build/mpi_rooted_app" >"$tmp/out" 2>"$tmp/err" ||
    fail "mpi_rooted_app (plans '$1') failed: $(grep -v '^--\|^ \|^$' "$tmp/err" | head -5)"
  grep -qxF "$rooted_line" "$tmp/out" || fail "mpi_rooted_app (plans '$1'): $(cat "$tmp/out")"
}
rooted_app ""
counts 0 0 0 0 50
rooted_app "$tmp/kbc2.json:$tmp/kbc2m.json:$tmp/kbc4.json:$tmp/kred2.json:$tmp/ksc2.json:$tmp/kga2.json:$tmp/kp2p.json"
counts 24 0 0 0 26 0 6 6 6 6
grep -qxF "topocoll: $tmp/kbc2.json serves broadcast from root 2 (kautz-c, 6 ranks)" "$tmp/err" ||
  fail "no line for the broadcast plan: $(cat "$tmp/err")"
grep -qxF "topocoll: $tmp/kbc4.json serves broadcast from root 4 (kautz-m, 6 ranks)" "$tmp/err" ||
  fail "no line for the root-4 broadcast plan: $(cat "$tmp/err")"
grep -qxF "topocoll: warning: $tmp/kbc2m.json: skipped (an earlier plan already serves broadcast from root 2)" "$tmp/err" ||
  fail "the second root-2 broadcast plan was not skipped: $(cat "$tmp/err")"
grep -qxF "topocoll: warning: $tmp/kp2p.json: a p2p plan serves no MPI call; plan not used" "$tmp/err" ||
  fail "the p2p plan was not refused: $(cat "$tmp/err")"

finish mpi_pmpi
