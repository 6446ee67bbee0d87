/*
** algorithms.c — the table of schedule algorithms: name, collectives, where it runs, what
** --chunks means, a summary for `topocoll sched --list`, and an adapter to its generator
** (contract in collective.h; row shape in coll_internal.h).
**
** Adding an algorithm = one generator in src/synth + one row here. Rows are listed in the
** order `--list` prints them and the plan measures its baselines: the optimal generators
** first, then the baselines.
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coll/coll_internal.h"
#include "topocoll/a2a_flows.h"
#include "topocoll/baselines.h"
#include "topocoll/bfb.h"
#include "topocoll/construct.h"
#include "topocoll/forest.h"
#include "topocoll/kautz.h"
#include "topocoll/multitree.h"
#include "topocoll/spec.h"
#include "topocoll/twodfc.h"
#include "topocoll/units.h"

#define AG_RS_AR (TC_COLL_BIT(TC_COLL_ALLGATHER) | TC_COLL_BIT(TC_COLL_REDUCE_SCATTER) | TC_COLL_BIT(TC_COLL_ALLREDUCE))
#define DBT_COLLS (TC_COLL_BIT(TC_COLL_ALLREDUCE) | TC_COLL_BIT(TC_COLL_BROADCAST) | TC_COLL_BIT(TC_COLL_REDUCE))
#define A2A TC_COLL_BIT(TC_COLL_ALLTOALL)
#define ROOTED4 (TC_COLL_BIT(TC_COLL_BROADCAST) | TC_COLL_BIT(TC_COLL_REDUCE) | TC_COLL_BIT(TC_COLL_SCATTER) | \
                 TC_COLL_BIT(TC_COLL_GATHER))
#define ALL_COLLS (AG_RS_AR | ROOTED4 | A2A | TC_COLL_BIT(TC_COLL_P2P))
#define A2A_AG (A2A | TC_COLL_BIT(TC_COLL_ALLGATHER))
#define MAX_DIMS 64

/* ---- allgather generators ---- */

static int ag_bfb(const tc_graph *g, const tc_collective_opts *o, tc_schedule *out, tc_error *err) {
  (void)o;
  return tc_bfb_allgather(g, out, NULL, err);
}

/* The construction of the spec g was built from; g must be exactly that graph. */
static int ag_expand(const tc_graph *g, const tc_collective_opts *o, tc_schedule *out, tc_error *err) {
  if (!o->spec) return tc_error_set(err, TC_EINPUT, "expand needs the topology's spec to follow its construction");
  tc_graph *built = NULL;
  int rc = tc_schedule_construct(o->spec, NULL, &built, out, err);
  if (!rc && !tc_graph_same_arcs(built, g)) {
    rc = tc_error_set(err, TC_EINPUT, "expand: the graph is not the one %s builds", o->spec->text);
    tc_schedule_destroy(out);
  }
  tc_graph_destroy(built);
  return rc;
}

/* ---- direct builders ---- */

/* ForestColl's forest for `coll` with weights w (NULL: equal shares), pipelined in P chunks
   per tree and costed. */
static int forestcoll_lowered(const tc_graph *g, tc_collective coll, const int64_t *w, int64_t P,
                              const tc_collective_opts *o, tc_schedule *out, tc_cost *cost, tc_error *err) {
  tc_forest_options fo = {.coll = coll, .weights = w, .progress = o->progress, .progress_ctx = o->progress_ctx};
  tc_forest f;
  int rc = tc_forest_build(g, &fo, &f, err);
  if (!rc) rc = tc_forest_lower(g, &f, P, out, err);
  tc_forest_destroy(&f);
  if (!rc && (rc = tc_schedule_cost(g, out, cost, err))) tc_schedule_destroy(out);
  return rc;
}

/* ForestColl's optimal forest for `coll` (paper 001 §4), pipelined in P chunks per tree. An
   allreduce is built twice when the links are unequal — equal shares, and the water-filling
   shares of tc_forest_allreduce_weights — and the one with the smaller T_B factor is kept
   (ties: fewer steps, then equal shares): the weights are a proposal, the measured
   schedules decide. o->chosen says which. */
