#!/usr/bin/env bash
# install_check.sh --build DIR --cc CC [--cflags FLAGS] --libdir LIBDIR --bindir BINDIR
#                  --pc-rpath 0|1 [--mpirun MPIRUN] [--smpi]
# `cmake --install` the build into a temporary prefix (not the one it was configured for:
# the installed tree must be relocatable), then prove it is complete and usable:
#   - files land in LIBDIR and BINDIR (CMAKE_INSTALL_LIBDIR, e.g. lib/x86_64-linux-gnu);
#   - a client built with only `pkg-config topocoll` runs;
#   - a client CMake project finds the package with find_package(topocoll 0.1) and
#     -DCMAKE_PREFIX_PATH, links topocoll::topocoll and runs; the version file refuses 1.0;
#   - every installed executable and library resolves libtopocoll inside the prefix (its
#     INSTALL_RPATH), and the installed `topocoll` runs;
#   - a man page per command, each the command's --help text, and the bash completion,
#     which completes commands, options and an option's choices;
#   - with --mpirun (the MPI parts were built): topocoll-mpi.pc and topocoll::topocoll_mpi
#     each build an MPI client that runs a verified plan's allreduce on 2 ranks, and the
#     installed PMPI interposer serves an unmodified MPI program's MPI_Allreduce;
#   - with --smpi: the installed `topocoll simulate` runs the installed topocoll-smpi-exec.
# Nothing runs with LD_LIBRARY_PATH, and the clients are linked with nothing but what
# pkg-config or the CMake package gives them: the RPATHs must do all the work. With
# --pc-rpath 1 the .pc files must carry the libdir's RPATH; with 0 (a build for prefix /usr,
# whose libdir the linker searches anyway, or CMAKE_SKIP_INSTALL_RPATH) they must not, and
# the pkg-config clients of the temporary prefix get it here.
# CFLAGS are added to every client compile and link (the sanitizer build's flags).
set -eu
build="" cc="" extra="" libdir="" bindir="" pc_rpath="" mpirun="" smpi=0
while [ $# -gt 0 ]; do
  case $1 in
    --build) build=$2; shift 2 ;;
    --cc) cc=$2; shift 2 ;;
    --cflags) extra=$2; shift 2 ;;
    --libdir) libdir=$2; shift 2 ;;
    --bindir) bindir=$2; shift 2 ;;
    --pc-rpath) pc_rpath=$2; shift 2 ;;
    --mpirun) mpirun=$2; shift 2 ;;
    --smpi) smpi=1; shift ;;
    *) echo "install_check: unknown argument '$1'" >&2; exit 2 ;;
  esac
done
if [ -z "$build" ] || [ -z "$cc" ] || [ -z "$libdir" ] || [ -z "$bindir" ] || [ -z "$pc_rpath" ]; then
  echo "install_check: --build, --cc, --libdir, --bindir and --pc-rpath are required" >&2
  exit 2
fi

unset LD_LIBRARY_PATH
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "install_check: FAIL: $*" >&2; exit 1; }
prefix=$tmp/prefix
cmake --install "$build" --prefix "$prefix" >/dev/null

# ---- layout ----
for f in "$libdir/libtopocoll.so" "$libdir/pkgconfig/topocoll.pc" "$libdir/cmake/topocoll/topocollConfig.cmake" \
         "$libdir/cmake/topocoll/topocollConfigVersion.cmake" "$bindir/topocoll" include/topocoll/graph.h; do
  [ -e "$prefix/$f" ] || fail "not installed: $f"
done
# Nothing may land in lib/ when the libdir is another directory (multiarch).
if [ "$libdir" != lib ] && [ -d "$prefix/lib" ]; then
  stray=$(find "$prefix/lib" -maxdepth 1 ! -type d)
  [ -z "$stray" ] || fail "installed outside $libdir: $stray"
fi

