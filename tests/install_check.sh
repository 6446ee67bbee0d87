#!/usr/bin/env bash
# install_check.sh BUILD_DIR CC [EXTRA_CFLAGS] — `cmake --install` into a temporary prefix,
# then build a client program with only `pkg-config topocoll` and run it, and run the
# installed binary: proves binary, library, headers and pkg-config file are complete.
set -eu
build=$1 cc=$2 extra=${3:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cmake --install "$build" --prefix "$tmp/prefix" >/dev/null
export PKG_CONFIG_PATH="$tmp/prefix/lib/pkgconfig"
cat >"$tmp/client.c" <<'C'
#include <stdio.h>
#include <topocoll/metrics.h>
#include <topocoll/spec.h>
int main(void) {
  tc_graph *g;
  tc_error e;
  int32_t d;
  if (tc_spec_build("kautz(2,3)", &g, &e) || tc_graph_diameter(g, &d, &e)) return 1;
  printf("%d %d\n", g->n, d); /* (d+1) d^n = 24 nodes, diameter n+1 = 4 (paper 000 Table 9) */
  tc_graph_destroy(g);
  return 0;
}
C
# shellcheck disable=SC2046,SC2086
"$cc" $extra "$tmp/client.c" $(pkg-config --cflags --libs topocoll) -Wl,-rpath,"$tmp/prefix/lib" -o "$tmp/client"
[ "$("$tmp/client")" = "24 4" ] || { echo "installed library gave: $("$tmp/client")" >&2; exit 1; }
"$tmp/prefix/bin/topocoll" --version | grep -q '^topocoll ' || { echo "installed binary does not run" >&2; exit 1; }
echo "install_check: ok"
