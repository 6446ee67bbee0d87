/*
** collective.h — every schedule algorithm by name, and the one call that builds a whole
** collective with it: generator -> P-chunk rounding (App. E.2) -> reduce-scatter by
** Theorem 2 or Corollary 1.1 -> allreduce = reduce-scatter + allgather (paper 000 §3.2, Table 4)
** -> canonical order -> verify -> cost.
**
** The registry (src/coll/algorithms.c) is the only list of algorithms: `topocoll sched
** --algo` and `--list`, the plan's baselines and every "unknown algorithm" message read it.
** An algorithm is one of two kinds:
**   - an allgather generator (bfb, expand): the pipeline derives reduce-scatter (Theorem 2
**     on the same allgather when G ≅ G^T, else Corollary 1.1: the reverse of the
**     algorithm's allgather on G^T) and allreduce; --chunks P rounds the allgather to P
**     chunks per shard before any transform, so all three come from one rounded allgather;
**   - a direct builder (the baselines of baselines.h, ForestColl's pipelined trees of
**     forest.h), which builds each collective its own way; --chunks P is its pipelining
**     depth where it has one (dbt, forestcoll), else its schedule is
**     re-expressed in exactly P equal chunks, which is exact only when P is a multiple of
**     the least number of chunks it needs (TC_EINPUT otherwise).
**
** Guarantees: what tc_collective_build and tc_collective_build_set return has passed
** tc_schedule_verify and is in canonical order (tc_schedule_sort); its cost is
** tc_schedule_cost of that schedule. Before generating anything, tc_algorithm_generate,
** tc_collective_build and tc_collective_build_set estimate the memory the pipeline will
** need on g's compute nodes (formula in collective.c) and fail with TC_ERANGE when it
** exceeds the process's limit (budget.h): "bfb allgather on 16384 nodes needs about 17 GB
** (268 M transfers) but 7.1 GB is available; raise the limit with tc_memory_limit_set". tc_algorithm_generate returns the unverified schedule
** (for tests and tools that verify it themselves). On failure outputs are left empty.
*/
#ifndef TOPOCOLL_COLLECTIVE_H
#define TOPOCOLL_COLLECTIVE_H

#include "topocoll/export.h"
#include "topocoll/progress.h"

#include <stddef.h>
#include <stdint.h>

#include "topocoll/a2a_route.h"
#include "topocoll/cost.h"
#include "topocoll/sched.h"
#include "topocoll/spec.h"

/* Bit of collective c in tc_algorithm_info.collectives. */
#define TC_COLL_BIT(c) (1u << (unsigned)(c))

/* One algorithm, as `topocoll sched --list` shows it. */
typedef struct tc_algorithm_info {
  const char *name;      /* --algo NAME */
  const char *title;     /* its name in tables: "double binary tree" */
  uint32_t collectives;  /* TC_COLL_BIT of every collective it builds */
  const char *topology;  /* where it runs: "any strongly connected graph", "uniring(d,m)" */
  const char *chunks;    /* what --chunks P means for it */
  const char *summary;   /* one line, with the paper's section */
} tc_algorithm_info;

TC_API int tc_algorithm_count(void);
TC_API const tc_algorithm_info *tc_algorithm_at(int i);
/* NULL if no algorithm has this name. */
TC_API const tc_algorithm_info *tc_algorithm_find(const char *name);
/* "bfb, expand, ring, ..." (every name, in listing order) into buf. */
TC_API void tc_algorithm_names(char *buf, size_t size);
/* "allgather, reduce-scatter and allreduce" for a collectives mask, into buf. */
TC_API void tc_algorithm_collectives_text(uint32_t collectives, char *buf, size_t size);
/* TC_EINPUT with one line unless `algo` exists and builds `coll`:
   "unknown algorithm 'x' (bfb, expand, ...)" or "bfb builds allgather, ... , not broadcast
   (use --algo dbt)", naming the algorithms that do build it. */
TC_API int tc_algorithm_check(const char *algo, tc_collective coll, tc_error *err);