static int d_forestcoll(const tc_graph *g, tc_collective coll, const tc_collective_opts *o, tc_schedule *out,
                        tc_error *err) {
  int64_t P = o->chunks ? o->chunks : 1;
  if (o->chosen && o->chosen_size) o->chosen[0] = '\0';
  if (coll != TC_COLL_ALLREDUCE) {
    tc_forest_options fo = {.coll = coll, .progress = o->progress, .progress_ctx = o->progress_ctx};
    tc_forest f;
    int rc = tc_forest_build(g, &fo, &f, err);
    if (!rc) rc = tc_forest_lower(g, &f, P, out, err);
    tc_forest_destroy(&f);
    return rc;
  }
  tc_schedule eq, wt;
  tc_cost ceq, cwt;
  memset(&eq, 0, sizeof eq);
  memset(&wt, 0, sizeof wt);
  memset(&ceq, 0, sizeof ceq);
  memset(&cwt, 0, sizeof cwt);
  int64_t *w = calloc((size_t)g->n, sizeof *w);
  int uniform = 0, weighted = 0, wrc = TC_OK;
  int rc = w ? forestcoll_lowered(g, coll, NULL, P, o, &eq, &ceq, err)
             : tc_error_set(err, TC_ENOMEM, "forestcoll: out of memory for %d weights", g->n);
  tc_error why;
  tc_error_clear(&why);
  if (!rc) {
    /* weights ForestColl refuses (too many shares, arithmetic beyond 64 bits) leave equal
       shares, said so; our own failures are reported as they would be for equal shares */
    wrc = tc_forest_allreduce_weights(g, w, &uniform, &why);
    if (!wrc && !uniform) wrc = forestcoll_lowered(g, coll, w, P, o, &wt, &cwt, &why);
    if (wrc == TC_EFAIL || wrc == TC_ENOMEM) {
      rc = wrc;
      *err = why;
    }
  }
  if (!rc && !uniform && !wrc) {
    int c = tc_rat_cmp(cwt.tau, ceq.tau);
    weighted = c < 0 || (c == 0 && cwt.steps < ceq.steps);
  }
  if (!rc && o->chosen) {
    int32_t owners = 0, nc = tc_graph_count_kind(g, TC_NODE_COMPUTE);
    for (int32_t v = 0; v < g->n; v++) owners += w[v] > 0;
    char a[64], b[64];
    tc_rat_format(ceq.tau, a, sizeof a);
    tc_rat_format(cwt.tau, b, sizeof b);
    if (wrc)
      snprintf(o->chosen, o->chosen_size, "equal shares: T_B factor %s (auto weights refused: %s)", a, why.msg);
    else if (uniform)
      snprintf(o->chosen, o->chosen_size, "equal shares (every node's links alike: the auto weights are equal)");
    else if (weighted)
      snprintf(o->chosen, o->chosen_size, "auto weights (water-filling: %d of %d nodes own the buffer): T_B factor %s "
               "against %s with equal shares", owners, nc, b, a);
    else
      snprintf(o->chosen, o->chosen_size, "equal shares: T_B factor %s; auto weights (water-filling: %d of %d nodes "
               "own the buffer) give %s", a, owners, nc, b);
  }
  if (!rc) {
    *out = weighted ? wt : eq;
    memset(weighted ? &wt : &eq, 0, sizeof eq);
  }
  tc_schedule_destroy(&eq);
  tc_schedule_destroy(&wt);
  tc_cost_destroy(&ceq);
  tc_cost_destroy(&cwt);
  free(w);
  return rc;
}

/* ---- the baselines (baselines.h) ---- */

#define DIRECT(fn, call) \
  static int fn(const tc_graph *g, tc_collective coll, const tc_collective_opts *o, tc_schedule *out, tc_error *err) { \
    (void)o;                                                                                                       \
    return call;                                                                                                   \
  }
DIRECT(d_ring, tc_baseline_ring(g, coll, out, err))
DIRECT(d_biring, tc_baseline_biring(g, coll, out, err))
DIRECT(d_bfbring, tc_baseline_bfbring(g, coll, out, err))
DIRECT(d_shiftedring, tc_baseline_shiftedring(g, coll, 0, out, err))
DIRECT(d_shiftedbfbring, tc_baseline_shiftedring(g, coll, 1, out, err))
DIRECT(d_rhd, tc_baseline_rhd(g, coll, out, err))
/* multi-port baselines (mp-ir, paper 002) */
DIRECT(d_fc_direct, tc_baseline_fc_direct(g, coll, o->root, o->dst, out, err))
DIRECT(d_binomial, tc_baseline_binomial(g, coll, o->root, out, err))
DIRECT(d_pairwise, tc_baseline_pairwise(g, coll, out, err))
DIRECT(d_bruck, tc_baseline_bruck(g, coll, out, err))

static int d_dbt(const tc_graph *g, tc_collective coll, const tc_collective_opts *o, tc_schedule *out,
                 tc_error *err) {
  if (o->chunks > INT32_MAX)
    return tc_error_set(err, TC_EINPUT, "--chunks %lld is too large for dbt", (long long)o->chunks);
  int32_t root = coll == TC_COLL_ALLREDUCE ? -1 : o->root;
  return tc_baseline_dbt(g, coll, root, o->chunks ? (int32_t)o->chunks : 1, out, err);
}

