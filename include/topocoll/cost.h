/*
** cost.h — the α-β cost model (paper 000 §3.2, App. E.3), computed from the schedule.
**
** For every step t and arc a, load(a,t) = Σ chunk sizes on a at t, in shards, divided by
** cap(a). With d = the node bandwidth in link units (the largest Σ cap over a node's
** out-arcs; the degree of a regular unit-capacity graph) and the shard size M/nshards,
** the bandwidth term is
**     T_B = (M/B) * tau,   tau = (d / nshards) * Σ_t max_a load(a,t),
** exact as a rational. T_L = steps * α. Allreduce sums its two halves. Optimal values:
** tau* = (N-1)/N for allgather / reduce-scatter (paper 000 Thm 4), 2(N-1)/N for allreduce,
** 1 for broadcast / reduce on a d-regular loop-free graph. In general: copying, the max over
** compute nodes v of (shards v lacks)/nshards * d / c_in(v); reducing, the same over
** c_out(v) (c = capacity of v's links to other nodes: loops carry nothing); allreduce, what
** any allreduce must do — each node receives and sends M, and the compute nodes' out-links
** carry 2(N-1) M in all: max(d/c_in(v), d/c_out(v), 2(N-1) d / Σ c_out). A self-loop or a
** thin node raises the bound. T_L* = T_L*(N,d) (Def. 10), doubled for allreduce.
** Alltoall: a node's buffer M holds C shards of M/C (C compute nodes), so tau = (d / C) *
** Σ_t max_a load(a,t), and a fluid routing of concurrent rate F lowered hop by hop costs
** at least d / (C F). Its tau* is only a lower bound (paper 003's exact optimum needs the
** multi-commodity flow of a2a.h): (d / C) times the larger of the distance bound
** Σ_{s≠t} dist(s,t) / Σ_a cap(a) and (C-1) / the least out- or in-capacity of a compute
** node (loops, which carry nothing, not counted); bw_optimal then proves optimality when it holds and says nothing when it does not.
** Scatter and gather: the root's buffer M holds C shards of M/C, so tau = (d / C) * Σ_t
** max_a load(a,t) as for alltoall; tau* = the larger of (C-1)/C * d / c_out(root) (gather:
** c_in) and 1/C * d / c_in(v) (gather: c_out) over the other compute nodes v. P2P: one
** shard, tau = d * Σ_t max_a load(a,t); tau* = d / F with F the maximum S-T flow (every
** unit crosses a minimum cut), and moore_steps is the distance S -> T (its latency bound).
** Message-combine: all transfers on one arc in one step are ONE message, paying one α for
** the step and their summed load in T_B (the dissertation's Eq. 3.2, paper 002 §3.1);
** MULTITREE-style serialisation is simply more steps.
** Local reorder (local_copy): a combined message whose pieces are not one contiguous range
** of the sender's buffer is packed first, one not contiguous in the receiver's buffer is
** moved into place after (the dissertation's final reorder / memcpy stage, Ch. 3 §3.2);
** local_copy = Σ_t max_v (units v copies in step t), in units of M. The time of those
** copies is local_copy * M / copy_bw (tc_cost_time_copy). tc_cost_time leaves it out: the
** MPI executor receives every piece straight into place (one MPI message per contiguous
** piece), so its copies cost nothing; an implementation that packs combined messages
** pays them, at a memcpy rate of the order of 10 GB/s (TC_COPY_BW_TYPICAL).
** The cost model never consults a closed form: those live in the tests.
*/
#ifndef TOPOCOLL_COST_H
#define TOPOCOLL_COST_H

#include "topocoll/export.h"

#include "topocoll/rational.h"
#include "topocoll/sched.h"

typedef struct tc_cost {
  int32_t steps;       /* T_L / α */
  int64_t degree;      /* d used for B = d * b */
  tc_rat tau;          /* T_B / (M/B) */
  tc_rat tau_optimal;  /* the lower bound tau* (alltoall: not always attainable) */
  int bw_optimal;      /* tau == tau* */
  int32_t moore_steps; /* T_L* for this N and d (x2 for allreduce); -1 if undefined */
  int moore_optimal;   /* steps == moore_steps */
  tc_rat *step_load;   /* steps entries: max_a load(a,t) in shards per unit capacity */
  tc_rat local_copy;   /* Σ_t max_v bytes node v packs or unpacks in step t, / M */
} tc_cost;

TC_API int tc_schedule_cost(const tc_graph *g, const tc_schedule *s, tc_cost *out, tc_error *err);
TC_API void tc_cost_destroy(tc_cost *c);

/* Predicted time in seconds: steps*alpha + tau * M / (d * link_bw), with alpha in s,
   link_bw in bytes/s per unit-capacity link and M in bytes. A schedule that moves nothing
   (tau = 0: one node, or d = 0) has no bandwidth term, so the time is steps*alpha — 0 for
   the collective of a single node — and never NaN. */
TC_API double tc_cost_time(const tc_cost *c, double alpha_s, double link_bw, double bytes);

/* A local memcpy rate typical of one core, in bytes/s (documentation and `sched
   --copy-bw`'s example; no prediction uses it unless asked). */
#define TC_COPY_BW_TYPICAL 10e9

/* tc_cost_time plus the local reorder term local_copy * M / copy_bw (copy_bw in bytes/s;
   copy_bw <= 0: no such term, i.e. tc_cost_time). */
TC_API double tc_cost_time_copy(const tc_cost *c, double alpha_s, double link_bw, double bytes, double copy_bw);

/* Heterogeneous links (paper 000 E.3): Σ_t max over arcs used in step t of
   alpha[a] + bytes on a at t / bw[a]; alpha in s and bw in bytes/s, per arc id. */
TC_API int tc_schedule_time_hetero(const tc_graph *g, const tc_schedule *s, const double *alpha, const double *bw,
                                   double bytes, double *time_s, tc_error *err);

#endif
