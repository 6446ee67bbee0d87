/*
** tsmcf.c — the time-stepped MCF of paper 003 §3.1.3, eqs. (15)-(20), source-aggregated,
** and its exact lowering to a step schedule (contract in a2a_flows.h).
**
** Variables x_{s,a,t} >= 0: all of source s's data sent over arc a = (u,v) in step t, and
** U_t, the step's largest load / capacity. Per source s:
**   (15)  minimize Σ_t U_t
**   (16)  Σ_s x_{s,a,t} − c_a U_t <= 0                                 every arc a, step t
**   (17)  Σ_{t'<=t} out_s(u,t') − Σ_{t''<t} in_s(u,t'') <= 0          u ≠ s, every t >= 1
**   (18/19) Σ_t in_s(u,t) − Σ_t out_s(u,t) = 1                        u ≠ s
** (17) for t >= 1 (the paper prints t > 1, which lets a relay forward in the step it
** receives, against the time-expanded graph u_t -> v_{t+1}); (18) only at nodes other than
** the ends, which aggregating by source makes automatic: a node u ≠ s keeps exactly one
** shard of s's data, its own, and forwards the rest; nothing enters s (no variable for an
** arc into s). (19)'s "the source sends N−1" follows from the others. The per-destination
** split of the digest's master/child form is not an LP here: a flow on the time-expanded
** DAG decomposes into time-respecting paths, done exactly in integers (tsmcf_lower.c).
** A variable exists only where it can carry data: u at distance <= t−1 from s.
**
** Ties: Σ_t U_t has many optimal vertices (a commodity of slack may move a step later, or
** take a longer way where a step has room), so a second LP, at Σ_t U_t <= the optimum,
** takes the least Σ_t t·U_t + Σ x: no more hops than needed and load as early as it can
** go. That makes the per-step loads a property of the graph rather than of the solver, and
** its vertex is sparse, with small denominators (measured: Clp's first vertex on the 3x3x3
** torus needs a common denominator beyond 2^31, the second one 48), which is what exact
** chunking needs.
*/
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "a2a/a2a_internal.h"
#include "a2a/flows_internal.h"
#include "core/intmath.h"
#include "forest/lp_exact.h"
#include "topocoll/metrics.h"

void tc_a2a_flow_options_default(tc_a2a_flow_options *o) {
  memset(o, 0, sizeof *o);
  o->engine = TC_A2A_CLP;
  o->paths = TC_A2A_PATHS_DISJOINT;
}

void tc_a2a_tsmcf_destroy(tc_a2a_tsmcf *t) {
  if (!t) return;
  free(t->step_load);
  memset(t, 0, sizeof *t);
}

int tci_a2a_flows_check(const tc_graph *g, const char *what, tc_error *err) {
  tc_a2a_options o;
  tc_a2a_options_default(&o);
  int rc = tci_a2a_check(g, &o, err);
  if (!rc && g->n > TC_ALLTOALL_MAX_NODES)
    rc = tc_error_set(err, TC_ERANGE, "alltoall on %d nodes: at most %d nodes (N*N shards fit an int32)", g->n,
                      TC_ALLTOALL_MAX_NODES);
  if (rc) tc_error_prefix(err, "%s", what);
  return rc;
}

/* The model's shape: which (s, a, t) has a column, where each row starts. */
typedef struct ts_model {
  int32_t n, L;
  int64_t m;
  int32_t *dist;      /* n·n: dist[s·n + u] hops from s to u */
  int64_t *cap_row;   /* m: first of the arc's L capacity rows, or −1 (a loop) */
  int64_t *cause_row; /* n·n: row of (s,u) at step dist+1 (the first with out-variables), or −1 */
  int64_t dem0, rows; /* demand rows from dem0; rows in all (without the tie-break row) */
  int64_t cols;       /* L U-columns, then the x columns */
  int32_t *col_s;
  int64_t *col_a;
  int32_t *col_t;
} ts_model;

static void model_destroy(ts_model *M) {
  free(M->dist), free(M->cap_row), free(M->cause_row), free(M->col_s), free(M->col_a), free(M->col_t);
  memset(M, 0, sizeof *M);
}

