#!/usr/bin/env bash
# mpi_exec_driver.sh — topocoll-exec, the program `topocoll run` and `topocoll simulate`
# launch (its contract: src/run/exec_driver.c, docs/running.md), on 4 ranks:
#   - output: one JSON object per size and variant on rank 0's stdout (--inplace both: out
#     of place, then in place; broadcast and p2p out of place only), keys size_bytes, count,
#     inplace, time_s,
#     time_min_s, time_max_s (median, fastest, slowest iteration), the same three mpi_*,
#     wrong (elements that differ from MPI's over all ranks), verified in that order; the size
#     actually used (count = M/elt for allreduce, broadcast and p2p, M/(N*elt) for allgather,
#     reduce-scatter and scatter, at least 1); "verified": true
#     for every collective, datatype, op, in place; null where a side is not run (--only)
#     or nothing is checked (--no-check, --no-compute); the default sizes 1KB..1MB (1000 ... 512000, then the top 1000000);
#   - errors: bad usage and bad plans give exactly one line "topocoll-exec: ..." on stderr
#     (rank 0 only) and exit status 2; a schedule that is wrong but run with --trusted
#     gives wrong results, which the check reports (one line naming size, rank and element,
#     "verified": false, exit status 1) while every size is still run.
# Times are checked to be numbers, never compared.
# $1 = build directory, $2 = mpirun.
set -u
build=$1
mpirun=$2
bin=$build/topocoll
. "$(dirname "$0")/lib_cli.sh"
. "$(dirname "$0")/lib_mpi.sh"
plan ar4 'torus(2,2)' allreduce bfb
plan ag4 'torus(2,2)' allgather bfb
plan rs4 'torus(2,2)' reduce-scatter bfb
plan ar9 'torus(3,3)' allreduce bfb
plan bc4 'complete(4)' broadcast dbt --root 2
plan sc4 'complete(4)' scatter binomial --root 1
plan p2p4 'complete(4)' p2p fc-direct --src 3 --dst 0
head -c 300 "$tmp/ag4.json" >"$tmp/truncated.json"
# Drop one transfer of the allgather's last step: the schedule is invalid and, run
# --trusted, that transfer's receiver simply never gets those units.
python3 - "$tmp/ag4.json" "$tmp/short.json" <<'PY' || fail "could not write short.json"
import json, sys
d = json.load(open(sys.argv[1]))
x = d["schedule"]["transfers"]
last = max(t[1] for t in x)
x.remove(next(t for t in x if t[1] == last))
json.dump(d, open(sys.argv[2], "w"))
PY

# run_ok CHECK ARGS...: topocoll-exec ARGS succeeds quietly; its lines pass CHECK, a Python
# expression over `lines` (the parsed objects, keys checked) and `sizes` (size_bytes list)
run_ok() {
  local check=$1
  shift
  mpi -np 4 "$build/topocoll-exec" "$@" >"$tmp/out" 2>"$tmp/err" || { fail "topocoll-exec $*: $(cat "$tmp/err")"; return; }
  [ ! -s "$tmp/err" ] || fail "topocoll-exec $*: printed on stderr: $(cat "$tmp/err")"
  python3 - "$tmp/out" "$check" <<'PY' || fail "topocoll-exec $*: ($check) on: $(cat "$tmp/out")"
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1])]
for j in lines:
    assert list(j) == ["size_bytes", "count", "inplace", "time_s", "time_min_s", "time_max_s", "mpi_time_s", "mpi_time_min_s",
                       "mpi_time_max_s", "wrong", "verified"], list(j)
    for p in ("", "mpi_"):
        t = [j[p + k] for k in ("time_min_s", "time_s", "time_max_s")]
        assert t == [None] * 3 or all(isinstance(x, (float, int)) and x >= 0 for x in t) and t[0] <= t[1] <= t[2], j
    assert (j["wrong"], j["verified"]) in ((None, None), (0, True)), j
sizes = [j["size_bytes"] for j in lines]
variants = [j["inplace"] for j in lines]
num = lambda v: isinstance(v, (int, float)) and v is not True and v is not False
assert eval(sys.argv[2]), "check failed"
PY
}

