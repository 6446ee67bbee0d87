/*
** collective.c — the pipeline that builds a whole collective from a registry row (contract
** in collective.h): generator -> P-chunk rounding -> Theorem 2 / Corollary 1.1
** reduce-scatter -> allreduce composition -> canonical order -> verify -> cost.
**
** Why the rounding comes first: every collective of an allgather generator is then derived
** from the same rounded allgather, so --chunks P means the same thing for all three and the
** reduce-scatter's chunks are the allgather's. Why reverse symmetry is decided here and not
** left to tc_schedule_reduce_scatter_by: the plan reports which theorem was used.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coll/coll_internal.h"
#include "core/budget.h"
#include "core/progress.h"
#include "topocoll/iso.h"
#include "topocoll/transform.h"
#include "topocoll/verify.h"

/* ---- names and messages ---- */

void tc_algorithm_names(char *buf, size_t size) {
  size_t used = 0;
  if (size) buf[0] = '\0';
  for (int i = 0; i < tc_algorithm_count() && used < size; i++) {
    int n = snprintf(buf + used, size - used, "%s%s", i ? ", " : "", tc_algorithm_at(i)->name);
    if (n < 0) break;
    used += (size_t)n;
  }
}

void tc_algorithm_collectives_text(uint32_t collectives, char *buf, size_t size) {
  const char *names[TC_COLL_LAST + 1];
  int k = 0;
  for (int c = TC_COLL_ALLGATHER; c <= TC_COLL_LAST; c++)
    if (collectives & TC_COLL_BIT(c)) names[k++] = tc_collective_name((tc_collective)c);
  size_t used = 0;
  if (size) buf[0] = '\0';
  for (int i = 0; i < k && used < size; i++) {
    const char *sep = i == 0 ? "" : i == k - 1 ? " and " : ", ";
    int n = snprintf(buf + used, size - used, "%s%s", sep, names[i]);
    if (n < 0) break;
    used += (size_t)n;
  }
}

int tc_algorithm_check(const char *algo, tc_collective coll, tc_error *err) {
  const tc_algorithm_info *a = tc_algorithm_find(algo);
  char list[TC_ERRMSG_MAX]; /* every name fits: the message itself is cut at TC_ERRMSG_MAX */
  if (!a) {
    tc_algorithm_names(list, sizeof list);
    return tc_error_set(err, TC_EINPUT, "unknown algorithm '%s' (%s)", algo ? algo : "(null)", list);
  }
  if (a->collectives & TC_COLL_BIT(coll)) return TC_OK;
  char others[TC_ERRMSG_MAX] = "";
  size_t used = 0;
  for (int i = 0; i < tc_algorithm_count(); i++) /* the ones that do, whole names only */
    if (tc_algorithm_at(i)->collectives & TC_COLL_BIT(coll)) {
      const char *name = tc_algorithm_at(i)->name;
      if (used + strlen(name) + sizeof " or " + sizeof " or ..." > sizeof others) {
        snprintf(others + used, sizeof others - used, " or ...");
        break;
      }
      used += (size_t)snprintf(others + used, sizeof others - used, "%s%s", used ? " or " : "", name);
    }
  tc_algorithm_collectives_text(a->collectives, list, sizeof list);
  if (!used)
    return tc_error_set(err, TC_EINPUT, "%s builds %s, not %s (no algorithm builds %s)", a->name, list,
                        tc_collective_name(coll), tc_collective_name(coll));
  return tc_error_set(err, TC_EINPUT, "%s builds %s, not %s (use --algo %s)", a->name, list,
                      tc_collective_name(coll), others);
}

/* ---- all-to-all routings ---- */
int tc_algorithm_routing(const tc_graph *g, const char *algo, const tc_collective_opts *opts, tc_a2a_routing *out,
                         tc_error *err) {
  static const tc_collective_opts none = {.root = 0, .chunks = 0, .spec = NULL};
  memset(out, 0, sizeof *out);
  int rc = tc_algorithm_check(algo, TC_COLL_ALLTOALL, err);
  if (rc) return rc;
  if (!g) return tc_error_set(err, TC_EINPUT, "%s: no graph", algo);
  const tc_algorithm *row = tci_algorithm_row(tc_algorithm_find(algo));
  if (!row->routing)
    return tc_error_set(err, TC_EINPUT, "%s builds its alltoall step schedule directly, not from a routing", algo);
  return row->routing(g, opts ? opts : &none, out, err);
}

