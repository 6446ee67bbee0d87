/*
** kautz_coll.c — Kautz-C and Kautz-M collectives on K(d,2) (paper 002 §3.1; contract and
** costs in kautz.h, trees and the MULTITREE rule in kautz_common.h).
**
** Every collective is a set of rooted trees, each arc of a tree one transfer of whole
** blocks (units = 1): the outgoing trees as they are, the incoming trees as their mirror
** image under the letter reversal, in reversed step order (an out-tree arc p -> c in step t
** becomes f(c) -> f(p) in step S + 1 - t, S the out-schedule's step count), which keeps
** the one-flow-per-arc-per-step property of Kautz-M and the per-arc loads of Kautz-C.
** Rooted collectives (one tree) take the tree's depth as their step, for both variants.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "synth/baseline_common.h"
#include "synth/kautz_common.h"
#include "topocoll/kautz.h"
#include "topocoll/transform.h"

/* One way of laying trees out in time. */
typedef struct layout {
  const tc_graph *g;
  int32_t d, n;
  int multitree; /* depth-2 arcs in step 2 + slot (Kautz-M), else all in step 2 */
  int mirror;    /* incoming trees: the mirror image, steps reversed */
  int32_t steps; /* S: the out-schedule's step count */
} layout;

static const char *variant_name(tc_kautz_variant v) { return v == TC_KAUTZ_MULTITREE ? "kautz-m" : "kautz-c"; }

static int32_t edge_step(const layout *l, const tci_kautz2_edge *e) {
  int32_t t = e->depth == 1 ? 1 : l->multitree ? 2 + e->slot : 2;
  return l->mirror ? l->steps + 1 - t : t;
}

/* The arc u -> v (v an out-neighbour of u). */
static int64_t arc_to(const layout *l, int32_t u, int32_t v) {
  int32_t vx, vy;
  tci_kautz2_letters(l->d, v, &vx, &vy);
  return tci_kautz2_arc(l->g, l->d, u, vy);
}

/* Transfer `shard` along tree arc e (mirrored when the layout says so). */
static int send(tc_schedule *s, const layout *l, const tci_kautz2_edge *e, int32_t shard, tc_error *err) {
  int32_t from = e->parent, to = e->child;
  if (l->mirror) {
    from = tci_kautz2_flip(l->d, e->child);
    to = tci_kautz2_flip(l->d, e->parent);
  }
  return tc_schedule_add(s, shard, arc_to(l, from, to), edge_step(l, e), 0, 1, err);
}

/* The tree of root r (its out-tree, or for a mirror layout the out-tree of f(r), whose
   mirror image is r's in-tree) into e; returns the arc count. */
static int32_t tree_of(const layout *l, int32_t r, tci_kautz2_edge *e) {
  return tci_kautz2_out_tree(l->d, l->mirror ? tci_kautz2_flip(l->d, r) : r, e);
}

/* Copy or reduce semantics: shard k follows the tree of root `root` whole. */
static int whole_tree(tc_schedule *s, const layout *l, int32_t root, int32_t shard, tci_kautz2_edge *e,
                      tc_error *err) {
  int32_t count = tree_of(l, root, e);
  int rc = TC_OK;
  for (int32_t i = 0; !rc && i < count; i++) rc = send(s, l, &e[i], shard, err);
  return rc;
}

/* Personalised blocks from (or, mirrored, to) root r: every tree arc p -> c carries c's
   block, and the depth-1 arc r -> p also carries the blocks of p's children (Eqs. 3.4,
   3.6: a message of n_{1,j} blocks, then one block per arc). A mirrored tree is walked in
   out-tree coordinates, so its nodes are mapped back by f. The block of node v is shard
   r*n + v in alltoall (block (r,v)), shard v in scatter and gather. */
static int personalised_tree(tc_schedule *s, const layout *l, int32_t root, int alltoall, tci_kautz2_edge *e,
                             tc_error *err) {
  int32_t count = tree_of(l, root, e), top = l->mirror ? tci_kautz2_flip(l->d, root) : root;
  int64_t base = alltoall ? (int64_t)root * l->n : 0;
  int rc = TC_OK;
  for (int32_t i = 0; !rc && i < count; i++) {
    int32_t v = l->mirror ? tci_kautz2_flip(l->d, e[i].child) : e[i].child;
    int32_t block = (int32_t)(base + v);
    rc = send(s, l, &e[i], block, err);
    tci_kautz2_edge first = {top, e[i].parent, 1, 0}; /* the grandchild's block rides the root's arc */
    if (!rc && e[i].depth == 2) rc = send(s, l, &first, block, err);
  }
  return rc;
}

