/*
** program.c — lowering a step schedule to one rank's program; see program.h.
**
** One pass over the rank's transfers in canonical order (step, arc, shard, lo, hi) — the
** same order on the sending and the receiving side, which is what makes the matching rule
** of program.h hold — building per step three lists (local copies before the step's
** messages, sends, receives with the copies that follow them) that are concatenated at
** the end. Within a step the sends are lowered before the receives: a send carries the
** state at the start of its step, so it must not see what a receive of the same step
** brings (a rank may send and receive-reduce one chunk in one step when one of the two
** transfers is redundant: its data reaches no owner, which the verifier accepts). Three
** interval sets carry the state:
**   touched  (reduce phase) chunks whose partial sum lives in the accumulator; an
**            untouched chunk's partial is still the rank's own input;
**   held     (copy phase) chunks the output already holds; `incoming` collects the
**            chunks received in the current step, which join `held` after the step;
**   reduced  (reduce phase, TC_LOWER_DEPS) chunks a receive of the current step reduces
**            into: a send of the step that reads one of them is staged (program.h).
** Alltoall and p2p take the copy phase's path with their own locations (a2a_send, a2a_recv: input
** row, output column, the scratch mirror for relays) and no interval sets: under flow
** semantics a unit is in one place at a time, so nothing arrives twice.
** Dependencies, when asked for, are a second pass over the final op list.
** The transfers come as messages between ranks (lower/relay.h): on a graph without
** switches the schedule's own, on a fabric with the switch hops collapsed; rank r plays the
** r-th compute node (rank_map.h).
*/
#include "topocoll/program.h"

#include <stdlib.h>
#include <string.h>

#include "lower/interval_set.h"
#include "lower/relay.h"
#include "topocoll/rank_map.h"

/* Chunks past which dependency tracking (per-chunk bookkeeping) is refused. */
#define TC_PROGRAM_DEPS_MAX_CHUNKS (INT64_C(1) << 24)

typedef struct op_list {
  tc_op *v;
  int64_t n, room;
} op_list;

typedef struct location {
  tc_buffer buf;
  int64_t off;
} location;

typedef struct lowering {
  const tc_graph *g;
  const tc_schedule *s;
  const tc_rank_map *map;
  tc_program *p;
  int32_t r;
  int64_t nchunks;
  op_list pre, send, recv, all;
  int stage; /* TC_LOWER_DEPS: stage the sends a receive of their step overwrites */
  tc_interval_set touched, held, incoming, reduced;
  tc_interval *gaps;
  int64_t ngaps, gaps_room;
  int64_t redundant_used, redundant_max;
  tc_error *err;
} lowering;

const char *tc_op_kind_name(tc_op_kind k) {
  static const char *const names[] = {"send", "recv", "recv-reduce", "copy"};
  return (unsigned)k < 4 ? names[k] : "?";
}

const char *tc_buffer_name(tc_buffer b) {
  static const char *const names[] = {"input", "output", "scratch"};
  return (unsigned)b < 3 ? names[b] : "?";
}

static int push(lowering *L, op_list *list, tc_op op) {
  if (list->n == list->room) {
    int64_t room = list->room ? 2 * list->room : 64;
    tc_op *v = realloc(list->v, sizeof *v * (size_t)room);
    if (!v) return tc_error_set(L->err, TC_ENOMEM, "out of memory lowering rank %d", L->r);
    list->v = v;
    list->room = room;
  }
  op.dep_first = 0;
  op.ndeps = 0;
  list->v[list->n++] = op;
  return TC_OK;
}

static int append_list(lowering *L, op_list *to, op_list *from) {
  for (int64_t i = 0; i < from->n; i++)
    if (push(L, to, from->v[i])) return L->err->code;
  from->n = 0;
  return TC_OK;
}

static tc_op copy_op(int32_t step, location src, location dst, int64_t cnt) {
  return (tc_op){.kind = TC_OP_COPY, .step = step, .peer = -1, .arc = -1, .src = src.buf, .src_off = src.off,
                 .dst = dst.buf, .dst_off = dst.off, .cnt = cnt};
}

/* Whether chunk c lies in rank r's own shard (shard r). */
static int own_chunk(const lowering *L, int64_t c) {
  int64_t own = (int64_t)L->r * L->p->units;
  return c >= own && c < own + L->p->units;
}

/* Where rank r keeps the input value of chunk c (allgather, gather: only its own shard). */
static location input_loc(const lowering *L, int64_t c) {
  if (L->p->coll == TC_COLL_ALLGATHER || L->p->coll == TC_COLL_GATHER)
    return (location){TC_BUF_INPUT, c - (int64_t)L->r * L->p->units};
  return (location){TC_BUF_INPUT, c};
}

/* Where rank r accumulates its partial of chunk c (reduce phase): in the output where the
   result is r's (its shard of a reduce-scatter, everything at a reduce's root), in the
   scratch mirror elsewhere. */
static location acc_loc(const lowering *L, int64_t c) {
  if (L->p->coll == TC_COLL_REDUCE_SCATTER)
    return own_chunk(L, c) ? (location){TC_BUF_OUTPUT, c - (int64_t)L->r * L->p->units} : (location){TC_BUF_SCRATCH, c};
  if (L->p->coll == TC_COLL_REDUCE && L->r != L->p->root) return (location){TC_BUF_SCRATCH, c};
  return (location){TC_BUF_OUTPUT, c};
}

