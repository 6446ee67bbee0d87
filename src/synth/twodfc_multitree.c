/*
** twodfc_multitree.c — MULTITREE on the m x m 2dfc, m even, by the dissertation's parity
** construction (paper 002 §4.1.2, Fig. 4.2; contract in twodfc.h), lowered by the shared
** tree lowering (multitree_internal.h).
**
** Root 0's tree, in positions (r, c) relative to the root (r along Y, c along X):
**   step 1      the 2(m-1) axis nodes (r, 0) and (0, c);
**   step k >= 2 the Y-axis nodes r in {2k-3, 2k-2} adopt (r, c), c >= 1, c = r (mod 2),
**               over X-links; the X-axis nodes c in {2k-3, 2k-2} adopt (r, c), r >= 1,
**               r != c (mod 2), over Y-links.
** Every off-axis (r, c) has exactly one parent (parity decides), joined in an earlier step.
** Root (R, C) uses the same tree translated by (R, C) mod m. Why no link carries two trees
** in one step: an X-link (a, b) -> (a, b + c) in step k is used only by a tree whose Y-axis
** node r = a - R lies in {2k-3, 2k-2} with r = c (mod 2) and C = b: one r of the pair has
** that parity, so one tree (likewise for Y-links). Steps: the axis pairs end at m-1, so
** step m/2 + 1 takes the last axis node alone (half the links) — m/2 + 1 in all, Eq. 4.4's
** bound ceil((m^2 - 1)/(2m - 2)).
*/
#include "topocoll/twodfc.h"

#include <string.h>

#include "synth/multitree_internal.h"
#include "synth/twodfc_internal.h"

static const char *const MT = "multitree";

/* Join (r, c) (relative to every root) to tree `root` through parent (pr, pc) in step k. */
static void join(tci_trees *t, const tci_twodfc *f, int32_t root, int32_t pr, int32_t pc, int32_t r, int32_t c,
                 int32_t k) {
  int32_t m = f->m1, R = root / m, C = root % m;
  int32_t u = tci_twodfc_node(f, (R + pr) % m, (C + pc) % m), v = tci_twodfc_node(f, (R + r) % m, (C + c) % m);
  int64_t i = (int64_t)root * f->g->n + v;
  t->arc[i] = tci_twodfc_arc(f, u, v);
  t->step[i] = k;
}

static void parity_trees(tci_trees *t, const tci_twodfc *f) {
  int32_t m = f->m1;
  for (int32_t root = 0; root < f->g->n; root++)
    for (int32_t a = 1; a < m; a++) {
      join(t, f, root, 0, 0, a, 0, 1); /* the axis nodes, step 1 */
      join(t, f, root, 0, 0, 0, a, 1);
      int32_t k = (a + 1) / 2 + 1; /* axis node a adopts in step k: a in {2k-3, 2k-2} */
      for (int32_t b = 1; b < m; b++) {
        if (b % 2 == a % 2) join(t, f, root, a, 0, a, b, k); /* Y-axis node (a, 0): equal parity */
        if (b % 2 != a % 2) join(t, f, root, 0, a, b, a, k); /* X-axis node (0, a): opposite */
      }
    }
}

int tc_twodfc_multitree(const tc_graph *g, int64_t m, tc_collective coll, tc_schedule *out, tc_error *err) {
  memset(out, 0, sizeof *out);
  if (coll != TC_COLL_ALLGATHER && coll != TC_COLL_ALLTOALL)
    return tc_error_set(err, TC_EINPUT, "%s: builds allgather and alltoall (not %s)", MT, tc_collective_name(coll));
  if (m % 2 != 0)
    return tc_error_set(err, TC_EINPUT, "%s: the parity construction needs an even m x m 2dfc (got hyperx(%lld,%lld))",
                        MT, (long long)m, (long long)m);
  tci_twodfc f;
  int rc = tci_twodfc_check(g, m, m, MT, &f, err);
  tci_trees t;
  if (!rc) rc = tci_trees_init(&t, g->n, err);
  if (rc) return rc;
  parity_trees(&t, &f);
  rc = tci_trees_lower(g, &t, coll, MT, out, err);
  tci_trees_destroy(&t);
  return rc;
}