/* The copy-tree collectives over every root (allgather; reduce-scatter when mirrored). */
static int all_roots(tc_schedule *s, const layout *l, tci_kautz2_edge *e, tc_error *err) {
  int rc = TC_OK;
  for (int32_t r = 0; !rc && r < l->n; r++) rc = whole_tree(s, l, r, r, e, err);
  return rc;
}

static int build(const layout *l, tc_collective coll, int32_t root, const char *name, tci_kautz2_edge *e,
                 tc_schedule *out, tc_error *err) {
  int rc;
  switch (coll) {
  case TC_COLL_BROADCAST:
  case TC_COLL_REDUCE:
    rc = tc_schedule_init_rooted(out, coll, l->n, root, -1, 1, name, err);
    if (!rc) rc = whole_tree(out, l, root, 0, e, err);
    break;
  case TC_COLL_ALLGATHER:
  case TC_COLL_REDUCE_SCATTER:
    rc = tc_schedule_init(out, coll, l->n, 1, name, err);
    if (!rc) rc = tc_schedule_reserve(out, (int64_t)l->n * (l->n - 1), err);
    if (!rc) rc = all_roots(out, l, e, err);
    break;
  case TC_COLL_ALLTOALL:
    rc = tc_schedule_init(out, coll, l->n, 1, name, err);
    if (!rc) rc = tc_schedule_reserve(out, (int64_t)l->n * (2 * (l->n - 1) - l->d), err);
    for (int32_t r = 0; !rc && r < l->n; r++) rc = personalised_tree(out, l, r, 1, e, err);
    break;
  case TC_COLL_SCATTER:
  case TC_COLL_GATHER:
    rc = tc_schedule_init_rooted(out, coll, l->n, root, -1, 1, name, err);
    if (!rc) rc = personalised_tree(out, l, root, 0, e, err);
    break;
  default:
    rc = tc_error_set(err, TC_EINPUT, "%s: builds no %s", name, tc_collective_name(coll));
  }
  return rc;
}

int tc_kautz_collective(const tc_graph *g, tc_kautz_variant v, tc_collective coll, int32_t root, tc_schedule *out,
                        tc_error *err) {
  memset(out, 0, sizeof *out);
  const char *name = variant_name(v);
  if (v != TC_KAUTZ_COMBINE && v != TC_KAUTZ_MULTITREE)
    return tc_error_set(err, TC_EINPUT, "kautz: unknown variant %d", (int)v);
  int32_t d = 0;
  int rc = tci_kautz2_check(g, name, &d, err);
  if (rc) return rc;
  int rooted = coll == TC_COLL_BROADCAST || coll == TC_COLL_REDUCE || coll == TC_COLL_SCATTER ||
               coll == TC_COLL_GATHER;
  if (rooted && (root < 0 || root >= g->n))
    return tc_error_set(err, TC_EINPUT, "%s: root %d is not a node (0..%d)", name, root, g->n - 1);
  /* alltoall has the most transfers: 2(n-1) - d per root */
  if ((rc = tci_bl_check_transfers(name, g->n, 2 * (int64_t)g->n, 1, err))) return rc;
  tci_kautz2_edge *e = malloc((size_t)g->n * sizeof *e);
  if (!e) return tc_error_set(err, TC_ENOMEM, "%s: out of memory", name);
  layout l = {g, d, g->n, v == TC_KAUTZ_MULTITREE && !rooted, 0, 0};
  l.steps = l.multitree ? d + 1 : 2;
  int incoming = coll == TC_COLL_REDUCE || coll == TC_COLL_REDUCE_SCATTER || coll == TC_COLL_GATHER;
  if (coll == TC_COLL_ALLREDUCE) {
    tc_schedule rs, ag;
    memset(&rs, 0, sizeof rs);
    memset(&ag, 0, sizeof ag);
    layout in = l;
    in.mirror = 1;
    rc = build(&in, TC_COLL_REDUCE_SCATTER, root, name, e, &rs, err);
    if (!rc) rc = build(&l, TC_COLL_ALLGATHER, root, name, e, &ag, err);
    if (!rc) rc = tc_schedule_allreduce_compose(g, &rs, &ag, out, err);
    if (!rc) snprintf(out->algorithm, sizeof out->algorithm, "%s", name);
    tc_schedule_destroy(&rs);
    tc_schedule_destroy(&ag);
  } else {
    l.mirror = incoming;
    rc = build(&l, coll, root, name, e, out, err);
  }
  free(e);
  if (rc) {
    tc_schedule_destroy(out);
    memset(out, 0, sizeof *out);
  }
  return rc;
}