/* Copy phase: where rank r keeps chunk c, which it holds, to send it on. */
static location hold_loc(const lowering *L, int64_t c) {
  switch (L->p->coll) {
  case TC_COLL_ALLGATHER: return own_chunk(L, c) ? input_loc(L, c) : (location){TC_BUF_OUTPUT, c};
  case TC_COLL_SCATTER:
    if (L->r == L->p->root) return (location){TC_BUF_INPUT, c};
    break;
  case TC_COLL_GATHER:
    if (own_chunk(L, c)) return input_loc(L, c);
    if (L->r == L->p->root) return (location){TC_BUF_OUTPUT, c};
    break;
  default: return (location){TC_BUF_OUTPUT, c};
  }
  return (location){TC_BUF_SCRATCH, c}; /* a relay's copy in transit */
}

/* Copy phase: where chunk c lands when rank r receives it new — its result, or, in a
   scatter or gather, the scratch mirror when it is some other rank's (a relay's copy). */
static location land_loc(const lowering *L, int64_t c) {
  if (L->p->coll == TC_COLL_SCATTER)
    return own_chunk(L, c) ? (location){TC_BUF_OUTPUT, c - (int64_t)L->r * L->p->units} : (location){TC_BUF_SCRATCH, c};
  if (L->p->coll == TC_COLL_GATHER && L->r != L->p->root) return (location){TC_BUF_SCRATCH, c};
  return (location){TC_BUF_OUTPUT, c};
}

/* Copy the untouched parts of [c0, c1) from the input into the accumulator before the
   step's messages, so the whole range can be read from (or reduced into) one place. */
static int materialize(lowering *L, int32_t step, int64_t c0, int64_t c1) {
  L->ngaps = 0;
  if (tci_interval_set_gaps(&L->touched, c0, c1, &L->gaps, &L->ngaps, &L->gaps_room, L->err)) return L->err->code;
  for (int64_t i = 0; i < L->ngaps; i++) {
    tc_interval gap = L->gaps[i];
    if (push(L, &L->pre, copy_op(step, input_loc(L, gap.lo), acc_loc(L, gap.lo), gap.hi - gap.lo)))
      return L->err->code;
  }
  return tci_interval_set_add(&L->touched, c0, c1, L->err);
}

/* cnt chunks of the per-step area (redundant receives, staged sends), reused every step. */
static location step_slot(lowering *L, int64_t cnt) {
  location slot = {TC_BUF_SCRATCH, L->p->redundant_off + L->redundant_used};
  L->redundant_used += cnt;
  if (L->redundant_used > L->redundant_max) L->redundant_max = L->redundant_used;
  return slot;
}

/* Reduce phase: the partial of [c0, c1) as it stands at the start of the step (the step's
   receives are lowered after its sends, so `touched` does not include them yet). When a
   receive of this step reduces into some of these chunks, an asynchronous executor would
   make that receive wait for this send (write after read); with rendezvous sends such
   waits can close a cycle across ranks. So the send reads a copy made before the step's
   messages instead, and no receive ever waits for a send of its own step. */
static int reduce_send(lowering *L, const tci_rank_xfer *x, int64_t c0, int64_t c1, int32_t peer) {
  location src;
  if (tci_interval_set_covers(&L->touched, c0, c1)) src = acc_loc(L, c0);
  else if (!tci_interval_set_overlaps(&L->touched, c0, c1)) src = input_loc(L, c0);
  else {
    if (materialize(L, x->step, c0, c1)) return L->err->code;
    src = acc_loc(L, c0);
  }
  if (L->stage && tci_interval_set_overlaps(&L->reduced, c0, c1)) {
    location slot = step_slot(L, c1 - c0);
    if (push(L, &L->pre, copy_op(x->step, src, slot, c1 - c0))) return L->err->code;
    src = slot;
  }
  return push(L, &L->send, (tc_op){.kind = TC_OP_SEND, .step = x->step, .peer = peer, .arc = x->arc,
                                   .src = src.buf, .src_off = src.off, .dst = TC_BUF_INPUT, .dst_off = -1,
                                   .cnt = c1 - c0});
}

static int reduce_recv(lowering *L, const tci_rank_xfer *x, int64_t c0, int64_t c1, int32_t peer) {
  location src, dst = acc_loc(L, c0);
  if (tci_interval_set_covers(&L->touched, c0, c1)) src = dst;
  else if (!tci_interval_set_overlaps(&L->touched, c0, c1)) {
    src = input_loc(L, c0);
    if (tci_interval_set_add(&L->touched, c0, c1, L->err)) return L->err->code;
  } else {
    if (materialize(L, x->step, c0, c1)) return L->err->code;
    src = dst;
  }
  return push(L, &L->recv, (tc_op){.kind = TC_OP_RECV_REDUCE, .step = x->step, .peer = peer, .arc = x->arc,
                                   .src = src.buf, .src_off = src.off, .dst = dst.buf, .dst_off = dst.off,
                                   .cnt = c1 - c0});
}

/* Alltoall and p2p (flow semantics: each unit travels one walk, so a relay holds a unit at
   most once at a time). Rank r sends a unit of its own shard from its input, any other from
   the mirror (scratch chunk == global chunk) where it received it; a unit lands in the
   output at its destination and in the mirror anywhere else — including back at its owner,
   which keeps sending from its input (the same data). P2P's one shard belongs to the
   source rank (root) and is destined to `dest`; input and output are that shard. */
