/*
** rhd.c — recursive doubling allgather, recursive halving reduce-scatter and their
** composition, Rabenseifner's allreduce (paper 000 A.1 "RH&D"; paper 002 §2.2.3 "rdb"), on
** any graph: the classic MPI algorithms on ranks = nodes, their logical messages sent
** straight over the arcs where every partner is a neighbour — as on the hypercube Q_n,
** whose links match the pattern exactly — and routed hop by hop (logical_sched.c) elsewhere.
**
** N = 2^k: in allgather round t node u sends its partner u XOR 2^(t-1) the shards of the
** 2^(t-1) nodes that agree with u on bits t-1 .. k-1, all it holds. Other N: MPICH's
** treatment of the remainder. With p = 2^⌊log2 N⌋ and r = N - p, the first 2r nodes pair up
** (2i, 2i+1): in a first round 2i gives its shard to 2i+1; then p virtual ranks run
** recursive doubling — virtual rank v is node 2v+1 holding shards {2v, 2v+1} for v < r, and
** node v+r holding shard v+r from r on — and in a last round 2i+1 gives 2i the N-1 shards
** it lacks. R = k + 2 rounds (k = log2 p; R = k when r = 0).
** Reduce-scatter is the mirror image, message for message: round R+1-t of the
** reduce-scatter is round t of the allgather with sender and receiver swapped (recursive
** halving, with 2i first handing 2i+1 its partials of every shard but its own and 2i+1
** finally handing 2i the partial of shard 2i). Allreduce is the reduce-scatter, then the
** allgather (2R rounds; MPICH's own allreduce skips the middle unfold and fold and cuts the
** vector into p pieces instead of N, so it takes 2k + 2 rounds).
** Guarantees: where every message is one arc, round t is step t, a chunk sent from u to v
** is split over the arcs u -> v by capacity (baseline_common.h) and no link carries two
** messages in a round — so on hypercube(k) T_L = k, tau = k (N-1)/N, k times the bound
** (paper 000 A.1: RH&D uses at most 1/3 of the 3-port testbed's bandwidth), and on
** complete(N) T_L = R, tau = (N-1)/N · d for N = 2^k. Elsewhere messages are routed as
** tci_bl_logical says (shortest routes, messages of a round sharing a link combined), and
** a reduce-phase message that would be relayed through a compute node is refused.
*/
#include "synth/baseline_common.h"

#include <stdlib.h>
#include <string.h>

static const char *const RHD = "rhd";

/* The node that plays virtual rank v, and its shards (*count of them into s[0..1]). */
static int32_t virtual_node(int32_t v, int32_t r) { return v < r ? 2 * v + 1 : v + r; }
static int virtual_shards(int32_t v, int32_t r, int32_t s[2]) {
  if (v < r) {
    s[0] = 2 * v;
    s[1] = 2 * v + 1;
    return 2;
  }
  s[0] = v + r;
  return 1;
}

/* The allgather's blocks, rounds 1..*rounds, as the header says. */
static int allgather_blocks(int32_t n, tc_bl_blocks *l, int32_t *rounds, tc_error *err) {
  int32_t p = 1, k = 0;
  while (2 * (int64_t)p <= n) p *= 2, k++;
  int32_t r = n - p, fold = r > 0, rc = TC_OK;
  for (int32_t i = 0; i < r && !rc; i++) rc = tci_bl_push(l, 1, 2 * i, 2 * i + 1, 2 * i, 0, 1, err);
  for (int32_t t = 1; t <= k && !rc; t++) {
    int32_t bit = INT32_C(1) << (t - 1);
    for (int32_t v = 0; v < p && !rc; v++) {
      int32_t block = v & ~(bit - 1); /* the virtual ranks agreeing with v above bit t-1 */
      for (int32_t w = block; w < block + bit && !rc; w++) {
        int32_t s[2], c = virtual_shards(w, r, s);
        for (int j = 0; j < c && !rc; j++)
          rc = tci_bl_push(l, fold + t, virtual_node(v, r), virtual_node(v ^ bit, r), s[j], 0, 1, err);
      }
    }
  }
  *rounds = k + 2 * fold;
  for (int32_t i = 0; i < r && !rc; i++)
    for (int32_t s = 0; s < n && !rc; s++)
      if (s != 2 * i) rc = tci_bl_push(l, *rounds, 2 * i + 1, 2 * i, s, 0, 1, err);
  return rc;
}

/* The blocks of `coll`: the allgather, its mirror (reduce-scatter), or both (allreduce). */
static int rhd_blocks(int32_t n, tc_collective coll, tc_bl_blocks *l, int32_t *rs_rounds, tc_error *err) {
  tc_bl_blocks ag = {0};
  int32_t R = 0;
  int rc = allgather_blocks(n, &ag, &R, err);
  *rs_rounds = coll == TC_COLL_ALLREDUCE ? R : 0;
  if (coll != TC_COLL_ALLGATHER)
    for (int64_t i = ag.n - 1; i >= 0 && !rc; i--) {
      tc_bl_block b = ag.b[i];
      rc = tci_bl_push(l, R + 1 - b.round, b.dst, b.src, b.shard, b.lo, b.hi, err);
    }
  if (coll != TC_COLL_REDUCE_SCATTER)
    for (int64_t i = 0; i < ag.n && !rc; i++) {
      tc_bl_block b = ag.b[i];
      rc = tci_bl_push(l, b.round + *rs_rounds, b.src, b.dst, b.shard, b.lo, b.hi, err);
    }
  free(ag.b);
  return rc;
}

int tc_baseline_rhd(const tc_graph *g, tc_collective coll, tc_schedule *out, tc_error *err) {
  memset(out, 0, sizeof *out);
  int rc = tci_bl_check_rs_ag(RHD, coll, err);
  if (!rc) rc = tci_bl_check_transfers(RHD, g->n, g->n, 2 * tci_bl_max_bundle(g), err);
  if (rc) return rc;
  tc_bl_blocks l = {0};
  int32_t rs_rounds = 0;
  rc = rhd_blocks(g->n, coll, &l, &rs_rounds, err);
  if (!rc) rc = tci_bl_emit(g, coll, l.b, l.n, RHD, rs_rounds, out, err);
  free(l.b);
  if (rc) tc_schedule_destroy(out);
  return rc;
}
