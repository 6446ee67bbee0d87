/*
** bidir.c — unidirectional to bidirectional schedule conversion, paper 000 App. A.6
** (contract in transform.h).
**
** G is reverse-symmetric with an isomorphism g: G -> G^T, A is a schedule on G, and
** G' = G ∪ G^T (tc_graph_bidir_closure). g(A) (Def. 7) is a schedule of the same collective
** on G^T, and A and g(A) run on disjoint arcs of G': A on the copy of G, g(A) on the copy of
** G^T. Every shard is split in halves: the first half follows A, the second g(A). Each arc
** of G' then carries half of what its arc of G carried, while the degree doubles, so per
** step the load per unit of node bandwidth — hence T_B — is unchanged, and so is T_L.
**
** Where G itself has arcs both ways between two nodes, G' has parallel arcs there; the two
** copies are told apart by arc id: the arcs of G take the first free matching arcs of G',
** and g(A) must then fit exactly in what is left — which happens iff g really is an
** isomorphism G -> G^T and gbi really is G ∪ G^T, so both are checked by the construction.
*/
#include "topocoll/transform.h"
#include "sched/transform_internal.h"

#include <stdlib.h>
#include <string.h>

#include "topocoll/iso.h"

static int check_closure_shape(const tc_graph *g, const tc_schedule *s, const tc_graph *gbi, tc_error *err) {
  int rc = tci_schedule_check_graph(g, s, "bidirectional", err);
  if (rc) return rc;
  if (s->owner || s->coll == TC_COLL_ALLTOALL || s->coll == TC_COLL_GATHER)
    return tc_error_set(err, TC_EINPUT,
                        "bidirectional: needs the N-shard layout (shard k owned by node k); this %s has %s",
                        tc_collective_name(s->coll), s->owner ? "explicit owners"
                                                    : s->coll == TC_COLL_GATHER ? "every shard bound for the root"
                                                                                : "N*N shards");
  if (gbi->n != g->n || gbi->m != 2 * g->m)
    return tc_error_set(err, TC_EINPUT,
                        "bidirectional: target graph (%d nodes, %lld arcs) is not G ∪ G^T of a graph with %d nodes, "
                        "%lld arcs",
                        gbi->n, (long long)gbi->m, g->n, (long long)g->m);
  for (int32_t u = 0; u < g->n; u++)
    if (g->kind[u] != gbi->kind[u])
      return tc_error_set(err, TC_EINPUT, "bidirectional: node %d changes kind (compute/switch) in the target", u);
  if (s->units > INT64_MAX / 2)
    return tc_error_set(err, TC_ERANGE, "bidirectional: halving shards of %lld units overflows", (long long)s->units);
  return TC_OK;
}

/* The map g: G -> G^T to use: `iso` checked to be a bijection, or one computed. */
static int pick_isomorphism(const tc_graph *g, const int32_t *iso, int32_t *map, tc_error *err) {
  if (!iso) {
    int found = 0, rc = tc_graph_reverse_symmetry(g, &found, map, err);
    if (!rc && !found)
      rc = tc_error_set(err, TC_EINPUT,
                        "bidirectional: the graph is not reverse-symmetric (not isomorphic to its transpose), so "
                        "A.6 does not apply");
    return rc;
  }
  uint8_t *hit = calloc((size_t)g->n + 1, 1);
  if (!hit) return tc_error_set(err, TC_ENOMEM, "out of memory");
  int rc = TC_OK;
  for (int32_t u = 0; u < g->n && !rc; u++) {
    if (iso[u] < 0 || iso[u] >= g->n || hit[iso[u]])
      rc = tc_error_set(err, TC_EINPUT, "bidirectional: node map is not a bijection (node %d -> %d)", u, iso[u]);
    else
      hit[iso[u]] = 1;
    map[u] = iso[u];
  }
  free(hit);
  return rc;
}

/* Arc images of G's arcs in gbi: on_g[a] for A, on_gt[a] for g(A) (disjoint). */
static int embed_both(const tc_graph *g, const tc_graph *gbi, const int32_t *map, int64_t *on_g, int64_t *on_gt,
                      tc_error *err) {
  uint8_t *used = calloc((size_t)gbi->m + 1, 1);
  if (!used) return tc_error_set(err, TC_ENOMEM, "out of memory");
  int rc = tci_graph_map_arcs(g, gbi, NULL, 0, used, on_g, err);
  if (rc == TC_EINPUT) tc_error_prefix(err, "bidirectional: target graph is not G ∪ G^T");
  if (!rc) {
    rc = tci_graph_map_arcs(g, gbi, map, 0, used, on_gt, err);
    if (rc == TC_EINPUT)
      tc_error_prefix(err, "bidirectional: node map is not an isomorphism G -> G^T, or the target is not G ∪ G^T");
  }
  free(used);
  return rc;
}

int tc_schedule_bidirectional(const tc_graph *g, const tc_schedule *s, const int32_t *iso, const tc_graph *gbi,
                              tc_schedule *out, tc_error *err) {
  memset(out, 0, sizeof *out);
  int rc = check_closure_shape(g, s, gbi, err);
  if (rc) return rc;
  int32_t *map = malloc(((size_t)g->n + 1) * sizeof *map);
  int64_t *on_g = malloc(((size_t)g->m + 1) * sizeof *on_g), *on_gt = malloc(((size_t)g->m + 1) * sizeof *on_gt);
  if (!map || !on_g || !on_gt) rc = tc_error_set(err, TC_ENOMEM, "out of memory");
  if (!rc) rc = pick_isomorphism(g, iso, map, err);
  if (!rc) rc = embed_both(g, gbi, map, on_g, on_gt, err);
  const int64_t half = s->units;
  if (!rc) rc = tc_schedule_init(out, s->coll, s->nodes, 2 * half, s->algorithm, err);
  if (!rc && s->count > INT64_MAX / 4) rc = tc_error_set(err, TC_ERANGE, "bidirectional: too many transfers");
  if (!rc) rc = tc_schedule_reserve(out, 2 * s->count + 1, err);
  for (int64_t i = 0; !rc && i < s->count; i++) {
    const tc_transfer *x = &s->xfer[i];
    rc = tc_schedule_add(out, x->shard, on_g[x->arc], x->step, x->lo, x->hi, err);
    if (!rc) rc = tc_schedule_add(out, map[x->shard], on_gt[x->arc], x->step, half + x->lo, half + x->hi, err);
  }
  free(map);
  free(on_g);
  free(on_gt);
  if (rc) { tc_schedule_destroy(out); return rc; }
  out->steps = s->steps;
  out->rs_steps = s->rs_steps;
  return TC_OK;
}
