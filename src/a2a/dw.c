/*
** dw.c — the all-to-all MCF by Dantzig–Wolfe column generation over per-source routing
** trees (method "dw", contract in a2a_internal.h).
**
** The restricted master (an LP on the engine of lp.h):
**   minimize z   s.t.   Σ_{r,k} λ_{r,k} L_{r,k}(A) <= z·c_A   every arc class A
**                       Σ_k λ_{r,k} = 1                       every source representative r
** Without symmetry every node is a representative and every arc (loops aside) a class;
** with a free automorphism group H (sym.h) the representatives are one node per orbit, the
** classes the arc orbits, and L_{r,k}(A) sums the tree's loads over the arcs of A. Column
** (r,k) is the load vector of routing one unit from r to every other node along a tree (a
** tree arc carries the number of sinks below it). The optimum over ALL trees is z* = 1/F*:
** a single-source flow is a convex combination of tree flows (a network's basic flows are
** trees), so this is the master LP (6)-(9) of paper 003 §3.1.2 written over trees.
**
** Pricing. With arc lengths l_a = −y_{A(a)} >= 0 from the capacity rows' duals and μ_r from
** the convexity rows, a tree's reduced cost is Σ_a L(a) l_a − μ_r, least for a shortest-path
** tree: one Dijkstra per representative (sptree.h). The same trees bound z* from below for
** any l >= 0: z* >= Σ_{s≠t} dist_l(s,t) / Σ_a c_a l_a (weak duality; the certificate's upper
** bound on F), and every master solution is a routing of congestion z, so
** 1/z <= F* <= Σ c l / Σ dist_l: the loop stops when the gap is small enough.
**
** What keeps it fast. The master's columns are dense (a tree touches N−1 arcs), so each
** simplex iteration costs O(rows²) and a solve thousands of them: measured (perf), the
** master is ~98 % of the time without symmetry, pricing (N Dijkstras) ~1 ms a round at
** N = 128 and 0.06 s at N = 1024. So:
**   - large masters (FW_ROWS rows and more) start with the first-order phase of dw_fw.c,
**     which only prices and moves weight between trees (no LP) to gap HANDOFF_GAP; above
**     MASTER_ROWS rows the master is never built (it would take minutes per solve) and the
**     phase runs to the end, unless it stalls with no deadline set (then the master takes
**     over: it converges); measured (CPU): genkautz(4,1000) to 1 % in 1.3 s instead of 18,
**     jellyfish(128,4) to 1e-4 in 27 s instead of 46, N = 1000 without symmetry to 1 % in
**     about 30 s, where the first master alone took minutes (docs/alltoall.md, Scaling);
**   - a multiplicative-weights warm start: WARM rounds route every representative on
**     shortest trees under lengths that grow exponentially with the current routing's
**     congestion, adding each tree; the first master then mixes many good trees, and the
**     best bound seen is a good dual from the start (the first lengths, 1/c, give the
**     distance bound);
**   - Wentges' dual smoothing: trees are priced at α·l_best + (1−α)·l_master, l_best the
**     lengths of the best bound so far, which damps the oscillation of the master's duals;
**     a round whose trees do not improve the master at its own duals prices again at
**     l_master (α = 0), so convergence is kept;
**   - columns unused for DROP_AFTER rounds are deleted when the pool is large; duplicate
**     trees are not added; the master is warm-started (primal simplex) after each change.
**   - after the first-order phase the master gets its routing (the pool with its weights)
**     and the multiplicative-weights trees, and Wentges' center is the phase's best bound.
** A time limit ends the loop with the last optimal master, or the first-order phase's
** routing when no master finished after it (never an error).
**
** The answer: λ as small-denominator fractions when the master's vertex allows (small
** graphs), else on a 2^30 grid per representative with the rounding given to the largest
** remainders, so Σ_k λ_{r,k} is exactly 1 either way; the flows Σ_k λ_{r,k} L_{r,k} are then
** integers over one denominator that conserve exactly and deliver one shard to every sink,
** expanded to every source by the group (f_{h(r)} = h(f_r)) for certify.c to check on the
** full graph.
*/
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "a2a/a2a_internal.h"
#include "a2a/dw_internal.h"
#include "a2a/sym.h"
#include "core/budget.h"
#include "core/intmath.h"
#include "forest/lp_exact.h"

