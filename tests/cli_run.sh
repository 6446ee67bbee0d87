#!/usr/bin/env bash
# cli_run.sh — drives `topocoll run`: schedules from `topocoll sched` run under
# mpirun by the real executor (topocoll-exec, found beside the CLI in the build directory)
# and checked against the MPI library's own collective — every size verified, the JSON
# report's shape and values exact (the requested sizes in bytes, in order; np; collective,
# algorithm, dtype, op) — for BFB allreduce on torus(2,2) (4 ranks) and kautz(2,1) (6),
# the ring allgather on uniring(1,5) and a BFB reduce-scatter on biring(2,8) (8, in place,
# int64 max), Kautz-C / Kautz-M broadcast, reduce, scatter, gather and multi-path p2p on
# kautz(2,1) (6); out of place and in place side by side (--inplace both, the default;
# broadcast and p2p: in place n/a); the text table. A recording stand-in executor then checks the exact command
# line `run` launches (mpirun -np N, --trusted, the sizes in bytes, dtype, op, iters,
# warmup, --inplace V, --mpirun-args) and how `run` treats a failing, hanging, garbling,
# short or disagreeing executor: one line, exit 1, no process left behind. Bad input is
# refused before anything is launched: one line, exit 2 (an invalid schedule: exit 1, as in
# `topocoll verify`); a missing executor or mpirun: exit 1.
set -u
bin=$1
build=$(dirname "$bin")
. "$(dirname "$0")/lib_cli.sh"
unset TOPOCOLL_EXEC TOPOCOLL_MPIRUN
# The sanitizer build's executor must not report Open MPI's deliberate leaks.
mpiargs="-x ASAN_OPTIONS=detect_leaks=0"
# Nothing may hang: every launch is bounded twice, by `run --timeout` and by timeout(1).
T="timeout 120"

[ -x "$build/topocoll-exec" ] || { echo "FAIL: no $build/topocoll-exec" >&2; exit 1; }

# check_run FILE NP COLL ALGO DTYPE OP SIZES... : the JSON report in $tmp/out
check_run() {
  python3 - "$tmp/out" "$@" <<'PY' || fail "run report ($*): $(cat "$tmp/out")"
import json, sys
j = json.load(open(sys.argv[1]))
f, np, coll, algo, dtype, op = sys.argv[2:8]
sizes = [int(s) for s in sys.argv[8:]]
assert j["verified"] is True, j["verified"]
assert j["np"] == int(np) and j["file"] == f, (j["np"], j["file"])
assert (j["collective"], j["algorithm"], j["dtype"], j["op"]) == (coll, algo, dtype, op)
assert [r["size_bytes"] for r in j["results"]] == sizes, [r["size_bytes"] for r in j["results"]]
na = {"broadcast": "MPI_Bcast has one buffer", "p2p": "MPI_Send and MPI_Recv have one buffer each"}.get(coll)
assert j["in_place_na"] == na, j["in_place_na"]
for r in j["results"]:
    assert set(r) >= {"size_bytes", "count", "time_s", "mpi_time_s", "verified"}, r
    for v, key in enumerate(("out_of_place", "in_place")):
        side = r[key]
        if j["inplace"] not in ("both", str(v)) or (v and na):
            assert side is None, (key, r)
            continue
        assert side["verified"] is True and side["wrong"] == 0, (key, r)
        assert 0 < side["time_min_us"] <= side["time_us"] <= side["time_max_us"], (key, r)
        assert abs(side["algbw"] - r["size_bytes"] / side["time_us"] / 1e3) <= 1e-9 * side["algbw"], (key, r)
        assert abs(side["busbw"] - side["algbw"] * j["busbw_factor"]) <= 1e-9 * side["busbw"], (key, r)
        assert side["mpi_time_us"] > 0, (key, r)
    flat = r["out_of_place"] if r["out_of_place"] else r["in_place"]  # the flat keys: the first variant run
    assert flat["time_us"] == r["time_s"] * 1e6 and flat["wrong"] == r["wrong"], r
    assert r["verified"] is True and r["wrong"] == 0, r
    assert 0 < r["time_min_s"] <= r["time_s"] <= r["time_max_s"], r
    assert 0 < r["mpi_time_min_s"] <= r["mpi_time_s"] <= r["mpi_time_max_s"], r
    assert isinstance(r["time_s"], float) and r["time_s"] > 0, r
    assert isinstance(r["mpi_time_s"], float) and r["mpi_time_s"] > 0, r
    assert abs(r["algbw"] - r["size_bytes"] / r["time_s"] / 1e9) <= 1e-9 * r["algbw"], r
    assert abs(r["mpi_algbw"] - r["size_bytes"] / r["mpi_time_s"] / 1e9) <= 1e-9 * r["mpi_algbw"], r
    assert abs(r["busbw"] - r["algbw"] * j["busbw_factor"]) <= 1e-9 * r["busbw"], r
    assert abs(r["mpi_busbw"] - r["mpi_algbw"] * j["busbw_factor"]) <= 1e-9 * r["mpi_busbw"], r
PY
}

