/*
** lower.c — ForestColl's trees as a pipelined step schedule (contract of tc_forest_lower in
** forest.h), so that the verifier, the cost model and every lowerer of the step IR serve
** them unchanged.
**
** Why pipelining: a forest is a fluid schedule — every edge of a tree carries the tree's
** data at bandwidth y at once. The step IR moves whole chunks a step at a time, so each
** tree's share is cut into P chunks that follow one another down the tree, one hop a step.
** A tree D hops deep then takes D + P − 1 steps: D − 1 steps of filling and draining that a
** larger P amortises, and each step's link loads are those of the fluid schedule divided by
** k·P, which is why T_B(P) ≤ (D + P − 1)/P · T_opt.
**
** Layout. The shard of compute node c (shards are the compute nodes in id order) is cut into
** K·P units, K = k (allreduce: the lcm of its two parts' k, so both halves share one
** denominator). A part's batches of root c take the shard in their order: batch (c, m) owns
** the next m/k of it, K/k·m·P units, cut into P chunks of K/k·m units, chunk j the j-th of
** them. Each route of an edge carries its share of every chunk — the sub-interval of
** K/k·(route units) units after the edge's earlier routes' — so the m trees' data is split
** over the routes exactly as the forest's units are.
** Weighted roots: node c owns w_c shards, so its k·w_c trees take its w_c·K·P units as one
** run (batch (c, m) still the next K/k·m·P units of it); the run is c's w_c shards end to
** end, consecutive shard numbers, and a transfer whose interval crosses from one into the
** next is cut in two at the boundary. Shard sizes stay equal (M/W), as the IR wants.
**
** Timing. Every hop of a route is one transfer, switch hops included (a switch stores and
** forwards). With L(e) the edge's longest route in hops:
**   out-trees (allgather)    d(root) = 0, d(v) = d(u) + L(u -> v): v holds chunk j
**                            (j = 1..P) after step d(v) + j − 1; hop i (i = 0, 1, ...) of a
**                            route of u -> v carries it at step d(u) + j + i.
**   in-trees (reduce-scatter) the mirror by height: h(leaf) = 0, h(v) = max over its children
**                            c of h(c) + L(c -> v); hop i of a route of c -> v carries c's
**                            partial of chunk j at step h(c) + j + i, after every child's
**                            chunk j reached c (by step h(c) + j − 1).
** A route shorter than L(e) arrives early; the receiver waits for its slowest route. A part
** takes D + P − 1 steps, D its deepest tree (d or h of the root); an allreduce runs the
** reduce-scatter part in steps 1..rs_steps and the allgather part after it.
**
** Nothing unverified leaves: the schedule is sorted into canonical order and passed through
** tc_schedule_verify before it is returned.
*/
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/budget.h"
#include "core/intmath.h"
#include "forest/forest_internal.h"
#include "topocoll/verify.h"

/* Per-batch scratch over g's nodes and the batch's edges. */
typedef struct tree_scratch {
  int32_t *up;      /* per node: the edge joining it to its parent, -1 for the root */
  int32_t *first;   /* per node: children list head (edge index), -1 if none */
  int32_t *next;    /* per edge: the next edge of the same parent */
  int32_t *order;   /* the compute nodes, parents before children */
  int64_t *level;   /* per node: d (out-trees) or h (in-trees) */
  int64_t *span;    /* per edge: its longest route, in hops */
} tree_scratch;

static void scratch_free(tree_scratch *t) {
  free(t->up);
  free(t->first);
  free(t->next);
  free(t->order);
  free(t->level);
  free(t->span);
}

/* The longest batch of any part: the edge arrays' size. */
static int32_t most_edges(const tc_forest *f) {
  int32_t most = 1;
  for (int p = 0; p < f->nparts; p++)
    for (int64_t b = 0; b < f->part[p].nbatches; b++)
      if (f->part[p].batch[b].nedges > most) most = f->part[p].batch[b].nedges;
  return most;
}

static int scratch_init(tree_scratch *t, int32_t n, int32_t edges, tc_error *err) {
  memset(t, 0, sizeof *t);
  t->up = malloc((size_t)n * sizeof *t->up);
  t->first = malloc((size_t)n * sizeof *t->first);
  t->order = malloc((size_t)n * sizeof *t->order);
  t->level = malloc((size_t)n * sizeof *t->level);
  t->next = malloc((size_t)edges * sizeof *t->next);
  t->span = malloc((size_t)edges * sizeof *t->span);
  if (t->up && t->first && t->order && t->level && t->next && t->span) return TC_OK;
  scratch_free(t);
  return tc_error_set(err, TC_ENOMEM, "out of memory");
}

