/*
** dw_fw.c — the first-order phase of the column-generation solver: block-coordinate
** pairwise Frank–Wolfe on a smoothed congestion, without any LP (contract in
** dw_internal.h).
**
** Why: the restricted master's tree columns are dense (a tree touches N−1 arcs), so its
** simplex iterations cost O(rows²) and a solve needs thousands of them. Measured without
** symmetry (perf, jellyfish(128,4)): the master is ~98 % of dw's time (Clp's dense LU and
** its pricing of the pivot row), the N Dijkstras of a round ~1 ms; at 1279 rows
** (genkautz(4,1024)) the first master alone took 80 s of CPU. Pricing is what is cheap, so
** this phase does nothing but price and move weight between trees.
**
** The routing: every representative r mixes its pooled trees with weights λ_{r,k} >= 0
** summing to 1; u_A = Σ λ_{r,k} L_{r,k}(A) are the class loads and z = max_A u_A / c_A the
** congestion (F >= 1/z, what the certificate checks). The potential
**   Φ(u) = (1/η) log Σ_A exp(η u_A / c_A)
** is a smooth maximum, at most log(C)/η above z (C classes). Its gradient in u_A is
** proportional to l_A = exp(η u_A / c_A) / c_A, so at lengths l a representative's best
** tree to add weight to is a shortest-path tree — the Frank–Wolfe vertex — and l are also
** lengths for the certificate's dual bound.
**
** A round: price every representative at the current l (the round's bound, kept when best,
** as in dw.c), add each tree to the pool, then visit the representatives in order and, for
** each, up to INNER times, move weight from its worst tree with weight (largest l-length)
** to its best (smallest: the new tree or a pooled one) — a pairwise step, which can empty a
** column, so the pool stays small — by the amount that minimizes Φ exactly: a safeguarded
** Newton search on a convex function of one variable, O(N) per evaluation since only the
** arcs of the two trees change, and l is updated on those arcs at once (Gauss–Seidel).
**
** η follows the certified gap: η·z = log(C) / (THETA·gap), so the smoothing is a fixed
** multiple of what is left to prove, sharper as the gap closes (never relaxed). THETA = 4
** measured best of 0.1 … 16 on jellyfish(128,4) (10 s: gap 0.23 %, against 5 % at 0.1 and
** a stalled lower bound at 8 and above). Exponents are kept relative to the largest
** congestion at the last renormalization, so nothing overflows.
*/
#include <math.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "a2a/dw_internal.h"

#define THETA 4.0     /* smoothing = THETA · gap · z (above) */
#define INNER 3       /* pairwise steps per representative and round */
#define MAX_COLS 24   /* pooled trees per representative; beyond, the lightest is emptied */
#define RENORM 40.0   /* renormalize when an exponent exceeds this */
#define AVERAGE 3     /* every AVERAGE rounds, a bound at the average lengths too */
#define STALL 30      /* rounds (or a quarter of those so far, if more) without the gap shrinking
                         by 5 % that count as a stall: a 1/k tail is no stall */
#define BOOSTS 2      /* stalls answered by sharpening η fourfold before the phase gives up */

typedef struct fw {
  tci_dw *d;
  int32_t classes;
  double eta, ref, sum;  /* exponents η (u/c − ref); sum = Σ exp */
  double sharpen;        /* η's factor over the schedule, 4^(stalls so far) */
  double *cap, *u, *x, *l; /* classes: capacity, load, exponent, length exp(x)/c */
  double *avg, weight;   /* classes: Σ_k k · l_k / Σ c l_k over rounds k, and Σ_k k */
  double *dir;           /* classes: the step's direction, zero outside `touched` */
  uint8_t *in;           /* classes: 1 when in `touched` */
  int32_t *touched;
  int64_t *first, *order, *tree; /* the pool by representative; each one's tree this round */
  tci_dw_pool saved;     /* the routing before the last sharpening, when better than the current */
  double saved_z;        /* its congestion (INFINITY: none) */
} fw;

static void fw_free(fw *f) {
  free(f->cap), free(f->avg), free(f->u), free(f->x), free(f->l), free(f->dir), free(f->in), free(f->touched);
  free(f->first), free(f->order), free(f->tree);
  tci_dw_pool_free(&f->saved);
}