/* torus-dor reads the dimension lengths off the spec, which must be torus(l1,...,lk). */
static int d_torus_dor(const tc_graph *g, tc_collective coll, const tc_collective_opts *o, tc_schedule *out,
                       tc_error *err) {
  const tc_spec_node *root = o->spec ? o->spec->root : NULL;
  if (!root || strcmp(root->text, "torus"))
    return tc_error_set(err, TC_EINPUT, "torus-dor needs SPEC written as torus(l1,...,lk) to know the dimensions");
  const tc_spec_node *items[MAX_DIMS];
  int64_t dims[MAX_DIMS];
  int k = tc_spec_arg_list(root, "dims", items, MAX_DIMS);
  for (int i = 0; i < k; i++) dims[i] = items[i]->value;
  return tc_baseline_torus_dor(g, dims, k, coll, out, err);
}

/* ---- all-to-all routings (a2a_route.h), lowered store-and-forward ---- */

#define ROUTING(fn, call) \
  static int fn(const tc_graph *g, const tc_collective_opts *o, tc_a2a_routing *out, tc_error *err) { \
    (void)o;                                                                                      \
    return call;                                                                                  \
  }
ROUTING(r_direct, tc_a2a_route_direct(g, out, err))
ROUTING(r_sssp, tc_a2a_route_sssp(g, out, err))
ROUTING(r_ewsp, tc_a2a_route_ewsp(g, out, err))

/* dor reads the dimension lengths off the spec, which must be torus(l1,...,lk). */
static int r_dor(const tc_graph *g, const tc_collective_opts *o, tc_a2a_routing *out, tc_error *err) {
  memset(out, 0, sizeof *out);
  const tc_spec_node *root = o->spec ? o->spec->root : NULL;
  if (!root || strcmp(root->text, "torus"))
    return tc_error_set(err, TC_EINPUT, "dor needs SPEC written as torus(l1,...,lk) to know the dimensions (DOR "
                        "routes tori only)");
  const tc_spec_node *items[MAX_DIMS];
  int64_t dims[MAX_DIMS];
  int k = tc_spec_arg_list(root, "dims", items, MAX_DIMS);
  for (int i = 0; i < k; i++) dims[i] = items[i]->value;
  return tc_a2a_route_dor(g, dims, k, out, err);
}

/* The direct builder of a routing row: its routing, lowered (collective.c verifies). */
#define LOWERED(fn, routing) \
  static int fn(const tc_graph *g, tc_collective coll, const tc_collective_opts *o, tc_schedule *out, \
                tc_error *err) {                                                                      \
    (void)coll;                                                                                       \
    tc_a2a_routing r;                                                                                 \
    int rc = routing(g, o, &r, err);                                                                  \
    if (!rc) rc = tc_a2a_routing_lower(g, &r, out, err);                                              \
    tc_a2a_routing_destroy(&r);                                                                       \
    return rc;                                                                                        \
  }
LOWERED(d_direct, r_direct)
LOWERED(d_sssp, r_sssp)
LOWERED(d_ewsp, r_ewsp)
LOWERED(d_dor, r_dor)

/* ---- all-to-all from flows (a2a_flows.h) ---- */

static void flow_options(const tc_collective_opts *o, tc_a2a_flow_options *fo) {
  tc_a2a_flow_options_default(fo);
  fo->lmax = o->steps;
  fo->paths = (tc_a2a_path_set)o->paths;
  fo->time_limit = o->time_limit;
}

/* tsMCF: a step schedule of its own, not a routing. */
static int d_mcf(const tc_graph *g, tc_collective coll, const tc_collective_opts *o, tc_schedule *out,
                 tc_error *err) {
  (void)coll;
  tc_a2a_flow_options fo;
  flow_options(o, &fo);
  return tc_a2a_tsmcf_schedule(g, &fo, out, NULL, err);
}

