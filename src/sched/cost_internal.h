/*
** cost_internal.h — pieces of the cost model kept in files of their own. Internal header:
** cost.h is the public face.
*/
#ifndef TC_SCHED_COST_INTERNAL_H
#define TC_SCHED_COST_INTERNAL_H

#include "topocoll/rational.h"
#include "topocoll/sched.h"

/* The local reorder / memcpy factor of s (local_copy.c): Σ_t max_v units v packs or
   unpacks in step t, divided by units * per_buffer (so in units of M). */
int tci_schedule_local_copy(const tc_graph *g, const tc_schedule *s, int64_t per_buffer, tc_rat *out, tc_error *err);

#endif
