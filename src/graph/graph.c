/*
** graph.c — building, querying and releasing tc_graph (contract in graph.h).
**
** Construction sorts arcs by (src, dst, cap) with a counting sort on src followed by a
** short insertion sort per node (degrees are small in every topology we build), so a
** million-node, four-million-arc graph builds in well under a second. A node with more
** than SMALL_DEGREE arcs is sorted by qsort instead: an edge list may give one node
** a million arcs in reverse order, which insertion sort would take hours over.
*/
#include "topocoll/graph.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/budget.h"

static int oom(tc_error *err) { return tc_error_set(err, TC_ENOMEM, "out of memory"); }

/* What a graph of n nodes and m arcs holds at the peak of tc_graph_builder_finish, from the
   layout: per node the kind (1 B), out_off, in_off and the sort's fill array (8 B each);
   per arc the builder's src, dst, cap (16 B) beside the graph's src, dst, cap, in_arc
   (24 B) and rev (8 B). Checked against the memory limit before the arrays are
   allocated, so a file that declares 16 M nodes in a few bytes is refused, not read. */
#define BYTES_PER_NODE 25.0
#define BYTES_PER_ARC 48.0

static int check_memory(int64_t n, int64_t m, tc_error *err) {
  char what[96];
  snprintf(what, sizeof what, "a graph of %lld nodes and %lld arcs", (long long)n, (long long)m);
  return tci_budget_check(BYTES_PER_NODE * (double)n + BYTES_PER_ARC * (double)m, what, NULL, err);
}

#define SMALL_DEGREE 32

/* The order of arcs within one source's range. */
typedef struct arc_key {
  int32_t dst;
  int64_t cap;
} arc_key;

static int cmp_arc_key(const void *pa, const void *pb) {
  const arc_key *a = pa, *b = pb;
  if (a->dst != b->dst) return a->dst < b->dst ? -1 : 1;
  return (a->cap > b->cap) - (a->cap < b->cap);
}

/* Sort arcs [lo, hi) of one source by (dst, cap); `keys` has room for hi - lo. */
static void sort_out_arcs(tc_graph *g, int64_t lo, int64_t hi, arc_key *keys) {
  if (hi - lo > SMALL_DEGREE) {
    for (int64_t i = lo; i < hi; i++) keys[i - lo] = (arc_key){g->dst[i], g->cap[i]};
    qsort(keys, (size_t)(hi - lo), sizeof *keys, cmp_arc_key);
    for (int64_t i = lo; i < hi; i++) g->dst[i] = keys[i - lo].dst, g->cap[i] = keys[i - lo].cap;
    return;
  }
  for (int64_t i = lo + 1; i < hi; i++) {
    int32_t d = g->dst[i];
    int64_t c = g->cap[i], j = i;
    while (j > lo && (g->dst[j - 1] > d || (g->dst[j - 1] == d && g->cap[j - 1] > c))) {
      g->dst[j] = g->dst[j - 1];
      g->cap[j] = g->cap[j - 1];
      j--;
    }
    g->dst[j] = d;
    g->cap[j] = c;
  }
}

int tc_graph_builder_init(tc_graph_builder *b, int64_t n, tc_error *err) {
  memset(b, 0, sizeof *b);
  if (n < 0 || n > TC_MAX_NODES)
    return tc_error_set(err, TC_ERANGE, "graph with %lld nodes is out of range (at most %d)",
                        (long long)n, TC_MAX_NODES);
  int rc = check_memory(n, 0, err);
  if (rc) return rc;
  b->n = (int32_t)n;
  b->kind = calloc((size_t)n + 1, 1);
  if (!b->kind) return oom(err);
  return TC_OK;
}

int tc_graph_builder_reserve(tc_graph_builder *b, int64_t m, tc_error *err) {
  if (m <= b->room) return TC_OK;
  if (m > TC_MAX_ARCS)
    return tc_error_set(err, TC_ERANGE, "graph with %lld arcs is out of range (at most %lld)",
                        (long long)m, (long long)TC_MAX_ARCS);
  int rc = check_memory(b->n, m, err);
  if (rc) return rc;
  int32_t *s = realloc(b->src, (size_t)m * sizeof *s);
  if (!s) return oom(err);
  b->src = s;
  int32_t *d = realloc(b->dst, (size_t)m * sizeof *d);
  if (!d) return oom(err);
  b->dst = d;
  int64_t *c = realloc(b->cap, (size_t)m * sizeof *c);
  if (!c) return oom(err);
  b->cap = c;
  b->room = m;
  return TC_OK;
}