/* Exponents, sum and lengths from the loads, relative to the largest congestion. */
static void renormalize(fw *f) {
  double top = 0;
  for (int32_t A = 0; A < f->classes; A++) top = fmax(top, f->u[A] / f->cap[A]);
  f->ref = top, f->sum = 0;
  for (int32_t A = 0; A < f->classes; A++) {
    f->x[A] = f->eta * (f->u[A] / f->cap[A] - top);
    double e = exp(f->x[A]);
    f->l[A] = e / f->cap[A];
    f->sum += e;
  }
}

/* The l-length of pool column j. */
static double length(const fw *f, int64_t j) {
  const tci_dw_pool *p = &f->d->cols;
  const int32_t *cls = f->d->sym->arc_class;
  double s = 0;
  for (int64_t e = p->start[j]; e < p->start[j + 1]; e++)
    if (cls[p->arc[e]] >= 0) s += p->load[e] * f->l[cls[p->arc[e]]];
  return s;
}

/* Scatter sign·(column j) into dir. */
static int32_t scatter(fw *f, int64_t j, double sign, int32_t nt) {
  const tci_dw_pool *p = &f->d->cols;
  const int32_t *cls = f->d->sym->arc_class;
  for (int64_t e = p->start[j]; e < p->start[j + 1]; e++) {
    int32_t A = cls[p->arc[e]];
    if (A < 0) continue;
    if (!f->in[A]) f->touched[nt++] = A, f->in[A] = 1;
    f->dir[A] += sign * p->load[e];
  }
  return nt;
}

/* Φ'(γ) (times the normalization, sign exact) and Φ''(γ)/η along dir over touched; rest is
   the sum of exp over the untouched classes. */
static void slope(const fw *f, int32_t nt, double rest, double gamma, double *d1, double *d2) {
  double top = 0, total, h = 0, h2 = 0;
  if (gamma > 0) /* exponents may have grown past RENORM along the way: shift them */
    for (int32_t i = 0; i < nt; i++) {
      int32_t A = f->touched[i];
      double x = f->x[A] + f->eta * gamma * f->dir[A] / f->cap[A];
      top = x > top ? x : top;
    }
  total = top > 0 ? rest * exp(-top) : rest;
  for (int32_t i = 0; i < nt; i++) {
    int32_t A = f->touched[i];
    double s = f->dir[A] / f->cap[A];
    double w = gamma > 0 ? exp(f->x[A] + f->eta * gamma * s - top) : f->l[A] * f->cap[A]; /* l c = exp(x) */
    total += w, h += w * s, h2 += w * s * s;
  }
  *d1 = h / total;
  *d2 = h2 / total - *d1 * *d1;
}

/* Move weight from column `from` to column `to` of one representative: the amount that
   minimizes Φ, or all of it when forced. Returns 1 when weight moved. */
static int step(fw *f, int64_t to, int64_t from, int forced) {
  tci_dw_pool *p = &f->d->cols;
  int32_t nt = scatter(f, to, 1, 0);
  nt = scatter(f, from, -1, nt);
  double rest = f->sum, most = p->lam[from], gamma = most;
  for (int32_t i = 0; i < nt; i++) rest -= f->l[f->touched[i]] * f->cap[f->touched[i]];
  if (rest < 0) rest = 0;
  if (!forced) {
    double d1, d2, lo = 0, hi = most;
    slope(f, nt, rest, most, &d1, &d2);
    if (d1 > 0) { /* the minimum is inside: Newton, bisecting when it leaves the bracket */
      slope(f, nt, rest, 0, &d1, &d2);
      double first = fabs(d1);
      gamma = 0;
      for (int it = 0; it < 40 && d1 < 0 && hi - lo > 1e-12 * most; it++) {
        double next = d2 > 0 ? gamma - d1 / (f->eta * d2) : -1;
        gamma = next > lo && next < hi ? next : 0.5 * (lo + hi);
        slope(f, nt, rest, gamma, &d1, &d2);
        if (fabs(d1) <= 1e-6 * first) break; /* close enough: an exact minimum gains nothing here */
        if (d1 < 0) lo = gamma;
        else hi = gamma;
      }
    }
  }
  int moved = gamma > 0;
  if (moved) p->lam[to] += gamma, p->lam[from] = gamma >= most ? 0 : p->lam[from] - gamma;
  double top = 0;
  for (int32_t i = 0; i < nt; i++) {
    int32_t A = f->touched[i];
    if (moved) {
      f->u[A] += gamma * f->dir[A];
      if (f->u[A] < 0) f->u[A] = 0; /* rounding */
      double x = f->eta * (f->u[A] / f->cap[A] - f->ref), e = exp(x);
      f->sum += e - f->l[A] * f->cap[A];
      f->x[A] = x, f->l[A] = e / f->cap[A];
      top = x > top ? x : top;
    }
    f->dir[A] = 0, f->in[A] = 0;
  }
  if (top > RENORM) renormalize(f);
  return moved;
}

