# lib_cli.sh — checks shared by the tests/cli_*.sh scripts, which source it after
# setting `bin` (the topocoll binary under test). Not a test itself: CMake runs only
# tests/cli_*.sh.
#
# Provides: $tmp, a scratch directory removed on exit; fail MESSAGE (count a failed check,
# print it, go on); expect STATUS CMD... (run CMD with stdout in $tmp/out and stderr in
# $tmp/err, and check its exit status); expect_err STATUS FRAGMENT CMD... (also check
# that CMD printed exactly one error line containing FRAGMENT and nothing on stdout);
# expect_line STATUS LINE CMD... (expect_err with the whole line); algos SEP [COLL] (the
# registry's names, from `sched --list`); finish NAME (exit 1 with the count of failed
# checks, or 0 with "NAME: all checks passed").
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL: $*" >&2; fails=$((fails + 1)); }

# expect STATUS CMD... : run, compare exit status
expect() {
  local want=$1; shift
  "$@" >"$tmp/out" 2>"$tmp/err"
  local got=$?
  [ "$got" -eq "$want" ] || fail "'$*' exited $got, expected $want: $(cat "$tmp/err")"
}

# one-line error containing a fragment, nothing on stdout
expect_err() {
  local want=$1 frag=$2; shift 2
  expect "$want" "$@"
  [ "$(wc -l <"$tmp/err")" -eq 1 ] || fail "'$*' printed $(wc -l <"$tmp/err") error lines: $(cat "$tmp/err")"
  grep -qF -- "$frag" "$tmp/err" || fail "'$*' error lacks '$frag': $(cat "$tmp/err")"
  [ ! -s "$tmp/out" ] || fail "'$*' printed a report despite failing"
}

# expect_line STATUS LINE CMD... : expect_err, and the error line is exactly LINE
expect_line() {
  local want=$1 line=$2; shift 2
  expect_err "$want" "$line" "$@"
  [ "$(cat "$tmp/err")" = "$line" ] || fail "'$*' printed '$(cat "$tmp/err")', expected '$line'"
}

# algos SEP [COLL] : the registry's names in listing order joined by SEP — every one, or
# those that build COLL — read off `topocoll sched --list`: what the "unknown algorithm"
# and "(use --algo ...)" lines list. Tests derive those lists here, so a new algorithm
# touches no CLI test; the registry's own test (test_baselines.c) pins the list once.
algos() {
  "$bin" sched --list | awk -F'\t' -v sep="$1" -v coll="${2:-}" \
    'coll == "" || index("," $2 ",", "," coll ",") { printf "%s%s", (n++ ? sep : ""), $1 }'
}

# finish NAME : the script's exit status and last line
finish() {
  if [ "$fails" -ne 0 ]; then echo "$fails check(s) failed" >&2; exit 1; fi
  echo "$1: all checks passed"
}
