/*
** graph_hint.c — the bidir(...) hint for an edge list of one-way links (graph_hint.h).
** It is a note, not an error: a directed graph is a legitimate input (uniring, Kautz, any
** digraph of the paper), so the command goes on; it only says how the file was read and
** how to read it the other way.
*/
#include "graph_hint.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cli.h"

/* Is there an arc u->v? The arcs of u are sorted by destination (graph.h). */
static int has_arc(const tc_graph *g, int32_t u, int32_t v) {
  int64_t lo = g->out_off[u], hi = g->out_off[u + 1];
  while (lo < hi) {
    int64_t mid = lo + (hi - lo) / 2;
    if (g->dst[mid] < v) lo = mid + 1;
    else hi = mid;
  }
  return lo < g->out_off[u + 1] && g->dst[lo] == v;
}

int tc_cli_graph_one_way(const tc_graph *g) {
  int links = 0;
  for (int64_t a = 0; a < g->m; a++) {
    if (g->src[a] == g->dst[a]) continue;
    if (has_arc(g, g->dst[a], g->src[a])) return 0;
    links = 1;
  }
  return links;
}

void tc_cli_graph_hint(const char *cmd, const char *spec, const tc_graph *g) {
  size_t len = strlen(spec);
  /* file(PATH) or nx(PATH): the two readers whose edge lists say nothing of direction */
  size_t open = !strncmp(spec, "file(", 5) ? 5 : !strncmp(spec, "nx(", 3) ? 3 : 0;
  if (!open || len < open + 2 || spec[len - 1] != ')') return;
  const char *path = spec + open;
  size_t plen = len - open - 1;
  /* one reader and nothing around it; JSON documents say what they are themselves */
  if (memchr(path, '(', plen) || memchr(path, ')', plen)) return;
  if (plen >= 5 && !strncasecmp(path + plen - 5, ".json", 5)) return;
  if (!tc_cli_graph_one_way(g)) return;
  tc_cli_error(cmd,
               "note: %.*s lists every link in one direction only (no arc has its reverse), so it is read as "
               "a directed graph; if its links are undirected (as networkx writes a Graph), use "
               "'bidir(%.*s)'",
               (int)plen, path, (int)len, spec);
}
