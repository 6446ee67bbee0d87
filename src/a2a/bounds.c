/*
** bounds.c — analytic upper bounds on the all-to-all MCF value F (contract in
** topocoll/a2a.h, tc_a2a_bounds), each an exact rational a solver's F can be checked against.
**
**   distance   F <= C / Σ_{s≠t} dist(s,t): every unit of commodity (s,t) crosses at least
**              dist(s,t) arcs, and all of them together cross at most C = Σ_e c_e;
**   moore      F <= C / (N · S_min(N, Δ)) (paper 003 §5.4, Theorem 1, Eq. (25)): the same
**              count with Σ_t dist(s,t) replaced by its least value over any graph whose
**              nodes have at most Δ distinct out-neighbours (in-neighbours, for the sums
**              into a sink). For a d-regular graph of unit links it is d / S_min(N,d), the
**              paper's bound; it never beats the distance bound, and is the yardstick the
**              paper normalizes topologies by (Fig. 10);
**   bisection  F <= min(c(S→S̄), c(S̄→S)) / (|S|·|S̄|) (paper 003 §2.3, 4χ/N² for even N):
**              the |S|·|S̄| commodities from S to S̄ all cross the cut. It holds for ANY
**              cut, so a heuristic search is safe: the cut found is reported with it.
** Loops carry nothing and are left out of C. The cut search is Fiduccia–Mattheyses, from
** the id split (the natural cut of tori and hypercubes, whose ids are row-major), a BFS
** ball and seeded random halves, on the undirected cut and (directed graphs) on each
** direction alone; sides keep ⌊N/2⌋ and ⌈N/2⌉ nodes, and the cut kept is the one whose
** bound is least. Each pass costs O((N + M) log M).
*/
#include <stdlib.h>
#include <string.h>

#include "a2a/a2a_internal.h"
#include "core/rng.h"
#include "topocoll/metrics.h"

#define RANDOM_STARTS 8
#define MAX_PASSES 32

/* ---- counts ---- */

/* Σ c_e over arcs that are not loops. */
static int64_t link_capacity(const tc_graph *g) {
  int64_t c = 0;
  for (int64_t a = 0; a < g->m; a++)
    if (g->src[a] != g->dst[a]) c += g->cap[a];
  return c;
}

/* The most distinct neighbours (loops aside) of any node, out (dir 0) or in (dir 1). */
static int64_t max_neighbours(const tc_graph *g, tc_dir dir) {
  int64_t best = 0;
  for (int32_t u = 0; u < g->n; u++) {
    const int64_t *off = dir == TC_OUT ? g->out_off : g->in_off;
    int64_t count = 0;
    int32_t last = -1;
    for (int64_t i = off[u]; i < off[u + 1]; i++) { /* sorted by neighbour in both CSRs */
      int32_t v = dir == TC_OUT ? g->dst[i] : g->src[g->in_arc[i]];
      if (v != u && v != last) count++;
      last = v;
    }
    if (count > best) best = count;
  }
  return best;
}

/* ---- the bisection search ---- */

typedef struct heap_entry {
  int64_t gain;
  int32_t v;
} heap_entry;

typedef struct heap {
  heap_entry *e;
  int64_t size, room;
} heap;

static int heap_push(heap *h, int64_t gain, int32_t v) {
  if (h->size == h->room) {
    int64_t room = h->room ? 2 * h->room : 64;
    heap_entry *e = realloc(h->e, (size_t)room * sizeof *e);
    if (!e) return 0;
    h->e = e;
    h->room = room;
  }
  int64_t i = h->size++;
  while (i > 0 && h->e[(i - 1) / 2].gain < gain) {
    h->e[i] = h->e[(i - 1) / 2];
    i = (i - 1) / 2;
  }
  h->e[i] = (heap_entry){gain, v};
  return 1;
}

