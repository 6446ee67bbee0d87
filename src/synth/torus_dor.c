/*
** torus_dor.c — the traditional dimension-by-dimension torus schedule (Sack & Gropp [70];
** paper 000 §5.3 "torus intuition", §6.2), the baseline BFB beats
** on Frontera (§8.5.2, Fig. 11).
**
** Topology: the torus d_0 x ... x d_{k-1} exactly as torus() numbers it (row-major, last
** coordinate fastest): node u is linked to its two neighbours along every dimension of
** length >= 3 and to its one neighbour along a dimension of length 2 (K_2), and to nothing
** else.
** Schedule: every shard is cut into k equal parts; part j is allgathered by sub-schedule j,
** which runs ring collectives along the dimensions in the rotated order j, j+1, ..., j-1
** (mod k): in the phase along dimension e every node that already holds part j of shard v
** broadcasts it along its dimension-e ring with the traditional bidirectional ring schedule
** (half each way, d_e - 1 steps; on a length-2 dimension the whole part in one step). All k
** sub-schedules run at the same time; reduce-scatter is the reverse (Def. 5) and allreduce
** the two in sequence.
** Guarantees: T_L = Σ_i (d_i - 1) (§6.2). With all d_i equal the sub-schedules use k
** different dimensions in every step and the schedule is BW-optimal, tau = (N-1)/N (the
** Cartesian-power schedule, Thm 12). With unequal lengths the phases drift apart: two
** sub-schedules can be on the same dimension in one step while another dimension idles,
** and tau exceeds (N-1)/N — "only works (or is efficient) when dimensions are equal".
*/
#include "synth/baseline_common.h"

#include <stdlib.h>
#include <string.h>

static const char *const DOR = "torus-dor";

typedef struct torus_shape {
  int k;
  const int64_t *len;   /* d_i */
  int64_t stride[64];   /* node-id stride of dimension i */
} torus_shape;

static int64_t coord(const torus_shape *t, int32_t u, int i) { return (u / t->stride[i]) % t->len[i]; }

/* u's neighbour at coordinate x_i + delta along dimension i. */
static int32_t neighbour(const torus_shape *t, int32_t u, int i, int64_t delta) {
  int64_t x = coord(t, u, i), y = ((x + delta) % t->len[i] + t->len[i]) % t->len[i];
  return (int32_t)(u + (y - x) * t->stride[i]);
}

static int check_dims(const tc_graph *g, const int64_t *dims, int k, torus_shape *t, tc_error *err) {
  if (!dims || k < 1) return tc_error_set(err, TC_EINPUT, "torus-dor: needs the torus dimensions");
  if (k > 64) return tc_error_set(err, TC_EINPUT, "torus-dor: at most 64 dimensions (got %d)", k);
  int64_t n = 1;
  for (int i = k - 1; i >= 0; i--) {
    if (dims[i] < 2)
      return tc_error_set(err, TC_EINPUT, "torus-dor: dims[%d] must be >= 2 (got %lld)", i, (long long)dims[i]);
    if (dims[i] > TC_MAX_NODES / n)
      return tc_error_set(err, TC_ERANGE, "torus-dor: the dimensions exceed %d nodes", TC_MAX_NODES);
    t->stride[i] = n;
    n *= dims[i];
  }
  if (n != g->n)
    return tc_error_set(err, TC_EINPUT, "torus-dor: the dimensions give %lld nodes but the graph has %d", (long long)n,
                        g->n);
  t->k = k;
  t->len = dims;
  return TC_OK;
}

/* Every node has its torus neighbours and no other. */
static int check_torus(const tc_graph *g, const torus_shape *t, tc_error *err) {
  for (int32_t u = 0; u < g->n; u++) {
    for (int64_t a = g->out_off[u]; a < g->out_off[u + 1]; a++) {
      int32_t v = g->dst[a];
      int ok = 0;
      for (int i = 0; i < t->k && !ok; i++) ok = v == neighbour(t, u, i, 1) || v == neighbour(t, u, i, -1);
      if (!ok || v == u)
        return tc_error_set(err, TC_EINPUT, "torus-dor: node %d has an arc to %d, which is not its torus neighbour", u,
                            v);
    }
    for (int i = 0; i < t->k; i++)
      for (int delta = -1; delta <= 1; delta += 2)
        if (tc_graph_arc_multiplicity(g, u, neighbour(t, u, i, delta)) == 0)
          return tc_error_set(err, TC_EINPUT, "torus-dor: node %d has no arc to its dimension-%d neighbour %d", u, i,
                              neighbour(t, u, i, delta));
  }
  return tci_bl_check_bidirectional(g, DOR, err);
}