/* Add this round's lengths (normalized to Σ c l = 1) to the average, weighted by the round
   number, and every AVERAGE rounds price at the average for the bound alone. */
static int average_bound(fw *f, tc_error *err) {
  tci_dw *d = f->d;
  double cl = 0, w = (double)d->rounds;
  for (int32_t A = 0; A < f->classes; A++) cl += f->cap[A] * f->l[A];
  if (!(cl > 0)) return TC_OK;
  for (int32_t A = 0; A < f->classes; A++) f->avg[A] += w * f->l[A] / cl;
  f->weight += w;
  if (d->rounds % AVERAGE) return TC_OK;
  for (int64_t a = 0; a < d->m; a++) {
    int32_t A = d->sym->arc_class[a];
    d->l_price[a] = A >= 0 ? f->avg[A] / f->weight : 0;
  }
  int rc = tci_dw_price(d, err);
  if (!rc) tci_dw_keep_bound(d);
  return rc;
}

/* The pool by representative (CSR over first/order). */
static int index_pool(fw *f, tc_error *err) {
  const tci_dw_pool *p = &f->d->cols;
  int32_t nreps = f->d->nreps;
  int64_t *order = realloc(f->order, sizeof *order * (size_t)(p->count + 1));
  if (!order) return tc_error_set(err, TC_ENOMEM, "a2a dw: out of memory");
  f->order = order;
  memset(f->first, 0, sizeof *f->first * (size_t)(nreps + 1));
  for (int64_t j = 0; j < p->count; j++) f->first[p->src[j] + 1]++;
  for (int32_t i = 0; i < nreps; i++) f->first[i + 1] += f->first[i];
  for (int64_t j = 0; j < p->count; j++) order[f->first[p->src[j]]++] = j; /* first[i] moves to first[i+1] */
  for (int32_t i = nreps; i > 0; i--) f->first[i] = f->first[i - 1];
  f->first[0] = 0;
  return TC_OK;
}

/* One representative's steps of a round: empty its lightest tree while it has too many,
   then pairwise steps from the worst tree with weight to the best. Returns the moves. */
static int64_t visit(fw *f, int32_t i) {
  const tci_dw_pool *p = &f->d->cols;
  int64_t moves = 0, b = f->first[i], e = f->first[i + 1];
  for (int k = 0; k < INNER; k++) {
    int64_t best = -1, worst = -1, light = -1, live = 0;
    double lb = 0, lw = 0;
    for (int64_t q = b; q < e; q++) {
      int64_t j = f->order[q];
      double len = length(f, j);
      if (best < 0 || len < lb) best = j, lb = len;
      if (p->lam[j] > 0 && (worst < 0 || len > lw)) worst = j, lw = len;
      if (p->lam[j] > 0) live++, light = light < 0 || p->lam[j] < p->lam[light] ? j : light;
    }
    if (live > MAX_COLS && light != best) {
      moves += step(f, best, light, 1);
      continue;
    }
    if (worst < 0 || worst == best || lw - lb <= 1e-12 * lw) break;
    moves += step(f, best, worst, 0);
  }
  return moves;
}

