/*
** twodfc_dimorder.c — dimension order (DO) and multi-dimensional (MD) collectives on the
** 2dfc (contract and costs in twodfc.h; paper 002 §4.1.1, §4.2, §4.3).
**
** Both are two-step schedules in which a piece of data crosses at most one X-link and one
** Y-link. A "route" sends the part [lo, hi) of every block in one dimension order: XY
** (Algorithm 1: the row first, then the column) or YX. DO is the XY route of whole blocks;
** MD runs the XY route on the part x of every block and the YX route on the rest at the
** same time, so each step keeps both link sets busy (Algorithm 2 with its printed bugs
** fixed: a message carries the blocks for the receiver's column (XY) or row (YX), never a
** block twice).
**
** Alltoall (flow semantics): block s -> t goes s -> (row of s, column of t) -> t on the XY
** route, s -> (row of t, column of s) -> t on the YX route; a hop whose ends coincide is
** skipped (t in s's row or column: one hop). Every node relays in step 2 exactly what it
** received in step 1, so the message on a link is the concatenation Algorithm 1 builds.
** Allgather: the owner's part goes to its row (XY) or column (YX), then every holder
** forwards it along its column (row). Reduce-scatter (DO only): the reverse of the YX
** allgather — partial sums gather along the row into the owner's column, then down the
** column into the owner.
**
** The split x of MD: alltoall x = m1/(m1+m2), which balances step 1 (x m2 = (1-x) m1 blocks
** on either link set) and leaves |m2 - m1| blocks of difference in step 2 (t_dics, Eq. 4.7);
** Algorithm 2's printed x = m2/(m1+m2) balances step 2 instead, for the same total
** (twodfc.h). Allgather x = m2/(m1+m2), which balances its heavy second step. Parts are
** exact: units = (m1+m2)/gcd(m1,m2).
*/
#include "topocoll/twodfc.h"

#include <string.h>

#include "core/intmath.h"
#include "synth/baseline_common.h"
#include "synth/twodfc_internal.h"
#include "topocoll/transform.h"

typedef enum { ROUTE_XY, ROUTE_YX } route_order;

typedef struct part {
  route_order order;
  int64_t lo, hi; /* of every block, in the schedule's units */
} part;

/* The node where a piece of s's data turns from the first dimension into the second:
   (row of s, column of t) on XY, (row of t, column of s) on YX. */
static int32_t corner(const tci_twodfc *f, route_order o, int32_t s, int32_t t) {
  int32_t ys = s / f->m1, xs = s % f->m1, yt = t / f->m1, xt = t % f->m1;
  return o == ROUTE_XY ? tci_twodfc_node(f, ys, xt) : tci_twodfc_node(f, yt, xs);
}

static int hop(tc_schedule *sc, const tci_twodfc *f, int32_t shard, int32_t u, int32_t v, int32_t step,
               const part *p, tc_error *err) {
  return tc_schedule_add(sc, shard, tci_twodfc_arc(f, u, v), step, p->lo, p->hi, err);
}

/* Block s -> t of every pair by route p. */
static int alltoall_route(tc_schedule *sc, const tci_twodfc *f, const part *p, tc_error *err) {
  int32_t n = f->g->n;
  int rc = TC_OK;
  for (int32_t s = 0; !rc && s < n; s++)
    for (int32_t t = 0; !rc && t < n; t++) {
      if (t == s) continue;
      int32_t c = corner(f, p->order, s, t), shard = s * n + t;
      if (c != s) rc = hop(sc, f, shard, s, c, 1, p, err);
      if (!rc && c != t) rc = hop(sc, f, shard, c, t, 2, p, err);
    }
  return rc;
}

/* Every node's block to every node by route p: the owner's first dimension in step 1, then
   every holder (the owner included) along the second. */
static int allgather_route(tc_schedule *sc, const tci_twodfc *f, const part *p, tc_error *err) {
  int32_t n = f->g->n;
  int xy = p->order == ROUTE_XY;
  int32_t len1 = xy ? f->m1 : f->m2, len2 = xy ? f->m2 : f->m1;
  int rc = TC_OK;
  for (int32_t s = 0; !rc && s < n; s++) {
    int32_t ys = s / f->m1, xs = s % f->m1;
    for (int32_t i = 0; !rc && i < len1; i++) {
      int32_t h = xy ? tci_twodfc_node(f, ys, i) : tci_twodfc_node(f, i, xs);
      if (h != s) rc = hop(sc, f, s, s, h, 1, p, err);
      for (int32_t j = 0; !rc && j < len2; j++) {
        int32_t v = xy ? tci_twodfc_node(f, j, i) : tci_twodfc_node(f, i, j);
        if (v != h) rc = hop(sc, f, s, h, v, 2, p, err);
      }
    }
  }
  return rc;
}

