/*
** verify.c — the independent schedule verifier (contract in verify.h).
**
** Per shard, the chunk endpoints of all its transfers cut [0, units) into elementary
** segments; within a segment every transfer either carries all of it or none, so the
** replay is exact and per segment:
**   copy semantics    earliest[node][seg] = first step after which node holds the segment;
**                     a transfer at step t needs earliest[from] < t. Every compute node
**                     must end with it, or only the shard's destination (scatter, gather).
**   reduce semantics  W(x, t) = number of time-respecting paths by which the content x has
**                     at the start of step t reaches the owner's final value; computed
**                     backwards over steps, saturating at 2 (all counts are >= 0, so
**                     "== 1" is decided exactly). Every node's contribution must count once.
**   flow semantics    (alltoall, paper 003 §3.1.3 eqs. 17-19, and p2p) held[node][seg] = copies of
**                     the segment the node holds and has not sent on (-1: never held);
**                     the owner starts with one, a send takes one the sender held before
**                     the step, a receipt adds one, so each unit is one token on one walk
**                     and its destination, which never sends it on, must end holding it.
**                     Only the nodes a shard's transfers touch get a row, so the replay of
**                     the N*N shards costs O(transfers * segments), not O(N^3).
** Only compute nodes contribute data and must end with the result; switch nodes may
** forward (store-and-forward at step granularity) but hold no data of their own. In the
** reduce phase a switch relays: each of its sends carries one partial it received, the
** earliest not yet forwarded (received in an earlier step; ties in canonical order: arc,
** lo, hi: sched/relay_order.h, the rule's one home, which the lowering follows too), or
** nothing — it never adds two up and never keeps what it sent. So a switch may
** relay the same units many times (the trees of paper 001 cross one switch on several
** edges), and the replay values a receipt by the send it is matched to, not by the switch.
** Before any replay, a count: every compute node other than a shard's owner must receive
** the shard (copy) or send its contribution (reduce) at least once, so a schedule with fewer
** transfers than that fails at once, in O(N + nshards). Without it a file of a few hundred
** bytes declaring 16 M nodes and no transfers cost 16 M replays of 16 M nodes each.
** Segments are processed in blocks so that memory stays O(block * N) per thread even when a
** shard is cut very finely. Shards are independent and spread over OpenMP threads.
** Each shard's transfers are replayed in step order. A schedule in (step, shard) order — the
** canonical order every sorted schedule and schedule file has — already holds them as runs
** of equal (step, shard), found by the structure pass; any other order is first sorted by
** shard and step with two counting sorts of indices (two 8-byte indices per transfer, and
** two more passes over the schedule).
*/
#include "topocoll/verify.h"

#include <inttypes.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/huge.h"
#include "sched/relay_order.h"

#define BLOCK_ENTRIES (1 << 22) /* segments per block * N stays below this */
#define NEVER INT32_MAX

/* A violation found while replaying; the one with the lowest (step, index) is reported. */
typedef struct violation {
  int found;
  int32_t step;
  int64_t index;
  char msg[TC_ERRMSG_MAX];
} violation;

static void note(violation *v, int32_t step, int64_t index, const char *msg) {
  if (v->found && (v->step < step || (v->step == step && v->index <= index))) return;
  v->found = 1;
  v->step = step;
  v->index = index;
  snprintf(v->msg, sizeof v->msg, "%s", msg);
}

static void describe(const tc_graph *g, const tc_schedule *s, int64_t i, char *buf, size_t size) {
  const tc_transfer *x = &s->xfer[i];
  snprintf(buf, size, "transfer #%" PRId64 " (shard %d, %d -> %d, step %d, units [%" PRId64 ",%" PRId64 ") of %" PRId64 ")",
           i, x->shard, g->src[x->arc], g->dst[x->arc], x->step, x->lo, x->hi, s->units);
}

static int reduces(const tc_schedule *s, int32_t step) {
  switch (s->coll) {
    case TC_COLL_REDUCE_SCATTER:
    case TC_COLL_REDUCE: return 1;
    case TC_COLL_ALLREDUCE: return step <= s->rs_steps;
    default: return 0;
  }
}

static int is_alltoall(const tc_schedule *s) { return s->coll == TC_COLL_ALLTOALL; }
/* Flow semantics: alltoall and p2p. */
static int flows(const tc_schedule *s) { return tc_collective_flows(s->coll); }
/* Every shard has one destination (alltoall, scatter, gather, p2p). */
static int addressed(const tc_schedule *s) { return tc_schedule_dest(s, 0) >= 0; }

/* A shard with a destination that carries data: from a compute node to another one. */
static int live_shard(const tc_graph *g, const tc_schedule *s, int32_t k) {
  int32_t from = tc_schedule_owner(s, k), to = tc_schedule_dest(s, k);
  return from != to && g->kind[from] == TC_NODE_COMPUTE && g->kind[to] == TC_NODE_COMPUTE;
}

static int has_copy_phase(const tc_schedule *s) {
  return s->coll == TC_COLL_ALLGATHER || s->coll == TC_COLL_BROADCAST || s->coll == TC_COLL_ALLREDUCE ||
         s->coll == TC_COLL_SCATTER || s->coll == TC_COLL_GATHER;
}
static int has_reduce_phase(const tc_schedule *s) {
  return s->coll == TC_COLL_REDUCE_SCATTER || s->coll == TC_COLL_REDUCE || s->coll == TC_COLL_ALLREDUCE;
}

/* Why x fails the field-by-field checks, or NULL. */
static const char *bad_field(const tc_graph *g, const tc_schedule *s, const tc_transfer *x) {
  return x->shard < 0 || x->shard >= s->nshards ? "names a shard that does not exist"
         : x->arc < 0 || x->arc >= g->m        ? "uses an arc that is not in the graph"
         : x->step < 1 || x->step > s->steps   ? "has a step outside 1..steps"
         : x->lo < 0 || x->hi > s->units || x->lo >= x->hi ? "has an empty or out-of-range chunk"
         : !addressed(s) || live_shard(g, s, x->shard) ? NULL
         : tc_schedule_owner(s, x->shard) == tc_schedule_dest(s, x->shard)
             ? "moves a local shard (its owner is its destination: never transferred)"
             : "moves a shard with a switch end (switches send and receive no data of their own)";
}