static int r_pmcf(const tc_graph *g, const tc_collective_opts *o, tc_a2a_routing *out, tc_error *err) {
  tc_a2a_flow_options fo;
  flow_options(o, &fo);
  return tc_a2a_route_pmcf(g, &fo, out, err);
}
static int r_extp(const tc_graph *g, const tc_collective_opts *o, tc_a2a_routing *out, tc_error *err) {
  tc_a2a_flow_options fo;
  flow_options(o, &fo);
  return tc_a2a_route_mcf_extp(g, &fo, out, err);
}
static int r_ilp_disjoint(const tc_graph *g, const tc_collective_opts *o, tc_a2a_routing *out, tc_error *err) {
  return tc_a2a_route_ilp(g, TC_A2A_PATHS_DISJOINT, o->time_limit, out, NULL, err);
}
static int r_ilp_shortest(const tc_graph *g, const tc_collective_opts *o, tc_a2a_routing *out, tc_error *err) {
  return tc_a2a_route_ilp(g, TC_A2A_PATHS_SHORTEST, o->time_limit, out, NULL, err);
}
LOWERED(d_pmcf, r_pmcf)
LOWERED(d_extp, r_extp)
LOWERED(d_ilp_disjoint, r_ilp_disjoint)
LOWERED(d_ilp_shortest, r_ilp_shortest)

/* ---- mp-2dfc: the 2dfc collectives and MULTITREE (paper 002 Ch. 4; twodfc.h, multitree.h) ---- */

/* hyperx(m2,m1) read off the spec: 1 with the two sizes, 0 if the spec is not a 2D hyperx. */
static int spec_twodfc(const tc_collective_opts *o, int64_t *m2, int64_t *m1) {
  const tc_spec_node *root = o->spec ? o->spec->root : NULL;
  const tc_spec_node *items[3];
  if (!root || strcmp(root->text, "hyperx") || tc_spec_arg_list(root, "dims", items, 3) != 2) return 0;
  *m2 = items[0]->value;
  *m1 = items[1]->value;
  return 1;
}

static int d_twodfc(const tc_graph *g, tc_collective coll, const tc_collective_opts *o, int md, tc_schedule *out,
                    tc_error *err) {
  int64_t m2, m1;
  memset(out, 0, sizeof *out);
  if (!spec_twodfc(o, &m2, &m1))
    return tc_error_set(err, TC_EINPUT, "%s needs SPEC written as hyperx(m2,m1) (the m2 x m1 2dfc) to know its rows "
                        "and columns", md ? "md" : "do");
  return md ? tc_twodfc_md(g, m2, m1, coll, out, err) : tc_twodfc_do(g, m2, m1, coll, out, err);
}
static int d_do(const tc_graph *g, tc_collective coll, const tc_collective_opts *o, tc_schedule *out,
                tc_error *err) {
  return d_twodfc(g, coll, o, 0, out, err);
}
static int d_md(const tc_graph *g, tc_collective coll, const tc_collective_opts *o, tc_schedule *out,
                tc_error *err) {
  return d_twodfc(g, coll, o, 1, out, err);
}

/* The parity construction on hyperx(m,m), m even (§4.1.2); the greedy everywhere else. */
static int d_multitree(const tc_graph *g, tc_collective coll, const tc_collective_opts *o, tc_schedule *out,
                       tc_error *err) {
  int64_t m2, m1;
  int parity = spec_twodfc(o, &m2, &m1) && m2 == m1 && m1 % 2 == 0;
  if (o->chosen && o->chosen_size)
    snprintf(o->chosen, o->chosen_size, "%s", parity ? "the 2dfc parity construction (paper 002 §4.1.2)"
                                                     : "the greedy round-robin trees (paper 002 §2.2.3)");
  return parity ? tc_twodfc_multitree(g, m1, coll, out, err) : tc_multitree_greedy(g, coll, out, err);
}

/* ---- multi-port Kautz K(d,2) collectives (paper 002 Ch. 3; kautz.h) ---- */

#define KAUTZ_COLLS                                                                                      \
  (AG_RS_AR | TC_COLL_BIT(TC_COLL_BROADCAST) | TC_COLL_BIT(TC_COLL_REDUCE) | TC_COLL_BIT(TC_COLL_SCATTER) | \
   TC_COLL_BIT(TC_COLL_GATHER) | A2A)