static int a2a_send(lowering *L, const tci_rank_xfer *x, int64_t c0, int64_t c1, int32_t peer) {
  int64_t row = (int64_t)L->r * L->p->ranks * L->p->units; /* r's shards: r*C .. r*C + C-1 */
  int own = c0 >= row && c0 < row + (int64_t)L->p->ranks * L->p->units;
  if (L->p->coll == TC_COLL_P2P) {
    row = 0;
    own = L->r == L->p->root;
  }
  location src = own ? (location){TC_BUF_INPUT, c0 - row} : (location){TC_BUF_SCRATCH, c0};
  return push(L, &L->send, (tc_op){.kind = TC_OP_SEND, .step = x->step, .peer = peer, .arc = x->arc,
                                   .src = src.buf, .src_off = src.off, .dst = TC_BUF_INPUT, .dst_off = -1,
                                   .cnt = c1 - c0});
}

static int a2a_recv(lowering *L, const tci_rank_xfer *x, int64_t c0, int64_t c1, int32_t peer) {
  int64_t k = c0 / L->p->units, C = L->p->ranks;
  location dst = k % C == L->r ? (location){TC_BUF_OUTPUT, (k / C) * L->p->units + (c0 - k * L->p->units)}
                               : (location){TC_BUF_SCRATCH, c0};
  if (L->p->coll == TC_COLL_P2P)
    dst = L->r == L->p->dest ? (location){TC_BUF_OUTPUT, c0} : (location){TC_BUF_SCRATCH, c0};
  return push(L, &L->recv, (tc_op){.kind = TC_OP_RECV, .step = x->step, .peer = peer, .arc = x->arc,
                                   .src = TC_BUF_INPUT, .src_off = -1, .dst = dst.buf, .dst_off = dst.off,
                                   .cnt = c1 - c0});
}

/* The program's shard of message x: the schedule's own; for scatter and gather the rank
   of its node (shard k is node k's); for alltoall the rank pair rank(s) * C + rank(t) of
   its node pair (s, t) — TC_EINPUT if an end is a switch, which a verified schedule never
   moves. */
static int program_shard(lowering *L, const tci_rank_xfer *x, int64_t *k) {
  if (L->p->coll == TC_COLL_SCATTER || L->p->coll == TC_COLL_GATHER) {
    *k = L->map->rank[x->shard];
    if (*k < 0)
      return tc_error_set(L->err, TC_EINPUT, "%s shard %d is switch node %d's: it carries no data",
                          tc_collective_name(L->p->coll), x->shard, x->shard);
    return TC_OK;
  }
  if (L->p->coll != TC_COLL_ALLTOALL) {
    *k = x->shard;
    return TC_OK;
  }
  int32_t n = L->s->nodes, s = L->map->rank[x->shard / n], t = L->map->rank[x->shard % n];
  if (s < 0 || t < 0)
    return tc_error_set(L->err, TC_EINPUT, "alltoall shard %d (%d -> %d) has a switch end: it carries no data",
                        x->shard, x->shard / n, x->shard % n);
  *k = (int64_t)s * L->p->ranks + t;
  return TC_OK;
}

/* Copy phase: the sender holds [c0, c1) (the verifier saw to that). */
static int copy_send(lowering *L, const tci_rank_xfer *x, int64_t c0, int64_t c1, int32_t peer) {
  location src = hold_loc(L, c0);
  return push(L, &L->send, (tc_op){.kind = TC_OP_SEND, .step = x->step, .peer = peer, .arc = x->arc,
                                   .src = src.buf, .src_off = src.off, .dst = TC_BUF_INPUT, .dst_off = -1,
                                   .cnt = c1 - c0});
}

/* A receive of wholly new data lands in the output; anything else lands in the redundant
   area and only its new pieces are copied on. */
static int copy_recv(lowering *L, const tci_rank_xfer *x, int64_t c0, int64_t c1, int32_t peer) {
  location land = land_loc(L, c0);
  tc_op op = {.kind = TC_OP_RECV, .step = x->step, .peer = peer, .arc = x->arc, .src = TC_BUF_INPUT,
              .src_off = -1, .dst = land.buf, .dst_off = land.off, .cnt = c1 - c0};
  if (!tci_interval_set_overlaps(&L->held, c0, c1) && !tci_interval_set_overlaps(&L->incoming, c0, c1)) {
    if (push(L, &L->recv, op)) return L->err->code;
    return tci_interval_set_add(&L->incoming, c0, c1, L->err);
  }
  int64_t landing = step_slot(L, c1 - c0).off;
  op.dst = TC_BUF_SCRATCH;
  op.dst_off = landing;
  if (push(L, &L->recv, op)) return L->err->code;
  /* New pieces: not held and not already arriving this step. */
  L->ngaps = 0;
  if (tci_interval_set_gaps(&L->held, c0, c1, &L->gaps, &L->ngaps, &L->gaps_room, L->err)) return L->err->code;
  int64_t held_gaps = L->ngaps;
  for (int64_t i = 0; i < held_gaps; i++)
    if (tci_interval_set_gaps(&L->incoming, L->gaps[i].lo, L->gaps[i].hi, &L->gaps, &L->ngaps, &L->gaps_room,
                             L->err))
      return L->err->code;
  for (int64_t i = held_gaps; i < L->ngaps; i++) {
    tc_interval piece = L->gaps[i];
    location from = {TC_BUF_SCRATCH, landing + (piece.lo - c0)}, to = land_loc(L, piece.lo);
    if (push(L, &L->recv, copy_op(x->step, from, to, piece.hi - piece.lo))) return L->err->code;
    if (tci_interval_set_add(&L->incoming, piece.lo, piece.hi, L->err)) return L->err->code;
  }
  return TC_OK;
}