/* The fixed layouts of scatter, gather and p2p (sched.h), and the node their root or
   destination is; broadcast and reduce: every shard owned by one root. */
static int check_rooted_layout(const tc_graph *g, const tc_schedule *s, tc_error *err) {
  const char *name = tc_collective_name(s->coll);
  switch (s->coll) {
    case TC_COLL_BROADCAST:
    case TC_COLL_REDUCE:
      if (!s->owner) return tc_error_set(err, TC_EFAIL, "%s has no root (no owners)", name);
      for (int32_t k = 1; k < s->nshards; k++)
        if (s->owner[k] != s->owner[0])
          return tc_error_set(err, TC_EFAIL, "%s shard %d belongs to node %d, not the root %d", name, k, s->owner[k],
                              s->owner[0]);
      return TC_OK;
    case TC_COLL_SCATTER:
      if (!s->owner || s->nshards != s->nodes)
        return tc_error_set(err, TC_EFAIL, "scatter on %d nodes needs %d shards owned by the root (has %d%s)", s->nodes,
                            s->nodes, s->nshards, s->owner ? "" : ", without owners");
      for (int32_t k = 1; k < s->nshards; k++)
        if (s->owner[k] != s->owner[0])
          return tc_error_set(err, TC_EFAIL, "scatter shard %d belongs to node %d, not the root %d", k, s->owner[k],
                              s->owner[0]);
      return TC_OK;
    case TC_COLL_GATHER:
    case TC_COLL_P2P: {
      int gather = s->coll == TC_COLL_GATHER;
      if (gather && (s->owner || s->nshards != s->nodes))
        return tc_error_set(err, TC_EFAIL, "gather on %d nodes needs %d shards owned by their nodes (has %d%s)",
                            s->nodes, s->nodes, s->nshards, s->owner ? ", with owners" : "");
      if (!gather && (!s->owner || s->nshards != 1))
        return tc_error_set(err, TC_EFAIL, "p2p needs one shard owned by the source (has %d%s)", s->nshards,
                            s->owner ? "" : ", without owners");
      if (s->dest < 0 || s->dest >= g->n)
        return tc_error_set(err, TC_EFAIL, "%s %s %d is not a node", name, gather ? "root" : "destination", s->dest);
      if (g->kind[s->dest] != TC_NODE_COMPUTE)
        return tc_error_set(err, TC_EFAIL, "%s %s %d is a switch (switches hold no data)", name,
                            gather ? "root" : "destination", s->dest);
      if (!gather && s->owner[0] == s->dest)
        return tc_error_set(err, TC_EFAIL, "p2p source and destination are both node %d", s->dest);
      return TC_OK;
    }
    default: return TC_OK;
  }
}

/* How the transfers lie, learnt in the structure pass: in (step, shard) order (the
   canonical order of tc_schedule_sort, hence of every schedule `topocoll sched` and the
   schedule files produce), a shard's transfers in step order are its runs of equal (step,
   shard), and no transfer-sized index needs sorting or allocating. */
typedef struct layout {
  int by_step_shard;       /* (step, shard) never decreases */
  int64_t *block, nblocks; /* then: where each run of equal (step, shard) starts */
} layout;

typedef struct block_list {
  int64_t *start, count, room;
  int oom;
} block_list;

static void block_push(block_list *b, int64_t i) {
  if (b->oom) return;
  if (b->count == b->room) {
    int64_t room = b->room ? 2 * b->room : 256;
    int64_t *p = realloc(b->start, (size_t)room * sizeof *p);
    if (!p) { b->oom = 1; return; }
    b->start = p;
    b->room = room;
  }
  b->start[b->count++] = i;
}

#define PARALLEL_MIN 65536 /* fewer transfers: the structure pass runs on one thread */

/* Field-by-field checks that need no replay; reports the first bad transfer by index. The
   transfers are split into one contiguous range per thread, each finds its first bad one
   and its runs; the lowest bad index wins, so the report does not depend on the threads. */
