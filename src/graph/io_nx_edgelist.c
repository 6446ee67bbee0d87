/*
** io_nx_edgelist.c — the edge list as networkx writes and reads it (nx.write_edgelist,
** nx.read_edgelist; format in docs/formats.md, "networkx edge list"):
**
**     # comment           '#' starts a comment anywhere on a line (networkx cuts there too)
**     a b                 a link from node a to node b, capacity 1
**     a c {}              networkx's default data=True with no attributes
**     b c {'weight': 3}   capacity 3: the dict's 'capacity', else its 'weight', else 1
**     c a 5               nx.write_weighted_edgelist's third column, capacity 5
**
** Nodes are names (any token), numbered by node_names.h's rule (0..n-1 stay ids, anything
** else in order of first appearance, keeping the names as labels). Each line is one arc as
** written: networkx writes an undirected Graph's links once, so such a file reads as a
** directed graph and bidir(nx(PATH)) gives the undirected one.
** Reader guarantees: as io_edgelist.c's — a graph or one line "path:line: problem"
** (TC_EINPUT), bounded line length, every name, count and capacity checked; the data dict
** is parsed as the Python literal networkx writes (strings, numbers, nested brackets), and
** only the capacity it yields is kept.
** Writer guarantees: every arc (both directions of a bidirectional graph) as
** "u v {'capacity': c}" with the node ids as names — the capacity always written, since
** networkx's flow algorithms read a missing one as infinite;
** nx.read_edgelist(path, create_using=nx.MultiDiGraph) reads the same arcs, and so does
** nx(PATH), with the same ids when no node is isolated (the names are then 0..n-1).
** Isolated nodes, node kinds and labels have no place in an edge list (node-link JSON
** keeps them): a comment says when some were left out. Replaced atomically.
*/
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/io_atomic.h"
#include "core/io_text.h"
#include "core/text_lines.h"
#include "node_names.h"
#include "topocoll/graph_io.h"

#define MAX_LINE 65536 /* bytes of a line before its comment: names and a dict of attributes */

typedef struct nx_arcs {
  int32_t *u, *v; /* name indices */
  int64_t *cap;
  int64_t m, room;
} nx_arcs;

typedef struct nx_reader {
  const char *path;
  long long line;
  tci_node_names names;
  nx_arcs arcs;
  tc_error *err;
} nx_reader;

#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
static int fail_at_line(nx_reader *r, const char *fmt, ...) {
  char problem[TC_ERRMSG_MAX];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(problem, sizeof problem, fmt, ap);
  va_end(ap);
  return tc_error_set(r->err, TC_EINPUT, "%s:%lld: %s", r->path, r->line, problem);
}

static int is_blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

/* ---- capacities ---- */

/* A capacity as networkx writes numbers: "3", or a float with a zero fraction "3.0".
   `what` is "capacity" or "weight", named in the message. */
static int read_capacity(nx_reader *r, const char *what, const char *s, size_t len, int64_t *out) {
  tc_io_quoted q = tci_io_quote(s, len);
  size_t i = len > 0 && (s[0] == '-' || s[0] == '+'), digits = 0;
  int64_t x = 0;
  int too_big = 0;
  for (; i < len && s[i] >= '0' && s[i] <= '9'; i++, digits++) {
    int d = s[i] - '0';
    if (x > (INT64_MAX - d) / 10) too_big = 1;
    else x = 10 * x + d;
  }
  if (i < len && s[i] == '.') /* a fraction of zeros only */
    for (i++; i < len && s[i] == '0'; i++) continue;
  if (digits == 0 || i != len) return fail_at_line(r, "%s %s is not a whole number", what, q.text);
  if (too_big) return fail_at_line(r, "%s %s is too large", what, q.text);
  if (s[0] == '-' || x < 1) return fail_at_line(r, "%s %s must be >= 1", what, q.text);
  *out = x;
  return TC_OK;
}

/* ---- the data dict, a Python literal: {'key': value, ...} ---- */

typedef struct cursor {
  const char *s;
  size_t len, i;
} cursor;

static void skip_blanks(cursor *c) {
  while (c->i < c->len && is_blank(c->s[c->i])) c->i++;
}

/* A quoted string at c->i ('...' or "...", backslash escapes); its body in [*b, *e). */
static int scan_string(cursor *c, size_t *b, size_t *e) {
  char quote = c->s[c->i++];
  *b = c->i;
  while (c->i < c->len && c->s[c->i] != quote) c->i += c->s[c->i] == '\\' ? 2 : 1;
  if (c->i >= c->len) return -1;
  *e = c->i++;
  return 0;
}

/* One value: a string, a bracketed value ([...], (...), {...}, nested), or a bare token
   (a number, True, None...); its text in [*b, *e). */
