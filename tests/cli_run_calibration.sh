#!/usr/bin/env bash
# cli_run_calibration.sh — `run --calibration-out FILE` (issue #14 §8): α and the link
# bandwidth fitted to the measured times of the schedule that ran, for `plan --calibration`.
# Measured times are this machine's, so the checks are of consistency, not of values: the
# file is one plan accepts; "sizes" counts the sizes run; and max_rel_err is exactly the
# largest relative error of the fitted model steps·α + tau·M/(degree·b) — steps, tau and
# degree from `verify --json` of the same schedule — against run's own reported times.
set -u
bin=$1
build=$(dirname "$bin")
. "$(dirname "$0")/lib_cli.sh"
unset TOPOCOLL_EXEC TOPOCOLL_MPIRUN
[ -x "$build/topocoll-exec" ] || { echo "FAIL: no $build/topocoll-exec" >&2; exit 1; }

expect 0 "$bin" sched 'biring(2,8)' --coll allreduce --algo bfb --out "$tmp/ar.json"
# A loaded machine can make the measured times fit a negative alpha or a flat slope, which
# run refuses (one line saying so) rather than write fiction; only that refusal is
# measured again, at most three times. Any other outcome is checked at once.
for attempt in 1 2 3; do
  timeout 120 "$bin" run "$tmp/ar.json" --sizes 1KB,16KB,256KB,1MB --inplace 0 --mpirun-args "-x ASAN_OPTIONS=detect_leaks=0" \
    --json --calibration-out "$tmp/cal.json" >"$tmp/out" 2>"$tmp/err"
  got=$?
  [ "$got" -ne 0 ] && grep -qE "fit a negative alpha|do not grow with the size" "$tmp/err" && [ "$attempt" -lt 3 ] && continue
  [ "$got" -eq 0 ] || fail "run --calibration-out exited $got: $(cat "$tmp/err")"
  break
done
cp "$tmp/out" "$tmp/run.json"
expect 0 "$bin" verify "$tmp/ar.json" --json
cp "$tmp/out" "$tmp/verify.json"
python3 - "$tmp/cal.json" "$tmp/run.json" "$tmp/verify.json" "$tmp/ar.json" <<'PY' || fail "calibration file: $(cat "$tmp/cal.json")"
import json, sys
from fractions import Fraction as F
cal, run, ver = (json.load(open(p)) for p in sys.argv[1:4])
assert cal["format"] == "topocoll-calibration" and cal["version"] == 1, cal
assert cal["sizes"] == 4 and cal["source"] == "run " + sys.argv[4], cal
a, b = cal["alpha_s"], cal["link_bw_Bps"]
assert a >= 0 and b > 0, cal
steps, tau, deg = ver["steps"], float(F(ver["tb_factor"])), ver["degree"]
err = max(abs(steps * a + tau * r["size_bytes"] / (deg * b) - r["time_s"]) / r["time_s"] for r in run["results"])
assert abs(err - cal["max_rel_err"]) <= 1e-9 * max(err, 1e-12), (err, cal["max_rel_err"])
PY
# plan takes it
expect 0 "$bin" plan --nodes 8 --degree 2 --calibration "$tmp/cal.json" --size 1MB --out "$tmp/p"
grep -q "^calibration  alpha .* from $tmp/cal.json (fitted to 4 sizes, largest error " "$tmp/out" ||
  fail "plan --calibration: $(head -1 "$tmp/out")"

# a target no writer accepts is refused before anything runs
mkdir "$tmp/dir"
expect_err 2 "topocoll run: cannot write $tmp/dir: it is a directory" "$bin" run "$tmp/ar.json" --sizes 1KB --calibration-out "$tmp/dir"

finish cli_run_calibration
