/*
** relabel.c — schedule isomorphisms (paper 000 Def. 7) and the reduce-scatter they give on
** reverse-symmetric graphs (Thm 2), with Corollary 1.1 for all other graphs (contract in
** transform.h).
**
** The one delicate part is the arc correspondence: a schedule names arc ids, and parallel
** arcs are distinct ports, so an isomorphism must map the i-th arc x -> y to a distinct arc
** f(x) -> f(y) of equal capacity. tc_graph_map_arcs does that greedily: within a bundle of
** parallel arcs any capacity-preserving one-to-one matching is as good as another (the
** ports are interchangeable), and greedy matching by equal capacity succeeds exactly when
** the two bundles hold the same capacity multiset. A node map is an isomorphism iff it is a
** bijection, keeps node kinds, and every arc finds a free image (equal arc counts then make
** the arc map a bijection too) — so the map is checked as a side effect of using it.
*/
#include "topocoll/transform.h"

#include <stdlib.h>
#include <string.h>

#include "topocoll/iso.h"

int tc_schedule_check_graph(const tc_graph *g, const tc_schedule *s, const char *what, tc_error *err) {
  if (s->nodes != g->n)
    return tc_error_set(err, TC_EINPUT, "%s: schedule is for %d nodes but the graph has %d", what, s->nodes, g->n);
  for (int64_t i = 0; i < s->count; i++)
    if (s->xfer[i].arc < 0 || s->xfer[i].arc >= g->m)
      return tc_error_set(err, TC_EINPUT, "%s: transfer #%lld names arc %lld but the graph has %lld arcs", what,
                          (long long)i, (long long)s->xfer[i].arc, (long long)g->m);
  return TC_OK;
}

/* First arc x -> y of `to` that is free and has capacity cap, or -1. Out-arcs of x are
   sorted by destination, so the bundle x -> y is found by binary search. */
static int64_t free_arc(const tc_graph *to, int32_t x, int32_t y, int64_t cap, const uint8_t *used) {
  int64_t lo = to->out_off[x], hi = to->out_off[x + 1];
  while (lo < hi) {
    int64_t mid = lo + (hi - lo) / 2;
    if (to->dst[mid] < y) lo = mid + 1;
    else hi = mid;
  }
  for (int64_t b = lo; b < to->out_off[x + 1] && to->dst[b] == y; b++)
    if (!used[b] && to->cap[b] == cap) return b;
  return -1;
}

int tc_graph_map_arcs(const tc_graph *from, const tc_graph *to, const int32_t *f, int reversed, uint8_t *used,
                      int64_t *arcmap, tc_error *err) {
  for (int32_t u = 0; f && u < from->n; u++)
    if (f[u] < 0 || f[u] >= to->n)
      return tc_error_set(err, TC_EINPUT, "node map sends node %d to %d, outside 0..%d", u, f[u], to->n - 1);
  if (!f && from->n > to->n)
    return tc_error_set(err, TC_EINPUT, "graph of %d nodes does not fit in one of %d", from->n, to->n);
  uint8_t *own = NULL;
  if (!used) {
    own = calloc((size_t)to->m + 1, 1);
    if (!own) return tc_error_set(err, TC_ENOMEM, "out of memory");
    used = own;
  }
  int rc = TC_OK;
  for (int64_t a = 0; a < from->m; a++) {
    int32_t x = f ? f[from->src[a]] : from->src[a], y = f ? f[from->dst[a]] : from->dst[a];
    if (reversed) { int32_t t = x; x = y; y = t; }
    int64_t b = free_arc(to, x, y, from->cap[a], used);
    if (b < 0) {
      rc = tc_error_set(err, TC_EINPUT,
                        "arc %lld (%d -> %d, capacity %lld) has no free counterpart %d -> %d of equal capacity",
                        (long long)a, from->src[a], from->dst[a], (long long)from->cap[a], x, y);
      break;
    }
    used[b] = 1;
    arcmap[a] = b;
  }
  free(own);
  return rc;
}