static int scan_value(cursor *c, size_t *b, size_t *e) {
  size_t start, end;
  *b = c->i;
  if (c->i >= c->len) return -1;
  char ch = c->s[c->i];
  if (ch == '\'' || ch == '"') {
    if (scan_string(c, &start, &end)) return -1;
  } else if (ch == '[' || ch == '(' || ch == '{') {
    int depth = 0;
    do {
      ch = c->s[c->i];
      if (ch == '\'' || ch == '"') {
        if (scan_string(c, &start, &end)) return -1;
        continue;
      }
      depth += (ch == '[' || ch == '(' || ch == '{') - (ch == ']' || ch == ')' || ch == '}');
      c->i++;
    } while (depth > 0 && c->i < c->len);
    if (depth > 0) return -1;
  } else {
    while (c->i < c->len && !is_blank(c->s[c->i]) && !strchr(",:}])'\"", c->s[c->i])) c->i++;
    if (c->i == *b) return -1;
  }
  *e = c->i;
  return 0;
}

static int is_key(cursor *c, size_t b, size_t e, const char *key) {
  return e - b == strlen(key) && memcmp(c->s + b, key, e - b) == 0;
}

/* The dict s[0..len): the capacity its 'capacity' or 'weight' gives, else 1. */
static int read_data_dict(nx_reader *r, const char *s, size_t len, int64_t *cap) {
  cursor c = {s, len, 1};
  size_t cap_b = 0, cap_e = 0, w_b = 0, w_e = 0;
  int ok = 1;
  skip_blanks(&c);
  if (c.i < len && s[c.i] == '}') c.i++;
  else
    for (;;) {
      size_t kb = c.i, ke, vb, ve;
      int string_key = c.i < len && (s[c.i] == '\'' || s[c.i] == '"');
      if (string_key ? scan_string(&c, &kb, &ke) : scan_value(&c, &kb, &ke)) { ok = 0; break; }
      skip_blanks(&c);
      if (c.i >= len || s[c.i] != ':') { ok = 0; break; }
      c.i++;
      skip_blanks(&c);
      if (scan_value(&c, &vb, &ve)) { ok = 0; break; }
      if (string_key && is_key(&c, kb, ke, "capacity")) cap_b = vb, cap_e = ve;
      if (string_key && is_key(&c, kb, ke, "weight")) w_b = vb, w_e = ve;
      skip_blanks(&c);
      if (c.i < len && s[c.i] == ',') {
        c.i++;
        skip_blanks(&c);
      } else if (c.i >= len || s[c.i] != '}') { ok = 0; break; }
      if (c.i < len && s[c.i] == '}') { c.i++; break; }
    }
  skip_blanks(&c);
  if (!ok || c.i != len) {
    tc_io_quoted q = tci_io_quote(s, len);
    return fail_at_line(r, "the link data %s is not a dict as networkx writes it ({'capacity': 3})", q.text);
  }
  *cap = 1;
  if (cap_e > cap_b) return read_capacity(r, "capacity", s + cap_b, cap_e - cap_b, cap);
  if (w_e > w_b) return read_capacity(r, "weight", s + w_b, w_e - w_b, cap);
  return TC_OK;
}

/* ---- lines ---- */

