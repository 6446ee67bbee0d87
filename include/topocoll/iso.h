/*
** iso.h — graph isomorphism and reverse symmetry (paper 000 Def. 6: G is reverse-symmetric
** when G is isomorphic to its transpose G^T).
**
** Isomorphisms respect arc multiplicity, self-loops, capacities and node kinds. The search
** is delegated to igraph's BLISS (multigraph features are encoded as colours and subdivision
** nodes); every map it returns is re-checked by tc_graph_check_isomorphism before it is
** reported, so a wrong answer from the library cannot escape.
*/
#ifndef TOPOCOLL_ISO_H
#define TOPOCOLL_ISO_H

#include "topocoll/export.h"

#include "topocoll/graph.h"

/* On success *found says whether g1 ≅ g2; if so and map != NULL, map[u] (n entries) is
   the image in g2 of node u of g1. */
TC_API int tc_graph_isomorphism(const tc_graph *g1, const tc_graph *g2, int *found, int32_t *map, tc_error *err);

/* Generators of G's automorphism group (BLISS): *count maps of n entries each, generator i
   at (*gens)[i·n .. i·n+n-1] (malloc'ed; free it), every one checked like an isomorphism.
   The identity group gives *count = 0 and *gens = NULL. */
TC_API int tc_graph_automorphism_generators(const tc_graph *g, int32_t **gens, int32_t *count, tc_error *err);

/* Reverse symmetry: isomorphism from G to G^T (map may be NULL). */
TC_API int tc_graph_reverse_symmetry(const tc_graph *g, int *found, int32_t *map, tc_error *err);

/* 1 iff map is a bijection with mult_{g2}(map u, map v) == mult_{g1}(u, v) for all u, v
   (capacity multisets and node kinds included). */
TC_API int tc_graph_check_isomorphism(const tc_graph *g1, const tc_graph *g2, const int32_t *map);

#endif