# ---- pkg-config ----
cat >"$tmp/client.c" <<'C'
#include <stdio.h>
#include <topocoll.h>
int main(void) {
  tc_graph *g;
  tc_error e;
  int32_t d;
  tc_schedule s;
  tc_cost c;
  if (tc_spec_build("kautz(2,3)", &g, &e) || tc_graph_diameter(g, &d, &e)) return 1;
  if (tc_collective_build(g, "bfb", TC_COLL_ALLREDUCE, NULL, &s, &c, &e)) return 1;
  /* (d+1) d^n = 24 nodes, diameter n+1 = 4 (paper 000 Table 9); BFB takes D steps per
     half, so the allreduce takes 2D = 8 */
  printf("%d %d %d\n", g->n, d, c.steps);
  tc_cost_destroy(&c);
  tc_schedule_destroy(&s);
  tc_graph_destroy(g);
  return 0;
}
C
export PKG_CONFIG_PATH="$prefix/$libdir/pkgconfig"
pc_libs=$(pkg-config --libs topocoll)
if [ "$pc_rpath" = 1 ]; then
  grep -qF -- "-Wl,-rpath,$prefix/$libdir/pkgconfig/" <<<"$pc_libs" || fail "topocoll.pc carries no RPATH: $pc_libs"
  client_rpath=""
else
  ! grep -qF -- "-Wl,-rpath" <<<"$pc_libs" || fail "topocoll.pc carries an RPATH for a system libdir: $pc_libs"
  client_rpath="-Wl,-rpath,$prefix/$libdir"
fi
# shellcheck disable=SC2046,SC2086
"$cc" $extra "$tmp/client.c" $(pkg-config --cflags --libs topocoll) $client_rpath -o "$tmp/client"
out=$("$tmp/client") || fail "pkg-config client failed"
[ "$out" = "24 4 8" ] || fail "pkg-config client gave: $out"

# ---- the CMake package ----
mkdir "$tmp/proj"
cp "$tmp/client.c" "$tmp/proj/client.c"
cat >"$tmp/proj/CMakeLists.txt" <<'CMAKE'
cmake_minimum_required(VERSION 3.18)
project(topocoll_client C)
# The version file: 0.x releases are compatible within one minor version only.
find_package(topocoll 1.0 QUIET)
if(topocoll_FOUND)
  message(FATAL_ERROR "find_package(topocoll 1.0) accepted version ${topocoll_VERSION}")
endif()
if(WANT_MPI)
  find_package(topocoll 0.1 REQUIRED COMPONENTS mpi)
else()
  find_package(topocoll 0.1 REQUIRED)
endif()
add_executable(client client.c)
target_link_libraries(client PRIVATE topocoll::topocoll)
if(WANT_MPI)
  add_executable(mpi_client mpi_client.c)
  target_link_libraries(mpi_client PRIVATE topocoll::topocoll_mpi)
endif()
CMAKE

want_mpi=OFF
if [ -n "$mpirun" ]; then
  want_mpi=ON
  [ -e "$prefix/$libdir/pkgconfig/topocoll-mpi.pc" ] || fail "not installed: $libdir/pkgconfig/topocoll-mpi.pc"
  # Both ranks add their inputs through the installed libtopocoll_mpi and a plan the
  # installed CLI generated; the sums are known in closed form.
  cat >"$tmp/mpi_client.c" <<'C'
#include <stdio.h>
#include <topocoll/run_mpi.h>
int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size, bad = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  tc_mpi_plan *plan;
  tc_error e;
  int32_t in[5], out[5];
  for (int i = 0; i < 5; i++) in[i] = 100 * rank + i;
  if (tc_mpi_plan_load(argv[1], MPI_COMM_WORLD, 0, &plan, &e) ||
      tc_mpi_allreduce(plan, in, out, 5, MPI_INT32_T, MPI_SUM, &e)) {
    fprintf(stderr, "rank %d: %s\n", rank, e.msg);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  for (int i = 0; i < 5; i++) bad |= out[i] != 100 * size * (size - 1) / 2 + size * i;
  tc_mpi_plan_destroy(plan);
  MPI_Finalize();
  if (rank == 0) printf("%s\n", bad ? "wrong sums" : "ok");
  return bad;
}
C
  cp "$tmp/mpi_client.c" "$tmp/proj/"
  "$prefix/$bindir/topocoll" sched 'complete(2)' --coll allreduce --algo bfb --out "$tmp/plan.json" \
    >/dev/null 2>"$tmp/err" || fail "installed topocoll sched failed: $(cat "$tmp/err")"
  # mpirun_client BINARY: on 2 ranks over shared memory; Open MPI leaks by design, so no
  # leak detection in the sanitizer build.
  mpirun_client() {
    ASAN_OPTIONS=detect_leaks=0 timeout 60 "$mpirun" --allow-run-as-root --oversubscribe -x ASAN_OPTIONS \
      --mca btl self,vader --mca pml ob1 -np 2 "$1" "$tmp/plan.json" >"$tmp/mpi_out" 2>"$tmp/mpi_err"
    [ "$(cat "$tmp/mpi_out")" = ok ] || fail "$(basename "$1") on 2 ranks: $(cat "$tmp/mpi_out" "$tmp/mpi_err" | head -5)"
  }
  # shellcheck disable=SC2046,SC2086
  "$cc" $extra "$tmp/mpi_client.c" $(pkg-config --cflags --libs topocoll-mpi) $client_rpath \
    -o "$tmp/mpi_client_pc" || fail "cannot build an MPI client with pkg-config topocoll-mpi"
  mpirun_client "$tmp/mpi_client_pc"

  # An MPI program that knows nothing of topocoll, built by the mpicc beside mpirun (with
  # this build's compiler), its MPI_Allreduce served by the installed interposer. In the
  # sanitizer build the ASan runtime must come first in the preload list.
  cat >"$tmp/app.c" <<'C'
