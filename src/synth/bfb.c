/*
** bfb.c — the exact optimal BFB allgather (contract in bfb.h; paper 000 §6, App. E).
**
** For receiver u and step t the jobs are the sources v with d(v,u) = t and the processors
** are u's in-arcs; job v may use arc (w,u) iff some shortest v -> u path ends with it. The
** optimum of LP (1) is U* = max over job sets J of |J| / cap(f(J)) (paper 000 App. E.1,
** the cut argument in the proof of Thm 19), a fraction p/q with q <= Σ cap. We find it with Dinkelbach's
** iteration on integer max-flows: starting from the ratio of all jobs, test feasibility of
** U = p/q in the network source -(q per job)-> job -> arc -(p * cap)-> sink; if the flow is
** short, the source side of the minimum cut is a job set J with a strictly larger ratio
** |J| / cap(f(J)), which becomes the next candidate. The first feasible candidate is U*,
** exactly, and its max-flow gives x in units of 1/q. No floating point is involved.
**
** Speed comes from structure rather than from the solver:
**   - which of u's in-neighbours lie on shortest v -> u paths is a bitmask per v, computed
**     for all v at once by one pass over the shortest-path DAG toward u;
**   - jobs with the same mask are interchangeable and solved as one group;
**   - a solved (u,t) problem is memoised by its exact description (masks, counts, arc
**     capacities), so vertex-transitive graphs (tori, circulants) solve each distinct
**     problem once without knowing their automorphisms.
** Work is split over receivers with OpenMP; every thread owns its buffers and memo, and a
** problem's solution depends only on its description, so the output does not depend on
** the thread count. The schedule is assembled in two passes: solve everything (keeping only
** the job order and a reference to each memoised solution), then write every transfer
** straight into its final place, ordered by step, receiver, group, source.
*/
#include "topocoll/bfb.h"
#include "synth/bfb_internal.h"

#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "core/huge.h"
#include "core/intmath.h"
#include "graph/maxflow.h"

/* ------------------------------------------------------------------------------------ */
/* The per-(u,t) problem and its exact solver                                           */
/* ------------------------------------------------------------------------------------ */

/* Groups of interchangeable jobs over a receiver's local arcs 0..narcs-1. */
typedef struct bfb_problem {
  int32_t ngroups, narcs;
  const int64_t *count;  /* jobs in each group */
  const int64_t *gl_off; /* ngroups + 1 */
  const int32_t *gl_arc; /* local arcs each group may use */
  const int64_t *cap;    /* capacity of each local arc */
} bfb_problem;

static int range_error(tc_error *err) {
  return tc_error_set(err, TC_ERANGE, "bfb: arc capacities too large for exact 64-bit max-flow arithmetic");
}

static void reduce_fraction(int64_t *p, int64_t *q) {
  int64_t g = tci_gcd64(*p, *q);
  if (g > 1) {
    *p /= g;
    *q /= g;
  }
}

/* Build the flow network for pr: node 0 source, 1 sink, then groups, then arcs. Arc ids:
   source->group g is g, group->arc entry e is ngroups + e, arc a->sink is ngroups + E + a. */
static int build_network(tc_maxflow *mf, const bfb_problem *pr, tc_error *err) {
  int64_t nodes = 2 + (int64_t)pr->ngroups + pr->narcs;
  if (nodes > INT32_MAX) return tc_error_set(err, TC_ERANGE, "bfb: problem with %lld groups is too large", (long long)nodes);
  int rc = tci_maxflow_reset(mf, (int32_t)nodes, err);
  int32_t arc0 = 2 + pr->ngroups;
  for (int32_t g = 0; !rc && g < pr->ngroups; g++) rc = tci_maxflow_add(mf, 0, 2 + g, 0, NULL, err);
  for (int32_t g = 0; !rc && g < pr->ngroups; g++)
    for (int64_t e = pr->gl_off[g]; !rc && e < pr->gl_off[g + 1]; e++)
      rc = tci_maxflow_add(mf, 2 + g, arc0 + pr->gl_arc[e], 0, NULL, err);
  for (int32_t a = 0; !rc && a < pr->narcs; a++) rc = tci_maxflow_add(mf, arc0 + a, 1, 0, NULL, err);
  return rc;
}

/* Set the capacities that test U = p/q; fails with TC_ERANGE if a product overflows. */
static int set_capacities(tc_maxflow *mf, const bfb_problem *pr, int64_t p, int64_t q, int64_t jobs, tc_error *err) {
  int64_t total, c, entries = pr->gl_off[pr->ngroups];
  if (__builtin_mul_overflow(q, jobs, &total)) return range_error(err);
  for (int32_t g = 0; g < pr->ngroups; g++) {
    c = q * pr->count[g]; /* <= q * jobs: no overflow */
    tci_maxflow_set_cap(mf, g, c);
    for (int64_t e = pr->gl_off[g]; e < pr->gl_off[g + 1]; e++) tci_maxflow_set_cap(mf, pr->ngroups + e, c);
  }
  for (int32_t a = 0; a < pr->narcs; a++) {
    if (__builtin_mul_overflow(p, pr->cap[a], &c)) return range_error(err);
    tci_maxflow_set_cap(mf, pr->ngroups + entries + a, c);
  }
  return TC_OK;
}

/* Exact optimum U* = p/q of LP (1) for pr and, per group->arc entry, the flow in units of
   1/q of a shard (each group's flows sum to q * count). *runs counts max-flow runs;
   `usable` is scratch for narcs flags. */
