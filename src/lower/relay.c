/*
** relay.c — switch hops collapsed into messages between ranks (contract in relay.h, the
** rules in program.h).
**
** Shard by shard, step by step, and within a step in the relay order of
** sched/relay_order.h (arc, lo, hi) — the verifier's. The units [0, units) of the shard
** are cut at every endpoint of a transfer that touches a switch; within a segment each such
** transfer carries all of it or none. Every (switch, segment) keeps the receipts that
** reached it in order of arrival: which compute node sent the segment into the switches
** (its origin) and in which step. Each send of a switch takes, segment by segment, the
** earliest receipt it has not forwarded yet, in both phases: in the copy phase every
** receipt is the same data, in the reduce phase that is exactly the partial the verifier's
** switch relays (verify.h). When none is left:
**   copy phase    the switch forwards more copies than it received: replication, refused;
**   reduce phase  the send carries nothing (verify.h): no message.
** Receipts of step t are queued after every send of step t is resolved: a send carries what
** the switch held at the start of its step. A segment sent on into a switch becomes that
** switch's receipt with the same origin and entry step, so a chain of switches is traced
** back to the compute node whose data it is; into a compute node it becomes a message from
** the origin's rank at this step, adjacent segments of one origin and entry step joined
** into one message.
** Reduce phase, last: such a message carries its origin's partial as of the step it leaves
** the switches, not as of the step it entered them, so the origin must not receive into
** those units in between — checked against the shard's messages into the origin. This is
** the one thing the verifier accepts that a direct send cannot do.
** The receipts live in an open-addressed hash table of (switch, segment), so memory follows
** the receipts, not switches x segments; a generation stamp empties it between shards and
** between the halves of an allreduce without clearing anything.
*/
#include "lower/relay.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sched/relay_order.h"

typedef struct receipt {
  int32_t origin;  /* the compute node that sent the segment into the switches */
  int32_t entered; /* the step it did */
  int64_t next;    /* the next receipt of the same (switch, segment), or -1 */
} receipt;

typedef struct cell {
  int64_t key; /* switch * nseg + segment */
  uint32_t gen; /* the cell is in use when this is the table's generation */
  int64_t last, cursor; /* the receipt queue: its tail, and the first not forwarded (or -1) */
} cell;

typedef struct arrival { /* a receipt waiting for the end of its step */
  int32_t node, origin, entered;
  int64_t seg;
} arrival;

typedef struct relay_info { /* per message of the current shard */
  int32_t entered; /* the step its origin sent it (its own step when direct) */
  int32_t via;     /* the last switch it crossed, or -1 */
} relay_info;

typedef struct receipt_into { /* a message as its receiver sees it */
  int32_t to, step;
  int64_t lo, hi;
} receipt_into;

typedef struct relay {
  const tc_graph *g;
  const tc_schedule *s;
  const tc_rank_map *map;
  tc_error *err;
  int32_t shard;
  int64_t *cuts, ncuts, cuts_room;
  cell *table;
  int64_t cap, used;
  uint32_t gen;
  receipt *rec;
  int64_t nrec, rec_room;
  arrival *arr;
  int64_t narr, arr_room;
  int32_t *origin, *entered; /* per segment of the send being resolved */
  int64_t origin_room, entered_room;
  tci_rank_xfer *out;
  int64_t nout, out_room;
  relay_info *info;
  int64_t info_room;
  struct receipt_into *into; /* the shard's reduce-phase messages by receiver, for the partials check */
  int64_t into_room;
} relay;

static int grow(relay *R, void **p, int64_t *room, int64_t need, size_t elem) {
  if (need <= *room) return TC_OK;
  int64_t r = *room ? *room : 64;
  while (r < need) r *= 2;
  void *q = realloc(*p, elem * (size_t)r);
  if (!q) return tc_error_set(R->err, TC_ENOMEM, "out of memory collapsing the switch relays of shard %d", R->shard);
  *p = q;
  *room = r;
  return TC_OK;
}

static int reduces(const tc_schedule *s, int32_t step) {
  return s->coll == TC_COLL_REDUCE_SCATTER || s->coll == TC_COLL_REDUCE ||
         (s->coll == TC_COLL_ALLREDUCE && step <= s->rs_steps);
}

static int is_switch(const relay *R, int32_t u) { return R->g->kind[u] != TC_NODE_COMPUTE; }

/* "4" or "4 (nvswitch0)" */
static void name(const tc_graph *g, int32_t u, char *buf, size_t size) {
  const char *label = tc_graph_label(g, u);
  if (label) snprintf(buf, size, "%d (%s)", u, label);
  else snprintf(buf, size, "%d", u);
}

