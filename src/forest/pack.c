/*
** pack.c — Algorithm 5 of paper 001 (App. C.3): spanning out-trees packed in batches, μ by
** Theorem 12 (contract in pack.h).
**
** Weighted roots (forest.h): root u gets quota(u) = k·w_u trees instead of k (none when
** w_u = 0: u is then no root, only a vertex every tree spans). Nothing below depends on the
** roots having equal counts: a batch's m is whatever its root started with, and "k" in the
** certificates of shortcut 4 is the largest quota (every m is at most that).
**
** Order. Roots are taken in node order; a root's batch {u} (m = quota(u)) is grown to a spanning
** tree, then the copies its splits left behind, in the order they were made, before the next
** root starts: the inner while of Algorithm 5, one batch at a time. A batch grows BFS-like:
** its vertices are scanned in the order they joined, each vertex's arcs by head. Nothing
** depends on timing or threads, so the output is the same on every run and machine.
**
** Notation. The state is the remaining capacity g and the batches (R_i, m_i). For a set T of
** vertices (the sink side of a cut, S = V - T) let need(T) = Σ{m_i : R_i ∩ T = ∅} and
** slack(T) = c_g(S, T) - need(T) = c_g(S, T) - p(S). Condition (3) of Theorem 9 — the
** packing can be completed — is slack(T) >= 0 for every T != ∅; the precondition makes it
** hold at the start and μ is what keeps it. Formula (4), for R_1 = the batch being grown and
** an edge (x, y) with x in R_1, y not:
**     μ = min{ g(x,y), m(R_1), min{ slack(T) : y in T, x not in T, T ∩ R_1 != ∅ } }
** and the T of the inner minimum are "at risk" for (x, y).
**
** Lemma A (slack never increases). A step adds (x,y) to μ trees of R_1, splitting off a copy
** of R_1 with m - μ when μ < m. For T with y in T, x not: c_g(S, T) drops by μ; if R_1 ∩ T
** = ∅ then need(T) drops by μ too (μ of those trees now enter T; the copy keeps m - μ), so
** slack(T) is unchanged, otherwise it drops by exactly μ. Every other T keeps both. So each
** slack(T) is non-increasing over the whole run.
** Lemma B (need never increases). A step only lets batches meet more sets; a split replaces
** R_1 (m) by R_1 (m - μ) and R_1 + y (μ), which together are disjoint from at most as much.
**
** Shortcuts, each exact (test_forest_pack.c compares μ with formula (4) at every step):
**  1. Singleton. If R_1 = {x}, every T without x misses R_1: none is at risk, and
**     μ = min(g, m) with no max-flow.
**  2. Single pass. While R_1 grows, the at-risk family of an edge only grows (R_1 only gains
**     vertices), each slack only falls (Lemma A) and g only falls: once μ(x,y) = 0 it stays 0
**     until R_1 is finished. Scanning each vertex's arcs once per batch therefore misses no
**     edge, and a scan that ends short of n vertices proves that no leaving edge has μ >= 1:
**     the precondition was violated (TC_EFAIL).
**  3. Tight sets. A set with slack 0 keeps slack 0 (Lemma A and the invariant). When a
**     max-flow on D-bar shows an at-risk T with slack(T) = μ (so the step leaves it at 0) or
**     0, T is recorded; an edge (x, y) with y in T, x not, T meeting R_1 then has μ = 0.
**  4. Certificates. Time is cut into epochs; within one, every arc may lose at most β units
**     (an epoch ends after the step that takes an arc past it; β is chosen at its start,
**     see epoch_start). Let g' = max(0, g - β) with g at the epoch's start, and w(v) = Σ m
**     of the unfinished batches rooted at v (k for a root not yet started). For every
**     later moment t of the epoch and every T with y in T, x not:
**         slack_t(T) >= c_g'(V - T, T) - Σ{w(v) : v not in T}   (*)
**     because g_t >= g' arc by arc, need only falls (Lemma B), and an unfinished batch
**     disjoint from T has its root outside T (finished ones meet every T). The minimum of
**     the right side over such T is F - Σ_{v != y} w(v), F the max-flow from x to y in D(g')
**     plus a source σ with σ -> v of capacity w(v), v != y, and σ -> x of ∞ — one max-flow
**     that knows nothing of R_1. When it is >= k, (x, y) is certified for the whole epoch:
**     whenever it is a candidate (any batch, any m <= k), every at-risk T has slack >= m and
**     μ = min(g, m). (*) for T = {y} and T = V - {x} costs no max-flow, so an arc that
**     fails either is not tried.
**  5. Quotient. Let K be a recorded tight set (slack 0, shortcut 3) without x, and T at
**     risk for (x, y) with T ∩ K != ∅. slack is submodular (c_g is, need is supermodular),
**     so slack(T ∪ K) + slack(T ∩ K) <= slack(T) + slack(K) = slack(T), and slack(T ∩ K)
**     >= 0 (the invariant; T ∩ K is not empty); T ∪ K still holds y, misses x and meets
**     R_1, so it is at risk with slack <= slack(T). Absorbing the tight sets T meets, one
**     after the other, ends with an at-risk set that splits none of them and is no worse.
**     So the at-risk minimum does not change when the vertices of every part — a union of
**     overlapping recorded tight sets — are merged into one node, except the part that
**     holds x. The max-flows of formula (5) and of the certificates run on that quotient
**     (for A100-like D*, 128 cluster nodes instead of 1024 vertices; the untouched roots of
**     a part become one arc of their summed capacity).
** Otherwise μ is formula (5): one max-flow on D-bar (below), stopped once it reaches what
** can matter, Σ + min(g, m).
**
** D-bar. Batches that contain y — every finished batch — are left out of both the network
** and the sum (each would add exactly m_i through x -> s_i -> y). With one root grown at a
** time, the batches left are the untouched roots' {v} (m = quota(v)) and the pending copies of the
** current root. The network is D with capacities g, a source σ with σ -> v of capacity quota(v) for
** every untouched root v, σ -> s_c (m_c) and s_c -> w (∞) for every pending copy c and w in
** c, and σ -> x (∞): σ and x are then one node, which is D-bar's source x with its arcs
** x -> s_i (a singleton batch's s_i is folded into the arc σ -> v). A query only changes the
** capacities of σ -> x, σ -> y and the copies that contain y, and a step only the capacity
** of the arc it used, so the network (on the quotient) is rebuilt only when a batch starts
** or splits, a tight set joins parts, or x lies in another part than the last query's. ∞ is
** one more than all finite capacities together.
**
** Threads: none. The max-flows depend on each other step by step; measured on this
** project's shared 2-core machines, handing single max-flows of tens of microseconds to
** OpenMP threads made runs far slower, not faster (docs/forest_pack.md).
*/
#include "forest/pack.h"

