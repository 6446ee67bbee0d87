/*
** schedule.c — storage of step schedules (contract in sched.h): init, append, refine,
** copy (the canonical sort is in sort.c). No semantics live here; see verify.c and cost.c.
*/
#include "topocoll/sched.h"

#include <stdlib.h>
#include <string.h>

#include "core/huge.h"

static const char *const coll_names[] = {"allgather", "reduce-scatter", "allreduce", "broadcast", "reduce",
                                         "alltoall",  "scatter",        "gather",    "p2p"};

const char *tc_collective_name(tc_collective c) {
  return (unsigned)c < sizeof coll_names / sizeof coll_names[0] ? coll_names[c] : "unknown";
}

int tc_collective_parse(const char *name) {
  for (int i = 0; i < (int)(sizeof coll_names / sizeof coll_names[0]); i++)
    if (!strcmp(name, coll_names[i])) return i;
  return -1;
}

int tc_schedule_init_owned(tc_schedule *s, tc_collective coll, int32_t nodes, int32_t nshards, const int32_t *owner,
                           int64_t units, const char *algorithm, tc_error *err) {
  memset(s, 0, sizeof *s);
  if ((unsigned)coll > TC_COLL_LAST) return tc_error_set(err, TC_EINPUT, "unknown collective %d", (int)coll);
  if (coll == TC_COLL_SCATTER || coll == TC_COLL_GATHER || coll == TC_COLL_P2P) /* fixed layouts with a root */
    return tc_error_set(err, TC_EINPUT, "%s has a fixed layout: start it with tc_schedule_init_rooted",
                        tc_collective_name(coll));
  if (nodes < 1) return tc_error_set(err, TC_EINPUT, "schedule needs at least one node (got %d)", nodes);
  if (nshards < 1) return tc_error_set(err, TC_EINPUT, "schedule needs at least one shard (got %d)", nshards);
  if (units < 1) return tc_error_set(err, TC_EINPUT, "units per shard must be >= 1 (got %lld)", (long long)units);
  if (coll == TC_COLL_ALLTOALL) { /* the fixed layout: shard s*N + t from s to t */
    if (owner) return tc_error_set(err, TC_EINPUT, "alltoall takes no owners (shard s*N + t belongs to node s)");
    if ((int64_t)nodes * nodes != nshards)
      return tc_error_set(err, TC_EINPUT, "alltoall on %d nodes has %lld shards (N*N), not %d", nodes,
                          (long long)nodes * nodes, nshards);
  } else if (!owner && nshards != nodes) {
    return tc_error_set(err, TC_EINPUT, "%d shards on %d nodes need explicit owners", nshards, nodes);
  }
  int rooted = coll == TC_COLL_BROADCAST || coll == TC_COLL_REDUCE;
  if (rooted && !owner) return tc_error_set(err, TC_EINPUT, "%s needs a root", tc_collective_name(coll));
  for (int32_t k = 0; owner && k < nshards; k++) {
    if (owner[k] < 0 || owner[k] >= nodes)
      return tc_error_set(err, TC_EINPUT, "owner %d of shard %d outside 0..%d", owner[k], k, nodes - 1);
    if (rooted && owner[k] != owner[0])
      return tc_error_set(err, TC_EINPUT, "%s shards must all belong to the root", tc_collective_name(coll));
  }
  if (owner) {
    s->owner = malloc((size_t)nshards * sizeof *s->owner);
    if (!s->owner) return tc_error_set(err, TC_ENOMEM, "out of memory");
    memcpy(s->owner, owner, (size_t)nshards * sizeof *s->owner);
  }
  s->coll = coll;
  s->nodes = nodes;
  s->nshards = nshards;
  s->units = units;
  s->dest = -1;
  strncpy(s->algorithm, algorithm ? algorithm : "", sizeof s->algorithm - 1);
  return TC_OK;
}