int tc_algorithm_routes(const tc_algorithm_info *a) { return a && tci_algorithm_row(a)->routing != NULL; }

/* ---- what a collective costs in memory, before it is built ---- */

/* The transfer count: every compute node other than a shard's owner must receive each
   shard (copy) or send its contribution to it (reduce) at least once, and one transfer
   moves one shard, so an allgather or reduce-scatter of C compute nodes (C shards) has at
   least C(C-1) transfers and an allreduce 2C(C-1), an alltoall one per ordered pair,
   C(C-1); a broadcast or reduce (one shard per
   chunk of the root's buffer) at least C-1. Generators reach the bound or a small multiple
   (BFB on a de Bruijn graph: exactly C(C-1)).
   The bytes per pair C(C-1), measured as the peak resident size (GNU time %M) of
   `topocoll sched debruijn(2,11) --algo bfb` (C(C-1) = 4.19 M), less the 8 MB of an empty
   run: allgather 43 B (100 B with --chunks, which keeps the rounded copy beside the
   original), reduce-scatter 100 B, allreduce 128 B (the 32-byte transfers of RS, AG and the
   composed AR, the sort's scratch and the verifier's indices). The constants below sit
   within 2x of each; debruijn(2,10) and torus(32,32) measure the same within 15%. A set
   keeps AG + RS + AR (4 x 32 B per pair) and builds AR beside them: 256 B. */
#define BYTES_PER_PAIR_AG 64.0
#define BYTES_PER_PAIR_RS 104.0
#define BYTES_PER_PAIR_AR 128.0
#define BYTES_PER_PAIR_SET 256.0
#define BYTES_PER_ROOTED_TRANSFER 128.0
/* Alltoall (a routing, then its lowered schedule, then the verifier's indices): `topocoll
   sched 'genkautz(4,1000)' --coll alltoall --algo direct` peaks at 310 MB for 999000 pairs
   of 4.6 hops on average, 300 B per pair beyond an empty run; hops grow like log N, so
   with room: */
#define BYTES_PER_PAIR_A2A 384.0

double tci_collective_transfers(int32_t compute, tc_collective coll) {
  double c = compute > 1 ? compute : 1, pairs = c * (c - 1);
  switch (coll) {
  case TC_COLL_ALLREDUCE: return 2 * pairs;
  case TC_COLL_BROADCAST:
  case TC_COLL_REDUCE:
  case TC_COLL_SCATTER:
  case TC_COLL_GATHER: return c - 1;
  case TC_COLL_P2P: return 1;
  default: return pairs;
  }
}

double tci_collective_bytes(int32_t compute, tc_collective coll, int set) {
  double c = compute > 1 ? compute : 1, pairs = c * (c - 1);
  if (set) return BYTES_PER_PAIR_SET * pairs;
  switch (coll) {
  case TC_COLL_ALLGATHER: return BYTES_PER_PAIR_AG * pairs;
  case TC_COLL_REDUCE_SCATTER: return BYTES_PER_PAIR_RS * pairs;
  case TC_COLL_ALLREDUCE: return BYTES_PER_PAIR_AR * pairs;
  case TC_COLL_ALLTOALL: return BYTES_PER_PAIR_A2A * pairs;
  default: return BYTES_PER_ROOTED_TRANSFER * (c - 1);
  }
}

int tci_collective_check_memory(int32_t compute, tc_collective coll, int set, const char *what, tc_error *err) {
  char count[32], detail[48];
  double transfers = set ? tci_collective_transfers(compute, TC_COLL_ALLGATHER) * 4
                         : tci_collective_transfers(compute, coll);
  tci_budget_format_count(transfers, count, sizeof count);
  snprintf(detail, sizeof detail, "%s transfers", count);
  return tci_budget_check(tci_collective_bytes(compute, coll, set), what, detail, err);
}

/* The guard of the library's entry points: refuse before generating anything. */
static int check_memory(const tc_graph *g, const char *algo, tc_collective coll, int set, tc_error *err) {
  char what[96];
  int32_t compute = tc_graph_count_kind(g, TC_NODE_COMPUTE);
  snprintf(what, sizeof what, "%s %s on %d nodes", algo, set ? "allgather, reduce-scatter and allreduce" :
           tc_collective_name(coll), compute);
  return tci_collective_check_memory(compute, coll, set, what, err);
}

