/*
** fig_schedules.h — the stored allgather schedules of the two topologies paper 000 gives
** only as figures, Diamond (Fig. 19) and the modified de Bruijn graphs DBJMod(d,n)
** (Fig. 20). BFB is not BW-optimal on them (Table 9 marks their schedules "not BFB"); the
** BW-optimal schedules were found by the exact search of generators/search_fig_topologies.py,
** stored as JSON in tests/data/fig_schedules and embedded in the library by
** generators/gen_fig_schedules.py. They are the non-BFB bases of the expansion schedules
** (expand_sched.h; paper 000 Table 7: L(DBJMod(4,2)), Diamond^□2, DBJMod(2,4)^□2, ...).
**
** Each schedule runs on exactly the graph tc_topo_diamond / tc_topo_dbjmod builds and,
** as the tests check with tc_schedule_verify and tc_schedule_cost, is an allgather with
** the listed steps and tau = (N-1)/N.
*/
#ifndef TOPOCOLL_FIG_SCHEDULES_H
#define TOPOCOLL_FIG_SCHEDULES_H

#include "topocoll/export.h"

#include <stdint.h>

#include "topocoll/graph.h"
#include "topocoll/sched.h"

/* What is stored for one topology. */
typedef struct tc_fig_info {
  const char *spec;     /* spec string that builds the graph: "diamond()", "dbjmod(4,2)" */
  const char *topology; /* the paper's name: "Diamond", "DBJMod(4,2)" */
  int32_t nodes, degree;
  int32_t steps;        /* T_L of the stored schedule */
  int64_t tau_num, tau_den; /* its tau, as stored (the tests measure it) */
} tc_fig_info;

/* The stored schedules' descriptions, sorted by spec; *count receives their number. */
TC_API const tc_fig_info *tc_fig_schedule_list(int *count);

/* The stored allgather for `name` — a spec as listed ("dbjmod(2,3)"; whitespace and
   letter case are ignored, and "diamond" may omit its parentheses) — on g, which must be
   the graph that spec builds: same nodes and the same arcs (else TC_EINPUT naming the
   first difference). Initialises *out (algorithm "stored"); arc ids are g's. */
TC_API int tc_fig_schedule(const char *name, const tc_graph *g, tc_schedule *out, tc_error *err);

#endif