/* DO reduce-scatter: the partial of shard t at s goes to (row of s, column of t) in step 1
   (every row node's partials for a column meet there), then each such corner sends its
   row's sum to t in step 2. */
static int reduce_scatter_do(tc_schedule *sc, const tci_twodfc *f, tc_error *err) {
  int32_t n = f->g->n;
  part whole = {ROUTE_XY, 0, 1};
  int rc = TC_OK;
  for (int32_t t = 0; !rc && t < n; t++)
    for (int32_t s = 0; !rc && s < n; s++) {
      int32_t c = corner(f, ROUTE_XY, s, t);
      if (c != s) rc = hop(sc, f, t, s, c, 1, &whole, err); /* row reduction into t's column */
      if (!rc && c == s && s != t) rc = hop(sc, f, t, s, t, 2, &whole, err); /* the column into t */
    }
  return rc;
}

/* The schedule of coll made of the routes parts[0..k-1] (alltoall, allgather) or DO's
   reduce-scatter, in `units`. */
static int build(const tci_twodfc *f, tc_collective coll, const part *parts, int k, int64_t units, const char *algo,
                 tc_schedule *out, tc_error *err) {
  int32_t n = f->g->n;
  int rc = tci_bl_check_transfers(algo, n, n, 2 * (int64_t)k, err);
  if (!rc) rc = tc_schedule_init(out, coll, n, units, algo, err);
  for (int i = 0; !rc && i < k; i++)
    rc = coll == TC_COLL_ALLTOALL ? alltoall_route(out, f, &parts[i], err) : allgather_route(out, f, &parts[i], err);
  if (!rc && coll == TC_COLL_REDUCE_SCATTER) rc = reduce_scatter_do(out, f, err);
  if (rc) tc_schedule_destroy(out);
  return rc;
}

/* DO (md = 0) or MD (md = 1) alltoall / allgather. */
static int routes(const tci_twodfc *f, tc_collective coll, int md, const char *algo, tc_schedule *out,
                  tc_error *err) {
  if (!md) {
    part whole = {ROUTE_XY, 0, 1};
    return build(f, coll, &whole, 1, 1, algo, out, err);
  }
  int64_t g = tci_gcd64(f->m1, f->m2), units = (f->m1 + f->m2) / g;
  int64_t first = (coll == TC_COLL_ALLTOALL ? f->m1 : f->m2) / g; /* x * units */
  part split[2] = {{ROUTE_XY, 0, first}, {ROUTE_YX, first, units}};
  return build(f, coll, split, 2, units, algo, out, err);
}

/* DO reduce-scatter, then the allgather of DO or MD. */
static int allreduce(const tci_twodfc *f, int md, const char *algo, tc_schedule *out, tc_error *err) {
  tc_schedule rs, ag;
  memset(&ag, 0, sizeof ag);
  int rc = build(f, TC_COLL_REDUCE_SCATTER, NULL, 0, 1, algo, &rs, err);
  if (!rc) rc = routes(f, TC_COLL_ALLGATHER, md, algo, &ag, err);
  if (!rc) rc = tc_schedule_allreduce_compose(f->g, &rs, &ag, out, err);
  tc_schedule_destroy(&rs);
  tc_schedule_destroy(&ag);
  return rc;
}

static int dimorder(const tc_graph *g, int64_t m2, int64_t m1, tc_collective coll, int md, tc_schedule *out,
                    tc_error *err) {
  const char *algo = md ? "md" : "do";
  memset(out, 0, sizeof *out);
  int ok = coll == TC_COLL_ALLTOALL || coll == TC_COLL_ALLGATHER || coll == TC_COLL_ALLREDUCE ||
           (!md && coll == TC_COLL_REDUCE_SCATTER);
  if (!ok)
    return tc_error_set(err, TC_EINPUT, "%s: builds alltoall, allgather%s and allreduce (not %s)", algo,
                        md ? "" : ", reduce-scatter", tc_collective_name(coll));
  tci_twodfc f;
  int rc = tci_twodfc_check(g, m2, m1, algo, &f, err);
  if (rc) return rc;
  if (coll == TC_COLL_ALLREDUCE) return allreduce(&f, md, algo, out, err);
  if (coll == TC_COLL_REDUCE_SCATTER) return build(&f, coll, NULL, 0, 1, algo, out, err);
  return routes(&f, coll, md, algo, out, err);
}

int tc_twodfc_do(const tc_graph *g, int64_t m2, int64_t m1, tc_collective coll, tc_schedule *out, tc_error *err) {
  return dimorder(g, m2, m1, coll, 0, out, err);
}

int tc_twodfc_md(const tc_graph *g, int64_t m2, int64_t m1, tc_collective coll, tc_schedule *out, tc_error *err) {
  return dimorder(g, m2, m1, coll, 1, out, err);
}