/* f must be a bijection of g's nodes onto g2's that keeps node kinds. */
static int check_node_bijection(const tc_graph *g, const tc_graph *g2, const int32_t *f, tc_error *err) {
  if (g->n != g2->n) return tc_error_set(err, TC_EINPUT, "graphs have %d and %d nodes", g->n, g2->n);
  if (g->m != g2->m) return tc_error_set(err, TC_EINPUT, "graphs have %lld and %lld arcs", (long long)g->m,
                                         (long long)g2->m);
  int32_t *preimage = malloc(((size_t)g->n + 1) * sizeof *preimage);
  if (!preimage) return tc_error_set(err, TC_ENOMEM, "out of memory");
  for (int32_t v = 0; v < g->n; v++) preimage[v] = -1;
  int rc = TC_OK;
  for (int32_t u = 0; u < g->n && !rc; u++) {
    if (f[u] < 0 || f[u] >= g->n)
      rc = tc_error_set(err, TC_EINPUT, "node map sends node %d to %d, outside 0..%d", u, f[u], g->n - 1);
    else if (preimage[f[u]] >= 0)
      rc = tc_error_set(err, TC_EINPUT, "node map sends nodes %d and %d both to %d", preimage[f[u]], u, f[u]);
    else if (g->kind[u] != g2->kind[f[u]])
      rc = tc_error_set(err, TC_EINPUT, "node map sends node %d to %d of another kind (compute/switch)", u, f[u]);
    else
      preimage[f[u]] = u;
  }
  free(preimage);
  return rc;
}

/* Copy s's header into an empty out, with the owners mapped through f when explicit. */
static int init_image(const tc_schedule *s, const int32_t *f, tc_schedule *out, tc_error *err) {
  int32_t *owner = NULL;
  if (s->owner) {
    owner = malloc((size_t)s->nshards * sizeof *owner);
    if (!owner) return tc_error_set(err, TC_ENOMEM, "out of memory");
    for (int32_t k = 0; k < s->nshards; k++) owner[k] = f[s->owner[k]];
  }
  int rc = tc_schedule_init_owned(out, s->coll, s->nodes, s->nshards, owner, s->units, s->algorithm, err);
  free(owner);
  if (!rc) rc = tc_schedule_reserve(out, s->count ? s->count : 1, err);
  if (rc) { tc_schedule_destroy(out); return rc; }
  out->steps = s->steps;
  out->rs_steps = s->rs_steps;
  return TC_OK;
}

int tc_schedule_relabel(const tc_graph *g, const tc_schedule *s, const tc_graph *g2, const int32_t *f,
                        tc_schedule *out, tc_error *err) {
  memset(out, 0, sizeof *out);
  int rc = tc_schedule_check_graph(g, s, "relabel", err);
  if (rc) return rc;
  rc = check_node_bijection(g, g2, f, err);
  if (rc) {
    if (rc == TC_EINPUT) tc_error_prefix(err, "relabel");
    return rc;
  }
  int64_t *arcmap = malloc(((size_t)g->m + 1) * sizeof *arcmap);
  if (!arcmap) return tc_error_set(err, TC_ENOMEM, "out of memory");
  rc = tc_graph_map_arcs(g, g2, f, 0, NULL, arcmap, err);
  if (rc) tc_error_prefix(err, "relabel: node map is not an isomorphism");
  if (!rc) rc = init_image(s, f, out, err);
  for (int64_t i = 0; !rc && i < s->count; i++) {
    const tc_transfer *x = &s->xfer[i];
    int32_t shard = s->owner ? x->shard : f[x->shard]; /* N-shard layout: shard k is node k's */
    rc = tc_schedule_add(out, shard, arcmap[x->arc], x->step, x->lo, x->hi, err);
  }
  free(arcmap);
  if (rc) tc_schedule_destroy(out);
  return rc;
}

/* iso, or a freshly computed isomorphism g -> g^T in *own (TC_EINPUT when there is none). */
static int reverse_symmetry_map(const tc_graph *g, const int32_t *iso, const char *what, int32_t **own,
                                const int32_t **map, tc_error *err) {
  *own = NULL;
  *map = iso;
  if (iso) return TC_OK;
  *own = malloc(((size_t)g->n + 1) * sizeof **own);
  if (!*own) return tc_error_set(err, TC_ENOMEM, "out of memory");
  int found = 0, rc = tc_graph_reverse_symmetry(g, &found, *own, err);
  if (!rc && !found)
    rc = tc_error_set(err, TC_EINPUT,
                      "%s: the graph is not reverse-symmetric (not isomorphic to its transpose), so Theorem 2 "
                      "does not apply; use Corollary 1.1 (tc_schedule_reduce_scatter_from)",
                      what);
  if (rc) { free(*own); *own = NULL; return rc; }
  *map = *own;
  return TC_OK;
}