# ---- help ----
expect 0 "$bin" --help
grep -q '^  run ' "$tmp/out" || fail "--help does not list run"
expect 0 "$bin" help run
for opt in --np --sizes --dtype --op --iters --warmup --inplace --timeout --mpirun-args --json --progress --quiet TOPOCOLL_EXEC \
  TOPOCOLL_MPIRUN; do
  grep -q -- "$opt" "$tmp/out" || fail "help run lacks $opt"
done

# ---- plans ----
cd "$tmp" || exit 1
"$bin" sched 'torus(2,2)' --coll allreduce --algo bfb --out ar-torus.json >/dev/null || fail "sched torus"
"$bin" sched 'kautz(2,1)' --coll allreduce --algo bfb --out ar-kautz.json >/dev/null || fail "sched kautz"
"$bin" sched 'uniring(1,5)' --coll allgather --algo ring --out ag-ring.json >/dev/null || fail "sched ring"
"$bin" sched 'biring(2,8)' --coll reduce-scatter --algo bfb --out rs-biring.json >/dev/null || fail "sched biring"

# ---- real runs, checked against MPI's own collective ----
small="1000 2000 4000 8000 16000 32000 64000"
expect 0 $T "$bin" run ar-torus.json --sizes 1KB..64KB --json --mpirun-args "$mpiargs"
check_run ar-torus.json 4 allreduce bfb int32 sum $small

expect 0 $T "$bin" run ar-kautz.json --np 6 --sizes 1KB..64KB --dtype double --json --mpirun-args "$mpiargs"
check_run ar-kautz.json 6 allreduce bfb double sum $small

expect 0 $T "$bin" run ag-ring.json --sizes 1KB,4KiB,65536 --dtype float --iters 2 --warmup 0 --json \
  --mpirun-args "$mpiargs"
# Rounded down to whole floats on each of the 5 ranks: 4096 -> 4080, 65536 -> 65520.
check_run ag-ring.json 5 allgather ring float sum 1000 4080 65520

expect 0 $T "$bin" run rs-biring.json --sizes 8KB..64KB --dtype int64 --op max --inplace 1 --iters 2 --json \
  --mpirun-args "$mpiargs"
check_run rs-biring.json 8 reduce-scatter bfb int64 max 8000 16000 32000 64000
python3 -c "import json; assert json.load(open('$tmp/out'))['inplace'] == '1'" || fail "inplace not reported"

