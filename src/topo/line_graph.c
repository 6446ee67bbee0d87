/*
** line_graph.c — line digraph L(G) and its iterates L^k(G) (paper 000 Def. 12, §5.1).
**
** Node a of L(G) is arc a of G (so ids follow G's sorted arc order); there is an arc
** a -> b for every arc b leaving the head of a, including the reverse of a and, for a
** self-loop a, a itself. A d-regular G with N nodes gives a d-regular L(G) with dN nodes
** and diameter D(G)+1 (for D(G) >= 1). Arc capacities of L(G) are 1: a node of L(G) is a
** port-to-port link of G, not a bandwidth. Sizes are checked before anything is allocated.
*/
#include "topocoll/expand.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int tc_graph_line(const tc_graph *g, tc_graph **out, tc_error *err) {
  *out = NULL;
  if (g->m > TC_MAX_NODES)
    return tc_error_set(err, TC_ERANGE, "line graph would have %lld nodes (at most %d)",
                        (long long)g->m, TC_MAX_NODES);
  int64_t arcs = 0;
  for (int32_t v = 0; v < g->n; v++) {
    arcs += tc_graph_in_degree(g, v) * tc_graph_out_degree(g, v);
    if (arcs > TC_MAX_ARCS)
      return tc_error_set(err, TC_ERANGE, "line graph would have more than %lld arcs",
                          (long long)TC_MAX_ARCS);
  }
  tc_graph_builder b;
  int rc = tc_graph_builder_init(&b, g->m, err);
  if (!rc) rc = tc_graph_builder_reserve(&b, arcs, err);
  for (int64_t a = 0; !rc && a < g->m; a++) {
    int32_t head = g->dst[a];
    for (int64_t c = g->out_off[head]; !rc && c < g->out_off[head + 1]; c++)
      rc = tc_graph_builder_add_arc(&b, a, c, 1, err);
  }
  if (rc) { tc_graph_builder_destroy(&b); return rc; }
  return tc_graph_builder_finish(&b, out, err);
}

/* The node count of L^k(G), exactly: a node of L^i(G) is a walk of i arcs in G, and
   w_{i+1}(v) = Σ_{arcs v->u} w_i(u) (w_0 = 1) counts those starting at v. Counts saturate
   above TC_MAX_NODES. The recurrence stops early when w repeats (every later count is the
   same: a 1-regular G, or one whose walks all end in simple cycles). The product N·d^k of
   a d-regular G is the same number; this also covers irregular graphs, which used to pass
   unchecked (the iterates grew until an intermediate hit the limit) and degree 0 and 1,
   where the product bound said nothing about k. Each round costs N + M; the rounds are
   bounded (COUNT_WORK_MAX), so a huge k on a graph whose walks grow slowly is refused. */
#define COUNT_WORK_MAX 1e9

static int line_nodes(const tc_graph *g, int64_t k, int64_t *nodes, tc_error *err) {
  const int64_t cap = (int64_t)TC_MAX_NODES + 1;
  int64_t *w = malloc(((size_t)g->n + 1) * sizeof *w), *next = malloc(((size_t)g->n + 1) * sizeof *next);
  if (!w || !next) {
    free(w); free(next);
    return tc_error_set(err, TC_ENOMEM, "out of memory");
  }
  int64_t total = g->n;
  for (int32_t v = 0; v < g->n; v++) w[v] = 1;
  double work = 0;
  int rc = TC_OK;
  for (int64_t i = 0; i < k && total <= TC_MAX_NODES; i++) {
    if ((work += (double)g->n + (double)g->m) > COUNT_WORK_MAX) {
      rc = tc_error_set(err, TC_ERANGE, "line: L^%lld of this graph: its size is not known after %lld iterations "
                        "(walks grow too slowly to bound); use a smaller k", (long long)k, (long long)i);
      break;
    }
    int same = 1;
    total = 0;
    for (int32_t v = 0; v < g->n; v++) {
      int64_t sum = 0;
      for (int64_t a = g->out_off[v]; a < g->out_off[v + 1] && sum < cap; a++) sum += w[g->dst[a]];
      next[v] = sum < cap ? sum : cap;
      same &= next[v] == w[v];
      total = total + next[v] < cap ? total + next[v] : cap;
    }
    int64_t *t = w;
    w = next;
    next = t;
    if (same) break;
  }
  free(w);
  free(next);
  *nodes = total;
  return rc;
}

/* 1 if a and b are the same graph: arcs, capacities and kinds (labels are not compared:
   L(G)'s nodes have none). */
static int same_graph(const tc_graph *a, const tc_graph *b) {
  if (a->n != b->n || a->m != b->m) return 0;
  return !memcmp(a->src, b->src, (size_t)a->m * sizeof *a->src) &&
         !memcmp(a->dst, b->dst, (size_t)a->m * sizeof *a->dst) &&
         !memcmp(a->cap, b->cap, (size_t)a->m * sizeof *a->cap) && !memcmp(a->kind, b->kind, (size_t)a->n);
}

int tc_graph_line_power(const tc_graph *g, int64_t k, tc_graph **out, tc_error *err) {
  *out = NULL;
  if (k < 0) return tc_error_set(err, TC_EINPUT, "line: the number of iterations must be >= 0 (got %lld)", (long long)k);
  /* Refuse an impossible size before building any intermediate graph. */
  int64_t nodes = 0;
  int rc = line_nodes(g, k, &nodes, err);
  if (rc) return rc;
  if (nodes > TC_MAX_NODES)
    return tc_error_set(err, TC_ERANGE, "line: L^%lld of this graph would have more than %d nodes", (long long)k,
                        TC_MAX_NODES);
  tc_graph *cur = NULL;
  rc = tc_graph_copy(g, &cur, err);
  for (int64_t i = 0; !rc && i < k; i++) {
    tc_graph *next = NULL;
    rc = tc_graph_line(cur, &next, err);
    int fixed = !rc && same_graph(cur, next); /* then every later iterate is this one (a 1-regular G) */
    tc_graph_destroy(cur);
    cur = next;
    if (fixed) break;
  }
  if (rc) { tc_graph_destroy(cur); return rc; }
  *out = cur;
  return TC_OK;
}