static int has_col(const tc_graph *g, const ts_model *M, int32_t s, int64_t a, int32_t t) {
  int32_t u = g->src[a], v = g->dst[a];
  return u != v && v != s && M->dist[(int64_t)s * M->n + u] <= t - 1;
}

/* Distances, row numbering, the list of columns; TC_ERANGE beyond the limits. */
static int model_shape(const tc_graph *g, int32_t L, ts_model *M, tc_error *err) {
  const int32_t n = g->n;
  const int64_t m = g->m;
  M->n = n, M->L = L, M->m = m;
  M->dist = malloc(sizeof *M->dist * (size_t)n * (size_t)n);
  M->cap_row = malloc(sizeof *M->cap_row * (size_t)(m > 0 ? m : 1));
  M->cause_row = malloc(sizeof *M->cause_row * (size_t)n * (size_t)n);
  if (!M->dist || !M->cap_row || !M->cause_row) return tc_error_set(err, TC_ENOMEM, "mcf: out of memory");
  for (int32_t s = 0; s < n; s++) {
    int rc = tc_graph_bfs(g, s, TC_OUT, M->dist + (int64_t)s * n, err);
    if (rc) return rc;
  }
  int64_t r = 0;
  for (int64_t a = 0; a < m; a++) M->cap_row[a] = g->src[a] == g->dst[a] ? -1 : (r += L) - L;
  for (int32_t s = 0; s < n; s++)
    for (int32_t u = 0; u < n; u++) {
      int32_t d = M->dist[(int64_t)s * n + u];
      int64_t *c = &M->cause_row[(int64_t)s * n + u];
      *c = -1;
      if (u != s && d + 1 <= L) *c = r, r += L - d;
    }
  M->dem0 = r;
  M->rows = r + (int64_t)n * (n - 1);
  int64_t cols = L;
  for (int32_t s = 0; s < n; s++)
    for (int64_t a = 0; a < m; a++)
      for (int32_t t = 1; t <= L; t++) cols += has_col(g, M, s, a, t);
  if (cols > TC_A2A_TSMCF_MAX_COLS || M->rows + 1 > INT32_MAX)
    return tc_error_set(err, TC_ERANGE, "mcf: the time-expanded LP would have %lld columns (at most %d: N = %d, "
                        "%d steps)", (long long)cols, TC_A2A_TSMCF_MAX_COLS, n, L);
  M->cols = cols;
  M->col_s = malloc(sizeof *M->col_s * (size_t)cols);
  M->col_a = malloc(sizeof *M->col_a * (size_t)cols);
  M->col_t = malloc(sizeof *M->col_t * (size_t)cols);
  if (!M->col_s || !M->col_a || !M->col_t) return tc_error_set(err, TC_ENOMEM, "mcf: out of memory");
  int64_t c = L;
  for (int32_t s = 0; s < n; s++)
    for (int64_t a = 0; a < m; a++)
      for (int32_t t = 1; t <= L; t++)
        if (has_col(g, M, s, a, t)) M->col_s[c] = s, M->col_a[c] = a, M->col_t[c] = t, c++;
  return TC_OK;
}

#define DEM(M, s, u) ((M)->dem0 + (int64_t)(s) * ((M)->n - 1) + ((u) < (s) ? (u) : (u) - 1))

/* Build and solve one LP of the model. tie_break: the second LP (least Σ t·U_t at
   Σ U_t <= bound). On TCI_LP_OPTIMAL, x (cols) receives the primal and *obj the objective. */
