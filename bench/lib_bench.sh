# lib_bench.sh — shared by the bench/*.sh scripts that drive the built CLI; they source it
# after setting `root` (the source tree) and `build` (the build directory to use). Not a
# benchmark itself.
#
# bench_setup PROGRAM: configure and build $build (Release, no tests) unless it already has
# PROGRAM (the executor the script needs, so a --build given by the caller is used as it
# is); then $bin is its topocoll and $work a scratch directory removed on exit.
bench_setup() {
  if [ ! -x "$build/$1" ]; then
    cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release -DBUILD_TESTING=OFF >/dev/null
    cmake --build "$build" -j"$(nproc)" >/dev/null
  fi
  bin="$build/topocoll"
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
}