# The rooted collectives and p2p (paper 002's Kautz-C / Kautz-M on kautz(2,1), 6 ranks):
# a scatter's and gather's M is the root's buffer, N blocks of whole elements (1000 B on 6
# ranks of int32: 6 x 41 x 4 = 984 B); broadcast, reduce and p2p move the whole M.
"$bin" sched 'kautz(2,1)' --coll broadcast --algo kautz-c --root 2 --out bc.json >/dev/null || fail "sched broadcast"
"$bin" sched 'kautz(2,1)' --coll reduce --algo kautz-m --root 5 --out red.json >/dev/null || fail "sched reduce"
"$bin" sched 'kautz(2,1)' --coll scatter --algo kautz-c --root 1 --out sc.json >/dev/null || fail "sched scatter"
"$bin" sched 'kautz(2,1)' --coll gather --algo kautz-m --root 4 --out ga.json >/dev/null || fail "sched gather"
"$bin" sched 'kautz(2,1)' --coll p2p --algo kautz-mp --src 3 --dst 0 --out p2p.json >/dev/null || fail "sched p2p"
expect 0 $T "$bin" run bc.json --sizes 1KB,64KB --iters 2 --json --mpirun-args "$mpiargs"
check_run bc.json 6 broadcast kautz-c int32 sum 1000 64000
expect 0 $T "$bin" run red.json --sizes 1KB,64KB --op max --iters 2 --json --mpirun-args "$mpiargs"
check_run red.json 6 reduce kautz-m int32 max 1000 64000
expect 0 $T "$bin" run sc.json --sizes 1KB,64KB --inplace 1 --iters 2 --json --mpirun-args "$mpiargs"
check_run sc.json 6 scatter kautz-c int32 sum 984 63984
expect 0 $T "$bin" run ga.json --sizes 1KB,64KB --dtype double --iters 2 --json --mpirun-args "$mpiargs"
check_run ga.json 6 gather kautz-m double sum 960 63984
expect 0 $T "$bin" run p2p.json --sizes 1KB,64KB --iters 2 --json --mpirun-args "$mpiargs"
check_run p2p.json 6 p2p kautz-mp int32 sum 1000 64000

# The table: a header naming the plan, one row per size, every row verified.
expect 0 $T "$bin" run ar-torus.json --sizes 1KB,1MiB --mpirun-args "$mpiargs"
grep -q '^allreduce "bfb" on torus(2,2), 4 ranks, int32 sum' "$tmp/out" || fail "table header: $(cat "$tmp/out")"
grep -q '^busbw = algbw x 1.5, nccl-tests'"'"' factor for allreduce on 4 ranks$' "$tmp/out" || fail "busbw line: $(cat "$tmp/out")"
cores=$(getconf _NPROCESSORS_ONLN)
if [ "$cores" -lt 4 ]; then # more ranks than cores: the table says so
  grep -q "^warning: 4 ranks on $cores cores: ranks wait for a core, so the times are longer than the network's$" \
    "$tmp/out" || fail "oversubscription warning: $(cat "$tmp/out")"
else
  ! grep -q '^warning' "$tmp/out" || fail "warning with enough cores: $(cat "$tmp/out")"
fi
# nccl-tests' row: size count type redop root | out of place: time algbw busbw #wrong | in
# place: the same | MPI's own time out of place and in place.
grep -Eq '^ +size +count +type +redop +root +time\(us\) +algbw +busbw +#wrong +time\(us\) +algbw +busbw +#wrong +oop\(us\) +ip\(us\)$' \
  "$tmp/out" || fail "table columns: $(cat "$tmp/out")"
num='[0-9]+\.[0-9]+'
grep -Eq "^ +1 KB +250 +int32 +sum +- +($num +){3}0 +($num +){3}0 +$num +$num\$" "$tmp/out" ||
  fail "table row 1 KB: $(cat "$tmp/out")"
python3 - "$tmp/out" <<'PY' || fail "busbw columns: $(cat "$tmp/out")"
import sys
row = next(l.split() for l in open(sys.argv[1]) if l.startswith("        1 KB"))
for first in (6, 10):  # out of place, in place
    t, algbw, busbw = (float(x) for x in row[first:first + 3])
    assert abs(algbw - 1000 / (t * 1e-6) / 1e9) <= 0.0006 + algbw * 0.01, row  # the table's rounding of t
    assert abs(busbw - 1.5 * algbw) <= 0.0016, row
