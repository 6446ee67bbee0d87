#!/usr/bin/env bash
# cli_writers.sh — every writer of the CLI never replaces or deletes what topocoll did not
# create (output.h): a character device or a FIFO receives the output in place and stays
# what it was, a full device is exit 1 naming ENOSPC, "-" is standard output, a directory
# target is refused (exit 2, one line, untouched), a symbolic link keeps pointing at the
# file it names; several outputs are all or nothing; SIGTERM, SIGINT and SIGHUP leave no
# `.tc-tmp-*` temporary and no `DIR.tmp-*` staging directory (SIGPIPE too) and end the process by the
# signal. The writers: topo --dot/--edges/--wiring/--graph-json, sched --out, export --out
# (MSCCL file, SimGrid directory), plan --out. (plan --force on unmarked directories is in
# cli_plan.sh.) Device nodes are made with mknod in the scratch directory, never in /dev;
# mknod needs root, and those checks say "skipped (needs root)" otherwise.
set -u
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1") # absolute: the checks run in $tmp
. "$(dirname "$0")/lib_cli.sh"

SPEC='kautz(2,1)'
SIMGRID=(--format simgrid --link-bw 1Gbps --alpha 1us)
cd "$tmp" || exit 1

# The reference outputs, written to regular files.
expect 0 "$bin" topo "$SPEC" --dot ref.dot --edges ref.edges --wiring ref.csv --graph-json ref.json
cp "$tmp/out" ref.report
expect 0 "$bin" sched "$SPEC" --coll allgather --algo bfb --out ref.sched.json
expect 0 "$bin" export ref.sched.json --format msccl --out ref.xml
expect 0 "$bin" export "$SPEC" "${SIMGRID[@]}" --out refsim
for f in ref.dot ref.edges ref.csv ref.json ref.sched.json ref.xml refsim/platform.xml refsim/hostfile; do
  [ -s "$f" ] || fail "reference output $f not written"
done

# write_with TARGET N: the N-th single-file writer of the CLI, writing to TARGET.
WRITERS="dot edges wiring graph-json sched export"
write_with() {
  case $2 in
    dot | edges | wiring | graph-json) "$bin" topo "$SPEC" "--$2" "$1" ;;
    sched) "$bin" sched "$SPEC" --coll allgather --algo bfb --out "$1" ;;
    export) "$bin" export ref.sched.json --format msccl --out "$1" ;;
  esac
}
# reference file of each writer
ref_of() {
  case $1 in
    dot) echo ref.dot ;; edges) echo ref.edges ;; wiring) echo ref.csv ;; graph-json) echo ref.json ;;
    sched) echo ref.sched.json ;; export) echo ref.xml ;;
  esac
}
no_temporaries() { # DIR WHAT
  local left
  left=$(find "$1" -name '.tc-tmp-*' -o -name '*.tmp-*' -o -name '*.old-*')
  [ -z "$left" ] || fail "$2 left temporaries: $left"
}

# ---- a directory target: exit 2, one line naming it, the directory untouched ----
mkdir adir
echo keep >adir/inside
for w in $WRITERS; do
  expect_err 2 "cannot write adir: it is a directory" write_with adir "$w"
  [ -d adir ] && [ "$(ls -A adir)" = inside ] && [ "$(cat adir/inside)" = keep ] || fail "$w touched the directory"
done
mkdir -p simdir/platform.xml
expect_err 2 "cannot write simdir/platform.xml: it is a directory" "$bin" export "$SPEC" "${SIMGRID[@]}" --out simdir
[ -d simdir/platform.xml ] && [ ! -e simdir/hostfile ] || fail "a refused SimGrid export wrote something"
rm -r simdir
echo x >afile
expect_err 2 "cannot create directory afile: it exists and is not a directory" \
  "$bin" export "$SPEC" "${SIMGRID[@]}" --out afile
expect_err 2 "a SimGrid platform is a directory (platform.xml and hostfile); '-' (standard output) cannot receive it" \
  "$bin" export "$SPEC" "${SIMGRID[@]}" --out -
expect_err 2 "a plan is a directory of files; '-' (standard output) cannot receive it" \
  "$bin" plan --nodes 16 --degree 4 --alpha 10us --link-bw 25Gbps --size 1MB --out -
expect_err 2 "'afile' exists and is not a directory" \
  "$bin" plan --nodes 16 --degree 4 --alpha 10us --link-bw 25Gbps --size 1MB --out afile
[ "$(cat afile)" = x ] || fail "a refused writer touched afile"
no_temporaries . "the refusals"

# ---- "-": standard output, the report after it ----
for w in dot edges wiring graph-json; do
  expect 0 write_with - "$w"
  cat "$(ref_of "$w")" ref.report >want
  cmp -s "$tmp/out" want || fail "--$w - did not print the file then the report: $(head -3 "$tmp/out")"
done
expect 0 write_with - export
cmp -s "$tmp/out" ref.xml || fail "export --out - did not print the XML alone"
expect 0 write_with - sched
head -c "$(wc -c <ref.sched.json)" "$tmp/out" | cmp -s - ref.sched.json || fail "sched --out - did not print the schedule"
grep -q '^written           -$' "$tmp/out" || fail "sched --out - did not report where it wrote"

# ---- a symbolic link: the file it points to is replaced, the link stays ----
for w in $WRITERS; do
  echo old >"real.$w"
  ln -s "real.$w" "link.$w"
  expect 0 write_with "link.$w" "$w"
  [ -L "link.$w" ] && [ "$(readlink "link.$w")" = "real.$w" ] || fail "$w replaced the symbolic link"
  cmp -s "real.$w" "$(ref_of "$w")" || fail "$w did not write through the link into real.$w"