#include <stdlib.h>
#include <string.h>

#include "core/intmath.h"
#include "graph/maxflow.h"

/* A growable list of int32 (tight sets containing a vertex). */
typedef struct pk_list {
  int32_t *v;
  int32_t len, room;
} pk_list;

static int list_push(pk_list *l, int32_t x) {
  if (l->len == l->room) {
    int32_t room = l->room ? 2 * l->room : 4;
    int32_t *p = realloc(l->v, (size_t)room * sizeof *p);
    if (!p) return 0;
    l->v = p;
    l->room = room;
  }
  l->v[l->len++] = x;
  return 1;
}

/* The recorded tight sets, by their sink side T (bitsets), and for every vertex the sets
   that contain it. meets[i] says whether T_i meets the batch being grown. The total size is
   bounded: past it nothing more is recorded (the cache only saves max-flows). */
#define PK_TIGHT_MEMBERS_MAX (1LL << 24)
typedef struct pk_tight {
  int32_t count, room, words;
  uint64_t *bits;
  uint8_t *meets;
  pk_list *of;
  int64_t members;
} pk_tight;

/* Shortcut 4 is off for an epoch whose β is below this many trees (k each): such an epoch
   would end within a few roots, before its certificates pay for themselves. */
#define PK_BETA_MIN_TREES 4

typedef struct packer {
  int32_t n;
  int64_t k;      /* the largest quota: every batch's m is at most this */
  int64_t *quota; /* trees rooted at each node: k·w_v (k each unweighted) */
  int weighted;
  /* D*: live arcs sorted by (src, dst); off[] indexes them by src. */
  int64_t narcs;
  int32_t *src, *dst;
  int64_t *g, *off;
  tci_packing *out;
  tci_pack_probe probe;
  void *ctx;
  /* The batch being grown: membership, vertices in join order. */
  int64_t cur;
  uint8_t *in_r;
  int32_t *order, len;
  /* Roots whose batch is still {v} with m = quota(v), and Σ of their quotas. */
  uint8_t *untouched;
  int64_t untouched_sum;
  /* Pending copies of the current root: batches pend_lo..out->count-1, except cur. */
  int64_t pend_lo;
  int32_t words;       /* 64-bit words of a vertex bitset */
  uint64_t *pend_bits; /* one bitset per pending copy, in batch order */
  int64_t *pend_arc;   /* maxflow arc σ -> s_c */
  int64_t pend_room;
  pk_tight tight;
  /* D-bar (shortcut 5): the partition of V into parts (uf, ufsize; part_version counts its
     changes), qid the node of each vertex for the query's open part (nq nodes, redone when
     qid_version or qid_open differ; qid_stamp counts redos), qarc the network arc of each
     arc of D (-1 inside a part), qsig the arc σ -> node. The network is rebuilt when
     `version` (pending copies, untouched roots) or the qid stamp differ from its build's. */
  tc_maxflow mf;
  int64_t big;
  int32_t sigma;
  int32_t *uf, *ufsize, *qid, *mark;
  int64_t *qarc, *qsig;
  int64_t part_version, qid_version, qid_stamp, version, built_version, built_stamp;
  int32_t qid_open, nq, side_room;
  uint8_t *side; /* the minimum cut's sink side, per network node */
  /* Certificates (shortcut 4): the network D(g') + σ -> node (Σ w) on the same quotient,
     built for a qid stamp and an epoch (-1: none); per arc the epoch + 1 of its last yes /
     no verdict and what it lost this epoch; per vertex g' in and out. beta = 0: off. */
  tc_maxflow cert;
  int64_t *qcarc, *qcsig, cert_stamp, cert_epoch;
  int64_t epoch, beta, wsum;
  int64_t *w; /* w(v) */
  int64_t *used, *ok_in, *no_in;
  int64_t *in_gp, *out_gp, *scratch, *gp; /* gp: g' per arc; scratch: n values */
} packer;

static inline int bit(const uint64_t *b, int32_t v) { return (int)((b[v >> 6] >> (v & 63)) & 1); }
static inline void set_bit(uint64_t *b, int32_t v) { b[v >> 6] |= 1ULL << (v & 63); }

/* ---- output --------------------------------------------------------------------------- */

void tci_packing_destroy(tci_packing *p) {
  for (int64_t i = 0; p->batch && i < p->count; i++) {
    free(p->batch[i].from);
    free(p->batch[i].to);
  }
  free(p->batch);
  memset(p, 0, sizeof *p);
}

/* Append a batch rooted at `root` with multiplicity m and the first `nedges` edges of
   `like` (or none); its id goes to *id. */
static int batch_new(packer *pk, int32_t root, int64_t m, const tci_batch *like, int32_t nedges, int64_t *id,
                     tc_error *err) {
  tci_packing *p = pk->out;
  /* `like` may point into p->batch, which may move below: keep what is read from it. */
  const int32_t *like_from = like ? like->from : NULL, *like_to = like ? like->to : NULL;
  if (p->count == p->room) {
    int64_t room = p->room ? 2 * p->room : 64;
    tci_batch *b = realloc(p->batch, (size_t)room * sizeof *b);
    if (!b) return tc_error_set(err, TC_ENOMEM, "pack: out of memory for %lld batches", (long long)room);
    p->batch = b;
    p->room = room;
  }
  size_t cap = pk->n > 1 ? (size_t)pk->n - 1 : 1;
  tci_batch b = {root, m, nedges, malloc(cap * sizeof(int32_t)), malloc(cap * sizeof(int32_t))};
  if (!b.from || !b.to) {
    free(b.from);
    free(b.to);
    return tc_error_set(err, TC_ENOMEM, "pack: out of memory for a batch of %d nodes", pk->n);
  }
  if (nedges) {
    memcpy(b.from, like_from, (size_t)nedges * sizeof(int32_t));
    memcpy(b.to, like_to, (size_t)nedges * sizeof(int32_t));
  }
  *id = p->count;
  p->batch[p->count++] = b;
  return TC_OK;
}