static int solve_model(const tc_graph *g, const ts_model *M, tci_lp_engine engine, double time_limit, int tie_break,
                       double bound, double *x, double *obj_out, tci_lp_status *st, tc_error *err) {
  const int32_t n = M->n, L = M->L;
  const int64_t rows = M->rows + (tie_break ? 1 : 0), cols = M->cols;
  double *lo = malloc(sizeof *lo * (size_t)rows), *hi = malloc(sizeof *hi * (size_t)rows);
  double *obj = calloc((size_t)cols, sizeof *obj);
  int64_t *start = malloc(sizeof *start * ((size_t)cols + 1));
  /* an x column: 1 capacity row, <= 2L causality rows, 2 demand rows; a U column: its
     step's capacity rows and the tie-break row */
  int64_t nnz = (cols - L) * (2 * (int64_t)L + 3) + (int64_t)M->m * L + L;
  int32_t *row = malloc(sizeof *row * (size_t)nnz);
  double *val = malloc(sizeof *val * (size_t)nnz);
  tci_lp_model *lp = NULL;
  int rc = TC_OK;
  if (!lo || !hi || !obj || !start || !row || !val) {
    rc = tc_error_set(err, TC_ENOMEM, "mcf: out of memory for the time-expanded LP");
    goto done;
  }
  for (int64_t r = 0; r < M->dem0; r++) lo[r] = -TCI_LP_INF, hi[r] = 0;
  for (int64_t r = M->dem0; r < M->rows; r++) lo[r] = hi[r] = 1;
  if (tie_break) lo[M->rows] = -TCI_LP_INF, hi[M->rows] = bound;
  int64_t k = 0;
  start[0] = 0;
  for (int32_t t = 1; t <= L; t++) { /* U_t */
    obj[t - 1] = tie_break ? t : 1;
    for (int64_t a = 0; a < M->m; a++)
      if (M->cap_row[a] >= 0) row[k] = (int32_t)(M->cap_row[a] + t - 1), val[k++] = -(double)g->cap[a];
    if (tie_break) row[k] = (int32_t)M->rows, val[k++] = 1;
    start[t] = k;
  }
  for (int64_t c = L; c < cols; c++) {
    int32_t s = M->col_s[c], t = M->col_t[c];
    int64_t a = M->col_a[c];
    int32_t u = g->src[a], v = g->dst[a];
    row[k] = (int32_t)(M->cap_row[a] + t - 1), val[k++] = 1;
    if (u != s) { /* (17): counts in u's out-sums from step t on */
      int32_t du = M->dist[(int64_t)s * n + u];
      for (int32_t t2 = t; t2 <= L; t2++) row[k] = (int32_t)(M->cause_row[(int64_t)s * n + u] + t2 - du - 1), val[k++] = 1;
      row[k] = (int32_t)DEM(M, s, u), val[k++] = -1;
    }
    int32_t dv = M->dist[(int64_t)s * n + v];
    for (int32_t t2 = t + 1; t2 <= L; t2++) /* in v's in-sums of later steps */
      if (t2 >= dv + 1) row[k] = (int32_t)(M->cause_row[(int64_t)s * n + v] + t2 - dv - 1), val[k++] = -1;
    row[k] = (int32_t)DEM(M, s, v), val[k++] = 1;
    obj[c] = tie_break ? 1 : 0;
    start[c + 1] = k;
  }
  if ((rc = tci_lp_create(engine, 0, &lp, err))) goto done;
  tci_lp_set_time_limit(lp, time_limit);
  if ((rc = tci_lp_add_rows(lp, (int32_t)rows, lo, hi, NULL, NULL, NULL, err))) goto done;
  if ((rc = tci_lp_add_cols(lp, (int32_t)cols, obj, NULL, NULL, start, row, val, err))) goto done;
  if ((rc = tci_lp_optimize(lp, st, err))) goto done;
  if (*st == TCI_LP_OPTIMAL) {
    memcpy(x, tci_lp_primal(lp), sizeof *x * (size_t)cols);
    *obj_out = tci_lp_objective(lp);
  }
done:
  tci_lp_free(lp);
  free(lo), free(hi), free(obj), free(start), free(row), free(val);
  return rc;
}

/* Source s's rationalized flow must be exactly what the LP promised: nothing sent before it
   arrived (17) and exactly D units kept at every other node (18). */
