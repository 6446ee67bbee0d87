/*
** shiftedring.c — ShiftedRing, TopoOpt's topology and schedule for data-parallel training
** (paper 000 §8.2: "a superposition of two bidirectional rings, each allreducing half of the
** data"), and ShiftedBFBRing (A.2: the same topology with the BFB ring
** schedule on each ring).
**
** Topology: the degree-4 circulant C(N,{a,b}) (N >= 5, a != b, both coprime to N so that
** i -> i+a and i -> i+b are each one Hamiltonian ring; TopoOpt's shifted ring is a = 1 and
** a shift b), or biring(4,N) where a = b = 1 and the two rings share the doubled links. The
** paper does not give TopoOpt's shift, so the offsets are read off the graph: node 0's
** neighbours are ±a, ±b, and every node i must have exactly the neighbours i±a, i±b.
** Schedule: the first half of every shard is allgathered / reduce-scattered on ring a, the
** second half on ring b, each with the traditional bidirectional ring schedule (a quarter
** of the shard each way, N-1 steps: biring_halves.c) or, for ShiftedBFBRing, the BFB ring
** schedule (floor(N/2) steps: bfbring.c). Reduce-scatter is the reverse of the allgather
** (Def. 5), allreduce the two in sequence.
** Guarantees: each of the 4 ports carries a quarter shard per step (half of a half), so
** tau = (N-1)/N (BW-optimal); T_L = N-1 (2(N-1) for allreduce, the linear growth of Fig.
** 14a), or floor(N/2) (2 floor(N/2)) for ShiftedBFBRing.
*/
#include "synth/baseline_common.h"

#include <stdlib.h>
#include <string.h>

#include "core/intmath.h"

/* Offset class of the arc 0 -> x: min(x, N-x). */
static int32_t offset_class(int32_t x, int32_t n) { return x <= n - x ? x : n - x; }

/* Read the two offsets a <= b off node 0's neighbours. */
static int find_offsets(const tc_graph *g, const char *algo, int32_t *a, int32_t *b, tc_error *err) {
  int32_t n = g->n, cls[2] = {0, 0}, ncls = 0;
  for (int64_t e = g->out_off[0]; e < g->out_off[1]; e++) {
    int32_t c = offset_class(g->dst[e], n);
    if (c == 0) return tc_error_set(err, TC_EINPUT, "%s: node 0 has a self-loop; needs a circulant C(N,{a,b})", algo);
    if ((ncls > 0 && c == cls[0]) || (ncls > 1 && c == cls[1])) continue;
    if (ncls == 2)
      return tc_error_set(err, TC_EINPUT, "%s: needs a degree-4 circulant C(N,{a,b}); node 0 has neighbours at "
                          "offsets ±%d, ±%d and ±%d", algo, cls[0], cls[1], c);
    cls[ncls++] = c;
  }
  if (ncls == 0) return tc_error_set(err, TC_EINPUT, "%s: node 0 has no arcs", algo);
  if (ncls == 1) { /* biring(4,N): the two rings on parallel links */
    int32_t c = cls[0];
    if (tc_graph_arc_multiplicity(g, 0, c) < 2 || tc_graph_arc_multiplicity(g, 0, n - c) < 2)
      return tc_error_set(err, TC_EINPUT, "%s: needs two rings, a circulant C(N,{a,b}) or biring(4,N); node 0 only "
                          "has single links at offset ±%d", algo, c);
    cls[1] = c;
  }
  *a = cls[0] < cls[1] ? cls[0] : cls[1];
  *b = cls[0] < cls[1] ? cls[1] : cls[0];
  return TC_OK;
}

