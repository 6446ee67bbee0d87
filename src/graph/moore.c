/*
** moore.c — Moore bounds (paper 000 Def. 9–10, App. C.2; paper 002 Eq. 2.1–2.2).
**
** A d-regular digraph of diameter k has at most M_{d,k} = Σ_{i=0..k} d^i nodes; an
** undirected d-regular graph at most 1 + d Σ_{i=0..k-1} (d-1)^i. The Moore-optimal
** diameter is the least k whose bound admits N nodes. Sums saturate at INT64_MAX so
** huge degrees or diameters never overflow.
**
** The same counting bounds all-to-all (paper 003 §5.4, Theorem 1 and Eq. (25)): from any
** root at most d^i nodes lie at distance i, so the distances from a root to the other N-1
** nodes sum to at least S_min(N,d), the sum with levels filled greedily.
*/
#include "topocoll/metrics.h"

#include <stdint.h>

static int64_t sat_mul(int64_t a, int64_t b) {
  if (a == 0 || b == 0) return 0;
  return a > INT64_MAX / b ? INT64_MAX : a * b;
}

static int64_t sat_add(int64_t a, int64_t b) { return a > INT64_MAX - b ? INT64_MAX : a + b; }

int64_t tc_moore_directed(int64_t d, int64_t k) {
  int64_t sum = 0, power = 1;
  for (int64_t i = 0; i <= k && sum < INT64_MAX; i++) {
    sum = sat_add(sum, power);
    power = sat_mul(power, d);
  }
  return sum;
}

int64_t tc_moore_undirected(int64_t d, int64_t k) {
  int64_t sum = 1, power = d; /* d (d-1)^i for i = 0.. */
  for (int64_t i = 0; i < k && sum < INT64_MAX; i++) {
    sum = sat_add(sum, power);
    power = sat_mul(power, d - 1);
  }
  return sum;
}

/* Least k with n <= 1 + Σ_{i=0..k-1} first*ratio^i, built incrementally (O(k), not
   O(k^2)); ratio 1 is closed-form so rings of a million nodes answer at once. */
static int32_t least_diameter(int64_t n, int64_t first, int64_t ratio) {
  if (n <= 1) return 0;
  if (first <= 0) return -1;
  if (ratio == 1) {
    int64_t k = (n - 1 + first - 1) / first;
    return k > INT32_MAX ? -1 : (int32_t)k;
  }
  if (ratio <= 0) return n <= 1 + first ? 1 : -1;
  int64_t sum = 1, term = first;
  for (int32_t k = 1;; k++) {
    sum = sat_add(sum, term);
    if (n <= sum) return k;
    term = sat_mul(term, ratio);
  }
}

/* Directed: M_{d,k} = 1 + Σ_{i=1..k} d^i, i.e. first term d, ratio d. */
int32_t tc_moore_diameter_directed(int64_t n, int64_t d) { return d < 0 ? -1 : least_diameter(n, d, d); }

/* Undirected: first term d, ratio d-1. */
int32_t tc_moore_diameter_undirected(int64_t n, int64_t d) { return d < 0 ? -1 : least_diameter(n, d, d - 1); }

/* Fill level i = 1, 2, ... with up to d^i of the N-1 non-roots, adding i per node placed.
   d == 1 is a path; d == 0 admits no second node. */
int64_t tc_moore_depth_sum(int64_t n, int64_t d) {
  if (n <= 1) return 0;
  if (d <= 0) return -1;
  if (d == 1) { /* one node per level: 1 + 2 + ... + (N-1), in closed form (N may be huge) */
    int64_t a = n - 1, b = n;
    if (a % 2 == 0) a /= 2; else b /= 2;
    return sat_mul(a, b);
  }
  int64_t left = n - 1, sum = 0, level_size = d; /* d >= 2: at most 63 levels */
  for (int64_t i = 1; left > 0; i++) {
    int64_t here = left < level_size ? left : level_size;
    sum = sat_add(sum, sat_mul(here, i));
    left -= here;
    level_size = sat_mul(level_size, d);
  }
  return sum;
}