static int check_source(const tc_graph *g, int32_t s, int32_t L, int64_t D, const int64_t *units, int64_t *held,
                        tc_error *err) {
  const int32_t n = g->n;
  for (int32_t u = 0; u < n; u++) held[u] = u == s ? (int64_t)(n - 1) * D : 0;
  int64_t *in = held + n; /* n more */
  for (int32_t t = 1; t <= L; t++) {
    memset(in, 0, sizeof *in * (size_t)n);
    for (int32_t u = 0; u < n; u++)
      for (int64_t a = g->out_off[u]; a < g->out_off[u + 1]; a++) {
        int64_t x = units[a * L + t - 1];
        if (!x) continue;
        held[u] -= x;
        in[g->dst[a]] += x; /* at most (n−1)·D <= 2^47: no overflow */
      }
    for (int32_t u = 0; u < n; u++) {
      if (held[u] < 0)
        return tc_error_set(err, TC_EFAIL, "mcf: the LP's flows, made exact, send more from node %d than it holds of "
                            "source %d's data in step %d", u, s, t);
      held[u] += in[u];
    }
  }
  for (int32_t u = 0; u < n; u++)
    if (held[u] != (u == s ? 0 : D))
      return tc_error_set(err, TC_EFAIL, "mcf: the LP's flows, made exact, leave node %d with %lld/%lld of source "
                          "%d's data instead of %s", u, (long long)held[u], (long long)D, s, u == s ? "none" : "one shard");
  return TC_OK;
}

/* The flows as integers over one denominator D: each value the fraction of denominator
   <= 2^16 nearest to it (continued fractions), accepted within 1e-6 relative — looser than
   the certificate's rationalization, because nothing here is trusted: check_source then
   verifies causality and delivery exactly, and the loads are computed from these integers.
   Returns 1 when some value has no such fraction or D would exceed 2^31. */
static int recover(const double *x, int64_t count, int64_t *units, int64_t *D) {
  int64_t L = 1;
  for (int pass = 0; pass < 2; pass++)
    for (int64_t i = 0; i < count; i++) {
      tc_rat r = {0, 1};
      if (x[i] > 1e-9 && (tci_lp_recover(x[i], 65536, &r) || fabs((double)r.num / (double)r.den - x[i]) > 1e-6 * (x[i] > 1 ? x[i] : 1)))
        return 1;
      if (pass == 0) {
        int64_t l2;
        if (tci_mul64(L / tci_gcd64(L, r.den), r.den, &l2) || l2 > ((int64_t)1 << 31)) return 1;
        L = l2;
      } else if (tci_mul64(r.num, L / r.den, &units[i])) {
        return 1;
      }
    }
  *D = L;
  return 0;
}

