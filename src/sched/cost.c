/*
** cost.c — the α-β cost model measured on a schedule (contract in cost.h).
**
** Loads are accumulated per (step, arc) in integer units, one step at a time, so memory is
** O(m) per thread: steps are independent and spread over OpenMP threads. In step order
** (every sorted schedule) a step's transfers are found by binary search and read in place;
** otherwise they are ordered by a counting sort of their indices (O(count) more). The
** per-step maximum of load/cap is compared exactly in 128-bit arithmetic and summed as a
** rational, in step order.
**
** Alltoall (nshards = N*N) cuts each node's buffer M into C shards, one per compute node,
** so its bandwidth term divides by C, not by nshards; its tau* is a lower bound that may
** not be attainable (cost.h), so bw_optimal is a proof when it holds and nothing when not.
*/
#include "topocoll/cost.h"

#include <stdlib.h>
#include <string.h>

#include "core/intmath.h"
#include "graph/maxflow.h"
#include "sched/cost_internal.h"
#include "topocoll/metrics.h"

/* Node bandwidth in link units: the largest total out-capacity of a node. Capacities reach
   2^63-1, so the sum is checked: a node whose links add up beyond that is refused. */
static int node_bandwidth(const tc_graph *g, int64_t *out, tc_error *err) {
  int64_t best = 0;
  for (int32_t u = 0; u < g->n; u++) {
    int64_t sum = 0;
    for (int64_t a = g->out_off[u]; a < g->out_off[u + 1]; a++)
      if (tci_add64(sum, g->cap[a], &sum))
        return tc_error_set(err, TC_ERANGE, "the out-capacities of node %d sum beyond 2^63-1 (arc %lld has %lld)", u,
                            (long long)a, (long long)g->cap[a]);
    if (sum > best) best = sum;
  }
  *out = best;
  return TC_OK;
}

/* Capacity of v's links to other nodes (loops carry nothing), in or out. */
static int link_capacity(const tc_graph *g, int32_t v, tc_dir dir, int64_t *cap, tc_error *err) {
  const int64_t *off = dir == TC_IN ? g->in_off : g->out_off;
  *cap = 0;
  for (int64_t i = off[v]; i < off[v + 1]; i++) {
    int64_t a = dir == TC_IN ? g->in_arc[i] : i;
    if (g->src[a] != g->dst[a] && tci_add64(*cap, g->cap[a], cap))
      return tc_error_set(err, TC_ERANGE, "the capacities of node %d sum beyond 2^63-1", v);
  }
  return TC_OK;
}

/* Keep the larger of *best and need_num/need_den * degree/cap (cap > 0). */
static int raise_bound(tc_rat *best, int64_t need_num, int64_t need_den, int64_t degree, int64_t cap, tc_error *err) {
  tc_rat need;
  int rc = tc_rat_make(need_num, need_den, &need, err);
  if (!rc) rc = tc_rat_mul(need, (tc_rat){degree, cap}, &need, err);
  if (!rc && tc_rat_cmp(need, *best) > 0) *best = need;
  return rc;
}

/* tau*, a lower bound every schedule of the collective obeys, in M/B units (B = d links).
   Copying: a compute node v must learn the shards it does not own, (nshards - owned(v)) /
   nshards of M, over its in-links; reducing: it must send its part of them over its
   out-links. So allgather / broadcast take the max over v of that share * d / c_in(v),
   reduce-scatter / reduce the same with c_out(v) (paper 000 Thm 4 on a d-regular graph:
   (N-1)/N). Allreduce is not bound by its RS + AG halves on every graph (a root in the
   middle of a 3-node path beats them by 4/3), so it takes what any allreduce must do: every
   compute node receives M and sends M (the others' sum, its own data), and every element
   is sent 2(N-1) times in all (N-1 combines, N-1 deliveries) over the compute nodes'
   out-links: tau* = max(max_v d / c_in(v), max_v d / c_out(v), 2(N-1) d / Σ_v c_out(v)) —
   2(N-1)/N on a d-regular loop-free graph. Loops and thin nodes raise the bound, as they
   must: a bound that ignored them would call an optimal schedule slow. */