/* What an algorithm may need besides the graph; zero-initialise and set what applies. */
typedef struct tc_collective_opts {
  int32_t root;         /* broadcast / reduce / scatter / gather root, p2p source S (0..N-1, a
                           compute node); ignored by other collectives */
  int32_t dst;          /* p2p destination T (a compute node other than S); else ignored */
  int64_t chunks;       /* --chunks P; 0: the algorithm's own chunking */
  const tc_spec *spec;  /* how g was written, if known: torus-dor reads the dimensions off
                           torus(l1,...,lk), expand follows the construction */
  int32_t steps;        /* alltoall mcf: its l_max time steps; pmcf over paths of at most
                           that many hops; 0: the diameter (a2a_flows.h) */
  int paths;            /* alltoall pmcf: its candidate paths, a tc_a2a_path_set (0: disjoint) */
  double time_limit;    /* alltoall mcf, pmcf, mcf-extp, ilp-*: seconds per LP or MIP solve; 0:
                           none (the ILPs: 60) */
  char *chosen;         /* optional (NULL: not asked): a builder that measures variants and keeps
                           one says which here, one line of at most chosen_size bytes, "" when
                           it had no choice (forestcoll allreduce: equal or auto weights) */
  size_t chosen_size;
  /* The predicted-time model (cost.h), for a builder that picks a variant by the message
     size (kautz: Kautz-C or Kautz-M, paper 002 §3.2.2): link_bw > 0 and bytes > 0 when
     given (0: not given), alpha_s in s, copy_bw in bytes/s (<= 0: no local-copy term). */
  double alpha_s, link_bw, bytes, copy_bw;
  /* NULL, or reports (topocoll/progress.h) of the pipeline's steps, phases without a count:
     "<algo>: generating the allgather" (or the collective a direct builder builds),
     "<algo>: deriving the reduce-scatter (Theorem 2)" or "(Corollary 1.1)", "<algo>:
     composing the allreduce", "<algo> <coll>: verifying", "<algo> <coll>: costing" */
  tc_progress_fn progress;
  void *progress_ctx;
} tc_collective_opts;

/* The all-to-all routing (a2a_route.h) of a routing algorithm (direct, sssp, ewsp, dor),
   finished, before lowering: what `--coll alltoall --algo ALGO` lowers to its schedule.
   TC_EINPUT "ring routes no alltoall (use --algo direct or ...)" for other algorithms, and
   "mcf builds its alltoall step schedule directly, not from a routing" for mcf. */
TC_API int tc_algorithm_routing(const tc_graph *g, const char *algo, const tc_collective_opts *opts,
                                tc_a2a_routing *out, tc_error *err);
/* 1 if the algorithm builds its alltoall from a routing (tc_algorithm_routing works), 0 if
   it builds a step schedule directly (mcf) or builds no alltoall. */
TC_API int tc_algorithm_routes(const tc_algorithm_info *a);

/* The collective `coll` by `algo` on g, NOT verified, in the generator's order. */
TC_API int tc_algorithm_generate(const tc_graph *g, const char *algo, tc_collective coll,
                                 const tc_collective_opts *opts,
                                 tc_schedule *out, tc_error *err);

/* The same, then sorted, verified (TC_EFAIL "ALGO COLL schedule failed verification: ...")
   and costed; cost may be NULL. */
TC_API int tc_collective_build(const tc_graph *g, const char *algo, tc_collective coll,
                               const tc_collective_opts *opts,
                               tc_schedule *out, tc_cost *cost, tc_error *err);

/* Allgather, reduce-scatter and allreduce of one algorithm on g, each verified and costed;
   for an allgather generator all three come from one allgather. */
typedef struct tc_collective_set {
  tc_schedule allgather, reduce_scatter, allreduce;
  tc_cost allgather_cost, reduce_scatter_cost, allreduce_cost;
  int reverse_symmetric; /* allgather generators: 1 when the reduce-scatter is by Theorem 2
                            (G ≅ G^T), 0 when by Corollary 1.1; -1 for direct builders */
} tc_collective_set;

TC_API int tc_collective_build_set(const tc_graph *g, const char *algo, const tc_collective_opts *opts,
                                   tc_collective_set *out, tc_error *err);
TC_API void tc_collective_set_destroy(tc_collective_set *s);

/* The plan's baselines: an algorithm that has a topology of its own for a cluster of n
   nodes with d ports each (`bidirectional`: only bidirectional links). Returns TC_OK with
   the graph (caller destroys) and a description ("uniring(4,64)"), TC_EINPUT / TC_ERANGE
   with the reason it cannot exist here (the plan lists it with that reason), or
   TC_ALGO_NO_HOME when it is not a baseline for such a cluster at all. */
#define TC_ALGO_NO_HOME (-1)
TC_API int tc_algorithm_home(const tc_algorithm_info *a, int32_t n, int32_t d, int bidirectional, tc_graph **g,
                             char *desc, size_t desc_size, tc_error *err);
/* 1 if the algorithm has a pipelining depth (--chunks P: its own chunks, TC_CHUNKS_OWN) worth
   choosing by the alpha-beta model: the plan tries P = 1, 2, 4, ..., TC_PIPELINE_MAX, and so
   does `topocoll sched` when the model is given without --chunks. */
#define TC_PIPELINE_MAX 64
TC_API int tc_algorithm_pipelined(const tc_algorithm_info *a);

#endif