int tc_schedule_reverse_symmetric(const tc_graph *g, const tc_schedule *s, const int32_t *iso, tc_schedule *out,
                                  tc_error *err) {
  memset(out, 0, sizeof *out);
  int rc = tc_schedule_check_graph(g, s, "Theorem 2", err);
  if (rc) return rc;
  int32_t *own;
  const int32_t *f;
  rc = reverse_symmetry_map(g, iso, "Theorem 2", &own, &f, err);
  if (rc) return rc;
  tc_graph *gt = NULL;
  tc_schedule reversed;
  memset(&reversed, 0, sizeof reversed);
  rc = tc_graph_transpose(g, &gt, err);
  if (!rc) rc = tc_schedule_reverse(g, s, gt, &reversed, err);
  /* An isomorphism g -> g^T is also one g^T -> g: mult_{g^T}(u,v) = mult_g(v,u) =
     mult_{g^T}(f v, f u) = mult_g(f u, f v). So the same map carries s^T back onto g. */
  if (!rc) {
    rc = tc_schedule_relabel(gt, &reversed, g, f, out, err);
    if (rc == TC_EINPUT) tc_error_prefix(err, "Theorem 2 (map G -> G^T)");
  }
  tc_schedule_destroy(&reversed);
  tc_graph_destroy(gt);
  free(own);
  return rc;
}

/* Run gen on g and insist on an allgather for g's nodes. */
static int generate_allgather(const tc_graph *g, tc_schedule_generator gen, void *ctx, tc_schedule *ag,
                              tc_error *err) {
  memset(ag, 0, sizeof *ag);
  if (!gen) return tc_error_set(err, TC_EINPUT, "no allgather generator given");
  int rc = gen(g, ctx, ag, err);
  if (rc) { tc_schedule_destroy(ag); return rc; }
  if (ag->coll != TC_COLL_ALLGATHER) {
    rc = tc_error_set(err, TC_EINPUT, "the generator built a %s schedule, not an allgather",
                      tc_collective_name(ag->coll));
    tc_schedule_destroy(ag);
  }
  return rc;
}

int tc_schedule_reduce_scatter_from(const tc_graph *g, tc_schedule_generator gen, void *ctx, tc_schedule *out,
                                    tc_error *err) {
  memset(out, 0, sizeof *out);
  tc_graph *gt = NULL;
  int rc = tc_graph_transpose(g, &gt, err);
  if (rc) return rc;
  tc_schedule ag;
  rc = generate_allgather(gt, gen, ctx, &ag, err);
  /* (G^T)^T = G: reversing onto g itself keeps g's own arc ids. */
  if (!rc) rc = tc_schedule_reverse(gt, &ag, g, out, err);
  tc_schedule_destroy(&ag);
  tc_graph_destroy(gt);
  return rc;
}

int tc_schedule_reduce_scatter_by(const tc_graph *g, const tc_schedule *ag, tc_schedule_generator gen, void *ctx,
                                  tc_schedule *out, tc_error *err) {
  memset(out, 0, sizeof *out);
  int32_t *iso = malloc(((size_t)g->n + 1) * sizeof *iso);
  if (!iso) return tc_error_set(err, TC_ENOMEM, "out of memory");
  int found = 0, rc = tc_graph_reverse_symmetry(g, &found, iso, err);
  if (!rc && !found) rc = tc_schedule_reduce_scatter_from(g, gen, ctx, out, err);
  else if (!rc && ag) rc = tc_schedule_reverse_symmetric(g, ag, iso, out, err);
  else if (!rc) {
    tc_schedule own;
    rc = generate_allgather(g, gen, ctx, &own, err);
    if (!rc) rc = tc_schedule_reverse_symmetric(g, &own, iso, out, err);
    tc_schedule_destroy(&own);
  }
  free(iso);
  return rc;
}