static void heap_pop(heap *h) {
  heap_entry last = h->e[--h->size];
  int64_t i = 0;
  for (;;) {
    int64_t c = 2 * i + 1;
    if (c >= h->size) break;
    if (c + 1 < h->size && h->e[c + 1].gain > h->e[c].gain) c++;
    if (h->e[c].gain <= last.gain) break;
    h->e[i] = h->e[c];
    i = c;
  }
  if (h->size > 0) h->e[i] = last;
}

/* The search minimizes the weighted crossing capacity wt[0]·c(0→1) + wt[1]·c(1→0) with
   weights (1,1) (the undirected cut) and, on graphs whose two directions differ, (1,0) and
   (0,1): the bound takes the smaller direction, which the undirected cut may miss. */
typedef struct cutter {
  const tc_graph *g;
  uint8_t *side;    /* n: 0 or 1 */
  int64_t *gain;    /* n: the objective's decrease if v moves */
  uint8_t *locked;  /* n */
  int32_t *moves;   /* n */
  int32_t size[2];
  int64_t cross[2]; /* cross[k]: capacity from side k to side 1-k */
  int64_t wt[2];
  heap h[2];
} cutter;

/* What arc x->y of capacity cap adds to the objective with the sides sx, sy. */
static int64_t arc_cost(const cutter *c, int sx, int sy, int64_t cap) { return sx != sy ? c->wt[sx] * cap : 0; }

/* Its share of the gain of moving its tail (tail 1) or its head (tail 0). */
static int64_t arc_gain(const cutter *c, int sx, int sy, int64_t cap, int tail) {
  return arc_cost(c, sx, sy, cap) - (tail ? arc_cost(c, 1 - sx, sy, cap) : arc_cost(c, sx, 1 - sy, cap));
}

static int64_t objective(const cutter *c) { return c->wt[0] * c->cross[0] + c->wt[1] * c->cross[1]; }

/* Cut capacities and gains of the current sides, from scratch. */
static void recount(cutter *c) {
  const tc_graph *g = c->g;
  c->cross[0] = c->cross[1] = 0;
  c->size[0] = c->size[1] = 0;
  for (int32_t u = 0; u < g->n; u++) {
    c->gain[u] = 0;
    c->size[c->side[u]]++;
  }
  for (int64_t a = 0; a < g->m; a++) {
    int32_t x = g->src[a], y = g->dst[a];
    if (x == y) continue;
    int sx = c->side[x], sy = c->side[y];
    c->gain[x] += arc_gain(c, sx, sy, g->cap[a], 1);
    c->gain[y] += arc_gain(c, sx, sy, g->cap[a], 0);
    if (sx != sy) c->cross[sx] += g->cap[a];
  }
}

/* Move v to the other side, keeping cross and the unlocked neighbours' gains (pushed). */
static int move(cutter *c, int32_t v) {
  const tc_graph *g = c->g;
  int from = c->side[v], to = 1 - from;
  for (int dir = 0; dir < 2; dir++) { /* dir 0: arcs v->w, dir 1: arcs w->v */
    const int64_t *off = dir ? g->in_off : g->out_off;
    for (int64_t i = off[v]; i < off[v + 1]; i++) {
      int64_t a = dir ? g->in_arc[i] : i, cap = g->cap[a];
      int32_t w = dir ? g->src[a] : g->dst[a];
      if (w == v) continue;
      int sw = c->side[w];
      int sx0 = dir ? sw : from, sy0 = dir ? from : sw, sx1 = dir ? sw : to, sy1 = dir ? to : sw;
      if (sx0 != sy0) c->cross[sx0] -= cap;
      if (sx1 != sy1) c->cross[sx1] += cap;
      c->gain[w] += arc_gain(c, sx1, sy1, cap, dir) - arc_gain(c, sx0, sy0, cap, dir);
      if (!c->locked[w] && !heap_push(&c->h[sw], c->gain[w], w)) return 0;
    }
  }
  c->side[v] = (uint8_t)to;
  c->size[from]--;
  c->size[to]++;
  return 1;
}