/* ---- tight sets ----------------------------------------------------------------------- */

static void tight_destroy(pk_tight *t, int32_t n) {
  for (int32_t v = 0; t->of && v < n; v++) free(t->of[v].v);
  free(t->of);
  free(t->bits);
  free(t->meets);
  memset(t, 0, sizeof *t);
}

static int32_t uf_find(int32_t *uf, int32_t v) {
  while (uf[v] != v) {
    uf[v] = uf[uf[v]];
    v = uf[v];
  }
  return v;
}

/* Shortcut 5: T is tight, so its vertices go into one part (merging parts it overlaps). */
static void uf_absorb(packer *pk, const uint64_t *T) {
  int32_t first = -1;
  for (int32_t v = 0; v < pk->n; v++)
    if (bit(T, v)) {
      if (first < 0) {
        first = uf_find(pk->uf, v);
        continue;
      }
      int32_t a = uf_find(pk->uf, first), b = uf_find(pk->uf, v);
      if (a == b) continue;
      if (pk->ufsize[a] < pk->ufsize[b]) {
        int32_t t = a;
        a = b;
        b = t;
      }
      pk->uf[b] = a;
      pk->ufsize[a] += pk->ufsize[b];
      pk->part_version++;
    }
}

/* Record T (a bitset), which meets the batch being grown. Out of memory only stops the
   recording: the cache is an accelerator, never needed for the result. */
static void tight_add(packer *pk, const uint64_t *T) {
  pk_tight *t = &pk->tight;
  uf_absorb(pk, T);
  int64_t size = 0;
  for (int32_t w = 0; w < t->words; w++) size += __builtin_popcountll(T[w]);
  if (t->members + size > PK_TIGHT_MEMBERS_MAX) return;
  if (t->count == t->room) {
    int32_t room = t->room ? 2 * t->room : 64;
    uint64_t *bits = realloc(t->bits, (size_t)room * (size_t)t->words * sizeof *bits);
    if (!bits) return;
    t->bits = bits;
    uint8_t *meets = realloc(t->meets, (size_t)room);
    if (!meets) return;
    t->meets = meets;
    t->room = room;
  }
  int32_t id = t->count;
  for (int32_t v = 0; v < pk->n; v++)
    if (bit(T, v) && !list_push(&t->of[v], id)) {
      for (int32_t u = 0; u < v; u++) /* undo: the lists end with id where it was pushed */
        if (bit(T, u)) t->of[u].len--;
      return;
    }
  memcpy(t->bits + (size_t)id * (size_t)t->words, T, (size_t)t->words * sizeof *T);
  t->meets[id] = 1;
  t->members += size;
  t->count++;
}

/* Shortcut 3: some recorded T with y in T, x not in T, T meeting R_1. */
static int tight_blocks(const packer *pk, int32_t x, int32_t y) {
  const pk_tight *t = &pk->tight;
  const pk_list *l = &t->of[y];
  for (int32_t i = 0; i < l->len; i++) {
    int32_t id = l->v[i];
    if (t->meets[id] && !bit(t->bits + (size_t)id * (size_t)t->words, x)) return 1;
  }
  return 0;
}

static void tight_join(packer *pk, int32_t v) {
  const pk_list *l = &pk->tight.of[v];
  for (int32_t i = 0; i < l->len; i++) pk->tight.meets[l->v[i]] = 1;
}

/* ---- D-bar ---------------------------------------------------------------------------- */

/* Make room for the pending copies' bitsets; a new pending set means a new network. */
static int pend_reserve(packer *pk, tc_error *err) {
  int64_t npend = pk->out->count - pk->pend_lo;
  pk->version++;
  if (npend <= pk->pend_room) return TC_OK;
  int64_t room = npend * 2;
  uint64_t *bits = realloc(pk->pend_bits, (size_t)room * (size_t)pk->words * sizeof *bits);
  if (bits) pk->pend_bits = bits;
  int64_t *arc = bits ? realloc(pk->pend_arc, (size_t)room * sizeof *arc) : NULL;
  if (!arc) return tc_error_set(err, TC_ENOMEM, "pack: out of memory for %lld pending batches", (long long)room);
  pk->pend_arc = arc;
  pk->pend_room = room;
  return TC_OK;
}

/* Shortcut 5's quotient for a query from x: qid[v] is v's node, every part of two or more
   vertices being one node except x's part, left open; nq nodes. */
static void quotient(packer *pk, int32_t x) {
  int32_t n = pk->n, open = uf_find(pk->uf, x), nodes = 0;
  if (pk->qid_version == pk->part_version && pk->qid_open == open) return;
  for (int32_t v = 0; v < n; v++) pk->mark[v] = -1; /* mark[root of part] = its node */
  for (int32_t v = 0; v < n; v++) {
    int32_t r = uf_find(pk->uf, v);
    if (pk->ufsize[r] == 1 || r == open) pk->qid[v] = nodes++;
    else {
      if (pk->mark[r] < 0) pk->mark[r] = nodes++;
      pk->qid[v] = pk->mark[r];
    }
  }
  pk->nq = nodes;
  pk->qid_version = pk->part_version;
  pk->qid_open = open;
  pk->qid_stamp++;
}

/* Build D-bar's network on the quotient for x: the arcs of D between nodes (capacity g),
   then σ with σ -> node of capacity Σ quota(untouched roots in it), then one node per pending
   copy c with σ -> s_c (m_c) and s_c -> every node meeting c (∞). */
