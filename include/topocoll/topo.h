/*
** topo.h — generators for the topology families of the papers (one source file each,
** under src/topo/). Every generator validates its parameters, returns TC_EINPUT with one
** clear line on impossible ones, and builds an immutable tc_graph: the direct-connect
** families with unit capacities and compute nodes only, the switch fabrics (last, paper
** 001) with switch nodes and capacities in GB/s per direction (integers).
**
** Conventions shared by all families:
**   - "bidirectional" families add each link as an opposite arc pair (degree d = number
**     of ports = out-degree = in-degree); "unidirectional" families add single arcs.
**   - node ids are documented per family; labels are set where a family has natural
**     names (Kautz words, torus coordinates) and the graph is small enough to afford them.
**   - a family that is undefined below some size says so (e.g. rings need m >= 2).
** Sources: paper 000 Table 9, App. F, Table 8; paper 002 §2.1; paper 003 §5.4; paper 001
** §5.2, §5.3, Fig. 2 (the fabrics).
*/
#ifndef TOPOCOLL_TOPO_H
#define TOPOCOLL_TOPO_H

#include "topocoll/export.h"

#include <stdint.h>

#include "topocoll/error.h"
#include "topocoll/graph.h"

/* Complete graph K_n, bidirectional, degree n-1 (n >= 2). */
TC_API int tc_topo_complete(int64_t n, tc_graph **out, tc_error *err);
/* Complete bipartite K_{d,d}: nodes 0..d-1 on one side, d..2d-1 on the other (d >= 1). */
TC_API int tc_topo_bipartite(int64_t d, tc_graph **out, tc_error *err);
/* Hamming H(n,q) = K_q^{□n}: q^n nodes, node id = base-q digits, degree n(q-1). */
TC_API int tc_topo_hamming(int64_t n, int64_t q, tc_graph **out, tc_error *err);
/* Hypercube Q_n = H(n,2). */
TC_API int tc_topo_hypercube(int64_t n, tc_graph **out, tc_error *err);
/* Twisted hypercube (Esfahanian–Ni–Sagan twisted n-cube, n >= 3); see twisted_hypercube.c. */
TC_API int tc_topo_twisted_hypercube(int64_t n, tc_graph **out, tc_error *err);
/* UniRing(d,m): m nodes, d parallel arcs i -> i+1 (mod m). */
TC_API int tc_topo_uniring(int64_t d, int64_t m, tc_graph **out, tc_error *err);
/* BiRing(d,m): m nodes, even d, d/2 parallel links between i and i+1 (mod m). */
TC_API int tc_topo_biring(int64_t d, int64_t m, tc_graph **out, tc_error *err);
/* Torus over dims[0..k-1] (row-major ids, last coordinate fastest); a dimension of length
   2 contributes one link (K_2), not a doubled one. */
TC_API int tc_topo_torus(const int64_t *dims, int k, tc_graph **out, tc_error *err);
/* Twisted 2D torus a x b whose wrap-around links in the second dimension are shifted by
   `twist` along the first; see twisted_torus.c. */
TC_API int tc_topo_twisted_torus(int64_t a, int64_t b, int64_t twist, tc_graph **out, tc_error *err);
/* Circulant C(n, {a_1..a_k}), bidirectional, i ~ i ± a_j; each offset adds `mult`
   parallel links (mult >= 1). Offsets must be distinct in 1..n/2 and gcd(n, a..) == 1. */
TC_API int tc_topo_circulant(int64_t n, const int64_t *offs, int k, int64_t mult, tc_graph **out, tc_error *err);
/* Minimum-diameter degree-4 circulant C(n,{m,m+1}), m = ceil((-1+sqrt(2n-1))/2)
   (Boesch–Wang, paper 000 Thm 22), n > 6; degree d (a multiple of 4) via d/4 parallel links. */
TC_API int tc_topo_min_circulant(int64_t n, int64_t d, tc_graph **out, tc_error *err);
/* Directed circulant on Z_n: i -> i + a_j (mod n), a_j distinct in 1..n-1. */
TC_API int tc_topo_directed_circulant(int64_t n, const int64_t *offs, int k, tc_graph **out, tc_error *err);

