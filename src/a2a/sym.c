/*
** sym.c — a free group of automorphisms and its orbits (contract in sym.h).
**
** Growing the group. H is kept as the explicit list of its elements, indexed by the image of
** node 0: in a free group two elements that agree on one node are equal, so idx[x(0)] names
** x. Adding a candidate y enumerates <H, y> by closing the list under right multiplication
** by H's generators and y; the attempt is abandoned as soon as an element other than the
** identity fixes a node or two different elements send node 0 to the same place (either
** means the group is not free). Candidates are the generators BLISS returns and seeded
** pseudo-random elements (product replacement); one that is not semiregular itself is
** replaced by a power of prime order without fixed points, when it has one. Greedy growth
** can block itself (an early element that no translation commutes with freely), so a few
** growths are tried and the largest group is kept.
*/
#include "a2a/sym.h"

#include <stdlib.h>
#include <string.h>

#include "core/rng.h"
#include "topocoll/iso.h"

#define CANDIDATES 64 /* random elements tried after the generators */
#define SHAKE 32      /* product-replacement steps before the first random element */
#define ATTEMPTS 4    /* greedy growths, the largest group kept */

static int oom(tc_error *err) { return tc_error_set(err, TC_ENOMEM, "a2a: out of memory for the symmetry search"); }

void tci_a2a_sym_destroy(tci_a2a_sym *s) {
  free(s->elem), free(s->rep), free(s->rep_index), free(s->via), free(s->arc_class), free(s->class_cap);
  memset(s, 0, sizeof *s);
}

/* First arc u -> v (out-arcs of u are sorted by head), or -1. */
static int64_t first_arc(const tc_graph *g, int32_t u, int32_t v) {
  int64_t lo = g->out_off[u], hi = g->out_off[u + 1];
  while (lo < hi) {
    int64_t mid = lo + (hi - lo) / 2;
    if (g->dst[mid] < v) lo = mid + 1;
    else hi = mid;
  }
  return lo < g->out_off[u + 1] && g->dst[lo] == v ? lo : -1;
}

int64_t tci_a2a_sym_arc(const tc_graph *g, const tci_a2a_sym *s, int32_t h, int64_t a) {
  if (h == 0) return a;
  int32_t u = g->src[a], v = g->dst[a];
  int64_t k = a - first_arc(g, u, v);
  const int32_t *x = s->elem + (int64_t)h * s->n;
  return first_arc(g, x[u], x[v]) + k;
}

/* Orbits of the group in s->elem: representatives, the element reaching each node, arc
   classes and their capacities. */
static int orbits(const tc_graph *g, tci_a2a_sym *s, tc_error *err) {
  int32_t n = g->n;
  int64_t m = g->m;
  s->rep = malloc(sizeof *s->rep * (size_t)n);
  s->rep_index = malloc(sizeof *s->rep_index * (size_t)n);
  s->via = malloc(sizeof *s->via * (size_t)n);
  s->arc_class = malloc(sizeof *s->arc_class * (size_t)(m > 0 ? m : 1));
  s->class_cap = malloc(sizeof *s->class_cap * (size_t)(m > 0 ? m : 1));
  if (!s->rep || !s->rep_index || !s->via || !s->arc_class || !s->class_cap) return oom(err);
  for (int32_t u = 0; u < n; u++) s->rep_index[u] = -1;
  s->nreps = 0;
  for (int32_t u = 0; u < n; u++) {
    if (s->rep_index[u] >= 0) continue;
    for (int32_t h = 0; h < s->order; h++) {
      int32_t w = s->elem[(int64_t)h * n + u];
      s->rep_index[w] = s->nreps;
      s->via[w] = h;
    }
    s->rep[s->nreps++] = u;
  }
  for (int64_t a = 0; a < m; a++) s->arc_class[a] = g->src[a] == g->dst[a] ? -1 : -2;
  s->nclasses = 0;
  for (int64_t a = 0; a < m; a++) {
    if (s->arc_class[a] != -2) continue;
    for (int32_t h = 0; h < s->order; h++) s->arc_class[tci_a2a_sym_arc(g, s, h, a)] = s->nclasses;
    s->class_cap[s->nclasses++] = g->cap[a];
  }
  return TC_OK;
}

int tci_a2a_sym_trivial(const tc_graph *g, tci_a2a_sym *out, tc_error *err) {
  memset(out, 0, sizeof *out);
  out->n = g->n;
  out->order = 1;
  out->elem = malloc(sizeof *out->elem * (size_t)g->n);
  if (!out->elem) return oom(err);
  for (int32_t u = 0; u < g->n; u++) out->elem[u] = u;
  int rc = orbits(g, out, err);
  if (rc) tci_a2a_sym_destroy(out);
  return rc;
}

/* ---- growing a free group ---- */

