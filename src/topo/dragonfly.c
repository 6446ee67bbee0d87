/*
** dragonfly.c — the Dragonfly router graph (Kim, Dally, Scott, Abts 2008; paper 002 ref. [7],
** §2.1.4 with Figs 2.4/2.5, §4.4). Terminals are not modelled: nodes are
** routers.
**
** Parameters: a routers per group, h global links per router, g groups. Every group is a
** complete graph K_a (local links); the a h global ports of a group are spread so that
** every pair of groups gets exactly L = a h / (g - 1) global links, which requires
** (g - 1) | a h. g == 0 asks for the largest ("balanced", paper 002 §4.4) size
** g = a h + 1, where every pair of groups has exactly one global link.
**
** Node numbering: router r (0 <= r < a) of group j (0 <= j < g) has id j a + r.
**
** Global link arrangement (precise, so results are reproducible):
**   - group j's global ports are p = 0 .. a h - 1; port p belongs to router floor(p / h);
**   - the other groups of j, in increasing order with j skipped, get indices
**     t = 0 .. g-2, i.e. group j' has index t_j(j') = j' - (j' > j);
**   - for each pair j < j' and c = 0 .. L-1, the c-th link of the pair joins port
**     c (g-1) + t_j(j') of group j to port c (g-1) + t_{j'}(j) of group j'.
** So port p of a group leads to its (p mod (g-1))-th other group; every port is used once.
** When h = g - 1 a router's h consecutive ports cover every other group once, and the c-th
** link of every pair joins router c to router c: global links connect equal router
** indices. Then (group, router) are the coordinates of a 2D fully connected network, and
** dragonfly(a, h = g-1, g) is *identical* (same ids) to tc_topo_hyperx({g, a}): groups
** are the K_a lines along the fast coordinate a_1 = router, global links the K_g lines
** along a_2 = group. In particular dragonfly(3,3,4) is the 4 x 3 2dfc, isomorphic (by
** swapping coordinates) to the 3 x 4 2dfc, as paper 002 §2.1.4 states (Figs 2.4/2.5).
**
** Guarantees: a g nodes; regular of degree a - 1 + h; a g (a - 1 + h) arcs; bidirectional;
** no self-loops. When h <= g - 1 a router's h consecutive ports lead to h distinct groups,
** so there are no parallel arcs; when h > g - 1 a router has several global links to one
** group and some of them may be parallel links to the same router. For the balanced size
** g = a h + 1 with a = 2h (Kim et al.'s balance) the diameter is 3: at most 3 because every
** pair of groups is linked (local, global, local hop), at least 3 because a g exceeds the
** undirected Moore bound 1 + d^2 for diameter 2 (the test checks both).
**
** Parameters: a >= 1, h >= 1, g == 0 or g >= 2, (g-1) | a h. Sizes beyond TC_MAX_NODES /
** TC_MAX_ARCS give TC_ERANGE before anything is allocated.
*/
#include "topocoll/topo.h"

#include <stddef.h>

static int add_local_links(tc_graph_builder *b, int64_t a, int64_t g, tc_error *err) {
  for (int64_t j = 0; j < g; j++)
    for (int64_t r = 0; r < a; r++)
      for (int64_t s = r + 1; s < a; s++) {
        int rc = tc_graph_builder_add_edge(b, j * a + r, j * a + s, 1, err);
        if (rc) return rc;
      }
  return TC_OK;
}

/* Index of group `other` among the groups other than `self`, in increasing order. */
static int64_t other_group_index(int64_t self, int64_t other) { return other > self ? other - 1 : other; }

static int add_global_links(tc_graph_builder *b, int64_t a, int64_t h, int64_t g, tc_error *err) {
  int64_t links_per_pair = a * h / (g - 1);
  for (int64_t j = 0; j < g; j++)
    for (int64_t jp = j + 1; jp < g; jp++)
      for (int64_t c = 0; c < links_per_pair; c++) {
        int64_t port = c * (g - 1) + other_group_index(j, jp);
        int64_t port_far = c * (g - 1) + other_group_index(jp, j);
        int rc = tc_graph_builder_add_edge(b, j * a + port / h, jp * a + port_far / h, 1, err);
        if (rc) return rc;
      }
  return TC_OK;
}

/* Validate (a, h, g), resolve g == 0, and compute the node count; TC_OK or an error. */
static int dragonfly_size(int64_t a, int64_t h, int64_t *g, int64_t *nodes, tc_error *err) {
  if (a < 1) return tc_error_set(err, TC_EINPUT, "dragonfly: a must be >= 1 (got %lld)", (long long)a);
  if (h < 1) return tc_error_set(err, TC_EINPUT, "dragonfly: h must be >= 1 (got %lld)", (long long)h);
  if (*g < 0 || *g == 1)
    return tc_error_set(err, TC_EINPUT, "dragonfly: g must be 0 (balanced) or >= 2 (got %lld)", (long long)*g);
  if (a > TC_MAX_NODES)
    return tc_error_set(err, TC_ERANGE, "dragonfly: a = %lld exceeds %d nodes", (long long)a, TC_MAX_NODES);
  if (h > TC_MAX_ARCS)
    return tc_error_set(err, TC_ERANGE, "dragonfly: h = %lld exceeds %lld arcs", (long long)h,
                        (long long)TC_MAX_ARCS);
  int64_t ports = a * h; /* both factors bounded above: fits in int64 */
  if (*g == 0) *g = ports + 1;
  if (ports % (*g - 1) != 0)
    return tc_error_set(err, TC_EINPUT, "dragonfly: g-1 = %lld must divide a*h = %lld", (long long)(*g - 1),
                        (long long)ports);
  if (*g > TC_MAX_NODES / a)
    return tc_error_set(err, TC_ERANGE, "dragonfly: %lld groups of %lld routers exceed %d nodes", (long long)*g,
                        (long long)a, TC_MAX_NODES);
  *nodes = a * *g;
  if (a - 1 + h > TC_MAX_ARCS / *nodes)
    return tc_error_set(err, TC_ERANGE, "dragonfly: needs more than %lld arcs", (long long)TC_MAX_ARCS);
  return TC_OK;
}

int tc_topo_dragonfly(int64_t a, int64_t h, int64_t g, tc_graph **out, tc_error *err) {
  if (!out) return tc_error_set(err, TC_EINPUT, "dragonfly: output pointer is NULL");
  *out = NULL;
  int64_t nodes = 0;
  int rc = dragonfly_size(a, h, &g, &nodes, err);
  if (rc) return rc;

  tc_graph_builder b;
  rc = tc_graph_builder_init(&b, nodes, err);
  if (!rc) rc = tc_graph_builder_reserve(&b, nodes * (a - 1 + h), err);
  if (!rc) rc = add_local_links(&b, a, g, err);
  if (!rc) rc = add_global_links(&b, a, h, g, err);
  if (rc) {
    tc_graph_builder_destroy(&b);
    return rc;
  }
  return tc_graph_builder_finish(&b, out, err);
}