static int dbar_build(packer *pk, int32_t x, tc_error *err) {
  quotient(pk, x);
  if (pk->built_version == pk->version && pk->built_stamp == pk->qid_stamp) return TC_OK;
  int32_t n = pk->n, nodes = pk->nq;
  pk->sigma = nodes;
  tci_packing *p = pk->out;
  int64_t npend = p->count - pk->pend_lo;
  int rc = tci_maxflow_reset(&pk->mf, nodes + 1 + (int32_t)npend, err);
  for (int64_t a = 0; !rc && a < pk->narcs; a++) {
    int32_t u = pk->qid[pk->src[a]], w = pk->qid[pk->dst[a]];
    pk->qarc[a] = -1;
    if (u != w) rc = tci_maxflow_add(&pk->mf, u, w, pk->g[a], &pk->qarc[a], err);
  }
  int64_t *cap = pk->scratch; /* Σ quota of untouched roots, per node */
  memset(cap, 0, (size_t)nodes * sizeof *cap);
  for (int32_t v = 0; v < n; v++) cap[pk->qid[v]] += pk->untouched[v] ? pk->quota[v] : 0;
  for (int32_t q = 0; !rc && q < nodes; q++) rc = tci_maxflow_add(&pk->mf, pk->sigma, q, cap[q], &pk->qsig[q], err);
  for (int64_t j = 0; !rc && j < npend; j++) {
    int64_t b = pk->pend_lo + j;
    uint64_t *bits = pk->pend_bits + (size_t)j * (size_t)pk->words;
    memset(bits, 0, (size_t)pk->words * sizeof *bits);
    pk->pend_arc[j] = -1;
    if (b == pk->cur) continue; /* R_1 itself is not in D-bar */
    const tci_batch *c = &p->batch[b];
    int32_t node = pk->sigma + 1 + (int32_t)j;
    set_bit(bits, c->root);
    for (int32_t e = 0; e < c->nedges; e++) set_bit(bits, c->to[e]);
    rc = tci_maxflow_add(&pk->mf, pk->sigma, node, c->mult, &pk->pend_arc[j], err);
    for (int32_t v = 0; v < n; v++) pk->mark[v] = 0; /* nodes already joined to s_c */
    for (int32_t w = 0; !rc && w < n; w++)
      if (bit(bits, w) && !pk->mark[pk->qid[w]]) {
        pk->mark[pk->qid[w]] = 1;
        rc = tci_maxflow_add(&pk->mf, node, pk->qid[w], pk->big, NULL, err);
      }
  }
  pk->built_version = rc ? -1 : pk->version;
  pk->built_stamp = pk->qid_stamp;
  return rc;
}

/* Formula (5) for (x, y): *q = F(x, y; D-bar) - Σ, where the max-flow may stop once
   F >= Σ + want (then *exact = 0 and only *q >= want is known). When exact, T receives the
   smallest sink side of a minimum cut: every vertex whose node reaches y in the residual
   network — Theorem 12's minimizing set when *q < m(R_1). The smallest is kept because a
   tight set containing x is of no use to shortcuts 3 and 5 for queries from x. */
static int dbar_query(packer *pk, int32_t x, int32_t y, int64_t want, int64_t *q, int *exact, uint64_t *T,
                      tc_error *err) {
  int rc = dbar_build(pk, x, err);
  if (rc) return rc;
  tci_packing *p = pk->out;
  int64_t sum = pk->untouched_sum - (pk->untouched[y] ? pk->quota[y] : 0);
  int64_t npend = p->count - pk->pend_lo;
  int32_t qx = pk->qid[x], qy = pk->qid[y];
  int64_t capx = pk->mf.cap[pk->qsig[qx]], capy = pk->mf.cap[pk->qsig[qy]];
  tci_maxflow_set_cap(&pk->mf, pk->qsig[qx], pk->big);
  tci_maxflow_set_cap(&pk->mf, pk->qsig[qy], capy - (pk->untouched[y] ? pk->quota[y] : 0)); /* y's {y} is left out */
  for (int64_t j = 0; j < npend; j++) {
    if (pk->pend_arc[j] < 0) continue;
    if (bit(pk->pend_bits + (size_t)j * (size_t)pk->words, y)) tci_maxflow_set_cap(&pk->mf, pk->pend_arc[j], 0);
    else sum += p->batch[pk->pend_lo + j].mult;
  }
  int64_t flow;
  rc = tci_maxflow_run_limit(&pk->mf, pk->sigma, qy, sum + want, &flow, err);
  tci_maxflow_set_cap(&pk->mf, pk->qsig[qx], capx);
  tci_maxflow_set_cap(&pk->mf, pk->qsig[qy], capy);
  for (int64_t j = 0; j < npend; j++)
    if (pk->pend_arc[j] >= 0) tci_maxflow_set_cap(&pk->mf, pk->pend_arc[j], p->batch[pk->pend_lo + j].mult);
  if (rc) return rc;
  *q = flow - sum;
  *exact = flow < sum + want;
  if (*exact && T) {
    if (pk->mf.n > pk->side_room) {
      uint8_t *side = realloc(pk->side, (size_t)pk->mf.n);
      if (!side) return tc_error_set(err, TC_ENOMEM, "pack: out of memory for a cut of %d nodes", pk->mf.n);
      pk->side = side;
      pk->side_room = pk->mf.n;
    }
    tci_maxflow_sink_side(&pk->mf, qy, pk->side);
    memset(T, 0, (size_t)pk->words * sizeof *T);
    for (int32_t v = 0; v < pk->n; v++)
      if (pk->side[pk->qid[v]]) set_bit(T, v);
  }
  return TC_OK;
}

/* ---- certificates (shortcut 4) -------------------------------------------------------- */

/* The certificate network on the quotient for x (shortcut 5 applies to it as well: a
   future query's at-risk minimum is reached by a set splitting no part, and (*) bounds that
   set's slack): D's arcs between nodes with capacity g', then σ -> node with the sum of
   w over the node. */
static int cert_build(packer *pk, int32_t x, tc_error *err) {
  quotient(pk, x);
  if (pk->cert_stamp == pk->qid_stamp && pk->cert_epoch == pk->epoch) return TC_OK;
  tc_maxflow *f = &pk->cert;
  int32_t nodes = pk->nq;
  int rc = tci_maxflow_reset(f, nodes + 1, err);
  for (int64_t a = 0; !rc && a < pk->narcs; a++) {
    int32_t u = pk->qid[pk->src[a]], w = pk->qid[pk->dst[a]];
    pk->qcarc[a] = -1;
    if (u != w) rc = tci_maxflow_add(f, u, w, pk->gp[a], &pk->qcarc[a], err);
  }
  int64_t *cap = pk->scratch;
  memset(cap, 0, (size_t)nodes * sizeof *cap);
  for (int32_t v = 0; v < pk->n; v++) cap[pk->qid[v]] += pk->w[v];
  for (int32_t q = 0; !rc && q < nodes; q++) rc = tci_maxflow_add(f, nodes, q, cap[q], &pk->qcsig[q], err);
  pk->cert_stamp = pk->qid_stamp;
  pk->cert_epoch = rc ? -1 : pk->epoch;
  return rc;
}