#define WARM 12            /* multiplicative-weights rounds before the first master */
#define WARM_RATE 2.0      /* lengths grow by exp(WARM_RATE · load/(c · largest load/c)) */
#define ALPHA 0.5          /* weight of the best lengths in the smoothed pricing point */
#define DROP_AFTER 8       /* rounds a column may stay at zero before it may be deleted */
#define POOL_PER_ROW 3     /* deletion starts when the pool exceeds this many columns per row */
#define RC_TOL 1e-9        /* relative reduced cost below which a tree does not improve */
#define POLISH 20          /* rounds at the master's own duals after the gap is met (gap <= 1e-6) */
#define FW_ROWS 400        /* masters of at least this many rows start with the first-order phase */
#define MASTER_ROWS 1024   /* ... and above this many rows build the master only if the phase stalls */
#define HANDOFF_GAP 1e-2   /* the gap at which the first-order phase hands over to the master */
#define GRID ((int64_t)1 << 30)
#define MAXDEN 65536

static void dw_free(tci_dw *d) {
  tci_lp_free(d->lp);
  tci_dw_pool_free(&d->cols);
  free(d->t_arc), free(d->t_load), free(d->t_len), free(d->t_cost), free(d->t_rc), free(d->t_hash);
  free(d->l_master), free(d->l_best), free(d->l_price), free(d->mu);
}

/* Pool columns from..count-1 as master columns: loads summed per class, then the
   representative's convexity row. */
static int lp_add_pool(tci_dw *d, int64_t from, tc_error *err) {
  tci_dw_pool *p = &d->cols;
  int64_t count = p->count - from, entries = p->start[p->count] - p->start[from] + count;
  if (count <= 0) return TC_OK;
  int64_t *start = malloc(sizeof *start * (size_t)(count + 1));
  int32_t *row = malloc(sizeof *row * (size_t)entries);
  double *val = malloc(sizeof *val * (size_t)entries), *obj = calloc((size_t)count, sizeof *obj);
  double *acc = calloc((size_t)(d->rows > 0 ? d->rows : 1), sizeof *acc);
  if (!start || !row || !val || !obj || !acc) {
    free(start), free(row), free(val), free(obj), free(acc);
    return tc_error_set(err, TC_ENOMEM, "a2a dw: out of memory for %lld columns", (long long)p->count);
  }
  int64_t k = 0;
  for (int64_t j = from; j < p->count; j++) {
    start[j - from] = k;
    for (int64_t e = p->start[j]; e < p->start[j + 1]; e++) {
      int32_t r = d->sym->arc_class[p->arc[e]];
      if (acc[r] == 0) row[k++] = r;
      acc[r] += p->load[e];
    }
    for (int64_t q = start[j - from]; q < k; q++) val[q] = acc[row[q]], acc[row[q]] = 0;
    row[k] = d->rows - d->nreps + p->src[j], val[k++] = 1;
  }
  start[count] = k;
  int rc = tci_lp_add_cols(d->lp, (int32_t)count, obj, NULL, NULL, start, row, val, err);
  free(start), free(row), free(val), free(obj), free(acc);
  return rc;
}

/* Append the trees with take[i] as master columns (duplicates of a column of the same
   representative are skipped). */
static int add_columns(tci_dw *d, const uint8_t *take, tc_error *err) {
  int64_t from = d->cols.count;
  int rc = tci_dw_pool_append(d, take, NULL, err);
  return rc ? rc : lp_add_pool(d, from, err);
}

/* Solve the master. *limited = 1 when the time limit stopped it (its answer is then not
   used: the last optimal one stands; the first solve has no limit, so there is one). */