/* After a copy-phase step: what arrived is held. */
static int end_copy_step(lowering *L) {
  for (int64_t i = 0; i < L->incoming.count; i++)
    if (tci_interval_set_add(&L->held, L->incoming.iv[i].lo, L->incoming.iv[i].hi, L->err)) return L->err->code;
  tci_interval_set_clear(&L->incoming);
  return TC_OK;
}

/* Copy from the input every untouched chunk of [c0, c1) into the accumulator (the rank
   received nothing for it: N == 1), as ops of `step` in `list`. */
static int finish_untouched(lowering *L, op_list *list, int32_t step, int64_t c0, int64_t c1) {
  L->ngaps = 0;
  if (tci_interval_set_gaps(&L->touched, c0, c1, &L->gaps, &L->ngaps, &L->gaps_room, L->err)) return L->err->code;
  for (int64_t i = 0; i < L->ngaps; i++) {
    tc_interval gap = L->gaps[i];
    if (push(L, list, copy_op(step, input_loc(L, gap.lo), acc_loc(L, gap.lo), gap.hi - gap.lo)))
      return L->err->code;
  }
  return tci_interval_set_add(&L->touched, c0, c1, L->err);
}

/* Allreduce, between its halves: owned shards are complete in the output and held. */
static int start_allgather_half(lowering *L, int32_t step) {
  const tc_program *p = L->p;
  for (int32_t k = 0; k < p->nshards; k++) {
    if (L->map->rank[tc_schedule_owner(L->s, k)] != L->r) continue;
    int64_t c0 = (int64_t)k * p->units, c1 = c0 + p->units;
    if (finish_untouched(L, &L->pre, step, c0, c1)) return L->err->code;
    if (tci_interval_set_add(&L->held, c0, c1, L->err)) return L->err->code;
  }
  return TC_OK;
}

static int cmp_transfer(const void *a, const void *b) {
  const tci_rank_xfer *x = a, *y = b;
  if (x->step != y->step) return x->step < y->step ? -1 : 1;
  if (x->arc != y->arc) return x->arc < y->arc ? -1 : 1;
  if (x->shard != y->shard) return x->shard < y->shard ? -1 : 1;
  if (x->lo != y->lo) return x->lo < y->lo ? -1 : 1;
  if (x->hi != y->hi) return x->hi < y->hi ? -1 : 1;
  if (x->from != y->from) return x->from < y->from ? -1 : 1; /* relays into one arc from several origins */
  return (x->to > y->to) - (x->to < y->to);
}

/* The rank's messages, copied, in canonical order (the key is total on distinct messages,
   so the order does not depend on qsort). */
static int rank_transfers(lowering *L, const tci_rank_xfers *all, tci_rank_xfer **out, int64_t *count) {
  int64_t n = 0;
  for (int64_t i = 0; i < all->count; i++) {
    tci_rank_xfer x = tci_rank_xfers_get(all, i);
    n += x.from == L->r || x.to == L->r;
  }
  tci_rank_xfer *mine = malloc(sizeof *mine * (size_t)(n ? n : 1));
  if (!mine) return tc_error_set(L->err, TC_ENOMEM, "out of memory lowering rank %d", L->r);
  n = 0;
  for (int64_t i = 0; i < all->count; i++) {
    tci_rank_xfer x = tci_rank_xfers_get(all, i);
    if (x.from == L->r || x.to == L->r) mine[n++] = x;
  }
  if (n > 1) qsort(mine, (size_t)n, sizeof *mine, cmp_transfer);
  *out = mine;
  *count = n;
  return TC_OK;
}

