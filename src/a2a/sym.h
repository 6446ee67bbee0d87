/*
** sym.h — a group of automorphisms that acts freely on the nodes, the accelerator of the
** column-generation solver (dw.c). Internal header.
**
** Why freely: when no group element but the identity fixes a node, every node orbit and
** every arc orbit has exactly |H| members, source s = h(r) of representative r is reached by
** exactly one h, and a routing of the representatives expands to all sources by f_{h(r)} =
** h(f_r) with every arc of an orbit carrying the same load, Σ_r Σ_{e in the orbit} f_r(e).
** So the master needs one convexity row per representative and one capacity row per arc
** orbit, and its optimum is the full problem's (averaging any optimum over H gives an
** H-invariant one). The expansion is checked on the full graph by the certificate, so the
** group is an accelerator, never a source of trust.
**
** tci_a2a_sym_find asks BLISS for generators of Aut(G) (iso.h), then grows a free subgroup
** greedily from the generators and seeded random group elements (product replacement): an
** element is kept when the group it generates with those kept so far still acts freely. The
** closure is enumerated explicitly (|H| <= N elements of N entries), so graphs above
** TCI_A2A_SYM_MAX_NODES get the trivial group. Deterministic for a seed.
*/
#ifndef TC_A2A_SYM_H
#define TC_A2A_SYM_H

#include <stdint.h>

#include "topocoll/error.h"
#include "topocoll/graph.h"

/* Above this many nodes no group is searched: the closure would cost N^2 memory. */
#define TCI_A2A_SYM_MAX_NODES 4096

typedef struct tci_a2a_sym {
  int32_t n;
  int32_t order;      /* |H|; 1 for the trivial group */
  int32_t *elem;      /* order·n: element h maps u to elem[h·n + u]; element 0 is the identity */
  int32_t nreps;
  int32_t *rep;       /* nreps node orbit representatives (the least id of each orbit) */
  int32_t *rep_index; /* n: the index in rep[] of u's representative */
  int32_t *via;       /* n: the h with elem[h·n + rep(u)] == u */
  int32_t nclasses;   /* arc orbits of arcs that are not loops */
  int32_t *arc_class; /* m: the orbit of each arc, -1 for loops */
  int64_t *class_cap; /* nclasses: the capacity of the arcs of the orbit */
} tci_a2a_sym;

/* The trivial group: every node its own representative, every arc its own class. */
int tci_a2a_sym_trivial(const tc_graph *g, tci_a2a_sym *out, tc_error *err);
/* A free subgroup of Aut(G) as large as the search finds (possibly trivial). */
int tci_a2a_sym_find(const tc_graph *g, uint64_t seed, tci_a2a_sym *out, tc_error *err);
void tci_a2a_sym_destroy(tci_a2a_sym *s);

/* The image of arc a under element h: the arc h(u) -> h(v) at the same place among the
   parallel arcs u -> v (arcs are sorted by capacity within a bundle, which automorphisms
   keep). */
int64_t tci_a2a_sym_arc(const tc_graph *g, const tci_a2a_sym *s, int32_t h, int64_t a);

#endif
