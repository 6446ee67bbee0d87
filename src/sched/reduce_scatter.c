/*
** reduce_scatter.c — reduce-scatter from allgather (contract in transform.h): Theorem 2 on
** reverse-symmetric graphs (the reverse of the allgather, carried back onto G by an
** isomorphism G -> G^T) and Corollary 1.1 on every other graph (the reverse of an
** allgather built on G^T).
*/
#include "topocoll/transform.h"

#include <stdlib.h>
#include <string.h>

#include "sched/transform_internal.h"
#include "topocoll/iso.h"

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
  int rc = tci_schedule_check_graph(g, s, "Theorem 2", err);
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
