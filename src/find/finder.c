/*
** finder.c — tc_find: the Pareto frontier of (T_L, T_B) for N nodes of degree d (paper 000
** §5.4, App. A.3).
**
** Bottom-up over the divisors n of N (ascending) and the degrees d' = 1..d: the set at
** (n, d') receives
**   - every base topology with n nodes and degree d' (bases.c, generative.c);
**   - L(X) for X at (n/d', d')                        (line graph, Def. 12);
**   - X*k for X at (n/k, d'/k)                        (degree expansion, Def. 13);
**   - X^□k for X at (n^(1/k), d'/k)                   (Cartesian power, Def. 14);
**   - X□Y for X at (n1, d1), Y at (n2, d2), n1·n2 = n, d1 + d2 = d' (Thm 13 products);
**   - with --bidirectional, X ∪ X^T for X at (n, d'/2) (A.6),
**   - last, at small n, every directed and undirected circulant that reaches a point none of
**     the above does (circulant_exhaustive.c),
** each predicted in closed form (expand_predict.c) and pruned to a Pareto set that keeps
** what later expansions need (pareto.c). Only sizes dividing N can reach N, because every
** expansion multiplies the size, and only degrees <= d, because none lowers it — so this
** visits every chain the theorems cover. The frontier is the Pareto set at (N, d) (its
** bidirectional members with --bidirectional), one member per point, steps ascending.
**
** Prediction never builds a graph (the stored BFB table and closed forms suffice; only
** genkautz / debruijn outside the table are scored by running BFB once). With
** options.build, every member is then built, verified and measured (build.c), and a
** measurement that misses its prediction fails the call.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coll/coll_internal.h"
#include "find_internal.h"
#include "topocoll/metrics.h"

typedef struct finder {
  const tc_find_options *o;
  int32_t *div; /* divisors of N, ascending */
  int32_t ndiv;
  int32_t d;
  uint32_t capmask;
  tc_find_set *sets; /* ndiv x (d+1) */
} finder;

static tc_find_set *set_at(const finder *f, int32_t n, int32_t dp) {
  int32_t lo = 0, hi = f->ndiv - 1;
  while (lo <= hi) {
    int32_t mid = (lo + hi) / 2;
    if (f->div[mid] == n) return &f->sets[(size_t)mid * (size_t)(f->d + 1) + (size_t)dp];
    if (f->div[mid] < n) lo = mid + 1;
    else hi = mid - 1;
  }
  return NULL;
}

static int divisors(int32_t N, int32_t **out, int32_t *count, tc_error *err) {
  int32_t room = 2, k = 0;
  for (int64_t i = 1; i * i <= N; i++)
    if (N % i == 0) room += 2;
  int32_t *v = malloc((size_t)room * sizeof *v);
  if (!v) return tc_error_set(err, TC_ENOMEM, "out of memory");
  for (int64_t i = 1; i * i <= N; i++)
    if (N % i == 0) {
      v[k++] = (int32_t)i;
      if (i * i != N) v[k++] = (int32_t)(N / i);
    }
  for (int32_t i = 1; i < k; i++) /* insertion sort: a few hundred values at most */
    for (int32_t j = i; j > 0 && v[j - 1] > v[j]; j--) {
      int32_t t = v[j];
      v[j] = v[j - 1];
      v[j - 1] = t;
    }
  *out = v;
  *count = k;
  return TC_OK;
}

static int offer(const finder *f, tc_find_set *s, const tc_find_cand *fc, tc_error *err) {
  return tci_find_set_offer(s, fc, f->capmask, err);
}

static int add_lines(const finder *f, tc_find_set *s, int32_t n, int32_t dp, tc_error *err) {
  if (dp < 2 || n % dp) return TC_OK;
  const tc_find_set *from = set_at(f, n / dp, dp);
  for (int32_t i = 0; from && i < from->count; i++) {
    tc_find_cand out;
    if (tci_find_line(&from->v[i], &out)) {
      int rc = offer(f, s, &out, err);
      if (rc) return rc;
    }
  }
  return TC_OK;
}

static int add_degree_expansions(const finder *f, tc_find_set *s, int32_t n, int32_t dp, tc_error *err) {
  for (int32_t k = 2; k <= dp; k++) {
    if (dp % k || n % k || n / k < 2) continue;
    const tc_find_set *from = set_at(f, n / k, dp / k);
    for (int32_t i = 0; from && i < from->count; i++) {
      tc_find_cand out;
      if (tci_find_degree(&from->v[i], k, &out)) {
        int rc = offer(f, s, &out, err);
        if (rc) return rc;
      }
    }
  }
  return TC_OK;
}

/* The integer m >= 2 with m^k == n, or 0. */
static int32_t exact_root(int32_t n, int32_t k) {
  for (int64_t m = 2;; m++) {
    int64_t p = 1;
    for (int32_t i = 0; i < k && p <= n; i++) p *= m;
    if (p == n) return (int32_t)m;
    if (p > n) return 0;
  }
}

