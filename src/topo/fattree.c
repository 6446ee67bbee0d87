/*
** fattree.c — the k-ary fat-tree of Al-Fares, Loukissas and Vahdat (SIGCOMM 2008): the
** standard switched data-centre fabric, with hosts as compute nodes and every switch a
** switch node, so that ForestColl (paper 001) can be run on a fabric it was not tuned on.
**
** k even >= 2; k pods, each with k/2 edge and k/2 aggregation switches; (k/2)^2 core
** switches; k/2 hosts under every edge switch, k^3/4 hosts in all. Links (all
** bidirectional, capacity bw each way):
**   - host h of edge switch e of pod p  <->  edge switch e of pod p;
**   - every edge switch of a pod        <->  every aggregation switch of that pod;
**   - aggregation switch i of any pod   <->  core switches i*(k/2) .. i*(k/2) + k/2 - 1.
** So every switch has k ports, each core switch reaches every pod once, and there are
** 3k^3/4 links (k^3/4 per layer), 3k^3/2 arcs.
**
** Node numbering (h = k/2): hosts first, host j of edge e of pod p at p*h*h + e*h + j
** ("host<p>.<e>.<j>"); then edge switch e of pod p at k^3/4 + p*h + e ("edge<p>.<e>"),
** aggregation switch i of pod p at k^3/4 + k*h + p*h + i ("agg<p>.<i>"), core switch j at
** k^3/4 + k*k + j ("core<j>"). Nodes: k^3/4 + 5k^2/4; labels up to
** TC_TOPO_LABEL_MAX_NODES nodes (k <= 62).
**
** Parameters: k even >= 2, bw >= 1 (TC_EINPUT otherwise); sizes beyond TC_MAX_NODES /
** TC_MAX_ARCS give TC_ERANGE before anything is allocated.
*/
#include "topocoll/topo.h"

#include <stddef.h>

#include "topo_util.h"

/* The layers' first ids, for half = k/2. */
typedef struct layout {
  int64_t k, half, hosts, edge0, agg0, core0, nodes;
} layout;

static layout make_layout(int64_t k) {
  layout l = {.k = k, .half = k / 2};
  l.hosts = k * l.half * l.half;
  l.edge0 = l.hosts;
  l.agg0 = l.edge0 + k * l.half;
  l.core0 = l.agg0 + k * l.half;
  l.nodes = l.core0 + l.half * l.half;
  return l;
}

static int add_links(tc_graph_builder *b, const layout *l, int64_t bw, tc_error *err) {
  int rc = TC_OK;
  for (int64_t u = 0; u < l->hosts && !rc; u++) rc = tc_graph_builder_add_edge(b, u, l->edge0 + u / l->half, bw, err);
  for (int64_t p = 0; p < l->k && !rc; p++)
    for (int64_t e = 0; e < l->half && !rc; e++)
      for (int64_t i = 0; i < l->half && !rc; i++)
        rc = tc_graph_builder_add_edge(b, l->edge0 + p * l->half + e, l->agg0 + p * l->half + i, bw, err);
  for (int64_t p = 0; p < l->k && !rc; p++)
    for (int64_t i = 0; i < l->half && !rc; i++)
      for (int64_t c = 0; c < l->half && !rc; c++)
        rc = tc_graph_builder_add_edge(b, l->agg0 + p * l->half + i, l->core0 + i * l->half + c, bw, err);
  return rc;
}

static int label_nodes(tc_graph_builder *b, const layout *l, tc_error *err) {
  int64_t h = l->half;
  int rc = TC_OK;
  for (int64_t u = 0; u < l->hosts && !rc; u++)
    rc = tci_topo_labelf(b, u, err, "host%lld.%lld.%lld", (long long)(u / (h * h)), (long long)(u / h % h),
                         (long long)(u % h));
  for (int64_t s = 0; s < l->k * h && !rc; s++) {
    rc = tci_topo_labelf(b, l->edge0 + s, err, "edge%lld.%lld", (long long)(s / h), (long long)(s % h));
    if (!rc) rc = tci_topo_labelf(b, l->agg0 + s, err, "agg%lld.%lld", (long long)(s / h), (long long)(s % h));
  }
  for (int64_t j = 0; j < h * h && !rc; j++) rc = tci_topo_labelf(b, l->core0 + j, err, "core%lld", (long long)j);
  return rc;
}

int tc_topo_fattree(int64_t k, int64_t bw, tc_graph **out, tc_error *err) {
  if (!out) return tc_error_set(err, TC_EINPUT, "fattree: output pointer is NULL");
  *out = NULL;
  if (k < 2 || k % 2) return tc_error_set(err, TC_EINPUT, "fattree: k must be even and >= 2 (got %lld)", (long long)k);
  if (bw < 1) return tc_error_set(err, TC_EINPUT, "fattree: bw must be >= 1 (got %lld)", (long long)bw);
  /* k^3/4 alone exceeds any node limit long before k^3 overflows: 2^20 bounds k first. */
  if (k > (INT64_C(1) << 20) || make_layout(k).nodes > TC_MAX_NODES)
    return tc_error_set(err, TC_ERANGE, "fattree: k = %lld has more than %d nodes", (long long)k, TC_MAX_NODES);
  layout l = make_layout(k);
  int64_t arcs = 6 * l.hosts; /* 3 layers of k^3/4 links, two arcs each */
  if (arcs > TC_MAX_ARCS)
    return tc_error_set(err, TC_ERANGE, "fattree: k = %lld needs more than %lld arcs", (long long)k,
                        (long long)TC_MAX_ARCS);

  tc_graph_builder b;
  int rc = tc_graph_builder_init(&b, l.nodes, err);
  if (!rc) rc = tc_graph_builder_reserve(&b, arcs, err);
  if (!rc) rc = add_links(&b, &l, bw, err);
  for (int64_t u = l.edge0; u < l.nodes && !rc; u++) rc = tc_graph_builder_set_kind(&b, u, TC_NODE_SWITCH, err);
  if (!rc && l.nodes <= TC_TOPO_LABEL_MAX_NODES) rc = label_nodes(&b, &l, err);
  if (rc) {
    tc_graph_builder_destroy(&b);
    return rc;
  }
  return tc_graph_builder_finish(&b, out, err);
}
