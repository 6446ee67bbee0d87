/*
** tc_fabric.h — test-side: small fabrics (compute nodes behind switches) and step schedules
** built on them by hand, one IR step per hop, for test_program.c (the messages the lowering
** collapses them into, exactly, and the programs run by its interpreters), test_msccl.c (the
** independent MSCCL checker) and test_simgrid.c (platforms with routers).
**
** Graphs (bidirectional links of capacity 1):
**   tc_fabric_star(n, first)  n compute nodes on one switch: the switch is node n, or node 0
**                             when `first` (then rank r plays node r + 1);
**   tc_fabric_islands(m)      two islands of m compute nodes, complete inside (nodes 0..m-1
**                             and m..2m-1), and one switch, node 2m, linked to every one;
** and the families fig2toy(1) and dgx_a100(2) by their specs.
** Schedules (shard k belongs to rank k; each passes tc_schedule_verify before it is returned):
**   tc_fabric_send       one logical send along a shortest path whose inner nodes are
**                        switches (breadth-first, arcs in id order), hop i at step t0 + i;
**   tc_fabric_direct_ag  allgather: every rank sends its shard to every other rank, each
**                        destination its own copy through the switches, from step 1;
**   tc_fabric_ring_ag    allgather around a ring of ranks: round r (0..R-2) takes steps
**                        r*D+1 .. r*D+D, D the longest ring hop, position p sending the shard
**                        of position p - r to position p + 1;
**   tc_fabric_islands_sched  islands(m), hierarchical: reduce-scatter (steps 1-3: the other
**                        nodes of each island send their partial of shard k to k, or to k's
**                        partner — the node of the same index in the other island — which
**                        sends the island's sum to k through the switch), allgather (steps
**                        1-3: k sends its shard to its island directly and through the
**                        switch to its partner, which passes it on to its island), and
**                        allreduce (the two, rs_steps = 3): every shard crosses the switch
**                        once per half, so the switch only relays.
*/
#ifndef TC_FABRIC_H
#define TC_FABRIC_H

#include "tc_test.h"
#include "topocoll/rank_map.h"
#include "topocoll/sched.h"
#include "topocoll/verify.h"

static inline tc_graph *tc_fabric_star(int n, int first) {
  tc_graph_builder b;
  tc_error err;
  tc_graph *g = NULL;
  int sw = first ? 0 : n;
  assert_int_equal(tc_graph_builder_init(&b, n + 1, &err), TC_OK);
  for (int u = 0; u <= n; u++)
    if (u != sw) assert_int_equal(tc_graph_builder_add_edge(&b, u, sw, 1, &err), TC_OK);
  assert_int_equal(tc_graph_builder_set_kind(&b, sw, TC_NODE_SWITCH, &err), TC_OK);
  assert_int_equal(tc_graph_builder_finish(&b, &g, &err), TC_OK);
  return g;
}

static inline tc_graph *tc_fabric_islands(int m) {
  tc_graph_builder b;
  tc_error err;
  tc_graph *g = NULL;
  assert_int_equal(tc_graph_builder_init(&b, 2 * m + 1, &err), TC_OK);
  for (int u = 0; u < 2 * m; u++) {
    assert_int_equal(tc_graph_builder_add_edge(&b, u, 2 * m, 1, &err), TC_OK);
    for (int v = u + 1; v < 2 * m; v++)
      if (u / m == v / m) assert_int_equal(tc_graph_builder_add_edge(&b, u, v, 1, &err), TC_OK);
  }
  assert_int_equal(tc_graph_builder_set_kind(&b, 2 * m, TC_NODE_SWITCH, &err), TC_OK);
  assert_int_equal(tc_graph_builder_finish(&b, &g, &err), TC_OK);
  return g;
}

/* An empty schedule with one shard per rank, shard k owned by rank k's node. */
static inline void tc_fabric_init(const tc_graph *g, tc_collective coll, int64_t units, tc_schedule *s) {
  tc_rank_map map;
  tc_error err;
  assert_int_equal(tc_rank_map_init(&map, g, &err), TC_OK);
  assert_int_equal(tc_schedule_init_owned(s, coll, g->n, map.ranks, map.node, units, "fabric", &err), TC_OK);
  tc_rank_map_destroy(&map);
}

/* Arcs of a shortest u -> v path with switches inside into path[], their number returned. */
static inline int tc_fabric_path(const tc_graph *g, int32_t u, int32_t v, int64_t *path, int max) {
  int64_t *via = malloc(sizeof *via * (size_t)g->n);
  int32_t *queue = malloc(sizeof *queue * (size_t)g->n);
  for (int32_t x = 0; x < g->n; x++) via[x] = -1;
  int32_t head = 0, tail = 0;
  queue[tail++] = u;
  while (head < tail && via[v] < 0) {
    int32_t x = queue[head++];
    if (x != u && g->kind[x] != TC_NODE_SWITCH) continue; /* only switches pass data on */
    for (int64_t a = g->out_off[x]; a < g->out_off[x + 1]; a++)
      if (g->dst[a] != u && via[g->dst[a]] < 0) {
        via[g->dst[a]] = a;
        queue[tail++] = g->dst[a];
      }
  }
  if (via[v] < 0) fail_msg("no path %d -> %d through switches", u, v);
  int len = 0;
  for (int32_t x = v; x != u; x = g->src[via[x]]) len++;
  if (len > max) fail_msg("path %d -> %d has %d hops", u, v, len);
  int i = len;
  for (int32_t x = v; x != u; x = g->src[via[x]]) path[--i] = via[x];
  free(via);
  free(queue);
  return len;
}

