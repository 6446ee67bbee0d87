/*
** xpander.c — Xpander (Valadarsky, Shahaf, Dinitz, Schapira): a random `lift`-lift of the
** complete graph K_{d+1} (paper 003 §5.4 compares against it in Fig. 10).
**
** Construction: node (v, i), v in 0..d the vertex of K_{d+1} and i in 0..lift-1 its copy,
** has id v*lift + i. For every edge {u,v} of K_{d+1} (u < v) a uniformly random
** permutation pi of 0..lift-1 is drawn and (u,i) is linked to (v,pi(i)) for every i.
**
** Guarantees: (d+1)*lift nodes, d-regular (one link towards each other vertex's copies),
** simple (the links of one base edge form a perfect matching between two disjoint copy
** sets, and different base edges join different copy sets), bidirectional (opposite arc
** pairs), unit capacities, connected, and a deterministic function of (d, lift, seed)
** through src/core/rng.h.
**
** Connectivity: for d >= 3 a random lift of K_{d+1} is connected with high probability,
** so a disconnected draw is simply redrawn from the continuing random stream (at most
** XPANDER_MAX_DRAWS times, then TC_EFAIL). For d == 2 a random lift of the triangle is a
** union of cycles and is connected only with probability 1/lift, so it is drawn
** conditioned on connectivity instead: following copy i around the triangle gives the
** permutation sigma = pi_20 o pi_12 o pi_01 of the copies of vertex 0, and the lift is
** connected iff sigma is one lift-cycle. pi_01 and pi_12 are drawn uniformly, sigma
** uniformly among the lift-cycles (Sattolo's shuffle), and pi_20 solved from them, which
** is exactly the uniform distribution over connected lifts.
**
** Rejected: d < 1 or lift < 1, and d == 1 with lift > 1 (a lift of K_2 is a perfect
** matching, connected only for lift == 1): TC_EINPUT. (d+1)*lift > TC_MAX_NODES or
** (d+1)*lift*d > TC_MAX_ARCS: TC_ERANGE, before anything is allocated.
*/
#include <stdlib.h>

#include "core/rng.h"
#include "topo_util.h"
#include "topocoll/topo.h"

#define XPANDER_MAX_DRAWS 200

static int oom(tc_error *err) { return tc_error_set(err, TC_ENOMEM, "xpander: out of memory"); }

/* Links (u,i) -- (v,perm[i]) for all i. */
static int add_matching(tc_graph_builder *b, int64_t u, int64_t v, const int32_t *perm, int64_t lift,
                        tc_error *err) {
  for (int64_t i = 0; i < lift; i++) {
    int rc = tc_graph_builder_add_edge(b, u * lift + i, v * lift + perm[i], 1, err);
    if (rc) return rc;
  }
  return TC_OK;
}

static int builder_start(tc_graph_builder *b, int64_t d, int64_t lift, tc_error *err) {
  int rc = tc_graph_builder_init(b, (d + 1) * lift, err);
  if (!rc) rc = tc_graph_builder_reserve(b, (d + 1) * lift * d, err);
  return rc;
}

/* One lift with an independent random matching per base edge. */
static int draw_lift(int64_t d, int64_t lift, int32_t *perm, tc_rng *rng, tc_graph **out, tc_error *err) {
  tc_graph_builder b;
  int rc = builder_start(&b, d, lift, err);
  for (int64_t u = 0; u <= d && !rc; u++)
    for (int64_t v = u + 1; v <= d && !rc; v++) {
      tci_topo_random_permutation(perm, lift, rng);
      rc = add_matching(&b, u, v, perm, lift, err);
    }
  if (rc) {
    tc_graph_builder_destroy(&b);
    return rc;
  }
  return tc_graph_builder_finish(&b, out, err);
}

