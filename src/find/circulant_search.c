/*
** circulant_search.c — low-diameter circulants C(n, {a_1..a_k}) for the finder (paper 000
** App. F.4, Def. 18, Thm 22).
**
** A circulant with k offsets in 1..(n-1)/2 is 2k-regular, and (Conjecture 1, proven for
** k = 2) BFB on it is BW-optimal with T_L = diameter. So the only thing to choose is the
** offset set, and the only score is the diameter. For k = 2 Boesch and Wang (Thm 22) give
** the optimum: {m, m+1} with m = ceil((-1 + sqrt(2n-1))/2) for n > 6. For k >= 3 no closed
** form is known, so we search, within a budget of BFS evaluations:
**   1. seeds: geometric sets {1, r, r^2, ...} for r near n^(1/k), runs {a, a+1, .., a+k-1}
**      and the Boesch–Wang pair extended, then seeded pseudo-random sets;
**   2. local search from the best set: move one offset by a small step or to a random value,
**      keeping a move when it lowers (diameter, number of nodes at that distance) — the
**      second count breaks ties among equal diameters and steers toward sets that are about
**      to lose their last level.
** (On k = 3 this finds the exact optimum, checked by exhaustive search, for most n <= 500.)
** The search stops early when it reaches the lattice ball lower bound: a k-offset circulant
** reaches at most Σ_{i<=min(k,D)} 2^i C(k,i) C(D,i) nodes within distance D (a vertex is a
** sum of at most D signed offsets; the count is that of Z^k's L1 ball). Everything is
** deterministic: the pseudo-random generator is seeded from (n, k).
**
** A circulant is vertex-transitive, so one BFS from node 0 gives its diameter; a BFS costs
** O(n k) and stops as soon as it exceeds the best diameter so far.
*/
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/intmath.h"
#include "core/rng.h"
#include "find_internal.h"

typedef struct search {
  int32_t n, k;
  int64_t left;          /* evaluations left */
  int32_t *dist, *queue; /* n each */
  int32_t *cur;          /* k: the set being evaluated */
  int32_t *best;         /* k */
  int32_t best_d;        /* -1: none yet */
  int64_t best_last;     /* nodes at distance best_d */
  int32_t lower;         /* ball bound: nothing can beat it */
  tc_rng rng;
} search;

int32_t tci_find_circulant_lower_bound(int32_t n, int32_t k) {
  for (int32_t D = 0;; D++) {
    /* Σ_i 2^i C(k,i) C(D,i) in floating point: only compared with n <= 2^20, and every
       term is an integer far below 2^53 until the sum passes n. */
    double ball = 0, term = 1; /* term = 2^i C(k,i) C(D,i) */
    for (int32_t i = 0; i <= k && i <= D; i++) {
      if (i > 0) term = term * 2.0 * (double)(k - i + 1) / i * (double)(D - i + 1) / i;
      ball += term;
    }
    if (ball >= n) return D;
  }
}

/* Fold a into 1..n/2 (a and n-a are the same offset). 0 if a ≡ 0. */
static int32_t fold(int64_t a, int32_t n) {
  a %= n;
  if (a < 0) a += n;
  return (int32_t)(a > n - a ? n - a : a);
}

/* Offsets usable as a degree-2k set: distinct, in 1..(n-1)/2, gcd with n is 1. */
static int valid(const search *s, const int32_t *o) {
  int64_t g = s->n;
  for (int32_t i = 0; i < s->k; i++) {
    if (o[i] < 1 || 2 * (int64_t)o[i] >= s->n) return 0;
    for (int32_t j = 0; j < i; j++)
      if (o[j] == o[i]) return 0;
    g = tci_gcd64(g, o[i]);
  }
  return g == 1;
}

/* BFS from 0: diameter and the number of nodes at that distance; stops (returning 0) once
   a level exceeds `cap`. */
static int bfs(search *s, const int32_t *o, int32_t cap, int32_t *diameter, int64_t *last) {
  int32_t n = s->n;
  for (int32_t i = 0; i < n; i++) s->dist[i] = -1;
  s->dist[0] = 0;
  s->queue[0] = 0;
  int32_t head = 0, tail = 1;
  while (head < tail) {
    int32_t x = s->queue[head++], dx = s->dist[x];
    if (dx + 1 > cap && tail < n) return 0;
    for (int32_t j = 0; j < s->k; j++) {
      int32_t a = o[j], y1 = x + a >= n ? x + a - n : x + a, y2 = x - a < 0 ? x - a + n : x - a;
      if (s->dist[y1] < 0) {
        s->dist[y1] = dx + 1;
        s->queue[tail++] = y1;
      }
      if (s->dist[y2] < 0) {
        s->dist[y2] = dx + 1;
        s->queue[tail++] = y2;
      }
    }
  }
  if (tail < n) return 0; /* disconnected (cannot happen for valid sets) */
  *diameter = s->dist[s->queue[n - 1]];
  *last = 0;
  for (int32_t i = n - 1; i >= 0 && s->dist[s->queue[i]] == *diameter; i--) ++*last;
  return 1;
}

static int cmp_i32(const void *a, const void *b) {
  int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
  return (x > y) - (x < y);
}

