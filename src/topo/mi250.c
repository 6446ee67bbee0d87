/*
** mi250.c — n clusters of AMD MI250 GCDs joined by one InfiniBand switch: the fabric of
** paper 001 §5.2 / Fig. 7(a) (ForestColl), capacities in GB/s per direction.
**
** Inside a cluster of 16 GCDs, each GCD has 7 Infinity Fabric links of 50 GB/s to three or
** four other GCDs; some pairs have parallel links (§5.2). The paper shows which pairs only
** in Fig. 7(a); the exact matrix below is the authors' (their repository's MI250_ADJ_MAT,
** as recorded in digest-001 §4.2): 8 same-package pairs of 4 links, 4 pairs of 2 and 16
** pairs of 1 — 28 pairs, 56 links, 7 per GCD. A pair's links are one bundle: one arc each
** way whose capacity is their total (links x 50), never parallel arcs, so that the
** capacity of a pair is one number the max-flow and cost code read directly.
**
** Between clusters the paper (and Fig. 7(a)) omits the PCIe switches and the 8 NICs of
** 32 GB/s and gives every GCD 16 GB/s to one IB switch (256 / 16); we model exactly that:
** one switch node shared by all clusters, GCD <-> IB at 16 each way. With n = 1 there is
** nothing to reach, so there is no IB switch (the authors' single-box model).
**
** gcds = 8 is the paper's "8+8" setting (§5.2: only GCDs 0-7 of each cluster enabled, the
** left half of Fig. 7a): the subgraph induced by GCDs 0-7 (11 of the 28 pairs, 25 links)
** plus their IB links.
**
** Node numbering: GCD g of cluster c is c*gcds + g, labelled "gcd<c>.<g>"; the IB switch
** (n >= 2) is node n*gcds, labelled "ib", kind switch; labels up to TC_TOPO_LABEL_MAX_NODES
** nodes. Arcs: 56 (gcds 16) or 22 (gcds 8) per cluster, plus 2*gcds per cluster for
** n >= 2. The graph is bidirectional and Eulerian.
**
** Parameters: n >= 1, gcds 8 or 16 (TC_EINPUT otherwise); sizes beyond TC_MAX_NODES give
** TC_ERANGE before anything is allocated.
*/
#include "topocoll/topo.h"

#include <stddef.h>

#include "topo_util.h"

#define IF_LINK_GBPS 50 /* one Infinity Fabric link, per direction */
#define IB_GBPS 16      /* one GCD's share of its cluster's 256 GB/s of IB */

/* The intra-cluster link matrix: GCD pair and number of parallel 50 GB/s links. */
static const struct { int a, b, links; } mi250_links[] = {
    {0, 1, 4},  {2, 3, 4},   {4, 5, 4},   {6, 7, 4},   {8, 9, 4},   {10, 11, 4}, {12, 13, 4},
    {14, 15, 4}, {0, 4, 2},  {3, 7, 2},   {8, 12, 2},  {11, 15, 2}, {0, 8, 1},   {1, 5, 1},
    {1, 9, 1},  {1, 10, 1},  {2, 6, 1},   {2, 9, 1},   {2, 10, 1},  {3, 11, 1},  {4, 6, 1},
    {5, 6, 1},  {5, 7, 1},   {9, 13, 1},  {10, 14, 1}, {12, 14, 1}, {13, 14, 1}, {13, 15, 1},
};
#define MI250_PAIRS ((int)(sizeof mi250_links / sizeof mi250_links[0]))

/* Bundles (node pairs) among the first `gcds` GCDs of a cluster. */
static int64_t pairs_within(int64_t gcds) {
  int64_t count = 0;
  for (int i = 0; i < MI250_PAIRS; i++) count += mi250_links[i].b < gcds;
  return count;
}

static int add_cluster(tc_graph_builder *b, int64_t c, int64_t gcds, tc_error *err) {
  int64_t base = c * gcds;
  for (int i = 0; i < MI250_PAIRS; i++) {
    if (mi250_links[i].b >= gcds) continue; /* the pair leaves the induced subgraph */
    int rc = tc_graph_builder_add_edge(b, base + mi250_links[i].a, base + mi250_links[i].b,
                                       (int64_t)mi250_links[i].links * IF_LINK_GBPS, err);
    if (rc) return rc;
  }
  return TC_OK;
}

static int label_nodes(tc_graph_builder *b, int64_t n, int64_t gcds, tc_error *err) {
  int rc = TC_OK;
  for (int64_t u = 0; u < n * gcds && !rc; u++)
    rc = tci_topo_labelf(b, u, err, "gcd%lld.%lld", (long long)(u / gcds), (long long)(u % gcds));
  if (!rc && n >= 2) rc = tci_topo_labelf(b, n * gcds, err, "ib");
  return rc;
}

int tc_topo_mi250(int64_t n, int64_t gcds, tc_graph **out, tc_error *err) {
  if (!out) return tc_error_set(err, TC_EINPUT, "mi250: output pointer is NULL");
  *out = NULL;
  if (n < 1) return tc_error_set(err, TC_EINPUT, "mi250: n must be >= 1 (got %lld)", (long long)n);
  if (gcds != 8 && gcds != 16)
    return tc_error_set(err, TC_EINPUT, "mi250: gcds must be 8 or 16 (got %lld)", (long long)gcds);
  if (n > (TC_MAX_NODES - 1) / gcds)
    return tc_error_set(err, TC_ERANGE, "mi250: %lld clusters of %lld GCDs exceed %d nodes", (long long)n,
                        (long long)gcds, TC_MAX_NODES);
  int64_t ib = n >= 2, nodes = n * gcds + ib;
  int64_t arcs = n * (2 * pairs_within(gcds) + ib * 2 * gcds); /* <= 88 per cluster: fits */
  if (arcs > TC_MAX_ARCS)
    return tc_error_set(err, TC_ERANGE, "mi250: %lld clusters need more than %lld arcs", (long long)n,
                        (long long)TC_MAX_ARCS);

  tc_graph_builder b;
  int rc = tc_graph_builder_init(&b, nodes, err);
  if (!rc) rc = tc_graph_builder_reserve(&b, arcs, err);
  for (int64_t c = 0; c < n && !rc; c++) rc = add_cluster(&b, c, gcds, err);
  for (int64_t u = 0; ib && u < n * gcds && !rc; u++) rc = tc_graph_builder_add_edge(&b, u, n * gcds, IB_GBPS, err);
  if (!rc && ib) rc = tc_graph_builder_set_kind(&b, n * gcds, TC_NODE_SWITCH, err);
  if (!rc && nodes <= TC_TOPO_LABEL_MAX_NODES) rc = label_nodes(&b, n, gcds, err);
  if (rc) {
    tc_graph_builder_destroy(&b);
    return rc;
  }
  return tc_graph_builder_finish(&b, out, err);
}