static int grow_arcs(nx_reader *r) {
  nx_arcs *a = &r->arcs;
  if (a->m == TC_MAX_ARCS) return fail_at_line(r, "more than %lld links", (long long)TC_MAX_ARCS);
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

static int add_name(nx_reader *r, const char *s, size_t len, int32_t *index) {
  int added;
  int rc = tci_node_names_add(&r->names, tci_node_names_canonical_int(s, len), s, len, index, &added, r->err);
  if (rc == TC_EINPUT) return fail_at_line(r, "%s", r->err->msg);
  return rc;
}

/* The next blank-separated token of s[*i..len) in [*b, *e); 0 when there is none. */
static int next_token(const char *s, size_t len, size_t *i, size_t *b, size_t *e) {
  while (*i < len && is_blank(s[*i])) (*i)++;
  if (*i == len) return 0;
  *b = *i;
  while (*i < len && !is_blank(s[*i])) (*i)++;
  *e = *i;
  return 1;
}

/* "u v", "u v {dict}" or "u v number", comment already cut. */
static int read_line(nx_reader *r, const char *s, size_t len) {
  size_t i = 0, ub, ue, vb, ve, db, de;
  if (!next_token(s, len, &i, &ub, &ue)) return TC_OK;
  if (!next_token(s, len, &i, &vb, &ve))
    return fail_at_line(r, "expected \"u v\" or \"u v {data}\", found 1 field");
  int64_t cap = 1;
  int rc = TC_OK;
  if (next_token(s, len, &i, &db, &de)) {
    de = len;
    while (de > db && is_blank(s[de - 1])) de--;
    if (s[db] == '{') rc = read_data_dict(r, s + db, de - db, &cap);
    else if (memchr(s + db, ' ', de - db) || memchr(s + db, '\t', de - db))
      rc = fail_at_line(r, "expected \"u v\", \"u v {data}\" or \"u v capacity\", found more fields");
    else rc = read_capacity(r, "capacity", s + db, de - db, &cap);
  }
  int32_t u, v;
  if (!rc) rc = add_name(r, s + ub, ue - ub, &u);
  if (!rc) rc = add_name(r, s + vb, ve - vb, &v);
  if (!rc && r->arcs.m == r->arcs.room) rc = grow_arcs(r);
  if (rc) return rc;
  nx_arcs *a = &r->arcs;
  a->u[a->m] = u;
  a->v[a->m] = v;
  a->cap[a->m++] = cap;
  return TC_OK;
}

/* One line of the file (tci_text_read_lines: comment stripped, bounded, no NUL). */
static int on_line(void *ctx, long long line, char *s, size_t len) {
  nx_reader *r = ctx;
  r->line = line;
  return read_line(r, s, len);
}

static int build_graph(nx_reader *r, tc_graph **out) {
  if (r->arcs.m == 0) return tc_error_set(r->err, TC_EINPUT, "%s: no links (an edge list names its nodes by its links)", r->path);
  int32_t *id = NULL;
  int named = 0;
  tc_graph_builder b;
  int rc = tci_node_names_ids(&r->names, &id, &named, r->err);
  if (rc) return rc;
  rc = tc_graph_builder_init(&b, r->names.n, r->err);
  if (!rc) rc = tc_graph_builder_reserve(&b, r->arcs.m, r->err);
  for (int64_t k = 0; !rc && k < r->arcs.m; k++)
    rc = tc_graph_builder_add_arc(&b, id[r->arcs.u[k]], id[r->arcs.v[k]], r->arcs.cap[k], r->err);
  for (int32_t k = 0; !rc && named && k < r->names.n; k++)
    rc = tc_graph_builder_set_label(&b, id[k], tci_node_names_text(&r->names, k), r->err);
  free(id);
  if (!rc) rc = tc_graph_builder_finish(&b, out, r->err);
  else tc_graph_builder_destroy(&b);
  if (rc) tc_error_prefix(r->err, "%s", r->path);
  return rc;
}

int tc_graph_read_nx_edgelist(const char *path, tc_graph **out, tc_error *err) {
  *out = NULL;
  FILE *fp = fopen(path, "r");
  if (!fp) return tc_error_set(err, TC_EIO, "cannot read %s: %s", path, strerror(errno));
  nx_reader r = {.path = path, .err = err};
  int rc = tci_text_read_lines(fp, path, MAX_LINE, "an edge list", on_line, &r, err);
  fclose(fp);
  if (!rc) rc = build_graph(&r, out);
  tci_node_names_destroy(&r.names);
  free(r.arcs.u);
  free(r.arcs.v);
  free(r.arcs.cap);
  return rc;
}

/* ---- writer ---- */

static int32_t count_isolated(const tc_graph *g) {
  int32_t isolated = 0;
  for (int32_t u = 0; u < g->n; u++)
    isolated += g->out_off[u] == g->out_off[u + 1] && g->in_off[u] == g->in_off[u + 1];
  return isolated;
}

static int has_labels(const tc_graph *g) {
  for (int32_t u = 0; g->label && u < g->n; u++)
    if (g->label[u]) return 1;
  return 0;
}

int tc_graph_write_nx_edgelist(const tc_graph *g, const char *path, tc_error *err) {
  tc_atomic_file af;
  int rc = tci_atomic_open(&af, path, err);
  if (rc) return rc;
  FILE *fp = af.fp;
  fprintf(fp, "# topocoll graph as a networkx edge list: %lld arcs, one per line%s\n", (long long)g->m,
          g->bidirectional ? " (both directions of every link)" : "");
  fprintf(fp, "# read it with nx.read_edgelist(path, create_using=nx.MultiDiGraph)%s\n",
          g->bidirectional && tc_graph_count_multi_arcs(g) == 0 ? ", or as an undirected Graph with nx.read_edgelist(path)" : "");
  int32_t isolated = count_isolated(g);
  if (isolated) fprintf(fp, "# %d isolated node%s not listed (node-link JSON keeps them)\n", isolated, isolated == 1 ? " is" : "s are");
  if (tc_graph_count_kind(g, TC_NODE_SWITCH) > 0 || has_labels(g))
    fputs("# node kinds and labels are not stored in edge lists (node-link JSON keeps them)\n", fp);
  for (int64_t a = 0; a < g->m; a++)
    fprintf(fp, "%d %d {'capacity': %lld}\n", g->src[a], g->dst[a], (long long)g->cap[a]);
  return tci_atomic_commit(&af, err);
}
