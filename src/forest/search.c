/*
** search.c — the optimality search of ForestColl (paper 001 §4.1, §4.5, App. C.1, C.4).
**
** Weighted roots (forest.h): compute node c owns w_c shares, W = Σ w (all 1: N). Every count
** of compute nodes below is a sum of weights, which is all Edmonds' theorem needs; with all
** weights 1 the search is the paper's, step for step.
**
** Optimal (k = 0): 1/x* = max over cuts S ⊉ V_c of w(S ∩ V_c) / B⁺(S) (Theorem 1). The test
** "is 1/x = a/b feasible?" multiplies every capacity by a: arcs get a·b_e, the source arcs
** s -> c get b·w_c, and 1/x ≥ 1/x* iff every compute c has F(s, c) ≥ W·b — exact integers.
**   NEWTON starts at the cut V − {c} of largest ratio (W − w_c)/B⁻(c) — unweighted, the
**   compute node with the least ingress X, ratio (N−1)/X — and while the test fails jumps to
**   the ratio of the failing minimum cut (it is strictly larger: the cut is violated). It
**   stops on the first pass, exactly at 1/x*, and the last cut is the bottleneck cut S*.
**   BISECT is Algorithm 1 as printed: l = that start ratio, r = W − min w (N−1), halve while
**   r − l ≥ 1/X², then the only fraction with denominator ≤ X in [l, r] (Prop. 2) is 1/x*,
**   found as the simplest fraction there. X bounds the denominator: 1/x* = p/q in lowest
**   terms has p ≤ w(S) ≤ W − min w and p/q ≥ l, so q ≤ (W − min w)/l (= X unweighted). The
**   result is then certified like NEWTON's (a passing test at it, and a cut of exactly that
**   ratio found by Newton steps from the last failing point).
** Prop. 3 then gives U = p/g, k = q/g, y = g/p with g = gcd(q, every b_e): the source arcs
** q·w_c divided by g are the k·w_c trees of each root.
**
** Fixed k (Algorithm 3): the smallest U with min_c F(s, c) ≥ W·k when arc e has floor(U·b_e)
** and each source arc k·w_c. Feasibility is monotone in U (Theorem 14). NEWTON: a failing cut
** S needs Σ_{e leaving S} floor(U·b_e) ≥ k·w(S ∩ V_c); the least such U is a breakpoint
** j/b_e, found by walking breakpoints; jump there. BISECT: Algorithm 3 as printed (l = k times
** the start ratio, r = k·(W − min w), stop at r − l < 1/max b², denominator ≤ max b_e),
** polished by the same Newton steps.
*/
#include <stdlib.h>
#include <string.h>

#include "core/intmath.h"
#include "forest/forest_internal.h"

/* ---- small exact helpers ---------------------------------------------------------------- */

static int rat(int64_t n, int64_t d, tc_rat *out, tc_error *err) { return tc_rat_make(n, d, out, err); }

/* a·b / c rounded down, for a, b, c > 0; 1 on overflow. */
static int muldiv_floor(int64_t a, int64_t b, int64_t c, int64_t *out) {
  __int128 p = (__int128)a * b / c;
  if (p > INT64_MAX) return 1;
  *out = (int64_t)p;
  return 0;
}

tc_rat tci_simplest_between(tc_rat lo, tc_rat hi) {
  /* Stern–Brocot descent on continued fractions: integers first, else recurse on the
     reciprocals of the fractional parts. Iterative, on 128-bit intermediates. */
  __int128 ln = lo.num, ld = lo.den, rn = hi.num, rd = hi.den;
  /* p/q accumulates as a composition of x -> f + 1/x maps: h = (h1 h0; k1 k0). */
  __int128 h1 = 1, h0 = 0, k1 = 0, k0 = 1;
  for (;;) {
    __int128 f = ln / ld;
    __int128 a, b; /* the answer of this level as a/b */
    int done = 0;
    if (f * ld == ln) { a = f; b = 1; done = 1; }
    else if ((f + 1) * rd <= rn) { a = f + 1; b = 1; done = 1; }
    if (done) {
      __int128 num = h1 * a + h0 * b, den = k1 * a + k0 * b;
      tc_rat r = {(int64_t)num, (int64_t)den};
      return r;
    }
    /* x = f + 1/x' with x' in [1/(R−f), 1/(L−f)]. */
    __int128 nh = h1 * f + h0, nk = k1 * f + k0;
    h0 = h1; k0 = k1; h1 = nh; k1 = nk;
    __int128 nln = rd, nld = rn - f * rd, nrn = ld, nrd = ln - f * ld;
    ln = nln; ld = nld; rn = nrn; rd = nrd;
  }
}