static int solve_problem(tc_maxflow *mf, const bfb_problem *pr, uint8_t *usable, int64_t *p_out, int64_t *q_out,
                         int64_t *flow, int64_t *runs, tc_error *err) {
  int64_t jobs = 0, usable_cap = 0, entries = pr->gl_off[pr->ngroups];
  for (int32_t g = 0; g < pr->ngroups; g++) jobs += pr->count[g];
  int rc = build_network(mf, pr, err);
  if (rc) return rc;
  /* The arcs some job may use: all jobs over their capacity is the first candidate. */
  int32_t arc0 = 2 + pr->ngroups;
  memset(usable, 0, (size_t)pr->narcs);
  for (int64_t e = 0; e < entries; e++) usable[pr->gl_arc[e]] = 1;
  for (int32_t a = 0; a < pr->narcs; a++)
    if (usable[a] && __builtin_add_overflow(usable_cap, pr->cap[a], &usable_cap)) return range_error(err);
  if (jobs == 0 || usable_cap == 0)
    return tc_error_set(err, TC_EFAIL, "bfb: internal error: a step problem without jobs or usable arcs");
  int64_t p = jobs, q = usable_cap;
  reduce_fraction(&p, &q);
  for (;;) {
    rc = set_capacities(mf, pr, p, q, jobs, err);
    int64_t value = 0;
    if (!rc) rc = tci_maxflow_run(mf, 0, 1, &value, err);
    if (rc) return rc;
    (*runs)++;
    if (value == q * jobs) break;
    /* Short flow: the cut's job side J has |J| / cap(f(J)) > p/q (Dinkelbach step). */
    int64_t num = 0, den = 0;
    for (int32_t g = 0; g < pr->ngroups; g++)
      if (tci_maxflow_source_side(mf, 2 + g)) num += pr->count[g];
    for (int32_t a = 0; a < pr->narcs; a++)
      if (tci_maxflow_source_side(mf, arc0 + a)) den += pr->cap[a]; /* <= usable_cap */
    if (num == 0 || den == 0 || (__int128)num * q <= (__int128)p * den)
      return tc_error_set(err, TC_EFAIL, "bfb: internal error: minimum cut did not raise the load bound");
    p = num;
    q = den;
    reduce_fraction(&p, &q);
  }
  for (int64_t e = 0; e < entries; e++) flow[e] = tci_maxflow_flow(mf, pr->ngroups + e);
  *p_out = p;
  *q_out = q;
  return TC_OK;
}

/* Transfers produced when `count` jobs of q units each fill the positive flows f[0..r-1]
   in order (each job takes consecutive pieces; a piece ends at a job or flow boundary). */
static int64_t fill_pieces(int64_t count, int64_t q, const int64_t *pairs, int64_t nflow) {
  int64_t pieces = count + nflow - 1, sum = 0;
  for (int64_t j = 0; j + 1 < nflow; j++) {
    sum += pairs[2 * j + 1];
    if (sum % q == 0) pieces--; /* flow boundary coincides with a job boundary */
  }
  return pieces;
}

/* ------------------------------------------------------------------------------------ */
/* Memo of solved problems (one per thread)                                            */
/* ------------------------------------------------------------------------------------ */

/* A solution record in the result arena:
     [0] p  [1] q  [2] transfers it yields  [3] ngroups
     then per group: count, nflow, (local arc, flow) x nflow   (flows in units of 1/q). */
enum { RES_P = 0, RES_Q = 1, RES_PIECES = 2, RES_NGROUPS = 3, RES_HEADER = 4 };

typedef struct memo_slot {
  uint64_t hash;
  int64_t key_off; /* -1: empty; keys[key_off] holds the key length */
  int64_t res_off;
} memo_slot;

typedef struct bfb_memo {
  memo_slot *slot;
  int64_t nslot, used;
  uint64_t *keys;
  int64_t keys_len, keys_room;
  int64_t *res;
  int64_t res_len, res_room;
} bfb_memo;

static void memo_destroy(bfb_memo *m) {
  free(m->slot);
  free(m->keys);
  free(m->res);
  memset(m, 0, sizeof *m);
}

static uint64_t hash_words(const uint64_t *w, int64_t n) {
  uint64_t h = 0x243f6a8885a308d3ULL;
  for (int64_t i = 0; i < n; i++) {
    h ^= w[i] + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
    h *= 0xff51afd7ed558ccdULL;
  }
  return h ^ (h >> 33);
}

static int grow_words(void **p, int64_t *room, int64_t need, size_t size) {
  if (need <= *room) return 1;
  int64_t r = *room ? *room : 256;
  while (r < need) r *= 2;
  void *q = realloc(*p, (size_t)r * size);
  if (!q) return 0;
  *p = q;
  *room = r;
  return 1;
}

/* Result offset of the solution stored under key (key[0] = length), or -1. */
static int64_t memo_find(const bfb_memo *m, const uint64_t *key, uint64_t hash) {
  if (!m->nslot) return -1;
  for (int64_t i = (int64_t)(hash & (uint64_t)(m->nslot - 1));; i = (i + 1) & (m->nslot - 1)) {
    const memo_slot *s = &m->slot[i];
    if (s->key_off < 0) return -1;
    if (s->hash == hash && m->keys[s->key_off] == key[0] &&
        !memcmp(m->keys + s->key_off, key, (size_t)key[0] * sizeof *key))
      return s->res_off;
  }
}

static void memo_place(bfb_memo *m, memo_slot s) {
  int64_t i = (int64_t)(s.hash & (uint64_t)(m->nslot - 1));
  while (m->slot[i].key_off >= 0) i = (i + 1) & (m->nslot - 1);
  m->slot[i] = s;
}

static int memo_insert(bfb_memo *m, const uint64_t *key, uint64_t hash, int64_t res_off, tc_error *err) {
  if (2 * (m->used + 1) > m->nslot) {
    int64_t n = m->nslot ? 2 * m->nslot : 1024;
    memo_slot *old = m->slot, *slot = malloc((size_t)n * sizeof *slot);
    if (!slot) return tc_error_set(err, TC_ENOMEM, "bfb: out of memory for the problem memo");
    for (int64_t i = 0; i < n; i++) slot[i].key_off = -1;
    int64_t old_n = m->nslot;
    m->slot = slot;
    m->nslot = n;
    for (int64_t i = 0; i < old_n; i++)
      if (old[i].key_off >= 0) memo_place(m, old[i]);
    free(old);
  }
  if (!grow_words((void **)&m->keys, &m->keys_room, m->keys_len + (int64_t)key[0], sizeof *m->keys))
    return tc_error_set(err, TC_ENOMEM, "bfb: out of memory for the problem memo");
  memcpy(m->keys + m->keys_len, key, (size_t)key[0] * sizeof *key);
  memo_place(m, (memo_slot){hash, m->keys_len, res_off});
  m->keys_len += (int64_t)key[0];
  m->used++;
  return TC_OK;
}

