#!/usr/bin/env bash
# cli_train.sh — `topocoll train` (paper 000 App. A.4): the model list against the published
# sizes, a data-parallel run (ResNet-50 on 16 nodes: the frontier, ShiftedRing on
# circulant(16,1,3), the 2D torus torus(4,4), DBT), the degree-4 baselines refused at degree 2
# with their reasons, an expert-parallel run (Switch-Base on 16
# nodes) whose JSON keeps the report's contract (command, the breakdown, comparison, a
# timeline of one iteration), --plan comparing a plan's frontier from its plan.json (and the
# report drawing the saved iteration), and every refusal's one line with exit 2.
set -u
bin=$1
. "$(dirname "$0")/lib_cli.sh"

expect 0 "$bin" train --list
grep -q '^resnet50 .* 25\.6 M  *54  *8\.178e+09  *0  *64  224x224 image$' "$tmp/out" || fail "list: resnet50: $(cat "$tmp/out")"
grep -q '^vgg16 .* 138\.4 M  *16 ' "$tmp/out" || fail "list: vgg16"
grep -q '^gpt2-small .* 124\.4 M  *26 ' "$tmp/out" || fail "list: gpt2-small"
grep -q '^gpt2-large .* 774\.0 M  *74 ' "$tmp/out" || fail "list: gpt2-large"
grep -q '^switch-base .* 7\.4 B  *62 .* 128 ' "$tmp/out" || fail "list: switch-base"
grep -q '^switch-c .* 1571\.3 B  *77 .* 2048 ' "$tmp/out" || fail "list: switch-c"
[ "$(wc -l <"$tmp/out")" -eq 10 ] || fail "list: $(wc -l <"$tmp/out") lines, expected 10"

expect 0 "$bin" train --model resnet50 --nodes 16 --degree 4
grep -q '^ours       circulant(16,3,4) (the frontier member with the least iteration time)$' "$tmp/out" ||
  fail "resnet50: ours: $(cat "$tmp/out")"
grep -q '^ShiftedRing circulant(16,1,3) *shiftedring *30 *1\.8750 ' "$tmp/out" || fail "resnet50: ShiftedRing row"
grep -q '^2D torus *torus(4,4) *torus-dor *12 *1\.8750 ' "$tmp/out" || fail "resnet50: torus row"
grep -q '^DBT ' "$tmp/out" || fail "resnet50: DBT row"
grep -q '^bound *theoretical bound *- *4 *1\.8750 ' "$tmp/out" || fail "resnet50: bound row"
grep -q '^frontier *circulant(16,3,4) *expand *6 *1\.8750 .*  <- ours$' "$tmp/out" || fail "resnet50: ours row"

# degree 2: the degree-4 baselines are listed with the reason, DBT runs on its own topology
expect 0 "$bin" train --model gpt2-small --nodes 16 --degree 2
grep -q '^ShiftedRing circulant(16,1,3) *not available: ShiftedRing needs 4 ports per node, the cluster has 2$' \
  "$tmp/out" || fail "degree 2: ShiftedRing note: $(cat "$tmp/out")"
grep -q '^2D torus *torus(4,4) *not available: a 2D torus needs 4 ports per node, the cluster has 2$' "$tmp/out" ||
  fail "degree 2: torus note"
grep -q '^DBT *its own topology (two trees) *dbt ' "$tmp/out" || fail "degree 2: DBT row"

# the JSON contract; every compute event of one iteration, the breakdown adding up
expect 0 "$bin" train --model switch-base --nodes 16 --degree 4 --json
python3 - "$tmp/out" <<'PY' || fail "switch-base --json: $(head -c 400 "$tmp/out")"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["command"] == "train" and d["model"] == "switch-base" and d["nodes"] == 16, d
for k in ("iteration_time_s", "compute_s", "allreduce_exposed_s", "alltoall_s"):
    assert isinstance(d[k], float) and d[k] >= 0, k