int tci_forest_compute_nodes(const tc_graph *g, int32_t **out, int32_t *count, tc_error *err) {
  *out = NULL;
  *count = tc_graph_count_kind(g, TC_NODE_COMPUTE);
  if (*count == 0) return TC_OK;
  *out = malloc((size_t)*count * sizeof **out);
  if (!*out) return tc_error_set(err, TC_ENOMEM, "forestcoll: out of memory for %d compute nodes", *count);
  int32_t i = 0;
  for (int32_t u = 0; u < g->n; u++)
    if (g->kind[u] == TC_NODE_COMPUTE) (*out)[i++] = u;
  return TC_OK;
}

/* What every step of the search shares: the graph, its compute nodes, their weights (per node
   of g) and W, and scratch capacities (one per arc). */
typedef struct search_ctx {
  const tc_graph *g;
  const int32_t *compute;
  int32_t nc;
  const int64_t *w;
  int64_t W, wmin;
  int64_t *caps;
} search_ctx;

/* B⁻(c) of compute node c (loops included: an overestimate only lowers the start ratio). */
static int64_t ingress(const tc_graph *g, int32_t c) {
  int64_t in = 0;
  for (int64_t j = g->in_off[c]; j < g->in_off[c + 1]; j++) in += g->cap[g->in_arc[j]];
  return in;
}

/* The start: the compute node c* whose cut V − {c*} has the largest ratio (W − w_c)/B⁻(c)
   (ties: the first) — unweighted, the least ingress. *X bounds the denominator of 1/x*
   (header): floor((W − min w)·B⁻(c*)/(W − w_c*)), B⁻(c*) when unweighted. */
static int start_node(const search_ctx *x, int32_t *which, int64_t *X, tc_error *err) {
  int64_t best_in = 1, best_w = -1;
  for (int32_t i = 0; i < x->nc; i++) {
    int32_t c = x->compute[i];
    int64_t in = ingress(x->g, c), rest = x->W - x->w[c];
    if (best_w < 0 || (__int128)rest * best_in > (__int128)best_w * in) {
      best_in = in;
      best_w = rest;
      *which = c;
    }
  }
  __int128 bound = (__int128)(x->W - x->wmin) * best_in / best_w;
  if (bound > INT64_MAX) return tc_error_set(err, TC_ERANGE, "forestcoll: the search's denominator bound overflows 64 bits");
  *X = (int64_t)bound;
  return TC_OK;
}

static int cut_alloc(tci_cut *c, int32_t n, tc_error *err) {
  c->in_s = calloc((size_t)n, 1);
  if (!c->in_s) return tc_error_set(err, TC_ENOMEM, "forestcoll: out of memory for a cut of %d nodes", n);
  return TC_OK;
}

/* The cut V − {v}. */
static void cut_all_but(const search_ctx *x, int32_t v, tci_cut *c) {
  memset(c->in_s, 1, (size_t)x->g->n);
  c->in_s[v] = 0;
  c->compute = x->W - x->w[v];
  c->exit = ingress(x->g, v);
}

static int save_cut(const tc_graph *g, const tci_cut *c, tc_forest_optimum *o, tc_error *err) {
  int32_t len = 0;
  for (int32_t v = 0; v < g->n; v++) len += c->in_s[v];
  o->cut = malloc((size_t)(len ? len : 1) * sizeof *o->cut);
  if (!o->cut) return tc_error_set(err, TC_ENOMEM, "forestcoll: out of memory for the bottleneck cut");
  o->cut_len = 0;
  for (int32_t v = 0; v < g->n; v++)
    if (c->in_s[v]) o->cut[o->cut_len++] = v;
  o->cut_compute = c->compute;
  o->cut_exit = c->exit;
  return TC_OK;
}

/* ---- Algorithm 1 ------------------------------------------------------------------------ */