/* ---- allgather generators ---- */

/* The tc_schedule_generator context: the row and the options (chunks included). */
typedef struct gen_ctx {
  const tc_algorithm *row;
  const tc_collective_opts *opts;
} gen_ctx;

/* The row's allgather of g, rounded to opts->chunks chunks per shard when that is > 0;
   the shape of a tc_schedule_generator so Corollary 1.1 can call it on g^T. */
static int generate_allgather(const tc_graph *g, void *vctx, tc_schedule *out, tc_error *err) {
  const gen_ctx *ctx = vctx;
  tci_progress(ctx->opts->progress, ctx->opts->progress_ctx, 0, 0, "%s: generating the allgather",
               ctx->row->info.name);
  int rc = ctx->row->allgather(g, ctx->opts, out, err);
  if (rc || ctx->opts->chunks <= 0) return rc;
  tc_schedule rounded;
  rc = tc_schedule_round_chunks(g, out, ctx->opts->chunks, &rounded, err);
  tc_schedule_destroy(out);
  *out = rounded; /* empty on failure, as the transforms promise */
  return rc;
}

/* Reduce-scatter on g: Theorem 2 on the allgather (*ag, generated here when NULL) when
   g ≅ g^T, else Corollary 1.1: the reverse of the row's transposed generator on g^T. */
static int derive_reduce_scatter(const tc_graph *g, const gen_ctx *ctx, const tc_schedule *ag, tc_schedule *rs,
                                 int *symmetric, tc_error *err) {
  int32_t *iso = malloc((size_t)(g->n > 0 ? g->n : 1) * sizeof *iso);
  if (!iso) return tc_error_set(err, TC_ENOMEM, "out of memory");
  tc_schedule own;
  memset(&own, 0, sizeof own);
  int found = 0;
  int rc = tc_graph_reverse_symmetry(g, &found, iso, err);
  if (!rc)
    tci_progress(ctx->opts->progress, ctx->opts->progress_ctx, 0, 0, "%s: deriving the reduce-scatter (%s)",
                 ctx->row->info.name, found ? "Theorem 2" : "Corollary 1.1");
  if (!rc && found) {
    if (!ag && !(rc = generate_allgather(g, (void *)ctx, &own, err))) ag = &own;
    if (!rc) rc = tc_schedule_reverse_symmetric(g, ag, iso, rs, err);
  } else if (!rc) {
    tc_algorithm transposed = *ctx->row;
    if (transposed.allgather_transposed) transposed.allgather = transposed.allgather_transposed;
    gen_ctx tctx = {&transposed, ctx->opts};
    rc = tc_schedule_reduce_scatter_from(g, generate_allgather, &tctx, rs, err);
  }
  *symmetric = found;
  tc_schedule_destroy(&own);
  free(iso);
  return rc;
}

/* ---- direct builders ---- */

/* Re-express s in exactly `chunks` equal chunks per shard (exact refinement). */
static int refine_to(const tc_graph *g, const char *algo, tc_schedule *s, int64_t chunks, tc_error *err) {
  int64_t least = tc_schedule_chunk_count(s);
  if (chunks % least != 0 && s->coll == TC_COLL_ALLTOALL) { /* E.2-style: round each pair's path shares */
    tc_schedule rounded;
    int rc = tc_schedule_round_flows(g, s, chunks, &rounded, err);
    if (rc) return rc;
    tc_schedule_destroy(s);
    *s = rounded;
    return TC_OK;
  }
  if (chunks % least != 0)
    return tc_error_set(err, TC_EINPUT, "--chunks %lld: the %s schedule on this graph cuts shards into %lld "
                        "equal chunks, so P must be a multiple of %lld", (long long)chunks, algo,
                        (long long)least, (long long)least);
  tc_schedule_normalize(s);
  return tc_schedule_refine(s, chunks / least, err);
}

static int generate_direct(const tc_graph *g, const tc_algorithm *row, tc_collective coll,
                           const tc_collective_opts *opts, tc_schedule *out, tc_error *err) {
  tci_progress(opts->progress, opts->progress_ctx, 0, 0, "%s: generating the %s", row->info.name,
               tc_collective_name(coll));
  int rc = row->direct(g, coll, opts, out, err);
  if (!rc && opts->chunks > 0 && row->chunks_kind == TC_CHUNKS_REFINE &&
      (rc = refine_to(g, row->info.name, out, opts->chunks, err)))
    tc_schedule_destroy(out);
  return rc;
}