/* ------------------------------------------------------------------------------------ */
/* Per-thread worker: receiver structure, shortest-path masks, grouping, solving        */
/* ------------------------------------------------------------------------------------ */

/* Counting-sort grouping is used when masks fit this many bits. */
#define SMALL_MASK_BITS 16

typedef struct sort_item {
  const uint64_t *mask;
  int32_t v, words;
} sort_item;

typedef struct bfb_worker {
  const tc_graph *g;
  /* current receiver: distinct in-neighbours and non-loop in-arcs */
  int32_t u, k, narcs;
  int32_t *nbr, *nbr_first; /* k, k + 1 */
  int64_t *arc, *arc_cap;   /* narcs */
  int32_t *nbr_index;       /* n; -1 outside the current receiver */
  /* in-BFS from u */
  int32_t depth;
  int32_t *dist, *order; /* n */
  int64_t *layer_off;    /* n + 2 */
  /* shortest-path masks over in-neighbours, `words` per node */
  int32_t words;
  uint64_t *mask;
  int64_t mask_room;
  /* grouping of one layer */
  int32_t *table;     /* 2^SMALL_MASK_BITS counters, zero between uses */
  uint64_t *distinct; /* 2^SMALL_MASK_BITS */
  sort_item *items;   /* n */
  int32_t *grouped;   /* n: the layer's jobs in group order */
  int32_t ngroups;
  int64_t *gcount;          /* n */
  const uint64_t **gmask;   /* n */
  /* problem description, key and solution scratch */
  uint64_t *key;
  int64_t key_room;
  int64_t *gl_off;          /* n + 1 */
  int32_t *gl_arc;
  int64_t *flow;
  int64_t gl_arc_room, flow_room;
  uint8_t *usable;          /* in-degree flags */
  tc_maxflow mf;
  bfb_memo memo;
  /* accumulators */
  int64_t lcm, problems, solved, maxflows;
  tc_error err;
} bfb_worker;

static void worker_destroy(bfb_worker *w) {
  free(w->nbr);
  free(w->nbr_first);
  free(w->arc);
  free(w->arc_cap);
  free(w->nbr_index);
  free(w->dist);
  free(w->order);
  free(w->layer_off);
  free(w->mask);
  free(w->table);
  free(w->distinct);
  free(w->items);
  free(w->grouped);
  free(w->gcount);
  free(w->gmask);
  free(w->key);
  free(w->gl_off);
  free(w->gl_arc);
  free(w->flow);
  free(w->usable);
  tci_maxflow_destroy(&w->mf);
  memo_destroy(&w->memo);
  memset(w, 0, sizeof *w);
}

/* `grouping` = 0 skips the buffers only the whole-graph passes need. */
static int worker_init(bfb_worker *w, const tc_graph *g, int grouping, tc_error *err) {
  memset(w, 0, sizeof *w);
  w->g = g;
  w->lcm = 1;
  tci_maxflow_init(&w->mf);
  size_t n = (size_t)g->n, in_max = 1;
  for (int32_t u = 0; u < g->n; u++)
    if ((size_t)tc_graph_in_degree(g, u) > in_max) in_max = (size_t)tc_graph_in_degree(g, u);
  w->nbr = malloc(in_max * sizeof *w->nbr);
  w->nbr_first = malloc((in_max + 1) * sizeof *w->nbr_first);
  w->arc = malloc(in_max * sizeof *w->arc);
  w->arc_cap = malloc(in_max * sizeof *w->arc_cap);
  w->usable = malloc(in_max);
  w->nbr_index = malloc(n * sizeof *w->nbr_index);
  w->dist = malloc(n * sizeof *w->dist);
  w->order = malloc(n * sizeof *w->order);
  w->layer_off = malloc((n + 2) * sizeof *w->layer_off);
  int ok = w->nbr && w->nbr_first && w->arc && w->arc_cap && w->usable && w->nbr_index && w->dist && w->order &&
           w->layer_off;
  if (grouping) {
    w->table = calloc((size_t)1 << SMALL_MASK_BITS, sizeof *w->table);
    w->distinct = malloc(((size_t)1 << SMALL_MASK_BITS) * sizeof *w->distinct);
    w->items = malloc(n * sizeof *w->items);
    w->grouped = malloc(n * sizeof *w->grouped);
    w->gcount = malloc(n * sizeof *w->gcount);
    w->gmask = malloc(n * sizeof *w->gmask);
    w->gl_off = malloc((n + 1) * sizeof *w->gl_off);
    ok = ok && w->table && w->distinct && w->items && w->grouped && w->gcount && w->gmask && w->gl_off;
  }
  if (!ok) {
    worker_destroy(w);
    return tc_error_set(err, TC_ENOMEM, "bfb: out of memory for per-thread buffers (%zu nodes)", n);
  }
  for (size_t v = 0; v < n; v++) w->nbr_index[v] = -1;
  return TC_OK;
}

/* Distinct in-neighbours of u (self-loops excluded: no shortest path ends with a loop) and
   the local numbering of u's other in-arcs, grouped by neighbour in in_arc order. */
static void load_receiver(bfb_worker *w, int32_t u) {
  const tc_graph *g = w->g;
  w->u = u;
  w->k = 0;
  w->narcs = 0;
  for (int64_t i = g->in_off[u]; i < g->in_off[u + 1]; i++) {
    int64_t a = g->in_arc[i];
    int32_t src = g->src[a];
    if (src == u) continue;
    if (w->nbr_index[src] < 0) {
      w->nbr_index[src] = w->k;
      w->nbr[w->k] = src;
      w->nbr_first[w->k] = w->narcs;
      w->k++;
    }
    w->arc[w->narcs] = a;
    w->arc_cap[w->narcs] = g->cap[a];
    w->narcs++;
  }
  w->nbr_first[w->k] = w->narcs;
}