/* The Theorem 1 test at 1/x = r. */
static int test_inv_x(const search_ctx *x, tc_rat r, int *pass, tci_cut *worst, tc_forest_optimum *o, tc_error *err) {
  const tc_graph *g = x->g;
  for (int64_t a = 0; a < g->m; a++)
    if (tci_mul64(g->cap[a], r.num, &x->caps[a]))
      return tc_error_set(err, TC_ERANGE,
                          "forestcoll: capacity %lld scaled by %lld overflows 64 bits (try the default Newton search)",
                          (long long)g->cap[a], (long long)r.num);
  int64_t need;
  if (tci_mul64(r.den, x->W, &need))
    return tc_error_set(err, TC_ERANGE, "forestcoll: the feasibility threshold overflows 64 bits");
  o->iterations++;
  return tci_forest_feasible(g, x->compute, x->nc, x->w, x->caps, r.den, need, pass, worst, &o->maxflows, err);
}

/* Newton steps from the cut `c` (ratio c->compute / c->exit) until the test passes. */
static int newton_optimal(const search_ctx *x, tci_cut *c, tci_cut *scratch, tc_forest_optimum *o, tc_error *err) {
  for (;;) {
    tc_rat r;
    int pass = 0, rc = rat(c->compute, c->exit, &r, err);
    if (!rc) rc = test_inv_x(x, r, &pass, scratch, o, err);
    if (rc) return rc;
    if (pass) { o->inv_x = r; return TC_OK; }
    /* A violated cut has a strictly larger ratio: the iteration climbs and cannot cycle. */
    if ((__int128)scratch->compute * c->exit <= (__int128)c->compute * scratch->exit)
      return tc_error_set(err, TC_EFAIL, "forestcoll: internal error: a failing cut did not raise 1/x");
    tci_cut t = *c;
    *c = *scratch;
    *scratch = t;
  }
}

static int bisect_optimal(const search_ctx *x, int64_t X, tci_cut *c, tci_cut *scratch, tc_forest_optimum *o,
                          tc_error *err) {
  tc_rat l, r, two = {2, 1}, width, bound;
  int rc = rat(c->compute, c->exit, &l, err); /* the start cut V − {c*} */
  if (!rc) rc = rat(x->W - x->wmin, 1, &r, err);
  int64_t X2;
  if (!rc && tci_mul64(X, X, &X2)) rc = tc_error_set(err, TC_ERANGE, "forestcoll: X^2 overflows 64 bits");
  if (!rc) rc = rat(1, X2, &bound, err);
  while (!rc && !(rc = tc_rat_sub(r, l, &width, err)) && tc_rat_cmp(width, bound) >= 0) {
    tc_rat mid;
    int pass = 0;
    rc = tc_rat_add(l, r, &mid, err);
    if (!rc) rc = tc_rat_div(mid, two, &mid, err);
    if (!rc) rc = test_inv_x(x, mid, &pass, scratch, o, err);
    if (rc) break;
    if (pass) r = mid;
    else {
      l = mid;
      tci_cut t = *c; /* keep the cut of the last failure for the certificate */
      *c = *scratch;
      *scratch = t;
    }
  }
  if (rc) return rc;
  int64_t bisect_iterations = o->iterations;
  tc_rat found = tci_simplest_between(l, r);
  if (found.den > X)
    return tc_error_set(err, TC_EFAIL, "forestcoll: internal error: no fraction with denominator <= %lld in [l, r]",
                        (long long)X);
  /* Newton from the last failing cut (without a failure, c is still V − {c_min}, ratio l0) */
  rc = newton_optimal(x, c, scratch, o, err);
  if (!rc && tc_rat_cmp(found, o->inv_x) != 0)
    rc = tc_error_set(err, TC_EFAIL, "forestcoll: internal error: Algorithm 1 found %lld/%lld, the certificate %lld/%lld",
                      (long long)found.num, (long long)found.den, (long long)o->inv_x.num, (long long)o->inv_x.den);
  o->iterations = bisect_iterations; /* the count the paper's Algorithm 1 makes */
  return rc;
}

/* Prop. 3: U = p/g, k = q/g, y = g/p with g = gcd(q, every b_e). */
static int prop3(const tc_graph *g, tc_forest_optimum *o, tc_error *err) {
  int64_t gg = o->inv_x.den;
  for (int64_t a = 0; a < g->m; a++) gg = tci_gcd64(gg, g->cap[a]);
  o->k = o->inv_x.den / gg;
  int rc = rat(o->inv_x.num, gg, &o->U, err);
  if (!rc) rc = rat(gg, o->inv_x.num, &o->y, err);
  return rc;
}

/* ---- Algorithm 3 ------------------------------------------------------------------------ */

