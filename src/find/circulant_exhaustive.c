/*
** circulant_exhaustive.c — every circulant on a small n, for the finder (issue #14 §5).
**
** The closed-form database has one directed circulant (dcirculant(d+2,1..d), Table 9 row 7)
** and the undirected ones the offset search (circulant_search.c) scores by diameter alone.
** At small n that misses members that beat the frontier: dcirculant(7,1,2,3) allgathers in
** 2 steps at the bandwidth optimum where uniring(3,7) takes 6. So where it is cheap we
** offer every directed circulant Cay(Z_n, S), |S| = d, S ⊂ 1..n-1, gcd(n, S) = 1 (strongly
** connected); the sets closed under a -> n-a are the undirected circulants (with n/2 as a
** one-port offset when d is odd), so one enumeration covers both.
**
** Two facts keep it small and exact:
**   - multiplying S by a unit m of Z_n gives an isomorphic graph (x -> m x), so only the
**     lexicographically least set of each orbit is scored;
**   - a circulant is vertex-transitive (x -> x + c), so LP (1) of BFB has the same optimum
**     at every receiver: receiver 0 alone gives steps = its depth = D(G) and
**     tau = (d/N) Σ_t U*_{0,t} exactly (bfb.h), the values tc_candidate_measure checks.
** A directed circulant is reverse-symmetric (x -> -x maps G onto G^T) and simple.
**
** It runs last at each (n, d') (finder.c) and offers a circulant only where the set has no
** member at least as good in (steps, tau) (and bidirectional when the circulant is, for
** --bidirectional): it fills the points the database misses and leaves the named
** constructions of the papers in place where they tie (Table 7's rows keep their names).
** "Cheap" is at most CIRC_EXHAUSTIVE_WORK = C(n-1, d) * n: the subsets enumerated times the
** size of each BFS, which keeps a whole find within tens of milliseconds of what it took
** without this search (measured with bench's find rows; a find --sweep runs it per N).
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/intmath.h"
#include "find_internal.h"
#include "synth/bfb_internal.h"
#include "topocoll/topo.h"

/* C(n-1, d) * n at most this: d = 2 up to n = 59, d = 3 up to n = 29, d = 4 up to n = 20,
   d = 5 up to n = 17. */
#define CIRC_EXHAUSTIVE_WORK 100000

static int applies(int32_t n, int32_t d) {
  if (d < 2 || n < d + 2) return 0;
  int64_t c = 1; /* C(n-1, i) for i = 1..d, exact at every step */
  for (int32_t i = 1; i <= d; i++) {
    c = c * (n - i) / i;
    if (c * n > CIRC_EXHAUSTIVE_WORK) return 0;
  }
  return 1;
}

static int cmp_i32(const void *a, const void *b) {
  int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
  return (x > y) - (x < y);
}

/* 1 if the sorted set s is the least of its orbit under the units of Z_n. */
static int canonical(const int32_t *s, int32_t n, int32_t d, int32_t *scratch) {
  for (int32_t m = 2; m < n; m++) {
    if (tci_gcd64(m, n) != 1) continue;
    for (int32_t i = 0; i < d; i++) scratch[i] = (int32_t)((int64_t)s[i] * m % n);
    qsort(scratch, (size_t)d, sizeof *scratch, cmp_i32);
    for (int32_t i = 0; i < d; i++) {
      if (scratch[i] < s[i]) return 0;
      if (scratch[i] > s[i]) break;
    }
  }
  return 1;
}

/* Closed under a -> n - a: the graph is bidirectional (an undirected circulant). */
static int closed(const int32_t *s, int32_t n, int32_t d) {
  for (int32_t i = 0; i < d; i++)
    if (s[d - 1 - i] != n - s[i]) return 0;
  return 1;
}