static int cmp_i64(const void *pa, const void *pb) {
  int64_t a = *(const int64_t *)pa, b = *(const int64_t *)pb;
  return (a > b) - (a < b);
}

/* A new epoch starts from the current g: every verdict lapses. β: half the lower quartile
   over y of (the slack of {y} beyond k, with the representation of need used in (*)) /
   (y's live in-arcs). The quartile makes (*) hold for T = {y} at three vertices in four;
   the half leaves room for the sets that cross a tight cut (for a cluster C of an A100-like
   D*, C - {x} loses β on each of its in-arcs from outside, whose cut was tight). Measured
   on bench_forest_pack's a100 128: without the half, 24% more max-flows; with a quarter,
   52% more. Below PK_BETA_MIN_TREES·k, β = 0: no certificates this epoch, which ends with
   the root. */
static void epoch_start(packer *pk) {
  int32_t n = pk->n;
  pk->epoch++;
  memset(pk->used, 0, (size_t)pk->narcs * sizeof *pk->used);
  memset(pk->in_gp, 0, (size_t)n * sizeof *pk->in_gp);
  memset(pk->out_gp, 0, (size_t)n * sizeof *pk->out_gp); /* live in-arcs, for now */
  for (int64_t a = 0; a < pk->narcs; a++)
    if (pk->g[a] > 0) {
      pk->in_gp[pk->dst[a]] += pk->g[a];
      pk->out_gp[pk->dst[a]]++;
    }
  for (int32_t y = 0; y < n; y++) {
    int64_t s = pk->in_gp[y] - (pk->wsum - pk->w[y]) - pk->k;
    pk->scratch[y] = s > 0 && pk->out_gp[y] ? s / pk->out_gp[y] : 0;
  }
  qsort(pk->scratch, (size_t)n, sizeof *pk->scratch, cmp_i64);
  int64_t beta = pk->scratch[n / 4] / 2, least;
  if (tci_mul64(pk->k, PK_BETA_MIN_TREES, &least) || beta < least) beta = 0;
  pk->beta = beta;
  memset(pk->in_gp, 0, (size_t)n * sizeof *pk->in_gp);
  memset(pk->out_gp, 0, (size_t)n * sizeof *pk->out_gp);
  for (int64_t a = 0; a < pk->narcs; a++) {
    int64_t gp = beta && pk->g[a] > beta ? pk->g[a] - beta : 0;
    pk->gp[a] = gp;
    pk->in_gp[pk->dst[a]] += gp;
    pk->out_gp[pk->src[a]] += gp;
  }
}

static void set_w(packer *pk, int32_t v, int64_t w) {
  pk->wsum += w - pk->w[v];
  pk->w[v] = w;
  pk->cert_epoch = -1; /* rebuilt at its next use */
}

/* The right side of (*) minimized over T (y in T, x not, splitting no closed part), as
   *lambda; the flow stops once the answer is known to be >= k. */
static int cert_query(packer *pk, int64_t a, int64_t *lambda, tc_error *err) {
  int32_t x = pk->src[a], y = pk->dst[a];
  int rc = cert_build(pk, x, err);
  if (rc) return rc;
  tc_maxflow *f = &pk->cert;
  int32_t qx = pk->qid[x], qy = pk->qid[y], sigma = pk->nq;
  int64_t sum = pk->wsum - pk->w[y], flow;
  int64_t capx = f->cap[pk->qcsig[qx]], capy = f->cap[pk->qcsig[qy]];
  tci_maxflow_set_cap(f, pk->qcsig[qx], pk->big);
  tci_maxflow_set_cap(f, pk->qcsig[qy], capy - pk->w[y]);
  rc = tci_maxflow_run_limit(f, sigma, qy, sum + pk->k, &flow, err);
  tci_maxflow_set_cap(f, pk->qcsig[qx], capx);
  tci_maxflow_set_cap(f, pk->qcsig[qy], capy);
  *lambda = flow - sum;
  return rc;
}

static void cert_record(packer *pk, int64_t a, int64_t lambda) {
  if (lambda >= pk->k) pk->ok_in[a] = pk->epoch + 1;
  else pk->no_in[a] = pk->epoch + 1;
}

/* ---- Algorithm 5 ---------------------------------------------------------------------- */

/* Decided without any max-flow (shortcuts 1, 3, 4): 1 and *mu set, or 0. */
static int mu_cheap(const packer *pk, int64_t a, int64_t m, int64_t *mu) {
  int64_t gm = pk->g[a] < m ? pk->g[a] : m;
  if (pk->len == 1 || pk->ok_in[a] == pk->epoch + 1) { /* shortcuts 1 and 4 */
    *mu = gm;
    return 1;
  }
  if (tight_blocks(pk, pk->src[a], pk->dst[a])) { /* shortcut 3 */
    *mu = 0;
    return 1;
  }
  return 0;
}

/* μ of arc a for the batch being grown (multiplicity m), found by max-flows: the arc's
   certificate if it has had no verdict this epoch and can pass (*) for T = {y} and
   T = V - {x}, which cost nothing to check; else, or if it fails, formula (5). T is
   scratch. */