static int check_structure(const tc_graph *g, const tc_schedule *s, layout *lay, tc_error *err) {
  memset(lay, 0, sizeof *lay);
  if (s->nodes != g->n)
    return tc_error_set(err, TC_EFAIL, "schedule is for %d nodes but the graph has %d", s->nodes, g->n);
  if (s->units < 1) return tc_error_set(err, TC_EFAIL, "units per shard is %" PRId64 " (must be >= 1)", s->units);
  if (is_alltoall(s) && (s->owner || (int64_t)s->nshards != (int64_t)s->nodes * s->nodes))
    return tc_error_set(err, TC_EFAIL, "alltoall on %d nodes needs %lld shards in its fixed layout (has %d%s)",
                        s->nodes, (long long)s->nodes * s->nodes, s->nshards, s->owner ? ", with owners" : "");
  if (s->nshards < 1 || (!s->owner && !is_alltoall(s) && s->nshards != s->nodes))
    return tc_error_set(err, TC_EFAIL, "schedule has %d shards without owners on %d nodes", s->nshards, s->nodes);
  for (int32_t k = 0; s->owner && k < s->nshards; k++)
    if (s->owner[k] < 0 || s->owner[k] >= g->n)
      return tc_error_set(err, TC_EFAIL, "owner %d of shard %d is not a node", s->owner[k], k);
  int rc = check_rooted_layout(g, s, err);
  if (rc) return rc;
  /* switches forward; they hold no data to start from (a gather's shard of a switch is
     an empty one, never transferred: bad_field) */
  for (int32_t k = 0; !is_alltoall(s) && s->coll != TC_COLL_GATHER && k < s->nshards; k++)
    if (g->kind[tc_schedule_owner(s, k)] != TC_NODE_COMPUTE)
      return tc_error_set(err, TC_EFAIL, "shard %d is owned by node %d, a switch (switches hold no data)", k,
                          tc_schedule_owner(s, k));
  if (s->coll == TC_COLL_ALLREDUCE ? s->rs_steps < 0 || s->rs_steps > s->steps : s->rs_steps != 0)
    return tc_error_set(err, TC_EFAIL, "rs_steps %d is invalid for %s with %d steps", s->rs_steps,
                        tc_collective_name(s->coll), s->steps);
  int64_t n = s->count;
  int nthreads = n < PARALLEL_MIN ? 1 : omp_get_max_threads();
  if (nthreads < 1) nthreads = 1;
  block_list *part = calloc((size_t)nthreads, sizeof *part);
  int64_t *first_bad = malloc((size_t)nthreads * sizeof *first_bad);
  int *ordered = malloc((size_t)nthreads * sizeof *ordered);
  if (!part || !first_bad || !ordered) {
    free(part); free(first_bad); free(ordered);
    return tc_error_set(err, TC_ENOMEM, "out of memory");
  }
  /* A loop over the ranges rather than one range per thread id: the team may be smaller
     than asked for (inside another parallel region, say), and every range must be read. */
#pragma omp parallel for num_threads(nthreads) schedule(static, 1)
  for (int t = 0; t < nthreads; t++) {
    int64_t lo = n * t / nthreads, hi = n * (t + 1) / nthreads, bad = INT64_MAX;
    int in_order = 1;
    for (int64_t i = lo; i < hi; i++) {
      const tc_transfer *x = &s->xfer[i];
      if (bad_field(g, s, x)) { bad = i; break; }
      if (!in_order) continue;
      const tc_transfer *prev = i ? x - 1 : NULL;
      if (prev && (x->step < prev->step || (x->step == prev->step && x->shard < prev->shard))) in_order = 0;
      else if (!prev || x->step != prev->step || x->shard != prev->shard) block_push(&part[t], i);
    }
    first_bad[t] = bad;
    ordered[t] = in_order && !part[t].oom;
  }
  int64_t bad = INT64_MAX, blocks = 0;
  int in_order = 1;
  for (int t = 0; t < nthreads; t++) {
    if (first_bad[t] < bad) bad = first_bad[t];
    in_order &= ordered[t];
    blocks += part[t].count;
  }
  if (bad == INT64_MAX && in_order && (lay->block = malloc((size_t)(blocks ? blocks : 1) * sizeof *lay->block))) {
    lay->by_step_shard = 1;
    for (int t = 0; t < nthreads; t++) { /* ranges are in index order, so their runs are too */
      if (part[t].count) memcpy(lay->block + lay->nblocks, part[t].start, (size_t)part[t].count * sizeof *lay->block);
      lay->nblocks += part[t].count;
    }
  }
  for (int t = 0; t < nthreads; t++) free(part[t].start);
  free(part);
  free(first_bad);
  free(ordered);
  if (bad == INT64_MAX) return TC_OK;
  const tc_transfer *x = &s->xfer[bad];
  const char *why = bad_field(g, s, x);
  if (x->arc >= 0 && x->arc < g->m) {
    char d[256];
    describe(g, s, bad, d, sizeof d);
    return tc_error_set(err, TC_EFAIL, "%s %s", d, why);
  }
  return tc_error_set(err, TC_EFAIL, "transfer #%" PRId64 " (shard %d, arc %" PRId64 ", step %d) %s", bad, x->shard,
                      x->arc, x->step, why);
}

/* The least number of transfers the collective needs (see the file's comment): per shard,
   one per compute node besides its owner, per phase. Fails naming both counts. */
static int check_count(const tc_graph *g, const tc_schedule *s, tc_error *err) {
  int32_t compute = tc_graph_count_kind(g, TC_NODE_COMPUTE);
  if (is_alltoall(s)) { /* one transfer at least into each destination of each live shard */
    int64_t need = (int64_t)compute * (compute - 1);
    if (s->count >= need) return TC_OK;
    return tc_error_set(err, TC_EFAIL, "alltoall among %d compute nodes needs at least %" PRId64 " transfers (one per "
                        "ordered pair of distinct compute nodes), but the schedule has %" PRId64, compute, need,
                        s->count);
  }
  if (addressed(s)) { /* scatter, gather, p2p: one transfer at least into each live shard's destination */
    int64_t need = 0;
    for (int32_t k = 0; k < s->nshards; k++) need += live_shard(g, s, k);
    if (s->count >= need) return TC_OK;
    return tc_error_set(err, TC_EFAIL, "%s among %d compute nodes needs at least %" PRId64 " transfer%s (one into the "
                        "destination of each shard that moves), but the schedule has %" PRId64,
                        tc_collective_name(s->coll), compute, need, need == 1 ? "" : "s", s->count);
  }
  int phases = has_copy_phase(s) + has_reduce_phase(s);
  int64_t need = 0;
  for (int32_t k = 0; k < s->nshards; k++)
    need += (int64_t)phases * (compute - (g->kind[tc_schedule_owner(s, k)] == TC_NODE_COMPUTE));
  if (s->count >= need) return TC_OK;
  return tc_error_set(err, TC_EFAIL, "%s of %d shard%s among %d compute nodes needs at least %" PRId64
                      " transfers (one per shard and compute node besides its owner%s), but the schedule has %" PRId64,
                      tc_collective_name(s->coll), s->nshards, s->nshards == 1 ? "" : "s", compute, need,
                      phases == 2 ? ", in each half" : "", s->count);
}

/* In (step, shard) order: the runs grouped by shard, each shard's in step order (a stable
   counting sort of the runs, not of the transfers). */
static int runs_by_shard(const tc_schedule *s, const layout *lay, int64_t **run_out, int64_t **shard_off_out) {
  int64_t *run = malloc((size_t)(lay->nblocks ? lay->nblocks : 1) * sizeof *run);
  int64_t *off = calloc((size_t)s->nshards + 1, sizeof *off), *fill = malloc(((size_t)s->nshards + 1) * sizeof *fill);
  if (!run || !off || !fill) {
    free(run); free(off); free(fill);
    return TC_ENOMEM;
  }
  for (int64_t b = 0; b < lay->nblocks; b++) off[s->xfer[lay->block[b]].shard + 1]++;
  for (int32_t k = 0; k < s->nshards; k++) off[k + 1] += off[k];
  memcpy(fill, off, ((size_t)s->nshards + 1) * sizeof *fill);
  for (int64_t b = 0; b < lay->nblocks; b++) run[fill[s->xfer[lay->block[b]].shard]++] = b;
  free(fill);
  *run_out = run;
  *shard_off_out = off;
  return TC_OK;
}

