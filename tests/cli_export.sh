#!/usr/bin/env bash
# cli_export.sh — drives `topocoll export` (paper 000 §7): MSCCL XML from schedule files (valid
# XML by xmllint, the algo attributes the options set, exactly 9 gpus with ids 0..8 for a
# 3x3 torus, a small step limit spreading the threadblocks over more channels), SimGrid
# platforms from a spec and from a schedule file, and the error paths: one line, exit 2 for
# bad usage and input (unknown format, missing --out / --format, unreadable or malformed
# file, options of the other format, bad values, a schedule beyond the runtime's limits, a
# broadcast), exit 1 for a schedule that fails verification; a failed export leaves the
# old file as it was.
set -u
bin=$1
. "$(dirname "$0")/lib_cli.sh"

# xml_check FILE KEY=VALUE... : the algo attributes (python's XML parser), gpu ids 0..ngpus-1, nchannels = 1 + the highest chan
xml_check() {
  python3 - "$@" <<'PY' || fail "xml check ($*)"
import sys, xml.etree.ElementTree as ET
path = sys.argv[1]
algo = ET.parse(path).getroot()
assert algo.tag == "algo", algo.tag
for kv in sys.argv[2:]:
    k, v = kv.split("=", 1)
    assert algo.get(k) == v, (k, algo.get(k), v)
gpus = algo.findall("gpu")
assert [int(g.get("id")) for g in gpus] == list(range(int(algo.get("ngpus")))), "gpu ids"
chans = {int(tb.get("chan")) for g in gpus for tb in g.findall("tb")}
assert max(chans) + 1 == int(algo.get("nchannels")), (chans, algo.get("nchannels"))
PY
}

# ---- help ----
expect 0 "$bin" --help
grep -q '^  export ' "$tmp/out" || fail "--help does not list export"
expect 0 "$bin" help export
for opt in --format --out --name --proto --min-bytes --max-bytes --op --max-steps --channels --instances --link-bw --alpha \
  msccl simgrid; do
  grep -q -- "$opt" "$tmp/out" || fail "help export lacks $opt"
done
expect 0 "$bin" export --help
grep -q 'usage: topocoll export' "$tmp/out" || fail "export --help"

# ---- msccl ----
expect 0 "$bin" sched 'torus(3,3)' --coll allreduce --algo bfb --out "$tmp/ar.json"
expect 0 "$bin" export "$tmp/ar.json" --format msccl --out "$tmp/ar.xml"
grep -qx "wrote $tmp/ar.xml: MSCCL allreduce on 9 GPUs, proto Simple, 1 channel, 72 threadblocks (at most 8 per GPU, 4 steps each), 0 nops" "$tmp/out" ||
  fail "export summary: $(cat "$tmp/out")"
[ ! -s "$tmp/err" ] || fail "export printed on stderr: $(cat "$tmp/err")"
xmllint --noout "$tmp/ar.xml" || fail "xmllint rejects ar.xml"
head -c 5 "$tmp/ar.xml" | grep -qx '<algo' || fail "the file does not start with <algo"
xml_check "$tmp/ar.xml" 'name=bfb allreduce torus(3,3)' proto=Simple nchannels=1 nchunksperloop=9 ngpus=9 coll=allreduce \
  inplace=1 outofplace=1 minBytes=0 maxBytes=9223372036854775807
[ "$(grep -c '<tb ' "$tmp/ar.xml")" -eq 72 ] || fail "72 threadblocks expected"

expect 0 "$bin" export "$tmp/ar.json" --format msccl --out "$tmp/opt.xml" --name 'torus 3x3' --proto LL \
  --min-bytes 1KiB --max-bytes 1MB --op max
xmllint --noout "$tmp/opt.xml" || fail "xmllint rejects opt.xml"
xml_check "$tmp/opt.xml" 'name=torus 3x3' proto=LL minBytes=1024 maxBytes=1000000 redop=max
grep -q 'proto LL,' "$tmp/out" || fail "summary lacks the protocol"

# alltoall: per-rank buffers of N blocks, relays in scratch, out of place only, no redop
expect 0 "$bin" sched 'torus(3,3)' --coll alltoall --algo sssp --out "$tmp/a2a.json"
expect 0 "$bin" export "$tmp/a2a.json" --format msccl --out "$tmp/a2a.xml"
grep -qx "wrote $tmp/a2a.xml: MSCCL alltoall on 9 GPUs, proto Simple, 1 channel, 81 threadblocks (at most 9 per GPU, 3 steps each), 0 nops" "$tmp/out" ||
  fail "alltoall export summary: $(cat "$tmp/out")"
