/*
** topo_util.h — small helpers several family generators share. Internal header.
*/
#ifndef TC_TOPO_UTIL_H
#define TC_TOPO_UTIL_H

#include <stdint.h>

#include "core/intmath.h"
#include "topocoll/graph.h"

/* Families label nodes only up to this size: labels cost memory and nobody reads
   a million coordinates. */
#define TC_TOPO_LABEL_MAX_NODES 65536

/* Label node u of a mixed-radix grid "(x_0,...,x_{k-1})", dims most significant first
   (node u = Σ x_i Π_{j>i} dims[j]), for all `nodes` = Π dims nodes. */
int tc_topo_label_coordinates(tc_graph_builder *b, const int64_t *dims, int k, int64_t nodes, tc_error *err);

#endif