/* The level of every node of batch b and its depth (the deepest level: d of the deepest
   node for out-trees, h of the root for in-trees). The arrays are bounds-checked against g
   so that a forest of another graph is refused, not followed out of range. */
static int tree_levels(const tc_graph *g, const tc_forest_part *p, int64_t bi, int32_t ncompute, tree_scratch *t,
                       int64_t *depth, tc_error *err) {
  const tc_forest_batch *b = &p->batch[bi];
  if (b->root < 0 || b->root >= g->n || g->kind[b->root] != TC_NODE_COMPUTE || b->nedges != ncompute - 1)
    return tc_error_set(err, TC_EINPUT, "forestcoll: batch %" PRId64 " is not a spanning tree of this graph's %d "
                        "compute nodes", bi, ncompute);
  for (int32_t v = 0; v < g->n; v++) t->up[v] = t->first[v] = -1, t->level[v] = 0;
  for (int32_t e = b->nedges - 1; e >= 0; e--) { /* reversed, so children lists keep edge order */
    int32_t par = p->in_trees ? b->to[e] : b->from[e], child = p->in_trees ? b->from[e] : b->to[e];
    if (par < 0 || par >= g->n || child < 0 || child >= g->n || child == b->root || t->up[child] >= 0)
      return tc_error_set(err, TC_EINPUT, "forestcoll: batch %" PRId64 " edge %d -> %d is not a tree edge of this "
                          "graph", bi, b->from[e], b->to[e]);
    t->up[child] = e;
    t->next[e] = t->first[par];
    t->first[par] = e;
    t->span[e] = 0;
    for (int64_t r = b->route_off[e]; r < b->route_off[e + 1]; r++) {
      int64_t hops = b->hop_off[r + 1] - b->hop_off[r];
      for (int64_t h = b->hop_off[r]; h < b->hop_off[r + 1]; h++)
        if (b->hop_arc[h] < 0 || b->hop_arc[h] >= g->m)
          return tc_error_set(err, TC_EINPUT, "forestcoll: batch %" PRId64 " routes over arc %" PRId64 ", which this "
                              "graph does not have", bi, b->hop_arc[h]);
      if (hops > t->span[e]) t->span[e] = hops;
    }
  }
  int32_t count = 0; /* breadth-first from the root: parents before children */
  t->order[count++] = b->root;
  for (int32_t q = 0; q < count; q++)
    for (int32_t e = t->first[t->order[q]]; e >= 0; e = t->next[e]) {
      if (count == ncompute) break;
      t->order[count++] = p->in_trees ? b->from[e] : b->to[e];
    }
  if (count != ncompute)
    return tc_error_set(err, TC_EINPUT, "forestcoll: batch %" PRId64 " does not reach every compute node from its root",
                        bi);
  *depth = 0;
  if (!p->in_trees) {
    for (int32_t q = 1; q < count; q++) {
      int32_t v = t->order[q], e = t->up[v];
      t->level[v] = t->level[b->from[e]] + t->span[e];
      if (t->level[v] > *depth) *depth = t->level[v];
    }
  } else {
    for (int32_t q = count - 1; q > 0; q--) {
      int32_t v = t->order[q], e = t->up[v], par = b->to[e];
      if (t->level[v] + t->span[e] > t->level[par]) t->level[par] = t->level[v] + t->span[e];
    }
    *depth = t->level[b->root];
  }
  return TC_OK;
}

/* What the lowering needs before it allocates: the units, each part's depth, the step
   count and the number of transfers, all overflow-checked. */
typedef struct plan {
  int64_t K, units;
  int64_t depth[2];
  int64_t steps[2];
  int64_t transfers;
} plan;

