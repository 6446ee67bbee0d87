/*
** io_edgelist.c — the plain-text edge list (format in docs/formats.md), and
** tc_graph_read_file() and tc_graph_read_nx_file(), which pick a reader by file name.
**
**     # comment            '#' starts a comment anywhere on a line; blank lines are skipped
**     nodes 4              optional, before the first arc; otherwise n = 1 + largest id
**     0 1                  arc 0->1, capacity 1
**     1 0 3                arc 1->0, capacity 3
**
** Reader guarantees: any input yields a graph or one error line "path:line: problem"
** (TC_EINPUT) — fields counted, every number checked for syntax, overflow and range, ids
** against the header or TC_MAX_NODES, capacities >= 1, at most TC_MAX_ARCS arcs, at most
** MAX_LINE bytes of a line before its comment (so a binary file or an endless stream is
** rejected at once, in bounded memory). An unreadable file is TC_EIO "cannot read path:
** reason".
** Writer guarantees: "# topocoll edge list", "nodes n", then every arc in id order (both
** directions of a bidirectional graph), so reading it back gives the same arcs. Node kinds
** and labels have no place in this format and are dropped (a comment says so). The file
** is replaced atomically.
*/
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/io_atomic.h"
#include "core/io_text.h"
#include "core/text_lines.h"
#include "topocoll/graph_io.h"

#define MAX_FIELDS 4 /* one more than any valid line has, to report "found 4 fields" */
#define MAX_LINE 4096 /* bytes of a line before its comment */

/* Arcs as read, before n is known. */
typedef struct arc_list {
  int32_t *u, *v;
  int64_t *cap;
  int64_t m, room;
} arc_list;

typedef struct el_reader {
  const char *path;
  long long line;        /* current line number, from 1 */
  long long header_line; /* line of "nodes N", 0 if none */
  int64_t n;             /* from the header, or -1 */
  int32_t max_id;        /* largest id seen, -1 if none */
  arc_list arcs;
  tc_error *err;
} el_reader;

typedef struct field {
  const char *s;
  size_t len;
} field;

/* Record "path:line: <problem>" as TC_EINPUT. */
#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
static int fail_at_line(el_reader *r, const char *fmt, ...) {
  char problem[TC_ERRMSG_MAX];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(problem, sizeof problem, fmt, ap);
  va_end(ap);
  return tc_error_set(r->err, TC_EINPUT, "%s:%lld: %s", r->path, r->line, problem);
}

typedef enum { NUM_OK, NUM_SYNTAX, NUM_TOO_BIG } num_status;

/* Strict decimal integer: optional '-', then digits, nothing else; overflow detected. */
static num_status parse_int(field f, int64_t *out) {
  size_t i = f.len > 0 && f.s[0] == '-';
  if (i == f.len) return NUM_SYNTAX;
  int64_t x = 0;
  for (; i < f.len; i++) {
    if (f.s[i] < '0' || f.s[i] > '9') return NUM_SYNTAX;
    int d = f.s[i] - '0';
    if (x > (INT64_MAX - d) / 10) return NUM_TOO_BIG;
    x = 10 * x + d;
  }
  *out = f.s[0] == '-' ? -x : x;
  return NUM_OK;
}

/* Parse field `f`, called `what` in messages ("node id", "capacity", "nodes"). */
static int read_number(el_reader *r, field f, const char *what, int64_t *out) {
  num_status st = parse_int(f, out);
  if (st == NUM_OK) return TC_OK;
  tc_io_quoted q = tci_io_quote(f.s, f.len);
  return fail_at_line(r, "%s %s %s", what, q.text, st == NUM_TOO_BIG ? "is too large" : "is not an integer");
}

