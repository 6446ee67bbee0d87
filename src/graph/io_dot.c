/*
** io_dot.c — Graphviz DOT drawing of a graph (conventions in docs/formats.md).
**
** Guarantees: a graph that is not bidirectional becomes a `digraph` with one `u -> v`
** per arc, in arc id order; a bidirectional one becomes a `graph` with one `u -- v` per
** opposite arc pair (a self-loop is its own pair), listed at the pair's lower arc id.
** Every node gets a statement (so isolated nodes are drawn): switches are boxes, labels
** become node labels. An arc or link of capacity c > 1 carries label="c" and a pen width
** of c, capped at 8 so a fat link does not swallow the drawing. Every name and label is
** a quoted DOT string with '"' and '\' escaped and control characters neutralised, so no
** label can break the syntax. The file is replaced atomically.
*/
#include "core/io_atomic.h"
#include "topocoll/graph_io.h"

#define MAX_PENWIDTH 8

/* Write s as a DOT quoted string that displays literally. */
static void put_quoted(FILE *fp, const char *s) {
  fputc('"', fp);
  for (; *s; s++) {
    unsigned char c = (unsigned char)*s;
    if (c == '"' || c == '\\') fprintf(fp, "\\%c", c);
    else if (c == '\n') fputs("\\n", fp);
    else if (c < 0x20 || c == 0x7f) fputc(' ', fp);
    else fputc(c, fp);
  }
  fputc('"', fp);
}

static void put_node(const tc_graph *g, FILE *fp, int32_t u) {
  const char *label = tc_graph_label(g, u);
  int is_switch = g->kind[u] == TC_NODE_SWITCH;
  fprintf(fp, "  \"%d\"", u);
  if (label || is_switch) {
    fputs(" [", fp);
    if (label) {
      fputs("label=", fp);
      put_quoted(fp, label);
    }
    if (is_switch) fputs(label ? ", shape=box" : "shape=box", fp);
    fputc(']', fp);
  }
  fputs(";\n", fp);
}

static void put_edge(const tc_graph *g, FILE *fp, int64_t a, const char *op) {
  fprintf(fp, "  \"%d\" %s \"%d\"", g->src[a], op, g->dst[a]);
  long long c = (long long)g->cap[a];
  if (c > 1) fprintf(fp, " [label=\"%lld\", penwidth=%lld]", c, c < MAX_PENWIDTH ? c : MAX_PENWIDTH);
  fputs(";\n", fp);
}

int tc_graph_write_dot(const tc_graph *g, const char *name, const char *path, tc_error *err) {
  tc_atomic_file af;
  int rc = tci_atomic_open(&af, path, err);
  if (rc) return rc;
  FILE *fp = af.fp;
  fputs(g->bidirectional ? "graph " : "digraph ", fp);
  put_quoted(fp, name ? name : "topocoll");
  fputs(" {\n", fp);
  for (int32_t u = 0; u < g->n; u++) put_node(g, fp, u);
  for (int64_t a = 0; a < g->m; a++) {
    if (!g->bidirectional) put_edge(g, fp, a, "->");
    else if (g->rev[a] >= a) put_edge(g, fp, a, "--");
  }
  fputs("}\n", fp);
  return tci_atomic_commit(&af, err);
}