/* Score s->cur (sorted in place); keep it if it beats the best. 1 if it became the best. */
static int try_set(search *s) {
  if (s->left <= 0) return 0;
  s->left--; /* invalid sets count too, so every loop below terminates */
  if (!valid(s, s->cur)) return 0;
  qsort(s->cur, (size_t)s->k, sizeof *s->cur, cmp_i32);
  int32_t D;
  int64_t last;
  int32_t cap = s->best_d < 0 ? s->n : s->best_d;
  if (!bfs(s, s->cur, cap, &D, &last)) return 0;
  if (s->best_d >= 0 && (D > s->best_d || (D == s->best_d && last >= s->best_last))) return 0;
  memcpy(s->best, s->cur, (size_t)s->k * sizeof *s->best);
  s->best_d = D;
  s->best_last = last;
  return 1;
}

static int done(const search *s) { return s->left <= 0 || (s->best_d >= 0 && s->best_d <= s->lower); }

/* Seed families that are good for lattice-like circulants. */
static void seeds(search *s) {
  int32_t n = s->n, k = s->k;
  for (int32_t i = 0; i < k; i++) s->cur[i] = i + 1; /* always valid: n >= 2k+1 */
  try_set(s);
  double root = pow((double)n, 1.0 / k);
  for (int32_t r = (int32_t)root - 2; !done(s) && r <= (int32_t)root + 3; r++) {
    if (r < 2) continue;
    int64_t p = 1;
    for (int32_t i = 0; i < k; i++, p = p * r % n) s->cur[i] = fold(p, n);
    try_set(s);
  }
  /* Runs a, a+1, .., a+k-1 with a near the Boesch–Wang scale sqrt(n/k). */
  int32_t a0 = (int32_t)sqrt((double)n / k);
  for (int32_t a = a0 - 3; !done(s) && a <= a0 + 3; a++) {
    if (a < 1) continue;
    for (int32_t i = 0; i < k; i++) s->cur[i] = fold((int64_t)a + i, n);
    try_set(s);
  }
  for (int32_t tries = 0; !done(s) && tries < 4 * k; tries++) {
    for (int32_t i = 0; i < k; i++) s->cur[i] = 1 + (int32_t)tci_rng_below(&s->rng, (uint64_t)((n - 1) / 2));
    try_set(s);
  }
}

/* Move one offset at a time: small steps first, then random jumps. */
static void improve(search *s) {
  int32_t n = s->n, k = s->k, half = (n - 1) / 2;
  static const int32_t steps[] = {1, -1, 2, -2, 3, -3, 5, -5, 8, -8};
  while (!done(s)) {
    int improved = 0;
    for (int32_t j = 0; j < k && !done(s); j++) {
      for (size_t m = 0; m < sizeof steps / sizeof steps[0] && !done(s); m++) {
        memcpy(s->cur, s->best, (size_t)k * sizeof *s->cur);
        s->cur[j] = fold((int64_t)s->cur[j] + steps[m], n);
        improved |= try_set(s);
      }
      memcpy(s->cur, s->best, (size_t)k * sizeof *s->cur);
      s->cur[j] = 1 + (int32_t)tci_rng_below(&s->rng, (uint64_t)half);
      improved |= try_set(s);
    }
    if (!improved) {
      /* A random restart nearby keeps spending the budget on new ground. */
      memcpy(s->cur, s->best, (size_t)k * sizeof *s->cur);
      for (int32_t j = 0; j < k; j += 2) s->cur[j] = 1 + (int32_t)tci_rng_below(&s->rng, (uint64_t)half);
      try_set(s);
    }
  }
}

/* Boesch–Wang m: least m with (2m+1)^2 >= 2n-1. */
static int32_t boesch_wang_m(int32_t n) {
  int32_t m = 0;
  while ((int64_t)(2 * m + 1) * (2 * m + 1) < 2 * (int64_t)n - 1) m++;
  return m;
}

int tci_find_circulant_search(int32_t n, int32_t k, int64_t evaluations, int32_t *offs, int32_t *diameter,
                             tc_error *err) {
  *diameter = -1;
  if (k < 2 || n < 2 * k + 1) return TC_OK;
  search s = {.n = n, .k = k, .left = evaluations > 0 ? evaluations : 1, .best_d = -1};
  s.dist = malloc((size_t)n * sizeof *s.dist);
  s.queue = malloc((size_t)n * sizeof *s.queue);
  s.cur = malloc((size_t)k * sizeof *s.cur);
  s.best = malloc((size_t)k * sizeof *s.best);
  int rc = TC_OK;
  if (!s.dist || !s.queue || !s.cur || !s.best) {
    rc = tc_error_set(err, TC_ENOMEM, "out of memory");
  } else {
    s.lower = tci_find_circulant_lower_bound(n, k);
    tci_rng_seed(&s.rng, (uint64_t)n * 1000003u + (uint64_t)k);
    if (k == 2 && n > 6) {
      /* Thm 22: optimal among all two-offset circulants; one evaluation for its diameter. */
      s.cur[0] = boesch_wang_m(n);
      s.cur[1] = s.cur[0] + 1;
      s.left = 1;
      try_set(&s);
    } else {
      seeds(&s);
      if (s.best_d >= 0) improve(&s);
    }
    if (s.best_d >= 0) {
      memcpy(offs, s.best, (size_t)k * sizeof *offs);
      *diameter = s.best_d;
    }
  }
  free(s.dist);
  free(s.queue);
  free(s.cur);
  free(s.best);
  return rc;
}
