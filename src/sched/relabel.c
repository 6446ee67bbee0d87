/*
** relabel.c — schedule isomorphisms (paper 000 Def. 7; contract in transform.h).
**
** A node map is an isomorphism iff it is a bijection, keeps node kinds, and every arc finds
** a free image under tci_graph_map_arcs (equal arc counts then make the arc map a bijection
** too) — so the map is checked as a side effect of using it.
*/
#include "topocoll/transform.h"

#include <stdlib.h>
#include <string.h>

#include "sched/transform_internal.h"

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

/* Scatter, gather and p2p: shards named by node, started by tc_schedule_init_rooted. */
static int fixed_rooted_layout(const tc_schedule *s) {
  return s->coll == TC_COLL_SCATTER || s->coll == TC_COLL_GATHER || s->coll == TC_COLL_P2P;
}

/* Copy s's header into an empty out: the owners mapped through f when explicit; for the
   fixed rooted layouts (scatter, gather, p2p) the root and destination mapped instead. */
static int init_image(const tc_schedule *s, const int32_t *f, tc_schedule *out, tc_error *err) {
  int32_t *owner = NULL;
  int rc;
  if (fixed_rooted_layout(s)) {
    rc = tc_schedule_init_rooted(out, s->coll, s->nodes, f[tc_schedule_root(s)], s->coll == TC_COLL_P2P ? f[s->dest] : -1,
                                 s->units, s->algorithm, err);
  } else {
    if (s->owner) {
      owner = malloc((size_t)s->nshards * sizeof *owner);
      if (!owner) return tc_error_set(err, TC_ENOMEM, "out of memory");
      for (int32_t k = 0; k < s->nshards; k++) owner[k] = f[s->owner[k]];
    }
    rc = tc_schedule_init_owned(out, s->coll, s->nodes, s->nshards, owner, s->units, s->algorithm, err);
  }
  free(owner);
  if (!rc) rc = tc_schedule_reserve(out, s->count ? s->count : 1, err);
  if (rc) { tc_schedule_destroy(out); return rc; }
  out->steps = s->steps;
  out->rs_steps = s->rs_steps;
  return TC_OK;
}

/* Shard k's image: scatter's and gather's shards are named by their non-root node, p2p has
   one; an N-shard layout keeps its explicit owners; alltoall's s*N + t maps both ends. */
static int32_t image_shard(const tc_schedule *s, const int32_t *f, int32_t k) {
  if (s->coll == TC_COLL_P2P) return k;
  if (s->coll == TC_COLL_SCATTER || s->coll == TC_COLL_GATHER) return f[k];
  if (s->owner) return k;
  if (s->coll == TC_COLL_ALLTOALL) return f[tc_schedule_owner(s, k)] * s->nodes + f[tc_schedule_dest(s, k)];
  return f[k];
}

int tc_schedule_relabel(const tc_graph *g, const tc_schedule *s, const tc_graph *g2, const int32_t *f,
                        tc_schedule *out, tc_error *err) {
  memset(out, 0, sizeof *out);
  int rc = tci_schedule_check_graph(g, s, "relabel", err);
  if (rc) return rc;
  rc = check_node_bijection(g, g2, f, err);
  if (rc) {
    if (rc == TC_EINPUT) tc_error_prefix(err, "relabel");
    return rc;
  }
  int64_t *arcmap = malloc(((size_t)g->m + 1) * sizeof *arcmap);
  if (!arcmap) return tc_error_set(err, TC_ENOMEM, "out of memory");
  rc = tci_graph_map_arcs(g, g2, f, 0, NULL, arcmap, err);
  if (rc) tc_error_prefix(err, "relabel: node map is not an isomorphism");
  if (!rc) rc = init_image(s, f, out, err);
  for (int64_t i = 0; !rc && i < s->count; i++) {
    const tc_transfer *x = &s->xfer[i];
    int32_t shard = image_shard(s, f, x->shard);
    rc = tc_schedule_add(out, shard, arcmap[x->arc], x->step, x->lo, x->hi, err);
  }
  free(arcmap);
  if (rc) tc_schedule_destroy(out);
  return rc;
}