int tc_a2a_tsmcf_schedule(const tc_graph *g, const tc_a2a_flow_options *o, tc_schedule *out, tc_a2a_tsmcf *info,
                          tc_error *err) {
  memset(out, 0, sizeof *out);
  if (info) memset(info, 0, sizeof *info);
  tc_a2a_flow_options def;
  if (!o) tc_a2a_flow_options_default(&def), o = &def;
  int rc = tci_a2a_flows_check(g, "mcf", err);
  if (rc) return rc;
  int32_t diam;
  if ((rc = tc_graph_diameter(g, &diam, err))) return rc;
  if (o->lmax < 0 || (o->lmax > 0 && o->lmax < diam))
    return tc_error_set(err, TC_EINPUT, "mcf: %d steps are fewer than the diameter %d (some pair needs %d hops)",
                        o->lmax, diam, diam);
  if (o->lmax > 4096) return tc_error_set(err, TC_ERANGE, "mcf: at most 4096 steps (got %d)", o->lmax);
  const int32_t L = o->lmax ? o->lmax : diam, n = g->n;
  const int64_t m = g->m;
  const tci_lp_engine engine = o->engine == TC_A2A_GLPK ? TCI_LP_GLPK : TCI_LP_CLP;
  ts_model M = {0};
  double *x = NULL, *x2 = NULL;
  int64_t *units = NULL, *flow = NULL, *held = NULL, *load = NULL, D = 1;
  tc_rat *step_load = NULL;
  if ((rc = model_shape(g, L, &M, err))) goto fail;
  x = malloc(sizeof *x * (size_t)M.cols);
  x2 = malloc(sizeof *x2 * (size_t)M.cols);
  if (!x || !x2) {
    rc = tc_error_set(err, TC_ENOMEM, "mcf: out of memory");
    goto fail;
  }
  tci_lp_status st;
  double obj, obj2;
  if ((rc = solve_model(g, &M, engine, o->time_limit, 0, 0, x, &obj, &st, err))) goto fail;
  if (st != TCI_LP_OPTIMAL) {
    rc = tc_error_set(err, TC_EFAIL, "mcf: the time-expanded LP (%s): %s", tci_lp_engine_name(engine),
                      tci_lp_status_name(st));
    goto fail;
  }
  /* the tie-break; if the solver cannot finish it, the first optimum stands */
  if ((rc = solve_model(g, &M, engine, o->time_limit, 1, obj * (1 + 1e-9) + 1e-12, x2, &obj2, &st, err))) goto fail;
  if (st == TCI_LP_OPTIMAL) memcpy(x, x2, sizeof *x * (size_t)M.cols);
  units = malloc(sizeof *units * (size_t)M.cols);
  if (!units) {
    rc = tc_error_set(err, TC_ENOMEM, "mcf: out of memory");
    goto fail;
  }
  if (recover(x + L, M.cols - L, units + L, &D)) {
    rc = tc_error_set(err, TC_ERANGE, "mcf: the time-expanded LP's flows have no exact common denominator up to 2^31, "
                      "so no exact chunking of the shard exists for them");
    goto fail;
  }
  if ((rc = tc_schedule_init(out, TC_COLL_ALLTOALL, n, D, "mcf", err))) goto fail;
  flow = calloc((size_t)(m > 0 ? m : 1) * (size_t)L, sizeof *flow);
  held = malloc(sizeof *held * 2 * (size_t)n);
  load = calloc((size_t)(m > 0 ? m : 1) * (size_t)L, sizeof *load);
  step_load = calloc((size_t)L, sizeof *step_load);
  if (!flow || !held || !load || !step_load) {
    rc = tc_error_set(err, TC_ENOMEM, "mcf: out of memory");
    goto fail;
  }
  /* columns are grouped by source: one source's flow at a time */
  for (int64_t c = L; c < M.cols;) {
    const int32_t s = M.col_s[c];
    memset(flow, 0, sizeof *flow * (size_t)m * (size_t)L);
    for (; c < M.cols && M.col_s[c] == s; c++) {
      int64_t i = M.col_a[c] * L + M.col_t[c] - 1;
      flow[i] = units[c];
      if (tci_add64(load[i], units[c], &load[i])) {
        rc = tc_error_set(err, TC_ERANGE, "mcf: the load of arc %lld in step %d overflows", (long long)M.col_a[c],
                          M.col_t[c]);
        goto fail;
      }
    }
    if ((rc = check_source(g, s, L, D, flow, held, err))) goto fail;
    if ((rc = tci_a2a_tsmcf_lower_source(g, s, L, D, flow, out, err))) goto fail;
  }
  if (info) {
    /* U_t exactly: the largest load / (D · capacity) of step t */
    tc_rat total = {0, 1};
    for (int32_t t = 1; t <= L && !rc; t++) {
      tc_rat best = {0, 1};
      for (int64_t a = 0; a < m && !rc; a++) {
        tc_rat r;
        int64_t den;
        if (!load[a * L + t - 1]) continue;
        if (tci_mul64(D, g->cap[a], &den)) rc = tc_error_set(err, TC_ERANGE, "mcf: D * capacity overflows");
        else if (!(rc = tc_rat_make(load[a * L + t - 1], den, &r, err)) && tc_rat_cmp(r, best) > 0) best = r;
      }
      step_load[t - 1] = best;
      if (!rc) rc = tc_rat_add(total, best, &total, err);
    }
    if (rc) goto fail;
    info->steps = L;
    info->step_load = step_load, step_load = NULL;
    info->total = total;
    info->units = D;
    info->lp_rows = M.rows;
    info->lp_cols = M.cols;
  }
  model_destroy(&M);
  free(x), free(x2), free(units), free(flow), free(held), free(load), free(step_load);
  return TC_OK;
fail:
  model_destroy(&M);
  free(x), free(x2), free(units), free(flow), free(held), free(load), free(step_load);
  tc_schedule_destroy(out);
  return rc;
}