typedef struct grower {
  int32_t n;
  int32_t order, room;
  int32_t *elem;    /* order·n */
  int32_t *idx;     /* n: element index by image of node 0, -1 */
  int32_t ngens;
  int32_t *gens;    /* ngens·n: generators of the current group */
} grower;

static int is_identity(const int32_t *x, int32_t n) {
  for (int32_t u = 0; u < n; u++)
    if (x[u] != u) return 0;
  return 1;
}

static int has_fixed_point(const int32_t *x, int32_t n) {
  for (int32_t u = 0; u < n; u++)
    if (x[u] == u) return 1;
  return 0;
}

/* z = x then y: z(u) = y(x(u)). */
static void compose(const int32_t *x, const int32_t *y, int32_t *z, int32_t n) {
  for (int32_t u = 0; u < n; u++) z[u] = y[x[u]];
}

/* Try to extend the group by y. Returns 1 (extended, y kept as a generator), 0 (not free,
   group unchanged), -1 out of memory. */
static int try_extend(grower *w, const int32_t *y) {
  int32_t n = w->n, old = w->order;
  int32_t *z = malloc(sizeof *z * (size_t)n);
  int32_t *gens = realloc(w->gens, sizeof *gens * (size_t)(w->ngens + 1) * (size_t)n);
  if (!z || !gens) {
    free(z);
    if (gens) w->gens = gens;
    return -1;
  }
  w->gens = gens;
  memcpy(w->gens + (int64_t)w->ngens * n, y, sizeof *y * (size_t)n);
  int32_t ngens = w->ngens + 1, ok = 1;
  for (int32_t i = 0; ok == 1 && i < w->order; i++)
    for (int32_t k = 0; ok == 1 && k < ngens; k++) {
      compose(w->elem + (int64_t)i * n, w->gens + (int64_t)k * n, z, n);
      int32_t at = w->idx[z[0]];
      if (at >= 0) {
        if (memcmp(w->elem + (int64_t)at * n, z, sizeof *z * (size_t)n)) ok = 0; /* two elements agree on 0 */
        continue;
      }
      if (w->order == n || has_fixed_point(z, n)) { /* z(0) != 0 here, so z is not the identity */
        ok = 0;
        continue;
      }
      if (w->order == w->room) {
        int32_t room = w->room * 2 < n ? w->room * 2 : n;
        int32_t *e = realloc(w->elem, sizeof *e * (size_t)room * (size_t)n);
        if (!e) {
          ok = -1;
          continue;
        }
        w->elem = e;
        w->room = room;
      }
      memcpy(w->elem + (int64_t)w->order * n, z, sizeof *z * (size_t)n);
      w->idx[z[0]] = w->order++;
    }
  free(z);
  if (ok == 1 && w->order > old) {
    w->ngens = ngens;
    return 1;
  }
  for (int32_t i = old; i < w->order; i++) w->idx[w->elem[(int64_t)i * n]] = -1; /* undo */
  w->order = old;
  return ok < 0 ? -1 : 0;
}

/* y semiregular (all cycles of one length), or a fixed-point-free power of y of prime
   order written over it; 0 when neither exists. scratch: 4n + 1. */
static int make_semiregular(int32_t *y, int32_t n, int32_t *scratch) {
  int32_t *cyc = scratch, *pos = scratch + n, *cid = scratch + 2 * n, *cstart = scratch + 3 * n;
  for (int32_t u = 0; u < n; u++) cid[u] = -1;
  int32_t ncyc = 0, k = 0, first = -1, same = 1;
  int64_t order = 1;
  for (int32_t u = 0; u < n; u++) {
    if (cid[u] >= 0) continue;
    cstart[ncyc] = k;
    for (int32_t x = u; cid[x] < 0; x = y[x]) cid[x] = ncyc, pos[x] = k - cstart[ncyc], cyc[k++] = x;
    int32_t l = k - cstart[ncyc++];
    if (first < 0) first = l;
    else if (l != first) same = 0;
    int64_t a = order, b = l; /* order = lcm of the cycle lengths */
    while (b) { int64_t t = a % b; a = b; b = t; }
    order = order / a * l;
    if (order > n) return 0; /* no element of a free group has order above n */
  }
  cstart[ncyc] = k;
  if (same) return first > 1;
  /* a prime p dividing the order: y^(order/p) moves every node iff no cycle length divides
     order/p; on a cycle (c_0 .. c_{l-1}) it sends c_i to c_{(i + e) mod l} */
  for (int64_t p = 2; p <= order; p++) {
    int is_prime = order % p == 0;
    for (int64_t q = 2; is_prime && q * q <= p; q++)
      if (p % q == 0) is_prime = 0;
    if (!is_prime) continue;
    int64_t e = order / p;
    int ok = 1;
    for (int32_t c = 0; ok && c < ncyc; c++) ok = e % (cstart[c + 1] - cstart[c]) != 0;
    if (!ok) continue;
    for (int32_t u = 0; u < n; u++) {
      int32_t c = cid[u], l = cstart[c + 1] - cstart[c];
      y[u] = cyc[cstart[c] + (int32_t)((pos[u] + e) % l)];
    }
    return 1;
  }
  return 0;
}