/* Everything tc_program_check asks but the relays, which the lowering meets anyway. */
static int check_layout(const tc_graph *g, const tc_schedule *s, const tc_rank_map *map, tc_error *err) {
  if ((unsigned)s->coll > TC_COLL_LAST)
    return tc_error_set(err, TC_EINPUT, "a schedule of unknown collective %d", (int)s->coll);
  if (g->n != s->nodes)
    return tc_error_set(err, TC_EINPUT, "schedule has %d nodes but the graph has %d", s->nodes, g->n);
  int fabric = map->ranks < g->n;
  if (fabric && map->ranks == 0)
    return tc_error_set(err, TC_EINPUT, "the graph has no compute node: there is no rank to run the schedule");
  if (s->coll == TC_COLL_ALLTOALL) { /* the fixed layout; the program's shards are the rank pairs */
    int64_t nchunks;
    if (s->owner || (int64_t)s->nshards != (int64_t)s->nodes * s->nodes)
      return tc_error_set(err, TC_EINPUT, "alltoall schedule must have N*N shards (N = %d) in its fixed layout",
                          s->nodes);
    if (s->units < 1 || __builtin_mul_overflow((int64_t)map->ranks * map->ranks, s->units, &nchunks))
      return tc_error_set(err, TC_ERANGE, "schedule has too many chunks (%d ranks squared x %lld units)", map->ranks,
                          (long long)s->units);
    return TC_OK;
  }
  int rooted = tc_program_rooted(s->coll);
  if (rooted) { /* the roots are where the data starts or ends: ranks, never switches */
    int32_t root = tc_schedule_root(s), dest = s->coll == TC_COLL_P2P ? s->dest : root;
    if (root < 0 || root >= g->n || dest < 0 || dest >= g->n)
      return tc_error_set(err, TC_EINPUT, "%s schedule has no valid root (node %d)", tc_collective_name(s->coll),
                          root < 0 || root >= g->n ? root : dest);
    if (map->rank[root] < 0 || map->rank[dest] < 0)
      return tc_error_set(err, TC_EINPUT, "%s schedule's %s is node %d, a switch (switches hold no data)",
                          tc_collective_name(s->coll), map->rank[root] < 0 && s->coll == TC_COLL_P2P ? "source"
                          : s->coll == TC_COLL_P2P ? "destination" : "root", map->rank[root] < 0 ? root : dest);
  }
  int32_t layout_shards = s->coll == TC_COLL_P2P ? 1 : s->coll >= TC_COLL_SCATTER ? s->nodes : -1;
  if (layout_shards > 0 && s->nshards != layout_shards)
    return tc_error_set(err, TC_EINPUT, "%s schedule must have %d shard%s in its fixed layout, not %d",
                        tc_collective_name(s->coll), layout_shards, layout_shards == 1 ? "" : "s", s->nshards);
  for (int32_t k = 0; k < s->nshards; k++) { /* ranks hold the data; switches hold none */
    int32_t u = tc_schedule_owner(s, k);
    if (u < 0 || u >= g->n) return tc_error_set(err, TC_EINPUT, "owner %d of shard %d is not a node", u, k);
    if (rooted && s->coll != TC_COLL_GATHER && u != tc_schedule_root(s))
      return tc_error_set(err, TC_EINPUT, "%s schedule's shard %d is owned by node %d, not the root %d",
                          tc_collective_name(s->coll), k, u, tc_schedule_root(s));
    if (s->coll == TC_COLL_GATHER && u != k)
      return tc_error_set(err, TC_EINPUT, "gather schedule's shard %d is owned by node %d, not node %d", k, u, k);
    if (map->rank[u] < 0 && s->coll != TC_COLL_GATHER) /* gather: a switch's shard carries nothing */
      return tc_error_set(err, TC_EINPUT, "shard %d is owned by node %d, a switch (switches hold no data)", k, u);
  }
  if (s->coll == TC_COLL_ALLGATHER || s->coll == TC_COLL_REDUCE_SCATTER) {
    int identity = s->nshards == map->ranks;
    for (int32_t k = 0; identity && k < s->nshards; k++) identity = tc_schedule_owner(s, k) == map->node[k];
    if (!identity && !fabric)
      return tc_error_set(err, TC_EINPUT, "%s schedule must have one shard per node, shard k owned by node k",
                          tc_collective_name(s->coll));
    if (!identity)
      return tc_error_set(err, TC_EINPUT, "%s schedule must have one shard per compute node, shard k owned by the "
                          "node of rank k (the k-th compute node)", tc_collective_name(s->coll));
  }
  int64_t nchunks;
  if (s->units < 1 || __builtin_mul_overflow((int64_t)s->nshards, s->units, &nchunks))
    return tc_error_set(err, TC_ERANGE, "schedule has too many chunks (%d shards x %lld units)", s->nshards,
                        (long long)s->units);
  return TC_OK;
}

int tc_program_check(const tc_graph *g, const tc_schedule *s, tc_error *err) {
  tc_rank_map map;
  tci_rank_xfers all;
  int rc = tc_rank_map_init(&map, g, err);
  if (!rc) rc = check_layout(g, s, &map, err);
  if (!rc && map.ranks < g->n) { /* a fabric: the relays must collapse */
    rc = tci_rank_xfers_init(&all, g, s, &map, err);
    if (!rc) tci_rank_xfers_destroy(&all);
  }
  tc_rank_map_destroy(&map);
  return rc;
}

/* ---- dependencies ---------------------------------------------------------------- */

typedef struct dep_state {
  int64_t *writer;      /* per storage chunk: last op writing it, -1 */
  int64_t *readers;     /* per storage chunk: head of the list of ops reading it since */
  int64_t *node_op, *node_next; /* reader list nodes */
  int64_t nodes, op_room, next_room;
  int64_t *scratch;     /* deps of the current op */
  int64_t nscratch, scratch_room;
} dep_state;

/* Alltoall's input and output are distinct buffers (in place, the executor copies the
   input away first): input, output, then scratch. */
static int64_t storage_base(const tc_program *p) {
  if (p->coll == TC_COLL_ALLTOALL) return p->input_chunks + p->output_chunks;
  return (int64_t)p->nshards * p->units;
}

static int64_t storage_of(const tc_program *p, tc_buffer b, int64_t off) {
  int64_t own = (int64_t)p->rank * p->units;
  if (b == TC_BUF_SCRATCH) return storage_base(p) + off;
  if (p->coll == TC_COLL_ALLTOALL) return b == TC_BUF_OUTPUT ? p->input_chunks + off : off;
  if ((p->coll == TC_COLL_ALLGATHER || p->coll == TC_COLL_GATHER) && b == TC_BUF_INPUT) return own + off;
  if ((p->coll == TC_COLL_REDUCE_SCATTER || p->coll == TC_COLL_SCATTER) && b == TC_BUF_OUTPUT) return own + off;
  return off;
}

static int grow(int64_t **v, int64_t *room, int64_t need, tc_error *err) {
  if (need <= *room) return TC_OK;
  int64_t r = *room ? *room : 64;
  while (r < need) r *= 2;
  int64_t *nv = realloc(*v, sizeof *nv * (size_t)r);
  if (!nv) return tc_error_set(err, TC_ENOMEM, "out of memory computing dependencies");
  *v = nv;
  *room = r;
  return TC_OK;
}

static int add_dep(dep_state *d, int64_t op, tc_error *err) {
  if (grow(&d->scratch, &d->scratch_room, d->nscratch + 1, err)) return err->code;
  d->scratch[d->nscratch++] = op;
  return TC_OK;
}