static int mu_flow(packer *pk, int64_t a, int64_t m, uint64_t *T, int64_t *mu, tc_error *err) {
  int32_t x = pk->src[a], y = pk->dst[a];
  int64_t gm = pk->g[a] < m ? pk->g[a] : m;
  if (pk->beta && pk->no_in[a] != pk->epoch + 1) {
    int64_t lambda = -1;
    if (pk->in_gp[y] - (pk->wsum - pk->w[y]) >= pk->k && pk->out_gp[x] - pk->w[x] >= pk->k) {
      int rc = cert_query(pk, a, &lambda, err);
      if (rc) return rc;
      pk->out->maxflows++;
    }
    cert_record(pk, a, lambda);
    if (lambda >= gm) { /* every at-risk T has slack >= lambda >= min(g, m) */
      *mu = gm;
      return TC_OK;
    }
  }
  int64_t q;
  int exact;
  int rc = dbar_query(pk, x, y, gm, &q, &exact, T, err);
  if (rc) return rc;
  pk->out->maxflows++;
  /* q < 0 only if the state already violates (3), i.e. D* violated the precondition: the
     edge is passed over, and the batch will fail to span. */
  *mu = q < gm ? (q > 0 ? q : 0) : gm;
  /* Exact and below min(g, m): Theorem 12 case (a), the cut's T is at risk with slack q,
     which this step (μ = q, or 0 = q already) brings to 0 — a tight set from now on. */
  if (exact && q < gm) tight_add(pk, T);
  return TC_OK;
}

static void probe_call(packer *pk, int32_t x, int32_t y, int64_t mu) {
  if (!pk->probe) return;
  tci_pack_view view = {pk->n, pk->narcs, pk->src, pk->dst, pk->g, pk->out, pk->cur};
  pk->probe(pk->ctx, &view, x, y, mu);
}

/* Apply a step: split if μ < m, then add (x, y) = arc a to batch cur with μ trees. */
static int step(packer *pk, int64_t a, int64_t mu, tc_error *err) {
  tci_batch *b = &pk->out->batch[pk->cur];
  if (mu < b->mult) {
    int64_t id;
    int rc = batch_new(pk, b->root, b->mult - mu, b, b->nedges, &id, err);
    if (rc) return rc;
    b = &pk->out->batch[pk->cur];
    b->mult = mu;
  }
  int32_t x = pk->src[a], y = pk->dst[a];
  b->from[b->nedges] = x;
  b->to[b->nedges] = y;
  b->nedges++;
  pk->in_r[y] = 1;
  pk->order[pk->len++] = y;
  tight_join(pk, y);
  pk->g[a] -= mu;
  if (pk->built_version >= 0 && pk->qarc[a] >= 0) tci_maxflow_set_cap(&pk->mf, pk->qarc[a], pk->g[a]);
  pk->used[a] += mu;
  if (pk->beta && pk->used[a] > pk->beta) epoch_start(pk); /* g' no longer bounds g below */
  return TC_OK;
}

/* Grow batch cur to a spanning tree (the inner while of Algorithm 5). */
static int grow(packer *pk, uint64_t *T, tc_error *err) {
  tci_batch *b = &pk->out->batch[pk->cur];
  for (int32_t i = 0; i < pk->len; i++) pk->in_r[pk->order[i]] = 0;
  pk->len = 0;
  pk->order[pk->len++] = b->root;
  for (int32_t e = 0; e < b->nedges; e++) pk->order[pk->len++] = b->to[e];
  if (pk->tight.count) memset(pk->tight.meets, 0, (size_t)pk->tight.count);
  for (int32_t i = 0; i < pk->len; i++) {
    pk->in_r[pk->order[i]] = 1;
    tight_join(pk, pk->order[i]);
  }
  int rc = pend_reserve(pk, err);
  for (int32_t qi = 0; !rc && qi < pk->len && pk->len < pk->n; qi++) {
    int32_t x = pk->order[qi];
    for (int64_t a = pk->off[x]; !rc && a < pk->off[x + 1] && pk->len < pk->n; a++) {
      int32_t y = pk->dst[a];
      if (pk->in_r[y] || pk->g[a] == 0) continue;
      int64_t m = pk->out->batch[pk->cur].mult, mu;
      if (!mu_cheap(pk, a, m, &mu)) rc = mu_flow(pk, a, m, T, &mu, err);
      if (rc) break;
      probe_call(pk, x, y, mu);
      if (mu == 0) continue;
      int64_t before = pk->out->count;
      rc = step(pk, a, mu, err);
      if (!rc && pk->out->count != before) rc = pend_reserve(pk, err); /* a split made a copy */
    }
  }
  if (rc) return rc;
  b = &pk->out->batch[pk->cur];
  if (pk->len < pk->n)
    return tc_error_set(err, TC_EFAIL,
                        "pack: no edge can grow batch %lld (root %d, m = %lld, %d of %d nodes reached): D* violates "
                        "min_v F(s, v; D*_k) >= %s for k = %lld",
                        (long long)pk->cur, b->root, (long long)b->mult, pk->len, pk->n,
                        pk->weighted ? "W*k (weighted roots)" : "n*k", (long long)pk->k);
  set_w(pk, b->root, pk->w[b->root] - b->mult); /* finished: it meets every T */
  return TC_OK;
}

/* ---- setup ---------------------------------------------------------------------------- */

static int arc_cmp(const void *pa, const void *pb) {
  const int64_t *a = pa, *b = pb;
  if (a[0] != b[0]) return a[0] < b[0] ? -1 : 1;
  return (a[1] > b[1]) - (a[1] < b[1]);
}

static void packer_destroy(packer *pk) {
  free(pk->src);
  free(pk->dst);
  free(pk->g);
  free(pk->off);
  free(pk->in_r);
  free(pk->order);
  free(pk->untouched);
  free(pk->quota);
  free(pk->pend_bits);
  free(pk->pend_arc);
  tight_destroy(&pk->tight, pk->n);
  tci_maxflow_destroy(&pk->mf);
  tci_maxflow_destroy(&pk->cert);
  free(pk->w);
  free(pk->in_gp);
  free(pk->out_gp);
  free(pk->scratch);
  free(pk->gp);
  free(pk->uf);
  free(pk->ufsize);
  free(pk->qid);
  free(pk->mark);
  free(pk->qarc);
  free(pk->qsig);
  free(pk->qcarc);
  free(pk->qcsig);
  free(pk->side);
  free(pk->used);
  free(pk->ok_in);
  free(pk->no_in);
}

/* Trees per root: k·w_v, or k each when w is NULL; *sum gets their total, *most the largest.
   A negative weight is TC_EINPUT, overflow TC_ERANGE, all weights 0 TC_EINPUT. */