both='all(num(j["time_s"]) and num(j["mpi_time_s"]) and j["verified"] is True for j in lines)'
run_ok "sizes == [1000 * 2**k for k in range(10)] + [1000000] and all(j['count'] == j['size_bytes'] // 4 for j in lines) and $both" \
  "$tmp/ar4.json"
run_ok "sizes == [16, 992, 4000] and [j['count'] for j in lines] == [1, 62, 250] and $both" \
  "$tmp/ag4.json" --sizes 7,1000,4KB --dtype float --inplace 1 --iters 2 --warmup 0
run_ok "sizes == [32, 100000] and [j['count'] for j in lines] == [1, 3125] and $both and variants == [True, True]" \
  "$tmp/rs4.json" --sizes 1,100KB --dtype int64 --op min --inplace 1 --iters 3
run_ok "sizes == [8, 4096] and $both and variants == [False, False]" "$tmp/ar4.json" --sizes 8,4KiB --dtype double \
  --op max --inplace 0 --trusted
# --inplace both: each size out of place, then in place, each checked.
run_ok "sizes == [992, 992, 64000, 64000] and variants == [False, True] * 2 and $both" \
  "$tmp/ag4.json" --sizes 1KB,64KB --inplace both --iters 2
run_ok "all(num(j['time_s']) and j['mpi_time_s'] is None and j['verified'] is None for j in lines) and len(lines) == 2" \
  "$tmp/ar4.json" --sizes 1KB,2KB --only topocoll
run_ok "all(j['time_s'] is None and num(j['mpi_time_s']) and j['verified'] is None for j in lines) and len(lines) == 2" \
  "$tmp/ar4.json" --sizes 1KB,2KB --only mpi
run_ok "all(num(j['time_s']) and num(j['mpi_time_s']) and j['verified'] is None for j in lines) and len(lines) == 1" \
  "$tmp/ar4.json" --sizes 64KB --no-compute
run_ok "all(j['verified'] is None for j in lines) and len(lines) == 1" "$tmp/ag4.json" --sizes 64KB --no-check
# The rooted collectives: a broadcast's M is the buffer (count M/elt), a scatter's the
# root's send buffer (M/(N*elt) per rank; in place at the root), a p2p's the one buffer.
run_ok "sizes == [1000, 65536] and [j['count'] for j in lines] == [250, 16384] and $both and not any(variants)" \
  "$tmp/bc4.json" --sizes 1KB,64KiB --iters 2 --inplace both
run_ok "sizes == [992, 65536] and [j['count'] for j in lines] == [62, 4096] and $both" \
  "$tmp/sc4.json" --sizes 1KB,64KiB --dtype float --inplace 1 --iters 2
run_ok "sizes == [8, 4096] and [j['count'] for j in lines] == [1, 512] and $both and not any(variants)" \
  "$tmp/p2p4.json" --sizes 1,4KiB --dtype double --iters 2 --inplace both
expect 0 mpi -np 4 "$build/topocoll-exec" --help
[ "$(grep -c '^usage: topocoll-exec' "$tmp/out")" -eq 1 ] || fail "--help: $(cat "$tmp/out")"

# exec_err STATUS FRAGMENT ARGS...: exactly one "topocoll-exec:" line, containing FRAGMENT
exec_err() {
  local want=$1 frag=$2
  shift 2
  mpi -np 4 "$build/topocoll-exec" "$@" >"$tmp/out" 2>"$tmp/err"
  local got=$?
  [ "$got" -eq "$want" ] || fail "topocoll-exec $*: exit $got, expected $want: $(cat "$tmp/err")"
  [ "$(grep -c '^topocoll-exec: ' "$tmp/err")" -eq 1 ] || fail "topocoll-exec $*: not one error line: $(cat "$tmp/err")"
  grep '^topocoll-exec: ' "$tmp/err" | grep -qF -- "$frag" || fail "topocoll-exec $*: error lacks '$frag': $(cat "$tmp/err")"
}
exec_err 2 "missing PLAN.json"
exec_err 2 "unknown option '--fast'" "$tmp/ar4.json" --fast
exec_err 2 "--dtype: unknown value 'int8' (expected int32, int64, float, double)" "$tmp/ar4.json" --dtype int8
exec_err 2 "--only: unknown value 'nccl'" "$tmp/ar4.json" --only nccl
exec_err 2 "--iters: expected an integer in 1..1000000, got '0'" "$tmp/ar4.json" --iters 0
exec_err 2 "--warmup needs a value" "$tmp/ar4.json" --warmup
exec_err 2 "--inplace: unknown value 'yes' (expected 0, 1, both)" "$tmp/ar4.json" --inplace yes
exec_err 2 "topocoll-exec: --inplace 1: broadcast has no in-place form in MPI (run it with --inplace 0)" "$tmp/bc4.json" \
  --inplace 1