/* Shard k's units [lo, hi) from node u to node v, hop i at step t0 + i; the last step. */
static inline int32_t tc_fabric_send(const tc_graph *g, tc_schedule *s, int32_t k, int32_t u, int32_t v, int32_t t0,
                                     int64_t lo, int64_t hi) {
  int64_t path[16];
  tc_error err;
  int len = tc_fabric_path(g, u, v, path, 16);
  for (int i = 0; i < len; i++) assert_int_equal(tc_schedule_add(s, k, path[i], t0 + i, lo, hi, &err), TC_OK);
  return t0 + len - 1;
}

static inline void tc_fabric_verified(const tc_graph *g, const tc_schedule *s) {
  tc_error err;
  if (tc_schedule_verify(g, s, &err)) fail_msg("the hand-built fabric schedule fails verification: %s", err.msg);
}

static inline void tc_fabric_direct_ag(const tc_graph *g, tc_schedule *s) {
  tc_rank_map map;
  tc_error err;
  assert_int_equal(tc_rank_map_init(&map, g, &err), TC_OK);
  tc_fabric_init(g, TC_COLL_ALLGATHER, 1, s);
  for (int32_t k = 0; k < map.ranks; k++)
    for (int32_t j = 0; j < map.ranks; j++)
      if (j != k) tc_fabric_send(g, s, k, map.node[k], map.node[j], 1, 0, 1);
  tc_rank_map_destroy(&map);
  tc_fabric_verified(g, s);
}

/* ring[0..R-1]: the ranks in ring order; units per shard, each hop carrying all of them. */
static inline void tc_fabric_ring_ag(const tc_graph *g, const int32_t *ring, int32_t R, int64_t units,
                                     tc_schedule *s) {
  tc_rank_map map;
  tc_error err;
  int64_t path[16];
  assert_int_equal(tc_rank_map_init(&map, g, &err), TC_OK);
  assert_int_equal(map.ranks, R);
  int D = 0;
  for (int32_t p = 0; p < R; p++) {
    int len = tc_fabric_path(g, map.node[ring[p]], map.node[ring[(p + 1) % R]], path, 16);
    if (len > D) D = len;
  }
  tc_fabric_init(g, TC_COLL_ALLGATHER, units, s);
  for (int32_t r = 0; r + 1 < R; r++)
    for (int32_t p = 0; p < R; p++)
      tc_fabric_send(g, s, ring[((p - r) % R + R) % R], map.node[ring[p]], map.node[ring[(p + 1) % R]], r * D + 1, 0,
                     units);
  tc_rank_map_destroy(&map);
  tc_fabric_verified(g, s);
}

/* The islands(m) schedules; coll allgather, reduce-scatter or allreduce. */
static inline void tc_fabric_islands_sched(const tc_graph *g, int m, tc_collective coll, tc_schedule *s) {
  tc_error err;
  tc_fabric_init(g, coll, 1, s);
  int32_t t = 0, sw = 2 * m;
  if (coll != TC_COLL_ALLGATHER) { /* reduce-scatter, steps 1-3 */
    for (int32_t k = 0; k < 2 * m; k++) {
      int32_t partner = (k + m) % (2 * m);
      for (int32_t j = 0; j < 2 * m; j++) {
        int32_t to = j / m == k / m ? k : partner;
        if (j != to) assert_int_equal(tc_schedule_add(s, k, tc_test_arc_id(g, j, to), 1, 0, 1, &err), TC_OK);
      }
      assert_int_equal(tc_schedule_add(s, k, tc_test_arc_id(g, partner, sw), 2, 0, 1, &err), TC_OK);
      assert_int_equal(tc_schedule_add(s, k, tc_test_arc_id(g, sw, k), 3, 0, 1, &err), TC_OK);
    }
    t = 3;
    s->rs_steps = coll == TC_COLL_ALLREDUCE ? 3 : 0;
  }
  if (coll != TC_COLL_REDUCE_SCATTER) /* allgather, steps t+1 .. t+3 */
    for (int32_t k = 0; k < 2 * m; k++) {
      int32_t partner = (k + m) % (2 * m);
      for (int32_t j = 0; j < 2 * m; j++) {
        if (j == k || j == partner) continue;
        int32_t from = j / m == k / m ? k : partner;
        assert_int_equal(tc_schedule_add(s, k, tc_test_arc_id(g, from, j), from == k ? t + 1 : t + 3, 0, 1, &err),
                         TC_OK);
      }
      assert_int_equal(tc_schedule_add(s, k, tc_test_arc_id(g, k, sw), t + 1, 0, 1, &err), TC_OK);
      assert_int_equal(tc_schedule_add(s, k, tc_test_arc_id(g, sw, partner), t + 2, 0, 1, &err), TC_OK);
    }
  tc_schedule_sort(s);
  tc_fabric_verified(g, s);
}

#endif