static int solve_master(tci_dw *d, double deadline, int *limited, tc_error *err) {
  *limited = 0;
  if (deadline > 0 && d->z > 0) { /* the first master always runs to its optimum: an answer */
    double left = deadline - omp_get_wtime();
    tci_lp_set_time_limit(d->lp, left > 0.01 ? left : 0.01);
  }
  tci_lp_status st;
  int rc = tci_lp_optimize(d->lp, &st, err);
  if (rc) return rc;
  if (st == TCI_LP_LIMIT && d->z > 0) {
    *limited = 1;
    return TC_OK;
  }
  if (st != TCI_LP_OPTIMAL)
    return tc_error_set(err, TC_EFAIL, "all-to-all dw master LP (%s): %s", tci_lp_engine_name(tci_lp_engine_of(d->lp)),
                        tci_lp_status_name(st));
  const double *x = tci_lp_primal(d->lp), *y = tci_lp_row_duals(d->lp);
  d->z = x[0];
  for (int64_t a = 0; a < d->m; a++) {
    int32_t r = d->sym->arc_class[a];
    d->l_master[a] = r >= 0 && y[r] < 0 ? -y[r] : 0;
  }
  for (int32_t i = 0; i < d->nreps; i++) d->mu[i] = y[d->rows - d->nreps + i];
  tci_dw_pool *p = &d->cols;
  for (int64_t j = 0; j < p->count; j++) {
    p->lam[j] = x[j + 1] > 0 ? x[j + 1] : 0;
    p->idle[j] = p->lam[j] > 1e-12 ? 0 : p->idle[j] + 1;
  }
  return TC_OK;
}

/* Delete long-idle columns when the pool is large (never one in use, never a
   representative's last). */
static int manage_pool(tci_dw *d, tc_error *err) {
  tci_dw_pool *p = &d->cols;
  if (p->count <= (int64_t)POOL_PER_ROW * d->rows) return TC_OK;
  uint8_t *keep = malloc((size_t)p->count);
  int32_t *which = malloc(sizeof *which * (size_t)p->count);
  int32_t *left = calloc((size_t)d->nreps, sizeof *left);
  if (!keep || !which || !left) {
    free(keep), free(which), free(left);
    return tc_error_set(err, TC_ENOMEM, "a2a dw: out of memory");
  }
  for (int64_t j = 0; j < p->count; j++) left[p->src[j]]++;
  int32_t count = 0;
  for (int64_t j = 0; j < p->count; j++) {
    keep[j] = !(p->idle[j] >= DROP_AFTER && p->lam[j] == 0 && left[p->src[j]] > 1);
    if (!keep[j]) left[p->src[j]]--, which[count++] = (int32_t)(j + 1);
  }
  int rc = count ? tci_lp_del_cols(d->lp, count, which, err) : TC_OK;
  if (!rc && count) tci_dw_pool_compact(p, keep);
  free(keep), free(which), free(left);
  return rc;
}

/* Exact weights: every λ a fraction of denominator <= MAXDEN, their common denominator
   <= 2^31 and each representative's sum exactly 1. Returns the denominator, or 0. */
static int64_t exact_weights(const tci_dw_pool *p, int32_t nreps, int64_t *w, int64_t *sum) {
  int64_t den = 1;
  tc_rat r;
  for (int64_t j = 0; j < p->count; j++) {
    if (p->lam[j] < 1e-12) continue;
    int64_t g, l2;
    if (tci_lp_recover(p->lam[j], MAXDEN, &r) || fabs((double)r.num / (double)r.den - p->lam[j]) > 1e-9) return 0;
    g = tci_gcd64(den, r.den);
    if (tci_mul64(den / g, r.den, &l2) || l2 > ((int64_t)1 << 31)) return 0;
    den = l2;
  }
  memset(sum, 0, sizeof *sum * (size_t)nreps);
  for (int64_t j = 0; j < p->count; j++) {
    w[j] = 0;
    if (p->lam[j] < 1e-12) continue;
    tci_lp_recover(p->lam[j], MAXDEN, &r);
    w[j] = r.num * (den / r.den);
    sum[p->src[j]] += w[j];
  }
  for (int32_t i = 0; i < nreps; i++)
    if (sum[i] != den) return 0;
  return den;
}