static int cmp_i64(const void *a, const void *b) {
  int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
  return (x > y) - (x < y);
}

static int op_reads(const tc_op *op) { return op->kind != TC_OP_RECV; }
static int op_writes(const tc_op *op) { return op->kind != TC_OP_SEND; }

static int compute_deps(tc_program *p, tc_error *err) {
  int64_t storage = storage_base(p) + p->scratch_chunks;
  if (storage > TC_PROGRAM_DEPS_MAX_CHUNKS)
    return tc_error_set(err, TC_ERANGE, "rank %d has %lld chunks of buffers: dependencies are tracked for at most %lld",
                        p->rank, (long long)storage, (long long)TC_PROGRAM_DEPS_MAX_CHUNKS);
  dep_state d = {0};
  int64_t deps_room = 0;
  int rc = TC_OK;
  d.writer = malloc(sizeof *d.writer * (size_t)(storage ? storage : 1));
  d.readers = malloc(sizeof *d.readers * (size_t)(storage ? storage : 1));
  if (!d.writer || !d.readers) {
    rc = tc_error_set(err, TC_ENOMEM, "out of memory computing dependencies");
    goto done;
  }
  for (int64_t i = 0; i < storage; i++) d.writer[i] = d.readers[i] = -1;
  for (int64_t x = 0; x < p->nops && !rc; x++) {
    tc_op *op = &p->ops[x];
    d.nscratch = 0;
    if (op_reads(op)) {
      int64_t base = storage_of(p, op->src, op->src_off);
      for (int64_t i = 0; i < op->cnt && !rc; i++)
        if (d.writer[base + i] >= 0) rc = add_dep(&d, d.writer[base + i], err);
    }
    if (op_writes(op) && !rc) {
      int64_t base = storage_of(p, op->dst, op->dst_off);
      for (int64_t i = 0; i < op->cnt && !rc; i++) {
        if (d.writer[base + i] >= 0) rc = add_dep(&d, d.writer[base + i], err);
        for (int64_t n = d.readers[base + i]; n >= 0 && !rc; n = d.node_next[n])
          if (d.node_op[n] != x) rc = add_dep(&d, d.node_op[n], err);
      }
    }
    if (rc) break;
    /* Record this op's accesses: reads first, then writes reset the readers. */
    if (op_reads(op)) {
      int64_t base = storage_of(p, op->src, op->src_off);
      if ((rc = grow(&d.node_op, &d.op_room, d.nodes + op->cnt, err))) break;
      if ((rc = grow(&d.node_next, &d.next_room, d.nodes + op->cnt, err))) break;
      for (int64_t i = 0; i < op->cnt; i++) {
        d.node_op[d.nodes] = x;
        d.node_next[d.nodes] = d.readers[base + i];
        d.readers[base + i] = d.nodes++;
      }
    }
    if (op_writes(op)) {
      int64_t base = storage_of(p, op->dst, op->dst_off);
      for (int64_t i = 0; i < op->cnt; i++) {
        d.writer[base + i] = x;
        d.readers[base + i] = -1;
      }
    }
    if (d.nscratch > 1) qsort(d.scratch, (size_t)d.nscratch, sizeof *d.scratch, cmp_i64);
    op->dep_first = p->ndeps;
    for (int64_t i = 0; i < d.nscratch; i++) {
      if (i > 0 && d.scratch[i] == d.scratch[i - 1]) continue;
      if ((rc = grow(&p->deps, &deps_room, p->ndeps + 1, err))) break;
      p->deps[p->ndeps++] = d.scratch[i];
      op->ndeps++;
    }
  }
done:
  free(d.writer);
  free(d.readers);
  free(d.node_op);
  free(d.node_next);
  free(d.scratch);
  return rc;
}

/* ---- the pass ----------------------------------------------------------------------- */

static void set_layout(tc_program *p, int64_t nchunks) {
  int root = p->rank == p->root;
  switch (p->coll) {
  case TC_COLL_ALLGATHER:
    p->input_chunks = p->units;
    p->output_chunks = nchunks;
    p->redundant_off = 0;
    break;
  case TC_COLL_REDUCE_SCATTER:
    p->input_chunks = nchunks;
    p->output_chunks = p->units;
    p->redundant_off = nchunks;
    break;
  case TC_COLL_ALLTOALL: /* C shards each way; the mirror of every shard for relays */
    p->input_chunks = p->output_chunks = (int64_t)p->ranks * p->units;
    p->redundant_off = nchunks;
    break;
  case TC_COLL_REDUCE: /* non-roots accumulate in the mirror */
    p->input_chunks = nchunks;
    p->output_chunks = root ? nchunks : 0;
    p->redundant_off = nchunks;
    break;
  case TC_COLL_SCATTER: /* relays keep copies in transit in the mirror */
    p->input_chunks = root ? nchunks : 0;
    p->output_chunks = p->units;
    p->redundant_off = nchunks;
    break;
  case TC_COLL_GATHER:
    p->input_chunks = p->units;
    p->output_chunks = root ? nchunks : 0;
    p->redundant_off = nchunks;
    break;
  case TC_COLL_P2P: /* one shard: the source's input, the destination's output */
    p->input_chunks = root ? nchunks : 0;
    p->output_chunks = p->rank == p->dest ? nchunks : 0;
    p->redundant_off = nchunks;
    break;
  default: /* allreduce, broadcast */
    p->input_chunks = p->output_chunks = nchunks;
    p->redundant_off = 0;
  }
}