assert abs(d["compute_s"] + d["allreduce_exposed_s"] + d["alltoall_s"] - d["iteration_time_s"]) < 1e-12
roles = [c["role"] for c in d["comparison"]]
assert roles == ["frontier", "frontier", "ShiftedRing", "2D torus", "DBT", "bound"], roles
bound = d["comparison"][-1]
assert bound["topology"] == "theoretical bound" and bound["iteration_vs_ours"] <= 1.0, bound
ours = [c for c in d["comparison"] if c["topology"] == d["topology"]][0]
assert ours["iteration_vs_ours"] == 1.0 and ours["mcf_f"] == 0.125, ours
tl = d["timeline"]
kinds = {(e["stream"], e["kind"]) for e in tl}
assert kinds == {("compute", "forward"), ("compute", "backward"), ("comm", "allreduce"), ("comm", "alltoall")}, kinds
# 62 layers forward and backward, 12 expert layers x 4 all-to-alls, one 1 GB bucket
assert sum(e["kind"] == "forward" for e in tl) == 62 and sum(e["kind"] == "backward" for e in tl) == 62
assert sum(e["kind"] == "alltoall" for e in tl) == 48 and sum(e["kind"] == "allreduce" for e in tl) == 1
assert max(e["end_s"] for e in tl) == d["iteration_time_s"]
comm = sorted((e for e in tl if e["stream"] == "comm"), key=lambda e: e["start_s"])
assert all(a["end_s"] <= b["start_s"] for a, b in zip(comm, comm[1:])), "collectives overlap"
PY
# progress (stderr only when asked): one line per topology's all-to-all MCF, in order, and the
# same stdout as without it; --quiet and a pipe print nothing
[ ! -s "$tmp/err" ] || fail "train printed progress into a pipe: $(cat "$tmp/err")"
cp "$tmp/out" "$tmp/quiet.json"
"$bin" train --model switch-base --nodes 16 --degree 4 --json --progress >"$tmp/out" 2>"$tmp/err" || fail "train --progress failed"
cmp -s "$tmp/out" "$tmp/quiet.json" || fail "train --progress changed stdout"
grep -o '\] [A-Za-z0-9 ]* [^ ]*: all-to-all MCF' "$tmp/err" | cut -d' ' -f2- >"$tmp/phases"
printf '%s\n' "frontier debruijn(4,2): all-to-all MCF" "frontier circulant(16,3,4): all-to-all MCF" \
  "ShiftedRing circulant(16,1,3): all-to-all MCF" "2D torus torus(4,4): all-to-all MCF" >"$tmp/want"
head -4 "$tmp/phases" | cmp -s - "$tmp/want" || fail "train --progress phases: $(cat "$tmp/err")"
"$bin" train --model switch-base --nodes 16 --degree 4 --json --quiet >/dev/null 2>"$tmp/err" || fail "train --quiet failed"
[ ! -s "$tmp/err" ] || fail "train --quiet printed: $(cat "$tmp/err")"
expect_err 2 "--progress and --quiet exclude each other" "$bin" train --model resnet50 --nodes 16 --degree 4 --progress --quiet

# --plan: the plan's frontier from plan.json (the finder not run): one row per member in
# plan.json's order, the plan's choice marked and "ours", then the baselines; N, D, alpha and
# the link bandwidth the plan's; the chosen member's allreduce exactly what the search path
# measures for the same topology; the all-to-all f plan.json's certified value
expect 0 "$bin" plan --nodes 16 --degree 4 --links simplex --alpha 10us --link-bw 25Gbps --size 1MB --a2a-size 1MB \
  --out "$tmp/plan"