static int optimal_tau(const tc_graph *g, const tc_schedule *s, int64_t degree, tc_rat *out, tc_error *err) {
  int32_t *owned = calloc((size_t)g->n, sizeof *owned);
  if (!owned) return tc_error_set(err, TC_ENOMEM, "out of memory");
  for (int32_t k = 0; k < s->nshards; k++) owned[tc_schedule_owner(s, k)]++;
  int copy = s->coll != TC_COLL_REDUCE_SCATTER && s->coll != TC_COLL_REDUCE;
  int reduce = s->coll != TC_COLL_ALLGATHER && s->coll != TC_COLL_BROADCAST;
  int allreduce = s->coll == TC_COLL_ALLREDUCE;
  int64_t compute = 0, total_out = 0;
  int rc = TC_OK;
  *out = (tc_rat){0, 1};
  for (int32_t v = 0; v < g->n && !rc; v++) {
    if (g->kind[v] != TC_NODE_COMPUTE) continue;
    int64_t in = 0, outcap = 0;
    rc = link_capacity(g, v, TC_IN, &in, err);
    if (!rc) rc = link_capacity(g, v, TC_OUT, &outcap, err);
    if (rc) break;
    compute++;
    if (total_out >= 0 && tci_add64(total_out, outcap, &total_out))
      total_out = -1; /* beyond 2^63-1: the aggregate term is dropped (the bound stays valid, only weaker) */
    /* a node without links cannot take part at all: the verifier says so, not the bound */
    int64_t lack = allreduce ? 1 : s->nshards - owned[v], of = allreduce ? 1 : s->nshards;
    if (!rc && copy && in > 0 && lack > 0) rc = raise_bound(out, lack, of, degree, in, err);
    if (!rc && reduce && outcap > 0 && lack > 0) rc = raise_bound(out, lack, of, degree, outcap, err);
  }
  free(owned);
  if (!rc && allreduce && compute > 1 && total_out > 0 &&
      (__int128)2 * (compute - 1) * degree <= INT64_MAX) /* else also dropped, as above */
    rc = raise_bound(out, 2 * (compute - 1) * degree, total_out, 1, 1, err);
  return rc;
}

/* Scatter and gather: the root sends (scatter) or receives (gather) the C-1 shards of the
   other compute nodes, (C-1)/C of M, over its out- (in-) links, and every other compute
   node receives (sends) its own 1/C over its in- (out-) links. */
static int rooted_tau(const tc_graph *g, const tc_schedule *s, int64_t degree, int64_t compute, tc_rat *out,
                      tc_error *err) {
  int scatter = s->coll == TC_COLL_SCATTER;
  int32_t root = tc_schedule_root(s);
  *out = (tc_rat){0, 1};
  int rc = TC_OK;
  for (int32_t v = 0; v < g->n && !rc && compute > 1; v++) {
    if (g->kind[v] != TC_NODE_COMPUTE) continue;
    int64_t cap = 0; /* the root's side of the move, or v's */
    rc = link_capacity(g, v, (v == root) == scatter ? TC_OUT : TC_IN, &cap, err);
    if (!rc && cap > 0) rc = raise_bound(out, v == root ? compute - 1 : 1, compute, degree, cap, err);
  }
  return rc;
}

/* P2P: every unit crosses a minimum S-T cut, whose capacity is the maximum flow F, so the
   steps' maxima sum to at least M / F: tau* = d / F (0 when T cannot be reached: such a
   schedule cannot verify). */
static int p2p_tau(const tc_graph *g, const tc_schedule *s, int64_t degree, tc_rat *out, tc_error *err) {
  tc_maxflow f;
  tci_maxflow_init(&f);
  int64_t arc, flow = 0;
  int rc = tci_maxflow_reset(&f, g->n, err);
  for (int64_t a = 0; a < g->m && !rc; a++)
    if (g->src[a] != g->dst[a]) rc = tci_maxflow_add(&f, g->src[a], g->dst[a], g->cap[a], &arc, err);
  if (!rc) rc = tci_maxflow_run(&f, tc_schedule_root(s), s->dest, &flow, err);
  tci_maxflow_destroy(&f);
  *out = (tc_rat){0, 1};
  if (!rc && flow > 0) rc = tc_rat_make(degree, flow, out, err);
  return rc;
}

