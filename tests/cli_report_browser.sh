#!/usr/bin/env bash
# cli_report_browser.sh — the report in a real browser (headless Chromium): the page of a
# plan with saved results (run, simulate, train) loads without a console message, every
# figure has a non-empty rendered size, and the page's numbers are plan.json's.
#
# How: chromium-headless-shell --dump-dom prints the DOM after the page's load handler ran;
# that handler writes each figure's rendered width x height into data-rendered. Console
# messages appear in Chromium's log (--enable-logging=stderr) as lines holding "CONSOLE".
# Both checks are first shown able to fail: a copy of the page with an injected
# console.error must be caught, and one with a hidden figure must measure 0x0.
# Exit 77 (CTest: skipped) only when Chromium is not installed.
# $1 = topocoll binary
set -u
bin=$1
. "$(dirname "$0")/lib_cli.sh"

chrome=$(command -v chromium-headless-shell || true)
if [ -z "$chrome" ]; then
  echo "cli_report_browser: SKIP: chromium-headless-shell is not installed (scripts/deps.sh --test)"
  exit 77
fi

# browse PAGE: its DOM in $tmp/dom, Chromium's log in $tmp/log
browse() {
  timeout 60 "$chrome" --headless --no-sandbox --disable-gpu --enable-logging=stderr --v=0 \
    --user-data-dir="$tmp/profile" --virtual-time-budget=5000 --dump-dom "file://$1" >"$tmp/dom" 2>"$tmp/log" ||
    fail "chromium failed on $1: $(tail -3 "$tmp/log")"
}

# sizes: "figure-id WxH" per figure of the DOM
sizes() {
  python3 - "$tmp/dom" <<'EOF'
import re, sys
dom = open(sys.argv[1]).read()
for tag in re.findall(r"<figure [^>]*>", dom):
    fid = re.search(r'id="([^"]*)"', tag)
    size = re.search(r'data-rendered="([^"]*)"', tag)
    print(fid.group(1) if fid else "?", size.group(1) if size else "none")
EOF
}

p=$tmp/p
expect 0 "$bin" plan --nodes 8 --degree 2 --alpha 10us --link-bw 25Gbps --size 1MB,64MB --out "$p"
cat >"$p/run.json" <<'EOF'
{"verified": true, "np": 8, "busbw_factor": 1.75,
 "results": [{"size_bytes": 1000000, "time_s": 0.0012}, {"size_bytes": 64000000, "time_s": 0.0185}]}
EOF
cat >"$p/sim.json" <<'EOF'
{"results": [{"size_bytes": 1000000, "sim_time_s": 0.00065}, {"size_bytes": 64000000, "sim_time_s": 0.0181}],
 "fit": {"intercept_s": 8.8e-5, "slope_s_per_byte": 2.8e-10}}
EOF
cat >"$p/train.json" <<'EOF'
{"command": "train", "iteration_time_s": 0.012, "compute_s": 0.009, "allreduce_exposed_s": 0.003, "alltoall_s": 0,
 "timeline": [{"stream": "compute", "kind": "forward", "layer": 0, "start_s": 0, "end_s": 0.004},
              {"stream": "compute", "kind": "backward", "layer": 0, "start_s": 0.004, "end_s": 0.009},
              {"stream": "comm", "kind": "allreduce", "layer": 0, "start_s": 0.009, "end_s": 0.012}]}
EOF
expect 0 "$bin" report "$p"

# ---- the checks can fail: in one copy of the page, an injected console.error is caught
# and a hidden figure measures 0x0 ----
sed -e 's|</body>|<script>console.error("injected")</script></body>|' \
  -e 's|<figure id="fig-frontier">|<figure id="fig-frontier" style="display:none">|' "$p/report.html" >"$tmp/bad.html"
browse "$tmp/bad.html"
grep -q 'CONSOLE.*"injected"' "$tmp/log" || fail "an injected console.error is not seen in Chromium's log: $(cat "$tmp/log")"
sizes >"$tmp/sizes"
grep -qx 'fig-frontier 0x0' "$tmp/sizes" || fail "a hidden figure does not measure 0x0: $(cat "$tmp/sizes")"

# ---- the report ----
browse "$p/report.html"
! grep -q CONSOLE "$tmp/log" || fail "console messages: $(grep CONSOLE "$tmp/log")"
sizes >"$tmp/sizes"
want="fig-topology fig-frontier fig-time fig-algbw fig-links fig-measured fig-train"
[ "$(cut -d' ' -f1 "$tmp/sizes" | tr '\n' ' ')" = "$want " ] || fail "figures: $(cat "$tmp/sizes")"
while read -r id size; do
  [[ $size =~ ^([0-9]+)x([0-9]+)$ ]] && [ "${BASH_REMATCH[1]}" -gt 0 ] && [ "${BASH_REMATCH[2]}" -gt 0 ] ||
    fail "figure $id rendered as '$size'"
done <"$tmp/sizes"
# the numbers a reader sees, in the rendered DOM, are plan.json's
python3 - "$tmp/dom" "$p/plan.json" <<'EOF' || fail "the page's numbers differ from plan.json"
import json, re, sys
dom = open(sys.argv[1]).read()
plan = json.load(open(sys.argv[2]))
num = dict(re.findall(r'<span class="num" data-key="([a-zA-Z_]+)">([^<]*)</span>', dom))
c = plan["chosen"]
assert float(num["T_L_s"]) == c["T_L_s"] == 8e-5, (num, c)
assert abs(float(num["expected_s"]) / c["expected_s"] - 1) < 1e-8, (num, c)
assert num["tau"] == "%d/%d" % tuple(c["tau"]) == "7/4", (num, c)
assert num["iteration_time_s"] == "12.000 ms", num
EOF

finish cli_report_browser
