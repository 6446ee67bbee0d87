#!/usr/bin/env bash
# cli_report.sh — the HTML report: `plan` writes plan.json, report.html and topology.svg;
# `topocoll report DIR` rebuilds the same page (byte for byte) and adds the results saved in
# DIR, recognised by content whatever their names (run, simulate, forest, a2a, train), and
# lists the JSON it does not understand; the heatmap has one cell per link and step of
# allgather.json; every refusal is one line, exit 2, and leaves the directory as it was.
# The page in a real browser: cli_report_browser.sh.
# $1 = topocoll binary
set -u
bin=$1
. "$(dirname "$0")/lib_cli.sh"

P=(--nodes 8 --degree 2 --alpha 10us --link-bw 25Gbps --size 1MB,64MB)
p=$tmp/p
report_line() { # FIGURES RESULTS IGNORED
  echo "report       $p/report.html ($1 figures; $2 saved results drawn, $3 JSON files not understood) and $p/topology.svg"
}

# ---- help ----
expect 0 "$bin" --help
grep -q '^  report ' "$tmp/out" || fail "--help does not list report"
expect 0 "$bin" help report
grep -qx 'usage: topocoll report DIR' "$tmp/out" || fail "help report: $(head -1 "$tmp/out")"
for word in run simulate forest a2a train topology.svg neato; do
  grep -q -- "$word" "$tmp/out" || fail "help report lacks $word"
done

# ---- plan writes the report ----
expect 0 "$bin" plan "${P[@]}" --out "$p"
grep -qxF "report       $p/report.html and topology.svg ('topocoll report' on the directory rebuilds them with your saved results)" \
  "$tmp/out" || fail "plan's report line: $(cat "$tmp/out")"
for f in plan.json report.html topology.svg; do [ -s "$p/$f" ] || fail "plan did not write $f"; done
python3 - "$p" <<'EOF' || fail "plan.json does not hold the plan's numbers"
import json, sys
d = sys.argv[1]
j = json.load(open(d + "/plan.json"))
assert j["format"] == "topocoll-plan" and j["version"] == 1 and j["nodes"] == 8, j
assert j["spec"] == "biring(2,8)" and j["links"] == "duplex", j
c = j["chosen"]
assert c["steps"] == 8 and c["tau"] == [7, 4], c
assert abs(c["T_L_s"] - 8e-5) < 1e-12, c
assert [s["bytes"] for s in j["workload"]["sizes"]] == [1e6, 64e6], j["workload"]
assert j["curves"][0]["kind"] == "chosen" and j["curves"][0]["steps"] == 8 and j["curves"][0]["tau"] == [7, 4]
m = j["frontier"]["members"]
assert [x["chosen"] for x in m].count(True) == 1, m
EOF
grep -qx 'allreduce    8 steps, T_B factor 7/4, expected time 9.180 ms (verified schedule)' "$tmp/out" ||
  fail "plan's numbers changed: $(cat "$tmp/out")"

# ---- report DIR: the same page, then the saved results ----
cp "$p/report.html" "$tmp/first.html"
expect 0 "$bin" report "$p"
[ "$(cat "$tmp/out")" = "$(report_line 5 0 0)" ] || fail "report: $(cat "$tmp/out")"
cmp -s "$tmp/first.html" "$p/report.html" || fail "report DIR differs from the page plan wrote"
ls -A "$p" | grep -q '^\.report-' && fail "report left its scratch directory: $(ls -A "$p")"
# heatmap: one cell per link and step of allgather.json; the numbers are plan.json's
python3 - "$p" <<'EOF' || fail "report.html does not match allgather.json and plan.json"
import json, re, sys
d = sys.argv[1]
page = open(d + "/report.html").read()
ag = json.load(open(d + "/allgather.json"))
cells = page.count('<rect class="cell"')
assert cells == ag["schedule"]["steps"] * len(ag["graph"]["arcs"]) == 4 * 16, cells
j = json.load(open(d + "/plan.json"))
num = dict(re.findall(r'<span class="num" data-key="([a-zA-Z_]+)">([^<]*)</span>', page))
assert float(num["T_L_s"]) == j["chosen"]["T_L_s"], num
assert abs(float(num["expected_s"]) / j["chosen"]["expected_s"] - 1) < 1e-8, num
assert num["tau"] == "7/4", num
# the headline leads with the unit form, the exact value after it
assert '<dt>allreduce T_L</dt><dd>80.0 us = <span class="num" data-key="T_L_s">8e-05</span> s: 8 steps of alpha,' in page
assert '<dt>expected allreduce time</dt><dd>9.180 ms = <span class="num" data-key="expected_s">' in page
# tick labels in their shortest form; no "100.000 ms"
assert ">1 ms</text>" in page and ".000 ms</text>" not in page and ".0 us</text>" not in page
for fig in ["fig-topology", "fig-frontier", "fig-time", "fig-algbw", "fig-links"]:
    assert '<figure id="%s">' % fig in page, fig