/* Self-loop policy of the generalized Kautz graph. */
typedef enum {
  TC_LOOPS_KEEP = 0, /* keep loop arcs: every node has out/in-degree d (paper 000's count) */
  TC_LOOPS_DROP = 1  /* drop them: looped nodes lose a port (paper 003 does not say which) */
} tc_loop_policy;
/* Generalized Kautz Π_{d,m} (Imase–Itoh): x -> -(d x + a) mod m, a = 1..d (m >= d+1). */
TC_API int tc_topo_genkautz(int64_t d, int64_t m, tc_loop_policy loops, tc_graph **out, tc_error *err);
/* Kautz K(d,n) of paper 000: (d+1) d^n nodes, diameter n+1, = L^n(K_{d+1}). Nodes are
   words of n+1 letters over {0..d}, consecutive letters distinct, labelled by the word. */
TC_API int tc_topo_kautz(int64_t d, int64_t n, tc_graph **out, tc_error *err);
/* de Bruijn B(d,n): d^n nodes x -> d x + a (mod d^n), a = 0..d-1 (self-loops kept). */
TC_API int tc_topo_debruijn(int64_t d, int64_t n, tc_graph **out, tc_error *err);
/* Modified de Bruijn DBJMod(d,n) (paper 000 Fig. 20), reconstructed; see dbjmod.c. */
TC_API int tc_topo_dbjmod(int64_t d, int64_t n, tc_graph **out, tc_error *err);
/* Diamond (paper 000 Fig. 19): N = 8, d = 2, reconstructed; see diamond.c. */
TC_API int tc_topo_diamond(tc_graph **out, tc_error *err);
/* A distance-regular graph of paper 000 Table 8 by name (see tc_topo_drg_names). */
TC_API int tc_topo_drg(const char *name, tc_graph **out, tc_error *err);
/* NULL-terminated list of the names tc_topo_drg accepts. */
TC_API const char *const *tc_topo_drg_names(void);
/* nD fully connected / HyperX over dims[0..k-1]: nodes adjacent iff they differ in
   exactly one coordinate (paper 002 §2.1.4, §4.5). */
TC_API int tc_topo_hyperx(const int64_t *dims, int k, tc_graph **out, tc_error *err);
/* Dragonfly of routers: g groups of a fully connected routers, h global links per router,
   a*h divisible by g-1 (paper 002 §2.1.4, §4.4); see dragonfly.c. */
TC_API int tc_topo_dragonfly(int64_t a, int64_t h, int64_t g, tc_graph **out, tc_error *err);
/* Random d-regular simple graph (Jellyfish) on n nodes, connected, from `seed`. */
TC_API int tc_topo_jellyfish(int64_t n, int64_t d, uint64_t seed, tc_graph **out, tc_error *err);
/* Xpander: a random `lift`-lift of K_{d+1}, (d+1)*lift nodes, d-regular, connected. */
TC_API int tc_topo_xpander(int64_t d, int64_t lift, uint64_t seed, tc_graph **out, tc_error *err);

/* Switch fabrics (paper 001). Compute nodes come first (ids 0..N-1, cluster-major), then
   the switch nodes; every node is labelled ("gpu1.3", "nvswitch1", "edge0.1", ...) up to
   65536 nodes. Every link is an opposite arc pair of equal capacity, so the graphs are
   bidirectional and Eulerian (in-capacity == out-capacity at every node). */

/* n >= 1 clusters of 8 A100 (paper 001 §5.3): per cluster an NVSwitch, GPU <-> NVSwitch at
   300; for n >= 2 a NIC per GPU (GPU <-> NIC at 25) and NIC(a,b) <-> IB_(b mod 2) at 25,
   two IB switches shared by all clusters; none of these for n = 1. See dgx_a100.c. */
TC_API int tc_topo_dgx_a100(int64_t n, tc_graph **out, tc_error *err);
/* n >= 1 clusters of `gcds` (16, or 8 for the induced "8+8" subgraph) MI250 GCDs
   (paper 001 §5.2): the exact Infinity Fabric matrix, one arc per GCD pair of capacity
   links x 50; for n >= 2 one IB switch shared by all clusters, GCD <-> IB at 16. */
TC_API int tc_topo_mi250(int64_t n, int64_t gcds, tc_graph **out, tc_error *err);
/* The k-ary fat-tree (Al-Fares et al.), k even >= 2: k^3/4 hosts (compute), k pods of k/2
   edge and k/2 aggregation switches, (k/2)^2 core switches, every link of capacity bw. */
TC_API int tc_topo_fattree(int64_t k, int64_t bw, tc_graph **out, tc_error *err);
/* Paper 001 Fig. 2(a): c(i,j), i = 1..2, j = 1..4, cluster switches w1, w2 (c(i,j) <-> w_i
   at 10b) and global switch w0 (c(i,j) <-> w0 at b), b >= 1. */
TC_API int tc_topo_fig2toy(int64_t b, tc_graph **out, tc_error *err);

#endif