int tc_graph_builder_add_arc(tc_graph_builder *b, int64_t u, int64_t v, int64_t cap, tc_error *err) {
  if (u < 0 || u >= b->n || v < 0 || v >= b->n)
    return tc_error_set(err, TC_EINPUT, "arc %lld->%lld names a node outside 0..%d",
                        (long long)u, (long long)v, b->n - 1);
  if (cap < 1)
    return tc_error_set(err, TC_EINPUT, "arc %lld->%lld has capacity %lld (must be >= 1)",
                        (long long)u, (long long)v, (long long)cap);
  if (b->m == b->room) {
    int64_t want = b->room ? 2 * b->room : 16;
    if (want > TC_MAX_ARCS) want = TC_MAX_ARCS;
    if (b->m >= want)
      return tc_error_set(err, TC_ERANGE, "graph exceeds %lld arcs", (long long)TC_MAX_ARCS);
    int rc = tc_graph_builder_reserve(b, want, err);
    if (rc) return rc;
  }
  b->src[b->m] = (int32_t)u;
  b->dst[b->m] = (int32_t)v;
  b->cap[b->m] = cap;
  b->m++;
  return TC_OK;
}

int tc_graph_builder_add_edge(tc_graph_builder *b, int64_t u, int64_t v, int64_t cap, tc_error *err) {
  int rc = tc_graph_builder_add_arc(b, u, v, cap, err);
  if (rc || u == v) return rc;
  return tc_graph_builder_add_arc(b, v, u, cap, err);
}

int tc_graph_builder_set_kind(tc_graph_builder *b, int64_t u, tc_node_kind kind, tc_error *err) {
  if (u < 0 || u >= b->n)
    return tc_error_set(err, TC_EINPUT, "node %lld outside 0..%d", (long long)u, b->n - 1);
  b->kind[u] = (uint8_t)kind;
  return TC_OK;
}

int tc_graph_builder_set_label(tc_graph_builder *b, int64_t u, const char *label, tc_error *err) {
  if (u < 0 || u >= b->n)
    return tc_error_set(err, TC_EINPUT, "node %lld outside 0..%d", (long long)u, b->n - 1);
  if (!b->label) {
    b->label = calloc((size_t)b->n, sizeof *b->label);
    if (!b->label) return oom(err);
  }
  char *copy = label ? strdup(label) : NULL;
  if (label && !copy) return oom(err);
  free(b->label[u]);
  b->label[u] = copy;
  return TC_OK;
}

static void free_labels(char **label, int32_t n) {
  if (!label) return;
  for (int32_t i = 0; i < n; i++) free(label[i]);
  free(label);
}

void tc_graph_builder_destroy(tc_graph_builder *b) {
  free(b->src);
  free(b->dst);
  free(b->cap);
  free(b->kind);
  free_labels(b->label, b->n);
  memset(b, 0, sizeof *b);
}

void tc_graph_destroy(tc_graph *g) {
  if (!g) return;
  free(g->src);
  free(g->dst);
  free(g->cap);
  free(g->out_off);
  free(g->in_off);
  free(g->in_arc);
  free(g->rev);
  free(g->kind);
  free_labels(g->label, g->n);
  free(g);
}

/* Pair every arc with an opposite arc of equal capacity; fills g->rev or leaves it NULL. */
static int pair_opposite_arcs(tc_graph *g, tc_error *err) {
  int64_t *rev = malloc((size_t)(g->m ? g->m : 1) * sizeof *rev);
  if (!rev) return oom(err);
  for (int64_t a = 0; a < g->m; a++) rev[a] = -1;
  int64_t first = 0; /* the first arc of a's run of parallel arcs u->v, kept as a moves on
                        (searching back for it from every arc is quadratic in the run) */
  for (int64_t a = 0; a < g->m; a++) {
    if (a == 0 || g->src[a - 1] != g->src[a] || g->dst[a - 1] != g->dst[a]) first = a;
    if (rev[a] >= 0) continue;
    int32_t u = g->src[a], v = g->dst[a];
    if (u == v) { rev[a] = a; continue; }
    /* The k-th arc u->v (in sorted order) pairs with the k-th arc v->u. */
    int64_t k = a - first, lo = g->out_off[v], hi = g->out_off[v + 1];
    while (lo < hi) { /* first arc v->w with w >= u */
      int64_t mid = lo + (hi - lo) / 2;
      if (g->dst[mid] < u) lo = mid + 1; else hi = mid;
    }
    int64_t b = lo + k;
    if (b >= g->out_off[v + 1] || g->dst[b] != u || g->cap[b] != g->cap[a] || rev[b] >= 0) {
      free(rev);
      return TC_OK;
    }
    rev[a] = b;
    rev[b] = a;
  }
  g->rev = rev;
  g->bidirectional = 1;
  return TC_OK;
}