assert "<script src" not in page and "http://" not in page.replace('xmlns="http://www.w3.org/2000/svg"', "").replace(
    "http://www.w3.org/1999/xlink", ""), "the page refers to the network"
EOF

# results saved under any names; two files it does not understand
cat >"$p/measured-on-cluster.json" <<'EOF'
{"verified": true, "np": 8, "busbw_factor": 1.75,
 "results": [{"size_bytes": 1000000, "count": 250000, "time_s": 0.0012, "algbw": 0.83},
             {"size_bytes": 64000000, "count": 16000000, "time_s": 0.0185, "algbw": 3.46}]}
EOF
cat >"$p/sim.json" <<'EOF'
{"busbw_factor": 1.75, "results": [{"size_bytes": 1000000, "sim_time_s": 0.00065, "model_time_s": 0.00064},
                                   {"size_bytes": 64000000, "sim_time_s": 0.0181, "model_time_s": 0.0180}],
 "fit": {"alpha_s": 1.1e-5, "inv_bw_s_per_byte": 3.3e-10, "max_rel_err": 0.01, "intercept_s": 8.8e-5,
         "slope_s_per_byte": 2.8e-10}}
EOF
cat >"$p/train.json" <<'EOF'
{"command": "train", "iteration_time_s": 0.012, "compute_s": 0.009, "allreduce_exposed_s": 0.003, "alltoall_s": 0,
 "timeline": [
  {"stream": "compute", "kind": "forward", "layer": 0, "start_s": 0, "end_s": 0.003},
  {"stream": "compute", "kind": "backward", "layer": 1, "start_s": 0.003, "end_s": 0.006},
  {"stream": "compute", "kind": "backward", "layer": 0, "start_s": 0.006, "end_s": 0.009},
  {"stream": "comm", "kind": "allreduce", "layer": 1, "start_s": 0.006, "end_s": 0.0085},
  {"stream": "comm", "kind": "allreduce", "layer": 0, "start_s": 0.009, "end_s": 0.012}]}
EOF
expect 0 "$bin" forest 'biring(2,8)' --json
cp "$tmp/out" "$p/ForestColl result.json"
expect 0 "$bin" a2a 'biring(2,8)' --json
cp "$tmp/out" "$p/x.json"
echo '{"hello": "world"}' >"$p/notes.json"
echo '{"broken": ' >"$p/broken.json"
expect 0 "$bin" report "$p"
[ "$(cat "$tmp/out")" = "$(report_line 9 5 2)" ] || fail "report with results: $(cat "$tmp/out")"
page=$p/report.html
for fig in fig-measured fig-alltoall fig-forest fig-train; do
  grep -q "<figure id=\"$fig\">" "$page" || fail "report lacks $fig"
done
grep -qF '<li>notes.json: no key of a run, simulate, forest, a2a or train result</li>' "$page" ||
  fail "report does not say it ignored notes.json"