/* Alltoall's lower bound on Σ_t max_a load(a,t)/cap(a), in shards (cost.h): every unit of
   shard (s,t) crosses at least dist(s,t) arcs, and leaves s and enters t once, while a
   step's maximum is at least the total load over the total capacity of any arc set. The
   larger of Σ dist / Σ cap (all arcs) and (C-1) / the least out- or in-capacity of a
   compute node. Pairs with no path add nothing (such a schedule cannot verify). */
static int alltoall_bound(const tc_graph *g, int32_t compute, tc_rat *out, tc_error *err) {
  int64_t total_cap = 0, dist_sum = 0;
  for (int64_t a = 0; a < g->m; a++) /* loops carry nothing between nodes */
    if (g->src[a] != g->dst[a] && tci_add64(total_cap, g->cap[a], &total_cap))
      return tc_error_set(err, TC_ERANGE, "the capacities of the graph sum beyond 2^63-1");
  int32_t *dist = malloc((size_t)(g->n ? g->n : 1) * sizeof *dist);
  int64_t *in_cap = calloc((size_t)(g->n ? g->n : 1), sizeof *in_cap);
  if (!dist || !in_cap) {
    free(dist); free(in_cap);
    return tc_error_set(err, TC_ENOMEM, "out of memory");
  }
  for (int64_t a = 0; a < g->m; a++) /* each <= total_cap */
    if (g->src[a] != g->dst[a]) in_cap[g->dst[a]] += g->cap[a];
  int rc = TC_OK;
  for (int32_t u = 0; u < g->n && !rc; u++) {
    if (g->kind[u] != TC_NODE_COMPUTE || (rc = tc_graph_bfs(g, u, TC_OUT, dist, err))) continue;
    for (int32_t v = 0; v < g->n; v++) /* alltoall has N <= 46340: the sum stays below 2^47 */
      if (g->kind[v] == TC_NODE_COMPUTE && dist[v] > 0) dist_sum += dist[v];
  }
  *out = (tc_rat){0, 1};
  if (!rc && total_cap > 0) rc = tc_rat_make(dist_sum, total_cap, out, err);
  for (int32_t u = 0; u < g->n && compute > 1 && !rc; u++) {
    if (g->kind[u] != TC_NODE_COMPUTE) continue;
    int64_t cap[2] = {0, in_cap[u]};
    for (int64_t a = g->out_off[u]; a < g->out_off[u + 1]; a++)
      if (g->src[a] != g->dst[a]) cap[0] += g->cap[a];
    for (int i = 0; i < 2 && !rc; i++) {
      tc_rat r;
      if (!cap[i]) continue; /* no arc at all: the schedule cannot verify */
      if (!(rc = tc_rat_make(compute - 1, cap[i], &r, err)) && tc_rat_cmp(r, *out) > 0) *out = r;
    }
  }
  free(dist);
  free(in_cap);
  return rc;
}

/* The largest load/cap over the arcs of one step, and whether some arc's load overflowed. */
typedef struct step_max {
  int64_t load, cap, overflow_arc; /* overflow_arc: -1 if none */
} step_max;

/* Step t's transfers: xfer[order[q]] for q in lo..hi-1, or xfer[q] when order is NULL (then
   each must be of step t, else *misplaced is set). load is zero on entry and on return. */