xmllint --noout "$tmp/a2a.xml" || fail "xmllint rejects a2a.xml"
xml_check "$tmp/a2a.xml" 'name=sssp alltoall torus(3,3)' nchunksperloop=9 ngpus=9 coll=alltoall inplace=0 outofplace=1
grep -q '<gpu id="0" i_chunks="9" o_chunks="9" s_chunks="4">' "$tmp/a2a.xml" || fail "alltoall gpu 0: $(grep '<gpu id="0"' "$tmp/a2a.xml")"
expect_err 2 'a reduction (redop) applies to reduce-scatter and allreduce, not alltoall' "$bin" export "$tmp/a2a.json" \
  --format msccl --out "$tmp/a2a.xml" --op sum

# a small step limit: more channels, each threadblock within it
expect 0 "$bin" export "$tmp/ar.json" --format msccl --out "$tmp/split.xml" --max-steps 2
grep -q ', 2 channels, 144 threadblocks (at most 16 per GPU, 2 steps each)' "$tmp/out" || fail "split summary: $(cat "$tmp/out")"
xml_check "$tmp/split.xml" nchannels=2
python3 - "$tmp/split.xml" <<'PY' || fail "a threadblock exceeds 2 steps"
import sys, xml.etree.ElementTree as ET
assert max(len(tb.findall("step")) for g in ET.parse(sys.argv[1]).getroot() for tb in g) <= 2
PY

# --channels N: every connection over N channels, as msccl-tools' channels
expect 0 "$bin" export "$tmp/ar.json" --format msccl --out "$tmp/chan.xml" --channels 4
grep -q ', 4 channels, ' "$tmp/out" || fail "--channels 4 summary: $(cat "$tmp/out")"
xml_check "$tmp/chan.xml" nchannels=4
expect_err 2 '--channels expects an integer in 1..32' "$bin" export "$tmp/ar.json" --format msccl --out "$tmp/x.xml" --channels 33
expect_err 2 '--channels does not apply to --format simgrid' "$bin" export 'torus(2,2)' --format simgrid --link-bw 1Gbps \
  --alpha 1us --out "$tmp/simdir" --channels 2

# --instances N: the whole algorithm N times (msccl-tools' instances), N x chunks, channels, threadblocks
expect 0 "$bin" export "$tmp/ar.json" --format msccl --out "$tmp/inst.xml" --instances 3
[ "$(cat "$tmp/out")" = "wrote $tmp/inst.xml: MSCCL allreduce on 9 GPUs, proto Simple, 3 instances, 3 channels, 216 threadblocks (at most 24 per GPU, 4 steps each), 0 nops" ] ||
  fail "--instances 3 summary: $(cat "$tmp/out")"
xml_check "$tmp/inst.xml" nchannels=3 nchunksperloop=27 ngpus=9 coll=allreduce
xmllint --noout "$tmp/inst.xml" || fail "xmllint refuses the --instances file"
expect_err 2 '--instances expects an integer in 1..32' "$bin" export "$tmp/ar.json" --format msccl --out "$tmp/x.xml" --instances 0
expect_err 2 'MSCCL limit: 9 channels per connection x 1 base channel x 4 instances > 32 channels' \
  "$bin" export "$tmp/ar.json" --format msccl --out "$tmp/x.xml" --instances 4 --channels 9
expect_err 2 '--instances does not apply to --format simgrid' "$bin" export 'torus(2,2)' --format simgrid --link-bw 1Gbps \
  --alpha 1us --out "$tmp/simdir" --instances 2

for coll in allgather reduce-scatter; do
  expect 0 "$bin" sched 'kautz(2,2)' --coll $coll --algo bfb --out "$tmp/k.json"
  expect 0 "$bin" export "$tmp/k.json" --format msccl --out "$tmp/k.xml"
  xmllint --noout "$tmp/k.xml" || fail "xmllint rejects the $coll file"
  want=$([ $coll = allgather ] && echo allgather || echo reducescatter)
  xml_check "$tmp/k.xml" coll=$want ngpus=12