static int read_node_id(el_reader *r, field f, int32_t *id) {
  int64_t x;
  int rc = read_number(r, f, "node id", &x);
  if (rc) return rc;
  if (x < 0) return fail_at_line(r, "node id %lld is negative", (long long)x);
  if (r->n >= 0 && x >= r->n) {
    if (r->n == 0) return fail_at_line(r, "node %lld outside the empty graph (header says nodes 0)", (long long)x);
    return fail_at_line(r, "node %lld outside 0..%lld (header says nodes %lld)", (long long)x,
                        (long long)r->n - 1, (long long)r->n);
  }
  if (x >= TC_MAX_NODES)
    return fail_at_line(r, "node %lld outside 0..%d (the node limit)", (long long)x, TC_MAX_NODES - 1);
  *id = (int32_t)x;
  return TC_OK;
}

static int grow_arcs(el_reader *r) {
  arc_list *a = &r->arcs;
  if (a->m == TC_MAX_ARCS) return fail_at_line(r, "more than %lld arcs", (long long)TC_MAX_ARCS);
  int64_t room = a->room ? 2 * a->room : 1024;
  if (room > TC_MAX_ARCS) room = TC_MAX_ARCS;
  int32_t *u = realloc(a->u, (size_t)room * sizeof *u);
  if (u) a->u = u;
  int32_t *v = realloc(a->v, (size_t)room * sizeof *v);
  if (v) a->v = v;
  int64_t *c = realloc(a->cap, (size_t)room * sizeof *c);
  if (c) a->cap = c;
  if (!u || !v || !c) return tc_error_set(r->err, TC_ENOMEM, "%s: out of memory", r->path);
  a->room = room;
  return TC_OK;
}

/* "u v [cap]" */
static int read_arc(el_reader *r, const field *f, int nf) {
  if (nf >= 3 && f[2].s[0] == '{') /* "u v {'weight': 3}": nx.write_edgelist's data dict */
    return fail_at_line(r, "a data dict after \"u v\" is networkx's edge list, not this one; read it with nx(%s)",
                        r->path);
  if (nf > 3) return fail_at_line(r, "expected \"u v [cap]\", found %d or more fields", nf);
  if (nf < 2) return fail_at_line(r, "expected \"u v [cap]\", found 1 field");
  int32_t u, v;
  int64_t cap = 1;
  int rc = read_node_id(r, f[0], &u);
  if (!rc) rc = read_node_id(r, f[1], &v);
  if (!rc && nf == 3) rc = read_number(r, f[2], "capacity", &cap);
  if (rc) return rc;
  if (cap < 1) return fail_at_line(r, "capacity %lld must be >= 1", (long long)cap);
  if (r->arcs.m == r->arcs.room && (rc = grow_arcs(r))) return rc;
  arc_list *a = &r->arcs;
  a->u[a->m] = u;
  a->v[a->m] = v;
  a->cap[a->m] = cap;
  a->m++;
  if (u > r->max_id) r->max_id = u;
  if (v > r->max_id) r->max_id = v;
  return TC_OK;
}

/* "nodes N" */
static int read_header(el_reader *r, const field *f, int nf) {
  if (nf != 2) return fail_at_line(r, "expected \"nodes N\"");
  if (r->header_line) return fail_at_line(r, "second \"nodes\" header (the first is on line %lld)", r->header_line);
  if (r->arcs.m) return fail_at_line(r, "\"nodes\" header must come before the first arc");
  int64_t n;
  int rc = read_number(r, f[1], "nodes", &n);
  if (rc) return rc;
  if (n < 0) return fail_at_line(r, "nodes %lld is negative", (long long)n);
  if (n > TC_MAX_NODES) return fail_at_line(r, "nodes %lld exceeds the limit %d", (long long)n, TC_MAX_NODES);
  r->n = n;
  r->header_line = r->line;
  return TC_OK;
}

/* Split at blanks (CR counts as blank, so CRLF files read fine); stop at '#'. */
static int split_fields(char *s, size_t len, field *f) {
  int nf = 0;
  size_t i = 0;
  while (i < len) {
    if (strchr(" \t\r\v\f", s[i])) { i++; continue; }
    size_t start = i;
    while (i < len && !strchr(" \t\r\v\f", s[i])) i++;
    if (nf < MAX_FIELDS) f[nf] = (field){s + start, i - start};
    if (nf < MAX_FIELDS) nf++;
  }
  return nf;
}