#include <mpi.h>
#include <stdio.h>
int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size, in[6], out[6], bad = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  for (int i = 0; i < 6; i++) in[i] = rank + 10 * i;
  MPI_Allreduce(in, out, 6, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  for (int i = 0; i < 6; i++) bad |= out[i] != size * (size - 1) / 2 + 10 * i * size;
  MPI_Finalize();
  if (rank == 0) printf("%s\n", bad ? "wrong sums" : "ok");
  return bad;
}
C
  # shellcheck disable=SC2046,SC2086
  mpicc=$(dirname "$mpirun")/mpicc
  [ -x "$mpicc" ] || mpicc=$(command -v mpicc) || fail "no mpicc beside $mpirun or on PATH"
  OMPI_CC=$cc MPICH_CC=$cc "$mpicc" $extra "$tmp/app.c" -o "$tmp/app" || fail "cannot build the MPI program"
  interposer=$prefix/$libdir/libtopocoll_pmpi.so
  preload=$interposer
  asan=$(ldd "$interposer" | awk '/libasan/ {print $3}')
  [ -z "$asan" ] || preload="$asan:$interposer"
  ASAN_OPTIONS=detect_leaks=0 timeout 60 "$mpirun" --allow-run-as-root --oversubscribe -x ASAN_OPTIONS \
    --mca btl self,vader --mca pml ob1 -np 2 -x LD_PRELOAD="$preload" -x TOPOCOLL_PLANS="$tmp/plan.json" \
    -x TOPOCOLL_VERBOSE=1 "$tmp/app" >"$tmp/mpi_out" 2>"$tmp/mpi_err" ||
    fail "the MPI program under the installed interposer: $(cat "$tmp/mpi_out" "$tmp/mpi_err" | head -5)"
  [ "$(cat "$tmp/mpi_out")" = ok ] || fail "the MPI program under the installed interposer printed: $(cat "$tmp/mpi_out")"
  served="topocoll: 1 calls served by topocoll (allreduce 1, allgather 0, reduce-scatter 0, alltoall 0, broadcast 0, reduce 0, scatter 0, gather 0), 0 fell back to MPI"
  grep -qxF "$served" "$tmp/mpi_err" || fail "the installed interposer served nothing: $(cat "$tmp/mpi_err")"
fi
if ! { cmake -S "$tmp/proj" -B "$tmp/proj/build" -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_C_COMPILER="$cc" \
         -DCMAKE_C_FLAGS="$extra" -DCMAKE_EXE_LINKER_FLAGS="$extra" -DWANT_MPI=$want_mpi &&
       cmake --build "$tmp/proj/build"; } >"$tmp/cmake_out" 2>&1; then
  cat "$tmp/cmake_out" >&2
  fail "the CMake client did not build"
fi
grep -qxF "topocoll_DIR:PATH=$prefix/$libdir/cmake/topocoll" "$tmp/proj/build/CMakeCache.txt" ||
  fail "find_package(topocoll) did not use the installed package: $(grep topocoll_DIR "$tmp/proj/build/CMakeCache.txt")"
out=$("$tmp/proj/build/client") || fail "CMake client failed"
[ "$out" = "24 4 8" ] || fail "CMake client gave: $out"
[ -z "$mpirun" ] || mpirun_client "$tmp/proj/build/mpi_client"