/* The segment starting at unit x (x is a cut). */
static int64_t seg_at(const relay *R, int64_t x) {
  int64_t a = 0, b = R->ncuts - 1;
  while (a < b) {
    int64_t mid = a + (b - a) / 2;
    if (R->cuts[mid] < x) a = mid + 1;
    else b = mid;
  }
  return a;
}

/* ---- the receipt table ---------------------------------------------------------------- */

static int64_t slot_of(const relay *R, int64_t key) {
  uint64_t h = (uint64_t)key * UINT64_C(0x9E3779B97F4A7C15);
  return (int64_t)((h ^ (h >> 31)) & (uint64_t)(R->cap - 1));
}

static cell *find(const relay *R, int64_t key) {
  if (!R->cap) return NULL;
  for (int64_t i = slot_of(R, key);; i = (i + 1) & (R->cap - 1)) {
    cell *c = &R->table[i];
    if (c->gen != R->gen) return NULL;
    if (c->key == key) return c;
  }
}

/* Empty the table: every cell of an older generation is free. */
static void forget(relay *R) {
  R->gen++;
  R->used = 0;
  R->nrec = 0;
  if (R->gen == 0) { /* wrapped: stamps of 2^32 generations ago would look current */
    for (int64_t i = 0; i < R->cap; i++) R->table[i].gen = 0;
    R->gen = 1;
  }
}

static int rehash(relay *R) {
  int64_t cap = R->cap ? 2 * R->cap : 1024;
  cell *old = R->table, *t = calloc((size_t)cap, sizeof *t);
  if (!t) return tc_error_set(R->err, TC_ENOMEM, "out of memory collapsing the switch relays of shard %d", R->shard);
  int64_t old_cap = R->cap;
  R->table = t;
  R->cap = cap;
  uint32_t gen = R->gen;
  R->gen = 1;
  for (int64_t i = 0; i < old_cap; i++)
    if (old[i].gen == gen) {
      int64_t j = slot_of(R, old[i].key);
      while (t[j].gen == R->gen) j = (j + 1) & (cap - 1);
      t[j] = old[i];
      t[j].gen = R->gen;
    }
  free(old);
  return TC_OK;
}

/* Append a receipt to (node, seg). */
static int receive(relay *R, const arrival *a) {
  int64_t key = a->node * (R->ncuts - 1) + a->seg;
  cell *c = find(R, key);
  if (!c) {
    if ((R->used + 1) * 2 > R->cap && rehash(R)) return R->err->code;
    int64_t i = slot_of(R, key);
    while (R->table[i].gen == R->gen) i = (i + 1) & (R->cap - 1);
    c = &R->table[i];
    *c = (cell){.key = key, .gen = R->gen, .last = -1, .cursor = -1};
    R->used++;
  }
  if (grow(R, (void **)&R->rec, &R->rec_room, R->nrec + 1, sizeof *R->rec)) return R->err->code;
  R->rec[R->nrec] = (receipt){.origin = a->origin, .entered = a->entered, .next = -1};
  if (c->last >= 0) R->rec[c->last].next = R->nrec;
  if (c->cursor < 0) c->cursor = R->nrec;
  c->last = R->nrec++;
  return TC_OK;
}

/* ---- one shard ----------------------------------------------------------------------------- */

static int arrive(relay *R, int32_t node, int64_t seg, int32_t origin, int32_t entered) {
  if (grow(R, (void **)&R->arr, &R->arr_room, R->narr + 1, sizeof *R->arr)) return R->err->code;
  R->arr[R->narr++] = (arrival){.node = node, .origin = origin, .entered = entered, .seg = seg};
  return TC_OK;
}

static int emit(relay *R, const tc_transfer *x, int32_t origin, int32_t to, int64_t lo, int64_t hi, int32_t entered,
                int32_t via, int64_t first_out) {
  if (grow(R, (void **)&R->out, &R->out_room, R->nout + 1, sizeof *R->out) ||
      grow(R, (void **)&R->info, &R->info_room, R->nout - first_out + 1, sizeof *R->info))
    return R->err->code;
  R->out[R->nout] = (tci_rank_xfer){.shard = x->shard, .step = x->step, .from = R->map->rank[origin],
                                    .to = R->map->rank[to], .arc = x->arc, .lo = lo, .hi = hi};
  R->info[R->nout - first_out] = (relay_info){.entered = entered, .via = via};
  R->nout++;
  return TC_OK;
}

/* What switch u's send x carries in segments [j0, j1): origin[j - j0] (-1: nothing) and
   entered[j - j0], the receipts it forwards — the earliest not forwarded yet, in both
   phases (sched/relay_order.h). */