static int test_fixed(const search_ctx *x, tc_rat U, int64_t k, int *pass, tci_cut *worst, tc_forest_optimum *o,
                      tc_error *err) {
  const tc_graph *g = x->g;
  for (int64_t a = 0; a < g->m; a++)
    if (muldiv_floor(g->cap[a], U.num, U.den, &x->caps[a]))
      return tc_error_set(err, TC_ERANGE, "forestcoll: capacity %lld scaled by U overflows 64 bits",
                          (long long)g->cap[a]);
  int64_t need;
  if (tci_mul64(k, x->W, &need)) return tc_error_set(err, TC_ERANGE, "forestcoll: W·k overflows 64 bits");
  o->iterations++;
  return tci_forest_feasible(g, x->compute, x->nc, x->w, x->caps, k, need, pass, worst, &o->maxflows, err);
}

/* The least U with Σ_{e leaving S} floor(U·b_e) ≥ k·w(S ∩ V_c): start at the real bound
   T/Σb (floor never exceeds its argument) and step to the next breakpoint j/b_e while short;
   each step raises the sum, and at the start it is > T − |δ⁺(S)|. */
static int least_u_for_cut(const tc_graph *g, const tci_cut *c, int64_t k, tc_rat *out, tc_error *err) {
  int64_t T, sumb = 0;
  if (tci_mul64(k, c->compute, &T)) return tc_error_set(err, TC_ERANGE, "forestcoll: k·w(S) overflows 64 bits");
  for (int64_t a = 0; a < g->m; a++)
    if (c->in_s[g->src[a]] && !c->in_s[g->dst[a]] && tci_add64(sumb, g->cap[a], &sumb))
      return tc_error_set(err, TC_ERANGE, "forestcoll: a cut's capacity overflows 64 bits");
  if (sumb == 0) return tc_error_set(err, TC_EINPUT, "forestcoll: a set of compute nodes has no way out");
  tc_rat U;
  int rc = rat(T, sumb, &U, err);
  for (;;) {
    if (rc) return rc;
    __int128 sum = 0;
    tc_rat next = {0, 0};
    for (int64_t a = 0; a < g->m; a++) {
      if (!c->in_s[g->src[a]] || c->in_s[g->dst[a]]) continue;
      __int128 fl = (__int128)U.num * g->cap[a] / U.den;
      sum += fl;
      /* next breakpoint of this arc: (fl + 1) / b_e */
      tc_rat bp = {(int64_t)(fl + 1), g->cap[a]};
      if (next.den == 0 || (__int128)bp.num * next.den < (__int128)next.num * bp.den) next = bp;
    }
    if (sum >= T) { *out = U; return TC_OK; }
    rc = rat(next.num, next.den, &U, err);
  }
}

static int newton_fixed(const search_ctx *x, int64_t k, tc_rat U, tci_cut *scratch, tc_forest_optimum *o,
                        tc_error *err) {
  for (;;) {
    int pass = 0;
    int rc = test_fixed(x, U, k, &pass, scratch, o, err);
    if (rc) return rc;
    if (pass) { o->U = U; return TC_OK; }
    tc_rat next;
    rc = least_u_for_cut(x->g, scratch, k, &next, err);
    if (rc) return rc;
    if (tc_rat_cmp(next, U) <= 0)
      return tc_error_set(err, TC_EFAIL, "forestcoll: internal error: a failing cut did not raise U");
    U = next;
  }
}