# ---- installed executables ----
[ "$smpi" = 0 ] || [ -x "$prefix/$bindir/topocoll-smpi-exec" ] || fail "not installed: $bindir/topocoll-smpi-exec"
[ -z "$mpirun" ] || [ -x "$prefix/$bindir/topocoll-exec" ] || fail "not installed: $bindir/topocoll-exec"
for exe in "$prefix/$bindir"/* "$prefix/$libdir"/libtopocoll_*.so; do
  [ -e "$exe" ] || continue
  deps=$(ldd "$exe") || fail "ldd $exe failed"
  ! grep -q "not found" <<<"$deps" || fail "$(basename "$exe"): $(grep "not found" <<<"$deps" | head -3)"
  # "libtopocoll.so.0 => PATH (0x...)", PATH as the RPATH spells it ($ORIGIN/../lib/...)
  loaded=$(awk '$1 == "libtopocoll.so.0" { print $3 }' <<<"$deps")
  # (libtopocoll itself is the one library that does not load it)
  if [ -z "$loaded" ] || [ "$(realpath "$loaded")" != "$(realpath "$prefix/$libdir/libtopocoll.so.0")" ]; then
    fail "$(basename "$exe") does not load the installed libtopocoll: $(grep libtopocoll <<<"$deps")"
  fi
done
"$prefix/$bindir/topocoll" --version | grep -q '^topocoll ' || fail "installed binary does not run"

# ---- simulate, from the prefix: smpirun runs a copy of topocoll-smpi-exec from a
#      temporary directory, which must still find the installed libtopocoll ----
if [ "$smpi" = 1 ]; then
  "$prefix/$bindir/topocoll" sched 'complete(3)' --coll allreduce --algo bfb --out "$tmp/ar3.json" >/dev/null ||
    fail "installed topocoll sched failed"
  "$prefix/$bindir/topocoll" simulate "$tmp/ar3.json" --link-bw 10Gbps --alpha 1us --sizes 1KB --smpi-algos none \
    --json >"$tmp/sim.json" 2>"$tmp/err" || fail "installed topocoll simulate failed: $(cat "$tmp/err")"
  [ "$(grep -c '"checked": true' "$tmp/sim.json")" = 1 ] ||
    fail "installed topocoll simulate checked no result: $(cat "$tmp/sim.json")"
fi

# ---- man pages: topocoll(1), and one per command, each its --help text ----
man=$prefix/share/man/man1
commands=$("$prefix/$bindir/topocoll" --help | awk '/^commands:$/ { on = 1; next } on && !NF { exit } on { print $1 }')
[ "$(wc -w <<<"$commands")" -ge 10 ] || fail "topocoll --help lists too few commands: $commands"
[ -e "$man/topocoll.1" ] || fail "not installed: share/man/man1/topocoll.1"
for cmd in $commands; do
  page=$man/topocoll-$cmd.1
  [ -e "$page" ] || fail "not installed: share/man/man1/topocoll-$cmd.1"
  # rendered, the page's text is the help's (indented by man; no hyphenation or filling)
  MANWIDTH=200 man -l "$page" 2>/dev/null | sed -n '/^DESCRIPTION$/,/^SEE ALSO$/p' | sed '1d;$d;s/^       //' |
    sed -e :a -e '/^\n*$/{$d;N;ba' -e '}' >"$tmp/man.txt"
  "$prefix/$bindir/topocoll" help "$cmd" >"$tmp/help.txt"
  diff -q "$tmp/help.txt" "$tmp/man.txt" >/dev/null ||
    fail "topocoll-$cmd.1 is not 'topocoll help $cmd': $(diff "$tmp/help.txt" "$tmp/man.txt" | head -5)"
done

# ---- bash completion ----
completion=$prefix/share/bash-completion/completions/topocoll
[ -e "$completion" ] || fail "not installed: share/bash-completion/completions/topocoll"
# complete WORDS...: what the completion offers for the last word
complete_words() {
  bash -c '. "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _topocoll; printf "%s\n" "${COMPREPLY[@]}"' \
    complete "$completion" "$prefix/$bindir/topocoll" "$@"
}
[ "$(complete_words ex)" = export ] || fail "completing 'topocoll ex': $(complete_words ex)"
[ "$(complete_words help si)" = simulate ] || fail "completing 'topocoll help si': $(complete_words help si)"
[ "$(complete_words export --max-)" = "$(printf -- '--max-bytes\n--max-memory\n--max-steps')" ] ||
  fail "completing 'topocoll export --max-': $(complete_words export --max-)"
[ "$(complete_words export a.json --proto LL)" = "$(printf 'LL\nLL128')" ] ||
  fail "completing 'topocoll export a.json --proto LL': $(complete_words export a.json --proto LL)"
echo "install_check: ok"