/* Grid weights: λ normalized per representative (the master keeps Σλ = 1, so the total is
   positive), floored on the 2^30 grid, and the units still missing given one each to the
   largest remainders (fewer units are missing than the representative has columns). */
static int grid_weights(const tci_dw_pool *p, int32_t nreps, int64_t *w, int64_t *sum) {
  int64_t *first = calloc((size_t)nreps + 1, sizeof *first), *order = malloc(sizeof *order * (size_t)(p->count + 1));
  double *total = calloc((size_t)nreps, sizeof *total), *share = malloc(sizeof *share * (size_t)(p->count + 1));
  if (!first || !order || !total || !share) {
    free(first), free(order), free(total), free(share);
    return 0;
  }
  for (int64_t j = 0; j < p->count; j++) first[p->src[j] + 1]++, total[p->src[j]] += p->lam[j];
  for (int32_t i = 0; i < nreps; i++) first[i + 1] += first[i];
  memset(sum, 0, sizeof *sum * (size_t)nreps);
  for (int64_t j = 0, *at = first; j < p->count; j++) order[at[p->src[j]]++] = j; /* at: moves first[] on */
  for (int32_t i = nreps; i > 0; i--) first[i] = first[i - 1];
  first[0] = 0;
  for (int64_t j = 0; j < p->count; j++) {
    int32_t i = p->src[j];
    double v = total[i] > 0 ? p->lam[j] / total[i] * (double)GRID : 0;
    w[j] = (int64_t)floor(v);
    share[j] = v - (double)w[j];
    sum[i] += w[j];
  }
  for (int32_t i = 0; i < nreps; i++)
    for (; sum[i] < GRID; sum[i]++) {
      int64_t best = -1;
      for (int64_t q = first[i]; q < first[i + 1]; q++)
        if (share[order[q]] >= 0 && (best < 0 || share[order[q]] > share[best])) best = order[q];
      if (best < 0) break; /* cannot happen: the floors leave fewer units than columns */
      w[best]++, share[best] = -1;
    }
  free(first), free(order), free(total), free(share);
  return 1;
}

/* The per-source flows (n·m units over *den) of the last optimal master, expanded by the
   group to every source. */
static int source_flows(const tci_dw *d, int64_t *units, int64_t *den, tc_error *err) {
  const tci_dw_pool *p = &d->cols;
  const tc_graph *g = d->g;
  int32_t n = d->n;
  int64_t m = d->m;
  int64_t *w = malloc(sizeof *w * (size_t)(p->count + 1)), *sum = malloc(sizeof *sum * (size_t)d->nreps);
  int ok = w && sum;
  if (ok && !(*den = exact_weights(p, d->nreps, w, sum))) {
    *den = GRID;
    ok = grid_weights(p, d->nreps, w, sum);
  }
  if (!ok) {
    free(w), free(sum);
    return tc_error_set(err, TC_ENOMEM, "a2a dw: out of memory");
  }
  memset(units, 0, sizeof *units * (size_t)n * (size_t)m);
  for (int64_t j = 0; j < p->count; j++) {
    if (!w[j]) continue;
    int64_t *row = units + (int64_t)d->sym->rep[p->src[j]] * m;
    for (int64_t e = p->start[j]; e < p->start[j + 1]; e++) row[p->arc[e]] += w[j] * p->load[e];
  }
  for (int32_t s = 0; s < n; s++) { /* s = h(r): f_s(h(a)) = f_r(a) */
    int32_t r = d->sym->rep[d->sym->rep_index[s]], h = d->sym->via[s];
    if (s == r) continue;
    const int64_t *from = units + (int64_t)r * m;
    int64_t *to = units + (int64_t)s * m;
    for (int64_t a = 0; a < m; a++)
      if (from[a]) to[tci_a2a_sym_arc(g, d->sym, h, a)] = from[a];
  }
  free(w), free(sum);
  return TC_OK;
}