int tci_dw_fw_run(tci_dw *d, double stop_gap, double deadline, int give_up, int *timed_out, int *stalled,
                  tc_error *err) {
  tci_dw_pool *p = &d->cols;
  int32_t nreps = d->nreps, classes = d->rows - nreps;
  size_t nc = classes > 0 ? (size_t)classes : 1;
  fw f = {.d = d, .classes = classes, .sharpen = 1, .saved_z = INFINITY};
  double best_gap = INFINITY;
  int since = 0, boosts = 0;
  f.cap = malloc(sizeof *f.cap * nc), f.avg = calloc(nc, sizeof *f.avg);
  f.u = calloc(nc, sizeof *f.u), f.x = calloc(nc, sizeof *f.x);
  f.l = calloc(nc, sizeof *f.l), f.dir = calloc(nc, sizeof *f.dir), f.in = calloc(nc, 1);
  f.touched = malloc(sizeof *f.touched * nc);
  f.first = malloc(sizeof *f.first * (size_t)(nreps + 1)), f.tree = malloc(sizeof *f.tree * (size_t)nreps);
  uint8_t *all = malloc((size_t)nreps), *keep = NULL;
  int rc = TC_OK;
  *timed_out = *stalled = 0;
  if (!f.cap || !f.avg || !f.u || !f.x || !f.l || !f.dir || !f.in || !f.touched || !f.first || !f.tree || !all) {
    rc = tc_error_set(err, TC_ENOMEM, "a2a dw: out of memory");
    goto done;
  }
  memset(all, 1, (size_t)nreps);
  for (int32_t A = 0; A < classes; A++) f.cap[A] = (double)d->sym->class_cap[A];
  for (int64_t a = 0; a < d->m; a++) d->l_price[a] = 1.0 / (double)d->g->cap[a]; /* the distance bound's */
  for (;;) {
    int64_t before = p->count;
    if ((rc = tci_dw_price(d, err)) || (rc = tci_dw_pool_append(d, all, f.tree, err))) goto done;
    tci_dw_keep_bound(d);
    if (d->rounds == 0) /* the first routing: every representative on its shortest tree */
      for (int32_t i = 0; i < nreps; i++) {
        int64_t j = f.tree[i];
        p->lam[j] = 1;
        for (int64_t e = p->start[j]; e < p->start[j + 1]; e++)
          if (d->sym->arc_class[p->arc[e]] >= 0) f.u[d->sym->arc_class[p->arc[e]]] += p->load[e];
      }
    d->z = 0;
    for (int32_t A = 0; A < classes; A++) d->z = fmax(d->z, f.u[A] / f.cap[A]);
    d->rounds++;
    tci_dw_progress(d);
    double gap = d->z / d->best_bound - 1;
    if (gap <= stop_gap) break;
    if (deadline > 0 && omp_get_wtime() >= deadline) {
      *timed_out = 1;
      break;
    }
    if (gap < 0.95 * best_gap) best_gap = gap, since = 0;
    else if (++since >= STALL && since >= d->rounds / 4) { /* the smoothing holds it back: sharpen, or stop */
      if (boosts++ >= BOOSTS && give_up) {
        *stalled = 1;
        break;
      }
      /* a sharper η can throw the routing far off before it converges again (jellyfish(400,4):
         from gap 0.4 % to 2000 % within ten rounds): keep the routing it started from */
      if (d->z < f.saved_z) {
        if ((rc = tci_dw_pool_copy(p, &f.saved, err))) goto done;
        f.saved_z = d->z;
      }
      if (boosts <= BOOSTS) f.sharpen *= 4;
      since = 0;
    }
    f.eta = fmax(f.eta, f.sharpen * log((double)(classes > 1 ? classes : 2)) / (THETA * gap * d->z));
    renormalize(&f);
    if ((rc = index_pool(&f, err))) goto done;
    int64_t moves = 0;
    for (int32_t i = 0; i < nreps; i++) moves += visit(&f, i);
    uint8_t *room = realloc(keep, (size_t)p->count + 1);
    if (!room) {
      rc = tc_error_set(err, TC_ENOMEM, "a2a dw: out of memory");
      goto done;
    }
    keep = room;
    for (int64_t j = 0; j < p->count; j++) keep[j] = p->lam[j] > 0;
    tci_dw_pool_compact(p, keep);
    if (moves == 0 && p->count == before) { /* nothing new, nothing moved: as far as it goes */
      *stalled = give_up;
      break;
    }
    if ((rc = average_bound(&f, err))) goto done;
    for (int64_t a = 0; a < d->m; a++) {
      int32_t A = d->sym->arc_class[a];
      d->l_price[a] = A >= 0 ? f.l[A] : 0;
    }
  }
done:
  if (!rc && f.saved_z < d->z) { /* the sharpening never won back: answer with the routing before it */
    uint8_t *live = malloc((size_t)f.saved.count + 1);
    if (!live) rc = tc_error_set(err, TC_ENOMEM, "a2a dw: out of memory");
    else {
      for (int64_t j = 0; j < f.saved.count; j++) live[j] = f.saved.lam[j] > 0;
      tci_dw_pool_compact(&f.saved, live);
      tci_dw_pool tmp = d->cols;
      d->cols = f.saved, f.saved = tmp;
      d->z = f.saved_z;
      free(live);
    }
  }
  fw_free(&f);
  free(all), free(keep);
  return rc;
}