static void step_maximum(const tc_graph *g, const tc_schedule *s, const int64_t *order, int64_t lo, int64_t hi,
                         int32_t t, int64_t *load, int64_t *touched, step_max *out, int *misplaced) {
  int64_t ntouched = 0, best_load = 0, best_cap = 1, overflow_arc = -1;
  for (int64_t q = lo; q < hi; q++) {
    const tc_transfer *x = &s->xfer[order ? order[q] : q];
    if (!order && x->step != t) {
      *misplaced = 1;
      break;
    }
    if (!load[x->arc]) touched[ntouched++] = x->arc;
    if (tci_add64(load[x->arc], x->hi - x->lo, &load[x->arc]))
      overflow_arc = x->arc; /* the last one, as the error has always named */
  }
  for (int64_t i = 0; i < ntouched; i++) {
    int64_t a = touched[i];
    if ((__int128)load[a] * best_cap > (__int128)best_load * g->cap[a]) {
      best_load = load[a];
      best_cap = g->cap[a];
    }
    load[a] = 0;
  }
  *out = (step_max){best_load, best_cap, overflow_arc};
}

/* First index in xfer[0..n) whose step is >= t, if the transfers are in step order. */
static int64_t first_of_step(const tc_transfer *x, int64_t n, int32_t t) {
  int64_t lo = 0, hi = n;
  while (lo < hi) {
    int64_t mid = lo + (hi - lo) / 2;
    if (x[mid].step < t) lo = mid + 1; else hi = mid;
  }
  return lo;
}

/* mx[t-1] for every step t, whose transfers are xfer[order[q]] (or xfer[q] when order is
   NULL) for q in start[t-1]..start[t]-1. Steps are independent, so they go to OpenMP
   threads, each with its own load array. Returns -1 if memory is short, 1 if (order NULL)
   a transfer was not of its range's step, else 0. */
static int all_step_maxima(const tc_graph *g, const tc_schedule *s, const int64_t *order, const int64_t *start,
                           step_max *mx) {
  int32_t T = s->steps;
  size_t m = (size_t)(g->m ? g->m : 1);
  int oom = 0, misplaced = 0;
#pragma omp parallel if (T > 1 && s->count > 65536)
  {
    int64_t *load = calloc(m, sizeof *load), *touched = malloc(m * sizeof *touched);
    int mine = 0;
    if (!load || !touched) {
#pragma omp atomic write
      oom = 1;
    }
#pragma omp for schedule(dynamic, 1)
    for (int32_t t = 1; t <= T; t++)
      if (load && touched && !mine) step_maximum(g, s, order, start[t - 1], start[t], t, load, touched, &mx[t - 1], &mine);
    if (mine) {
#pragma omp atomic write
      misplaced = 1;
    }
    free(load);
    free(touched);
  }
  return oom ? -1 : misplaced;
}

/* Σ_t max_a load(a,t)/cap(a), in shards, as a rational; fills step_load[t-1]. In step
   order (every sorted schedule) step t's transfers are found by binary search and read in
   place, and the pass over them confirms the order; otherwise a counting sort by step
   orders their indices first. */
static int sum_step_maxima(const tc_graph *g, const tc_schedule *s, tc_rat *step_load, tc_rat *sum, tc_error *err) {
  int32_t T = s->steps;
  int64_t n = s->count, *start = malloc(((size_t)T + 2) * sizeof *start), *order = NULL;
  step_max *mx = malloc(((size_t)T + 1) * sizeof *mx);
  int rc = TC_OK, got = 1; /* got: 0 done, 1 not yet, -1 out of memory */
  if (!start || !mx) goto done;
  for (int32_t t = 1; t <= T + 1; t++) start[t - 1] = first_of_step(s->xfer, n, t); /* step t: start[t-1..t) */
  if (start[0] == 0 && start[T] == n && (got = all_step_maxima(g, s, NULL, start, mx)) < 0) goto done;
  if (got) { /* not in step order: a counting sort of the indices by step */
    if (!(order = malloc((size_t)(n ? n : 1) * sizeof *order))) goto done;
    memset(start, 0, ((size_t)T + 2) * sizeof *start);
    for (int64_t i = 0; i < n; i++) start[s->xfer[i].step + 1]++;
    for (int32_t t = 0; t <= T; t++) start[t + 1] += start[t];
    for (int64_t i = 0; i < n; i++) order[start[s->xfer[i].step]++] = i; /* start[t] now ends step t */
    got = all_step_maxima(g, s, order, start, mx);
  }
done:
  if (got) rc = tc_error_set(err, TC_ENOMEM, "out of memory");
  *sum = (tc_rat){0, 1};
  for (int32_t t = 1; t <= T && !rc; t++) {
    if (mx[t - 1].overflow_arc >= 0)
      rc = tc_error_set(err, TC_ERANGE, "load of arc %lld in step %d overflows", (long long)mx[t - 1].overflow_arc, t);
    if (!rc) rc = tc_rat_make(mx[t - 1].load, mx[t - 1].cap, &step_load[t - 1], err);
    if (!rc) rc = tc_rat_mul(step_load[t - 1], (tc_rat){1, s->units}, &step_load[t - 1], err);
    if (!rc) rc = tc_rat_add(*sum, step_load[t - 1], sum, err);
  }
  free(start);
  free(order);
  free(mx);
  return rc;
}

