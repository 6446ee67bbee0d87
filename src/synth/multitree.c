/*
** multitree.c — the greedy MULTITREE (contract in multitree.h) and the lowering of any set
** of timed spanning trees to an allgather or alltoall schedule (multitree_internal.h).
**
** The greedy keeps, per tree, its members in join order and a cursor past the members all
** of whose out-neighbours are already in the tree (they can never be parents again), so a
** tree's turn scans only members that may still grow it. An arc's "taken in step t" mark
** is the step number itself, so the fresh copy of the graph each step costs nothing.
*/
#include "topocoll/multitree.h"

#include <stdlib.h>
#include <string.h>

#include "synth/baseline_common.h"
#include "synth/multitree_internal.h"

static const char *const MT = "multitree";

int tci_trees_init(tci_trees *t, int32_t n, tc_error *err) {
  memset(t, 0, sizeof *t);
  size_t nn = (size_t)n * (size_t)n;
  t->arc = malloc(nn * sizeof *t->arc);
  t->step = calloc(nn, sizeof *t->step);
  if (!t->arc || !t->step) {
    tci_trees_destroy(t);
    return tc_error_set(err, TC_ENOMEM, "out of memory for %d spanning trees", n);
  }
  for (size_t i = 0; i < nn; i++) t->arc[i] = -1;
  t->n = n;
  return TC_OK;
}

void tci_trees_destroy(tci_trees *t) {
  free(t->arc);
  free(t->step);
  memset(t, 0, sizeof *t);
}

/* ---- lowering ---- */

/* Transfers of the trees: N-1 per tree for allgather, the sum of depths for alltoall. */
static int64_t count_transfers(const tc_graph *g, const tci_trees *t, tc_collective coll) {
  int64_t n = t->n, count = 0;
  for (int32_t r = 0; r < t->n; r++)
    for (int32_t v = 0; v < t->n; v++) {
      if (v == r) continue;
      if (coll == TC_COLL_ALLGATHER) {
        count++;
        continue;
      }
      for (int32_t w = v; w != r; w = g->src[t->arc[r * n + w]]) count++;
    }
  return count;
}

int tci_trees_lower(const tc_graph *g, const tci_trees *t, tc_collective coll, const char *algo, tc_schedule *out,
                    tc_error *err) {
  memset(out, 0, sizeof *out);
  if (coll != TC_COLL_ALLGATHER && coll != TC_COLL_ALLTOALL)
    return tc_error_set(err, TC_EINPUT, "%s: builds allgather and alltoall (not %s)", algo, tc_collective_name(coll));
  int64_t n = t->n, count = count_transfers(g, t, coll);
  if (count > TC_BL_MAX_TRANSFERS)
    return tc_error_set(err, TC_ERANGE, "%s: the schedule would need more than %lld transfers", algo,
                        (long long)TC_BL_MAX_TRANSFERS);
  int rc = tc_schedule_init(out, coll, t->n, 1, algo, err);
  if (!rc) rc = tc_schedule_reserve(out, count, err);
  for (int32_t r = 0; !rc && r < t->n; r++)
    for (int32_t v = 0; !rc && v < t->n; v++) {
      if (v == r) continue;
      if (coll == TC_COLL_ALLGATHER) {
        rc = tc_schedule_add(out, r, t->arc[r * n + v], t->step[r * n + v], 0, 1, err);
        continue;
      }
      /* the block r -> v crosses every tree edge on the path from r down to v */
      int32_t shard = (int32_t)(r * n + v);
      for (int32_t w = v; !rc && w != r; w = g->src[t->arc[r * n + w]])
        rc = tc_schedule_add(out, shard, t->arc[r * n + w], t->step[r * n + w], 0, 1, err);
    }
  if (rc) tc_schedule_destroy(out);
  return rc;
}

/* ---- the greedy ---- */

typedef struct greedy {
  const tc_graph *g;
  tci_trees *t;
  int32_t *order;   /* n*n: tree r's members in join order */
  int32_t *size;    /* members of tree r */
  int32_t *cursor;  /* tree r's first member that may still have a neighbour outside it */
  int32_t *taken;   /* per arc: the step it was last taken in (0: never) */
} greedy;