static int quotas(int32_t n, int64_t k, const int64_t *w, int64_t *quota, int64_t *sum, int64_t *most,
                  tc_error *err) {
  *sum = *most = 0;
  for (int32_t v = 0; v < n; v++) {
    if (w && w[v] < 0) return tc_error_set(err, TC_EINPUT, "pack: node %d has weight %lld < 0", v, (long long)w[v]);
    if (tci_mul64(k, w ? w[v] : 1, &quota[v]) || tci_add64(*sum, quota[v], sum))
      return tc_error_set(err, TC_ERANGE, "pack: the trees per root (k = %lld times the weights) overflow 64 bits",
                          (long long)k);
    if (quota[v] > *most) *most = quota[v];
  }
  if (*sum == 0) return tc_error_set(err, TC_EINPUT, "pack: every weight is 0: there is no tree to pack");
  return TC_OK;
}

/* D*'s live arcs sorted by (src, dst), and every buffer. ∞ of D-bar is one more than
   every finite capacity together: Σ g + Σ quota + 1 (the copies' m sum to at most Σ quota). */
static int packer_init(packer *pk, const tci_capgraph *d, int64_t k, const int64_t *w, tc_error *err) {
  int32_t n = d->n;
  pk->n = n;
  pk->weighted = w != NULL;
  pk->words = (n + 63) / 64;
  tci_maxflow_init(&pk->mf);
  tci_maxflow_init(&pk->cert);
  int64_t live = tci_capgraph_live_arcs(d);
  int64_t(*pairs)[3] = malloc((size_t)(live ? live : 1) * sizeof *pairs);
  pk->src = malloc((size_t)(live ? live : 1) * sizeof *pk->src);
  pk->dst = malloc((size_t)(live ? live : 1) * sizeof *pk->dst);
  pk->g = malloc((size_t)(live ? live : 1) * sizeof *pk->g);
  pk->off = calloc((size_t)n + 1, sizeof *pk->off);
  pk->in_r = calloc((size_t)n, 1);
  pk->order = malloc((size_t)n * sizeof *pk->order);
  pk->untouched = calloc((size_t)n, 1);
  pk->quota = malloc((size_t)n * sizeof *pk->quota);
  pk->tight.of = calloc((size_t)n, sizeof *pk->tight.of);
  pk->tight.words = pk->words;
  pk->w = malloc((size_t)n * sizeof *pk->w);
  pk->used = calloc((size_t)(live ? live : 1), sizeof *pk->used);
  pk->ok_in = calloc((size_t)(live ? live : 1), sizeof *pk->ok_in);
  pk->no_in = calloc((size_t)(live ? live : 1), sizeof *pk->no_in);
  pk->in_gp = malloc((size_t)n * sizeof *pk->in_gp);
  pk->out_gp = malloc((size_t)n * sizeof *pk->out_gp);
  pk->scratch = malloc((size_t)n * sizeof *pk->scratch);
  pk->gp = calloc((size_t)(live ? live : 1), sizeof *pk->gp);
  pk->uf = malloc((size_t)n * sizeof *pk->uf);
  pk->ufsize = malloc((size_t)n * sizeof *pk->ufsize);
  pk->qid = malloc((size_t)n * sizeof *pk->qid);
  pk->mark = malloc((size_t)n * sizeof *pk->mark);
  pk->qarc = malloc((size_t)(live ? live : 1) * sizeof *pk->qarc);
  pk->qsig = malloc((size_t)n * sizeof *pk->qsig);
  pk->qcarc = malloc((size_t)(live ? live : 1) * sizeof *pk->qcarc);
  pk->qcsig = malloc((size_t)n * sizeof *pk->qcsig);
  if (!pairs || !pk->src || !pk->dst || !pk->g || !pk->off || !pk->in_r || !pk->order || !pk->untouched || !pk->quota ||
      !pk->tight.of || !pk->w || !pk->used || !pk->ok_in || !pk->no_in || !pk->in_gp || !pk->out_gp || !pk->scratch || !pk->gp ||
      !pk->uf || !pk->ufsize || !pk->qid || !pk->mark || !pk->qarc || !pk->qsig || !pk->qcarc ||
      !pk->qcsig) {
    free(pairs);
    return tc_error_set(err, TC_ENOMEM, "pack: out of memory for %d nodes and %lld arcs", n, (long long)live);
  }
  int64_t kn;
  int rc = quotas(n, k, w, pk->quota, &kn, &pk->k, err);
  if (rc) {
    free(pairs);
    return rc;
  }
  int64_t m = 0;
  for (int64_t a = 0; a < d->narcs; a++)
    if (d->cap[a] > 0) {
      pairs[m][0] = d->src[a];
      pairs[m][1] = d->dst[a];
      pairs[m][2] = a;
      m++;
    }
  qsort(pairs, (size_t)m, sizeof *pairs, arc_cmp);
  int64_t big = 1;
  int over = tci_add64(big, kn, &big);
  for (int64_t a = 0; a < m; a++) {
    pk->src[a] = (int32_t)pairs[a][0];
    pk->dst[a] = (int32_t)pairs[a][1];
    pk->g[a] = d->cap[pairs[a][2]];
    pk->off[pk->src[a] + 1]++;
    over = over || tci_add64(big, pk->g[a], &big);
  }
  free(pairs);
  pk->narcs = m;
  for (int32_t v = 0; v < n; v++) pk->off[v + 1] += pk->off[v];
  /* The flow out of σ is at most ∞ plus Σ quota, and the thresholds Σ + min(g, m) stay below. */
  if (over || big > INT64_MAX / 4)
    return tc_error_set(err, TC_ERANGE, "pack: capacities of D* (with k = %lld on %d nodes) overflow 64 bits",
                        (long long)k, n);
  pk->big = big;
  for (int32_t v = 0; v < n; v++) {
    pk->w[v] = pk->quota[v];
    pk->uf[v] = v;
    pk->ufsize[v] = 1;
  }
  pk->built_version = -1;
  pk->wsum = kn;
  pk->cert_epoch = -1;
  pk->qid_version = -1;
  epoch_start(pk);
  return TC_OK;
}