/* P2P's latency bound: the hops from S to T (-1 if T is out of reach). */
static int p2p_distance(const tc_graph *g, const tc_schedule *s, int32_t *out, tc_error *err) {
  int32_t *dist = malloc((size_t)g->n * sizeof *dist);
  if (!dist) return tc_error_set(err, TC_ENOMEM, "out of memory");
  int rc = tc_graph_bfs(g, tc_schedule_root(s), TC_OUT, dist, err);
  if (!rc) *out = dist[s->dest] >= 0 ? dist[s->dest] : -1;
  free(dist);
  return rc;
}

int tc_schedule_cost(const tc_graph *g, const tc_schedule *s, tc_cost *out, tc_error *err) {
  memset(out, 0, sizeof *out);
  if (s->nodes != g->n)
    return tc_error_set(err, TC_EINPUT, "schedule is for %d nodes but the graph has %d", s->nodes, g->n);
  int64_t degree = 0;
  int rc = node_bandwidth(g, &degree, err);
  if (rc) return rc;
  out->steps = s->steps;
  out->degree = degree;
  out->step_load = calloc((size_t)s->steps + 1, sizeof *out->step_load);
  if (!out->step_load) return tc_error_set(err, TC_ENOMEM, "out of memory");
  tc_rat sum, bound;
  /* shards in one node's buffer: alltoall's M holds one per compute node */
  int32_t compute = tc_graph_count_kind(g, TC_NODE_COMPUTE);
  int per_node = s->coll == TC_COLL_ALLTOALL || s->coll == TC_COLL_SCATTER || s->coll == TC_COLL_GATHER;
  int64_t per_buffer = per_node ? (compute > 0 ? compute : 1) : s->nshards;
  rc = sum_step_maxima(g, s, out->step_load, &sum, err);
  if (!rc) rc = tc_rat_mul(sum, (tc_rat){out->degree, per_buffer}, &out->tau, err);
  if (!rc && s->coll == TC_COLL_ALLTOALL) {
    rc = alltoall_bound(g, compute, &bound, err);
    if (!rc) rc = tc_rat_mul(bound, (tc_rat){out->degree, per_buffer}, &out->tau_optimal, err);
  } else if (!rc && (s->coll == TC_COLL_SCATTER || s->coll == TC_COLL_GATHER)) {
    rc = rooted_tau(g, s, out->degree, compute, &out->tau_optimal, err);
  } else if (!rc && s->coll == TC_COLL_P2P) {
    rc = p2p_tau(g, s, out->degree, &out->tau_optimal, err);
  } else if (!rc) {
    rc = optimal_tau(g, s, out->degree, &out->tau_optimal, err);
  }
  if (!rc) rc = tci_schedule_local_copy(g, s, per_buffer, &out->local_copy, err);
  if (rc) { tc_cost_destroy(out); return rc; }
  out->bw_optimal = tc_rat_cmp(out->tau, out->tau_optimal) == 0;
  int32_t moore = tc_moore_diameter_directed(g->n, out->degree);
  out->moore_steps = moore < 0 ? -1 : s->coll == TC_COLL_ALLREDUCE ? 2 * moore : moore;
  if (s->coll == TC_COLL_P2P && (rc = p2p_distance(g, s, &out->moore_steps, err))) {
    tc_cost_destroy(out);
    return rc;
  }
  out->moore_optimal = out->moore_steps >= 0 && out->steps == out->moore_steps;
  return TC_OK;
}