static int d_kautz_c(const tc_graph *g, tc_collective coll, const tc_collective_opts *o, tc_schedule *out,
                     tc_error *err) {
  return tc_kautz_collective(g, TC_KAUTZ_COMBINE, coll, o->root, out, err);
}
static int d_kautz_m(const tc_graph *g, tc_collective coll, const tc_collective_opts *o, tc_schedule *out,
                     tc_error *err) {
  return tc_kautz_collective(g, TC_KAUTZ_MULTITREE, coll, o->root, out, err);
}
/* Kautz-C below the switch size, Kautz-M from it (tc_kautz_switch_size), said in o->chosen. */
static int d_kautz_switch(const tc_graph *g, tc_collective coll, const tc_collective_opts *o, tc_schedule *out,
                          tc_error *err) {
  memset(out, 0, sizeof *out);
  if (!(o->link_bw > 0) || !(o->bytes > 0) || !(o->alpha_s >= 0))
    return tc_error_set(err, TC_EINPUT, "kautz picks Kautz-C or Kautz-M by the predicted time at the message size: "
                        "give --alpha, --link-bw and --size (and --copy-bw for the local reorder, paper 002 §3.2.2)");
  double at = 0;
  int rc = tc_kautz_switch_size(g, coll, o->root, o->alpha_s, o->link_bw, o->copy_bw, &at, err);
  if (rc) return rc;
  int multitree = o->bytes >= at;
  if (o->chosen && o->chosen_size) {
    char size[32], cross[32];
    tc_units_format_size((int64_t)o->bytes, size, sizeof size);
    if (at != INFINITY) tc_units_format_size((int64_t)ceil(at), cross, sizeof cross);
    if (at == INFINITY)
      snprintf(o->chosen, o->chosen_size, "kautz-c: predicted faster at every size (%s)",
               o->copy_bw > 0 ? "no more steps in Kautz-M to trade" : "no local-copy term: give --copy-bw");
    else
      snprintf(o->chosen, o->chosen_size, "%s: %s is %s the switch size %s (Kautz-M predicted faster from it on)",
               multitree ? "kautz-m" : "kautz-c", size, multitree ? "at or above" : "below", cross);
  }
  return tc_kautz_collective(g, multitree ? TC_KAUTZ_MULTITREE : TC_KAUTZ_COMBINE, coll, o->root, out, err);
}
static int d_kautz_mp(const tc_graph *g, tc_collective coll, const tc_collective_opts *o, tc_schedule *out,
                      tc_error *err) {
  (void)coll;
  return tc_kautz_p2p(g, o->root, o->dst, 1, out, err);
}
static int d_kautz_sp(const tc_graph *g, tc_collective coll, const tc_collective_opts *o, tc_schedule *out,
                      tc_error *err) {
  (void)coll;
  return tc_kautz_p2p(g, o->root, o->dst, 0, out, err);
}

/* ---- the plan's baseline topologies ---- */

static int home_spec(const char *spec, tc_graph **g, char *desc, size_t size, tc_error *err) {
  snprintf(desc, size, "%s", spec);
  return tc_spec_build(spec, g, err);
}

/* A bidirectional ring of N nodes needs d/2 links to each neighbour: even d. */
static int home_biring(int32_t n, int32_t d, tc_graph **g, char *desc, size_t size, tc_error *err) {
  char spec[64];
  snprintf(spec, sizeof spec, "biring(%d,%d)", d, n);
  if (d % 2 == 0) return home_spec(spec, g, desc, size, err);
  snprintf(desc, size, "%s", spec);
  return tc_error_set(err, TC_EINPUT, "a bidirectional ring takes an even number of ports, d/2 links to each "
                      "neighbour; d = %d", d);
}

static int h_ring(int32_t n, int32_t d, int bidir, tc_graph **g, char *desc, size_t size, tc_error *err) {
  char spec[64];
  if (bidir) return TC_ALGO_NO_HOME; /* the bidirectional ring stands in for it */
  snprintf(spec, sizeof spec, "uniring(%d,%d)", d, n);
  return home_spec(spec, g, desc, size, err);
}
static int h_biring(int32_t n, int32_t d, int bidir, tc_graph **g, char *desc, size_t size, tc_error *err) {
  return bidir ? home_biring(n, d, g, desc, size, err) : TC_ALGO_NO_HOME;
}
static int h_bfbring(int32_t n, int32_t d, int bidir, tc_graph **g, char *desc, size_t size, tc_error *err) {
  (void)bidir;
  return home_biring(n, d, g, desc, size, err);
}
static int h_dbt(int32_t n, int32_t d, int bidir, tc_graph **g, char *desc, size_t size, tc_error *err) {
  (void)d, (void)bidir;
  snprintf(desc, size, "its own topology (two trees)");
  return tc_baseline_dbt_topology(n, -1, g, err);
}

/* ---- the table ---- */