static void unload_receiver(bfb_worker *w) {
  for (int32_t i = 0; i < w->k; i++) w->nbr_index[w->nbr[i]] = -1;
}

/* Room for one mask per node, `words` words each (one bit per in-neighbour of u). */
static int reserve_masks(bfb_worker *w, tc_error *err) {
  int64_t words = w->k > 0 ? (w->k + 63) / 64 : 1, need;
  if (__builtin_mul_overflow(words, (int64_t)w->g->n, &need) || need > ((int64_t)1 << 31))
    return tc_error_set(err, TC_ERANGE, "bfb: node %d has %d in-neighbours; its mask table is too large", w->u, w->k);
  if (!grow_words((void **)&w->mask, &w->mask_room, need, sizeof *w->mask))
    return tc_error_set(err, TC_ENOMEM, "bfb: out of memory for shortest-path masks");
  w->words = (int32_t)words;
  return TC_OK;
}

/* BFS toward u over in-arcs: dist[v] = d(v,u), layers in order[] / layer_off[], and
   mask(v) = the in-neighbours of u that end some shortest v -> u path. A node's mask is the
   union of the masks of its successors one step closer to u; BFS order finishes those
   before the node itself is dequeued, so one sweep computes every mask.
   Returns the number of nodes reached (n iff every node reaches u). */
static int32_t bfs_with_masks(bfb_worker *w) {
  const tc_graph *g = w->g;
  const int64_t W = w->words;
  uint64_t *mask = w->mask;
  for (int32_t v = 0; v < g->n; v++) w->dist[v] = -1;
  int32_t head = 0, tail = 0;
  w->dist[w->u] = 0;
  w->order[tail++] = w->u;
  w->layer_off[0] = 0;
  w->depth = 0;
  while (head < tail) {
    int32_t x = w->order[head];
    int32_t dy = w->dist[x] + 1;
    if (dy - 1 > w->depth) w->layer_off[++w->depth] = head;
    head++;
    const uint64_t *mx = mask + x * W;
    for (int64_t i = g->in_off[x]; i < g->in_off[x + 1]; i++) {
      int32_t y = g->src[g->in_arc[i]];
      uint64_t *my = mask + y * W;
      if (w->dist[y] < 0) {
        w->dist[y] = dy;
        w->order[tail++] = y;
        if (x == w->u) {
          memset(my, 0, (size_t)W * sizeof *my);
          int32_t b = w->nbr_index[y];
          my[b / 64] |= 1ULL << (b % 64);
        } else if (W == 1) {
          my[0] = mx[0];
        } else {
          memcpy(my, mx, (size_t)W * sizeof *my);
        }
      } else if (w->dist[y] == dy && x != w->u) {
        for (int64_t j = 0; j < W; j++) my[j] |= mx[j];
      }
    }
  }
  w->layer_off[w->depth + 1] = tail;
  return tail;
}

static int cmp_items(const void *pa, const void *pb) {
  const sort_item *a = pa, *b = pb;
  for (int32_t j = a->words - 1; j >= 0; j--)
    if (a->mask[j] != b->mask[j]) return a->mask[j] < b->mask[j] ? -1 : 1;
  return (a->v > b->v) - (a->v < b->v);
}

static int cmp_u64(const void *pa, const void *pb) {
  uint64_t a = *(const uint64_t *)pa, b = *(const uint64_t *)pb;
  return (a > b) - (a < b);
}

/* Group the jobs of layer t by mask (ascending masks; BFS order inside a group). */
static void group_layer(bfb_worker *w, int32_t t) {
  int64_t lo = w->layer_off[t], hi = w->layer_off[t + 1];
  int32_t words = w->words;
  w->ngroups = 0;
  if (words == 1 && w->k <= SMALL_MASK_BITS) {
    int32_t nd = 0;
    for (int64_t i = lo; i < hi; i++) {
      uint64_t m = w->mask[w->order[i]];
      if (w->table[m]++ == 0) w->distinct[nd++] = m;
    }
    qsort(w->distinct, (size_t)nd, sizeof *w->distinct, cmp_u64);
    int32_t pos = 0;
    for (int32_t i = 0; i < nd; i++) {
      int32_t c = w->table[w->distinct[i]];
      w->gcount[i] = c;
      w->table[w->distinct[i]] = pos;
      pos += c;
    }
    for (int64_t i = lo; i < hi; i++) {
      int32_t v = w->order[i];
      w->grouped[w->table[w->mask[v]]++] = v;
    }
    for (int32_t i = 0; i < nd; i++) w->table[w->distinct[i]] = 0;
    pos = 0;
    for (int32_t i = 0; i < nd; i++) {
      w->gmask[i] = w->mask + w->grouped[pos];
      pos += (int32_t)w->gcount[i];
    }
    w->ngroups = nd;
    return;
  }
  int64_t s = hi - lo;
  for (int64_t i = 0; i < s; i++) {
    int32_t v = w->order[lo + i];
    w->items[i] = (sort_item){w->mask + (int64_t)v * words, v, words};
  }
  qsort(w->items, (size_t)s, sizeof *w->items, cmp_items);
  for (int64_t i = 0; i < s; i++) {
    w->grouped[i] = w->items[i].v;
    if (i == 0 || memcmp(w->items[i].mask, w->items[i - 1].mask, (size_t)words * sizeof(uint64_t))) {
      w->gmask[w->ngroups] = w->items[i].mask;
      w->gcount[w->ngroups++] = 0;
    }
    w->gcount[w->ngroups - 1]++;
  }
}

/* Append to the key; keeps key[0] = current length. */
static int key_push(bfb_worker *w, uint64_t value, tc_error *err) {
  int64_t len = w->key ? (int64_t)w->key[0] : 0;
  if (!grow_words((void **)&w->key, &w->key_room, len + 1, sizeof *w->key))
    return tc_error_set(err, TC_ENOMEM, "bfb: out of memory for a problem key");
  if (!len) len = 1;
  w->key[len] = value;
  w->key[0] = (uint64_t)len + 1;
  return TC_OK;
}

