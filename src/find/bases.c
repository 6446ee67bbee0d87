/*
** bases.c — the finder's base topology database, closed-form part (paper 000 Table 9,
** Table 8, App. F): for a size n and degree d, every fixed instance
** and closed-form family member with exactly n nodes and degree d, with its exact
** (steps, tau) and the structural flags the expansion theorems need.
**
** Values and where they come from (all are what tc_candidate_build measures; the tests
** build every kind and compare):
**   complete(n)          K_n, d = n-1: 1 step, (n-1)/n (Table 9 row 1, BFB)
**   bipartite(d)         K_{d,d}, n = 2d: 2 steps, (2d-1)/(2d) (row 2, BFB)
**   hamming(k,q)         q^k nodes, d = k(q-1): k steps, BW-optimal (row 3, BFB by Thm 13)
**   hypercube(k)         H(k,2)
**   twistedhypercube(3)  8 nodes, d = 3: 2 steps, 7/8 (App. A.1, BFB)
**   dcirculant(d+2,1..d) 2 steps, (d+1)/(d+2) (row 7: every node misses one source at
**                        step 2, fed 1/d by each of its d in-arcs)
**   uniring(d,n)         n-1 steps, BW-optimal (row 9); biring(d,n): floor(n/2) (row 8, F.1)
**   torus(l1,..,lk)      every factorization of n into k >= 2 lengths >= 2 whose degree
**                        Σ (l_i == 2 ? 1 : 2) is d: Σ floor(l_i/2) steps, BW-optimal (BFB,
**                        Thm 13 on rings and K_2)
**   drg(name)            Table 8 (d = 4): steps = diameter, BW-optimal (F.3, BFB)
**   diamond(), dbjmod()  Table 9 rows 10, 12-15: BW-optimal schedules that are not BFB,
**                        stored (fig_schedules.h): T_L 3, 4, 5, 3, 3
**   kautz(d,k)           L^k(K_{d+1}): k+1 steps, tau by Cor 10.1 from K_{d+1}'s (1, d/(d+1))
** Each family's own constraints (rings need n >= 2 or 3, a torus length-2 dimension is K_2,
** ...) are those of its generator in src/topo, so every spec here builds.
*/
#include <stdio.h>
#include <string.h>

#include "find_internal.h"

#define BW_BFB (TC_CAND_BFB | TC_CAND_BW_OPTIMAL)

static int offer(const tc_find_sink *sk, const tc_find_cand *fc, tc_error *err) {
  return tci_find_set_offer(sk->set, fc, sk->capmask, err);
}

/* A simple, bidirectional, BW-optimal BFB base (the common case), diameter = steps. */
static void symmetric_bw_base(tc_find_cand *fc, int32_t n, int32_t d, int32_t steps) {
  uint32_t flags = BW_BFB | TC_CAND_SIMPLE | (d >= 2 ? TC_CAND_DISTINCT2 : 0);
  tci_find_cand_init(fc, n, d, steps, tci_find_bw_tau(n), flags, 1, 1, steps);
}

static int complete_bases(const tc_find_sink *sk, int32_t n, int32_t d, tc_error *err) {
  tc_find_cand fc;
  int rc = TC_OK;
  if (d == n - 1) {
    symmetric_bw_base(&fc, n, d, 1);
    if (tci_find_cand_name(&fc, "Complete", "Table 9 (BFB)", "complete(%d)", (int)n)) rc = offer(sk, &fc, err);
  }
  if (!rc && d >= 2 && n == 2 * d) {
    symmetric_bw_base(&fc, n, d, 2);
    if (tci_find_cand_name(&fc, "Bipartite", "Table 9 (BFB)", "bipartite(%d)", (int)d)) rc = offer(sk, &fc, err);
  }
  return rc;
}

/* n == q^k exactly (q, k >= 2)? */
static int is_power(int64_t n, int64_t q, int64_t k) {
  int64_t p = 1;
  for (int64_t i = 0; i < k; i++) {
    if (p > n / q) return 0;
    p *= q;
  }
  return p == n;
}

static int hamming_bases(const tc_find_sink *sk, int32_t n, int32_t d, tc_error *err) {
  tc_find_cand fc;
  int rc = TC_OK;
  for (int32_t k = 2; !rc && k <= d; k++) {
    if (d % k) continue;
    int32_t q = d / k + 1;
    if (!is_power(n, q, k)) continue;
    symmetric_bw_base(&fc, n, d, k);
    int named = q == 2 ? tci_find_cand_name(&fc, "Hypercube", "Table 9 (BFB)", "hypercube(%d)", (int)k)
                       : tci_find_cand_name(&fc, "Hamming", "Table 9 (BFB)", "hamming(%d,%d)", (int)k, (int)q);
    if (named) rc = offer(sk, &fc, err);
  }
  if (!rc && n == 8 && d == 3) {
    /* The twisted 3-cube: diameter 2 and still BW-optimal under BFB (A.1). */
    symmetric_bw_base(&fc, n, d, 2);
    if (tci_find_cand_name(&fc, "TwistedCube", "A.1 (BFB)", "twistedhypercube(3)")) rc = offer(sk, &fc, err);
  }
  return rc;
}