/* Transfer indices ordered by (shard, step): two stable counting sorts. */
static int order_by_shard_step(const tc_schedule *s, int64_t **order_out, int64_t **shard_off_out) {
  int64_t n = s->count, *tmp = malloc((size_t)(n ? n : 1) * sizeof *tmp), *order = malloc((size_t)(n ? n : 1) * sizeof *order);
  int64_t *step_cnt = calloc((size_t)s->steps + 2, sizeof *step_cnt), *shard_off = calloc((size_t)s->nshards + 1, sizeof *shard_off);
  if (!tmp || !order || !step_cnt || !shard_off) {
    free(tmp); free(order); free(step_cnt); free(shard_off);
    return TC_ENOMEM;
  }
  tci_advise_huge(tmp, (size_t)n * sizeof *tmp);
  tci_advise_huge(order, (size_t)n * sizeof *order);
  int in_step_order = 1; /* generators usually emit step order: then skip one sort */
  for (int64_t i = 1; i < n && in_step_order; i++) in_step_order = s->xfer[i - 1].step <= s->xfer[i].step;
  if (in_step_order) {
    for (int64_t i = 0; i < n; i++) tmp[i] = i;
  } else {
    for (int64_t i = 0; i < n; i++) step_cnt[s->xfer[i].step + 1]++;
    for (int32_t t = 0; t <= s->steps; t++) step_cnt[t + 1] += step_cnt[t];
    for (int64_t i = 0; i < n; i++) tmp[step_cnt[s->xfer[i].step]++] = i;
  }
  for (int64_t i = 0; i < n; i++) shard_off[s->xfer[i].shard + 1]++;
  for (int32_t k = 0; k < s->nshards; k++) shard_off[k + 1] += shard_off[k];
  int64_t *fill = step_cnt; /* reuse: need nshards + 1 entries */
  if (s->nshards + 1 > s->steps + 2) {
    free(step_cnt);
    fill = malloc(((size_t)s->nshards + 1) * sizeof *fill);
    if (!fill) { free(tmp); free(order); free(shard_off); return TC_ENOMEM; }
  }
  memcpy(fill, shard_off, ((size_t)s->nshards + 1) * sizeof *fill);
  for (int64_t j = 0; j < n; j++) order[fill[s->xfer[tmp[j]].shard]++] = tmp[j];
  free(fill);
  free(tmp);
  *order_out = order;
  *shard_off_out = shard_off;
  return TC_OK;
}

/* A transfer of the current shard, copied out of the schedule once: the schedule is in
   step order, so a shard's transfers are scattered through memory and reading them in
   place on every pass costs a cache miss each time. */
typedef struct hop {
  int32_t step, from, to;
  int64_t lo, hi;
} hop;

/* Per-thread scratch, grown on demand. */
typedef struct scratch {
  hop *hop;                 /* the shard's transfers in step order */
  int64_t *cuts;            /* segment boundaries of the current shard */
  int32_t *seg_lo, *seg_hi; /* per transfer of the shard: segment range */
  int32_t *earliest;        /* N * block, node-major */
  uint8_t *paths;           /* block * N saturating counts */
  uint8_t *vals;            /* per (transfer, segment) values of one step group */
  int32_t *pos;             /* units + 1: segment index of a cut position, -1 if none */
  size_t hop_room, cuts_room, lo_room, hi_room, earliest_room, paths_room, vals_room, pos_room;
  int32_t ncompute;         /* compute nodes of the graph, -1 until counted */
  /* alltoall: the row of each node in `earliest` (-1: none; reset after each shard), and
     the nodes that have one */
  int32_t *row, *rowed;
  size_t row_room, rowed_room;
  /* reduce-phase relays (graphs with switches only): per transfer of the shard touching a
     switch, its first (transfer, segment) slot of the block, else -1; per slot, as a
     receipt into a switch the slot of the send it is forwarded by (-1: none), as a send
     out of a switch the value it carries; the matching's events */
  int switches;             /* the graph has switch nodes */
  int64_t *slot;
  int64_t *relay;
  uint8_t *carried;
  struct relay_event *events;
  size_t slot_room, relay_room, carried_room, events_room;
} scratch;

static int grow(void **p, size_t *room, size_t want, size_t elem) {
  if (want <= *room) return 0;
  void *q = realloc(*p, want * elem);
  if (!q) return -1;
  *p = q;
  *room = want;
  return 0;
}

static int cmp_i64(const void *a, const void *b) {
  int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
  return (x > y) - (x < y);
}

static int32_t find_cut(const int64_t *cuts, int32_t ncuts, int64_t x) {
  int32_t lo = 0, hi = ncuts - 1;
  while (lo < hi) {
    int32_t mid = lo + (hi - lo) / 2;
    if (cuts[mid] < x) lo = mid + 1; else hi = mid;
  }
  return lo;
}

/* Copy phase of one shard over segments [b0, b1). */
/* p[0..count) = NEVER, by doubling copies (a plain loop is not vectorised at -O2, and
   this fill is redone for every shard). */
static void fill_never(int32_t *p, size_t count) {
  if (!count) return;
  p[0] = NEVER;
  for (size_t done = 1; done < count;) {
    size_t k = done < count - done ? done : count - done;
    memcpy(p + done, p, k * sizeof *p);
    done += k;
  }
}

/* Copy phase of one shard over segments [b0, b1). The earliest step of node u and segment
   j is at earliest[u * (b1 - b0) + j - b0]: a transfer's segments are adjacent, one cache
   line instead of one row of N per segment. */