exec_err 2 "--sizes: size \"2x\": unknown unit" "$tmp/ar4.json" --sizes 1KB,2x
exec_err 2 "rank 0: $tmp/ar9.json: the schedule is for 9 nodes but the communicator has 4 ranks" "$tmp/ar9.json"
exec_err 2 "rank 0: $tmp/truncated.json:" "$tmp/truncated.json"
exec_err 2 "rank 0: $tmp/short.json: invalid schedule: " "$tmp/short.json"
exec_err 2 "rank 0: cannot read $tmp/missing.json" "$tmp/missing.json"
exec_err 2 "elements per call exceed MPI's int count (use --only topocoll)" "$tmp/ar4.json" --sizes 16GB
[ ! -s "$tmp/out" ] || fail "topocoll-exec printed results before its error: $(cat "$tmp/out")"

# The wrong schedule, trusted: its results are wrong and the check says so.
exec_err 1 "size 1600: rank " "$tmp/short.json" --trusted --sizes 1600 --iters 1 --warmup 0
grep '^topocoll-exec: ' "$tmp/err" | grep -qE "element [0-9]+ of the result differs: topocoll -?[0-9]+, MPI -?[0-9]+$" ||
  fail "mismatch line: $(cat "$tmp/err")"
# wrong: the dropped transfer carried one unit of its shard (torus(2,2)'s BFB allgather has 2
# units per shard) to one rank: 50 of the rank's 100-element shards never arrive there.
python3 -c "import json; x = json.load(open('$tmp/short.json'))['schedule']; assert x['units'] == 2" ||
  fail "short.json: the units per shard changed; recount the wrong elements"
t='[0-9.e+-]*'
grep -qx "{\"size_bytes\": 1600, \"count\": 100, \"inplace\": false, \"time_s\": $t, \"time_min_s\": $t, \"time_max_s\": $t, \"mpi_time_s\": $t, \"mpi_time_min_s\": $t, \"mpi_time_max_s\": $t, \"wrong\": 50, \"verified\": false}" "$tmp/out" ||
  fail "mismatch not reported as verified false: $(cat "$tmp/out")"
# Every size is still run and reported: one error line per wrong size.
mpi -np 4 "$build/topocoll-exec" "$tmp/short.json" --trusted --sizes 1600,3200,1600 --iters 1 --warmup 0 >"$tmp/out" 2>"$tmp/err"
[ $? -eq 1 ] || fail "three wrong sizes: exit status not 1"
[ "$(grep -c '"verified": false' "$tmp/out")" -eq 3 ] || fail "three wrong sizes: $(cat "$tmp/out")"
[ "$(grep -c '^topocoll-exec: size ' "$tmp/err")" -eq 3 ] || fail "three wrong sizes: $(cat "$tmp/err")"
# In place too: each variant's mismatch has its line, the in-place one says so.
mpi -np 4 "$build/topocoll-exec" "$tmp/short.json" --trusted --sizes 1600 --inplace both --iters 1 --warmup 0 \
  >"$tmp/out" 2>"$tmp/err"
[ $? -eq 1 ] || fail "wrong in both variants: exit status not 1"
[ "$(grep -c '"verified": false' "$tmp/out")" -eq 2 ] || fail "wrong in both variants: $(cat "$tmp/out")"
grep -q '^topocoll-exec: size 1600 in place: rank [0-3]: element ' "$tmp/err" || fail "in-place mismatch line: $(cat "$tmp/err")"

finish mpi_exec_driver
