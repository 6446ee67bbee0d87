/*
** sched_algos.c — which generator builds `topocoll sched --algo A --coll C`: the BFB
** generator with the paper's transforms for bfb, the baseline library for the rest.
**
**   bfb       allgather: the optimal BFB schedule (bfb.h). reduce-scatter: Theorem 2 on a
**             reverse-symmetric graph, Corollary 1.1 otherwise (transform.h). allreduce:
**             reduce-scatter then allgather. --chunks P rounds the allgather to exactly P
**             chunks per shard (App. E.2) before any transform, so every collective is
**             built from the same rounded allgather. No broadcast or reduce.
**   dbt       --chunks P is the pipelining depth (chunks per shard); --root for
**             broadcast / reduce.
**   others    the baseline's own schedule; --chunks P re-expresses it in exactly P equal
**             chunks per shard, which is exact when P is a multiple of the least number of
**             chunks the schedule needs (an error otherwise: such a baseline has no
**             rounding of its own to fall back on).
**   torus-dor reads the dimension lengths off the spec, which must be torus(l1,...,lk).
** Nothing here verifies: cmd_sched.c runs tc_schedule_verify on whatever comes back.
*/
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "topocoll/baselines.h"
#include "topocoll/bfb.h"
#include "topocoll/transform.h"

#define MAX_DIMS 64

static const char *const algorithm_names[] = {"bfb",       "ring", "biring", "bfbring", "shiftedring", "shiftedbfbring",
                                              "dbt",       "rhd",  "torus-dor", NULL};

const char *const *tc_cli_algorithm_names(void) { return algorithm_names; }

/* ---- bfb ---- */

/* The BFB allgather of g, rounded to `*(int64_t *)ctx` chunks when that is > 0; the shape
   of a tc_schedule_generator so the transforms can call it on g or on g^T. */
static int bfb_generate(const tc_graph *g, void *ctx, tc_schedule *out, tc_error *err) {
  int64_t chunks = *(const int64_t *)ctx;
  int rc = tc_bfb_allgather(g, out, NULL, err);
  if (rc || chunks <= 0) return rc;
  tc_schedule rounded;
  rc = tc_schedule_round_chunks(g, out, chunks, &rounded, err);
  tc_schedule_destroy(out);
  *out = rounded; /* empty on failure, as the transforms promise */
  return rc;
}

static int build_bfb(const tc_graph *g, tc_collective coll, int64_t chunks, tc_schedule *out, tc_error *err) {
  switch (coll) {
    case TC_COLL_ALLGATHER: return bfb_generate(g, &chunks, out, err);
    case TC_COLL_REDUCE_SCATTER: return tc_schedule_reduce_scatter_by(g, NULL, bfb_generate, &chunks, out, err);
    case TC_COLL_ALLREDUCE: return tc_schedule_allreduce_by(g, bfb_generate, &chunks, out, err);
    default:
      memset(out, 0, sizeof *out);
      return tc_error_set(err, TC_EINPUT, "bfb builds allgather, reduce-scatter and allreduce, not %s "
                          "(use --algo dbt)", tc_collective_name(coll));
  }
}

/* ---- baselines ---- */

/* "torus(3, 3, 2)" -> dims {3, 3, 2}; anything else is TC_EINPUT. */
static int torus_dims(const char *spec, int64_t *dims, int *k, tc_error *err) {
  static const char usage[] = "torus-dor needs SPEC written as torus(l1,...,lk) to know the dimensions";
  const char *p = spec;
  while (*p == ' ') p++;
  if (strncmp(p, "torus(", 6) != 0) return tc_error_set(err, TC_EINPUT, "%s", usage);
  p += 6;
  *k = 0;
  for (;;) {
    while (*p == ' ') p++;
    char *end;
    long long v = strtoll(p, &end, 10);
    if (end == p || *p == '-' || *p == '+' || *k == MAX_DIMS) return tc_error_set(err, TC_EINPUT, "%s", usage);
    dims[(*k)++] = v;
    p = end;
    while (*p == ' ') p++;
    if (*p == ',') { p++; continue; }
    if (*p != ')') return tc_error_set(err, TC_EINPUT, "%s", usage);
    for (p++; *p == ' '; p++) {}
    return *p ? tc_error_set(err, TC_EINPUT, "%s", usage) : TC_OK;
  }
}

/* Re-express s in exactly `chunks` equal chunks per shard (exact refinement). */
static int refine_to(const char *algo, tc_schedule *s, int64_t chunks, tc_error *err) {
  int64_t least = tc_schedule_chunk_count(s);
  if (chunks % least != 0)
    return tc_error_set(err, TC_EINPUT, "--chunks %lld: the %s schedule on this graph cuts shards into %lld "
                        "equal chunks, so P must be a multiple of %lld", (long long)chunks, algo,
                        (long long)least, (long long)least);
  tc_schedule_normalize(s);
  return tc_schedule_refine(s, chunks / least, err);
}

static int build_baseline(const tc_graph *g, const char *spec, const char *algo, tc_collective coll, int32_t root,
                          int64_t chunks, tc_schedule *out, tc_error *err) {
  int64_t dims[MAX_DIMS];
  tc_baseline_opts opts = {root, 0, NULL, 0};
  int is_dbt = strcmp(algo, "dbt") == 0;
  memset(out, 0, sizeof *out);
  if (is_dbt) {
    if (chunks > INT32_MAX) return tc_error_set(err, TC_EINPUT, "--chunks %lld is too large for dbt", (long long)chunks);
    opts.chunks = (int32_t)chunks;
  }
  if (strcmp(algo, "torus-dor") == 0) {
    int rc = torus_dims(spec, dims, &opts.ndims, err);
    if (rc) return rc;
    opts.dims = dims;
  }
  int rc = tc_baseline_build(algo, g, coll, &opts, out, err);
  if (!rc && chunks > 0 && !is_dbt && (rc = refine_to(algo, out, chunks, err))) tc_schedule_destroy(out);
  return rc;
}

int tc_cli_build_schedule(const tc_graph *g, const char *spec, const char *algo, tc_collective coll, int32_t root,
                          int64_t chunks, tc_schedule *out, tc_error *err) {
  if (strcmp(algo, "bfb") == 0) return build_bfb(g, coll, chunks, out, err);
  return build_baseline(g, spec, algo, coll, root, chunks, out, err);
}
