/*
** baselines.h — the classical collective schedules the papers compare against, each as a
** step schedule (sched.h) on the topology it was designed for.
**
** These are the generators; reach them by name, verified and costed, through the
** algorithm registry (collective.h: tc_collective_build). Every generator designed for one
** topology first checks that g really is its topology and fails with TC_EINPUT and one line naming the first node
** or arc that does not fit; it never "makes do" on another graph. The schedules are built constructively (no search) and are NOT verified here: a
** caller that publishes one runs tc_schedule_verify (verify.h) first, as for every
** generator. On failure *out is left empty (safe to tc_schedule_destroy). The IR lists
** every transfer and these schedules have Θ(N^2) of them (N (N-1) shard deliveries per
** collective); a request beyond 2^26 transfers fails with TC_ERANGE before allocating.
**
** Parallel arcs: where the algorithm sends a chunk from u to a neighbour v, it is split
** over all arcs u -> v in proportion to their capacities, so a "ring of degree d" (d
** parallel arcs to the next node, paper 000 Cor. 4.1) uses every port. `units` is chosen so
** that every split is exact.
**
** Collectives: allgather (AG), reduce-scatter (RS) and allreduce (RS in steps 1..rs_steps,
** then AG) for every algorithm except the double binary tree, which does allreduce,
** broadcast and reduce. RS is the reverse schedule of the AG (paper 000 Def. 5, Thm 1; a
** bidirectional graph is its own transpose) except for ring and rhd, which build it
** directly, message for message the mirror of their allgather. Expected costs, N nodes,
** tau = T_B / (M/B) from tc_schedule_cost, per RS or AG (allreduce: twice both):
**
**   ring         uniring(d,m): m - 1 steps; step t node i sends shard i-t+1 (AG) or
**                i-t (RS) to i+1. T_L = m-1, tau = (m-1)/m: BW-optimal (paper 000 Table 9,
**                App. C.2). Elsewhere around a cycle of arcs, or routed (ring.c).
**   biring       traditional bidirectional ring on biring(d,m): half of every shard each
**                way, a full circle. T_L = N-1, tau = (N-1)/N (paper 000 App. F.1).
**   bfbring      the BFB ring of App. F.1 / Fig. 17 on biring(d,m): the whole shard both
**                ways, half a circle; for even N the opposite node gets one half from each
**                side in the last step. T_L = floor(N/2), tau = (N-1)/N.
**   shiftedring  TopoOpt's ShiftedRing (paper 000 §8.2): two superposed bidirectional
**                rings, each allreducing half the data with the traditional ring schedule,
**                on a degree-4 circulant C(N,{a,b}) whose offsets a, b are both coprime to N
**                (the rings are i -> i±a and i -> i±b; TopoOpt uses a = 1), or on
**                biring(4,N) (a = b = 1, the two rings on parallel links). T_L = N-1,
**                tau = (N-1)/N. With `bfb` set it is ShiftedBFBRing (A.2): the BFB ring on
**                each ring, T_L = floor(N/2), allreduce 2 floor(N/2) steps.
**   dbt          NCCL's double binary tree (Sanders, Speck, Träff two-tree [71]); see below.
**   rhd          recursive doubling AG / recursive halving RS (Rabenseifner) on any
**                graph of compute nodes, MPICH's pairing of the first 2(N - 2^⌊log2 N⌋)
**                nodes for other N (rhd.c); home hypercube(n): step t exchanges over one
**                dimension, one port of n in use. T_L = n, tau = n (N-1)/N (paper 000
**                A.1: "at most 1/3 of the bandwidth" for n = 3; B counts all n ports).
**                Where a partner is no neighbour its messages are routed as the
**                topology-unaware baselines' below (and a partial is never relayed).
**   torus-dor    the traditional torus schedule (Sack & Gropp [70], paper 000 §5.3/§6.2):
**                k sub-schedules, one per dimension order rotated by one, each moving 1/k of
**                every shard by traditional bidirectional ring collectives along one
**                dimension after the other. T_L = Σ (d_i - 1); BW-optimal when all d_i are
**                equal, not otherwise (the sub-schedules' phases no longer line up). A
**                dimension of length 2 is one link (K_2, as torus() builds it) crossed in
**                one step.
**
** Double binary tree. Tree positions 1..n form the in-order tree in which p's parent is the
** nearer of p - 2^h, p + 2^h (h = trailing zeros of p) that exists and has fewer trailing
** zeros: odd positions are leaves, the root is the largest power of two <= n, the height
** is floor(log2 n). Tree 0 puts position p on index p-1, tree 1 on index p mod n: tree 0's
** interior nodes have odd indices, tree 1's even ones, so every node is interior in at most
** one tree. Allreduce: indices are nodes (n = N); shard k (half the data) is owned by tree
** k's root, reduced up tree k and broadcast down it. Broadcast / reduce from root R: the
** trees span the other N-1 nodes (index i is node R+1+i mod N) and R is the parent of both
** tree roots; shard k travels tree k. Pipelining: each shard is cut into P chunks; a node of
** height h (leaves 0) sends chunk c up at step h+1+c, a node at depth δ receives chunk c
** at step δ+c, so a tree of height H needs H+P-1 steps per direction. With K =
** floor(log2 N): allreduce T_L = 2(K+P-1), tau = d (K+P-1)/P; broadcast / reduce with
** K' = floor(log2(N-1)): T_L = K'+P, tau = (d/2)(K'+P)/P; d = the graph's node bandwidth
** (on the DBT's own topology 4 from N = 4 on for allreduce, from N = 5 on for the rooted
** layout). It runs on any graph with an arc each way
** for every tree link (the complete graph, or tc_baseline_dbt_topology: every tree link
** its own link, so a pair joined in both trees gets two parallel links).
*/
#ifndef TOPOCOLL_BASELINES_H
#define TOPOCOLL_BASELINES_H