done

# ---- msccl errors ----
expect_err 2 "unknown format 'nccl' (msccl or simgrid)" "$bin" export "$tmp/ar.json" --format nccl --out "$tmp/x.xml"
expect_err 2 'missing --format' "$bin" export "$tmp/ar.json" --out "$tmp/x.xml"
expect_err 2 'missing --out' "$bin" export "$tmp/ar.json" --format msccl
expect_err 2 'missing SCHEDULE.json or SPEC' "$bin" export --format msccl --out "$tmp/x.xml"
expect_err 2 "unknown option '--frob'" "$bin" export "$tmp/ar.json" --format msccl --out "$tmp/x.xml" --frob
expect_err 2 '--out needs a value' "$bin" export "$tmp/ar.json" --format msccl --out
expect_err 2 "cannot read $tmp/missing.json" "$bin" export "$tmp/missing.json" --format msccl --out "$tmp/x.xml"
head -c 100 "$tmp/ar.json" >"$tmp/cut.json"
expect_err 2 "$tmp/cut.json" "$bin" export "$tmp/cut.json" --format msccl --out "$tmp/x.xml"
expect_err 2 '--link-bw does not apply to --format msccl' "$bin" export "$tmp/ar.json" --format msccl --out "$tmp/x.xml" --link-bw 1Gbps
expect_err 2 "unknown --proto 'll' (Simple, LL or LL128)" "$bin" export "$tmp/ar.json" --format msccl --out "$tmp/x.xml" --proto ll
expect_err 2 '--min-bytes: ' "$bin" export "$tmp/ar.json" --format msccl --out "$tmp/x.xml" --min-bytes 1.5B
expect_err 2 'must be positive and at least minBytes' "$bin" export "$tmp/ar.json" --format msccl --out "$tmp/x.xml" \
  --min-bytes 1MB --max-bytes 1KB
expect_err 2 'unknown reduction "avg"' "$bin" export "$tmp/ar.json" --format msccl --out "$tmp/x.xml" --op avg
expect_err 2 '--max-steps expects an integer in 1..1024' "$bin" export "$tmp/ar.json" --format msccl --out "$tmp/x.xml" --max-steps 0
expect_err 2 'MSCCL algo name "a<b"' "$bin" export "$tmp/ar.json" --format msccl --out "$tmp/x.xml" --name 'a<b'
expect 0 "$bin" sched 'torus(3,3)' --coll allgather --algo bfb --out "$tmp/ag.json"
expect_err 2 'applies to reduce-scatter and allreduce, not allgather' "$bin" export "$tmp/ag.json" --format msccl --out "$tmp/x.xml" --op sum
expect 0 "$bin" sched 'complete(6)' --coll broadcast --algo dbt --root 1 --out "$tmp/bc.json"
expect_err 2 "MSCCL export covers allgather, reduce-scatter, allreduce and alltoall, not broadcast (an MSCCL algorithm names no root: it would serve every root's calls)" "$bin" export "$tmp/bc.json" --format msccl --out "$tmp/x.xml"
"$bin" sched 'kautz(2,1)' --coll p2p --algo kautz-mp --src 0 --dst 5 --out "$tmp/p2p.json" >/dev/null || fail "sched p2p"
expect_err 2 "MSCCL export covers allgather, reduce-scatter, allreduce and alltoall, not p2p (MSCCL has no multi-path point-to-point)" "$bin" export "$tmp/p2p.json" --format msccl --out "$tmp/x.xml"
[ ! -e "$tmp/x.xml" ] || fail "export wrote x.xml for a p2p schedule"
# SimGrid platforms are the graph's: any collective's schedule exports one.
"$bin" export "$tmp/p2p.json" --format simgrid --link-bw 100Gbps --alpha 1us --out "$tmp/p2p-sg" >"$tmp/out" ||
  fail "simgrid export of a p2p schedule"
grep -qx "wrote $tmp/p2p-sg/platform.xml and $tmp/p2p-sg/hostfile: 6 hosts" "$tmp/out" || fail "simgrid export: $(cat "$tmp/out")"
# a ring of 34 cannot fit one step per threadblock: 33 sends over at most 32 channels
expect 0 "$bin" sched 'uniring(1,34)' --coll allgather --algo ring --out "$tmp/r34.json"
expect_err 2 'MSCCL limit: gpu 0 threadblock 0 (send to 1, channel 0) needs 2 steps > 1 even over 32 channels' \
  "$bin" export "$tmp/r34.json" --format msccl --out "$tmp/x.xml" --max-steps 1