static void replay_copy(const tc_graph *g, const tc_schedule *s, int32_t k, const int64_t *idx, int64_t cnt,
                        scratch *w, int32_t b0, int32_t b1, violation *v) {
  int32_t n = g->n, owner = tc_schedule_owner(s, k), start = s->coll == TC_COLL_ALLREDUCE ? s->rs_steps : 0;
  size_t B = (size_t)(b1 - b0);
  fill_never(w->earliest, B * (size_t)n);
  for (size_t j = 0; j < B; j++) w->earliest[(size_t)owner * B + j] = start;
  if (w->ncompute < 0) {
    w->ncompute = 0;
    for (int32_t u = 0; u < n; u++) w->ncompute += g->kind[u] == TC_NODE_COMPUTE;
  }
  /* Compute cells (segment, node) that hold the segment; when all do, the scan for one
     that never receives it (the error's subject) is skipped: it is most of the work. */
  int64_t held = g->kind[owner] == TC_NODE_COMPUTE ? b1 - b0 : 0;
  char d[256], msg[TC_ERRMSG_MAX];
  for (int64_t q = 0; q < cnt; q++) {
    const hop *x = &w->hop[q];
    if (reduces(s, x->step)) continue;
    int32_t from = x->from, to = x->to;
    int32_t lo = w->seg_lo[q] > b0 ? w->seg_lo[q] : b0, hi = w->seg_hi[q] < b1 ? w->seg_hi[q] : b1;
    int32_t *src = w->earliest + (size_t)from * B, *dst = w->earliest + (size_t)to * B;
    for (int32_t j = lo; j < hi; j++) {
      if (src[j - b0] >= x->step) {
        describe(g, s, idx[q], d, sizeof d);
        snprintf(msg, sizeof msg, "%s: node %d sends units [%" PRId64 ",%" PRId64 ") of shard %d before holding them", d,
                 from, w->cuts[j], w->cuts[j + 1], k);
        note(v, x->step, idx[q], msg);
        return;
      }
      if (dst[j - b0] == NEVER) held += g->kind[to] == TC_NODE_COMPUTE;
      if (x->step < dst[j - b0]) dst[j - b0] = x->step;
    }
  }
  int32_t dest = tc_schedule_dest(s, k);
  if (dest >= 0) { /* scatter, gather: only the destination must end with it */
    for (int32_t j = b0; j < b1; j++)
      if (w->earliest[(size_t)dest * B + (size_t)(j - b0)] == NEVER) {
        snprintf(msg, sizeof msg, "node %d never receives units [%" PRId64 ",%" PRId64 ") of shard %d (owner %d), "
                 "whose destination it is", dest, w->cuts[j], w->cuts[j + 1], k, owner);
        note(v, INT32_MAX, INT64_MAX, msg);
        return;
      }
    return;
  }
  if (held == (int64_t)B * w->ncompute) return;
  for (int32_t j = b0; j < b1; j++) /* segment by segment, as the message has always been chosen */
    for (int32_t u = 0; u < n; u++)
      if (g->kind[u] == TC_NODE_COMPUTE && w->earliest[(size_t)u * B + (size_t)(j - b0)] == NEVER) {
        snprintf(msg, sizeof msg, "node %d never receives units [%" PRId64 ",%" PRId64 ") of shard %d (owner %d)", u, w->cuts[j],
                 w->cuts[j + 1], k, owner);
        note(v, INT32_MAX, INT64_MAX, msg);
        return;
      }
}

/* One end of a reduce-phase transfer at a switch, for one segment. */
typedef struct relay_event {
  int32_t node, seg, step, receipt; /* receipt: 0 a send out of the switch, 1 a receipt */
  const tc_transfer *x;             /* the transfer */
  int64_t slot;
} relay_event;

/* Per switch and segment, sends before receipts of the same step (a send carries what
   arrived in earlier steps), then the relay order of sched/relay_order.h (the lowering's
   too), so the matching does not depend on the order the schedule lists its transfers in
   (equal keys are equal transfers: interchangeable). */
static int cmp_event(const void *a, const void *b) {
  const relay_event *x = a, *y = b;
  if (x->node != y->node) return x->node < y->node ? -1 : 1;
  if (x->seg != y->seg) return x->seg < y->seg ? -1 : 1;
  if (x->step != y->step) return x->step < y->step ? -1 : 1;
  if (x->receipt != y->receipt) return x->receipt - y->receipt;
  return tci_relay_order(x->x, y->x);
}

/* The slot of transfer q's segment j in the block starting at segment b0. */
static inline int64_t relay_slot(const scratch *w, int64_t q, int32_t j, int32_t b0) {
  return w->slot[q] + j - (w->seg_lo[q] > b0 ? w->seg_lo[q] : b0);
}

/* Match every reduce-phase send out of a switch over segments [b0, b1) to the earliest
   receipt of the same switch and segment not yet forwarded (w->relay), numbering the
   (transfer, segment) slots of the transfers that touch a switch (w->slot). idx: the
   shard's transfers in step order (w->hop[q] is s->xfer[idx[q]]). */