static int general_xpander(int64_t d, int64_t lift, tc_rng *rng, tc_graph **out, tc_error *err) {
  int32_t *perm = malloc((size_t)lift * sizeof *perm);
  if (!perm) return oom(err);
  int rc = TC_OK;
  for (int draw = 0; draw < XPANDER_MAX_DRAWS; draw++) {
    rc = draw_lift(d, lift, perm, rng, out, err);
    if (rc || tc_graph_is_strongly_connected(*out)) break;
    tc_graph_destroy(*out);
    *out = NULL;
  }
  free(perm);
  if (rc) return rc;
  if (!*out)
    return tc_error_set(err, TC_EFAIL, "xpander: no connected %lld-lift of K_%lld after %d random draws",
                        (long long)lift, (long long)(d + 1), XPANDER_MAX_DRAWS);
  return TC_OK;
}

/* d == 2: pi_20 = sigma o pi_01^{-1} o pi_12^{-1} with sigma a random full cycle, so that
   walking (0,i) -> (1,pi_01 i) -> (2,pi_12 pi_01 i) -> (0,sigma i) visits every copy. */
static int connected_triangle_lift(int64_t lift, tc_rng *rng, tc_graph **out, tc_error *err) {
  int32_t *buf = malloc((size_t)lift * 5 * sizeof *buf);
  if (!buf) return oom(err);
  int32_t *p01 = buf, *p12 = buf + lift, *sigma = buf + 2 * lift, *p20 = buf + 3 * lift, *tmp = buf + 4 * lift;
  tci_topo_random_permutation(p01, lift, rng);
  tci_topo_random_permutation(p12, lift, rng);
  tci_topo_random_cycle(sigma, lift, rng);
  for (int64_t i = 0; i < lift; i++) tmp[p12[p01[i]]] = (int32_t)i; /* (pi_12 pi_01)^{-1} */
  for (int64_t j = 0; j < lift; j++) p20[j] = sigma[tmp[j]];
  tc_graph_builder b;
  int rc = builder_start(&b, 2, lift, err);
  if (!rc) rc = add_matching(&b, 0, 1, p01, lift, err);
  if (!rc) rc = add_matching(&b, 1, 2, p12, lift, err);
  if (!rc) rc = add_matching(&b, 2, 0, p20, lift, err);
  free(buf);
  if (rc) {
    tc_graph_builder_destroy(&b);
    return rc;
  }
  return tc_graph_builder_finish(&b, out, err);
}

static int check_xpander_params(int64_t d, int64_t lift, tc_error *err) {
  if (d < 1) return tc_error_set(err, TC_EINPUT, "xpander: d must be >= 1 (got %lld)", (long long)d);
  if (lift < 1) return tc_error_set(err, TC_EINPUT, "xpander: lift must be >= 1 (got %lld)", (long long)lift);
  if (d >= TC_MAX_NODES || lift > TC_MAX_NODES / (d + 1))
    return tc_error_set(err, TC_ERANGE, "xpander: (d+1)*lift nodes exceeds the node limit %d (d = %lld, lift = %lld)",
                        TC_MAX_NODES, (long long)d, (long long)lift);
  if ((d + 1) * lift * d > TC_MAX_ARCS) /* each factor bounded by TC_MAX_NODES: no overflow */
    return tc_error_set(err, TC_ERANGE, "xpander: %lld arcs exceeds the arc limit %lld",
                        (long long)((d + 1) * lift * d), (long long)TC_MAX_ARCS);
  if (d == 1 && lift > 1)
    return tc_error_set(err, TC_EINPUT, "xpander: a lift of K_2 is connected only for lift = 1 (got lift = %lld)",
                        (long long)lift);
  return TC_OK;
}

int tc_topo_xpander(int64_t d, int64_t lift, uint64_t seed, tc_graph **out, tc_error *err) {
  *out = NULL;
  int rc = check_xpander_params(d, lift, err);
  if (rc) return rc;
  tc_rng rng;
  tci_rng_seed(&rng, seed);
  if (d == 2) return connected_triangle_lift(lift, &rng, out, err);
  return general_xpander(d, lift, &rng, out, err);
}