PY
grep -Eq "^ +1 MiB +262144 +int32 +sum +- +($num +){3}0 +($num +){3}0 +$num +$num\$" "$tmp/out" ||
  fail "table row 1 MiB: $(cat "$tmp/out")"
[ ! -s "$tmp/err" ] || fail "stderr not a terminal, yet progress lines: $(cat "$tmp/err")"
# Broadcast has no in-place form: n/a, and why.
expect 0 $T "$bin" run bc.json --sizes 1KB --iters 1 --mpirun-args "$mpiargs"
grep -qx 'in place: n/a, broadcast has no in-place form in MPI (MPI_Bcast has one buffer)' "$tmp/out" ||
  fail "broadcast n/a line: $(cat "$tmp/out")"
grep -Eq "^ +1 KB +250 +int32 +- +2 +($num +){3}0 +n/a +n/a +n/a +n/a +$num +n/a\$" "$tmp/out" ||
  fail "broadcast row: $(cat "$tmp/out")"
expect_err 2 "topocoll run: --inplace 1: broadcast has no in-place form in MPI (MPI_Bcast has one buffer); use --inplace 0 or both" \
  "$bin" run bc.json --inplace 1
expect_err 2 "topocoll run: --inplace 1: p2p has no in-place form in MPI (MPI_Send and MPI_Recv have one buffer each); use --inplace 0 or both" \
  "$bin" run p2p.json --inplace 1

# ---- the launch contract, with a recording stand-in executor ----
# Rank 0 writes its argv and the world size, then answers like topocoll-exec; FAKE_MODE
# (inherited through mpirun) makes it fail, hang, garble, stop short or disagree.
cat >"$tmp/fake-exec" <<'PY'
#!/usr/bin/env python3
import json, os, sys, time
mode, rank = os.environ.get("FAKE_MODE", "ok"), os.environ.get("OMPI_COMM_WORLD_RANK", "0")
if rank == "0":
    with open(os.environ["FAKE_LOG"], "w") as f:
        f.write(os.environ.get("OMPI_COMM_WORLD_SIZE", "?") + " " + " ".join(sys.argv[1:]) + "\n")
if mode == "hang":
    time.sleep(1000)
if mode == "fail":
    print("mpi noise\ntopocoll-exec: deliberate failure\n-----", file=sys.stderr)
    sys.exit(3)
if rank != "0":
    sys.exit(0)
sizes = [int(s) for s in sys.argv[sys.argv.index("--sizes") + 1].split(",")]
variants = {"0": [False], "1": [True], "both": [False, True]}[sys.argv[sys.argv.index("--inplace") + 1]]
for i, s in enumerate(sizes):
    if mode == "short" and i == 1: break
    if mode == "resize": s += 4
    for inplace in variants:
        if mode == "garble" and i == 1: print("not json"); continue
        ok = None if mode == "unchecked" else not (mode == "disagree" and i == 1 and not inplace)
        if not ok and ok is not None:
            print(f"topocoll-exec: size {s}: rank 1: element 5 of the result differs: topocoll 3, MPI 4", file=sys.stderr)
        t = 0.004 if inplace else 0.002  # in place: twice the time, to tell the columns apart
        print(json.dumps({"size_bytes": s, "count": s // 4, "inplace": inplace != (mode == "swap"), "time_s": t,
                          "time_min_s": 0.0015, "time_max_s": 0.005, "mpi_time_s": 0.001, "mpi_time_min_s": 0.0008,
                          "mpi_time_max_s": 0.0012, "wrong": None if ok is None else 0 if ok else 7, "verified": ok}),
              flush=True)
sys.exit(1 if mode == "disagree" else 0)
PY
chmod +x "$tmp/fake-exec"
export FAKE_LOG="$tmp/fake.log"
fake() { FAKE_MODE=$1 TOPOCOLL_EXEC="$tmp/fake-exec" $T "$bin" run "${@:2}"; }