static int bisect_fixed(const search_ctx *x, tc_rat l, int64_t k, tci_cut *scratch, tc_forest_optimum *o,
                        tc_error *err) {
  const tc_graph *g = x->g;
  int64_t maxb = 0, top, maxb2;
  for (int64_t a = 0; a < g->m; a++)
    if (g->cap[a] > maxb) maxb = g->cap[a];
  if (tci_mul64(x->W - x->wmin, k, &top) || tci_mul64(maxb, maxb, &maxb2))
    return tc_error_set(err, TC_ERANGE, "forestcoll: the search bounds overflow 64 bits");
  tc_rat r, two = {2, 1}, width, bound;
  int pass = 0;
  int rc = rat(top, 1, &r, err);
  if (!rc) rc = rat(1, maxb2, &bound, err);
  /* [REPO] tests l first: it can be the answer, and the loop below keeps l infeasible. */
  if (!rc) rc = test_fixed(x, l, k, &pass, scratch, o, err);
  if (rc) return rc;
  if (pass) { o->U = l; return TC_OK; }
  while (!rc && !(rc = tc_rat_sub(r, l, &width, err)) && tc_rat_cmp(width, bound) >= 0) {
    tc_rat mid;
    rc = tc_rat_add(l, r, &mid, err);
    if (!rc) rc = tc_rat_div(mid, two, &mid, err);
    if (!rc) rc = test_fixed(x, mid, k, &pass, scratch, o, err);
    if (!rc) *(pass ? &r : &l) = mid;
  }
  if (rc) return rc;
  int64_t bisect_iterations = o->iterations;
  /* U* is the only fraction with denominator <= max b_e in (l, r]; Newton from l finds it
     exactly, and the bracket checks the two agree. */
  rc = newton_fixed(x, k, l, scratch, o, err);
  if (!rc && (tc_rat_cmp(o->U, l) <= 0 || tc_rat_cmp(o->U, r) > 0 || o->U.den > maxb))
    rc = tc_error_set(err, TC_EFAIL, "forestcoll: internal error: Algorithm 3's bracket misses U*");
  o->iterations = bisect_iterations;
  return rc;
}

/* ---- entry point ------------------------------------------------------------------------ */

void tc_forest_optimum_destroy(tc_forest_optimum *o) {
  free(o->cut);
  memset(o, 0, sizeof *o);
}

int tc_forest_search_optimum_weighted(const tc_graph *g, const int64_t *weights, int64_t k, tc_forest_search search,
                                      tc_forest_optimum *out, tc_error *err) {
  memset(out, 0, sizeof *out);
  if (k < 0) return tc_error_set(err, TC_EINPUT, "forestcoll: k must be >= 1 (got %lld)", (long long)k);
  int rc = tc_forest_check_fabric(g, 0, err);
  if (rc) return rc;
  int32_t *compute = NULL, cstart = -1;
  int64_t *w = NULL, X = 0;
  search_ctx x = {.g = g};
  tci_cut c = {0}, scratch = {0};
  rc = tci_forest_weights(g, weights, &w, &x.W, err);
  x.w = w;
  if (!rc) rc = tci_forest_compute_nodes(g, &compute, &x.nc, err);
  x.compute = compute;
  x.caps = malloc((size_t)(g->m ? g->m : 1) * sizeof *x.caps);
  if (!rc && !x.caps) rc = tc_error_set(err, TC_ENOMEM, "forestcoll: out of memory for %lld arcs", (long long)g->m);
  if (!rc) rc = cut_alloc(&c, g->n, err);
  if (!rc) rc = cut_alloc(&scratch, g->n, err);
  if (!rc) {
    x.wmin = INT64_MAX;
    for (int32_t i = 0; i < x.nc; i++)
      if (w[compute[i]] < x.wmin) x.wmin = w[compute[i]];
    rc = start_node(&x, &cstart, &X, err);
  }
  if (!rc) {
    cut_all_but(&x, cstart, &c);
    if (k == 0) {
      out->optimal = 1;
      rc = search == TC_FOREST_BISECT ? bisect_optimal(&x, X, &c, &scratch, out, err)
                                      : newton_optimal(&x, &c, &scratch, out, err);
      if (!rc) rc = prop3(g, out, err);
      if (!rc) rc = save_cut(g, &c, out, err);
    } else {
      out->k = k;
      tc_rat l0;
      int64_t kw;
      if (tci_mul64(c.compute, k, &kw)) rc = tc_error_set(err, TC_ERANGE, "forestcoll: (W - w)·k overflows 64 bits");
      if (!rc) rc = rat(kw, c.exit, &l0, err);
      if (!rc)
        rc = search == TC_FOREST_BISECT ? bisect_fixed(&x, l0, k, &scratch, out, err)
                                        : newton_fixed(&x, k, l0, &scratch, out, err);
      if (!rc) rc = rat(out->U.den, out->U.num, &out->y, err);
      if (!rc) { tc_rat kk = {k, 1}; rc = tc_rat_div(out->U, kk, &out->inv_x, err); }
    }
  }
  free(compute);
  free(w);
  free(x.caps);
  free(c.in_s);
  free(scratch.in_s);
  if (rc) tc_forest_optimum_destroy(out);
  return rc;
}

int tc_forest_search_optimum(const tc_graph *g, int64_t k, tc_forest_search search, tc_forest_optimum *out,
                             tc_error *err) {
  return tc_forest_search_optimum_weighted(g, NULL, k, search, out, err);
}