int tc_graph_builder_finish(tc_graph_builder *b, tc_graph **out, tc_error *err) {
  *out = NULL;
  tc_graph *g = calloc(1, sizeof *g);
  int32_t n = b->n;
  int64_t m = b->m;
  if (!g) { tc_graph_builder_destroy(b); return oom(err); }
  g->n = n;
  g->m = m;
  size_t ma = (size_t)(m ? m : 1);
  g->src = malloc(ma * sizeof *g->src);
  g->dst = malloc(ma * sizeof *g->dst);
  g->cap = malloc(ma * sizeof *g->cap);
  g->in_arc = malloc(ma * sizeof *g->in_arc);
  g->out_off = calloc((size_t)n + 1, sizeof *g->out_off);
  g->in_off = calloc((size_t)n + 1, sizeof *g->in_off);
  if (!g->src || !g->dst || !g->cap || !g->in_arc || !g->out_off || !g->in_off) goto nomem;

  /* Counting sort by source, then each node's arcs by (dst, cap). */
  for (int64_t i = 0; i < m; i++) g->out_off[b->src[i] + 1]++;
  int64_t max_degree = 0;
  for (int32_t u = 0; u < n; u++) {
    if (g->out_off[u + 1] > max_degree) max_degree = g->out_off[u + 1];
    g->out_off[u + 1] += g->out_off[u];
  }
  int64_t *fill = malloc(((size_t)n + 1) * sizeof *fill);
  arc_key *keys = max_degree > SMALL_DEGREE ? malloc((size_t)max_degree * sizeof *keys) : NULL;
  if (!fill || (max_degree > SMALL_DEGREE && !keys)) {
    free(fill);
    goto nomem;
  }
  memcpy(fill, g->out_off, ((size_t)n + 1) * sizeof *fill);
  for (int64_t i = 0; i < m; i++) {
    int64_t pos = fill[b->src[i]]++;
    g->src[pos] = b->src[i];
    g->dst[pos] = b->dst[i];
    g->cap[pos] = b->cap[i];
  }
  for (int32_t u = 0; u < n; u++) sort_out_arcs(g, g->out_off[u], g->out_off[u + 1], keys);
  free(keys);
  /* In-CSR: scanning arcs in (src, dst) order keeps each in-list sorted by source. */
  for (int64_t a = 0; a < m; a++) g->in_off[g->dst[a] + 1]++;
  for (int32_t v = 0; v < n; v++) g->in_off[v + 1] += g->in_off[v];
  memcpy(fill, g->in_off, ((size_t)n + 1) * sizeof *fill);
  for (int64_t a = 0; a < m; a++) g->in_arc[fill[g->dst[a]]++] = a;
  free(fill);

  g->kind = b->kind;
  g->label = b->label;
  b->kind = NULL;
  b->label = NULL;
  tc_graph_builder_destroy(b);
  int rc = pair_opposite_arcs(g, err);
  if (rc) { tc_graph_destroy(g); return rc; }
  *out = g;
  return TC_OK;
nomem:
  tc_graph_builder_destroy(b);
  tc_graph_destroy(g);
  return oom(err);
}

static int64_t regular(const tc_graph *g, const int64_t *off) {
  if (g->n == 0) return 0;
  int64_t d = off[1] - off[0];
  for (int32_t u = 1; u < g->n; u++)
    if (off[u + 1] - off[u] != d) return -1;
  return d;
}

