/*
** flows_internal.h — the pieces of a2a_flows.h shared inside the `a2a` layer (internal):
**   tsmcf.c        the time-expanded LP (15)-(20), source-aggregated, and its exact checks;
**   tsmcf_lower.c  each source's time-expanded flow split into time-respecting paths,
**                  lowered to transfers;
**   paths.c        candidate path sets (disjoint, shortest, up to l_max hops);
**   pmcf.c         the path LP (21)-(24);
**   extract.c      widest-path extraction (MCF-extP);
**   ilp.c          the single-path ILP baselines.
*/
#ifndef TC_A2A_FLOWS_INTERNAL_H
#define TC_A2A_FLOWS_INTERNAL_H

#include <stdint.h>

#include "lp/lp.h"
#include "topocoll/a2a_flows.h"

/* One source's flow on the time-expanded graph: units[a·L + t−1] units (of 1/D of a shard)
   sent over arc a in step t. The checks of tsmcf.c have passed: nothing is sent before it
   arrived, and every other node ends with exactly D units. Appends the transfers of every
   commodity (s, u) to out (units D): each parcel of units follows a simple path with
   strictly increasing steps (a walk that returns to a node is cut short: the parcel waits
   there instead, which only lowers loads). */
int tci_a2a_tsmcf_lower_source(const tc_graph *g, int32_t s, int32_t L, int64_t D, const int64_t *units,
                               tc_schedule *out, tc_error *err);

/* Candidate paths per commodity: commodity k = s·N + t has paths first[k] .. first[k+1]−1,
   path p the arcs arc[hop_off[p] .. hop_off[p+1]−1], simple, from s to t. */
typedef struct tci_a2a_paths {
  int32_t nodes;
  int64_t npaths;
  int64_t *first;   /* N·N + 1 */
  int64_t *hop_off; /* npaths + 1 */
  int64_t *arc;
  int64_t path_room, arc_room;
} tci_a2a_paths;

/* The candidate set of g (compute nodes only, strongly connected); lmax for
   TC_A2A_PATHS_LMAX (0: the diameter). TC_ERANGE above max_paths paths in all. `what`
   prefixes the messages ("pmcf"). */
int tci_a2a_paths_build(const tc_graph *g, tc_a2a_path_set set, int32_t lmax, int64_t max_paths, const char *what,
                        tci_a2a_paths *out, tc_error *err);
void tci_a2a_paths_destroy(tci_a2a_paths *p);

/* Refusals shared by the flow generators: what tc_a2a_solve refuses (switches, N < 2,
   unreachable pairs), prefixed by `what`. */
int tci_a2a_flows_check(const tc_graph *g, const char *what, tc_error *err);

#endif