/* Algorithm 5 (tci_pack_trees) with the test hook and the progress reports. */
static int pack_trees(const tci_capgraph *dstar, int64_t k, const int64_t *w, tci_pack_probe probe, void *ctx,
                      tc_progress_fn progress, void *progress_ctx, tci_packing *out, tc_error *err) {
  memset(out, 0, sizeof *out);
  if (k < 1) return tc_error_set(err, TC_EINPUT, "pack: k must be >= 1 (got %lld)", (long long)k);
  if (dstar->n < 1) return tc_error_set(err, TC_EINPUT, "pack: D* has no nodes");
  packer pk;
  memset(&pk, 0, sizeof pk);
  pk.out = out;
  pk.probe = probe;
  pk.ctx = ctx;
  int rc = packer_init(&pk, dstar, k, w, err);
  uint64_t *T = rc ? NULL : calloc((size_t)pk.words, sizeof *T);
  if (!rc && !T) rc = tc_error_set(err, TC_ENOMEM, "pack: out of memory");
  int32_t n = dstar->n;
  for (int32_t v = 0; !rc && v < n; v++) {
    if (pk.quota[v] == 0) continue; /* weight 0: no root */
    int64_t id;
    rc = batch_new(&pk, v, pk.quota[v], NULL, 0, &id, err);
    pk.untouched[v] = 1;
    pk.untouched_sum += pk.quota[v];
  }
  /* The roots' batches are 0, 1, ... in root order; each root's copies are appended and
     grown right after it. */
  int32_t roots = 0;
  for (int32_t u = 0; u < n && !rc; u++) roots += pk.quota[u] > 0;
  static const char phase[] = "forest: packing trees, roots done";
  if (!rc && progress) progress(progress_ctx, phase, 0, roots);
  for (int32_t u = 0, first = 0; !rc && u < n; u++) {
    if (pk.quota[u] == 0) continue;
    if (!pk.beta) epoch_start(&pk); /* certificates were off: look again */
    pk.untouched[u] = 0;
    pk.untouched_sum -= pk.quota[u];
    pk.pend_lo = out->count;
    pk.cur = first++;
    rc = grow(&pk, T, err);
    for (pk.cur = pk.pend_lo; !rc && pk.cur < out->count; pk.cur++) {
      pk.pend_lo = pk.cur + 1; /* earlier copies are finished */
      rc = grow(&pk, T, err);
    }
    if (!rc && progress) progress(progress_ctx, phase, first, roots);
  }
  free(T);
  packer_destroy(&pk);
  if (rc) tci_packing_destroy(out);
  return rc;
}

int tci_pack_trees_probed(const tci_capgraph *dstar, int64_t k, const int64_t *w, tci_pack_probe probe, void *ctx,
                          tci_packing *out, tc_error *err) {
  return pack_trees(dstar, k, w, probe, ctx, NULL, NULL, out, err);
}

int tci_pack_trees_reported(const tci_capgraph *dstar, int64_t k, const int64_t *w, tc_progress_fn progress,
                            void *progress_ctx, tci_packing *out, tc_error *err) {
  return pack_trees(dstar, k, w, NULL, NULL, progress, progress_ctx, out, err);
}

int tci_pack_trees(const tci_capgraph *dstar, int64_t k, const int64_t *w, tci_packing *out, tc_error *err) {
  return pack_trees(dstar, k, w, NULL, NULL, NULL, NULL, out, err);
}

/* ---- the precondition ----------------------------------------------------------------- */

/* D*_k: D* plus s = n with s -> v of capacity k·w_v (k when w is NULL). */
static int feasible_with(tc_maxflow *f, const tci_capgraph *d, int64_t k, const int64_t *w, int *ok, tc_error *err) {
  int32_t n = d->n;
  int64_t need = 0, kv;
  for (int32_t v = 0; v < n; v++)
    if (tci_mul64(k, w ? w[v] : 1, &kv) || tci_add64(need, kv, &need))
      return tc_error_set(err, TC_ERANGE, "pack: the trees per root (k = %lld times the weights) overflow 64 bits",
                          (long long)k);
  int rc = tci_maxflow_reset(f, n + 1, err);
  for (int64_t a = 0; !rc && a < d->narcs; a++)
    if (d->cap[a] > 0) rc = tci_maxflow_add(f, d->src[a], d->dst[a], d->cap[a], NULL, err);
  for (int32_t v = 0; !rc && v < n; v++) rc = tci_maxflow_add(f, n, v, k * (w ? w[v] : 1), NULL, err);
  *ok = 1;
  for (int32_t v = 0; !rc && v < n && *ok; v++) {
    int64_t flow;
    rc = tci_maxflow_run_limit(f, n, v, need, &flow, err);
    if (!rc && flow < need) *ok = 0;
  }
  return rc;
}

int tci_pack_feasible(const tci_capgraph *dstar, int64_t k, const int64_t *w, int *ok, tc_error *err) {
  *ok = 0;
  if (k < 0) return tc_error_set(err, TC_EINPUT, "pack: k must be >= 0 (got %lld)", (long long)k);
  if (dstar->n < 2) {
    *ok = 1;
    return TC_OK;
  }
  tc_maxflow f;
  tci_maxflow_init(&f);
  int rc = feasible_with(&f, dstar, k, w, ok, err);
  tci_maxflow_destroy(&f);
  return rc;
}

int tci_pack_max_k(const tci_capgraph *dstar, int64_t *k, tc_error *err) {
  *k = 0;
  int32_t n = dstar->n;
  if (n < 2) return tc_error_set(err, TC_EINPUT, "pack: D* has %d node(s): every k packs", n);
  /* k <= in-capacity(v) / (n-1) for every v: the cut V - {v}. */
  int64_t hi = INT64_MAX;
  for (int32_t v = 0; v < n; v++) {
    int64_t c = tci_capgraph_in_cap(dstar, v) / (n - 1);
    if (c < hi) hi = c;
  }
  tc_maxflow f;
  tci_maxflow_init(&f);
  int64_t lo = 0; /* feasible */
  int rc = TC_OK;
  while (!rc && lo < hi) {
    int64_t mid = lo + (hi - lo + 1) / 2;
    int ok;
    rc = feasible_with(&f, dstar, mid, NULL, &ok, err);
    if (!rc && ok) lo = mid;
    else if (!rc) hi = mid - 1;
  }
  tci_maxflow_destroy(&f);
  if (!rc) *k = lo;
  return rc;
}
