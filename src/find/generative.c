/*
** generative.c — the finder's generative families (paper 000 §5.4, §6.2, App. F.2,
** F.4; Table 9 row 11): members that exist at many (n, d) and whose costs come from
** BFB or from a diameter search rather than a closed form.
**
**   genkautz(d,n)   Π_{d,n} (Def. 16), any n >= d+2 (n = d+1 is K_{d+1}, listed as
**                   complete): scored by its optimal BFB schedule — from the stored table
**                   (genkautz_table_data.c: d in {2,4,8,16}, n <= 2000) or by tc_bfb_optima on
**                   the graph when n <= TC_FIND_BFB_MAX_NODES.
**   debruijn(d,k)   B(d,k), n = d^k: the same way (stored for d <= 16, d^k <= 4096).
**   circulants      even d >= 4 (Def. 18): C(n,{m,m+1}) of Thm 22 for d = 4 (diameter m,
**                   BW-optimal: Conjecture 1 is proven for two offsets); for other even d a
**                   bounded offset search (circulant_search.c), BW-optimal by Conjecture 1
**                   (flagged, and checked by BFB whenever the member is built); and
**                   mincirculant(n,d) for d a multiple of 4 (parallel links, Thm 22's m).
** Which sizes are worth it: Π (n >= d+2) and B carry self-loops or are not BW-optimal, so
** they are never Thm 13 factors, and Π is not reverse-symmetric (no A.6 closure); only
** line graphs (which stay in their family), degree expansions and powers carry them
** further, and those multiply the degree. They are therefore offered only when d' divides
** the target degree. Circulants, which are product factors, are offered at every even d'.
** The search budget is larger at the target (N, d) itself than at intermediate sizes.
*/
#include <stdio.h>
#include <stdlib.h>

#include "find_internal.h"
#include "topocoll/bfb.h"
#include "topocoll/iso.h"
#include "topocoll/spec.h"

/* BFS evaluations the circulant search may spend, by size: ~2e6 node-offset visits at
   intermediate sizes, 8x that at the target. Beyond CIRC_MAX_SEARCH visits per BFS (huge n
   with many offsets) circulants with more than two offsets are left out: even one BFS per
   degree would dominate the whole find. */
#define CIRC_WORK 2000000
#define CIRC_TARGET_FACTOR 8
#define CIRC_MAX_SEARCH 4000000

static int offer(const tc_find_sink *sk, const tc_find_cand *fc, tc_error *err) {
  return tci_find_set_offer(sk->set, fc, sk->capmask, err);
}

/* Optimal-BFB values of the graph `spec` builds, computed now (the table's columns). */
static int bfb_row_of(const char *spec, tc_find_bfb_row *row, tc_error *err) {
  tc_graph *g = NULL;
  tc_rat *U = NULL;
  int32_t D = 0;
  int rc = tc_spec_build(spec, &g, err);
  if (!rc) rc = tc_bfb_optima(g, &U, &D, err);
  tc_rat s = {0, 1};
  for (int32_t t = 1; !rc && t <= D; t++) {
    tc_rat best = {0, 1};
    for (int32_t u = 0; u < g->n; u++)
      if (tc_rat_cmp(U[(int64_t)u * D + t - 1], best) > 0) best = U[(int64_t)u * D + t - 1];
    rc = tc_rat_add(s, best, &s, err);
  }
  int rs = 0;
  if (!rc) rc = tc_graph_reverse_symmetry(g, &rs, NULL, err);
  if (!rc) {
    row->steps = D;
    row->s_num = s.num;
    row->s_den = s.den;
    row->loops = (int32_t)tc_graph_count_self_loops(g);
    row->flags = (rs ? 1 : 0) | (g->bidirectional ? 2 : 0);
  }
  free(U);
  tc_graph_destroy(g);
  if (rc) tc_error_prefix(err, "find: scoring %s by BFB", spec);
  return rc;
}

/* A candidate from a BFB row of a loop-free-or-not, parallel-arc-free d-regular graph. */
static int offer_bfb_row(const tc_find_sink *sk, int32_t n, int32_t d, const tc_find_bfb_row *row, const char *label,
                         const char *source, const char *spec, tc_error *err) {
  tc_rat tau;
  if (tc_rat_mul((tc_rat){row->s_num, row->s_den}, (tc_rat){d, n}, &tau, NULL)) return TC_OK;
  int bw = tc_rat_cmp(tau, tci_find_bw_tau(n)) == 0;
  uint32_t flags = TC_CAND_BFB | (bw ? TC_CAND_BW_OPTIMAL : 0) |
                   (row->loops ? TC_CAND_SELF_LOOPS : TC_CAND_SIMPLE) |
                   ((d >= 3 || !row->loops) ? TC_CAND_DISTINCT2 : 0);
  tc_find_cand fc;
  tci_find_cand_init(&fc, n, d, row->steps, tau, flags, row->flags & 1, (row->flags & 2) != 0, row->steps);
  if (!tci_find_cand_name(&fc, label, source, "%s", spec)) return TC_OK;
  return offer(sk, &fc, err);
}

