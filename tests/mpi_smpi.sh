#!/usr/bin/env bash
# mpi_smpi.sh — topocoll-smpi-exec, the executor driver compiled unchanged by smpicc, under
# SimGrid's smpirun on a hand-written 4-host cluster platform:
#   - with computation: allreduce, allgather (in place) and reduce-scatter results equal
#     SMPI's own collectives ("verified": true), sizes as topocoll-exec reports them;
#   - --no-compute at 1 GB: the buffers come from SMPI_SHARED_MALLOC, the run completes,
#     nothing is checked ("verified": null) and both simulated times are reported;
#   - --only mpi with one of SMPI's own algorithms (--cfg=smpi/allreduce:lr);
#   - a plan of the wrong size: one "topocoll-exec:" line, exit status 2.
# Simulated times are checked to be numbers, never compared. The sanitizer build has no
# topocoll-smpi-exec (SMPI cannot run sanitized code): there the test passes as skipped.
# $1 = build directory ($2, mpirun, is not used).
set -u
build=$1
bin=$build/topocoll
. "$(dirname "$0")/lib_cli.sh"

exe=$build/topocoll-smpi-exec
if [ ! -x "$exe" ]; then
  echo "mpi_smpi: skipped: $exe is not built here (sanitizer build: SMPI cannot run sanitized code)"
  exit 0
fi
command -v smpirun >/dev/null || { echo "mpi_smpi: FAIL: smpirun not found" >&2; exit 1; }

cat >"$tmp/platform.xml" <<'XML'
<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">
  <cluster id="c" prefix="h" suffix="" radical="0-3" speed="1Gf" bw="10GBps" lat="1us" bb_bw="40GBps" bb_lat="1us"/>
</platform>
XML
printf 'h0\nh1\nh2\nh3\n' >"$tmp/hosts"

sched() { "$bin" sched "$1" --coll "$2" --algo "$3" --out "$tmp/$4.json" >/dev/null 2>"$tmp/err" || fail "sched $*: $(cat "$tmp/err")"; }
sched 'torus(2,2)' allreduce bfb ar4
sched 'torus(2,2)' allgather bfb ag4
sched 'torus(2,2)' reduce-scatter bfb rs4
sched 'torus(3,3)' allreduce bfb ar9

# smpi ARGS...: the executor under smpirun; stdout in $tmp/out, stderr in $tmp/err
smpi() {
  timeout 120 smpirun -np 4 -platform "$tmp/platform.xml" -hostfile "$tmp/hosts" \
    --cfg=smpi/simulate-computation:no --log=root.thres:warning "$@" >"$tmp/out" 2>"$tmp/err"
}

# lines CHECK: the JSON lines on stdout pass CHECK (Python over `lines`)
lines() {
  python3 - "$tmp/out" "$1" <<'PY' || fail "($1) on: $(cat "$tmp/out") $(cat "$tmp/err")"
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1])]
num = lambda v: isinstance(v, (int, float)) and not isinstance(v, bool) and v > 0
assert lines and eval(sys.argv[2])
PY
}

verified='all(num(j["time_s"]) and num(j["mpi_time_s"]) and j["verified"] is True for j in lines)'
smpi "$exe" "$tmp/ar4.json" --sizes 1KB,1MB --iters 2 || fail "allreduce under SMPI: $(cat "$tmp/err")"
lines "[j['size_bytes'] for j in lines] == [1000, 1000000] and $verified"
smpi "$exe" "$tmp/ag4.json" --sizes 1KB,1MB --inplace 1 --dtype double --iters 1 || fail "allgather under SMPI: $(cat "$tmp/err")"
lines "[j['size_bytes'] for j in lines] == [992, 1000000] and $verified"
smpi "$exe" "$tmp/rs4.json" --sizes 64KB --dtype int64 --op max --iters 1 || fail "reduce-scatter under SMPI: $(cat "$tmp/err")"
lines "[j['size_bytes'] for j in lines] == [64000] and $verified"
smpi "$exe" "$tmp/ar4.json" --sizes 1GB --no-compute --iters 1 --warmup 0 || fail "1 GB --no-compute: $(cat "$tmp/err")"
lines "[j['count'] for j in lines] == [250000000] and num(lines[0]['time_s']) and num(lines[0]['mpi_time_s']) and lines[0]['verified'] is None"
smpi --cfg=smpi/allreduce:lr "$exe" "$tmp/ar4.json" --sizes 1MB --only mpi --iters 1 || fail "--only mpi: $(cat "$tmp/err")"
lines "lines[0]['time_s'] is None and num(lines[0]['mpi_time_s']) and lines[0]['verified'] is None"
smpi "$exe" "$tmp/ar9.json"
status=$?
[ $status -eq 2 ] || fail "a 9-rank plan on 4 simulated ranks: exit status $status, expected 2"
[ "$(grep -c '^topocoll-exec: ' "$tmp/err")" -eq 1 ] &&
  grep -qF "topocoll-exec: rank 0: $tmp/ar9.json: the schedule is for 9 nodes but the communicator has 4 ranks" "$tmp/err" ||
  fail "wrong-size plan under SMPI: $(cat "$tmp/err")"

finish mpi_smpi