/* The exact description of the grouped layer: arc structure of u, then each group's
   in-neighbour indices and size. Equal keys mean identical LPs up to naming the jobs. */
static int build_key(bfb_worker *w, tc_error *err) {
  if (w->key) w->key[0] = 1;
  int unit = w->narcs == w->k;
  for (int32_t a = 0; unit && a < w->narcs; a++) unit = w->arc_cap[a] == 1;
  int rc = key_push(w, (uint64_t)w->k, err);
  if (!rc) rc = key_push(w, unit ? UINT64_MAX : (uint64_t)w->narcs, err);
  for (int32_t i = 0; !rc && !unit && i < w->k; i++) rc = key_push(w, (uint64_t)(w->nbr_first[i + 1] - w->nbr_first[i]), err);
  for (int32_t a = 0; !rc && !unit && a < w->narcs; a++) rc = key_push(w, (uint64_t)w->arc_cap[a], err);
  if (!rc) rc = key_push(w, (uint64_t)w->ngroups, err);
  for (int32_t gi = 0; !rc && gi < w->ngroups; gi++) {
    const uint64_t *m = w->gmask[gi];
    int64_t bits = 0;
    for (int32_t j = 0; j < w->words; j++) bits += __builtin_popcountll(m[j]);
    rc = key_push(w, (uint64_t)bits, err);
    for (int32_t j = 0; !rc && j < w->words; j++)
      for (uint64_t x = m[j]; !rc && x; x &= x - 1) rc = key_push(w, (uint64_t)(64 * j + __builtin_ctzll(x)), err);
    if (!rc) rc = key_push(w, (uint64_t)w->gcount[gi], err);
  }
  return rc;
}

/* Solve the grouped layer and append its solution record to the memo's result arena. */
static int solve_layer(bfb_worker *w, int64_t *res_off, tc_error *err) {
  int64_t entries = 0;
  for (int32_t gi = 0; gi < w->ngroups; gi++) {
    w->gl_off[gi] = entries;
    for (int32_t j = 0; j < w->words; j++)
      for (uint64_t x = w->gmask[gi][j]; x; x &= x - 1) {
        int32_t b = 64 * j + __builtin_ctzll(x);
        entries += w->nbr_first[b + 1] - w->nbr_first[b];
      }
  }
  w->gl_off[w->ngroups] = entries;
  if (!grow_words((void **)&w->gl_arc, &w->gl_arc_room, entries, sizeof *w->gl_arc) ||
      !grow_words((void **)&w->flow, &w->flow_room, entries, sizeof *w->flow))
    return tc_error_set(err, TC_ENOMEM, "bfb: out of memory for a step problem");
  for (int32_t gi = 0; gi < w->ngroups; gi++) {
    int64_t e = w->gl_off[gi];
    for (int32_t j = 0; j < w->words; j++)
      for (uint64_t x = w->gmask[gi][j]; x; x &= x - 1) {
        int32_t b = 64 * j + __builtin_ctzll(x);
        for (int32_t a = w->nbr_first[b]; a < w->nbr_first[b + 1]; a++) w->gl_arc[e++] = a;
      }
  }
  bfb_problem pr = {w->ngroups, w->narcs, w->gcount, w->gl_off, w->gl_arc, w->arc_cap};
  int64_t p, q;
  int rc = solve_problem(&w->mf, &pr, w->usable, &p, &q, w->flow, &w->maxflows, err);
  if (rc) return rc;
  w->solved++;
  bfb_memo *m = &w->memo;
  int64_t need = m->res_len + RES_HEADER + 2 * (int64_t)w->ngroups + 2 * entries;
  if (!grow_words((void **)&m->res, &m->res_room, need, sizeof *m->res))
    return tc_error_set(err, TC_ENOMEM, "bfb: out of memory for step solutions");
  int64_t *r = m->res + m->res_len, pos = RES_HEADER, pieces = 0;
  r[RES_P] = p;
  r[RES_Q] = q;
  r[RES_NGROUPS] = w->ngroups;
  for (int32_t gi = 0; gi < w->ngroups; gi++) {
    int64_t *head = r + pos, nflow = 0;
    head[0] = w->gcount[gi];
    for (int64_t e = w->gl_off[gi]; e < w->gl_off[gi + 1]; e++)
      if (w->flow[e] > 0) {
        head[2 + 2 * nflow] = w->gl_arc[e];
        head[3 + 2 * nflow] = w->flow[e];
        nflow++;
      }
    head[1] = nflow;
    pieces += fill_pieces(head[0], q, head + 2, nflow);
    pos += 2 + 2 * nflow;
  }
  r[RES_PIECES] = pieces;
  *res_off = m->res_len;
  m->res_len += pos;
  return TC_OK;
}

static int lcm_into(int64_t *acc, int64_t q, tc_error *err) {
  int64_t g = tci_gcd64(*acc, q), out;
  if (__builtin_mul_overflow(*acc / g, q, &out))
    return tc_error_set(err, TC_ERANGE, "bfb: the common denominator of the chunk sizes exceeds 64 bits");
  *acc = out;
  return TC_OK;
}

/* ------------------------------------------------------------------------------------ */
/* Whole-graph passes                                                                   */
/* ------------------------------------------------------------------------------------ */

/* Where the solution of (u,t) lives, and (after planning) where its transfers go. */
typedef struct step_ref {
  int64_t res_off;
  int64_t out_off;
  int32_t thread;
} step_ref;

typedef struct bfb_run {
  const tc_graph *g;
  int nthreads;
  bfb_worker *workers;
  int32_t *depth;      /* n: last step of each receiver */
  step_ref **refs;     /* n: depth[u] entries */
  int32_t *jobs;       /* n * (n-1) when a schedule is wanted: each receiver's sources in
                          step, group, BFS order */
  int32_t diameter;
} bfb_run;