/* Memory of the solve, checked before it is spent (the group is known by then; its search
   holds at most N² entries, TCI_A2A_SYM_MAX_NODES): the flows (n·m integers, twice while
   they are handed over), one round's trees (n-1 arcs and loads per representative), the
   group's elements, and the column pool with the LP's copies of it (POOL_PER_ROW + 1 columns
   per row, each of up to min(n, rows) entries, kept three times: ours, the LP's column copy
   and its row copy; it also covers dw_fw.c's pool, at most 24 trees of n−1 entries per
   representative, since rows >= 2·nreps). Measured peaks: genkautz(4,1000) 75 MB (estimate 101 MB),
   jellyfish(256,4) without a group 73 MB (estimate 52 MB). */
static int check_budget(const tc_graph *g, const tci_a2a_sym *sym, int64_t rows, tc_error *err) {
  double n = g->n, m = (double)g->m, entries = n < (double)rows ? n : (double)rows;
  double need = n * m * 16 + (double)sym->nreps * (n - 1) * 8 + (double)sym->order * n * 4 +
                (double)(POOL_PER_ROW + 1) * (double)rows * entries * 3 * 12;
  char detail[96];
  snprintf(detail, sizeof detail, "%d sources, %lld arcs", g->n, (long long)g->m);
  return tci_budget_check(need, "all-to-all column generation", detail, err);
}

/* The multiplicative-weights warm start: WARM rounds of trees under lengths that grow with
   the congestion of the previous round's routing, every tree a column. */
static int warm_start(tci_dw *d, uint8_t *take, tc_error *err) {
  const tc_graph *g = d->g;
  const tci_a2a_sym *sym = d->sym;
  int32_t n = d->n;
  double *load = calloc((size_t)(d->rows > 0 ? d->rows : 1), sizeof *load);
  if (!load) return tc_error_set(err, TC_ENOMEM, "a2a dw: out of memory");
  for (int64_t a = 0; a < d->m; a++) d->l_price[a] = 1.0 / (double)g->cap[a]; /* the distance bound's lengths */
  memset(take, 1, (size_t)d->nreps);
  int rc = TC_OK;
  for (int round = 0; round < WARM && !rc; round++) {
    if ((rc = tci_dw_price(d, err)) || (rc = add_columns(d, take, err))) break;
    tci_dw_keep_bound(d);
    /* this round's congestion per class, then the lengths */
    int32_t classes = d->rows - d->nreps;
    memset(load, 0, sizeof *load * (size_t)classes);
    for (int32_t i = 0; i < d->nreps; i++)
      for (int32_t k = 0; k < d->t_len[i]; k++) {
        int32_t arc = d->t_arc[(int64_t)i * (n - 1) + k];
        load[sym->arc_class[arc]] += d->t_load[(int64_t)i * (n - 1) + k];
      }
    double top = 0;
    for (int32_t r = 0; r < classes; r++) {
      load[r] /= (double)sym->class_cap[r];
      if (load[r] > top) top = load[r];
    }
    double scale = 0;
    for (int64_t a = 0; a < d->m; a++) {
      int32_t r = sym->arc_class[a];
      if (r >= 0) d->l_price[a] *= exp(WARM_RATE * load[r] / top);
      if (d->l_price[a] > scale) scale = d->l_price[a];
    }
    for (int64_t a = 0; a < d->m; a++) d->l_price[a] /= scale;
  }
  free(load);
  return rc;
}