void tc_cost_destroy(tc_cost *c) {
  free(c->step_load);
  memset(c, 0, sizeof *c);
}

double tc_cost_time(const tc_cost *c, double alpha_s, double link_bw, double bytes) {
  if (c->tau.num == 0) return c->steps * alpha_s; /* nothing moves: no 0/0 from a node of degree 0 */
  double node_bw = (double)c->degree * link_bw;
  return c->steps * alpha_s + tc_rat_to_double(c->tau) * bytes / node_bw;
}

double tc_cost_time_copy(const tc_cost *c, double alpha_s, double link_bw, double bytes, double copy_bw) {
  double t = tc_cost_time(c, alpha_s, link_bw, bytes);
  return copy_bw > 0 ? t + tc_rat_to_double(c->local_copy) * bytes / copy_bw : t;
}

/* Heterogeneous links: the loads of one step at a time in one array of m (the touched
   arcs reset after each step), the transfers ordered by step with a counting sort of their
   indices, so time and memory are O(count + m + steps) — an m x steps table would be
   quadratic in a schedule file's size. */
int tc_schedule_time_hetero(const tc_graph *g, const tc_schedule *s, const double *alpha, const double *bw,
                            double bytes, double *time_s, tc_error *err) {
  if (s->nodes != g->n)
    return tc_error_set(err, TC_EINPUT, "schedule is for %d nodes but the graph has %d", s->nodes, g->n);
  size_t m = (size_t)(g->m ? g->m : 1), n = (size_t)(s->count ? s->count : 1);
  double *load = calloc(m, sizeof *load);
  int64_t *touched = malloc(m * sizeof *touched), *order = malloc(n * sizeof *order);
  int64_t *start = calloc((size_t)s->steps + 2, sizeof *start);
  int32_t *stamp = calloc(m, sizeof *stamp); /* the last step that touched the arc */
  if (!load || !touched || !order || !start || !stamp) {
    free(load); free(touched); free(order); free(start); free(stamp);
    return tc_error_set(err, TC_ENOMEM, "out of memory");
  }
  for (int64_t i = 0; i < s->count; i++) start[s->xfer[i].step + 1]++;
  for (int32_t t = 0; t <= s->steps; t++) start[t + 1] += start[t];
  for (int64_t i = 0; i < s->count; i++) order[start[s->xfer[i].step]++] = i; /* start[t] now ends step t */
  int per_node = s->coll == TC_COLL_ALLTOALL || s->coll == TC_COLL_SCATTER || s->coll == TC_COLL_GATHER;
  double per_buffer = per_node ? tc_graph_count_kind(g, TC_NODE_COMPUTE) : s->nshards;
  double unit_bytes = bytes / (per_buffer > 0 ? per_buffer : 1) / (double)s->units, total = 0;
  for (int32_t t = 1; t <= s->steps; t++) {
    int64_t ntouched = 0;
    for (int64_t q = start[t - 1]; q < start[t]; q++) {
      const tc_transfer *x = &s->xfer[order[q]];
      if (stamp[x->arc] != t) {
        stamp[x->arc] = t;
        touched[ntouched++] = x->arc;
      }
      load[x->arc] += (double)(x->hi - x->lo) * unit_bytes;
    }
    double worst = 0;
    for (int64_t i = 0; i < ntouched; i++) {
      int64_t a = touched[i];
      if (load[a] > 0 && alpha[a] + load[a] / bw[a] > worst) worst = alpha[a] + load[a] / bw[a];
      load[a] = 0;
    }
    total += worst;
  }
  free(load); free(touched); free(order); free(start); free(stamp);
  *time_s = total;
  return TC_OK;
}