/* Phase along dimension e: every holder in holders[0..nh-1] broadcasts part [lo,hi) of
   shard v around its dimension-e ring; the ring's nodes become the new holders. */
static int dimension_phase(tc_schedule *s, const tc_graph *g, const torus_shape *t, int e, int32_t v, int64_t lo,
                           int64_t hi, int32_t step0, int64_t scale, const int32_t *holders, int64_t nh,
                           int32_t *next, int32_t *line, tc_error *err) {
  int32_t len = (int32_t)t->len[e];
  tc_bl_cycle ring = {len, line};
  int rc = TC_OK;
  for (int64_t h = 0; !rc && h < nh; h++) {
    int32_t w = holders[h];
    int64_t x = coord(t, w, e);
    for (int32_t p = 0; p < len; p++) {
      line[p] = (int32_t)(w + (p - x) * t->stride[e]);
      next[h * len + p] = line[p];
    }
    rc = tci_bl_ring_broadcast(s, g, &ring, (int32_t)x, TC_BL_HALVES, v, lo, hi, step0, scale, err);
  }
  return rc;
}

/* Sub-schedule j for shard v: dimensions j, j+1, ... (mod k), part [2j, 2j+2). */
static int sub_schedule(tc_schedule *s, const tc_graph *g, const torus_shape *t, int j, int32_t v, int64_t scale,
                        int32_t *buf_a, int32_t *buf_b, int32_t *line, tc_error *err) {
  int32_t *holders = buf_a, *next = buf_b;
  int64_t nh = 1;
  int32_t step0 = 0;
  holders[0] = v;
  int rc = TC_OK;
  for (int q = 0; !rc && q < t->k; q++) {
    int e = (j + q) % t->k;
    rc = dimension_phase(s, g, t, e, v, 2 * j, 2 * j + 2, step0, scale, holders, nh, next, line, err);
    nh *= t->len[e];
    step0 += (int32_t)(t->len[e] - 1);
    int32_t *swap = holders;
    holders = next;
    next = swap;
  }
  return rc;
}

static int dor_allgather(const tc_graph *g, const torus_shape *t, int64_t units, int64_t scale, tc_schedule *ag,
                         tc_error *err) {
  int64_t maxlen = 0;
  for (int i = 0; i < t->k; i++)
    if (t->len[i] > maxlen) maxlen = t->len[i];
  int32_t *buf = malloc(((size_t)2 * g->n + (size_t)maxlen) * sizeof *buf);
  memset(ag, 0, sizeof *ag);
  if (!buf) return tc_error_set(err, TC_ENOMEM, "out of memory");
  int rc = tc_schedule_init(ag, TC_COLL_ALLGATHER, g->n, units, DOR, err);
  for (int32_t v = 0; !rc && v < g->n; v++)
    for (int j = 0; !rc && j < t->k; j++)
      rc = sub_schedule(ag, g, t, j, v, scale, buf, buf + g->n, buf + 2 * g->n, err);
  free(buf);
  return rc;
}

int tc_baseline_torus_dor(const tc_graph *g, const int64_t *dims, int k, tc_collective coll, tc_schedule *out,
                          tc_error *err) {
  memset(out, 0, sizeof *out);
  torus_shape t;
  memset(&t, 0, sizeof t);
  int rc = tci_bl_check_rs_ag(DOR, coll, err);
  if (!rc) rc = check_dims(g, dims, k, &t, err);
  if (!rc) rc = check_torus(g, &t, err);
  int64_t scale = 1, units = 2 * (int64_t)k; /* k parts, each halved for the two directions */
  if (!rc) rc = tci_bl_split_scale(g, DOR, &scale, err);
  if (!rc) rc = tci_bl_check_transfers(DOR, g->n, g->n - 1, 4 * (int64_t)k * tci_bl_max_bundle(g), err);
  if (!rc) rc = tci_bl_units(DOR, 2 * (int64_t)k, scale, &units, err);
  if (rc) return rc;
  tc_schedule ag;
  rc = dor_allgather(g, &t, units, scale, &ag, err);
  if (rc) {
    tc_schedule_destroy(&ag);
    return rc;
  }
  return tci_bl_finish(g, coll, &ag, NULL, DOR, out, err);
}
