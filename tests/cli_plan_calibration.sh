#!/usr/bin/env bash
# cli_plan_calibration.sh — `plan --calibration FILE` (issue #14 §8): α and the link
# bandwidth from a calibration file (what `run --calibration-out` writes) instead of
# --alpha and --link-bw. By hand: α = 20 µs, b = 1.25 GB/s (10 Gbit/s) on N = 16, d = 4:
# the duplex choice circulant(16,3,4) allreduces in 6α + 15/8·M/(4b) = 120 + 375 = 495.0 µs
# at 1 MB — the same as the plan with --alpha 20us --link-bw 10Gbps.
bin=${1:?usage: cli_plan_calibration.sh TOPOCOLL}
. "$(dirname "$0")/lib_cli.sh"

cal=$tmp/cal.json
printf '{"format": "topocoll-calibration", "version": 1, "alpha_s": 2e-05, "link_bw_Bps": 1.25e9,\n "max_rel_err": 0.031, "sizes": 8, "source": "by hand"}\n' >"$cal"
expect 0 "$bin" plan --nodes 16 --degree 4 --calibration "$cal" --size 1MB --out "$tmp/p"
grep -qx "calibration  alpha 20.0 us, link bandwidth 10 Gbit/s from $cal (fitted to 8 sizes, largest error 3.1 %)" "$tmp/out" ||
  fail "calibration line: $(head -2 "$tmp/out")"
grep -qx 'allreduce    6 steps, T_B factor 15/8, expected time 495.0 us (verified schedule)' "$tmp/out" ||
  fail "calibrated plan's time: $(grep allreduce "$tmp/out")"
grep -qxF '| per-step latency α | 20.0 µs |' "$tmp/p/summary.md" || fail "summary.md α"
grep -qxF '| link bandwidth b | 10 Gbit/s (node bandwidth B = d·b = 40 Gbit/s) |' "$tmp/p/summary.md" || fail "summary.md b"
# the same plan as the options give
expect 0 "$bin" plan --nodes 16 --degree 4 --alpha 20us --link-bw 10Gbps --size 1MB --out "$tmp/q"
cmp -s "$tmp/p/summary.md" "$tmp/q/summary.md" || fail "the calibrated summary.md differs from --alpha 20us --link-bw 10Gbps"

# refusals: one line, exit 2, nothing written
expect_err 2 "topocoll plan: --calibration gives alpha and the link bandwidth; --alpha does not apply beside it" \
  "$bin" plan --nodes 16 --degree 4 --calibration "$cal" --alpha 1us --size 1MB --out "$tmp/bad"
expect_err 2 "topocoll plan: --calibration gives alpha and the link bandwidth; --link-bw does not apply beside it" \
  "$bin" plan --nodes 16 --degree 4 --calibration "$cal" --link-bw 1Gbps --size 1MB --out "$tmp/bad"
expect_err 2 "topocoll plan: cannot read $tmp/none.json: No such file or directory" \
  "$bin" plan --nodes 16 --degree 4 --calibration "$tmp/none.json" --size 1MB --out "$tmp/bad"
printf '{"format": "topocoll-calibration", "version": 1, "alpha_s": 1e-6, "link_bw_Bps": -5}\n' >"$tmp/neg.json"
expect_err 2 "topocoll plan: $tmp/neg.json: link_bw_Bps: -5 must be > 0" \
  "$bin" plan --nodes 16 --degree 4 --calibration "$tmp/neg.json" --size 1MB --out "$tmp/bad"
expect_err 2 "topocoll plan: --calibration gives alpha and the link bandwidth; give the sizes with --size" \
  "$bin" plan --nodes 16 --degree 4 --calibration "$cal" --out "$tmp/bad"
[ ! -e "$tmp/bad" ] || fail "a refused plan created its directory"

finish cli_plan_calibration