static int directed_circulant_base(const tc_find_sink *sk, int32_t n, int32_t d, tc_error *err) {
  if (d < 2 || n != d + 2) return TC_OK;
  tc_find_cand fc;
  tci_find_cand_init(&fc, n, d, 2, tci_find_bw_tau(n), BW_BFB | TC_CAND_SIMPLE | TC_CAND_DISTINCT2, 1, 0, 2);
  char spec[256];
  int len = snprintf(spec, sizeof spec, "dcirculant(%d", (int)n);
  for (int32_t a = 1; a <= d && len < (int)sizeof spec; a++)
    len += snprintf(spec + len, sizeof spec - (size_t)len, ",%d", (int)a);
  if (len >= (int)sizeof spec - 1) return TC_OK;
  if (!tci_find_cand_name(&fc, "DCirculant", "Table 9 (BFB)", "%s)", spec)) return TC_OK;
  return offer(sk, &fc, err);
}

static int ring_bases(const tc_find_sink *sk, int32_t n, int32_t d, tc_error *err) {
  tc_find_cand fc;
  /* UniRing(d,n): d parallel arcs to the next node; with n == 2 the arcs pair up. */
  tci_find_cand_init(&fc, n, d, n - 1, tci_find_bw_tau(n), BW_BFB | (d == 1 ? TC_CAND_SIMPLE : 0), 1, n == 2, n - 1);
  int rc = TC_OK;
  if (tci_find_cand_name(&fc, "UniRing", "Table 9 (BFB)", "uniring(%d,%d)", (int)d, (int)n)) rc = offer(sk, &fc, err);
  if (!rc && d % 2 == 0 && n >= 3) {
    tci_find_cand_init(&fc, n, d, n / 2, tci_find_bw_tau(n), BW_BFB | TC_CAND_DISTINCT2 | (d == 2 ? TC_CAND_SIMPLE : 0),
                      1, 1, n / 2);
    if (tci_find_cand_name(&fc, "BiRing", "Table 9, F.1 (BFB)", "biring(%d,%d)", (int)d, (int)n))
      rc = offer(sk, &fc, err);
  }
  return rc;
}

/* Tori: lengths l[0] >= l[1] >= ... >= 2 with product n and degree d. */
typedef struct torus_walk {
  const tc_find_sink *sk;
  int32_t n, d;
  int32_t len[24];
  tc_error *err;
} torus_walk;

static int torus_emit(torus_walk *w, int k) {
  int32_t steps = 0;
  char spec[256];
  int at = snprintf(spec, sizeof spec, "torus(");
  for (int i = 0; i < k; i++) {
    steps += w->len[i] / 2;
    if (at < (int)sizeof spec) at += snprintf(spec + at, sizeof spec - (size_t)at, "%s%d", i ? "," : "", (int)w->len[i]);
  }
  if (at >= (int)sizeof spec - 1) return TC_OK; /* cannot be written down: leave it out */
  tc_find_cand fc;
  symmetric_bw_base(&fc, w->n, w->d, steps);
  if (!tci_find_cand_name(&fc, "Torus", "F.1 + Thm 13 (BFB)", "%s)", spec)) return TC_OK;
  return offer(w->sk, &fc, w->err);
}

/* Extend a torus with lengths <= max whose remaining product is `rest` and remaining
   degree is `deg`. */
static int torus_extend(torus_walk *w, int k, int32_t rest, int32_t deg, int32_t max) {
  if (rest == 1) return deg == 0 && k >= 2 ? torus_emit(w, k) : TC_OK;
  if (deg <= 0 || k == (int)(sizeof w->len / sizeof w->len[0])) return TC_OK;
  for (int32_t l = max < rest ? max : rest; l >= 2; l--) {
    if (rest % l) continue;
    int32_t ld = l == 2 ? 1 : 2;
    if (ld > deg) continue;
    w->len[k] = l;
    int rc = torus_extend(w, k + 1, rest / l, deg - ld, l);
    if (rc) return rc;
  }
  return TC_OK;
}

static int torus_bases(const tc_find_sink *sk, int32_t n, int32_t d, tc_error *err) {
  torus_walk w = {.sk = sk, .n = n, .d = d, .err = err};
  return torus_extend(&w, 0, n, d, n);
}

