/*
** transform_internal.h — helpers the schedule transforms share (arc_map.c). Internal
** header: the transforms of transform.h are the public face.
*/
#ifndef TC_SCHED_TRANSFORM_INTERNAL_H
#define TC_SCHED_TRANSFORM_INTERNAL_H

#include <stdint.h>

#include "topocoll/sched.h"

/* Structure check every transform starts with: s has g's node count and every transfer
   names an arc of g. `what` prefixes the message ("reverse: ..."). */
int tci_schedule_check_graph(const tc_graph *g, const tc_schedule *s, const char *what, tc_error *err);

/* Arc correspondence. For every arc a = x -> y of `from`, arcmap[a] becomes an arc of `to`
   from f(x) to f(y) (from f(y) to f(x) when `reversed`) with the same capacity; f == NULL
   is the identity. Parallel arcs get distinct images. `used` (to->m flags, or NULL) marks
   arcs of `to` already taken: they are skipped and the new images marked, so successive
   calls embed disjoint arc sets (A.6 puts G and G^T side by side in G ∪ G^T this way).
   Fails with TC_EINPUT when some arc has no free image. */
int tci_graph_map_arcs(const tc_graph *from, const tc_graph *to, const int32_t *f, int reversed, uint8_t *used,
                      int64_t *arcmap, tc_error *err);

#endif