static int in_tree(const greedy *s, int32_t r, int32_t v) {
  return v == r || s->t->arc[(int64_t)r * s->g->n + v] >= 0;
}

/* Tree r's turn in step `step`: add one node through a free arc from a member that joined
   before this step. Returns 1 if it grew. */
static int grow(greedy *s, int32_t r, int32_t step) {
  const tc_graph *g = s->g;
  int64_t base = (int64_t)r * g->n;
  for (int32_t k = s->cursor[r]; k < s->size[r]; k++) {
    int32_t p = s->order[base + k];
    if (p != r && s->t->step[base + p] >= step) break; /* joined in this step: later members too */
    int lacks = 0;
    for (int64_t a = g->out_off[p]; a < g->out_off[p + 1]; a++) {
      int32_t c = g->dst[a];
      if (in_tree(s, r, c)) continue;
      lacks = 1;
      if (s->taken[a] == step) continue;
      s->taken[a] = step;
      s->t->arc[base + c] = a;
      s->t->step[base + c] = step;
      s->order[base + s->size[r]++] = c;
      return 1;
    }
    if (!lacks && k == s->cursor[r]) s->cursor[r]++; /* p can never be a parent again */
  }
  return 0;
}

static int greedy_trees(const tc_graph *g, tci_trees *t, tc_error *err) {
  int32_t n = g->n;
  greedy s = {g, t, malloc((size_t)n * (size_t)n * sizeof(int32_t)), calloc((size_t)n, sizeof(int32_t)),
              calloc((size_t)n, sizeof(int32_t)), calloc((size_t)g->m, sizeof(int32_t))};
  int rc = TC_OK;
  if (!s.order || !s.size || !s.cursor || !s.taken) rc = tc_error_set(err, TC_ENOMEM, "out of memory");
  for (int32_t r = 0; !rc && r < n; r++) {
    s.order[(int64_t)r * n] = r;
    s.size[r] = 1;
  }
  int64_t missing = (int64_t)n * (n - 1);
  for (int32_t step = 1; !rc && missing > 0; step++) {
    int64_t before = missing;
    for (int grew = 1; grew;) { /* rounds: every incomplete tree adds one node per round */
      grew = 0;
      for (int32_t r = 0; r < n; r++)
        if (s.size[r] < n && grow(&s, r, step)) {
          grew = 1;
          missing--;
        }
    }
    /* strongly connected: some tree can always grow from a member of an earlier step */
    if (missing == before) rc = tc_error_set(err, TC_EFAIL, "%s: no tree grew in step %d", MT, step);
  }
  free(s.order);
  free(s.size);
  free(s.cursor);
  free(s.taken);
  return rc;
}

int tc_multitree_greedy(const tc_graph *g, tc_collective coll, tc_schedule *out, tc_error *err) {
  memset(out, 0, sizeof *out);
  if (!g) return tc_error_set(err, TC_EINPUT, "%s: no graph", MT);
  if (coll != TC_COLL_ALLGATHER && coll != TC_COLL_ALLTOALL)
    return tc_error_set(err, TC_EINPUT, "%s: builds allgather and alltoall (not %s)", MT, tc_collective_name(coll));
  if (g->n > TC_ALLTOALL_MAX_NODES)
    return tc_error_set(err, TC_ERANGE, "%s: at most %d nodes (got %d)", MT, TC_ALLTOALL_MAX_NODES, g->n);
  for (int32_t v = 0; v < g->n; v++)
    if (g->kind[v] != TC_NODE_COMPUTE)
      return tc_error_set(err, TC_EINPUT, "%s: runs on compute nodes only (node %d is a switch)", MT, v);
  if (!tc_graph_is_strongly_connected(g))
    return tc_error_set(err, TC_EINPUT, "%s: the graph is not strongly connected", MT);
  /* the trees hold n^2 entries and the allgather alone n(n-1) transfers */
  int rc = tci_bl_check_transfers(MT, g->n, g->n - 1, 1, err);
  tci_trees t;
  if (!rc) rc = tci_trees_init(&t, g->n, err);
  if (rc) return rc;
  rc = greedy_trees(g, &t, err);
  if (!rc) rc = tci_trees_lower(g, &t, coll, MT, out, err);
  tci_trees_destroy(&t);
  return rc;
}