/* Step 0: what a rank holds before any message — its own shard (allgather, gather), or
   everything at a broadcast's or scatter's root — and the local copies that put the part
   of it that is its result in the output. */
static int start_copy_phase(lowering *L) {
  tc_program *p = L->p;
  int64_t own = (int64_t)L->r * p->units, all = (int64_t)p->nshards * p->units;
  location in = {TC_BUF_INPUT, 0};
  int root = L->r == p->root;
  switch (p->coll) {
  case TC_COLL_ALLGATHER:
    if (push(L, &L->all, copy_op(0, in, (location){TC_BUF_OUTPUT, own}, p->units))) return L->err->code;
    return tci_interval_set_add(&L->held, own, own + p->units, L->err);
  case TC_COLL_GATHER:
    if (root && push(L, &L->all, copy_op(0, in, (location){TC_BUF_OUTPUT, own}, p->units))) return L->err->code;
    return tci_interval_set_add(&L->held, own, own + p->units, L->err);
  case TC_COLL_BROADCAST:
    if (!root) return TC_OK;
    if (push(L, &L->all, copy_op(0, in, (location){TC_BUF_OUTPUT, 0}, all))) return L->err->code;
    return tci_interval_set_add(&L->held, 0, all, L->err);
  case TC_COLL_SCATTER:
    if (!root) return TC_OK;
    if (push(L, &L->all, copy_op(0, (location){TC_BUF_INPUT, own}, (location){TC_BUF_OUTPUT, 0}, p->units)))
      return L->err->code;
    return tci_interval_set_add(&L->held, 0, all, L->err);
  default: return TC_OK;
  }
}

static int lower_steps(lowering *L, const tci_rank_xfer *mine, int64_t count) {
  tc_program *p = L->p;
  const tc_schedule *s = L->s;
  int32_t r = L->r;
  if (start_copy_phase(L)) return L->err->code;
  int a2a = tc_collective_flows(p->coll);
  if (p->coll == TC_COLL_ALLTOALL) { /* the diagonal shard (r, r) never travels */
    int64_t own = (int64_t)r * p->units;
    if (push(L, &L->all, copy_op(0, (location){TC_BUF_INPUT, own}, (location){TC_BUF_OUTPUT, own}, p->units)))
      return L->err->code;
  }
  int64_t at = 0;
  for (int32_t t = 1; t <= s->steps; t++) {
    int reduce = p->coll == TC_COLL_REDUCE_SCATTER || p->coll == TC_COLL_REDUCE ||
                 (p->coll == TC_COLL_ALLREDUCE && t <= s->rs_steps);
    if (p->coll == TC_COLL_ALLREDUCE && t == s->rs_steps + 1 && start_allgather_half(L, t)) return L->err->code;
    int64_t end = at;
    while (end < count && mine[end].step == t) end++;
    /* Pass 0 (staging only): what the step's receives reduce into. Pass 1: the sends, on
       the state at the start of the step. Pass 2: the receives. */
    for (int pass = reduce && L->stage ? 0 : 1; pass <= 2; pass++)
      for (int64_t i = at; i < end; i++) {
        const tci_rank_xfer *x = &mine[i];
        int32_t u = x->from, w = x->to;
        int64_t k = 0;
        if (!reduce && u == w) continue; /* a copy to oneself carries nothing */
        if (program_shard(L, x, &k)) return L->err->code;
        int64_t c0 = k * p->units + x->lo, c1 = k * p->units + x->hi;
        if (a2a) {
          if ((pass == 1 && u == r && a2a_send(L, x, c0, c1, w)) || (pass == 2 && w == r && a2a_recv(L, x, c0, c1, u)))
            return L->err->code;
          continue;
        }
        if (pass == 0 && w == r && tci_interval_set_add(&L->reduced, c0, c1, L->err)) return L->err->code;
        if (pass == 1 && u == r && (reduce ? reduce_send(L, x, c0, c1, w) : copy_send(L, x, c0, c1, w)))
          return L->err->code;
        if (pass == 2 && w == r && (reduce ? reduce_recv(L, x, c0, c1, u) : copy_recv(L, x, c0, c1, u)))
          return L->err->code;
      }
    at = end;
    if (append_list(L, &L->all, &L->pre) || append_list(L, &L->all, &L->send) || append_list(L, &L->all, &L->recv))
      return L->err->code;
    if (!reduce && !a2a && end_copy_step(L)) return L->err->code;
    tci_interval_set_clear(&L->reduced);
    L->redundant_used = 0; /* the per-step area is reused by the next step */
  }
  int32_t after = s->steps + 1;
  if (p->coll == TC_COLL_ALLREDUCE && s->rs_steps == s->steps) {
    if (start_allgather_half(L, after) || append_list(L, &L->all, &L->pre)) return L->err->code;
  }
  if (p->coll == TC_COLL_REDUCE_SCATTER) {
    int64_t own = (int64_t)r * p->units;
    if (finish_untouched(L, &L->all, after, own, own + p->units)) return L->err->code;
  }
  if (p->coll == TC_COLL_REDUCE && r == p->root &&
      finish_untouched(L, &L->all, after, 0, (int64_t)p->nshards * p->units))
    return L->err->code;
  return TC_OK;
}

