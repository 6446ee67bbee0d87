/*
** weights.c — the water-filling shares of an allreduce (tc_forest_allreduce_weights,
** forest.h "Weighted roots"); a caller's weights are checked in fabric.c.
**
** Why weights: the unweighted forest gives every compute node one share of the buffer, so a
** node whose links are thin must still receive (and, reducing, send) (N−1)/N of M over
** them. An allreduce is free to put more of the result where the links are thin: a node
** that owns s of M receives only M − s from the others in the allgather and sends M − s in
** the reduce-scatter. Water-filling picks s_t = max(0, M − c(t)·T), T the smallest time for
** which the shares add up to M, so that a node of capacity c(t) moves M − s_t = c(t)·T, or
** all of M when it owns nothing. c(t) combines both halves harmonically,
** 1/(1/c_in + 1/c_out), because the reduce-scatter runs over t's out-links and the
** allgather over its in-links, one after the other. The weights are only a proposal: the
** exact search then says what every cut allows with them, and callers keep the weighted
** forest only where it measures faster (sched and plan compare both).
**
** Everything is exact: the capacities are integers, the shares rationals, the weights the
** shares times the lcm of their denominators, divided by their gcd.
*/
#include <stdlib.h>
#include <string.h>

#include "core/intmath.h"
#include "forest/forest_internal.h"

/* ---- water-filling ------------------------------------------------------------------------ */

typedef struct node_cap {
  int32_t v;
  tc_rat c; /* c_in·c_out / (c_in + c_out) */
} node_cap;

static int cmp_cap(const void *pa, const void *pb) {
  const node_cap *a = pa, *b = pb;
  int c = tc_rat_cmp(a->c, b->c);
  if (c) return c;
  return (a->v > b->v) - (a->v < b->v);
}

/* Capacity of v's arcs to (out) or from (in) other nodes: loops carry nothing. */
static int64_t link_cap(const tc_graph *g, int32_t v, int in) {
  int64_t c = 0;
  if (in) {
    for (int64_t j = g->in_off[v]; j < g->in_off[v + 1]; j++)
      if (g->src[g->in_arc[j]] != v) c += g->cap[g->in_arc[j]];
  } else {
    for (int64_t j = g->out_off[v]; j < g->out_off[v + 1]; j++)
      if (g->dst[j] != v) c += g->cap[j];
  }
  return c; /* tc_forest_check_fabric bounds the total capacity by 2^63-1 */
}

/* The shares, in units of M, as rationals s[i] for cap[i] (sorted ascending). With the j
   thinnest nodes active, Σ_{i<=j} (1 − c_i·T) = 1 gives T = (j − 1) / Σ_{i<=j} c_i; the
   right j is the first whose T leaves the next node inactive (c_{j+1}·T >= 1). */
static int water_fill(const node_cap *cap, int32_t nc, tc_rat *s, tc_error *err) {
  tc_rat sum = {0, 1}, T = {0, 1}, one = {1, 1};
  int32_t j = 0;
  int rc = TC_OK;
  while (!rc && j < nc) {
    rc = tc_rat_add(sum, cap[j].c, &sum, err);
    j++;
    if (!rc) rc = tc_rat_div((tc_rat){j - 1, 1}, sum, &T, err);
    tc_rat next;
    if (!rc && j < nc && !(rc = tc_rat_mul(cap[j].c, T, &next, err)) && tc_rat_cmp(next, one) >= 0) break;
  }
  tc_rat total = {0, 1};
  for (int32_t i = 0; !rc && i < nc; i++) {
    s[i] = (tc_rat){0, 1};
    if (i < j) {
      rc = tc_rat_mul(cap[i].c, T, &s[i], err);
      if (!rc) rc = tc_rat_sub(one, s[i], &s[i], err);
    }
    if (!rc) rc = tc_rat_add(total, s[i], &total, err);
    if (!rc && s[i].num < 0)
      rc = tc_error_set(err, TC_EFAIL, "forestcoll: internal error: water-filling gave node %d a negative share",
                        cap[i].v);
  }
  if (!rc && tc_rat_cmp(total, one) != 0)
    rc = tc_error_set(err, TC_EFAIL, "forestcoll: internal error: the water-filling shares add up to %lld/%lld, not 1",
                      (long long)total.num, (long long)total.den);
  if (rc == TC_ERANGE) tc_error_prefix(err, "forestcoll: allreduce weights");
  return rc;
}

int tc_forest_allreduce_weights(const tc_graph *g, int64_t *w_out, int *uniform, tc_error *err) {
  int rc = tc_forest_check_fabric(g, 0, err);
  if (rc) return rc;
  int32_t *compute = NULL, nc = 0;
  rc = tci_forest_compute_nodes(g, &compute, &nc, err);
  if (rc) return rc;
  node_cap *cap = malloc((size_t)nc * sizeof *cap);
  tc_rat *s = malloc((size_t)nc * sizeof *s);
  if (!cap || !s) rc = tc_error_set(err, TC_ENOMEM, "forestcoll: out of memory for %d compute nodes", nc);
  for (int32_t i = 0; !rc && i < nc; i++) {
    int64_t in = link_cap(g, compute[i], 1), out = link_cap(g, compute[i], 0), sum;
    cap[i].v = compute[i];
    if (tci_add64(in, out, &sum)) rc = tc_error_set(err, TC_ERANGE, "forestcoll: allreduce weights: capacities overflow");
    else rc = tc_rat_mul((tc_rat){in, 1}, (tc_rat){out, 1}, &cap[i].c, err);
    if (!rc) rc = tc_rat_div(cap[i].c, (tc_rat){sum, 1}, &cap[i].c, err);
  }
  if (!rc) {
    qsort(cap, (size_t)nc, sizeof *cap, cmp_cap);
    rc = water_fill(cap, nc, s, err);
  }
  /* integers: times the lcm of the denominators, over the gcd of the numerators */
  int64_t lcm = 1, gcd = 0;
  for (int32_t i = 0; !rc && i < nc; i++)
    if (tci_mul64(lcm / tci_gcd64(lcm, s[i].den), s[i].den, &lcm))
      rc = tc_error_set(err, TC_ERANGE, "forestcoll: allreduce weights: the shares' common denominator overflows "
                        "64 bits");
  for (int32_t i = 0; !rc && i < nc; i++) {
    int64_t w = 0;
    if (tci_mul64(s[i].num, lcm / s[i].den, &w))
      rc = tc_error_set(err, TC_ERANGE, "forestcoll: allreduce weights overflow 64 bits");
    s[i].num = w; /* reused as the integer weight */
    gcd = tci_gcd64(gcd, w);
  }
  if (!rc) {
    memset(w_out, 0, (size_t)g->n * sizeof *w_out);
    int all_one = 1;
    for (int32_t i = 0; i < nc; i++) {
      w_out[cap[i].v] = s[i].num / gcd;
      all_one = all_one && w_out[cap[i].v] == 1;
    }
    if (uniform) *uniform = all_one;
  }
  free(compute);
  free(cap);
  free(s);
  return rc;
}