[ ! -e "$tmp/x.xml" ] || fail "a failed export wrote a file"
# a schedule that fails verification: exit 1, the old file untouched
python3 - "$tmp/ar.json" "$tmp/bad.json" <<'PY' || fail "could not corrupt the file"
import json, sys
j = json.load(open(sys.argv[1]))
j["schedule"]["transfers"].pop()
json.dump(j, open(sys.argv[2], "w"))
PY
cp "$tmp/ar.xml" "$tmp/keep.xml"
expect_err 1 'not exported: the schedule fails verification' "$bin" export "$tmp/bad.json" --format msccl --out "$tmp/ar.xml"
cmp -s "$tmp/ar.xml" "$tmp/keep.xml" || fail "a failed export changed the existing file"
# an unwritable --out: exit 1
expect_err 1 "$tmp/nodir/x.xml" "$bin" export "$tmp/ar.json" --format msccl --out "$tmp/nodir/x.xml"

# ---- simgrid ----
expect 0 "$bin" export 'torus(3,3)' --format simgrid --link-bw 25Gbps --alpha 10us --out "$tmp/sg"
grep -qx "wrote $tmp/sg/platform.xml and $tmp/sg/hostfile: 9 hosts" "$tmp/out" || fail "simgrid summary: $(cat "$tmp/out")"
[ -s "$tmp/sg/platform.xml" ] || fail "no platform.xml"
[ "$(wc -l <"$tmp/sg/hostfile")" -eq 9 ] || fail "hostfile does not list 9 hosts"
expect 0 "$bin" export "$tmp/ar.json" --format simgrid --link-bw 25Gbps --alpha 10us --out "$tmp/sg2"
cmp -s "$tmp/sg/platform.xml" "$tmp/sg2/platform.xml" || fail "the schedule's embedded graph gives another platform than its spec"
expect_err 2 "'torus(3,' is neither a schedule file nor a topology spec" "$bin" export 'torus(3,' --format simgrid \
  --link-bw 25Gbps --alpha 10us --out "$tmp/sg3"
expect_err 2 '--format simgrid needs --link-bw' "$bin" export 'torus(3,3)' --format simgrid --alpha 10us --out "$tmp/sg3"
expect_err 2 '--format simgrid needs --alpha' "$bin" export 'torus(3,3)' --format simgrid --link-bw 1Gbps --out "$tmp/sg3"
expect_err 2 '--link-bw: ' "$bin" export 'torus(3,3)' --format simgrid --link-bw 25gBps --alpha 10us --out "$tmp/sg3"
expect_err 2 '--alpha: ' "$bin" export 'torus(3,3)' --format simgrid --link-bw 1Gbps --alpha 10xs --out "$tmp/sg3"
expect_err 2 '--name does not apply to --format simgrid' "$bin" export 'torus(3,3)' --format simgrid --link-bw 1Gbps \
  --alpha 10us --out "$tmp/sg3" --name x
printf '{"format": "topocoll-graph", "version": 1, "nodes": 0, "arcs": []}\n' >"$tmp/empty.json"
expect_err 2 "the graph has no nodes: a platform needs at least one host" "$bin" export "file($tmp/empty.json)" \
  --format simgrid --link-bw 1Gbps --alpha 10us --out "$tmp/sg3"
[ ! -e "$tmp/sg3" ] || fail "a failed simgrid export created the directory"
# the file grows with the links: kautz(4,5) (5120 nodes, 20480 arcs) is 8 frame lines and a
# line per host, link and route (with all N(N-1) routes it was 3.3 GB)
expect 0 "$bin" export 'kautz(4,5)' --format simgrid --link-bw 25Gbps --alpha 10us --out "$tmp/k45"
[ "$(wc -l <"$tmp/k45/platform.xml")" -eq $((8 + 5120 + 2 * 20480)) ] || fail "kautz(4,5): $(wc -l <"$tmp/k45/platform.xml") lines"
[ "$(grep -c '<route ' "$tmp/k45/platform.xml")" -eq 20480 ] || fail "kautz(4,5): not one route per link"

finish cli_export