/* ---- the pipeline ---- */

static int check_request(const tc_graph *g, const char *algo, tc_collective coll, const tc_collective_opts *opts,
                         tc_error *err) {
  if (!g) return tc_error_set(err, TC_EINPUT, "%s: no graph", algo ? algo : "collective");
  int rc = tc_algorithm_check(algo, coll, err);
  if (rc) return rc;
  int rooted = coll == TC_COLL_BROADCAST || coll == TC_COLL_REDUCE || coll == TC_COLL_SCATTER ||
               coll == TC_COLL_GATHER || coll == TC_COLL_P2P;
  const char *root = coll == TC_COLL_P2P ? "source" : "root";
  if (rooted && (opts->root < 0 || opts->root >= g->n))
    return tc_error_set(err, TC_EINPUT, "%s %d is not a node (0..%d)", root, opts->root, g->n - 1);
  if (rooted && g->kind[opts->root] != TC_NODE_COMPUTE)
    return tc_error_set(err, TC_EINPUT, "%s %d is a switch (switches hold no data)", root, opts->root);
  if (coll == TC_COLL_P2P && (opts->dst < 0 || opts->dst >= g->n))
    return tc_error_set(err, TC_EINPUT, "destination %d is not a node (0..%d)", opts->dst, g->n - 1);
  if (coll == TC_COLL_P2P && g->kind[opts->dst] != TC_NODE_COMPUTE)
    return tc_error_set(err, TC_EINPUT, "destination %d is a switch (switches hold no data)", opts->dst);
  if (coll == TC_COLL_P2P && opts->dst == opts->root)
    return tc_error_set(err, TC_EINPUT, "source and destination are both node %d", opts->root);
  if (opts->chunks < 0) return tc_error_set(err, TC_EINPUT, "chunks must be >= 1 (got %lld)", (long long)opts->chunks);
  return TC_OK;
}

int tc_algorithm_generate(const tc_graph *g, const char *algo, tc_collective coll, const tc_collective_opts *opts,
                          tc_schedule *out, tc_error *err) {
  static const tc_collective_opts none = {.root = 0, .chunks = 0, .spec = NULL};
  memset(out, 0, sizeof *out);
  if (!opts) opts = &none;
  int rc = check_request(g, algo, coll, opts, err);
  if (!rc) rc = check_memory(g, algo, coll, 0, err);
  if (rc) return rc;
  const tc_algorithm *row = tci_algorithm_row(tc_algorithm_find(algo));
  if (row->direct) return generate_direct(g, row, coll, opts, out, err);
  gen_ctx ctx = {row, opts};
  tc_schedule ag, rs;
  memset(&ag, 0, sizeof ag);
  memset(&rs, 0, sizeof rs);
  int symmetric = 0;
  if (coll != TC_COLL_REDUCE_SCATTER) rc = generate_allgather(g, &ctx, &ag, err);
  if (!rc && coll == TC_COLL_ALLGATHER) {
    *out = ag;
    return TC_OK;
  }
  if (!rc) rc = derive_reduce_scatter(g, &ctx, coll == TC_COLL_REDUCE_SCATTER ? NULL : &ag, &rs, &symmetric, err);
  if (!rc && coll == TC_COLL_REDUCE_SCATTER) {
    *out = rs;
    memset(&rs, 0, sizeof rs);
  } else if (!rc) {
    tci_progress(opts->progress, opts->progress_ctx, 0, 0, "%s: composing the allreduce", algo);
    rc = tc_schedule_allreduce_compose(g, &rs, &ag, out, err);
  }
  tc_schedule_destroy(&ag);
  tc_schedule_destroy(&rs);
  return rc;
}

/* Sort into canonical order, verify, cost; `what` names the schedule in an error. */
static int verify_and_cost(const tc_graph *g, tc_schedule *s, const char *algo, tc_collective coll,
                           const tc_collective_opts *opts, tc_cost *cost, tc_error *err) {
  const char *name = tc_collective_name(coll);
  tci_progress(opts->progress, opts->progress_ctx, 0, 0, "%s %s: verifying", algo, name);
  tc_schedule_sort(s);
  int rc = tc_schedule_verify(g, s, err);
  if (rc) {
    tc_error_prefix(err, "%s %s schedule failed verification", algo, name);
    return rc;
  }
  if (cost) tci_progress(opts->progress, opts->progress_ctx, 0, 0, "%s %s: costing", algo, name);
  return cost ? tc_schedule_cost(g, s, cost, err) : TC_OK;
}

