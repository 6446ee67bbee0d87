/*
** expand.h — the expansions of paper 000 §5 as graph operations (their schedules live in
** src/synth). Each returns a new graph and leaves its inputs untouched.
**
**   line graph L(G)        node a = arc a of G; arc a -> b iff dst(a) == src(b)
**                          (Def. 12). d-regular G gives d*N nodes, degree d.
**   degree expansion G*n   node v_i = i*N + v; arc (u_i, v_j) for every arc (u,v), all i,j
**                          (Def. 13). G must have no self-loops.
**   Cartesian product      node (u1,u2) = u1*N2 + u2 (Def. 3).
**   Cartesian power G^□n   iterated product, coordinates most significant first.
**   bidirectional closure  G ∪ G^T (A.6): every arc plus its reverse.
**   without links          G with failed links removed: ends = u1, v1, u2, v2, ... (count
**                          numbers); in a bidirectional graph each pair removes one opposite
**                          arc pair (a duplex cable), otherwise — or with arcs_only, a
**                          cluster cabled with simplex fibres — the arc u -> v alone. A link named more often than it exists, and a graph left
**                          not strongly connected, are TC_EINPUT.
*/
#ifndef TOPOCOLL_EXPAND_H
#define TOPOCOLL_EXPAND_H

#include "topocoll/export.h"

#include "topocoll/graph.h"

TC_API int tc_graph_line(const tc_graph *g, tc_graph **out, tc_error *err);
/* L^k(G), k >= 0 (k == 0 copies G). */
TC_API int tc_graph_line_power(const tc_graph *g, int64_t k, tc_graph **out, tc_error *err);
TC_API int tc_graph_degree_expand(const tc_graph *g, int64_t n, tc_graph **out, tc_error *err);
TC_API int tc_graph_product(const tc_graph *g1, const tc_graph *g2, tc_graph **out, tc_error *err);
TC_API int tc_graph_power(const tc_graph *g, int64_t k, tc_graph **out, tc_error *err);
TC_API int tc_graph_bidir_closure(const tc_graph *g, tc_graph **out, tc_error *err);
TC_API int tc_graph_without_links(const tc_graph *g, const int64_t *ends, int count, int arcs_only, tc_graph **out,
                                  tc_error *err);

#endif
