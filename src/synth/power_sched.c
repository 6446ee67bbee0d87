/*
** power_sched.c — the allgather schedule of the Cartesian power G^□k built from an
** allgather A_G on G (paper 000 Definition 14, §5.3, App. D.3).
**
** Numbering (expand.h): node (c_0, ..., c_{k-1}) of G^□k is Σ c_i N^(k-1-i), coordinate 0
** most significant. Its arcs move one coordinate δ along an arc e of G; because parallel
** arcs and self-loops (a loop of G in any dimension is a loop of G^□k) make that
** correspondence ambiguous by position alone, the arc of every (node, δ, e) is found by
** (destination, capacity) among the node's out-arcs, each used once, which also checks
** that the given graph is G^□k.
**
** Schedule (Def. 14): every shard is cut into k equal subshards; sub-schedule r moves
** subshard r and visits the dimensions in the rotated order r, r+1, ..., r+k-1 (mod k),
** one phase of T = steps(A_G) steps each. In phase p (dimension δ) every base transfer
** ((w, C), (u, v), t) becomes, at step t + p*T, for every sender s with s_δ = u:
**     shard x of the part C of subshard r, from s to s with s_δ := v,
** for every shard x that agrees with s on the dimensions not yet visited, has x_δ = w, and
** anything on the dimensions already visited: after phase p a node holds subshard r of
** every shard that agrees with it on the unvisited dimensions (induction on p, using that
** A_G gathers). At every step the k sub-schedules work on k different dimensions, so
** their arcs are disjoint.
** Units: the base units times k (subshard r is [r*U, (r+1)*U)), overflow-checked.
** Guarantees (Thm 12, for d-regular G): T_L = k*T_L(A_G) and
** tau = tau(A_G) * N/(N-1) * (N^k - 1)/N^k: in phase p an arc carries N^p/k times what its
** base arc carries, at degree kd on N^k shards. A BW-optimal A_G stays BW-optimal
** (Cor. 12.1); k == 1 returns A_G. The result should go through tc_schedule_verify like any
** generator's.
*/
#include "synth/expansion_internal.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

static const char *const POWER = "power";

#define MAX_DIMS 64

/* Where the arcs of G^□k are: for node s and dimension δ, the arc moving coordinate δ of
   s along base arc e (out of s_δ) is
       arc_of[pg->out_off[s] + dim_start[s*k + δ] + (e - g->out_off[s_δ])],
   i.e. arc_of lists each node's out-arcs by dimension, then in base order. */
typedef struct power_layout {
  int64_t N;
  int k;
  int64_t place[MAX_DIMS]; /* N^(k-1-δ) */
  int64_t *dim_start;      /* pg->n * k, relative to pg->out_off[s] */
  int64_t *arc_of;         /* pg->m arc ids of pg */
} power_layout;

static int32_t digit(const power_layout *L, int64_t s, int dim) { return (int32_t)((s / L->place[dim]) % L->N); }

static void layout_destroy(power_layout *L) {
  free(L->dim_start);
  free(L->arc_of);
  L->dim_start = L->arc_of = NULL;
}

/* N^k, or TC_EINPUT if pg does not have that many nodes (TC_ERANGE if it cannot exist). */
static int check_size(const tc_graph *g, int64_t k, const tc_graph *pg, power_layout *L, tc_error *err) {
  if (k < 1) return tc_error_set(err, TC_EINPUT, "power: the exponent must be >= 1 (got %" PRId64 ")", k);
  if (k > MAX_DIMS) return tc_error_set(err, TC_ERANGE, "power: the exponent %" PRId64 " exceeds %d", k, MAX_DIMS);
  L->N = g->n;
  L->k = (int)k;
  int64_t nodes = 1;
  for (int dim = L->k - 1; dim >= 0; dim--) {
    L->place[dim] = nodes;
    if (nodes > TC_MAX_NODES / (L->N ? L->N : 1))
      return tc_error_set(err, TC_ERANGE, "power: G^%" PRId64 " would have more than %d nodes", k, TC_MAX_NODES);
    nodes *= L->N;
  }
  if (pg->n != nodes)
    return tc_error_set(err, TC_EINPUT, "power: the power graph has %d nodes, not %" PRId64 "^%" PRId64 " = %" PRId64,
                        pg->n, L->N, k, nodes);
  return TC_OK;
}

/* The first unused out-arc of s with destination y and capacity cap, or -1. Out-arcs are
   sorted by (dst, cap), so a binary search finds the group. */