static int add_powers(const finder *f, tc_find_set *s, int32_t n, int32_t dp, tc_error *err) {
  for (int32_t k = 2; k <= dp && (1 << k) <= n; k++) {
    int32_t m = dp % k ? 0 : exact_root(n, k);
    const tc_find_set *from = m ? set_at(f, m, dp / k) : NULL;
    for (int32_t i = 0; from && i < from->count; i++) {
      tc_find_cand out;
      if (tci_find_power(&from->v[i], k, &out)) {
        int rc = offer(f, s, &out, err);
        if (rc) return rc;
      }
    }
  }
  return TC_OK;
}

/* Thm 13 products of two factors (more factors arrive as products of products). Pairs are
   unordered; a factor with itself is a power, not a product of distinct graphs. */
static int add_products(const finder *f, tc_find_set *s, int32_t n, int32_t dp, tc_error *err) {
  for (int32_t j = 0; j < f->ndiv; j++) {
    int32_t n1 = f->div[j];
    if (n1 < 2 || n % n1 || (int64_t)n1 * n1 > n) continue;
    int32_t n2 = n / n1;
    for (int32_t d1 = 1; d1 < dp; d1++) {
      int32_t d2 = dp - d1;
      if (n1 == n2 && d1 > d2) continue;
      const tc_find_set *a = set_at(f, n1, d1), *b = set_at(f, n2, d2);
      for (int32_t x = 0; a && b && x < a->count; x++) {
        if (!(tci_find_caps(&a->v[x]) & TC_FIND_CAP_PRODUCT)) continue;
        for (int32_t y = a == b ? x + 1 : 0; y < b->count; y++) {
          tc_find_cand out;
          if (!tci_find_product(&a->v[x], &b->v[y], &out)) continue;
          int rc = offer(f, s, &out, err);
          if (rc) return rc;
        }
      }
    }
  }
  return TC_OK;
}

static int add_closures(const finder *f, tc_find_set *s, int32_t n, int32_t dp, tc_error *err) {
  if (!f->o->bidirectional || dp % 2) return TC_OK;
  const tc_find_set *from = set_at(f, n, dp / 2);
  for (int32_t i = 0; from && i < from->count; i++) {
    tc_find_cand out;
    if (tci_find_bidir(&from->v[i], &out)) {
      int rc = offer(f, s, &out, err);
      if (rc) return rc;
    }
  }
  return TC_OK;
}

static int fill_set(const finder *f, int32_t n, int32_t dp, tc_error *err) {
  tc_find_set *s = set_at(f, n, dp);
  tc_find_sink sink = {s, f->capmask, f->o->nodes, f->d};
  int rc = tci_find_fixed_bases(&sink, n, dp, err);
  if (!rc) rc = tci_find_generative_bases(&sink, n, dp, err);
  if (!rc) rc = add_lines(f, s, n, dp, err);
  if (!rc) rc = add_degree_expansions(f, s, n, dp, err);
  if (!rc) rc = add_powers(f, s, n, dp, err);
  if (!rc) rc = add_products(f, s, n, dp, err);
  if (!rc) rc = add_closures(f, s, n, dp, err);
  /* last: it fills only the points nothing above reached (circulant_exhaustive.c) */
  if (!rc) rc = tci_find_circulant_exhaustive(&sink, n, dp, err);
  return rc;
}

static int by_point(const void *pa, const void *pb) {
  const tc_find_cand *a = pa, *b = pb;
  if (a->c.steps != b->c.steps) return a->c.steps < b->c.steps ? -1 : 1;
  int t = tc_rat_cmp(a->c.tau, b->c.tau);
  if (t) return t;
  return tci_find_rank(a, b);
}

/* The final frontier: the wanted members of the (N, d) set, one per Pareto point. */
static int extract_frontier(const finder *f, tc_frontier *out, tc_error *err) {
  const tc_find_set *s = set_at(f, f->o->nodes, f->d);
  tc_find_cand *v = malloc((size_t)(s->count ? s->count : 1) * sizeof *v);
  out->member = malloc((size_t)(s->count ? s->count : 1) * sizeof *out->member);
  if (!v || !out->member) {
    free(v);
    return tc_error_set(err, TC_ENOMEM, "out of memory");
  }
  int32_t k = 0;
  for (int32_t i = 0; i < s->count; i++)
    if (!f->o->bidirectional || s->v[i].c.bidirectional) v[k++] = s->v[i];
  qsort(v, (size_t)k, sizeof *v, by_point);
  out->count = 0;
  for (int32_t i = 0; i < k; i++)
    if (out->count == 0 || tc_rat_cmp(v[i].c.tau, out->member[out->count - 1].tau) < 0)
      out->member[out->count++] = v[i].c;
  free(v);
  return TC_OK;
}

