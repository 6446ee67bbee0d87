/*
** kautz_common.h — what the K(d,2) generators (kautz_coll.c, kautz_p2p.c) share: the graph
** check, the letter pair <-> node id map, the out-BFS trees and the MULTITREE step rule.
** Internal header.
**
** Conventions. Paper 002's K(d,2) (diameter 2, §2.1.3) is our kautz(d,1) (paper 000's index
** is diameter - 1). Its nodes are the pairs (x,y) of letters 0..d, x != y, n = d(d+1);
** (x,y) -> (y,z) for every z != y. kautz.c numbers them lexicographically:
** id(x,y) = x*d + (y - [y > x]), and the out-arcs of a node are stored in increasing z, so
** the arc (x,y) -> (y,z) is out-arc number z - [z > y] of (x,y).
**
** Out-BFS tree of root r = (x,y) (paper 002 §3.1, Table 3.1's outgoing tree): depth 1 is
** the d children c_z = (y,z), z != y; the children of c_z are (z,w), w != z, except r
** itself (z = x, w = y). So child (y,x) has d-1 children and the other d-1 children have d
** each: the subtree sizes n_{1,j} are d+1 (d-1 times) and d (once), and the tree spans all
** 1 + d + d^2 - 1 = n nodes, each depth-2 node by a unique 2-path.
** In-BFS trees are the mirror image: reversing the letters, f(x,y) = (y,x), maps K(d,2)
** onto its transpose, so the in-tree of r is the out-tree of f(r) with every node mapped by
** f and every arc reversed (f(c) -> f(p) for each tree arc p -> c).
**
** MULTITREE step rule (paper 002 §3.1, Fig. 3.1: "the order of links used in each
** communication step" replaced by a rule). In the out-tree of root (w,a), the arc from the
** child (a,b) to the grandchild (b,c) is sent in step 2 + slot(w; a, b), where slot puts the
** root's first letter w among the letters other than a, with w = b last:
**     slot = d - 1 if w == b, else the rank of w among the letters {0..d} \ {a, b}.
** The roots whose depth-2 flows cross the arc (a,b) -> (b,c) are the (w,a), w != a (minus
** (b,a) when c = a), all with distinct slots: every arc carries at most one flow per step,
** steps 2..d use every arc and step d+1 every arc (a,b) -> (b,c) with c != a, n(d-1) of the
** nd arcs (K(2,2): 12, 12, 6 arcs in steps 1, 2, 3). The trees are complete after d + 1
** steps, which is the least any schedule of one-hop tree arcs can take: n(n-1) tree arcs
** over nd arcs per step need ceil((d^2+d-1)/d) = d + 1 steps.
*/
#ifndef TC_SYNTH_KAUTZ_COMMON_H
#define TC_SYNTH_KAUTZ_COMMON_H

#include <stdint.h>

#include "topocoll/graph.h"

/* TC_EINPUT naming `algo` unless g is kautz(d,1) with d >= 2 as kautz.c builds it (every
   node's arcs, in order, are the ones id(x,y) -> id(y,z) above); *d receives d. */
int tci_kautz2_check(const tc_graph *g, const char *algo, int32_t *d, tc_error *err);

/* id(x,y); x != y, both in 0..d. */
static inline int32_t tci_kautz2_node(int32_t d, int32_t x, int32_t y) { return x * d + y - (y > x); }
/* The letters of node u. */
static inline void tci_kautz2_letters(int32_t d, int32_t u, int32_t *x, int32_t *y) {
  int32_t c = u % d;
  *x = u / d;
  *y = c + (c >= *x);
}
/* The arc (x,y) -> (y,z) of g, z != y. */
static inline int64_t tci_kautz2_arc(const tc_graph *g, int32_t d, int32_t u, int32_t z) {
  int32_t x, y;
  tci_kautz2_letters(d, u, &x, &y);
  return g->out_off[u] + z - (z > y);
}
/* The letter reversal f(x,y) = (y,x): K(d,2) onto its transpose. */
static inline int32_t tci_kautz2_flip(int32_t d, int32_t u) {
  int32_t x, y;
  tci_kautz2_letters(d, u, &x, &y);
  return tci_kautz2_node(d, y, x);
}

/* The MULTITREE slot 0..d-1 of root letter w on the arc (a,b) -> (b,c) (rule above). */
static inline int32_t tci_kautz2_slot(int32_t w, int32_t a, int32_t b, int32_t d) {
  if (w == b) return d - 1;
  return w - (w > a) - (w > b);
}

/* One arc of the out-BFS tree of `root`: parent -> child at depth `depth` (1 or 2), the
   child's letter pair (cx, cy), and for depth 2 the MULTITREE slot. */
typedef struct tci_kautz2_edge {
  int32_t parent, child, depth, slot;
} tci_kautz2_edge;

/* The n - 1 arcs of root's out-BFS tree into e: the d depth-1 arcs first (children in
   increasing z), then each child's children (same order), so e[j] for j < d is child j and
   the subtree of child j is e[j] plus the depth-2 arcs whose parent is e[j].child.
   Returns the count (n - 1). */
int32_t tci_kautz2_out_tree(int32_t d, int32_t root, tci_kautz2_edge *e);

/* Multi-path point-to-point (paper 002 §3.3.1) from s = (x,y) to t != s, by type:
     1  t = (z,w), z != y (no arc s -> t): <x y z w> and <x y k z w>, k not in {y,z}: d paths
     2  t = (y,x) (arcs both ways):        <x y x> and <x y k y x>, k not in {x,y}: d paths
     3  t = (y,z), z != x (one-way arc):   <x y z> and <x y k y z>, k not in {x,y,z}: d-1 paths
   (length-4 paths are never used). The type of the pair: */
int tci_kautz2_p2p_type(int32_t d, int32_t s, int32_t t);
/* The paths into path[i][0..len[i]] (nodes, path[i][0] = s, path[i][len[i]] = t), the
   shortest first; `multipath` 0 gives the shortest alone. Returns the count (<= d). */
int32_t tci_kautz2_p2p_paths(int32_t d, int32_t s, int32_t t, int multipath, int32_t (*path)[4], int32_t *len);

#endif