/* The bound's numerator at the current sides: the smaller crossing capacity. */
static int64_t cut_value(const cutter *c) { return c->cross[0] < c->cross[1] ? c->cross[0] : c->cross[1]; }

/* The best valid entry of a side's heap (stale ones dropped), or -1. */
static int32_t heap_best(cutter *c, int s) {
  heap *h = &c->h[s];
  while (h->size > 0) {
    heap_entry top = h->e[0];
    if (!c->locked[top.v] && c->side[top.v] == s && c->gain[top.v] == top.gain) return top.v;
    heap_pop(h);
  }
  return -1;
}

/* One Fiduccia–Mattheyses pass: move every node once, always from the larger side (the
   side with the better candidate when equal), then keep the prefix of moves that left the
   least objective on balanced sides (ties: the smaller bound). Returns 1 if it improved, 0
   if not, -1 on allocation failure. */
static int fm_pass(cutter *c) {
  const tc_graph *g = c->g;
  recount(c);
  int64_t best = objective(c), best_value = cut_value(c);
  int32_t best_prefix = 0, count = 0;
  memset(c->locked, 0, (size_t)g->n);
  c->h[0].size = c->h[1].size = 0;
  for (int32_t v = 0; v < g->n; v++)
    if (!heap_push(&c->h[c->side[v]], c->gain[v], v)) return -1;
  for (;;) {
    int32_t a = heap_best(c, 0), b = heap_best(c, 1), v;
    if (c->size[0] > c->size[1]) v = a;
    else if (c->size[1] > c->size[0]) v = b;
    else v = a < 0 ? b : b < 0 ? a : c->gain[b] > c->gain[a] ? b : a;
    if (v < 0) break;
    c->locked[v] = 1;
    if (!move(c, v)) return -1;
    c->moves[count++] = v;
    int balanced = c->size[0] == g->n / 2 || c->size[1] == g->n / 2;
    int64_t obj = objective(c), value = cut_value(c);
    if (balanced && (obj < best || (obj == best && value < best_value))) {
      best = obj;
      best_value = value;
      best_prefix = count;
    }
  }
  for (int32_t i = count - 1; i >= best_prefix; i--) c->side[c->moves[i]] ^= 1;
  recount(c);
  return best_prefix > 0;
}

/* Run passes from the current sides until one does not improve. */
static int fm(cutter *c) {
  for (int pass = 0; pass < MAX_PASSES; pass++) {
    int r = fm_pass(c);
    if (r < 0) return 0;
    if (r == 0) break;
  }
  return 1;
}

/* Starting sides: 0 the id split, 1 a BFS ball around node 0, later ones random halves.
   Side 1 gets ⌊N/2⌋ nodes. */
static int start_sides(cutter *c, int which, tc_rng *rng, int32_t *scratch) {
  const tc_graph *g = c->g;
  int32_t n = g->n, half = n / 2;
  for (int32_t v = 0; v < n; v++) c->side[v] = which == 0 && v < half;
  if (which == 0) return 1;
  if (which == 1) {
    tc_layers layers;
    if (tc_graph_layers(g, 0, TC_OUT, &layers, NULL)) return 0;
    for (int32_t i = 0; i < half; i++) c->side[layers.order[i]] = 1; /* strongly connected: all reached */
    tc_layers_destroy(&layers);
    return 1;
  }
  for (int32_t v = 0; v < n; v++) scratch[v] = v;
  for (int32_t i = n - 1; i > 0; i--) { /* Fisher–Yates */
    int32_t j = (int32_t)tci_rng_below(rng, (uint64_t)i + 1), t = scratch[i];
    scratch[i] = scratch[j];
    scratch[j] = t;
  }
  for (int32_t i = 0; i < half; i++) c->side[scratch[i]] = 1;
  return 1;
}