static int check_options(const tc_find_options *o, tc_frontier *out, tc_error *err) {
  if (!o || !out) return tc_error_set(err, TC_EINPUT, "find: options and output are required");
  if (o->nodes < 2) return tc_error_set(err, TC_EINPUT, "find: needs at least 2 nodes (got %d)", (int)o->nodes);
  if (o->nodes > TC_FIND_MAX_NODES)
    return tc_error_set(err, TC_EINPUT, "find: at most %d nodes (got %d)", TC_FIND_MAX_NODES, (int)o->nodes);
  if (o->degree < 1) return tc_error_set(err, TC_EINPUT, "find: degree must be >= 1 (got %d)", (int)o->degree);
  if (o->degree > TC_FIND_MAX_DEGREE)
    return tc_error_set(err, TC_EINPUT, "find: degree at most %d (got %d)", TC_FIND_MAX_DEGREE, (int)o->degree);
  if (o->bidirectional && o->degree == 1 && o->nodes > 2)
    return tc_error_set(err, TC_EINPUT,
                        "find: a bidirectional topology of degree 1 is a matching, connected only for 2 nodes "
                        "(got %d)",
                        (int)o->nodes);
  if (o->bidirectional && o->degree % 2 && o->nodes % 2)
    return tc_error_set(err, TC_EINPUT,
                        "find: no bidirectional topology has %d nodes of odd degree %d (links pair up ports, so "
                        "N*d must be even)",
                        (int)o->nodes, (int)o->degree);
  return TC_OK;
}

static int build_members(tc_frontier *out, tc_error *err) {
  for (int32_t i = 0; i < out->count; i++) {
    tc_candidate *c = &out->member[i];
    tc_graph *g = NULL;
    tc_schedule ag;
    memset(&ag, 0, sizeof ag);
    int rc = tci_find_build_spec(c->spec, &g, &ag, err);
    if (!rc) rc = tc_candidate_measure(c, g, &ag, err);
    tc_graph_destroy(g);
    tc_schedule_destroy(&ag);
    if (rc) return rc;
  }
  return TC_OK;
}

static void free_finder(finder *f) {
  if (f->sets)
    for (size_t i = 0; i < (size_t)f->ndiv * (size_t)(f->d + 1); i++) tci_find_set_free(&f->sets[i]);
  free(f->sets);
  free(f->div);
}

int tc_find(const tc_find_options *o, tc_frontier *out, tc_error *err) {
  if (out) memset(out, 0, sizeof *out);
  int rc = check_options(o, out, err);
  if (rc) return rc;
  if (o->build) { /* members are built one at a time, each an allgather of N nodes (measured:
                     65 B per pair for N = 2048, d = 4, the pipeline's allgather estimate) */
    char what[64];
    snprintf(what, sizeof what, "building the members for %d nodes", (int)o->nodes);
    if ((rc = tci_collective_check_memory(o->nodes, TC_COLL_ALLGATHER, 0, what, err))) return rc;
  }
  finder f = {.o = o, .d = o->degree};
  f.capmask = TC_FIND_CAP_LOOPFREE | TC_FIND_CAP_THM10 | TC_FIND_CAP_PRODUCT |
              (o->bidirectional ? TC_FIND_CAP_CLOSE | TC_FIND_CAP_BIDIR : 0);
  rc = divisors(o->nodes, &f.div, &f.ndiv, err);
  if (!rc) {
    f.sets = calloc((size_t)f.ndiv * (size_t)(f.d + 1), sizeof *f.sets);
    if (!f.sets) rc = tc_error_set(err, TC_ENOMEM, "out of memory");
  }
  for (int32_t i = 0; !rc && i < f.ndiv; i++)
    for (int32_t dp = 1; !rc && dp <= f.d && f.div[i] >= 2; dp++) rc = fill_set(&f, f.div[i], dp, err);
  if (!rc) rc = extract_frontier(&f, out, err);
  free_finder(&f);
  if (!rc && out->count == 0)
    rc = tc_error_set(err, TC_EINPUT, "find: no construction reaches %d nodes of degree %d%s", (int)o->nodes,
                      (int)o->degree, o->bidirectional ? " with bidirectional links" : "");
  if (!rc) {
    out->nodes = o->nodes;
    out->degree = o->degree;
    out->bound_steps = o->bidirectional ? tc_moore_diameter_undirected(o->nodes, o->degree)
                                        : tc_moore_diameter_directed(o->nodes, o->degree);
    out->bound_tau = tci_find_bw_tau(o->nodes);
    /* S_min(N,d) <= N²/2 fits int64 for N <= TC_FIND_MAX_NODES, so this cannot fail */
    tc_rat_make(o->degree, tc_moore_depth_sum(o->nodes, o->degree), &out->bound_mcf, NULL);
    if (o->build) rc = build_members(out, err);
  }
  if (rc) tc_frontier_destroy(out);
  return rc;
}

void tc_frontier_destroy(tc_frontier *f) {
  if (!f) return;
  free(f->member);
  memset(f, 0, sizeof *f);
}