static void run_destroy(bfb_run *r) {
  for (int i = 0; r->workers && i < r->nthreads; i++) worker_destroy(&r->workers[i]);
  free(r->workers);
  for (int32_t u = 0; r->refs && u < r->g->n; u++) free(r->refs[u]);
  free(r->refs);
  free(r->depth);
  free(r->jobs);
  memset(r, 0, sizeof *r);
}

/* Pass 1 for one receiver: masks, groups, memoised solutions, job order. */
static int solve_receiver(bfb_run *run, bfb_worker *w, int thread, int32_t u, tc_error *err) {
  const tc_graph *g = run->g;
  load_receiver(w, u);
  int rc = reserve_masks(w, err);
  if (!rc && bfs_with_masks(w) != g->n) rc = tc_error_set(err, TC_EINPUT, "bfb: graph is not strongly connected");
  step_ref *refs = NULL;
  if (!rc && w->depth > 0 && !(refs = malloc((size_t)w->depth * sizeof *refs)))
    rc = tc_error_set(err, TC_ENOMEM, "bfb: out of memory");
  int32_t *jobs = run->jobs ? run->jobs + (int64_t)u * (g->n - 1) : NULL;
  for (int32_t t = 1; !rc && t <= w->depth; t++) {
    group_layer(w, t);
    rc = build_key(w, err);
    if (rc) break;
    uint64_t h = hash_words(w->key, (int64_t)w->key[0]);
    int64_t off = memo_find(&w->memo, w->key, h);
    if (off < 0) {
      rc = solve_layer(w, &off, err);
      if (!rc) rc = memo_insert(&w->memo, w->key, h, off, err);
      if (!rc) rc = lcm_into(&w->lcm, w->memo.res[off + RES_Q], err);
    }
    if (rc) break;
    w->problems++;
    refs[t - 1] = (step_ref){off, 0, thread};
    if (jobs) {
      int64_t s = w->layer_off[t + 1] - w->layer_off[t];
      memcpy(jobs, w->grouped, (size_t)s * sizeof *jobs);
      jobs += s;
    }
  }
  unload_receiver(w);
  if (rc) {
    free(refs);
    return rc;
  }
  run->refs[u] = refs;
  run->depth[u] = w->depth;
  return TC_OK;
}

/* One line naming an unreachable pair, for graphs that are not strongly connected. */
static int not_strongly_connected(const tc_graph *g, tc_error *err) {
  int32_t *seen = calloc((size_t)g->n, sizeof *seen), *stack = malloc((size_t)g->n * sizeof *stack);
  if (!seen || !stack) {
    free(seen);
    free(stack);
    return tc_error_set(err, TC_EINPUT, "bfb: graph is not strongly connected");
  }
  int32_t miss = -1, dir_in = 0;
  for (int pass = 0; pass < 2 && miss < 0; pass++) {
    memset(seen, 0, (size_t)g->n * sizeof *seen);
    int32_t top = 0;
    seen[0] = 1;
    stack[top++] = 0;
    while (top) {
      int32_t x = stack[--top];
      int64_t lo = pass ? g->in_off[x] : g->out_off[x], hi = pass ? g->in_off[x + 1] : g->out_off[x + 1];
      for (int64_t i = lo; i < hi; i++) {
        int32_t y = pass ? g->src[g->in_arc[i]] : g->dst[i];
        if (!seen[y]) {
          seen[y] = 1;
          stack[top++] = y;
        }
      }
    }
    for (int32_t v = 0; v < g->n && miss < 0; v++)
      if (!seen[v]) miss = v, dir_in = pass;
  }
  free(seen);
  free(stack);
  if (miss < 0) return tc_error_set(err, TC_EINPUT, "bfb: graph is not strongly connected");
  return dir_in ? tc_error_set(err, TC_EINPUT, "bfb: graph is not strongly connected (node %d cannot reach node 0)", miss)
                : tc_error_set(err, TC_EINPUT, "bfb: graph is not strongly connected (node 0 cannot reach node %d)", miss);
}

static int check_graph(const tc_graph *g, tc_error *err) {
  if (!g) return tc_error_set(err, TC_EINPUT, "bfb: no graph given");
  if (g->n < 1) return tc_error_set(err, TC_EINPUT, "bfb: graph has no nodes");
  for (int32_t u = 0; u < g->n; u++)
    if (g->kind[u] != TC_NODE_COMPUTE)
      return tc_error_set(err, TC_EINPUT, "bfb: node %d is a switch; BFB schedules direct-connect topologies only", u);
  if (!tc_graph_is_strongly_connected(g)) return not_strongly_connected(g, err);
  return TC_OK;
}

/* Pass 1 over all receivers in parallel. */
static int solve_all(bfb_run *run, const tc_graph *g, int keep_jobs, tc_error *err) {
  memset(run, 0, sizeof *run);
  run->g = g;
  int rc = check_graph(g, err);
  if (rc) return rc;
  run->nthreads = omp_get_max_threads();
  if (run->nthreads < 1) run->nthreads = 1;
  run->workers = calloc((size_t)run->nthreads, sizeof *run->workers);
  run->depth = calloc((size_t)g->n, sizeof *run->depth);
  run->refs = calloc((size_t)g->n, sizeof *run->refs);
  if (keep_jobs && g->n > 1) {
    run->jobs = malloc((size_t)g->n * (size_t)(g->n - 1) * sizeof *run->jobs);
    tci_advise_huge(run->jobs, (size_t)g->n * (size_t)(g->n - 1) * sizeof *run->jobs); /* N^2 words */
  }
  if (!run->workers || !run->depth || !run->refs || (keep_jobs && g->n > 1 && !run->jobs))
    return tc_error_set(err, TC_ENOMEM, "bfb: out of memory for %d receivers", g->n);
  for (int i = 0; !rc && i < run->nthreads; i++) rc = worker_init(&run->workers[i], g, 1, err);
  if (rc) return rc;
  int failed = 0;
#pragma omp parallel num_threads(run->nthreads)
  {
    int tid = omp_get_thread_num();
    bfb_worker *w = &run->workers[tid];
#pragma omp for schedule(dynamic, 8)
    for (int32_t u = 0; u < g->n; u++) {
      int stop;
#pragma omp atomic read
      stop = failed;
      if (stop || w->err.code) continue;
      if (solve_receiver(run, w, tid, u, &w->err)) {
#pragma omp atomic write
        failed = 1;
      }
    }
  }
  for (int i = 0; i < run->nthreads; i++)
    if (run->workers[i].err.code) {
      if (err) *err = run->workers[i].err;
      return run->workers[i].err.code;
    }
  for (int32_t u = 0; u < g->n; u++)
    if (run->depth[u] > run->diameter) run->diameter = run->depth[u];
  return TC_OK;
}