int tc_collective_build(const tc_graph *g, const char *algo, tc_collective coll, const tc_collective_opts *opts,
                        tc_schedule *out, tc_cost *cost, tc_error *err) {
  static const tc_collective_opts none = {.root = 0, .chunks = 0, .spec = NULL};
  if (cost) memset(cost, 0, sizeof *cost);
  int rc = tc_algorithm_generate(g, algo, coll, opts, out, err);
  if (!rc) rc = verify_and_cost(g, out, algo, coll, opts ? opts : &none, cost, err);
  if (rc) {
    tc_schedule_destroy(out);
    memset(out, 0, sizeof *out);
  }
  return rc;
}

void tc_collective_set_destroy(tc_collective_set *s) {
  tc_schedule_destroy(&s->allgather);
  tc_schedule_destroy(&s->reduce_scatter);
  tc_schedule_destroy(&s->allreduce);
  tc_cost_destroy(&s->allgather_cost);
  tc_cost_destroy(&s->reduce_scatter_cost);
  tc_cost_destroy(&s->allreduce_cost);
  memset(s, 0, sizeof *s);
}

/* An allgather generator's three collectives from one allgather. */
static int derive_set(const tc_graph *g, const tc_algorithm *row, const tc_collective_opts *opts,
                      tc_collective_set *out, tc_error *err) {
  const char *algo = row->info.name;
  gen_ctx ctx = {row, opts};
  int rc = generate_allgather(g, &ctx, &out->allgather, err);
  if (!rc) rc = verify_and_cost(g, &out->allgather, algo, TC_COLL_ALLGATHER, opts, &out->allgather_cost, err);
  if (!rc) rc = derive_reduce_scatter(g, &ctx, &out->allgather, &out->reduce_scatter, &out->reverse_symmetric, err);
  if (!rc)
    rc = verify_and_cost(g, &out->reduce_scatter, algo, TC_COLL_REDUCE_SCATTER, opts, &out->reduce_scatter_cost,
                         err);
  if (!rc) tci_progress(opts->progress, opts->progress_ctx, 0, 0, "%s: composing the allreduce", algo);
  if (!rc) rc = tc_schedule_allreduce_compose(g, &out->reduce_scatter, &out->allgather, &out->allreduce, err);
  if (!rc) rc = verify_and_cost(g, &out->allreduce, algo, TC_COLL_ALLREDUCE, opts, &out->allreduce_cost, err);
  return rc;
}

int tc_collective_build_set(const tc_graph *g, const char *algo, const tc_collective_opts *opts,
                            tc_collective_set *out, tc_error *err) {
  static const tc_collective_opts none = {.root = 0, .chunks = 0, .spec = NULL};
  memset(out, 0, sizeof *out);
  if (!opts) opts = &none;
  int rc = check_request(g, algo, TC_COLL_ALLGATHER, opts, err);
  if (!rc) rc = tc_algorithm_check(algo, TC_COLL_REDUCE_SCATTER, err);
  if (!rc) rc = tc_algorithm_check(algo, TC_COLL_ALLREDUCE, err);
  if (!rc) rc = check_memory(g, algo, TC_COLL_ALLREDUCE, 1, err);
  if (rc) return rc;
  const tc_algorithm *row = tci_algorithm_row(tc_algorithm_find(algo));
  if (row->allgather) {
    rc = derive_set(g, row, opts, out, err);
  } else {
    out->reverse_symmetric = -1;
    rc = tc_collective_build(g, algo, TC_COLL_ALLGATHER, opts, &out->allgather, &out->allgather_cost, err);
    if (!rc)
      rc = tc_collective_build(g, algo, TC_COLL_REDUCE_SCATTER, opts, &out->reduce_scatter,
                               &out->reduce_scatter_cost, err);
    if (!rc)
      rc = tc_collective_build(g, algo, TC_COLL_ALLREDUCE, opts, &out->allreduce, &out->allreduce_cost, err);
  }
  if (rc) tc_collective_set_destroy(out);
  return rc;
}