static int match_relays(const tc_graph *g, const tc_schedule *s, const int64_t *idx, int64_t cnt, scratch *w,
                        int32_t b0, int32_t b1) {
  if (grow((void **)&w->slot, &w->slot_room, (size_t)cnt + 1, sizeof *w->slot)) return -1;
  int64_t slots = 0, events = 0;
  for (int64_t q = 0; q < cnt; q++) {
    const hop *h = &w->hop[q];
    int32_t lo = w->seg_lo[q] > b0 ? w->seg_lo[q] : b0, hi = w->seg_hi[q] < b1 ? w->seg_hi[q] : b1;
    int ends = (g->kind[h->from] == TC_NODE_SWITCH) + (g->kind[h->to] == TC_NODE_SWITCH);
    w->slot[q] = -1;
    if (!ends || lo >= hi || !reduces(s, h->step)) continue;
    w->slot[q] = slots;
    slots += hi - lo;
    events += (int64_t)ends * (hi - lo);
  }
  if (grow((void **)&w->relay, &w->relay_room, (size_t)slots + 1, sizeof *w->relay) ||
      grow((void **)&w->carried, &w->carried_room, (size_t)slots + 1, 1) ||
      grow((void **)&w->events, &w->events_room, (size_t)events + 1, sizeof *w->events))
    return -1;
  int64_t e = 0;
  for (int64_t q = 0; q < cnt; q++) {
    if (w->slot[q] < 0) continue;
    const hop *h = &w->hop[q];
    int32_t lo = w->seg_lo[q] > b0 ? w->seg_lo[q] : b0, hi = w->seg_hi[q] < b1 ? w->seg_hi[q] : b1;
    for (int32_t j = lo; j < hi; j++) {
      int64_t slot = relay_slot(w, q, j, b0);
      w->relay[slot] = -1;
      w->carried[slot] = 0;
      const tc_transfer *x = &s->xfer[idx[q]];
      if (g->kind[h->from] == TC_NODE_SWITCH) w->events[e++] = (relay_event){h->from, j, h->step, 0, x, slot};
      if (g->kind[h->to] == TC_NODE_SWITCH) w->events[e++] = (relay_event){h->to, j, h->step, 1, x, slot};
    }
  }
  qsort(w->events, (size_t)e, sizeof *w->events, cmp_event);
  /* per (switch, segment): receipts are forwarded in the order they arrived */
  for (int64_t first = 0, next = 0; first < e; first = next) {
    next = first;
    while (next < e && w->events[next].node == w->events[first].node && w->events[next].seg == w->events[first].seg)
      next++;
    int64_t waiting = first; /* the earliest receipt not yet forwarded is at or after this */
    for (int64_t i = first; i < next; i++) {
      if (w->events[i].receipt) continue;
      while (waiting < i && !w->events[waiting].receipt) waiting++;
      if (waiting < i) w->relay[w->events[waiting++].slot] = w->events[i].slot;
    }
  }
  return 0;
}

/* Reduce phase of one shard over segments [b0, b1): every contribution reaches the owner once. */
static int replay_reduce(const tc_graph *g, const tc_schedule *s, int32_t k, const int64_t *idx, int64_t cnt, scratch *w,
                         int32_t b0, int32_t b1, violation *v) {
  int32_t n = g->n, owner = tc_schedule_owner(s, k);
  memset(w->paths, 0, (size_t)(b1 - b0) * (size_t)n);
  if (w->switches && match_relays(g, s, idx, cnt, w, b0, b1)) return -1;
  int64_t end = cnt; /* idx is sorted by step ascending; walk step groups backwards */
  while (end > 0) {
    int32_t step = w->hop[end - 1].step;
    int64_t begin = end;
    while (begin > 0 && w->hop[begin - 1].step == step) begin--;
    if (reduces(s, step)) {
      size_t need = 0;
      for (int64_t q = begin; q < end; q++) need += (size_t)(w->seg_hi[q] - w->seg_lo[q]);
      if (grow((void **)&w->vals, &w->vals_room, need + 1, 1)) return -1;
      size_t p = 0;
      for (int64_t q = begin; q < end; q++) { /* read everything first: same-step sends see later steps only */
        int32_t to = w->hop[q].to;
        int relayed = w->switches && g->kind[to] == TC_NODE_SWITCH;
        for (int32_t j = w->seg_lo[q]; j < w->seg_hi[q]; j++, p++) {
          if (j < b0 || j >= b1) continue;
          int val;
          if (relayed) { /* what the switch's matching send carries on, or nothing */
            int64_t by = w->relay[relay_slot(w, q, j, b0)];
            val = by < 0 ? 0 : w->carried[by];
          } else {
            val = (to == owner) + w->paths[(size_t)(j - b0) * n + to];
          }
          w->vals[p] = (uint8_t)(val > 2 ? 2 : val);
        }
      }
      p = 0;
      for (int64_t q = begin; q < end; q++) {
        int32_t from = w->hop[q].from;
        int relays = w->switches && g->kind[from] == TC_NODE_SWITCH;
        for (int32_t j = w->seg_lo[q]; j < w->seg_hi[q]; j++, p++) {
          if (j < b0 || j >= b1) continue;
          if (relays) { /* valued once, for the receipt it forwards */
            w->carried[relay_slot(w, q, j, b0)] = w->vals[p];
            continue;
          }
          uint8_t *cell = &w->paths[(size_t)(j - b0) * n + from];
          int sum = *cell + w->vals[p];
          *cell = (uint8_t)(sum > 2 ? 2 : sum);
        }
      }
    }
    end = begin;
  }
  char msg[TC_ERRMSG_MAX];
  for (int32_t j = b0; j < b1; j++)
    for (int32_t a = 0; a < n; a++) {
      int mult = (a == owner) + w->paths[(size_t)(j - b0) * n + a];
      if (g->kind[a] == TC_NODE_COMPUTE && mult != 1) {
        snprintf(msg, sizeof msg, "the contribution of node %d to units [%" PRId64 ",%" PRId64 ") of shard %d reaches its owner %d %s", a,
                 w->cuts[j], w->cuts[j + 1], k, owner, mult == 0 ? "never" : "more than once");
        note(v, 0, -1 - (int64_t)k, msg);
        return 0;
      }
    }
  return 0;
}

/* Cut shard [0, units) at every endpoint of its transfers; fills w->cuts (segs + 1
   boundaries) and each transfer's segment range. Small unit counts (the common case:
   BFB uses a handful of units) are marked in a position table instead of sorted. */