static int64_t take_arc(const tc_graph *pg, int32_t s, int64_t y, int64_t cap, uint8_t *used) {
  int64_t lo = pg->out_off[s], hi = pg->out_off[s + 1];
  while (lo < hi) {
    int64_t mid = lo + (hi - lo) / 2;
    if (pg->dst[mid] < y || (pg->dst[mid] == y && pg->cap[mid] < cap)) lo = mid + 1;
    else hi = mid;
  }
  for (; lo < pg->out_off[s + 1] && pg->dst[lo] == y && pg->cap[lo] == cap; lo++)
    if (!used[lo]) {
      used[lo] = 1;
      return lo;
    }
  return -1;
}

/* Maps every (node, dimension, base arc) to its own arc of pg; fails unless pg's out-arcs
   of every node are exactly these, i.e. pg is G^□k. */
static int map_node_arcs(const tc_graph *g, const tc_graph *pg, power_layout *L, int32_t s, uint8_t *used,
                         tc_error *err) {
  int64_t pos = pg->out_off[s];
  for (int dim = 0; dim < L->k; dim++) {
    int32_t x = digit(L, s, dim);
    L->dim_start[(int64_t)s * L->k + dim] = pos - pg->out_off[s];
    for (int64_t e = g->out_off[x]; e < g->out_off[x + 1]; e++) {
      int64_t y = s + ((int64_t)g->dst[e] - x) * L->place[dim];
      if (pos == pg->out_off[s + 1] || (L->arc_of[pos] = take_arc(pg, s, y, g->cap[e], used)) < 0)
        return tc_error_set(err, TC_EINPUT, "power: the power graph is not G^%d: node %d lacks its arc to %" PRId64,
                            L->k, s, y);
      pos++;
    }
  }
  if (pos != pg->out_off[s + 1])
    return tc_error_set(err, TC_EINPUT, "power: the power graph is not G^%d: node %d has %" PRId64 " extra out-arcs",
                        L->k, s, pg->out_off[s + 1] - pos);
  return TC_OK;
}

static int build_layout(const tc_graph *g, const tc_graph *pg, power_layout *L, tc_error *err) {
  L->dim_start = malloc(((size_t)pg->n * L->k + 1) * sizeof *L->dim_start);
  L->arc_of = malloc(((size_t)pg->m + 1) * sizeof *L->arc_of);
  uint8_t *used = calloc((size_t)pg->m + 1, 1);
  int rc = L->dim_start && L->arc_of && used ? TC_OK : tc_error_set(err, TC_ENOMEM, "power: out of memory");
  for (int32_t s = 0; !rc && s < pg->n; s++) rc = map_node_arcs(g, pg, L, s, used, err);
  free(used);
  if (rc) layout_destroy(L);
  return rc;
}

/* Arc of pg moving coordinate dim of node s along base arc e. */
static int64_t power_arc(const tc_graph *g, const tc_graph *pg, const power_layout *L, int64_t s, int dim, int64_t e) {
  return L->arc_of[pg->out_off[s] + L->dim_start[s * L->k + dim] + (e - g->out_off[g->src[e]])];
}

/* Σ over phases p of N^(k-1-p) senders times N^p shards each, per sub-schedule and base
   transfer: count * k * N^(k-1) * (1 + N + ... + N^(k-1)). */
static int count_transfers(const tc_schedule *ag, const power_layout *L, int64_t *count, tc_error *err) {
  int64_t per_base = 0;
  for (int p = 0; p < L->k; p++) {
    int64_t term = 1;
    int rc = TC_OK;
    for (int i = 0; !rc && i < L->k - 1 + p; i++) rc = tci_xs_mul(POWER, "the transfer count", term, L->N, &term, err);
    if (!rc) rc = tci_xs_add(POWER, "the transfer count", per_base, term, &per_base, err);
    if (rc) return rc;
  }
  int rc = tci_xs_mul(POWER, "the transfer count", per_base, L->k, &per_base, err);
  return rc ? rc : tci_xs_mul(POWER, "the transfer count", per_base, ag->count, count, err);
}

/* Runs over all assignments of a set of dimensions; offset = Σ digit * place. */
typedef struct dims_walk {
  int m;
  int64_t place[MAX_DIMS];
  int64_t digit[MAX_DIMS];
  int64_t offset;
} dims_walk;

static void walk_start(dims_walk *w, const power_layout *L, const int *dims, int m) {
  w->m = m;
  for (int i = 0; i < m; i++) {
    w->place[i] = L->place[dims[i]];
    w->digit[i] = 0;
  }
  w->offset = 0;
}