int tci_a2a_dw_solve(const tc_graph *g, const tc_a2a_options *o, tci_a2a_dw_answer *out, tc_error *err) {
  memset(out, 0, sizeof *out);
  double t0 = omp_get_wtime(), deadline = o->time_limit > 0 ? t0 + o->time_limit : 0;
  if (o->host_cap.num > 0)
    return tc_error_set(err, TC_EINPUT, "the dw method takes no host cap (use --method lp for --host-cap)");
  int32_t n = g->n;
  int64_t m = g->m;
  if (m > INT32_MAX / 2)
    return tc_error_set(err, TC_ERANGE, "all-to-all dw: %lld arcs is too many", (long long)m);
  tci_a2a_sym sym = {0};
  tci_dw d = {.g = g, .sym = &sym, .n = n, .m = m, .threads = o->threads, .o = o};
  uint8_t *take = NULL;
  double *lo = NULL, *hi = NULL;
  int rc = o->symmetry ? tci_a2a_sym_find(g, 1, &sym, err) : tci_a2a_sym_trivial(g, &sym, err);
  if (rc) return rc;
  int32_t nreps = sym.nreps, classes = sym.nclasses;
  if ((rc = check_budget(g, &sym, (int64_t)classes + nreps, err))) {
    tci_a2a_sym_destroy(&sym);
    return rc;
  }
  d.nreps = nreps;
  d.rows = classes + nreps;
  size_t slots = (size_t)nreps * (size_t)(n - 1);
  d.t_arc = malloc(sizeof *d.t_arc * slots), d.t_load = malloc(sizeof *d.t_load * slots);
  d.t_len = malloc(sizeof *d.t_len * (size_t)nreps), d.t_cost = malloc(sizeof *d.t_cost * (size_t)nreps);
  d.t_rc = malloc(sizeof *d.t_rc * (size_t)nreps), d.t_hash = malloc(sizeof *d.t_hash * (size_t)nreps);
  d.l_master = calloc((size_t)m, sizeof *d.l_master), d.l_best = calloc((size_t)m, sizeof *d.l_best);
  d.l_price = calloc((size_t)m, sizeof *d.l_price), d.mu = calloc((size_t)nreps, sizeof *d.mu);
  take = malloc((size_t)nreps);
  lo = malloc(sizeof *lo * (size_t)d.rows), hi = malloc(sizeof *hi * (size_t)d.rows);
  out->units = malloc(sizeof *out->units * (size_t)n * (size_t)m);
  out->length = calloc((size_t)m, sizeof *out->length);
  if (!d.t_arc || !d.t_load || !d.t_len || !d.t_cost || !d.t_rc || !d.t_hash || !d.l_master || !d.l_best ||
      !d.l_price || !d.mu || !take || !lo || !hi || !out->units || !out->length) {
    rc = tc_error_set(err, TC_ENOMEM, "a2a dw: out of memory");
    goto done;
  }
  /* rows: classes (load - c·z <= 0), representatives (Σλ = 1); column z: −c_A per class */
  for (int32_t r = 0; r < d.rows; r++) lo[r] = r < classes ? -TCI_LP_INF : 1, hi[r] = r < classes ? 0 : 1;
  {
    int64_t zstart[2] = {0, classes};
    int32_t *zrow = malloc(sizeof *zrow * (size_t)(classes > 0 ? classes : 1));
    double *zval = malloc(sizeof *zval * (size_t)(classes > 0 ? classes : 1)), one = 1;
    if (!zrow || !zval) {
      free(zrow), free(zval);
      rc = tc_error_set(err, TC_ENOMEM, "a2a dw: out of memory");
      goto done;
    }
    for (int32_t r = 0; r < classes; r++) zrow[r] = r, zval[r] = -(double)sym.class_cap[r];
    rc = tci_lp_create(o->engine == TC_A2A_GLPK ? TCI_LP_GLPK : TCI_LP_CLP, 0, &d.lp, err);
    if (!rc) rc = tci_lp_add_rows(d.lp, d.rows, lo, hi, NULL, NULL, NULL, err);
    if (!rc) rc = tci_lp_add_cols(d.lp, 1, &one, NULL, NULL, zstart, zrow, zval, err);
    free(zrow), free(zval);
    if (rc) goto done;
  }
  if (d.rows >= FW_ROWS) { /* the first-order phase; the master after it only when small */
    int master = d.rows <= MASTER_ROWS, timed_out = 0, stalled = 0;
    double stop = master && o->gap < HANDOFF_GAP ? HANDOFF_GAP : o->gap;
    /* a stall hands a large master over only without a deadline (so that the solve ends):
       a cold solve of it can overrun a deadline by minutes, and the phase's routing is the
       answer there anyway */
    if ((rc = tci_dw_fw_run(&d, stop, deadline, master || deadline == 0, &timed_out, &stalled, err))) goto done;
    out->timed_out = timed_out;
    if (timed_out || d.z <= d.best_bound * (1 + o->gap) || !(master || stalled)) goto answer;
    /* the master from the phase's routing and the multiplicative-weights trees (both
       measured needed: genkautz(4,512) took 46 s of CPU without the latter, 13 with) */
    if ((rc = lp_add_pool(&d, 0, err)) || (rc = warm_start(&d, take, err))) goto done;
  } else if ((rc = warm_start(&d, take, err))) {
    goto done;
  }
  int stalled = 0, polish = 0;
  for (;;) {
    int limited;
    if ((rc = solve_master(&d, deadline, &limited, err))) goto done;
    if (limited) {
      out->timed_out = 1;
      break;
    }
    /* the pricing point: smoothed toward the best lengths, or the master's own */
    double alpha = stalled || polish ? 0 : ALPHA;
    for (int64_t a = 0; a < m; a++) d.l_price[a] = alpha * d.l_best[a] + (1 - alpha) * d.l_master[a];
    if ((rc = tci_dw_price(&d, err))) goto done;
    tci_dw_keep_bound(&d);
    int64_t count = 0;
    for (int32_t i = 0; i < nreps; i++) {
      take[i] = d.t_rc[i] < -RC_TOL * (fabs(d.mu[i]) > 1 ? fabs(d.mu[i]) : 1);
      count += take[i];
    }
    d.rounds++;
    double gap = d.best_bound > 0 ? d.z / d.best_bound - 1 : INFINITY;
    tci_dw_progress(&d);
    if (count == 0 && alpha == 0) { /* no tree improves the master: optimal over every tree */
      out->optimal = 1;
      break;
    }
    if (gap <= o->gap) { /* at a tight gap, go on at the master's own duals: exact answers */
      if (o->gap > 1e-6 || polish >= POLISH) break;
      polish++;
    }
    if (deadline > 0 && omp_get_wtime() >= deadline) {
      out->timed_out = 1;
      break;
    }
    stalled = count == 0; /* mispriced: price at the master's own duals next */
    if (count == 0) continue;
    if ((rc = manage_pool(&d, err)) || (rc = add_columns(&d, take, err))) goto done;
  }
answer:
  out->rounds = d.rounds;
  if ((rc = source_flows(&d, out->units, &out->den, err))) goto done;
  out->f = 1 / d.z;
  /* the certificate's lengths: the master's own at an optimum (exact on small graphs), else
     the best bound's; scaled to a largest length of 1 (the bound does not change, and the
     certificate's integer lengths, a grid of 2^-30 of the largest, keep the most digits) */
  memcpy(out->length, out->optimal ? d.l_master : d.l_best, sizeof *out->length * (size_t)m);
  double top = 0;
  for (int64_t a = 0; a < m; a++) top = out->length[a] > top ? out->length[a] : top;
  for (int64_t a = 0; top > 0 && a < m; a++) out->length[a] /= top;
  out->rows = d.rows;
  out->cols = d.cols.count + 1;
  out->group = sym.order;
done:
  if (rc) tci_a2a_dw_answer_destroy(out);
  dw_free(&d);
  tci_a2a_sym_destroy(&sym);
  free(take), free(lo), free(hi);
  return rc;
}

void tci_a2a_dw_answer_destroy(tci_a2a_dw_answer *a) {
  free(a->units);
  free(a->length);
  memset(a, 0, sizeof *a);
}