expect 0 "$bin" train --model gpt2-small --plan "$tmp/plan"
grep -q '^ours       circulant(16,3,4) (the plan.s choice)$' "$tmp/out" || fail "--plan: ours: $(cat "$tmp/out")"
grep -q '^frontier *debruijn(4,2) *expand *4 *2\.5000 ' "$tmp/out" || fail "--plan: the unchosen member's row"
expect 0 "$bin" train --model gpt2-small --plan "$tmp/plan" --json
mv "$tmp/out" "$tmp/train-plan.json"
expect 0 "$bin" train --model gpt2-small --nodes 16 --degree 4 --alpha 10us --link-bw 25Gbps --json
python3 - "$tmp/plan/plan.json" "$tmp/train-plan.json" "$tmp/out" <<'PY' || fail "--plan --json: $(head -c 600 "$tmp/train-plan.json")"
import json, sys
plan, t, search = (json.load(open(f)) for f in sys.argv[1:])
members = plan["frontier"]["members"]
assert [m["spec"] for m in members] == ["debruijn(4,2)", "circulant(16,3,4)"], members
rows = t["comparison"]
assert [r["topology"] for r in rows[:2]] == [m["spec"] for m in members], rows
assert [r["role"] for r in rows] == ["frontier", "frontier", "ShiftedRing", "2D torus", "DBT"], rows
assert [r["chosen"] for r in rows] == [False, True, False, False, False], rows
assert t["topology"] == "circulant(16,3,4)" and rows[1]["iteration_vs_ours"] == 1.0, t["topology"]
assert (t["nodes"], t["degree"], t["alpha_s"], t["link_bw"]) == (16, 4, 1e-05, 3125000000.0), t
same = {r["topology"]: r for r in search["comparison"] if r["role"] == "frontier"}["circulant(16,3,4)"]
for k in ("algorithm", "allreduce_steps", "allreduce_tb_factor", "bucket_bytes", "iteration_time_s",
          "allreduce_exposed_s"):
    assert rows[1][k] == same[k], (k, rows[1][k], same[k])
assert (rows[1]["allreduce_steps"], rows[1]["allreduce_tb_factor"]) == (6, 1.875), rows[1]
assert all(r["mcf_f"] is None for r in rows), "gpt2-small has no all-to-all"
PY
expect 0 "$bin" train --model switch-base --plan "$tmp/plan" --json
cp "$tmp/out" "$tmp/plan/train.json"
python3 - "$tmp/plan/plan.json" "$tmp/out" <<'PY' || fail "--plan switch-base: $(head -c 600 "$tmp/out")"
import json, sys
plan, t = (json.load(open(f)) for f in sys.argv[1:])
rows = t["comparison"]
for m, r in zip(plan["frontier"]["members"], rows):
    p, q = m["a2a_f"]
    assert r["mcf_f"] == p / q and r["mcf_from"] == "plan", (m, r)
assert [r["mcf_from"] for r in rows[2:]] == ["computed"] * 3, rows
assert rows[1]["mcf_f"] == 0.125 and rows[0]["mcf_f"] == 7 / 53, rows
PY
expect 0 "$bin" train --model switch-base --plan "$tmp/plan"
grep -q '^frontier *circulant(16,3,4) .* 0\.125p ' "$tmp/out" || fail "--plan: f from plan.json: $(cat "$tmp/out")"
grep -qx '(MCF f marked p: the plan.s certified value, from plan.json)' "$tmp/out" || fail "--plan: the p note"
# the report draws the saved iteration: one bar per timeline event
expect 0 "$bin" report "$tmp/plan"
n=$(python3 -c 'import json, sys; print(len(json.load(open(sys.argv[1]))["timeline"]))' "$tmp/plan/train.json")
[ "$(grep -c '<rect class="span"' "$tmp/plan/report.html")" -eq "$n" ] ||
  fail "report: $(grep -c '<rect class="span"' "$tmp/plan/report.html") timeline bars, not $n"
grep -q '<figure id="fig-train">' "$tmp/plan/report.html" || fail "report: no training figure"
rm "$tmp/plan/train.json"

# plan directories train --plan refuses: none, older (no plan.json, no frontier.degree), a
# fabric plan's (no frontier), a member that does not measure as plan.json says
expect_line 2 "topocoll train: '$tmp/nowhere' has no plan.json (a plan directory written by topocoll plan)" \
  "$bin" train --model resnet50 --plan "$tmp/nowhere"