static int32_t cut_segments(const tc_schedule *s, int64_t cnt, scratch *w) {
  int64_t units = s->units;
  int32_t uniq = 0;
  if (units <= 4 * cnt + 64) {
    if (grow((void **)&w->pos, &w->pos_room, (size_t)units + 1, sizeof *w->pos)) return -1;
    for (int64_t i = 0; i <= units; i++) w->pos[i] = -1;
    w->pos[0] = w->pos[units] = 0;
    for (int64_t q = 0; q < cnt; q++) w->pos[w->hop[q].lo] = w->pos[w->hop[q].hi] = 0;
    for (int64_t i = 0; i <= units; i++)
      if (!w->pos[i]) { w->pos[i] = uniq; w->cuts[uniq++] = i; }
    for (int64_t q = 0; q < cnt; q++) {
      w->seg_lo[q] = w->pos[w->hop[q].lo];
      w->seg_hi[q] = w->pos[w->hop[q].hi];
    }
    return uniq - 1;
  }
  int32_t ncuts = 0;
  w->cuts[ncuts++] = 0;
  w->cuts[ncuts++] = units;
  for (int64_t q = 0; q < cnt; q++) {
    w->cuts[ncuts++] = w->hop[q].lo;
    w->cuts[ncuts++] = w->hop[q].hi;
  }
  qsort(w->cuts, (size_t)ncuts, sizeof *w->cuts, cmp_i64);
  for (int32_t i = 0; i < ncuts; i++)
    if (!uniq || w->cuts[uniq - 1] != w->cuts[i]) w->cuts[uniq++] = w->cuts[i];
  for (int64_t q = 0; q < cnt; q++) {
    w->seg_lo[q] = find_cut(w->cuts, uniq, w->hop[q].lo);
    w->seg_hi[q] = find_cut(w->cuts, uniq, w->hop[q].hi);
  }
  return uniq - 1;
}

/* The row of node u in the alltoall replay, given one if it has none. */
static int32_t row_of(scratch *w, int32_t u, int32_t *nrows) {
  if (w->row[u] < 0) {
    w->rowed[*nrows] = u;
    w->row[u] = (*nrows)++;
  }
  return w->row[u];
}

/* Flow semantics of alltoall (or p2p) shard k over segments [b0, b1) (file comment): w->earliest
   holds the copies per (row, segment), row-major like the copy replay. The report
   describes the first violation of the shard in step order. */
static int replay_alltoall(const tc_graph *g, const tc_schedule *s, int32_t k, const int64_t *idx, int64_t cnt,
                           scratch *w, int32_t nrows, int32_t b0, int32_t b1, violation *v) {
  int32_t owner = tc_schedule_owner(s, k), dest = tc_schedule_dest(s, k);
  size_t B = (size_t)(b1 - b0);
  int32_t *held = w->earliest;
  for (size_t i = 0; i < (size_t)nrows * B; i++) held[i] = -1;
  for (size_t j = 0; j < B; j++) held[(size_t)w->row[owner] * B + j] = 1;
  char d[256], msg[TC_ERRMSG_MAX];
  for (int64_t begin = 0, end; begin < cnt; begin = end) {
    for (end = begin; end < cnt && w->hop[end].step == w->hop[begin].step; end++) {}
    for (int64_t q = begin; q < end; q++) { /* sends take what was held before the step */
      const hop *x = &w->hop[q];
      int32_t lo = w->seg_lo[q] > b0 ? w->seg_lo[q] : b0, hi = w->seg_hi[q] < b1 ? w->seg_hi[q] : b1;
      int32_t *src = held + (size_t)w->row[x->from] * B;
      for (int32_t j = lo; j < hi; j++) {
        int32_t have = src[j - b0];
        if (x->from != dest && have > 0) {
          src[j - b0] = have - 1;
          continue;
        }
        describe(g, s, idx[q], d, sizeof d);
        if (x->from == dest)
          snprintf(msg, sizeof msg, "%s: node %d sends on units [%" PRId64 ",%" PRId64 ") of shard %d (%d -> %d), "
                   "whose destination it is", d, x->from, w->cuts[j], w->cuts[j + 1], k, owner, dest);
        else if (have < 0)
          snprintf(msg, sizeof msg, "%s: node %d sends units [%" PRId64 ",%" PRId64 ") of shard %d (%d -> %d) before "
                   "holding them", d, x->from, w->cuts[j], w->cuts[j + 1], k, owner, dest);
        else
          snprintf(msg, sizeof msg, "%s: node %d has already sent on every copy of units [%" PRId64 ",%" PRId64
                   ") of shard %d (%d -> %d) it held", d, x->from, w->cuts[j], w->cuts[j + 1], k, owner, dest);
        note(v, x->step, idx[q], msg);
        return 0;
      }
    }
    for (int64_t q = begin; q < end; q++) { /* receipts count from the next step on */
      const hop *x = &w->hop[q];
      int32_t lo = w->seg_lo[q] > b0 ? w->seg_lo[q] : b0, hi = w->seg_hi[q] < b1 ? w->seg_hi[q] : b1;
      int32_t *dst = held + (size_t)w->row[x->to] * B;
      for (int32_t j = lo; j < hi; j++) dst[j - b0] = dst[j - b0] < 0 ? 1 : dst[j - b0] + 1;
    }
  }
  /* One token per unit, and no send lost one: it is at the destination or stranded. */
  const int32_t *at = held + (size_t)w->row[dest] * B;
  for (int32_t j = b0; j < b1; j++)
    if (at[j - b0] < 1) {
      snprintf(msg, sizeof msg, "node %d never receives units [%" PRId64 ",%" PRId64 ") of shard %d (owner %d)", dest,
               w->cuts[j], w->cuts[j + 1], k, owner);
      note(v, INT32_MAX, INT64_MAX, msg);
      return 0;
    }
  return 0;
}

/* Alltoall or p2p shard k: rows for the nodes its transfers touch, then the flow replay block by
   block. A shard that carries no data has no transfers (bad_field) and nothing to check. */
static int verify_alltoall_shard(const tc_graph *g, const tc_schedule *s, int32_t k, const int64_t *idx,
                                 int64_t cnt, scratch *w, violation *v) {
  if (!live_shard(g, s, k)) return 0;
  if (!w->row) {
    if (!(w->row = malloc((size_t)g->n * sizeof *w->row))) return -1;
    for (int32_t u = 0; u < g->n; u++) w->row[u] = -1;
  }
  if (grow((void **)&w->rowed, &w->rowed_room, (size_t)(2 * cnt + 2), sizeof *w->rowed)) return -1;
  int32_t nrows = 0;
  row_of(w, tc_schedule_owner(s, k), &nrows);
  row_of(w, tc_schedule_dest(s, k), &nrows);
  for (int64_t q = 0; q < cnt; q++) {
    row_of(w, w->hop[q].from, &nrows);
    row_of(w, w->hop[q].to, &nrows);
  }
  int rc = 0;
  int32_t segs = cut_segments(s, cnt, w);
  int32_t block = segs < 0 ? 0 : (int32_t)(BLOCK_ENTRIES / nrows);
  if (block < 1) block = 1;
  if (block > segs) block = segs;
  if (segs < 0 || grow((void **)&w->earliest, &w->earliest_room, (size_t)block * nrows + 1, sizeof *w->earliest))
    rc = -1;
  for (int32_t b0 = 0; !rc && b0 < segs; b0 += block) {
    int32_t b1 = b0 + block < segs ? b0 + block : segs;
    rc = replay_alltoall(g, s, k, idx, cnt, w, nrows, b0, b1, v);
  }
  for (int32_t i = 0; i < nrows; i++) w->row[w->rowed[i]] = -1;
  return rc;
}

