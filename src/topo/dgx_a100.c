/*
** dgx_a100.c — n clusters of 8 NVIDIA A100 GPUs (DGX boxes) joined by InfiniBand: the
** fabric of paper 001 §5.3 / Fig. 9 (ForestColl), capacities in GB/s per direction.
**
** The paper: 8 A100 per cluster on an NVSwitch at 300 GB/s per GPU; every two GPUs reach
** two IB NICs through a PCIe switch, each NIC giving 25 GB/s between clusters, so a GPU
** has 25 GB/s out of its cluster and its ingress is 300 + 25 = 325 GB/s, the bottleneck of
** §5.3. PCIe bandwidths are not given; the authors' model (digest-001 §4.3), which
** reproduces the paper's optimum, caps the path to IB at 25 and omits the PCIe switches.
** We build it:
**   - per cluster a, one switch NVSwitch_a; GPU(a,b) <-> NVSwitch_a at 300 each way;
**   - for n >= 2, one NIC switch per GPU, GPU(a,b) <-> NIC(a,b) at 25 each way, and
**     NIC(a,b) <-> IB_(b mod 2) at 25 each way, the two IB switches (even and odd NIC
**     rails) shared by all clusters.
** For n = 1 there is no other cluster to reach, so no NIC and no IB switch: the authors'
** model of a single box, which is why one cluster's allgather optimum is 8·300/7 = 342.86
** GB/s and not 8·325/7 (the NICs would give each GPU 25 GB/s more ingress, through the IB
** switches, from its own cluster's GPUs).
**
** Node numbering: GPU b of cluster a is 8a + b (label "gpu<a>.<b>"), then NVSwitch_a at
** 8n + a ("nvswitch<a>"); for n >= 2, NIC(a,b) at 9n + 8a + b ("nic<a>.<b>"), IB_0 and IB_1
** at 17n and 17n + 1 ("ib0", "ib1"); labels up to TC_TOPO_LABEL_MAX_NODES nodes. Every
** node past the GPUs is a switch. Nodes: 9 for n = 1, 17n + 2 otherwise; arcs 16, resp.
** 48n. The graph is bidirectional and Eulerian.
**
** Parameters: n >= 1 (TC_EINPUT otherwise); sizes beyond TC_MAX_NODES / TC_MAX_ARCS give
** TC_ERANGE before anything is allocated.
*/
#include "topocoll/topo.h"

#include <stddef.h>

#include "topo_util.h"

#define GPUS 8            /* per cluster */
#define NVSWITCH_GBPS 300 /* one GPU's NVSwitch bandwidth, per direction */
#define NIC_GBPS 25       /* one GPU's share of its cluster's IB bandwidth */

/* GPU <-> NVSwitch links of every cluster. */
static int add_clusters(tc_graph_builder *b, int64_t n, tc_error *err) {
  int rc = TC_OK;
  for (int64_t u = 0; u < n * GPUS && !rc; u++)
    rc = tc_graph_builder_add_edge(b, u, n * GPUS + u / GPUS, NVSWITCH_GBPS, err);
  return rc;
}

/* GPU <-> NIC <-> IB rail links (n >= 2). */
static int add_network(tc_graph_builder *b, int64_t n, tc_error *err) {
  int64_t nic0 = n * (GPUS + 1), ib0 = nic0 + n * GPUS;
  int rc = TC_OK;
  for (int64_t u = 0; u < n * GPUS && !rc; u++) {
    rc = tc_graph_builder_add_edge(b, u, nic0 + u, NIC_GBPS, err);
    if (!rc) rc = tc_graph_builder_add_edge(b, nic0 + u, ib0 + u % 2, NIC_GBPS, err);
  }
  return rc;
}

static int label_nodes(tc_graph_builder *b, int64_t n, int64_t nodes, tc_error *err) {
  int64_t nic0 = n * (GPUS + 1), ib0 = nic0 + n * GPUS;
  int rc = TC_OK;
  for (int64_t u = 0; u < n * GPUS && !rc; u++)
    rc = tci_topo_labelf(b, u, err, "gpu%lld.%lld", (long long)(u / GPUS), (long long)(u % GPUS));
  for (int64_t a = 0; a < n && !rc; a++) rc = tci_topo_labelf(b, n * GPUS + a, err, "nvswitch%lld", (long long)a);
  for (int64_t u = nic0; u < ib0 && u < nodes && !rc; u++)
    rc = tci_topo_labelf(b, u, err, "nic%lld.%lld", (long long)((u - nic0) / GPUS), (long long)((u - nic0) % GPUS));
  for (int64_t u = ib0; u < nodes && !rc; u++) rc = tci_topo_labelf(b, u, err, "ib%lld", (long long)(u - ib0));
  return rc;
}

int tc_topo_dgx_a100(int64_t n, tc_graph **out, tc_error *err) {
  if (!out) return tc_error_set(err, TC_EINPUT, "dgx_a100: output pointer is NULL");
  *out = NULL;
  if (n < 1) return tc_error_set(err, TC_EINPUT, "dgx_a100: n must be >= 1 (got %lld)", (long long)n);
  if (n > (TC_MAX_NODES - 2) / (2 * GPUS + 1))
    return tc_error_set(err, TC_ERANGE, "dgx_a100: %lld clusters of %d GPUs exceed %d nodes", (long long)n, GPUS,
                        TC_MAX_NODES);
  int64_t nodes = n == 1 ? GPUS + 1 : n * (2 * GPUS + 1) + 2;
  int64_t arcs = n == 1 ? 2 * GPUS : n * 6 * GPUS;
  if (arcs > TC_MAX_ARCS)
    return tc_error_set(err, TC_ERANGE, "dgx_a100: %lld clusters need more than %lld arcs", (long long)n,
                        (long long)TC_MAX_ARCS);

  tc_graph_builder b;
  int rc = tc_graph_builder_init(&b, nodes, err);
  if (!rc) rc = tc_graph_builder_reserve(&b, arcs, err);
  if (!rc) rc = add_clusters(&b, n, err);
  if (!rc && n >= 2) rc = add_network(&b, n, err);
  for (int64_t u = n * GPUS; u < nodes && !rc; u++) rc = tc_graph_builder_set_kind(&b, u, TC_NODE_SWITCH, err);
  if (!rc && nodes <= TC_TOPO_LABEL_MAX_NODES) rc = label_nodes(&b, n, nodes, err);
  if (rc) {
    tc_graph_builder_destroy(&b);
    return rc;
  }
  return tc_graph_builder_finish(&b, out, err);
}