static int make_plan(const tc_graph *g, const tc_forest *f, int64_t P, int32_t ncompute, tree_scratch *t, plan *pl,
                     tc_error *err) {
  memset(pl, 0, sizeof *pl);
  pl->K = 1;
  int64_t hops = 0, total_steps = 0;
  for (int p = 0; p < f->nparts; p++) {
    const tc_forest_part *part = &f->part[p];
    int64_t k = part->opt.k, gcd = tci_gcd64(pl->K, k);
    if (k < 1 || tci_mul64(pl->K / gcd, k, &pl->K))
      return tc_error_set(err, TC_ERANGE, "forestcoll: the parts' trees per node (k) have no common multiple below "
                          "2^63");
    for (int64_t bi = 0; bi < part->nbatches; bi++) {
      int64_t depth = 0;
      int rc = tree_levels(g, part, bi, ncompute, t, &depth, err);
      if (rc) return rc;
      if (depth > pl->depth[p]) pl->depth[p] = depth;
      const tc_forest_batch *b = &part->batch[bi];
      if (tci_add64(hops, b->hop_off[b->nroutes] - b->hop_off[0], &hops))
        return tc_error_set(err, TC_ERANGE, "forestcoll: the forest has more route hops than 2^63");
    }
    if (tci_add64(pl->depth[p], P - 1, &pl->steps[p]) || tci_add64(total_steps, pl->steps[p], &total_steps) ||
        total_steps > INT32_MAX)
      return tc_error_set(err, TC_ERANGE, "forestcoll: P = %" PRId64 " chunks per tree make more than 2^31-1 steps "
                          "(trees %" PRId64 " hops deep)", P, pl->depth[p]);
  }
  if (tci_mul64(pl->K, P, &pl->units))
    return tc_error_set(err, TC_ERANGE, "forestcoll: P = %" PRId64 " chunks per tree need %" PRId64 "·%" PRId64
                        " units per shard, beyond 2^63-1", P, pl->K, P);
  if (tci_mul64(hops, P, &pl->transfers))
    return tc_error_set(err, TC_ERANGE, "forestcoll: P = %" PRId64 " chunks per tree need more than 2^63 transfers", P);
  char what[96], count[32];
  snprintf(what, sizeof what, "the forestcoll %s schedule with P = %" PRId64, tc_collective_name(f->coll), P);
  tci_budget_format_count((double)pl->transfers, count, sizeof count);
  char detail[64];
  snprintf(detail, sizeof detail, "%s transfers", count);
  return tci_budget_check((double)pl->transfers * (double)sizeof(tc_transfer), what, detail, err);
}

/* Units [lo, hi) of a root's run, whose first shard is `first`, sent over `arc` at `step`:
   one transfer per shard the interval touches (one only, unweighted). */
static int add_span(tc_schedule *s, int32_t first, int64_t units, int64_t arc, int32_t step, int64_t lo, int64_t hi,
                    tc_error *err) {
  while (lo < hi) {
    int64_t k = lo / units, end = (k + 1) * units < hi ? (k + 1) * units : hi;
    int rc = tc_schedule_add(s, first + (int32_t)k, arc, step, lo - k * units, end - k * units, err);
    if (rc) return rc;
    lo = end;
  }
  return TC_OK;
}

/* The transfers of one part, its steps after `offset`. shard_of[v] is the index of compute
   node v, first[i] the first shard of compute node i's run, base[i] the units of that run
   its earlier batches took (zeroed here). */
static int emit_part(const tc_graph *g, const tc_forest_part *part, int64_t P, const plan *pl, int32_t offset,
                     const int32_t *shard_of, const int32_t *first, int64_t *base, int32_t ncompute, tree_scratch *t,
                     tc_schedule *s, tc_error *err) {
  int64_t scale = pl->K / part->opt.k;
  memset(base, 0, (size_t)ncompute * sizeof *base);
  for (int64_t bi = 0; bi < part->nbatches; bi++) {
    const tc_forest_batch *b = &part->batch[bi];
    int64_t depth = 0, chunk = scale * b->mult;
    int rc = tree_levels(g, part, bi, ncompute, t, &depth, err);
    if (rc) return rc;
    int32_t shard = shard_of[b->root];
    for (int64_t j = 1; j <= P; j++) {
      int64_t lo0 = base[shard] + (j - 1) * chunk;
      for (int32_t e = 0; e < b->nedges; e++) {
        int64_t start = offset + t->level[b->from[e]] + j, within = 0;
        for (int64_t r = b->route_off[e]; r < b->route_off[e + 1]; r++) {
          int64_t lo = lo0 + within * scale, hi = lo + b->route_units[r] * scale;
          within += b->route_units[r];
          for (int64_t h = b->hop_off[r]; h < b->hop_off[r + 1]; h++)
            if ((rc = add_span(s, first[shard], pl->units, b->hop_arc[h], (int32_t)(start + h - b->hop_off[r]), lo,
                               hi, err)))
              return rc;
        }
      }
    }
    base[shard] += chunk * P;
  }
  return TC_OK;
}

/* A weighted forest's shards: w_v consecutive ones owned by each compute node v in id order;
   first[i] the first of compute node i's (where its run would start when w = 0: it has none).
   The weights were checked by tc_forest_verify; their sum must fit the IR's shard count. */