/* Both offsets make one ring each, and every node i has exactly the neighbours i±a, i±b. */
static int check_circulant(const tc_graph *g, const char *algo, int32_t a, int32_t b, tc_error *err) {
  int32_t n = g->n, off[2] = {a, b};
  for (int i = 0; i < 2; i++)
    if (tci_gcd64(off[i], n) != 1 || 2 * off[i] == n)
      return tc_error_set(err, TC_EINPUT, "%s: offset %d shares a factor with N = %d, so i -> i+%d is not one ring",
                          algo, off[i], n, off[i]);
  for (int32_t u = 0; u < n; u++) {
    int32_t nb[4] = {(u + a) % n, (u + n - a) % n, (u + b) % n, (u + n - b) % n};
    for (int64_t e = g->out_off[u]; e < g->out_off[u + 1]; e++) {
      int32_t v = g->dst[e];
      if (v != nb[0] && v != nb[1] && v != nb[2] && v != nb[3])
        return tc_error_set(err, TC_EINPUT, "%s: needs the circulant C(%d,{%d,%d}) (node %d has an arc to %d)", algo,
                            n, a, b, u, v);
    }
    for (int i = 0; i < 4; i++)
      if (tc_graph_arc_multiplicity(g, u, nb[i]) == 0)
        return tc_error_set(err, TC_EINPUT, "%s: needs the circulant C(%d,{%d,%d}) (node %d has no arc to %d)", algo, n,
                            a, b, u, nb[i]);
  }
  return tci_bl_check_bidirectional(g, algo, err);
}

/* The ring i -> i+off as a cycle (order[p] = p*off mod N) and each node's position on it. */
static void ring_of_offset(int32_t n, int32_t off, int32_t *order, int32_t *pos) {
  for (int32_t p = 0; p < n; p++) {
    order[p] = (int32_t)(((int64_t)p * off) % n);
    pos[order[p]] = p;
  }
}

static int shifted_allgather(const tc_graph *g, int32_t a, int32_t b, int bfb, int64_t units, int64_t scale,
                             const char *algo, tc_schedule *ag, tc_error *err) {
  int32_t n = g->n;
  memset(ag, 0, sizeof *ag);
  int32_t *buf = malloc((size_t)4 * n * sizeof *buf);
  if (!buf) return tc_error_set(err, TC_ENOMEM, "out of memory");
  int32_t *order_a = buf, *pos_a = buf + n, *order_b = buf + 2 * n, *pos_b = buf + 3 * n;
  ring_of_offset(n, a, order_a, pos_a);
  ring_of_offset(n, b, order_b, pos_b);
  tc_bl_cycle ring_a = {n, order_a}, ring_b = {n, order_b};
  tc_bl_ring_kind kind = bfb ? TC_BL_BFB : TC_BL_HALVES;
  int rc = tc_schedule_init(ag, TC_COLL_ALLGATHER, n, units, algo, err);
  for (int32_t v = 0; !rc && v < n; v++) { /* half [0,2) of the shard on ring a, [2,4) on ring b */
    rc = tci_bl_ring_broadcast(ag, g, &ring_a, pos_a[v], kind, v, 0, 2, 0, scale, err);
    if (!rc) rc = tci_bl_ring_broadcast(ag, g, &ring_b, pos_b[v], kind, v, 2, 4, 0, scale, err);
  }
  free(buf);
  return rc;
}

int tc_baseline_shiftedring(const tc_graph *g, tc_collective coll, int bfb, tc_schedule *out, tc_error *err) {
  const char *algo = bfb ? "shiftedbfbring" : "shiftedring";
  memset(out, 0, sizeof *out);
  int32_t a = 0, b = 0;
  int rc = tci_bl_check_rs_ag(algo, coll, err);
  if (!rc && g->n < 3) rc = tc_error_set(err, TC_EINPUT, "%s: needs at least 3 nodes (got %d)", algo, g->n);
  if (!rc) rc = find_offsets(g, algo, &a, &b, err);
  if (!rc) rc = check_circulant(g, algo, a, b, err);
  int64_t scale = 1, units = 4; /* two halves, each halved again by its ring */
  if (!rc) rc = tci_bl_split_scale(g, algo, &scale, err);
  if (!rc) rc = tci_bl_check_transfers(algo, g->n, g->n - 1, 8 * tci_bl_max_bundle(g), err);
  if (!rc) rc = tci_bl_units(algo, 4, scale, &units, err);
  if (rc) return rc;
  tc_schedule ag;
  rc = shifted_allgather(g, a, b, bfb, units, scale, algo, &ag, err);
  if (rc) {
    tc_schedule_destroy(&ag);
    return rc;
  }
  return tci_bl_finish(g, coll, &ag, NULL, algo, out, err);
}