static int genkautz_base(const tc_find_sink *sk, int32_t n, int32_t d, tc_error *err) {
  if (d < 2 || n < d + 2 || sk->target_degree % d) return TC_OK;
  char spec[64];
  snprintf(spec, sizeof spec, "genkautz(%d,%d)", (int)d, (int)n);
  tc_find_bfb_row row;
  const char *source = "BFB (stored table)";
  if (!tci_find_stored_genkautz(d, n, &row)) {
    if (n > TC_FIND_BFB_MAX_NODES) return TC_OK;
    int rc = bfb_row_of(spec, &row, err);
    if (rc) return rc;
    source = "BFB";
  }
  return offer_bfb_row(sk, n, d, &row, "GenKautz", source, spec, err);
}

static int debruijn_base(const tc_find_sink *sk, int32_t n, int32_t d, tc_error *err) {
  if (d < 2 || sk->target_degree % d) return TC_OK;
  int32_t k = 0;
  int64_t p = 1;
  while (p < n) {
    p *= d;
    k++;
  }
  if (p != n) return TC_OK;
  char spec[64];
  snprintf(spec, sizeof spec, "debruijn(%d,%d)", (int)d, (int)k);
  tc_find_bfb_row row;
  const char *source = "BFB (stored table)";
  if (!tci_find_stored_debruijn(d, k, &row)) {
    if (n > TC_FIND_BFB_MAX_NODES) return TC_OK;
    int rc = bfb_row_of(spec, &row, err);
    if (rc) return rc;
    source = "BFB";
  }
  return offer_bfb_row(sk, n, d, &row, "DeBruijn", source, spec, err);
}

/* A BW-optimal circulant base with diameter D (BFB then takes D steps). */
static void circulant_cand(tc_find_cand *fc, int32_t n, int32_t d, int32_t D, int simple, int conjecture) {
  uint32_t flags = TC_CAND_BFB | TC_CAND_BW_OPTIMAL | TC_CAND_DISTINCT2 | (simple ? TC_CAND_SIMPLE : 0) |
                   (conjecture ? TC_CAND_CONJECTURE : 0);
  tci_find_cand_init(fc, n, d, D, tci_find_bw_tau(n), flags, 1, 1, D);
}

static int circulant_bases(const tc_find_sink *sk, int32_t n, int32_t d, int is_target, tc_error *err) {
  int32_t k = d / 2;
  if (d < 4 || d % 2 || n < d + 2) return TC_OK;
  int64_t visits = (int64_t)n * k, evals = CIRC_WORK / visits;
  if (is_target) evals *= CIRC_TARGET_FACTOR;
  if (evals < 1) evals = 1;
  if (k > 2 && visits > CIRC_MAX_SEARCH) return TC_OK;
  int32_t offs[TC_FIND_MAX_DEGREE / 2], D = 0;
  int rc = tci_find_circulant_search(n, k, evals, offs, &D, err);
  if (rc || D < 0) return rc;
  char spec[256];
  int at = snprintf(spec, sizeof spec, "circulant(%d", (int)n);
  for (int32_t j = 0; j < k && at < (int)sizeof spec; j++)
    at += snprintf(spec + at, sizeof spec - (size_t)at, ",%d", (int)offs[j]);
  tc_find_cand fc;
  /* BW-optimality: Conjecture 1, proven for two offsets. */
  const char *source = k == 2 && n > 6 ? "Thm 22 + BFB"
                       : k == 2       ? "offset search + BFB"
                                      : "offset search + BFB (Conjecture 1)";
  circulant_cand(&fc, n, d, D, 1, k > 2);
  if (at < (int)sizeof spec - 1 && tci_find_cand_name(&fc, "Circulant", source, "%s)", spec)) rc = offer(sk, &fc, err);
  if (!rc && d >= 8 && d % 4 == 0 && n > 6) {
    /* d/4 parallel copies of Thm 22's two offsets: the same diameter. */
    int32_t two[2], D2 = -1;
    rc = tci_find_circulant_search(n, 2, 1, two, &D2, err);
    if (!rc && D2 >= 0) {
      circulant_cand(&fc, n, d, D2, 0, 0);
      if (tci_find_cand_name(&fc, "Circulant", "Thm 22 + BFB (parallel links)", "mincirculant(%d,%d)", (int)n, (int)d))
        rc = offer(sk, &fc, err);
    }
  }
  return rc;
}

int tci_find_generative_bases(const tc_find_sink *sk, int32_t n, int32_t d, tc_error *err) {
  int rc = genkautz_base(sk, n, d, err);
  if (!rc) rc = debruijn_base(sk, n, d, err);
  if (!rc) rc = circulant_bases(sk, n, d, sk->target_nodes == n && sk->target_degree == d, err);
  return rc;
}