static int read_line(el_reader *r, char *s, size_t len) {
  field f[MAX_FIELDS];
  int nf = split_fields(s, len, f);
  if (nf == 0) return TC_OK;
  if (f[0].len == 5 && memcmp(f[0].s, "nodes", 5) == 0) return read_header(r, f, nf);
  return read_arc(r, f, nf);
}

/* One line of the file (tci_text_read_lines: comment stripped, bounded, no NUL). */
static int on_line(void *ctx, long long line, char *s, size_t len) {
  el_reader *r = ctx;
  r->line = line;
  return read_line(r, s, len);
}

static int build_graph(el_reader *r, tc_graph **out) {
  if (r->n < 0 && r->arcs.m == 0)
    return tc_error_set(r->err, TC_EINPUT, "%s: no arcs and no \"nodes N\" header", r->path);
  int64_t n = r->n >= 0 ? r->n : (int64_t)r->max_id + 1;
  tc_graph_builder b;
  int rc = tc_graph_builder_init(&b, n, r->err);
  if (!rc) rc = tc_graph_builder_reserve(&b, r->arcs.m, r->err);
  for (int64_t i = 0; !rc && i < r->arcs.m; i++)
    rc = tc_graph_builder_add_arc(&b, r->arcs.u[i], r->arcs.v[i], r->arcs.cap[i], r->err);
  if (rc) {
    tc_graph_builder_destroy(&b);
    tc_error_prefix(r->err, "%s", r->path);
    return rc;
  }
  rc = tc_graph_builder_finish(&b, out, r->err);
  if (rc) tc_error_prefix(r->err, "%s", r->path);
  return rc;
}

int tc_graph_read_edgelist(const char *path, tc_graph **out, tc_error *err) {
  *out = NULL;
  FILE *fp = fopen(path, "r");
  if (!fp) return tc_error_set(err, TC_EIO, "cannot read %s: %s", path, strerror(errno));
  el_reader r = {.path = path, .n = -1, .max_id = -1, .err = err};
  int rc = tci_text_read_lines(fp, path, MAX_LINE, "an edge list", on_line, &r, err);
  fclose(fp);
  if (!rc) rc = build_graph(&r, out);
  free(r.arcs.u);
  free(r.arcs.v);
  free(r.arcs.cap);
  return rc;
}

static void write_arcs(const tc_graph *g, FILE *fp) {
  for (int64_t a = 0; a < g->m; a++) {
    if (g->cap[a] == 1)
      fprintf(fp, "%d %d\n", g->src[a], g->dst[a]);
    else
      fprintf(fp, "%d %d %lld\n", g->src[a], g->dst[a], (long long)g->cap[a]);
  }
}

static int has_labels(const tc_graph *g) {
  for (int32_t u = 0; g->label && u < g->n; u++)
    if (g->label[u]) return 1;
  return 0;
}

int tc_graph_write_edgelist(const tc_graph *g, const char *path, tc_error *err) {
  tc_atomic_file af;
  int rc = tci_atomic_open(&af, path, err);
  if (rc) return rc;
  fputs("# topocoll edge list\n", af.fp);
  if (tc_graph_count_kind(g, TC_NODE_SWITCH) > 0 || has_labels(g))
    fputs("# node kinds and labels are not stored in edge lists (the JSON format keeps them)\n", af.fp);
  fprintf(af.fp, "nodes %d\n", g->n);
  write_arcs(g, af.fp);
  return tci_atomic_commit(&af, err);
}

static int has_json_extension(const char *path) {
  size_t len = strlen(path);
  return len >= 5 && strcasecmp(path + len - 5, ".json") == 0;
}

int tc_graph_read_file(const char *path, tc_graph **out, tc_error *err) {
  return has_json_extension(path) ? tc_graph_read_json(path, out, err) : tc_graph_read_edgelist(path, out, err);
}

int tc_graph_read_nx_file(const char *path, tc_graph **out, tc_error *err) {
  return has_json_extension(path) ? tc_graph_read_node_link(path, out, err) : tc_graph_read_nx_edgelist(path, out, err);
}