static int resolve(relay *R, const tc_transfer *x, int32_t u, int64_t j0, int64_t j1) {
  char who[160];
  for (int64_t j = j0; j < j1; j++) {
    cell *c = find(R, u * (R->ncuts - 1) + j);
    R->origin[j - j0] = -1;
    if (c && c->cursor >= 0) {
      const receipt *r = &R->rec[c->cursor];
      R->origin[j - j0] = r->origin;
      R->entered[j - j0] = r->entered;
      c->cursor = r->next;
      continue;
    }
    if (reduces(R->s, x->step)) continue; /* nothing left to relay: an empty partial, no message */
    int64_t lo = R->cuts[j], hi = R->cuts[j + 1];
    name(R->g, u, who, sizeof who);
    if (!c)
      return tc_error_set(R->err, TC_EINPUT, "switch %s sends shard %d units [%" PRId64 ",%" PRId64 ") at step %d "
                          "before receiving them", who, x->shard, lo, hi, x->step);
    return tc_error_set(R->err, TC_EINPUT, "switch %s replicates shard %d units [%" PRId64 ",%" PRId64 ") at step %d: "
                        "it sends them on more often than it received them, and in the executors switches only "
                        "relay (one send per chunk received)", who, x->shard, lo, hi, x->step);
  }
  return TC_OK;
}

/* Transfer x of step t: a message, receipts for later, or both resolved from a switch. */
static int route(relay *R, const tc_transfer *x, int64_t first_out) {
  int32_t u = R->g->src[x->arc], w = R->g->dst[x->arc];
  if (!is_switch(R, u) && !is_switch(R, w)) return emit(R, x, u, w, x->lo, x->hi, x->step, -1, first_out);
  int64_t j0 = seg_at(R, x->lo), j1 = seg_at(R, x->hi);
  if (!is_switch(R, u)) { /* into the switches */
    for (int64_t j = j0; j < j1; j++)
      if (arrive(R, w, j, u, x->step)) return R->err->code;
    return TC_OK;
  }
  if (grow(R, (void **)&R->origin, &R->origin_room, j1 - j0, sizeof *R->origin) ||
      grow(R, (void **)&R->entered, &R->entered_room, j1 - j0, sizeof *R->entered) || resolve(R, x, u, j0, j1))
    return R->err->code;
  for (int64_t j = j0; j < j1; j++) {
    int32_t o = R->origin[j - j0], e = R->entered[j - j0];
    if (o < 0) continue;
    if (is_switch(R, w)) {
      if (arrive(R, w, j, o, e)) return R->err->code;
      continue;
    }
    int64_t k = j + 1; /* the run of segments with the same origin and entry step */
    while (k < j1 && R->origin[k - j0] == o && R->entered[k - j0] == e) k++;
    if (emit(R, x, o, w, R->cuts[j], R->cuts[k], e, u, first_out)) return R->err->code;
    j = k - 1;
  }
  return TC_OK;
}

static int settle(relay *R) {
  for (int64_t i = 0; i < R->narr; i++)
    if (receive(R, &R->arr[i])) return R->err->code;
  R->narr = 0;
  return TC_OK;
}

static int cmp_i64(const void *a, const void *b) {
  int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
  return (x > y) - (x < y);
}

/* The cuts of the shard's transfers x[0..n) that touch a switch; 0 when none does. */
static int shard_cuts(relay *R, const tc_transfer *x, int64_t n) {
  R->ncuts = 0;
  for (int64_t i = 0; i < n; i++) {
    if (!is_switch(R, R->g->src[x[i].arc]) && !is_switch(R, R->g->dst[x[i].arc])) continue;
    if (grow(R, (void **)&R->cuts, &R->cuts_room, R->ncuts + 4, sizeof *R->cuts)) return R->err->code;
    if (!R->ncuts) {
      R->cuts[R->ncuts++] = 0;
      R->cuts[R->ncuts++] = R->s->units;
    }
    R->cuts[R->ncuts++] = x[i].lo;
    R->cuts[R->ncuts++] = x[i].hi;
  }
  if (!R->ncuts) return TC_OK;
  qsort(R->cuts, (size_t)R->ncuts, sizeof *R->cuts, cmp_i64);
  int64_t uniq = 0;
  for (int64_t i = 0; i < R->ncuts; i++)
    if (!uniq || R->cuts[uniq - 1] != R->cuts[i]) R->cuts[uniq++] = R->cuts[i];
  R->ncuts = uniq;
  return TC_OK;
}

static int cmp_into(const void *a, const void *b) {
  const receipt_into *x = a, *y = b;
  if (x->to != y->to) return x->to < y->to ? -1 : 1;
  if (x->step != y->step) return x->step < y->step ? -1 : 1;
  if (x->lo != y->lo) return x->lo < y->lo ? -1 : 1;
  return (x->hi > y->hi) - (x->hi < y->hi);
}

/* Reduce phase: no origin receives into the units of a relayed message between the step
   it sent them into the switches and the step they leave (the messages from first_out). */