expect 0 fake ok ar-kautz.json --sizes 1KB..4KB,1MiB --dtype float --op min --iters 7 --warmup 3 --inplace 1 \
  --mpirun-args "$mpiargs -x FAKE_EXTRA=1" --json
[ "$(cat "$FAKE_LOG")" = "6 $tmp/ar-kautz.json --sizes 1000,2000,4000,1048576 --dtype float --op min --iters 7 --warmup 3 --inplace 1 --trusted" ] ||
  fail "executor command line: $(cat "$FAKE_LOG")"
python3 - "$tmp/out" <<'PY' || fail "fake report: $(cat "$tmp/out")"
import json, sys
j = json.load(open(sys.argv[1]))
r = j["results"][3]
# --inplace 1: the in-place variant alone, and the flat keys are its
assert (r["size_bytes"], r["count"], r["time_s"], r["mpi_time_s"]) == (1048576, 262144, 0.004, 0.001), r
assert (r["time_min_s"], r["time_max_s"], r["mpi_time_min_s"], r["mpi_time_max_s"]) == (0.0015, 0.005, 0.0008, 0.0012), r
assert r["wrong"] == 0 and r["verified"] is True and r["out_of_place"] is None, r
assert r["algbw"] == 1048576 / 0.004 / 1e9 and r["mpi_algbw"] == 1048576 / 0.001 / 1e9, r
# allreduce on 6 ranks (kautz(2,1)): nccl-tests' busbw factor 2(N-1)/N = 5/3
assert j["busbw_factor"] == 10 / 6 and r["busbw"] == 1048576 / 0.004 / 1e9 * (10 / 6), (j["busbw_factor"], r)
assert r["mpi_busbw"] == 1048576 / 0.001 / 1e9 * (10 / 6), r
ip = r["in_place"]
assert (ip["time_us"], ip["time_min_us"], ip["time_max_us"], ip["mpi_time_us"]) == (0.004 * 1e6, 0.0015 * 1e6, 0.005 * 1e6, 0.001 * 1e6), ip
assert (ip["algbw"], ip["busbw"], ip["wrong"], ip["verified"]) == (r["algbw"], r["busbw"], 0, True), ip
assert j["iters"] == 7 and j["warmup"] == 3 and j["inplace"] == "1" and j["in_place_na"] is None
PY
# Ranges include their top (nccl-tests' -b/-e), K/M are binary, --factor steps them.
expect 0 fake ok ar-torus.json --sizes 1K..20K --factor 4 --mpirun-args "$mpiargs" --json
[ "$(cat "$FAKE_LOG")" = "4 $tmp/ar-torus.json --sizes 1024,4096,16384,20480 --dtype int32 --op sum --iters 5 --warmup 1 --inplace both --trusted" ] ||
  fail "--factor 4: $(cat "$FAKE_LOG")"
expect 0 fake ok ar-torus.json --mpirun-args "$mpiargs" --json # the default 1KB..1MB ends at 1 MB
grep -q -- "--sizes 1000,2000,4000,8000,16000,32000,64000,128000,256000,512000,1000000 " "$FAKE_LOG" ||
  fail "default sizes: $(cat "$FAKE_LOG")"
# Within the memory estimate (4 x (5 x 64 MiB + 32 MiB) = 1.48 GB): launched.
expect 0 fake ok ar-torus.json --sizes 1K,64M --max-memory 1.5GB --mpirun-args "$mpiargs" # 1.48 GB: fits
grep -q -- "--sizes 1024,67108864 " "$FAKE_LOG" || fail "1K,64M within --max-memory 1.5GB: $(cat "$FAKE_LOG")"
# One row per size, out of place then in place; one unit for times (us); busbw = algbw x
# 2(N-1)/N = 1.5 on 4 ranks.
expect 0 fake ok ar-torus.json --sizes 2MB --mpirun-args "$mpiargs"
grep -Eq '^ +2 MB +500000 +int32 +sum +- +2000\.00 +1\.000 +1\.500 +0 +4000\.00 +0\.500 +0\.750 +0 +1000\.00 +1000\.00$' \
  "$tmp/out" || fail "fake table row: $(cat "$tmp/out")"