static int weighted_shards(const tc_forest *f, const int32_t *compute, int32_t ncompute, int32_t *first,
                           int32_t **owner, int32_t *nshards, tc_error *err) {
  int64_t total = 0;
  for (int32_t i = 0; i < ncompute; i++) {
    if (f->weights[compute[i]] < 0)
      return tc_error_set(err, TC_EINPUT, "forestcoll: the forest gives node %d weight %" PRId64 ", not a number of "
                          "shares", compute[i], f->weights[compute[i]]);
    if (tci_add64(total, f->weights[compute[i]], &total)) total = INT64_MAX; /* tc_forest_verify refuses that */
  }
  if (total == 0) return tc_error_set(err, TC_EINPUT, "forestcoll: the forest's weights are all 0");
  if (total > TC_FOREST_MAX_SHARDS)
    return tc_error_set(err, TC_ERANGE, "forestcoll: the weights add up to %" PRId64 " shares; a step schedule holds "
                        "at most %d shards (divide the weights by a common factor, or use smaller ones)", total,
                        TC_FOREST_MAX_SHARDS);
  *owner = malloc((size_t)total * sizeof **owner);
  if (!*owner) return tc_error_set(err, TC_ENOMEM, "out of memory for %" PRId64 " shards", total);
  int32_t k = 0;
  for (int32_t i = 0; i < ncompute; i++) {
    first[i] = k;
    for (int64_t j = 0; j < f->weights[compute[i]]; j++) (*owner)[k++] = compute[i];
  }
  *nshards = k;
  return TC_OK;
}

int tc_forest_lower(const tc_graph *g, const tc_forest *f, int64_t P, tc_schedule *out, tc_error *err) {
  memset(out, 0, sizeof *out);
  if (!g || !f) return tc_error_set(err, TC_EINPUT, "forestcoll: no %s to lower", g ? "forest" : "graph");
  if (P < 1) return tc_error_set(err, TC_EINPUT, "forestcoll: P = %" PRId64 " chunks per tree; it must be >= 1", P);
  if (!f->verified)
    return tc_error_set(err, TC_EINPUT, "forestcoll: the forest has not passed tc_forest_verify; only a verified "
                        "forest is lowered");
  int32_t *compute = NULL, ncompute = 0;
  int rc = tci_forest_compute_nodes(g, &compute, &ncompute, err);
  if (rc) return rc;
  if (ncompute != f->ncompute || f->nparts < 1 || f->nparts > 2) {
    free(compute);
    return tc_error_set(err, TC_EINPUT, "forestcoll: the forest spans %d compute nodes, the graph has %d",
                        f->ncompute, ncompute);
  }
  int32_t *shard_of = malloc((size_t)g->n * sizeof *shard_of), *first = malloc((size_t)ncompute * sizeof *first);
  int32_t *owner = NULL, nshards = ncompute;
  int64_t *base = malloc((size_t)ncompute * sizeof *base);
  tree_scratch t;
  plan pl;
  rc = !shard_of || !first || !base ? tc_error_set(err, TC_ENOMEM, "out of memory")
                                    : scratch_init(&t, g->n, most_edges(f), err);
  if (!rc) {
    for (int32_t v = 0; v < g->n; v++) shard_of[v] = -1;
    for (int32_t i = 0; i < ncompute; i++) shard_of[compute[i]] = first[i] = i;
    if (f->weights) rc = weighted_shards(f, compute, ncompute, first, &owner, &nshards, err);
    if (!rc) rc = make_plan(g, f, P, ncompute, &t, &pl, err);
    /* without switches or weights the shards are the nodes: the paper's layout, no owner table */
    if (!rc)
      rc = !owner && ncompute == g->n
               ? tc_schedule_init(out, f->coll, g->n, pl.units, "forestcoll", err)
               : tc_schedule_init_owned(out, f->coll, g->n, nshards, owner ? owner : compute, pl.units, "forestcoll",
                                        err);
    if (!rc) rc = tc_schedule_reserve(out, pl.transfers, err);
    int32_t offset = 0;
    for (int p = 0; !rc && p < f->nparts; p++) {
      rc = emit_part(g, &f->part[p], P, &pl, offset, shard_of, first, base, ncompute, &t, out, err);
      offset += (int32_t)pl.steps[p];
    }
    if (!rc) {
      out->steps = offset;
      out->rs_steps = f->coll == TC_COLL_ALLREDUCE ? (int32_t)pl.steps[0] : 0;
      tc_schedule_sort(out);
      if ((rc = tc_schedule_verify(g, out, err)))
        tc_error_prefix(err, "forestcoll: the lowered %s schedule failed verification", tc_collective_name(f->coll));
    }
    scratch_free(&t);
  }
  if (rc) {
    tc_schedule_destroy(out);
    memset(out, 0, sizeof *out);
  }
  free(shard_of);
  free(first);
  free(owner);
  free(base);
  free(compute);
  return rc;
}
