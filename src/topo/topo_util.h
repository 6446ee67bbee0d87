/*
** topo_util.h — small helpers several family generators share. Internal header.
*/
#ifndef TC_TOPO_UTIL_H
#define TC_TOPO_UTIL_H

#include <stdint.h>

#include "core/intmath.h"
#include "core/rng.h"
#include "topocoll/graph.h"

/* Families label nodes only up to this size: labels cost memory and nobody reads
   a million coordinates. */
#define TC_TOPO_LABEL_MAX_NODES 65536

/* Label node u of a mixed-radix grid "(x_0,...,x_{k-1})", dims most significant first
   (node u = Σ x_i Π_{j>i} dims[j]), for all `nodes` = Π dims nodes. */
int tci_topo_label_coordinates(tc_graph_builder *b, const int64_t *dims, int k, int64_t nodes, tc_error *err);

/* Label node u with printf-style text (a fabric's "gpu1.3", "edge0.1"), cut at 63 bytes
   (the fabrics' labels are a few bytes long). */
#if defined(__GNUC__)
__attribute__((format(printf, 4, 5)))
#endif
int tci_topo_labelf(tc_graph_builder *b, int64_t u, tc_error *err, const char *fmt, ...);

/* perm = a uniformly random permutation of 0..k-1 (Fisher–Yates on the identity). The
   random families draw all their shuffles here, so a seed consumes the generator the
   same way in every family: k-1 draws, from the last position down. */
void tci_topo_random_permutation(int32_t *perm, int64_t k, tc_rng *rng);

/* perm = a uniformly random permutation of 0..k-1 that is a single k-cycle (Sattolo's
   variant: the same loop drawing strictly below the current position). */
void tci_topo_random_cycle(int32_t *perm, int64_t k, tc_rng *rng);

#endif