static const int64_t *solution_of(const bfb_run *run, const step_ref *ref) {
  return run->workers[ref->thread].memo.res + ref->res_off;
}

int tc_bfb_optima(const tc_graph *g, tc_rat **U, int32_t *diameter, tc_error *err) {
  *U = NULL;
  *diameter = 0;
  bfb_run run;
  int rc = solve_all(&run, g, 0, err);
  if (rc) {
    run_destroy(&run);
    return rc;
  }
  int32_t D = run.diameter;
  if (D > 0) {
    *U = calloc((size_t)g->n * (size_t)D, sizeof **U);
    if (!*U) rc = tc_error_set(err, TC_ENOMEM, "bfb: out of memory for %d x %d optima", g->n, D);
  }
  for (int32_t u = 0; !rc && u < g->n; u++)
    for (int32_t t = 1; t <= D; t++) {
      tc_rat *cell = &(*U)[(int64_t)u * D + t - 1];
      if (t > run.depth[u]) {
        *cell = (tc_rat){0, 1};
        continue;
      }
      const int64_t *r = solution_of(&run, &run.refs[u][t - 1]);
      *cell = (tc_rat){r[RES_P], r[RES_Q]};
    }
  if (!rc) *diameter = D;
  run_destroy(&run);
  return rc;
}

/* Pass 2 for one receiver: write its transfers at their planned offsets. */
static void emit_receiver(const bfb_run *run, int32_t u, int64_t units, int64_t *local_arc, tc_transfer *xfer) {
  const tc_graph *g = run->g;
  if (run->depth[u] == 0) return; /* a single node receives nothing */
  int32_t narcs = 0;
  for (int64_t i = g->in_off[u]; i < g->in_off[u + 1]; i++)
    if (g->src[g->in_arc[i]] != u) local_arc[narcs++] = g->in_arc[i];
  const int32_t *jobs = run->jobs + (int64_t)u * (g->n - 1);
  for (int32_t t = 1; t <= run->depth[u]; t++) {
    const step_ref *ref = &run->refs[u][t - 1];
    const int64_t *r = solution_of(run, ref);
    int64_t q = r[RES_Q], scale = units / q, out = ref->out_off;
    const int64_t *grp = r + RES_HEADER;
    for (int64_t gi = 0; gi < r[RES_NGROUPS]; gi++) {
      int64_t count = grp[0], nflow = grp[1], j = 0, left = nflow ? grp[3] : 0;
      const int64_t *pairs = grp + 2;
      for (int64_t i = 0; i < count; i++) {
        int32_t v = *jobs++;
        int64_t need = q, lo = 0;
        while (need > 0) {
          int64_t take = need < left ? need : left;
          xfer[out++] = (tc_transfer){v, t, local_arc[pairs[2 * j]], lo * scale, (lo + take) * scale};
          lo += take;
          need -= take;
          left -= take;
          if (left == 0 && j + 1 < nflow) {
            j++;
            left = pairs[2 * j + 1];
          }
        }
      }
      grp += 2 + 2 * nflow;
    }
  }
}

int tc_bfb_allgather(const tc_graph *g, tc_schedule *out, tc_bfb_stats *stats, tc_error *err) {
  memset(out, 0, sizeof *out);
  if (stats) memset(stats, 0, sizeof *stats);
  bfb_run run;
  int rc = solve_all(&run, g, 1, err);
  int64_t units = 1, total = 0;
  for (int i = 0; !rc && i < run.nthreads; i++) rc = lcm_into(&units, run.workers[i].lcm, err);
  /* Plan: transfers ordered by step, then receiver. */
  for (int32_t t = 1; !rc && t <= run.diameter; t++)
    for (int32_t u = 0; u < g->n; u++) {
      if (t > run.depth[u]) continue;
      step_ref *ref = &run.refs[u][t - 1];
      ref->out_off = total;
      total += solution_of(&run, ref)[RES_PIECES];
    }
  if (!rc) rc = tc_schedule_init(out, TC_COLL_ALLGATHER, g->n, units, "bfb", err);
  if (!rc) rc = tc_schedule_reserve(out, total ? total : 1, err);
  int64_t in_max = 1;
  for (int32_t u = 0; !rc && u < g->n; u++)
    if (tc_graph_in_degree(g, u) > in_max) in_max = tc_graph_in_degree(g, u);
  int64_t *local_arc = NULL;
  if (!rc && !(local_arc = malloc((size_t)run.nthreads * (size_t)in_max * sizeof *local_arc)))
    rc = tc_error_set(err, TC_ENOMEM, "bfb: out of memory");
  if (!rc) {
#pragma omp parallel num_threads(run.nthreads)
    {
      int64_t *mine = local_arc + (int64_t)omp_get_thread_num() * in_max;
#pragma omp for schedule(dynamic, 8)
      for (int32_t u = 0; u < g->n; u++) emit_receiver(&run, u, units, mine, out->xfer);
    }
    out->count = total;
    out->steps = run.diameter;
  }
  free(local_arc);
  if (!rc && stats) {
    stats->diameter = run.diameter;
    stats->units = units;
    for (int i = 0; i < run.nthreads; i++) {
      stats->problems += run.workers[i].problems;
      stats->solved += run.workers[i].solved;
      stats->maxflows += run.workers[i].maxflows;
    }
  }
  if (rc) tc_schedule_destroy(out);
  run_destroy(&run);
  return rc;
}