static int check_partials(relay *R, int64_t first_out) {
  int64_t n = R->nout - first_out, m = 0;
  if (grow(R, (void **)&R->into, &R->into_room, n, sizeof *R->into)) return R->err->code;
  for (int64_t i = 0; i < n; i++) {
    const tci_rank_xfer *y = &R->out[first_out + i];
    if (reduces(R->s, y->step)) R->into[m++] = (receipt_into){y->to, y->step, y->lo, y->hi};
  }
  qsort(R->into, (size_t)m, sizeof *R->into, cmp_into);
  for (int64_t i = 0; i < n; i++) {
    const tci_rank_xfer *x = &R->out[first_out + i];
    const relay_info *in = &R->info[i];
    if (in->via < 0 || !reduces(R->s, x->step)) continue;
    int64_t a = 0, b = m; /* the first message into x->from at a step >= entered */
    while (a < b) {
      int64_t mid = a + (b - a) / 2;
      const receipt_into *y = &R->into[mid];
      if (y->to < x->from || (y->to == x->from && y->step < in->entered)) a = mid + 1;
      else b = mid;
    }
    for (; a < m && R->into[a].to == x->from && R->into[a].step < x->step; a++) {
      const receipt_into *y = &R->into[a];
      if (y->hi <= x->lo || x->hi <= y->lo) continue;
      char who[160], via[160];
      name(R->g, R->map->node[x->from], who, sizeof who);
      name(R->g, in->via, via, sizeof via);
      return tc_error_set(R->err, TC_EINPUT, "node %s receives into shard %d units [%" PRId64 ",%" PRId64 ") at step "
                          "%d while its partial of them crosses the switches (sent at step %d, it leaves switch %s at "
                          "step %d): a direct send cannot carry the partial it sent", who, x->shard,
                          x->lo > y->lo ? x->lo : y->lo, x->hi < y->hi ? x->hi : y->hi, y->step, in->entered, via,
                          x->step);
    }
  }
  return TC_OK;
}

/* The shard's transfers x[0..n), in relay order (step, arc, lo, hi). */
static int collapse_shard(relay *R, const tc_transfer *x, int64_t n) {
  int64_t first_out = R->nout;
  if (shard_cuts(R, x, n)) return R->err->code;
  forget(R);
  int phase = -1;
  for (int64_t a = 0, b; a < n; a = b) {
    for (b = a; b < n && x[b].step == x[a].step; b++) {}
    if (reduces(R->s, x[a].step) != phase) { /* the allgather half starts from empty switches */
      forget(R);
      phase = reduces(R->s, x[a].step);
    }
    for (int64_t i = a; i < b; i++)
      if (route(R, &x[i], first_out)) return R->err->code;
    if (settle(R)) return R->err->code;
  }
  return check_partials(R, first_out);
}

static int cmp_transfer(const void *a, const void *b) {
  const tc_transfer *x = a, *y = b;
  if (x->shard != y->shard) return x->shard < y->shard ? -1 : 1;
  return tci_relay_order(x, y);
}

int tci_rank_xfers_init(tci_rank_xfers *v, const tc_graph *g, const tc_schedule *s, const tc_rank_map *map,
                        tc_error *err) {
  memset(v, 0, sizeof *v);
  v->g = g;
  v->s = s;
  v->count = s->count;
  if (map->ranks == g->n) return TC_OK; /* no switch: the schedule's own transfers */
  tc_transfer *x = malloc(sizeof *x * (size_t)(s->count ? s->count : 1));
  relay R = {.g = g, .s = s, .map = map, .err = err};
  int rc = TC_OK;
  if (!x) rc = tc_error_set(err, TC_ENOMEM, "out of memory collapsing the switch relays of %lld transfers",
                            (long long)s->count);
  else {
    if (s->count) memcpy(x, s->xfer, sizeof *x * (size_t)s->count);
    qsort(x, (size_t)s->count, sizeof *x, cmp_transfer);
  }
  for (int64_t a = 0, b; !rc && a < s->count; a = b) {
    for (b = a; b < s->count && x[b].shard == x[a].shard; b++) {}
    R.shard = x[a].shard;
    rc = collapse_shard(&R, x + a, b - a);
  }
  free(x);
  free(R.cuts);
  free(R.table);
  free(R.rec);
  free(R.arr);
  free(R.origin);
  free(R.entered);
  free(R.info);
  free(R.into);
  if (rc) {
    free(R.out);
    memset(v, 0, sizeof *v);
    return rc;
  }
  v->relayed = R.out ? R.out : malloc(sizeof *v->relayed); /* non-NULL: the collapsed form, even when empty */
  if (!v->relayed) return tc_error_set(err, TC_ENOMEM, "out of memory collapsing the switch relays");
  v->count = R.nout;
  return TC_OK;
}

void tci_rank_xfers_destroy(tci_rank_xfers *v) {
  free(v->relayed);
  memset(v, 0, sizeof *v);
}