static const tc_algorithm algorithms[] = {
    {{"bfb", "BFB", AG_RS_AR, "any strongly connected graph", "rounds the allgather to P chunks (App. E.2)",
      "optimal Breadth-First-Broadcast (paper 000 §6); reduce-scatter by Thm 2 / Cor 1.1"},
     ag_bfb, NULL, NULL, TC_CHUNKS_REFINE, NULL, 0, NULL},
    {{"expand", "expansion", AG_RS_AR, "the topology its spec constructs",
      "rounds the allgather to P chunks (App. E.2)",
      "the spec's construction (paper 000 §5): line graph, degree, power, A.6 over stored or BFB bases"},
     ag_expand, ag_bfb, NULL, TC_CHUNKS_REFINE, NULL, 0, NULL},
    {{"forestcoll", "ForestColl", AG_RS_AR, "any fabric (switches, unequal links) or strongly connected graph",
      "pipeline chunks per tree: P (depth + P - 1 steps)",
      "ForestColl's optimal spanning trees (paper 001 §4), pipelined in P chunks per tree"},
     NULL, NULL, d_forestcoll, TC_CHUNKS_OWN, NULL, 1, NULL},
    {{"ring", "ring", AG_RS_AR, "uniring(d,m) (elsewhere a cycle of arcs, else routed; a partial never relayed)",
      "refines to P equal chunks", "unidirectional ring (paper 000 Table 9, App. C.2; paper 002 §2.2.3)"},
     NULL, NULL, d_ring, TC_CHUNKS_REFINE, h_ring, 0, NULL},
    {{"biring", "bidirectional ring", AG_RS_AR, "biring(d,m)", "refines to P equal chunks",
      "bidirectional ring, half of every shard each way (paper 000 App. F.1)"},
     NULL, NULL, d_biring, TC_CHUNKS_REFINE, h_biring, 0, NULL},
    {{"bfbring", "BFB ring", AG_RS_AR, "biring(d,m)", "refines to P equal chunks",
      "BFB ring: whole shard both ways, half a circle (paper 000 App. F.1, Fig. 17)"},
     NULL, NULL, d_bfbring, TC_CHUNKS_REFINE, h_bfbring, 0, NULL},
    {{"shiftedring", "ShiftedRing", AG_RS_AR, "circulant(n,a,b) or biring(4,n)", "refines to P equal chunks",
      "two bidirectional rings (TopoOpt's ShiftedRing, paper 000 §8.2)"},
     NULL, NULL, d_shiftedring, TC_CHUNKS_REFINE, NULL, 0, NULL},
    {{"shiftedbfbring", "ShiftedBFBRing", AG_RS_AR, "circulant(n,a,b) or biring(4,n)", "refines to P equal chunks",
      "ShiftedRing with the BFB ring on each ring (paper 000 App. A.2)"},
     NULL, NULL, d_shiftedbfbring, TC_CHUNKS_REFINE, NULL, 0, NULL},
    {{"dbt", "double binary tree", DBT_COLLS, "complete(n) or its own two-tree topology",
      "pipelining depth: P chunks per shard", "NCCL's double binary tree (Sanders, Speck, Träff two-tree; paper 000 ref. [71])"},
     NULL, NULL, d_dbt, TC_CHUNKS_OWN, h_dbt, 1, NULL},
    {{"rhd", "recursive halving/doubling", AG_RS_AR,
      "hypercube(n) or complete(n) (elsewhere routed; a partial never relayed)", "refines to P equal chunks",
      "recursive doubling allgather / recursive halving reduce-scatter, partner i XOR 2^k, MPICH's pairing for "
      "N not a power of two (paper 000 App. A.1, paper 002 'rdb')"},
     NULL, NULL, d_rhd, TC_CHUNKS_REFINE, NULL, 0, NULL},
    {{"torus-dor", "torus dimension order", AG_RS_AR, "torus(l1,...,lk), written so", "refines to P equal chunks",
      "dimension-by-dimension torus schedule (paper 000 §5.3, §6.2)"},
     NULL, NULL, d_torus_dor, TC_CHUNKS_REFINE, NULL, 0, NULL},
    {{"mcf", "tsMCF", A2A, "any strongly connected graph of compute nodes",
      "P chunks: refined when P is a multiple of its units, else path shares rounded (App. E.2)",
      "time-stepped MCF (paper 003 §3.1.3): least sum of per-step max loads over l_max steps, exact chunks"},
     NULL, NULL, d_mcf, TC_CHUNKS_REFINE, NULL, 0, NULL},
    {{"pmcf", "pMCF", A2A, "any strongly connected graph of compute nodes", "P chunks: refined when P is a multiple of its units, else path shares rounded (App. E.2)",
      "path-based MCF over a path set (paper 003 §3.1.4; --paths disjoint|shortest|lmax), hop h in step h"},
     NULL, NULL, d_pmcf, TC_CHUNKS_REFINE, NULL, 0, r_pmcf},
    {{"mcf-extp", "MCF-extP", A2A, "any strongly connected graph of compute nodes", "P chunks: refined when P is a multiple of its units, else path shares rounded (App. E.2)",
      "widest paths extracted from the certified link MCF (paper 003 §3.2.1), hop h in step h"},
     NULL, NULL, d_extp, TC_CHUNKS_REFINE, NULL, 0, r_extp},
    {{"ilp-disjoint", "ILP-disjoint", A2A, "strongly connected, at most 64 compute nodes", "P chunks: refined when P is a multiple of its units, else path shares rounded (App. E.2)",
      "one disjoint-set path per pair, least max load by MIP (paper 003 §5.2, Cbc), hop h in step h"},
     NULL, NULL, d_ilp_disjoint, TC_CHUNKS_REFINE, NULL, 0, r_ilp_disjoint},
    {{"ilp-shortest", "ILP-shortest", A2A, "strongly connected, at most 64 compute nodes", "P chunks: refined when P is a multiple of its units, else path shares rounded (App. E.2)",
      "one shortest path per pair, least max load by MIP (paper 003 §5.2, Cbc), hop h in step h"},
     NULL, NULL, d_ilp_shortest, TC_CHUNKS_REFINE, NULL, 0, r_ilp_shortest},
    {{"direct", "direct shortest paths", A2A, "any strongly connected graph", "P chunks: refined when P is a multiple of its units, else path shares rounded (App. E.2)",
      "one shortest path per pair, lowest arc first (paper 003 §5.2's native all-to-all), hop h in step h"},
     NULL, NULL, d_direct, TC_CHUNKS_REFINE, NULL, 0, r_direct},
    {{"sssp", "SSSP", A2A, "any strongly connected graph", "P chunks: refined when P is a multiple of its units, else path shares rounded (App. E.2)",
      "congestion-weighted shortest paths, one per pair (paper 003 §5.2, ref. [19]), hop h in step h"},
     NULL, NULL, d_sssp, TC_CHUNKS_REFINE, NULL, 0, r_sssp},
    {{"ewsp", "EwSP", A2A, "any strongly connected graph", "P chunks: refined when P is a multiple of its units, else path shares rounded (App. E.2)",
      "every pair split equally over all its shortest paths (paper 003 §5.3), hop h in step h"},
     NULL, NULL, d_ewsp, TC_CHUNKS_REFINE, NULL, 0, r_ewsp},
    {{"dor", "dimension-order routing", A2A, "torus(l1,...,lk), written so", "P chunks: refined when P is a multiple of its units, else path shares rounded (App. E.2)",
      "dimension-order routing, the shorter way round (paper 003 §5.2, ref. [17]), hop h in step h"},
     NULL, NULL, d_dor, TC_CHUNKS_REFINE, NULL, 0, r_dor},
    /* mp-ir: the topology-unaware multi-port baselines of paper 002 (§2.2.3, Tables 3.2, 4.3) */
    {{"fc-direct", "FC direct", ALL_COLLS, "complete(n) (elsewhere routed; refused where it contends)",
      "refines to P equal chunks",
      "every block straight to its destination in one round (paper 002 Table 3.2, FC rows)"},
     NULL, NULL, d_fc_direct, TC_CHUNKS_REFINE, NULL, 0, NULL},
    {{"binomial", "binomial tree", ROOTED4, "complete(n) (elsewhere routed; refused where it contends)",
      "refines to P equal chunks", "binomial trees, ceil(log2 N) rounds (MPICH; paper 002 §2.2.3, Table 4.3)"},
     NULL, NULL, d_binomial, TC_CHUNKS_REFINE, NULL, 0, NULL},
    {{"pairwise", "pairwise exchange", A2A_AG, "complete(n) (elsewhere routed; refused where it contends)",
      "refines to P equal chunks",
      "N-1 rounds, partner i XOR k (N a power of two) or i+k mod N (paper 002 §2.2.3)"},
     NULL, NULL, d_pairwise, TC_CHUNKS_REFINE, NULL, 0, NULL},
    {{"bruck", "Bruck", A2A_AG, "complete(n) (elsewhere routed; refused where it contends)",
      "refines to P equal chunks", "ceil(log2 N) rounds to i + 2^k, blocks combined by digit (paper 002 §2.2.3)"},
     NULL, NULL, d_bruck, TC_CHUNKS_REFINE, NULL, 0, NULL},
    /* mp-2dfc: paper 002 Ch. 4 */
    {{"do", "dimension order", A2A | AG_RS_AR, "hyperx(m2,m1), written so (the m2 x m1 2dfc)",
      "refines to P equal chunks",
      "2dfc dimension order: X then Y, 2 steps (paper 002 §4.1.1, Alg. 1); allreduce = RS + AG"},
     NULL, NULL, d_do, TC_CHUNKS_REFINE, NULL, 0, NULL},
    {{"md", "multi-dimensional", A2A | TC_COLL_BIT(TC_COLL_ALLGATHER) | TC_COLL_BIT(TC_COLL_ALLREDUCE),
      "hyperx(m2,m1), written so (the m2 x m1 2dfc)", "refines to P equal chunks (a multiple of (m1+m2)/gcd)",
      "2dfc MD: blocks split over both dimension orders at once (paper 002 §4.2, Alg. 2); allreduce = DO-RS + MD-AG"},
     NULL, NULL, d_md, TC_CHUNKS_REFINE, NULL, 0, NULL},
    {{"multitree", "MULTITREE", A2A | TC_COLL_BIT(TC_COLL_ALLGATHER), "any strongly connected graph",
      "refines to P equal chunks",
      "one tree per root, no link shared in a step (paper 002 §2.2.3); hyperx(m,m), m even: §4.1.2's parity trees"},
     NULL, NULL, d_multitree, TC_CHUNKS_REFINE, NULL, 0, NULL},
    /* -- multi-port Kautz K(d,2) (paper 002 Ch. 3) -- */
    {{"kautz-c", "Kautz-C", KAUTZ_COLLS, "kautz(d,1) = paper 002's K(d,2), d >= 2", "refines to P equal chunks",
      "multi-port BFS trees, message-combine: 2 steps per phase (paper 002 §3.1, Table 3.2)"},
     NULL, NULL, d_kautz_c, TC_CHUNKS_REFINE, NULL, 0, NULL},
    {{"kautz-m", "Kautz-M", KAUTZ_COLLS, "kautz(d,1) = paper 002's K(d,2), d >= 2", "refines to P equal chunks",
      "multi-port BFS trees, MULTITREE serialisation: d+1 steps per phase (paper 002 §3.1, Table 3.2)"},
     NULL, NULL, d_kautz_m, TC_CHUNKS_REFINE, NULL, 0, NULL},
    {{"kautz", "Kautz-C/M switch", KAUTZ_COLLS, "kautz(d,1) = paper 002's K(d,2), d >= 2", "refines to P equal chunks",
      "kautz-c below the size where kautz-m is predicted faster (--alpha, --link-bw, --size, --copy-bw), kautz-m "
      "from it (paper 002 §3.2.2)"},
     NULL, NULL, d_kautz_switch, TC_CHUNKS_REFINE, NULL, 0, NULL},
    {{"kautz-mp", "Kautz multi-path", TC_COLL_BIT(TC_COLL_P2P), "kautz(d,1) = paper 002's K(d,2), d >= 2",
      "refines to P equal chunks (P a multiple of the path count)",
      "multi-path point-to-point: equal parts over d (type 3: d-1) arc-disjoint paths of <= 3 hops (paper 002 §3.3)"},
     NULL, NULL, d_kautz_mp, TC_CHUNKS_REFINE, NULL, 0, NULL},
    {{"kautz-sp", "Kautz single path", TC_COLL_BIT(TC_COLL_P2P), "kautz(d,1) = paper 002's K(d,2), d >= 2",
      "refines to P equal chunks", "point-to-point over the unique shortest path (paper 002 §3.3.2, Eq. 3.7)"},
     NULL, NULL, d_kautz_sp, TC_CHUNKS_REFINE, NULL, 0, NULL},
};

#define COUNT ((int)(sizeof algorithms / sizeof algorithms[0]))

int tc_algorithm_count(void) { return COUNT; }
const tc_algorithm_info *tc_algorithm_at(int i) { return i >= 0 && i < COUNT ? &algorithms[i].info : NULL; }

const tc_algorithm_info *tc_algorithm_find(const char *name) {
  for (int i = 0; name && i < COUNT; i++)
    if (!strcmp(algorithms[i].info.name, name)) return &algorithms[i].info;
  return NULL;
}

const tc_algorithm *tci_algorithm_row(const tc_algorithm_info *info) {
  /* info is the first member of its row */
  return (const tc_algorithm *)(const void *)info;
}

int tc_algorithm_pipelined(const tc_algorithm_info *a) { return tci_algorithm_row(a)->pipelined; }

int tc_algorithm_home(const tc_algorithm_info *a, int32_t n, int32_t d, int bidirectional, tc_graph **g,
                      char *desc, size_t desc_size, tc_error *err) {
  const tc_algorithm *row = tci_algorithm_row(a);
  *g = NULL;
  if (desc_size) desc[0] = '\0';
  if (!row->home) return TC_ALGO_NO_HOME;
  return row->home(n, d, bidirectional, g, desc, desc_size, err);
}