grep -qF '<li>broken.json: not valid JSON (line 2: ' "$page" || fail "report does not say broken.json is not JSON"
grep -qF '<li>ForestColl result.json: a ForestColl result</li>' "$page" || fail "report did not read the forest result"
grep -qF '<li>measured-on-cluster.json: a run result (measured)</li>' "$page" || fail "report did not read the run result"
[ "$(grep -c '<rect class="span"' "$page")" -eq 5 ] || fail "train timeline: $(grep -c '<rect class="span"' "$page") spans, not 5"
grep -qF '<title>allreduce layer 0: 9.000 ms .. 12.000 ms</title>' "$page" || fail "train timeline's last allreduce"
# the forest's bar reaches its cut bound 8 / (7/2) = 16/7
grep -qF 'ForestColl result.json (allgather): algbw 2.28571, cut bound 2.28571' "$page" || fail "forest bar"
grep -qF '<td>x.json</td><td>biring(2,8)</td><td>1/8</td><td>0.125</td><td>0.125</td>' "$page" || fail "a2a row"

# ---- refusals: one line, exit 2, nothing touched ----
expect_err 2 "topocoll report: missing DIR (see 'topocoll help report')" "$bin" report
expect_err 2 "topocoll report: unexpected argument 'b' (DIR already given: 'a') (see 'topocoll help report')" \
  "$bin" report a b
expect_err 2 "topocoll report: unknown option '--bogus' (see 'topocoll help report')" "$bin" report --bogus
expect_err 2 "topocoll report: '$tmp/nope' is not a directory" "$bin" report "$tmp/nope"
mkdir "$tmp/empty"
expect_err 2 "topocoll report: '$tmp/empty' has no plan.json (a plan directory written by topocoll plan)" \
  "$bin" report "$tmp/empty"
[ -z "$(ls -A "$tmp/empty")" ] || fail "a refused report wrote: $(ls -A "$tmp/empty")"
cp "$page" "$tmp/before.html"
cp "$p/plan.json" "$p/copy.json"
expect_err 2 "topocoll report: '$p' holds two plan documents (copy.json and plan.json); keep one" "$bin" report "$p"
rm "$p/copy.json"
mv "$p/plan.json" "$tmp/plan.json"
python3 -c "import json,sys; j=json.load(open(sys.argv[1])); del j['curves']; json.dump(j, open(sys.argv[2], 'w'))" \
  "$tmp/plan.json" "$p/plan.json"
expect_err 2 "topocoll report: plan.json: \"curves\" is missing or not an array" "$bin" report "$p"
mv "$tmp/plan.json" "$p/plan.json"
# without Graphviz: refused before anything is written (report), before any work (plan)
mkdir "$tmp/nobin"
neato_line="Graphviz's neato is not installed (the report draws the topology with it; Debian package graphviz)"
expect_err 2 "topocoll report: $neato_line" env PATH="$tmp/nobin" "$bin" report "$p"
expect_err 2 "topocoll plan: $neato_line" env PATH="$tmp/nobin" "$bin" plan "${P[@]}" --out "$tmp/q"
[ ! -e "$tmp/q" ] || fail "plan without neato wrote $tmp/q"
cmp -s "$tmp/before.html" "$page" || fail "a refused report changed report.html"
ls -A "$p" | grep -q '^\.report-' && fail "a refused report left its scratch directory: $(ls -A "$p")"

# ---- a fabric plan has its report too: no frontier, and its forest.json drawn against the cut ----
expect 0 "$bin" plan --fabric 'dgx_a100(1)' --alpha 1us --link-bw 1GBps --size 1MB --out "$tmp/fab"
expect 0 "$bin" report "$tmp/fab"
grep -q "^report       $tmp/fab/report.html (5 figures; 1 saved results drawn, 0 JSON files not understood)" "$tmp/out" ||
  fail "fabric report: $(cat "$tmp/out")"
grep -q '<figure id="fig-frontier">' "$tmp/fab/report.html" && fail "a fabric report has a frontier"
grep -qF '<li>forest.json: a ForestColl result</li>' "$tmp/fab/report.html" || fail "fabric report: forest.json not drawn"

finish cli_report
