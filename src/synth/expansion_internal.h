/*
** expansion_internal.h — pieces the three expansion schedules share (line_sched.c,
** degree_sched.c, power_sched.c): checking the base allgather they expand, overflow-
** checked integer arithmetic for sizes, and a step-ordered working copy of the base.
** Internal header.
*/
#ifndef TC_SYNTH_EXPANSION_INTERNAL_H
#define TC_SYNTH_EXPANSION_INTERNAL_H

#include <stdint.h>

#include "topocoll/expand_sched.h"

/* TC_EINPUT "what: ..." unless ag is an allgather on g in the paper's layout (N shards,
   shard k owned by node k), g has compute nodes only, and every transfer of ag names a
   shard, an arc of g, a step in 1..ag->steps and a chunk inside [0, units). Whether ag
   really gathers is not decided here: the expanded schedule goes to the verifier anyway,
   and these checks only make indexing by shard, arc and step safe. */
int tci_xs_check_base(const char *what, const tc_graph *g, const tc_schedule *ag, tc_error *err);

/* *out = a * b for a, b >= 0, or TC_ERANGE "what: <thing> overflows". */
int tci_xs_mul(const char *what, const char *thing, int64_t a, int64_t b, int64_t *out, tc_error *err);
/* *out = a + b for a, b >= 0, or TC_ERANGE as tci_xs_mul. */
int tci_xs_add(const char *what, const char *thing, int64_t a, int64_t b, int64_t *out, tc_error *err);
/* *out = lcm(a, b) for a, b >= 1, or TC_ERANGE as tci_xs_mul. */
int tci_xs_lcm(const char *what, const char *thing, int64_t a, int64_t b, int64_t *out, tc_error *err);

/* A copy of ag with `units` multiplied by refine (>= 1) and transfers sorted by step, so
   that expansions emitting in base order emit in step order (the verifier's fast path). */
int tci_xs_working_copy(const tc_schedule *ag, int64_t refine, tc_schedule *out, tc_error *err);

/* Start the expanded allgather on `nodes` nodes with `units` units per shard, and reserve
   `count` transfers. */
int tci_xs_start(const char *what, int64_t nodes, int64_t units, int64_t count, tc_schedule *out, tc_error *err);

#endif