# (train --plan reads plan.json alone: each copy is a directory holding an edited plan.json)
python3 - "$tmp" <<'PY'
import json, os, sys
edits = {"old": lambda j: j["frontier"].pop("degree"), "fab": lambda j: j.pop("frontier"),
         "lie": lambda j: j["frontier"]["members"][0].update(steps=1),
         "bad": lambda j: j["frontier"]["members"][1].update(tau="15/16")}
for name, edit in edits.items():
    j = json.load(open(sys.argv[1] + "/plan/plan.json"))
    edit(j)
    os.mkdir(sys.argv[1] + "/" + name)
    json.dump(j, open(sys.argv[1] + "/" + name + "/plan.json", "w"))
PY
expect_line 2 "topocoll train: $tmp/old/plan.json has no frontier.degree (written by an older topocoll): plan again" \
  "$bin" train --model resnet50 --plan "$tmp/old"
expect_line 2 "topocoll train: $tmp/fab/plan.json has no frontier (a fabric plan): train compares a direct-connect plan's frontier" \
  "$bin" train --model resnet50 --plan "$tmp/fab"
expect_line 2 "topocoll train: $tmp/lie/plan.json: frontier member debruijn(4,2) measures 2 steps and tau 5/4 on 16 nodes of degree 4, not plan.json's 1 steps and tau 5/4 on 16 nodes of degree 4" \
  "$bin" train --model resnet50 --plan "$tmp/lie"
expect_line 2 "topocoll train: $tmp/bad/plan.json: frontier.members[1] needs spec, steps >= 1, tau [p, q], chosen and (if any) a2a_f [p, q]" \
  "$bin" train --model resnet50 --plan "$tmp/bad"
printf '{"format": "topocoll-plan",' >"$tmp/bad/plan.json"
expect_err 2 "topocoll train: $tmp/bad/plan.json: not valid JSON (line 1: " "$bin" train --model resnet50 --plan "$tmp/bad"

expect_err 2 "unknown model 'bert' (resnet50, vgg16, gpt2-small, gpt2-medium, gpt2-large, switch-base, switch-large, switch-xxl, switch-c)" \
  "$bin" train --model bert --nodes 16 --degree 4
expect_err 2 "--nodes expects an integer in 2..1048576, got '1'" "$bin" train --model resnet50 --nodes 1 --degree 4
expect_err 2 "--degree expects an integer in 1..64, got '0'" "$bin" train --model resnet50 --nodes 16 --degree 0
expect_err 2 "topocoll train: --link-bw: " "$bin" train --model resnet50 --nodes 16 --degree 4 --link-bw fast
expect_err 2 "missing --model NAME (or --list)" "$bin" train --nodes 16 --degree 4
expect_err 2 "missing --nodes N (or --plan DIR)" "$bin" train --model resnet50
expect_err 2 "missing --degree D" "$bin" train --model resnet50 --nodes 16
for opt in "--nodes 8" "--alpha 1us" "--link-bw 1Gbps"; do
  expect_err 2 "--plan takes N, D, alpha and the link bandwidth from the plan: drop --nodes, --degree, --alpha and --link-bw" \
    "$bin" train --model resnet50 --plan "$tmp/plan" $opt
done
expect_err 2 "resnet50 has no experts" "$bin" train --model resnet50 --nodes 16 --degree 4 --experts 16
expect_err 2 "switch-base has 128 experts per expert layer, which 48 nodes cannot shard evenly (use --experts with a multiple of 48)" \
  "$bin" train --model switch-base --nodes 48 --degree 4
expect_err 2 "--efficiency expects a number in (0, 1], got '1.5'" "$bin" train --model resnet50 --nodes 16 --degree 4 --efficiency 1.5
expect_err 2 "--device-flops expects a number in (0, 1e+21], got '-3'" "$bin" train --model resnet50 --nodes 16 --degree 4 --device-flops -3
expect_err 2 "--batch expects an integer in 1..1000000, got '0'" "$bin" train --model resnet50 --nodes 16 --degree 4 --batch 0

finish cli_train