int64_t tc_graph_out_regular(const tc_graph *g) { return regular(g, g->out_off); }
int64_t tc_graph_in_regular(const tc_graph *g) { return regular(g, g->in_off); }

int64_t tc_graph_max_out_degree(const tc_graph *g) {
  int64_t best = 0;
  for (int32_t u = 0; u < g->n; u++)
    if (tc_graph_out_degree(g, u) > best) best = tc_graph_out_degree(g, u);
  return best;
}

int64_t tc_graph_count_self_loops(const tc_graph *g) {
  int64_t k = 0;
  for (int64_t a = 0; a < g->m; a++) k += g->src[a] == g->dst[a];
  return k;
}

int64_t tc_graph_count_multi_arcs(const tc_graph *g) {
  int64_t k = 0;
  for (int64_t a = 1; a < g->m; a++) k += g->src[a] == g->src[a - 1] && g->dst[a] == g->dst[a - 1];
  return k;
}

int tc_graph_unit_capacity(const tc_graph *g) {
  for (int64_t a = 0; a < g->m; a++)
    if (g->cap[a] != 1) return 0;
  return 1;
}

int32_t tc_graph_count_kind(const tc_graph *g, tc_node_kind kind) {
  int32_t k = 0;
  for (int32_t u = 0; u < g->n; u++) k += g->kind[u] == kind;
  return k;
}

int64_t tc_graph_arc_multiplicity(const tc_graph *g, int32_t u, int32_t v) {
  int64_t lo = g->out_off[u], hi = g->out_off[u + 1];
  while (lo < hi) {
    int64_t mid = lo + (hi - lo) / 2;
    if (g->dst[mid] < v) lo = mid + 1; else hi = mid;
  }
  int64_t k = 0;
  while (lo + k < g->out_off[u + 1] && g->dst[lo + k] == v) k++;
  return k;
}

/* Shared by transpose and copy: rebuild from arcs, optionally reversed. */
static int rebuild(const tc_graph *g, int reverse, tc_graph **out, tc_error *err) {
  tc_graph_builder b;
  int rc = tc_graph_builder_init(&b, g->n, err);
  if (!rc) rc = tc_graph_builder_reserve(&b, g->m, err);
  for (int64_t a = 0; !rc && a < g->m; a++)
    rc = reverse ? tc_graph_builder_add_arc(&b, g->dst[a], g->src[a], g->cap[a], err)
                 : tc_graph_builder_add_arc(&b, g->src[a], g->dst[a], g->cap[a], err);
  for (int32_t u = 0; !rc && u < g->n; u++) {
    b.kind[u] = g->kind[u];
    if (g->label && g->label[u]) rc = tc_graph_builder_set_label(&b, u, g->label[u], err);
  }
  if (rc) { tc_graph_builder_destroy(&b); return rc; }
  return tc_graph_builder_finish(&b, out, err);
}

int tc_graph_transpose(const tc_graph *g, tc_graph **out, tc_error *err) { return rebuild(g, 1, out, err); }
int tc_graph_copy(const tc_graph *g, tc_graph **out, tc_error *err) { return rebuild(g, 0, out, err); }

/* Count nodes reachable from node 0 along `dir`. */
static int32_t reach_from_zero(const tc_graph *g, tc_dir dir, int32_t *queue, uint8_t *seen) {
  memset(seen, 0, (size_t)g->n);
  int32_t head = 0, tail = 0;
  queue[tail++] = 0;
  seen[0] = 1;
  while (head < tail) {
    int32_t u = queue[head++];
    const int64_t *off = dir == TC_OUT ? g->out_off : g->in_off;
    for (int64_t i = off[u]; i < off[u + 1]; i++) {
      int32_t w = dir == TC_OUT ? g->dst[i] : g->src[g->in_arc[i]];
      if (!seen[w]) { seen[w] = 1; queue[tail++] = w; }
    }
  }
  return tail;
}

int tc_graph_is_strongly_connected(const tc_graph *g) {
  if (g->n <= 1) return 1;
  int32_t *queue = malloc((size_t)g->n * sizeof *queue);
  uint8_t *seen = malloc((size_t)g->n);
  int ok = queue && seen && reach_from_zero(g, TC_OUT, queue, seen) == g->n &&
           reach_from_zero(g, TC_IN, queue, seen) == g->n;
  free(queue);
  free(seen);
  return ok;
}