/* Advance to the next assignment; 0 after the last one (the walk is then back at 0). */
static int walk_next(dims_walk *w, int64_t N) {
  for (int i = 0; i < w->m; i++) {
    if (++w->digit[i] < N) {
      w->offset += w->place[i];
      return 1;
    }
    w->digit[i] = 0;
    w->offset -= (N - 1) * w->place[i];
  }
  return 0;
}

/* What sub-schedule r does in phase p: moves along dimension `dim`, with the visited and
   unvisited dimensions listed. */
typedef struct phase_plan {
  int dim;
  int visited[MAX_DIMS], nvisited;
  int unvisited[MAX_DIMS], nunvisited;
} phase_plan;

static void plan_phase(int k, int r, int p, phase_plan *plan) {
  plan->dim = (r + p) % k;
  plan->nvisited = plan->nunvisited = 0;
  for (int q = 0; q < p; q++) plan->visited[plan->nvisited++] = (r + q) % k;
  for (int q = p + 1; q < k; q++) plan->unvisited[plan->nunvisited++] = (r + q) % k;
}

/* All transfers of one base transfer x in phase p of sub-schedule r. */
static int emit_phase_copies(const tc_graph *g, const tc_graph *pg, const power_layout *L, const phase_plan *plan,
                             int r, int32_t step, int64_t units, const tc_transfer *x, tc_schedule *out,
                             tc_error *err) {
  int64_t base_sender = g->src[x->arc] * L->place[plan->dim], base_shard = x->shard * L->place[plan->dim];
  int64_t lo = r * units + x->lo, hi = r * units + x->hi;
  dims_walk z, y, v;
  walk_start(&z, L, plan->unvisited, plan->nunvisited);
  walk_start(&y, L, plan->visited, plan->nvisited);
  walk_start(&v, L, plan->visited, plan->nvisited);
  do {
    do {
      int64_t s = base_sender + y.offset + z.offset;
      int64_t arc = power_arc(g, pg, L, s, plan->dim, x->arc);
      do {
        int rc = tc_schedule_add(out, (int32_t)(base_shard + v.offset + z.offset), arc, step, lo, hi, err);
        if (rc) return rc;
      } while (walk_next(&v, L->N));
    } while (walk_next(&y, L->N));
  } while (walk_next(&z, L->N));
  return TC_OK;
}

static int emit_all(const tc_graph *g, const tc_graph *pg, const power_layout *L, const tc_schedule *base,
                    tc_schedule *out, tc_error *err) {
  for (int p = 0; p < L->k; p++)
    for (int64_t i = 0; i < base->count; i++)
      for (int r = 0; r < L->k; r++) {
        phase_plan plan;
        plan_phase(L->k, r, p, &plan);
        int32_t step = base->xfer[i].step + p * base->steps;
        int rc = emit_phase_copies(g, pg, L, &plan, r, step, base->units, &base->xfer[i], out, err);
        if (rc) return rc;
      }
  return TC_OK;
}

int tc_schedule_power(const tc_graph *g, const tc_schedule *ag, int64_t k, const tc_graph *pg, tc_schedule *out,
                      tc_error *err) {
  memset(out, 0, sizeof *out);
  power_layout L = {0};
  int rc = tci_xs_check_base(POWER, g, ag, err);
  if (!rc) rc = check_size(g, k, pg, &L, err);
  if (rc) return rc;
  int64_t steps, units, count;
  rc = tci_xs_mul(POWER, "the step count", ag->steps, k, &steps, err);
  if (!rc && steps > INT32_MAX) rc = tc_error_set(err, TC_ERANGE, "power: %" PRId64 " steps are too many", steps);
  if (!rc) rc = tci_xs_mul(POWER, "the units per shard", ag->units, k, &units, err);
  if (!rc) rc = count_transfers(ag, &L, &count, err);
  if (!rc) rc = build_layout(g, pg, &L, err);
  if (rc) return rc;

  tc_schedule base;
  rc = tci_xs_working_copy(ag, 1, &base, err);
  if (!rc) {
    rc = tci_xs_start(POWER, pg->n, units, count, out, err);
    if (!rc) rc = emit_all(g, pg, &L, &base, out, err);
    tc_schedule_destroy(&base);
  }
  layout_destroy(&L);
  if (rc) { tc_schedule_destroy(out); return rc; }
  out->steps = (int32_t)steps;
  return TC_OK;
}