int tc_schedule_init_rooted(tc_schedule *s, tc_collective coll, int32_t nodes, int32_t root, int32_t dst,
                            int64_t units, const char *algorithm, tc_error *err) {
  memset(s, 0, sizeof *s);
  if (coll != TC_COLL_BROADCAST && coll != TC_COLL_REDUCE && coll != TC_COLL_SCATTER && coll != TC_COLL_GATHER &&
      coll != TC_COLL_P2P)
    return tc_error_set(err, TC_EINPUT, "%s has no root", tc_collective_name(coll));
  if (nodes < 1) return tc_error_set(err, TC_EINPUT, "schedule needs at least one node (got %d)", nodes);
  if (units < 1) return tc_error_set(err, TC_EINPUT, "units per shard must be >= 1 (got %lld)", (long long)units);
  const char *what = coll == TC_COLL_P2P ? "source" : "root";
  if (root < 0 || root >= nodes)
    return tc_error_set(err, TC_EINPUT, "%s %s %d outside 0..%d", tc_collective_name(coll), what, root, nodes - 1);
  if (coll == TC_COLL_P2P && (dst < 0 || dst >= nodes))
    return tc_error_set(err, TC_EINPUT, "p2p destination %d outside 0..%d", dst, nodes - 1);
  if (coll == TC_COLL_P2P && dst == root)
    return tc_error_set(err, TC_EINPUT, "p2p source and destination are both node %d", root);
  int32_t nshards = coll == TC_COLL_SCATTER || coll == TC_COLL_GATHER ? nodes : 1;
  if (coll != TC_COLL_GATHER) { /* every shard owned by the root (the p2p source) */
    s->owner = malloc((size_t)nshards * sizeof *s->owner);
    if (!s->owner) return tc_error_set(err, TC_ENOMEM, "out of memory");
    for (int32_t k = 0; k < nshards; k++) s->owner[k] = root;
  }
  s->coll = coll;
  s->nodes = nodes;
  s->nshards = nshards;
  s->units = units;
  s->dest = coll == TC_COLL_GATHER ? root : coll == TC_COLL_P2P ? dst : -1;
  strncpy(s->algorithm, algorithm ? algorithm : "", sizeof s->algorithm - 1);
  return TC_OK;
}

int tc_schedule_init(tc_schedule *s, tc_collective coll, int32_t nodes, int64_t units, const char *algorithm,
                     tc_error *err) {
  if (coll == TC_COLL_ALLTOALL && nodes > TC_ALLTOALL_MAX_NODES) {
    memset(s, 0, sizeof *s);
    return tc_error_set(err, TC_ERANGE, "alltoall on %d nodes needs %lld shards, more than 2^31-1 (at most %d nodes)",
                        nodes, (long long)nodes * nodes, TC_ALLTOALL_MAX_NODES);
  }
  int32_t nshards = coll == TC_COLL_ALLTOALL ? nodes * nodes : nodes;
  return tc_schedule_init_owned(s, coll, nodes, nshards, NULL, units, algorithm, err);
}

void tc_schedule_destroy(tc_schedule *s) {
  free(s->xfer);
  free(s->owner);
  memset(s, 0, sizeof *s);
}

int tc_schedule_reserve(tc_schedule *s, int64_t count, tc_error *err) {
  if (count <= s->room) return TC_OK;
  if (count > INT64_MAX / (int64_t)sizeof(tc_transfer) / 2)
    return tc_error_set(err, TC_ERANGE, "schedule with %lld transfers is too large", (long long)count);
  tc_transfer *x = realloc(s->xfer, (size_t)count * sizeof *x);
  if (!x) return tc_error_set(err, TC_ENOMEM, "out of memory for %lld transfers", (long long)count);
  tci_advise_huge(x, (size_t)count * sizeof *x); /* before the generator writes them */
  s->xfer = x;
  s->room = count;
  return TC_OK;
}

int tc_schedule_add(tc_schedule *s, int32_t shard, int64_t arc, int32_t step, int64_t lo, int64_t hi, tc_error *err) {
  if (s->count == s->room) {
    int rc = tc_schedule_reserve(s, s->room ? 2 * s->room : 64, err);
    if (rc) return rc;
  }
  s->xfer[s->count++] = (tc_transfer){shard, step, arc, lo, hi};
  if (step > s->steps) s->steps = step;
  return TC_OK;
}

int tc_schedule_refine(tc_schedule *s, int64_t k, tc_error *err) {
  if (k < 1) return tc_error_set(err, TC_EINPUT, "refinement factor must be >= 1 (got %lld)", (long long)k);
  int64_t units;
  if (__builtin_mul_overflow(s->units, k, &units))
    return tc_error_set(err, TC_ERANGE, "refining %lld units per shard by %lld overflows", (long long)s->units,
                        (long long)k);
  s->units = units; /* endpoints are <= units, so they cannot overflow either */
  for (int64_t i = 0; i < s->count; i++) {
    s->xfer[i].lo *= k;
    s->xfer[i].hi *= k;
  }
  return TC_OK;
}

int tc_schedule_copy(const tc_schedule *s, tc_schedule *out, tc_error *err) {
  *out = *s;
  out->xfer = NULL;
  out->owner = NULL;
  out->room = 0;
  out->count = 0;
  if (s->owner) {
    out->owner = malloc((size_t)s->nshards * sizeof *out->owner);
    if (!out->owner) { memset(out, 0, sizeof *out); return tc_error_set(err, TC_ENOMEM, "out of memory"); }
    memcpy(out->owner, s->owner, (size_t)s->nshards * sizeof *out->owner);
  }
  int rc = tc_schedule_reserve(out, s->count ? s->count : 1, err);
  if (rc) { tc_schedule_destroy(out); return rc; }
  if (s->count) memcpy(out->xfer, s->xfer, (size_t)s->count * sizeof *s->xfer);
  out->count = s->count;
  return TC_OK;
}