/* ------------------------------------------------------------------------------------ */
/* Explicit per-receiver problems                                                       */
/* ------------------------------------------------------------------------------------ */

void tci_bfb_receiver_destroy(tci_bfb_receiver *r) {
  for (int32_t t = 0; r->step && t < r->depth; t++) {
    free(r->step[t].job);
    free(r->step[t].allow_off);
    free(r->step[t].allow);
  }
  free(r->step);
  free(r->arc);
  memset(r, 0, sizeof *r);
}

static int cmp_i32(const void *pa, const void *pb) {
  int32_t a = *(const int32_t *)pa, b = *(const int32_t *)pb;
  return (a > b) - (a < b);
}

/* Spell out step t of the worker's current receiver. */
static int spell_step(const bfb_worker *w, int32_t t, tci_bfb_step *s, tc_error *err) {
  int64_t lo = w->layer_off[t], n = w->layer_off[t + 1] - lo, entries = 0;
  s->njobs = (int32_t)n;
  s->job = malloc((size_t)n * sizeof *s->job);
  s->allow_off = malloc((size_t)(n + 1) * sizeof *s->allow_off);
  if (!s->job || !s->allow_off) return tc_error_set(err, TC_ENOMEM, "bfb: out of memory");
  memcpy(s->job, w->order + lo, (size_t)n * sizeof *s->job);
  qsort(s->job, (size_t)n, sizeof *s->job, cmp_i32);
  for (int64_t i = 0; i < n; i++) {
    const uint64_t *m = w->mask + (int64_t)s->job[i] * w->words;
    s->allow_off[i] = entries;
    for (int32_t j = 0; j < w->words; j++)
      for (uint64_t x = m[j]; x; x &= x - 1) {
        int32_t b = 64 * j + __builtin_ctzll(x);
        entries += w->nbr_first[b + 1] - w->nbr_first[b];
      }
  }
  s->allow_off[n] = entries;
  s->allow = malloc((size_t)(entries ? entries : 1) * sizeof *s->allow);
  if (!s->allow) return tc_error_set(err, TC_ENOMEM, "bfb: out of memory");
  for (int64_t i = 0; i < n; i++) {
    const uint64_t *m = w->mask + (int64_t)s->job[i] * w->words;
    int64_t e = s->allow_off[i];
    for (int32_t j = 0; j < w->words; j++)
      for (uint64_t x = m[j]; x; x &= x - 1) {
        int32_t b = 64 * j + __builtin_ctzll(x);
        for (int32_t a = w->nbr_first[b]; a < w->nbr_first[b + 1]; a++) s->allow[e++] = a;
      }
  }
  return TC_OK;
}

int tci_bfb_receiver_build(const tc_graph *g, int32_t u, tci_bfb_receiver *out, tc_error *err) {
  memset(out, 0, sizeof *out);
  int rc = check_graph(g, err);
  if (rc) return rc;
  if (u < 0 || u >= g->n) return tc_error_set(err, TC_EINPUT, "bfb: receiver %d outside nodes 0..%d", u, g->n - 1);
  bfb_worker w;
  rc = worker_init(&w, g, 0, err);
  if (rc) return rc;
  load_receiver(&w, u);
  rc = reserve_masks(&w, err);
  if (!rc) bfs_with_masks(&w);
  out->u = u;
  out->narcs = w.narcs;
  out->arc = malloc((size_t)(w.narcs ? w.narcs : 1) * sizeof *out->arc);
  out->step = calloc((size_t)(w.depth ? w.depth : 1), sizeof *out->step);
  if (!rc && (!out->arc || !out->step)) rc = tc_error_set(err, TC_ENOMEM, "bfb: out of memory");
  if (!rc) {
    memcpy(out->arc, w.arc, (size_t)w.narcs * sizeof *out->arc);
    out->depth = w.depth;
  }
  for (int32_t t = 1; !rc && t <= w.depth; t++) rc = spell_step(&w, t, &out->step[t - 1], err);
  unload_receiver(&w);
  worker_destroy(&w);
  if (rc) tci_bfb_receiver_destroy(out);
  return rc;
}

int tci_bfb_step_solve(const tc_graph *g, const tci_bfb_receiver *r, int32_t t, tc_rat *U, tc_rat *x, tc_error *err) {
  if (t < 1 || t > r->depth)
    return tc_error_set(err, TC_EINPUT, "bfb: step %d outside 1..%d for receiver %d", t, r->depth, r->u);
  const tci_bfb_step *s = &r->step[t - 1];
  int64_t entries = s->allow_off[s->njobs];
  int64_t *count = malloc((size_t)s->njobs * sizeof *count), *cap = malloc((size_t)(r->narcs ? r->narcs : 1) * sizeof *cap);
  int64_t *flow = malloc((size_t)(entries ? entries : 1) * sizeof *flow);
  uint8_t *usable = malloc((size_t)(r->narcs ? r->narcs : 1));
  int rc = TC_OK;
  if (!count || !cap || !flow || !usable) rc = tc_error_set(err, TC_ENOMEM, "bfb: out of memory");
  tc_maxflow mf;
  tci_maxflow_init(&mf);
  int64_t p = 0, q = 1, runs = 0;
  if (!rc) {
    for (int32_t i = 0; i < s->njobs; i++) count[i] = 1;
    for (int32_t a = 0; a < r->narcs; a++) cap[a] = g->cap[r->arc[a]];
    bfb_problem pr = {s->njobs, r->narcs, count, s->allow_off, s->allow, cap};
    rc = solve_problem(&mf, &pr, usable, &p, &q, flow, &runs, err);
  }
  if (!rc) rc = tc_rat_make(p, q, U, err);
  for (int64_t e = 0; !rc && x && e < entries; e++) rc = tc_rat_make(flow[e], q, &x[e], err);
  tci_maxflow_destroy(&mf);
  free(count);
  free(cap);
  free(flow);
  free(usable);
  return rc;
}