done
ln -s nowhere dangling
expect_err 2 "cannot write dangling: it is a symbolic link to nothing" write_with dangling dot
[ -L dangling ] && [ ! -e nowhere ] || fail "a dangling link was replaced or followed"
no_temporaries . "the symbolic links"

# ---- a FIFO with a reader: the exact bytes, the FIFO stays ----
mkfifo fifo
for w in $WRITERS; do
  cat fifo >fifo.got &
  reader=$!
  write_with fifo "$w" >/dev/null 2>"$tmp/err" || fail "$w to a FIFO failed: $(cat "$tmp/err")"
  # Never hang on a reader a failed writer left waiting: a FIFO opened and closed gives it
  # end-of-file (after the writer's bytes, if any); a FIFO that is gone cannot, so kill it.
  if [ -p fifo ]; then exec 3<>fifo 3>&-; else kill "$reader" 2>/dev/null; fi
  wait "$reader"
  cmp -s fifo.got "$(ref_of "$w")" || fail "$w sent other bytes through the FIFO"
  [ -p fifo ] || fail "$w replaced the FIFO"
done

# ---- all or nothing: a failing second output leaves no first one and no temporary ----
expect_err 1 "cannot write nodir/x.edges: No such file or directory" \
  "$bin" topo "$SPEC" --dot multi.dot --edges nodir/x.edges
[ ! -e multi.dot ] || fail "a failed multi-output topo left its first output"
echo old >multi.dot
expect_err 2 "cannot write adir: it is a directory" "$bin" topo "$SPEC" --dot multi.dot --wiring adir
[ "$(cat multi.dot)" = old ] || fail "a refused multi-output topo replaced its first output"
no_temporaries . "the failed multi-output topo"

# ---- character devices (made here, never in /dev): written in place, never replaced ----
if [ "$(id -u)" -ne 0 ] || ! mknod null c 1 3 2>/dev/null || ! mknod full c 1 7 2>/dev/null; then
  echo "cli_writers: device checks skipped (needs root)"
else
  for w in $WRITERS; do
    expect 0 write_with null "$w"
    [ -c null ] || fail "$w replaced the null device"
    expect_err 1 "cannot write full: No space left on device" write_with full "$w"
    [ -c full ] || fail "$w replaced the full device"
  done
  mkdir sim
  mknod sim/platform.xml c 1 3 && mknod sim/hostfile c 1 3
  expect 0 "$bin" export "$SPEC" "${SIMGRID[@]}" --out sim
  [ -c sim/platform.xml ] && [ -c sim/hostfile ] || fail "the SimGrid export replaced its device nodes"
  # all or nothing with a device: the failing device is written before any rename
  rm sim/platform.xml sim/hostfile
  mknod sim/hostfile c 1 7
  expect_err 1 "cannot write sim/hostfile: No space left on device" "$bin" export "$SPEC" "${SIMGRID[@]}" --out sim
  [ ! -e sim/platform.xml ] && [ -c sim/hostfile ] || fail "a failed SimGrid export left platform.xml or lost the node"
  expect_err 1 "cannot write full: No space left on device" "$bin" topo "$SPEC" --dot multi2.dot --edges full
  [ ! -e multi2.dot ] || fail "a full device as second output left the first one"
  no_temporaries . "the devices"
fi

# ---- signals: a writer blocked on a FIFO without reader, its temporary made ----
# Job control (set -m) so that background jobs do not start with SIGINT ignored.
set -m
mkfifo stuck
for sig in TERM INT HUP PIPE; do
  "$bin" topo "$SPEC" --dot "sig.dot" --edges stuck >/dev/null 2>&1 &
  pid=$!
  for _ in $(seq 1 2000); do
    compgen -G '.tc-tmp-*' >/dev/null && break
    sleep 0.005
  done
  compgen -G '.tc-tmp-*' >/dev/null || fail "SIG$sig: the temporary of --dot never appeared"
  kill -s "$sig" "$pid"
  { wait "$pid"; } 2>/dev/null
  status=$?
  want=$((128 + $(kill -l "$sig")))
  [ "$status" -eq "$want" ] || fail "SIG$sig: topo exited $status, not killed by the signal ($want)"
  [ ! -e sig.dot ] || fail "SIG$sig: the first output was put in place"
  [ -p stuck ] || fail "SIG$sig: the FIFO was replaced"
  no_temporaries . "SIG$sig"
done

# ---- signals: a plan interrupted while its staging directory exists ----
# Poll for DIR.tmp-*, stop the process, and signal it only if the directory is still there
# (else it was renamed in between: try again, a bounded number of times).
caught=0
for attempt in 1 2 3 4 5; do
  rm -rf pl
  "$bin" plan --nodes 128 --degree 4 --alpha 10us --link-bw 25Gbps --size 1MB --out pl >/dev/null 2>&1 &
  pid=$!
  while kill -0 "$pid" 2>/dev/null && ! compgen -G 'pl.tmp-*' >/dev/null; do :; done
  kill -STOP "$pid" 2>/dev/null
  if compgen -G 'pl.tmp-*' >/dev/null; then
    kill -TERM "$pid"
    kill -CONT "$pid"
    # -f: wait for the end, not for the next change of state (the stop counts as one)
    { wait -f "$pid"; } 2>/dev/null
    status=$?
    [ "$status" -eq 143 ] || fail "plan exited $status on SIGTERM, not killed by it (143)"
    caught=1
    break
  fi
  kill -CONT "$pid" 2>/dev/null
  { wait -f "$pid"; } 2>/dev/null
done
[ "$caught" -eq 1 ] || fail "never caught plan while its staging directory existed (5 attempts)"
[ ! -e pl ] || fail "an interrupted plan left its directory"
no_temporaries . "the interrupted plan"
set +m

finish cli_writers