/* Lower rank's program from its messages `mine` (in canonical order). */
static int lower_from(const tc_graph *g, const tc_schedule *s, const tc_rank_map *map, int32_t rank, unsigned flags,
                      const tci_rank_xfer *mine, int64_t count, tc_program *out, tc_error *err) {
  memset(out, 0, sizeof *out);
  tc_program *p = out;
  p->coll = s->coll;
  p->rank = rank;
  p->ranks = map->ranks;
  p->nshards = s->coll == TC_COLL_ALLTOALL                               ? map->ranks * map->ranks
               : s->coll == TC_COLL_SCATTER || s->coll == TC_COLL_GATHER ? map->ranks
                                                                          : s->nshards; /* checked: fits */
  p->units = s->units;
  p->steps = s->steps;
  p->rs_steps = s->rs_steps;
  p->owner = s->owner;
  int32_t root = tc_schedule_root(s);
  p->root = root >= 0 ? map->rank[root] : -1; /* checked: a compute node */
  p->dest = s->coll == TC_COLL_P2P ? map->rank[s->dest] : -1;
  int64_t nchunks = (int64_t)p->nshards * s->units;
  set_layout(p, nchunks);

  lowering L = {.g = g, .s = s, .map = map, .p = p, .r = rank, .nchunks = nchunks,
                .stage = (flags & TC_LOWER_DEPS) != 0, .err = err};
  tci_interval_set_init(&L.touched);
  tci_interval_set_init(&L.held);
  tci_interval_set_init(&L.incoming);
  tci_interval_set_init(&L.reduced);
  int rc = lower_steps(&L, mine, count);
  free(L.pre.v);
  free(L.send.v);
  free(L.recv.v);
  free(L.gaps);
  tci_interval_set_destroy(&L.touched);
  tci_interval_set_destroy(&L.held);
  tci_interval_set_destroy(&L.incoming);
  tci_interval_set_destroy(&L.reduced);
  p->ops = L.all.v;
  p->nops = L.all.n;
  p->scratch_chunks = p->redundant_off + L.redundant_max;
  if (!rc && (flags & TC_LOWER_DEPS)) rc = compute_deps(p, err);
  if (rc) tc_program_destroy(p);
  return rc;
}

int tc_program_lower(const tc_graph *g, const tc_schedule *s, int32_t rank, unsigned flags, tc_program *out,
                     tc_error *err) {
  memset(out, 0, sizeof *out);
  tc_rank_map map;
  tci_rank_xfers all = {0};
  tci_rank_xfer *mine = NULL;
  int64_t count = 0;
  int rc = tc_rank_map_init(&map, g, err);
  if (!rc) rc = check_layout(g, s, &map, err);
  if (!rc && (rank < 0 || rank >= map.ranks))
    rc = tc_error_set(err, TC_EINPUT, "rank %d outside 0..%d", rank, map.ranks - 1);
  if (!rc) rc = tci_rank_xfers_init(&all, g, s, &map, err);
  lowering L = {.g = g, .s = s, .r = rank, .err = err};
  if (!rc) rc = rank_transfers(&L, &all, &mine, &count);
  if (!rc) rc = lower_from(g, s, &map, rank, flags, mine, count, out, err);
  free(mine);
  tci_rank_xfers_destroy(&all);
  tc_rank_map_destroy(&map);
  return rc;
}

int tc_program_lower_all(const tc_graph *g, const tc_schedule *s, unsigned flags, tc_program *out, tc_error *err) {
  int32_t n = tc_rank_count(g);
  if (n > 0) memset(out, 0, sizeof *out * (size_t)n);
  tc_rank_map map;
  tci_rank_xfers all = {0};
  int64_t *start = NULL, *fill = NULL;
  tci_rank_xfer *bucket = NULL;
  int rc = tc_rank_map_init(&map, g, err);
  if (!rc) rc = check_layout(g, s, &map, err);
  if (!rc && n < 1) rc = tc_error_set(err, TC_EINPUT, "rank 0 outside 0..%d", n - 1);
  if (!rc) rc = tci_rank_xfers_init(&all, g, s, &map, err);
  if (rc) goto done;
  /* Bucket the messages by the ranks they touch (one to oneself once), then sort each. */
  start = calloc((size_t)n + 1, sizeof *start);
  bucket = malloc(sizeof *bucket * (size_t)(2 * all.count + 1));
  fill = malloc(sizeof *fill * (size_t)(n ? n : 1));
  if (!start || !bucket || !fill) {
    rc = tc_error_set(err, TC_ENOMEM, "out of memory lowering %d ranks", n);
    goto done;
  }
  for (int64_t i = 0; i < all.count; i++) {
    tci_rank_xfer x = tci_rank_xfers_get(&all, i);
    start[x.from + 1]++;
    if (x.to != x.from) start[x.to + 1]++;
  }
  for (int32_t r = 0; r < n; r++) start[r + 1] += start[r];
  memcpy(fill, start, sizeof *fill * (size_t)n);
  for (int64_t i = 0; i < all.count; i++) {
    tci_rank_xfer x = tci_rank_xfers_get(&all, i);
    bucket[fill[x.from]++] = x;
    if (x.to != x.from) bucket[fill[x.to]++] = x;
  }
  for (int32_t r = 0; r < n && !rc; r++) {
    int64_t count = start[r + 1] - start[r];
    if (count > 1) qsort(bucket + start[r], (size_t)count, sizeof *bucket, cmp_transfer);
    rc = lower_from(g, s, &map, r, flags, bucket + start[r], count, &out[r], err);
  }
  if (rc)
    for (int32_t r = 0; r < n; r++) tc_program_destroy(&out[r]);
done:
  free(start);
  free(bucket);
  free(fill);
  tci_rank_xfers_destroy(&all);
  tc_rank_map_destroy(&map);
  return rc;
}

void tc_program_destroy(tc_program *p) {
  free(p->ops);
  free(p->deps);
  memset(p, 0, sizeof *p);
}