#include "topocoll/export.h"

#include <stdint.h>

#include "topocoll/sched.h"

TC_API int tc_baseline_ring(const tc_graph *g, tc_collective coll, tc_schedule *out, tc_error *err);
TC_API int tc_baseline_biring(const tc_graph *g, tc_collective coll, tc_schedule *out, tc_error *err);
TC_API int tc_baseline_bfbring(const tc_graph *g, tc_collective coll, tc_schedule *out, tc_error *err);
/* bfb = 0: ShiftedRing; bfb = 1: ShiftedBFBRing. The offsets are read off g. */
TC_API int tc_baseline_shiftedring(const tc_graph *g, tc_collective coll, int bfb, tc_schedule *out, tc_error *err);
TC_API int tc_baseline_rhd(const tc_graph *g, tc_collective coll, tc_schedule *out, tc_error *err);
/* dims[0..k-1]: the torus lengths in torus()'s node numbering (row-major, last fastest). */
TC_API int tc_baseline_torus_dor(const tc_graph *g, const int64_t *dims, int k, tc_collective coll, tc_schedule *out,
                                 tc_error *err);

/* Topology-unaware baselines of paper 002 (§2.2.3, Table 3.2, Table 4.3): logical messages
   between nodes, each routed over a shortest path (contention.h); messages of one round
   whose routes share a link are combined on it, their loads added (tc_contention_check
   finds where), and a reduction's partial that would be relayed through a compute node is
   refused (TC_EINPUT naming the two nodes). Their home is complete(n), where every
   message is one arc, round r is step r and no link carries two messages in a round. One
   unit per shard.
   FC direct: every block straight to its destination in one round (allreduce: RS round,
   then AG round); every collective, root for the rooted ones, dst for p2p. */
TC_API int tc_baseline_fc_direct(const tc_graph *g, tc_collective coll, int32_t root, int32_t dst, tc_schedule *out,
                                 tc_error *err);
/* Binomial trees: broadcast, reduce, scatter, gather from `root`, ceil(log2 N) rounds. */
TC_API int tc_baseline_binomial(const tc_graph *g, tc_collective coll, int32_t root, tc_schedule *out, tc_error *err);
/* Pairwise exchange: alltoall, allgather; N-1 rounds, partner i XOR k (N a power of two)
   or (i + k) mod N. */
TC_API int tc_baseline_pairwise(const tc_graph *g, tc_collective coll, tc_schedule *out, tc_error *err);
/* Bruck: alltoall, allgather; ceil(log2 N) rounds, i sends to i + 2^(k-1). */
TC_API int tc_baseline_bruck(const tc_graph *g, tc_collective coll, tc_schedule *out, tc_error *err);

/* coll: allreduce (root must be -1), broadcast or reduce (root in 0..N-1). chunks = P >= 1. */
TC_API int tc_baseline_dbt(const tc_graph *g, tc_collective coll, int32_t root, int32_t chunks, tc_schedule *out,
                           tc_error *err);
/* The two trees on n >= 2 nodes: parent[t*n + v] is v's parent in tree t, -1 at the root
   (root = -1: allreduce layout; root = R: both trees hang below R, parent[t*n + R] = -1). */
TC_API int tc_baseline_dbt_trees(int32_t n, int32_t root, int32_t *parent, tc_error *err);
/* The DBT's own topology: one bidirectional unit link per tree link of both trees. */
TC_API int tc_baseline_dbt_topology(int32_t n, int32_t root, tc_graph **out, tc_error *err);

#endif