static int bisection(const tc_graph *g, uint64_t seed, tc_a2a_bounds *out, tc_error *err) {
  int32_t n = g->n;
  cutter c = {.g = g};
  c.side = malloc((size_t)n);
  c.gain = malloc((size_t)n * sizeof *c.gain);
  c.locked = malloc((size_t)n);
  c.moves = malloc((size_t)n * sizeof *c.moves);
  int32_t *scratch = malloc((size_t)n * sizeof *scratch);
  out->cut_side = malloc((size_t)n);
  int ok = c.side && c.gain && c.locked && c.moves && scratch && out->cut_side;
  tc_rng rng;
  tci_rng_seed(&rng, seed);
  static const int64_t weights[3][2] = {{1, 1}, {1, 0}, {0, 1}};
  int nweights = g->bidirectional ? 1 : 3; /* both directions cross equally otherwise */
  int64_t best = -1, best_total = 0;
  for (int start = 0; ok && start < 2 + RANDOM_STARTS; start++)
    for (int w = 0; ok && w < nweights; w++) {
      c.wt[0] = weights[w][0], c.wt[1] = weights[w][1];
      ok = start_sides(&c, start, &rng, scratch) && fm(&c);
      int64_t value = cut_value(&c), total = c.cross[0] + c.cross[1];
      if (ok && (best < 0 || value < best || (value == best && total < best_total))) {
        best = value;
        best_total = total;
        memcpy(out->cut_side, c.side, (size_t)n);
        out->cut_size = c.size[1];
        out->cut_out = c.cross[1];
        out->cut_in = c.cross[0];
      }
    }
  free(c.side);
  free(c.gain);
  free(c.locked);
  free(c.moves);
  free(c.h[0].e);
  free(c.h[1].e);
  free(scratch);
  if (!ok) return tc_error_set(err, TC_ENOMEM, "out of memory for the bisection search of %d nodes", n);
  int64_t pairs = (int64_t)out->cut_size * (n - out->cut_size);
  return tc_rat_make(best, pairs, &out->bisection, err);
}

/* ---- the bounds ---- */

int tc_a2a_bounds_compute(const tc_graph *g, uint64_t seed, tc_a2a_bounds *out, tc_error *err) {
  memset(out, 0, sizeof *out);
  tc_a2a_options plain;
  tc_a2a_options_default(&plain);
  int rc = tci_a2a_check(g, &plain, err);
  if (rc) return rc;
  out->n = g->n;
  out->capacity = link_capacity(g);
  tc_distance_stats stats;
  rc = tc_graph_distance_stats(g, &stats, err);
  if (rc) return rc;
  out->distance_sum = stats.distance_sum;
  tc_distance_stats_destroy(&stats);
  int64_t dout = max_neighbours(g, TC_OUT), din = max_neighbours(g, TC_IN);
  out->moore_degree = dout < din ? dout : din;
  out->s_min = tc_moore_depth_sum(g->n, out->moore_degree);
  tc_rat cap = {out->capacity, 1}, nodes = {g->n, 1}, smin = {out->s_min, 1};
  if (out->s_min == INT64_MAX ||
      (rc = tc_rat_make(out->capacity, out->distance_sum, &out->distance, err)) ||
      (rc = tc_rat_div(cap, nodes, &out->moore, err)) || (rc = tc_rat_div(out->moore, smin, &out->moore, err))) {
    tc_a2a_bounds_destroy(out);
    return tc_error_set(err, TC_ERANGE, "all-to-all bounds of %d nodes overflow 64-bit rationals", g->n);
  }
  rc = bisection(g, seed, out, err);
  if (rc) {
    tc_a2a_bounds_destroy(out);
    return rc;
  }
  out->best = out->distance;
  if (tc_rat_cmp(out->bisection, out->best) < 0) out->best = out->bisection;
  return TC_OK;
}

void tc_a2a_bounds_destroy(tc_a2a_bounds *b) {
  free(b->cut_side);
  memset(b, 0, sizeof *b);
}

double tc_a2a_throughput_bound(int32_t n, double f, double link_bandwidth) {
  return (double)(n - 1) * f * link_bandwidth;
}