/* One greedy growth: candidates are the generators (when `with_gens`) and then random
   elements of a product-replacement stream seeded by `seed`. On return w holds the group
   (w->elem, w->order); -1 out of memory. */
static int grow(const int32_t *gens, int32_t count, int32_t n, uint64_t seed, int with_gens, grower *w) {
  int32_t slots = count < 8 ? 8 : count;
  int rc = 0;
  w->n = n, w->order = 1, w->room = 1, w->ngens = 0;
  w->elem = malloc(sizeof *w->elem * (size_t)n);
  w->idx = malloc(sizeof *w->idx * (size_t)n);
  w->gens = NULL;
  int32_t *pr = malloc(sizeof *pr * (size_t)(slots + 2) * (size_t)n); /* product replacement */
  int32_t *y = malloc(sizeof *y * (size_t)n), *scratch = malloc(sizeof *scratch * (4 * (size_t)n + 1));
  if (!w->elem || !w->idx || !pr || !y || !scratch) {
    free(pr), free(y), free(scratch);
    return -1;
  }
  for (int32_t u = 0; u < n; u++) w->elem[u] = u, w->idx[u] = -1;
  w->idx[0] = 0;
  for (int32_t i = 0; i < slots; i++) memcpy(pr + (int64_t)i * n, gens + (int64_t)(i % count) * n, sizeof *pr * (size_t)n);
  int32_t *acc = pr + (int64_t)slots * n, *tmp = acc + n;
  for (int32_t u = 0; u < n; u++) acc[u] = u;
  tc_rng rng;
  tci_rng_seed(&rng, seed);
  int32_t first = with_gens ? 0 : count;
  for (int32_t step = first; step < count + SHAKE + CANDIDATES && w->order < n && !rc; step++) {
    if (step < count) {
      memcpy(y, gens + (int64_t)step * n, sizeof *y * (size_t)n);
    } else { /* product replacement: pr[i] = pr[i]·pr[j], acc = acc·pr[i] */
      int32_t i = (int32_t)tci_rng_below(&rng, (uint64_t)slots), j = (int32_t)tci_rng_below(&rng, (uint64_t)slots - 1);
      if (j >= i) j++;
      compose(pr + (int64_t)i * n, pr + (int64_t)j * n, tmp, n);
      memcpy(pr + (int64_t)i * n, tmp, sizeof *tmp * (size_t)n);
      compose(acc, pr + (int64_t)i * n, tmp, n);
      memcpy(acc, tmp, sizeof *tmp * (size_t)n);
      if (step < count + SHAKE) continue;
      memcpy(y, acc, sizeof *y * (size_t)n);
    }
    if (is_identity(y, n) || !make_semiregular(y, n, scratch) || w->idx[y[0]] >= 0) continue;
    if (try_extend(w, y) < 0) rc = -1;
  }
  free(pr), free(y), free(scratch);
  return rc;
}

int tci_a2a_sym_find(const tc_graph *g, uint64_t seed, tci_a2a_sym *out, tc_error *err) {
  memset(out, 0, sizeof *out);
  int32_t n = g->n;
  if (n > TCI_A2A_SYM_MAX_NODES) return tci_a2a_sym_trivial(g, out, err);
  int32_t *gens = NULL, count = 0;
  int rc = tc_graph_automorphism_generators(g, &gens, &count, err);
  if (rc) return rc;
  if (count == 0) return tci_a2a_sym_trivial(g, out, err);
  /* a greedy growth can block itself with an early element: ATTEMPTS of them (the first
     from the generators, the others from random elements alone), the largest group kept */
  grower best = {0};
  for (int attempt = 0; attempt < ATTEMPTS && best.order < n && !rc; attempt++) {
    grower w = {0};
    if (grow(gens, count, n, seed + (uint64_t)attempt, attempt == 0, &w) < 0) rc = oom(err);
    if (!rc && w.order > best.order) {
      free(best.elem), free(best.idx), free(best.gens);
      best = w;
    } else {
      free(w.elem), free(w.idx), free(w.gens);
    }
  }
  if (!rc) {
    out->n = n;
    out->order = best.order;
    out->elem = best.elem, best.elem = NULL;
    rc = orbits(g, out, err);
  }
  free(gens), free(best.elem), free(best.idx), free(best.gens);
  if (rc) tci_a2a_sym_destroy(out);
  return rc;
}
