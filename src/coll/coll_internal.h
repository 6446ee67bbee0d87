/*
** coll_internal.h — the registry row (algorithms.c) that the pipeline (collective.c) runs.
** Internal header.
**
** A row is either an allgather generator (`allgather` set: the pipeline derives the other
** collectives, and Corollary 1.1 calls `allgather` on g^T) or a direct builder (`direct`
** set: it builds each collective in `info.collectives` itself). An all-to-all routing
** algorithm also sets `routing` (its weighted paths, a2a_route.h), which its `direct`
** lowers.
*/
#ifndef TC_COLL_INTERNAL_H
#define TC_COLL_INTERNAL_H

#include "topocoll/a2a_route.h"
#include "topocoll/collective.h"

/* --chunks handling of a direct builder. */
typedef enum {
  TC_CHUNKS_REFINE, /* re-express the schedule in exactly P equal chunks (exact refinement) */
  TC_CHUNKS_OWN     /* the builder's own pipelining depth (opts->chunks, 0 meaning 1) */
} tc_chunks_kind;

typedef struct tc_algorithm {
  tc_algorithm_info info;
  int (*allgather)(const tc_graph *g, const tc_collective_opts *opts, tc_schedule *out, tc_error *err);
  /* Corollary 1.1's generator on g^T when it is not `allgather` (a construction tied to g's
     spec cannot run on g^T); NULL: `allgather` itself. */
  int (*allgather_transposed)(const tc_graph *g, const tc_collective_opts *opts, tc_schedule *out, tc_error *err);
  int (*direct)(const tc_graph *g, tc_collective coll, const tc_collective_opts *opts, tc_schedule *out,
                tc_error *err);
  tc_chunks_kind chunks_kind;
  /* The plan's baseline topology (tc_algorithm_home); NULL: not a baseline. */
  int (*home)(int32_t n, int32_t d, int bidirectional, tc_graph **g, char *desc, size_t desc_size, tc_error *err);
  int pipelined; /* the plan tries P = 1, 2, 4, ... (tc_algorithm_pipelined) */
  /* all-to-all routing algorithms: the finished routing (tc_algorithm_routing); else NULL */
  int (*routing)(const tc_graph *g, const tc_collective_opts *opts, tc_a2a_routing *out, tc_error *err);
} tc_algorithm;

/* The row of a public info pointer (every info comes from the table). */
const tc_algorithm *tci_algorithm_row(const tc_algorithm_info *info);

/* The estimate of what the pipeline spends (formulas and measurements in collective.c):
   the least number of transfers collective `coll` needs among `compute` compute nodes, and
   the peak bytes of tc_collective_build (set == 0) or tc_collective_build_set (set == 1,
   `coll` ignored) for them. Doubles: the products of large N do not overflow. */
double tci_collective_transfers(int32_t compute, tc_collective coll);
double tci_collective_bytes(int32_t compute, tc_collective coll, int set);
/* TC_OK, or the refusal of core/budget.h: "<what> needs about 9.4 GB (268 M transfers) but
   ...", for `what` ("bfb allgather on 16384 nodes"). */
int tci_collective_check_memory(int32_t compute, tc_collective coll, int set, const char *what, tc_error *err);

#endif