/* (steps, tau) of the optimal BFB allgather on Cay(Z_n, s), from receiver 0. */
static int score(const int32_t *s, int32_t n, int32_t d, int32_t *steps, tc_rat *tau, tc_error *err) {
  int64_t offs[TC_FIND_MAX_DEGREE];
  for (int32_t i = 0; i < d; i++) offs[i] = s[i];
  tc_graph *g = NULL;
  tci_bfb_receiver r;
  memset(&r, 0, sizeof r);
  int rc = tc_topo_directed_circulant(n, offs, d, &g, err);
  if (!rc) rc = tci_bfb_receiver_build(g, 0, &r, err);
  tc_rat sum = {0, 1};
  for (int32_t t = 1; !rc && t <= r.depth; t++) {
    tc_rat U;
    rc = tci_bfb_step_solve(g, &r, t, &U, NULL, err);
    if (!rc) rc = tc_rat_add(sum, U, &sum, err);
  }
  if (!rc) rc = tc_rat_mul(sum, (tc_rat){d, n}, tau, err);
  *steps = r.depth;
  tci_bfb_receiver_destroy(&r);
  tc_graph_destroy(g);
  return rc;
}

/* 1 if a member of the set is at least as good as fc in (steps, tau) and keeps what
   --bidirectional asks for. */
static int covered(const tc_find_sink *sk, const tc_find_cand *fc) {
  uint32_t want = tci_find_caps(fc) & sk->capmask & TC_FIND_CAP_BIDIR;
  for (int32_t i = 0; i < sk->set->count; i++) {
    const tc_find_cand *m = &sk->set->v[i];
    if (m->c.steps <= fc->c.steps && tc_rat_cmp(m->c.tau, fc->c.tau) <= 0 &&
        (tci_find_caps(m) & sk->capmask & want) == want)
      return 1;
  }
  return 0;
}

static int offer_set(const tc_find_sink *sk, const int32_t *s, int32_t n, int32_t d, tc_error *err) {
  int32_t steps = 0;
  tc_rat tau;
  int rc = score(s, n, d, &steps, &tau, err);
  if (rc) return rc;
  int bidir = closed(s, n, d);
  uint32_t flags = TC_CAND_BFB | TC_CAND_SIMPLE | TC_CAND_DISTINCT2 |
                   (tc_rat_cmp(tau, tci_find_bw_tau(n)) == 0 ? TC_CAND_BW_OPTIMAL : 0);
  tc_find_cand fc;
  tci_find_cand_init(&fc, n, d, steps, tau, flags, 1, bidir, steps);
  char spec[256];
  int at = snprintf(spec, sizeof spec, "dcirculant(%d", (int)n);
  for (int32_t i = 0; i < d && at < (int)sizeof spec; i++)
    at += snprintf(spec + at, sizeof spec - (size_t)at, ",%d", (int)s[i]);
  if (at >= (int)sizeof spec - 1) return TC_OK;
  if (!tci_find_cand_name(&fc, bidir ? "Circulant" : "DCirculant", "exhaustive offsets + BFB", "%s)", spec))
    return TC_OK;
  return covered(sk, &fc) ? TC_OK : tci_find_set_offer(sk->set, &fc, sk->capmask, err);
}

int tci_find_circulant_exhaustive(const tc_find_sink *sk, int32_t n, int32_t d, tc_error *err) {
  if (!applies(n, d)) return TC_OK;
  int32_t s[TC_FIND_MAX_DEGREE], scratch[TC_FIND_MAX_DEGREE];
  for (int32_t i = 0; i < d; i++) s[i] = i + 1;
  int rc = TC_OK;
  for (;;) {
    int64_t g = n;
    for (int32_t i = 0; i < d; i++) g = tci_gcd64(g, s[i]);
    if (g == 1 && canonical(s, n, d, scratch)) rc = offer_set(sk, s, n, d, err);
    if (rc) return rc;
    /* Next d-subset of 1..n-1 in lexicographic order. */
    int32_t i = d - 1;
    while (i >= 0 && s[i] == n - d + i) i--;
    if (i < 0) return TC_OK;
    s[i]++;
    for (int32_t j = i + 1; j < d; j++) s[j] = s[j - 1] + 1;
  }
}