expect 0 fake ok ar-torus.json --sizes 2MB --inplace 0 --mpirun-args "$mpiargs"
grep -Eq '^ +2 MB +500000 +int32 +sum +- +2000\.00 +1\.000 +1\.500 +0 +- +- +- +- +1000\.00 +-$' \
  "$tmp/out" || fail "fake table row, --inplace 0: $(cat "$tmp/out")"
expect_err 2 "topocoll run: --inplace must be 0, 1 or both, got '2'" "$bin" run ar-torus.json --inplace 2
# Progress: one line per size as the executor reports it, when asked (--progress or
# TOPOCOLL_PROGRESS=1; stderr here is no terminal), never with --quiet.
expect 0 fake ok ar-torus.json --sizes 1KB,2MB --iters 3 --mpirun-args "$mpiargs" --progress
python3 - "$tmp/err" <<'PY' || fail "run progress lines: $(cat "$tmp/err")"
import re, sys
lines = [l.rstrip("\n") for l in open(sys.argv[1])]
assert all(re.match(r"topocoll run: \[[0-9]+\.[0-9] s\] ", l) for l in lines), lines
assert [l.split("] ", 1)[1] for l in lines] == ["mpirun -np 4: 2 sizes, 3 timed iterations each (after 1 warm-up)",
                                                "1 KB done (size 1 of 2)", "2 MB done (size 2 of 2)"], lines
PY
TOPOCOLL_PROGRESS=1 expect 0 fake ok ar-torus.json --sizes 1KB --mpirun-args "$mpiargs"
[ "$(grep -c '^topocoll run: \[' "$tmp/err")" -eq 2 ] || fail "TOPOCOLL_PROGRESS=1: $(cat "$tmp/err")"
TOPOCOLL_PROGRESS=1 expect 0 fake ok ar-torus.json --sizes 1KB --mpirun-args "$mpiargs" --quiet
[ ! -s "$tmp/err" ] || fail "--quiet, yet progress lines: $(cat "$tmp/err")"
expect_err 2 "topocoll run: --progress and --quiet exclude each other" "$bin" run ar-torus.json --progress --quiet

expect_err 1 "mpirun exited with status 3: topocoll-exec: deliberate failure" fake fail ar-torus.json
expect_err 1 "output line 3: not JSON" fake garble ar-torus.json --sizes 1KB..4KB
expect_err 1 "topocoll run: topocoll-exec reported 2 of the 6 results requested (3 sizes, out of place and in place)" \
  fake short ar-torus.json --sizes 1KB..4KB
expect_err 1 "topocoll run: topocoll-exec reported 1 of the 3 requested sizes" fake short ar-torus.json --sizes 1KB..4KB \
  --inplace 0
expect_err 1 "topocoll run: topocoll-exec output line 1 reports the in-place variant, expected out of place" \
  fake swap ar-torus.json --sizes 1KB
expect_err 1 "output line 1 reports size 1004, expected 1000" fake resize ar-torus.json --sizes 1KB..4KB
expect 1 fake disagree ar-torus.json --sizes 1KB..4KB --json
grep -q "1 of 3 sizes not verified (first: 2 KB: size 2000: rank 1: element 5 of the result differs: topocoll 3, MPI 4)" "$tmp/err" ||
  fail "disagreement not reported: $(cat "$tmp/err")"
python3 -c "import json; j=json.load(open('$tmp/out')); assert j['verified'] is False and j['results'][1]['verified'] is False and j['results'][1]['wrong'] == 7" ||
  fail "disagreement JSON: $(cat "$tmp/out")"
