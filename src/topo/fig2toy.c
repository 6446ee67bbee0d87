/*
** fig2toy.c — the toy fabric of paper 001 Fig. 2(a) (= Fig. 12a; ForestColl): two
** clusters of four compute nodes, a fast switch per cluster and a slow global switch.
**
** Compute nodes c(i,j), i in {1,2}, j in 1..4; cluster switches w1, w2; global switch w0.
** Links, both directions: c(i,j) <-> w_i at 10b (the thick intra-cluster lines), c(i,j)
** <-> w0 at b (the thin inter-cluster ones). The cut S* = {c(1,*), w1} leaves through 4b,
** so the allgather optimum is T = M/(8b) (§3 of the paper, digest-001 §4.1).
**
** Node numbering: c(i,j) is 4(i-1) + (j-1), labelled "ci.j"; w0, w1, w2 are 8, 9, 10,
** labelled "w0", "w1", "w2", kind switch. 11 nodes, 32 arcs, bidirectional, Eulerian.
**
** Parameters: b >= 1 (TC_EINPUT otherwise); 10b beyond 2^63 - 1 gives TC_ERANGE.
*/
#include "topocoll/topo.h"

#include <stddef.h>

#include "topo_util.h"

#define COMPUTE 8 /* two clusters of four */

static int label_nodes(tc_graph_builder *b, tc_error *err) {
  int rc = TC_OK;
  for (int u = 0; u < COMPUTE && !rc; u++) rc = tci_topo_labelf(b, u, err, "c%d.%d", u / 4 + 1, u % 4 + 1);
  for (int w = 0; w < 3 && !rc; w++) rc = tci_topo_labelf(b, COMPUTE + w, err, "w%d", w);
  return rc;
}

int tc_topo_fig2toy(int64_t bw, tc_graph **out, tc_error *err) {
  if (!out) return tc_error_set(err, TC_EINPUT, "fig2toy: output pointer is NULL");
  *out = NULL;
  if (bw < 1) return tc_error_set(err, TC_EINPUT, "fig2toy: b must be >= 1 (got %lld)", (long long)bw);
  if (bw > INT64_MAX / 10)
    return tc_error_set(err, TC_ERANGE, "fig2toy: b = %lld makes the cluster links (10b) exceed 2^63-1",
                        (long long)bw);
  tc_graph_builder b;
  int rc = tc_graph_builder_init(&b, COMPUTE + 3, err);
  if (!rc) rc = tc_graph_builder_reserve(&b, 4 * COMPUTE, err);
  for (int u = 0; u < COMPUTE && !rc; u++) {
    rc = tc_graph_builder_add_edge(&b, u, COMPUTE + 1 + u / 4, 10 * bw, err); /* to w1 or w2 */
    if (!rc) rc = tc_graph_builder_add_edge(&b, u, COMPUTE, bw, err);        /* to w0 */
  }
  for (int w = 0; w < 3 && !rc; w++) rc = tc_graph_builder_set_kind(&b, COMPUTE + w, TC_NODE_SWITCH, err);
  if (!rc) rc = label_nodes(&b, err);
  if (rc) {
    tc_graph_builder_destroy(&b);
    return rc;
  }
  return tc_graph_builder_finish(&b, out, err);
}