/* Paper 000 Table 8: name (as tc_topo_drg accepts it), N, diameter = BFB steps; d = 4. */
static const struct {
  const char *name;
  int32_t nodes, diameter;
} table8[] = {
    {"octahedron", 6, 2},    {"paley9", 9, 2},        {"k55-i", 10, 3},       {"heawood-dist3", 14, 3},
    {"petersen-line", 15, 3}, {"q4", 16, 4},          {"heawood-line", 21, 3}, {"pg23", 26, 3},
    {"ag24-minus", 32, 4},   {"odd4", 35, 3},         {"tutte8-line", 45, 4}, {"doubled-odd4", 70, 7},
    {"gq33", 80, 4},         {"tutte12-line", 189, 6}, {"gh33", 728, 6},
};

static int drg_bases(const tc_find_sink *sk, int32_t n, int32_t d, tc_error *err) {
  if (d != 4) return TC_OK;
  for (size_t i = 0; i < sizeof table8 / sizeof table8[0]; i++) {
    if (table8[i].nodes != n) continue;
    tc_find_cand fc;
    symmetric_bw_base(&fc, n, d, table8[i].diameter);
    if (!tci_find_cand_name(&fc, "DistReg", "Table 8, F.3 (BFB)", "drg(%s)", table8[i].name)) continue;
    int rc = offer(sk, &fc, err);
    if (rc) return rc;
  }
  return TC_OK;
}

/* Table 9 rows 10, 12-15: BW-optimal stored schedules with T_L one above BFB's reach. */
static const struct {
  const char *spec, *label;
  int32_t nodes, degree, steps, diameter;
  int reverse_symmetric;
} stored[] = {
    {"diamond()", "Diamond", 8, 2, 3, 3, 0},     {"dbjmod(2,3)", "DBJMod", 8, 2, 4, 3, 1},
    {"dbjmod(2,4)", "DBJMod", 16, 2, 5, 4, 0},  {"dbjmod(3,2)", "DBJMod", 9, 3, 3, 3, 0},
    {"dbjmod(4,2)", "DBJMod", 16, 4, 3, 3, 0},
};

static int stored_bases(const tc_find_sink *sk, int32_t n, int32_t d, tc_error *err) {
  for (size_t i = 0; i < sizeof stored / sizeof stored[0]; i++) {
    if (stored[i].nodes != n || stored[i].degree != d) continue;
    tc_find_cand fc;
    tci_find_cand_init(&fc, n, d, stored[i].steps, tci_find_bw_tau(n),
                      TC_CAND_BW_OPTIMAL | TC_CAND_SIMPLE | TC_CAND_DISTINCT2, stored[i].reverse_symmetric, 0,
                      stored[i].diameter);
    if (!tci_find_cand_name(&fc, stored[i].label, "stored schedule (Table 9)", "%s", stored[i].spec)) continue;
    int rc = offer(sk, &fc, err);
    if (rc) return rc;
  }
  return TC_OK;
}

/* Kautz K(d,k) = L^k(K_{d+1}), n = (d+1) d^k, k >= 1: Cor 10.1 from (1, d/(d+1)):
   tau = d/(d+1) + d/(d-1) · (1/(d+1) - 1/((d+1) d^k)) = d/(d+1) + (d^k - 1)/((d-1)(d+1) d^(k-1)). */
static int kautz_base(const tc_find_sink *sk, int32_t n, int32_t d, tc_error *err) {
  if (d < 2 || n % (d + 1)) return TC_OK;
  int64_t dk = n / (d + 1);
  int32_t k = 0;
  while (dk > 1 && dk % d == 0) {
    dk /= d;
    k++;
  }
  if (dk != 1 || k < 1) return TC_OK;
  int64_t pow_k = n / (d + 1);
  tc_rat base, extra, tau;
  if (tc_rat_make(d, d + 1, &base, NULL) ||
      tc_rat_make(pow_k - 1, (int64_t)(d - 1) * (d + 1) * (pow_k / d), &extra, NULL) ||
      tc_rat_add(base, extra, &tau, NULL))
    return TC_OK;
  tc_find_cand fc;
  tci_find_cand_init(&fc, n, d, k + 1, tau, TC_CAND_BFB | TC_CAND_SIMPLE | TC_CAND_DISTINCT2, 1, 0, k + 1);
  if (!tci_find_cand_name(&fc, "Kautz", "Table 9 (BFB); Cor 10.1 on K_{d+1}", "kautz(%d,%d)", (int)d, (int)k))
    return TC_OK;
  return offer(sk, &fc, err);
}

int tci_find_fixed_bases(const tc_find_sink *sk, int32_t n, int32_t d, tc_error *err) {
  int rc = complete_bases(sk, n, d, err);
  if (!rc) rc = hamming_bases(sk, n, d, err);
  if (!rc) rc = directed_circulant_base(sk, n, d, err);
  if (!rc) rc = ring_bases(sk, n, d, err);
  if (!rc) rc = torus_bases(sk, n, d, err);
  if (!rc) rc = drg_bases(sk, n, d, err);
  if (!rc) rc = stored_bases(sk, n, d, err);
  if (!rc) rc = kautz_base(sk, n, d, err);
  return rc;
}