/* Cut shard k into segments and replay both phases block by block. */
static int verify_shard(const tc_graph *g, const tc_schedule *s, int32_t k, const int64_t *idx, int64_t cnt,
                        scratch *w, violation *v) {
  if (grow((void **)&w->hop, &w->hop_room, (size_t)cnt + 1, sizeof *w->hop) ||
      grow((void **)&w->cuts, &w->cuts_room, (size_t)(2 * cnt + 2), sizeof *w->cuts) ||
      grow((void **)&w->seg_lo, &w->lo_room, (size_t)cnt + 1, sizeof *w->seg_lo) ||
      grow((void **)&w->seg_hi, &w->hi_room, (size_t)cnt + 1, sizeof *w->seg_hi))
    return -1;
  for (int64_t q = 0; q < cnt; q++) {
    const tc_transfer *x = &s->xfer[idx[q]];
    w->hop[q] = (hop){x->step, g->src[x->arc], g->dst[x->arc], x->lo, x->hi};
  }
  if (flows(s)) return verify_alltoall_shard(g, s, k, idx, cnt, w, v);
  if (addressed(s) && !live_shard(g, s, k)) return 0; /* an empty shard: never transferred (bad_field) */
  int32_t segs = cut_segments(s, cnt, w);
  if (segs < 0) return -1;
  int32_t block = (int32_t)(BLOCK_ENTRIES / g->n);
  if (block < 1) block = 1;
  if (block > segs) block = segs;
  if (grow((void **)&w->earliest, &w->earliest_room, (size_t)block * g->n + 1, sizeof *w->earliest) ||
      grow((void **)&w->paths, &w->paths_room, (size_t)block * g->n + 1, 1))
    return -1;
  for (int32_t b0 = 0; b0 < segs; b0 += block) { /* every block: a later one may hold an earlier step */
    int32_t b1 = b0 + block < segs ? b0 + block : segs;
    if (has_reduce_phase(s) && replay_reduce(g, s, k, idx, cnt, w, b0, b1, v)) return -1;
    if (has_copy_phase(s)) replay_copy(g, s, k, idx, cnt, w, b0, b1, v);
  }
  return 0;
}

int tc_schedule_verify(const tc_graph *g, const tc_schedule *s, tc_error *err) {
  layout lay;
  int rc = check_structure(g, s, &lay, err);
  if (rc) return rc;
  if ((rc = check_count(g, s, err))) {
    free(lay.block);
    return rc;
  }
  /* order + shard_off: each shard's transfer indices in step order (general case), or
     run + shard_off: each shard's runs of equal (step, shard) in step order. */
  int64_t *order = NULL, *run = NULL, *shard_off = NULL;
  if (lay.by_step_shard ? runs_by_shard(s, &lay, &run, &shard_off) : order_by_shard_step(s, &order, &shard_off)) {
    free(lay.block);
    return tc_error_set(err, TC_ENOMEM, "out of memory");
  }
  violation worst = {0};
  int oom = 0, switches = tc_graph_count_kind(g, TC_NODE_SWITCH) > 0;
#pragma omp parallel if (s->nshards > 1 && s->count > 4096)
  {
    scratch w = {0};
    w.ncompute = -1;
    w.switches = switches;
    int64_t *idx = NULL;
    size_t idx_room = 0;
    violation mine = {0};
#pragma omp for schedule(dynamic, 1)
    for (int32_t k = 0; k < s->nshards; k++) {
      if (oom) continue;
      const int64_t *shard_idx = order ? order + shard_off[k] : NULL;
      int64_t cnt = order ? shard_off[k + 1] - shard_off[k] : 0;
      if (!order) { /* spell out the shard's indices from its runs */
        for (int64_t r = shard_off[k]; r < shard_off[k + 1]; r++) {
          int64_t b = run[r], end = b + 1 < lay.nblocks ? lay.block[b + 1] : s->count;
          cnt += end - lay.block[b];
        }
        if (grow((void **)&idx, &idx_room, (size_t)cnt + 1, sizeof *idx)) { oom = 1; continue; }
        int64_t q = 0;
        for (int64_t r = shard_off[k]; r < shard_off[k + 1]; r++) {
          int64_t b = run[r], end = b + 1 < lay.nblocks ? lay.block[b + 1] : s->count;
          for (int64_t i = lay.block[b]; i < end; i++) idx[q++] = i;
        }
        shard_idx = idx;
      }
      violation one = {0}; /* per shard: a violation in one shard must not stop the next */
      if (verify_shard(g, s, k, shard_idx, cnt, &w, &one)) oom = 1;
      if (one.found) note(&mine, one.step, one.index, one.msg);
    }
#pragma omp critical
    if (mine.found) note(&worst, mine.step, mine.index, mine.msg);
    free(w.hop); free(w.cuts); free(w.seg_lo); free(w.seg_hi); free(w.earliest); free(w.paths); free(w.vals); free(w.pos);
    free(w.slot); free(w.relay); free(w.carried); free(w.events); free(w.row); free(w.rowed);
    free(idx);
  }
  free(order);
  free(run);
  free(shard_off);
  free(lay.block);
  if (oom) return tc_error_set(err, TC_ENOMEM, "out of memory while verifying");
  if (worst.found) return tc_error_set(err, TC_EFAIL, "%s", worst.msg);
  return TC_OK;
}
