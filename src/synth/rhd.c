/*
** rhd.c — recursive doubling allgather and recursive halving reduce-scatter (Rabenseifner's
** allreduce; paper 000 A.1 "RH&D") on the hypercube Q_n, the direct-connect topology whose
** links match its communication pattern exactly.
**
** Topology: N = 2^n nodes (n >= 1), node u linked to u XOR 2^i for every i and to nothing
** else (hypercube(n)'s numbering).
** Allgather (recursive doubling): before step t node u holds the shards of the 2^(t-1)
** nodes that agree with u on bits t-1 .. n-1; in step t it sends all of them to its partner
** u XOR 2^(t-1). Reduce-scatter (recursive halving) is its reverse (Def. 5): in step t node
** u sends its partner u XOR 2^(n-t) the partial sums of the half of its remaining shards
** that the partner keeps. Allreduce is the two in sequence.
** Guarantees: T_L = n; in step t every node uses ONE of its n ports, for 2^(t-1) shards, so
** tau = (n / N) Σ_t 2^(t-1) = n (N-1)/N, n times the bound (paper 000 A.1: RH&D uses at most
** 1/3 of the bandwidth of the 3-port testbed). Allreduce: 2n steps, tau 2n (N-1)/N.
*/
#include "synth/baseline_common.h"

#include <string.h>

static const char *const RHD = "rhd";

/* N = 2^n and node u's arcs go exactly to u XOR 2^i, i = 0..n-1. */
static int check_hypercube(const tc_graph *g, int *dims, tc_error *err) {
  int32_t n = g->n;
  if (n < 2 || (n & (n - 1)))
    return tc_error_set(err, TC_EINPUT, "rhd: needs a hypercube, 2^n nodes (got %d)", n);
  int k = 0;
  while ((INT32_C(1) << k) < n) k++;
  for (int32_t u = 0; u < n; u++) {
    for (int64_t a = g->out_off[u]; a < g->out_off[u + 1]; a++) {
      int32_t x = u ^ g->dst[a];
      if (x == 0 || (x & (x - 1)))
        return tc_error_set(err, TC_EINPUT, "rhd: needs a hypercube, arcs u -> u XOR 2^i only (node %d has an arc to "
                            "%d)", u, g->dst[a]);
    }
    for (int i = 0; i < k; i++)
      if (tc_graph_arc_multiplicity(g, u, u ^ (INT32_C(1) << i)) == 0)
        return tc_error_set(err, TC_EINPUT, "rhd: needs a hypercube (node %d has no arc to %d)", u,
                            u ^ (INT32_C(1) << i));
  }
  *dims = k;
  return tci_bl_check_bidirectional(g, RHD, err);
}

static int recursive_doubling(const tc_graph *g, int dims, int64_t units, int64_t scale, tc_schedule *ag,
                              tc_error *err) {
  int rc = tc_schedule_init(ag, TC_COLL_ALLGATHER, g->n, units, RHD, err);
  for (int t = 1; !rc && t <= dims; t++) {
    int32_t bit = INT32_C(1) << (t - 1);
    for (int32_t u = 0; !rc && u < g->n; u++) {
      int32_t block = u & ~(bit - 1); /* the nodes agreeing with u above bit t-1: block .. block+bit-1 */
      for (int32_t v = block; !rc && v < block + bit; v++) rc = tci_bl_send(ag, g, u, u ^ bit, v, t, 0, 1, scale, err);
    }
  }
  return rc;
}

int tc_baseline_rhd(const tc_graph *g, tc_collective coll, tc_schedule *out, tc_error *err) {
  memset(out, 0, sizeof *out);
  int dims = 0;
  int rc = tci_bl_check_rs_ag(RHD, coll, err);
  if (!rc) rc = check_hypercube(g, &dims, err);
  int64_t scale = 1, units = 1;
  if (!rc) rc = tci_bl_split_scale(g, RHD, &scale, err);
  if (!rc) rc = tci_bl_check_transfers(RHD, g->n, g->n - 1, 2 * tci_bl_max_bundle(g), err);
  if (!rc) rc = tci_bl_units(RHD, 1, scale, &units, err);
  if (rc) return rc;
  tc_schedule ag;
  rc = recursive_doubling(g, dims, units, scale, &ag, err);
  if (rc) {
    tc_schedule_destroy(&ag);
    return rc;
  }
  return tci_bl_finish(g, coll, &ag, NULL, RHD, out, err);
}