expect 1 fake unchecked ar-torus.json --sizes 1KB
grep -q "the executor did not check it" "$tmp/err" || fail "unchecked size accepted: $(cat "$tmp/err")"
grep -Eq '^ +1 KB +250 +int32 +sum +- +2000\.00 +0\.001 +0\.001 +- +4000\.00 +0\.000 +0\.000 +- +1000\.00 +1000\.00$' \
  "$tmp/out" || fail "unchecked row: $(cat "$tmp/out")"
expect_err 1 "mpirun timed out after 1 s; it and every rank were killed" fake hang ar-torus.json --timeout 1
# pgrep (procps) must exist: without it this check would pass without looking.
pgrep_status=0
pgrep -f "$tmp/fake-exec" >/dev/null 2>&1 || pgrep_status=$?
case $pgrep_status in
  0) fail "a timed-out rank is still running" ;;
  1) ;;
  127) fail "pgrep not found: cannot check that timed-out ranks were killed (install procps: scripts/deps.sh)" ;;
  *) fail "pgrep failed with status $pgrep_status: cannot check that timed-out ranks were killed" ;;
esac

# ---- refused before launching: exit 2 (input), 1 (invalid schedule, missing programs) ----
rm -f "$FAKE_LOG"
expect_err 2 "--np 5 does not match the schedule's 4 nodes" fake ok ar-torus.json --np 5
expect_err 2 "missing SCHEDULE.json" "$bin" run --np 4
expect_err 2 "nope.json" "$bin" run nope.json
printf '{"format": "topocoll-schedule", "version": 1, "graph": ' >corrupt.json
expect_err 2 "corrupt.json" "$bin" run corrupt.json
expect_err 2 "--sizes" "$bin" run ar-torus.json --sizes 1KB..x
expect_err 2 "--sizes" "$bin" run ar-torus.json --sizes 8KB..1KB
expect_err 2 "topocoll run: --factor expects an integer in 2..1073741824, got '1'" "$bin" run ar-torus.json --factor 1
# The memory estimate (5 buffers of the largest size and 32 MiB per rank), refused before launching.
expect_err 2 "topocoll run: 4 ranks at 256 MiB need about 5.5 GB (5 buffers of the size and 32 MiB per rank) but the memory limit is 1.0 GB (the memory available, or --max-memory); use smaller --sizes or fewer ranks" \
  fake ok ar-torus.json --sizes 1K,256M --max-memory 1GB
[ ! -e "$FAKE_LOG" ] || fail "the memory refusal launched the executor"
expect_err 2 "--dtype must be int32, int64, float or double, got 'int8'" "$bin" run ar-torus.json --dtype int8
expect_err 2 "--op must be sum, max or min, got 'prod'" "$bin" run ar-torus.json --op prod
expect_err 2 "--iters expects an integer in 1..1000000, got '0'" "$bin" run ar-torus.json --iters 0
expect_err 2 "--timeout" "$bin" run ar-torus.json --timeout -3
expect_err 2 "unknown option '--bogus'" "$bin" run ar-torus.json --bogus
# An invalid schedule: one reduce transfer dropped, so a contribution goes missing.
python3 - ar-torus.json broken.json <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
del d["schedule"]["transfers"][0]
json.dump(d, open(sys.argv[2], "w"))
PY
expect_err 1 "broken.json: invalid schedule, not run" fake ok broken.json
expect_err 1 "TOPOCOLL_EXEC is '/nonexistent', which is not an executable file" \
  env TOPOCOLL_EXEC=/nonexistent "$bin" run ar-torus.json
expect_err 1 "cannot find mpirun on PATH (set TOPOCOLL_MPIRUN)" env PATH=/nonexistent "$bin" run ar-torus.json
expect_err 1 "TOPOCOLL_MPIRUN is '$tmp', which is not an executable file" \
  env TOPOCOLL_MPIRUN="$tmp" "$bin" run ar-torus.json
[ ! -e "$FAKE_LOG" ] || fail "something was launched for refused input: $(cat "$FAKE_LOG")"

finish cli_run
