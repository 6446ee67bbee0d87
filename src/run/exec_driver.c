/*
** exec_driver.c — `topocoll-exec`: run a plan under mpirun (or smpirun), checked against
** and timed beside the MPI library's own collective. `topocoll run` and `topocoll simulate`
** launch it; docs/running.md documents it.
**
**   topocoll-exec PLAN.json [--sizes LIST] [--dtype int32|int64|float|double]
**                 [--op sum|max|min] [--iters K] [--warmup W] [--only both|topocoll|mpi]
**                 [--no-check] [--no-compute] [--inplace 0|1|both] [--trusted] [--rank-map FILE]
**
** The collective is the plan's (and its root's: broadcast, reduce, scatter, gather; p2p
** from its source to its destination). A size is the collective's whole buffer M in
** bytes (allgather: the output, reduce-scatter: the input, allreduce, broadcast, reduce,
** p2p: the buffer, alltoall: each rank's send buffer, scatter: the root's send buffer,
** gather: the root's receive buffer); the count is M/elt (allreduce, broadcast, reduce,
** p2p) or M/(N*elt) (allgather, reduce-scatter, scatter, gather; alltoall: elements per
** destination), at least 1, and the size reported is the M actually used. Per size: inputs filled deterministically with small
** integers (a hash of rank and index), so that every sum is exact in every type and the
** executor's result can be compared with MPI's bit for bit; the executor prepared for the
** size (tci_run_plan_prepare: layout, buffers and the agreement a first call with a new
** count needs, out of every timed call, so --warmup 0 times a clean first call); then
** warmup + iters calls of
** the executor and of MPI_Allgather / MPI_Reduce_scatter_block / MPI_Allreduce /
** MPI_Alltoall / MPI_Bcast / MPI_Reduce / MPI_Scatter / MPI_Gather (p2p: MPI_Send and
** MPI_Recv) on the same input, each timed as MPI_Barrier; t0 = MPI_Wtime(); call; elapsed
** (under SMPI the ranks start at one common simulated instant instead), the maximum over
** the ranks taken per iteration; the median over the iters is reported, and the spread:
** the fastest and the slowest iteration.
** Variants (--inplace): 0 (the default) out of place, 1 in place, both: each size out of
** place, then in place. In place is MPI_IN_PLACE on both sides, with the input where MPI
** wants it (allgather, gather: the rank's own block at rank*count of the receive buffer;
** reduce-scatter, allreduce, reduce, alltoall: the whole receive buffer; scatter: the
** root's send buffer); the rooted ones pass it at the root only, as MPI defines.
** Broadcast and p2p have no in-place form (tc_program_has_inplace): "both" runs them out
** of place only, and 1 is refused.
** Rank 0 prints one JSON object per size and variant on its own line:
**   {"size_bytes": M, "count": c, "inplace": b, "time_s": t, "time_min_s": t, "time_max_s": t,
**    "mpi_time_s": t, "mpi_time_min_s": t, "mpi_time_max_s": t, "wrong": w, "verified": b}
** (a time null: that side not run — --only; "wrong", the number of result elements that
** differ from MPI's over all ranks (nccl-tests' #wrong), and "verified" null: not checked —
** --no-check). A mismatch prints one line naming size, variant, rank and first element on
** stderr, reports "verified": false, and the exit status is 1.
** --rank-map FILE: a plan's ranks.csv; MPI rank r plays the node it gives rank r
** (tc_mpi_plan_load_mapped), and MPI's own collective, run on the same ranks, is still the
** reference: the results mean the same with or without a map.
** --no-compute turns the executor's reductions and copies off (tc_mpi_plan_set_compute)
** and implies --no-check; under SMPI the buffers then come from SMPI_SHARED_MALLOC, so a
** simulation of many ranks and large sizes needs little memory.
** Errors: rank 0 prints one line "topocoll-exec: <message>" on stderr and every rank exits
** non-zero (2 bad usage or input — including a missing, unreadable, invalid or mis-sized
** plan —, 1 anything else); every failure is agreed on by all ranks first, so none hangs.
*/
#include <mpi.h>

#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef SMPI_SHARED_MALLOC
#include <simgrid/actor.h> /* SMPI: start timed calls at one simulated instant */
#endif

#include "run/run_internal.h"
#include "topocoll/run_mpi.h"
#include "topocoll/units.h"

#define EXEC_DEFAULT_SIZES "1KB..1MB"

typedef enum { ONLY_BOTH, ONLY_TOPOCOLL, ONLY_MPI } exec_only;

typedef struct exec_type {
  const char *name;
  int size, is_float;
} exec_type;

static const exec_type exec_types[] = {{"int32", 4, 0}, {"int64", 8, 0}, {"float", 4, 1}, {"double", 8, 1}};
static const char *const exec_ops[] = {"sum", "max", "min"};

typedef struct exec_opts {
  const char *plan, *rank_map;
  int64_t *sizes;
  int nsizes;
  int type; /* index into exec_types */
  int op;   /* index into exec_ops */
  long iters, warmup;
  exec_only only;
  int variants; /* VARIANT_* bits: out of place, in place, or both */
  int check, compute, trusted, help;
} exec_opts;

enum { VARIANT_OUT = 1, VARIANT_IN = 2 };

typedef struct exec_ctx {
  int rank, ranks;
  tc_mpi_plan *plan;
  tc_collective coll;
  MPI_Datatype type;
  MPI_Op op;
  int inplace; /* the variant being run */
  const exec_opts *o;
} exec_ctx;

/* SMPI's own types are not compile-time constants, so these are functions. */
static MPI_Datatype mpi_type(int t) {
  switch (t) {
    case 0: return MPI_INT32_T;
    case 1: return MPI_INT64_T;
    case 2: return MPI_FLOAT;
    default: return MPI_DOUBLE;
  }
}

static MPI_Op mpi_op(int o) { return o == 0 ? MPI_SUM : o == 1 ? MPI_MAX : MPI_MIN; }

static void usage(void) {
  printf("usage: topocoll-exec PLAN.json [--sizes LIST] [--dtype int32|int64|float|double]\n"
         "                     [--op sum|max|min] [--iters K] [--warmup W] [--only both|topocoll|mpi]\n"
         "                     [--no-check] [--no-compute] [--inplace 0|1|both] [--trusted]\n"
         "                     [--rank-map FILE]\n"
         "Runs the plan's collective under MPI beside MPI's own; rank 0 prints one JSON line per size and\n"
         "variant.\n"
         "Defaults: --sizes %s --dtype int32 --op sum --iters 5 --warmup 1 --only both --inplace 0.\n"
         "See docs/running.md.\n",
         EXEC_DEFAULT_SIZES);
}

/* ---- options --------------------------------------------------------------------------- */

static int pick(const char *opt, const char *value, const char *const *names, int n, int *out, tc_error *err) {
  for (int i = 0; i < n; i++)
    if (!strcmp(value, names[i])) {
      *out = i;
      return TC_OK;
    }
  char list[128] = "";
  for (int i = 0; i < n; i++)
    snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", i ? ", " : "", names[i]);
  return tc_error_set(err, TC_EINPUT, "%s: unknown value '%s' (expected %s)", opt, value, list);
}

static int parse_long(const char *opt, const char *text, long lo, long hi, long *out, tc_error *err) {
  char *end;
  errno = 0;
  long v = strtol(text, &end, 10);
  if (errno || end == text || *end || v < lo || v > hi)
    return tc_error_set(err, TC_EINPUT, "%s: expected an integer in %ld..%ld, got '%s'", opt, lo, hi, text);
  *out = v;
  return TC_OK;
}

static int parse_opts(int argc, char **argv, exec_opts *o, tc_error *err) {
  memset(o, 0, sizeof *o);
  o->iters = 5;
  o->warmup = 1;
  o->check = o->compute = 1;
  const char *sizes = EXEC_DEFAULT_SIZES;
  const char *type_names[4], *only_names[] = {"both", "topocoll", "mpi"}, *variant_names[] = {"0", "1", "both"};
  o->variants = VARIANT_OUT;
  for (int i = 0; i < 4; i++) type_names[i] = exec_types[i].name;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    int has_value = i + 1 < argc;
    int only = 0;
    if (!strcmp(a, "--help") || !strcmp(a, "-h")) o->help = 1;
    else if (!strcmp(a, "--no-check")) o->check = 0;
    else if (!strcmp(a, "--no-compute")) o->compute = 0;
    else if (!strcmp(a, "--trusted")) o->trusted = 1;
    else if (!strcmp(a, "--sizes") || !strcmp(a, "--dtype") || !strcmp(a, "--op") || !strcmp(a, "--iters") ||
             !strcmp(a, "--warmup") || !strcmp(a, "--only") || !strcmp(a, "--inplace") ||
             !strcmp(a, "--rank-map")) {
      if (!has_value) return tc_error_set(err, TC_EINPUT, "%s needs a value", a);
      const char *v = argv[++i];
      int rc = TC_OK;
      if (!strcmp(a, "--sizes")) sizes = v;
      else if (!strcmp(a, "--rank-map")) o->rank_map = v;
      else if (!strcmp(a, "--dtype")) rc = pick(a, v, type_names, 4, &o->type, err);
      else if (!strcmp(a, "--op")) rc = pick(a, v, exec_ops, 3, &o->op, err);
      else if (!strcmp(a, "--iters")) rc = parse_long(a, v, 1, 1000000, &o->iters, err);
      else if (!strcmp(a, "--warmup")) rc = parse_long(a, v, 0, 1000000, &o->warmup, err);
      else if (!strcmp(a, "--inplace")) {
        int k = 0;
        if ((rc = pick(a, v, variant_names, 3, &k, err)) == TC_OK) o->variants = k + 1; /* 1, 2, 3 */
      }
      else if ((rc = pick(a, v, only_names, 3, &only, err)) == TC_OK) o->only = (exec_only)only;
      if (rc) return rc;
    } else if (a[0] == '-' && a[1]) return tc_error_set(err, TC_EINPUT, "unknown option '%s'", a);
    else if (!o->plan) o->plan = a;
    else return tc_error_set(err, TC_EINPUT, "unexpected argument '%s' (PLAN already given)", a);
  }
  if (o->help) return TC_OK;
  if (!o->plan) return tc_error_set(err, TC_EINPUT, "missing PLAN.json (see --help)");
  if (!o->compute) o->check = 0;
  if (o->only != ONLY_BOTH) o->check = 0;
  if (tc_units_parse_size_list(sizes, &o->sizes, &o->nsizes, err)) {
    tc_error_prefix(err, "--sizes");
    return err->code;
  }
  return TC_OK;
}

/* ---- buffers and data ------------------------------------------------------------------- */

/* A buffer of `bytes`; with `shared` (dummy data) from SMPI_SHARED_MALLOC under SMPI. */
static void *big_alloc(size_t bytes, int shared) {
  if (bytes == 0) bytes = 1;
#ifdef SMPI_SHARED_MALLOC
  if (shared) return SMPI_SHARED_MALLOC(bytes);
#else
  (void)shared;
#endif
  return malloc(bytes);
}

static void big_free(void *p, int shared) {
  if (!p) return;
#ifdef SMPI_SHARED_MALLOC
  if (shared) {
    SMPI_SHARED_FREE(p);
    return;
  }
#else
  (void)shared;
#endif
  free(p);
}

/* A small integer for (rank, index): |value| * ranks stays exact in every type's sums
   (int32: < 2^15 per rank, float: < 2^5, i.e. up to 2^15 / 2^19 ranks). */
static void fill(void *buf, long long n, int t, int rank, long long first) {
  for (long long i = 0; i < n; i++) {
    uint64_t h = ((uint64_t)rank << 40) ^ (uint64_t)(first + i);
    h = (h ^ (h >> 30)) * 0xBF58476D1CE4E5B9u;
    h = (h ^ (h >> 27)) * 0x94D049BB133111EBu;
    h ^= h >> 31;
    switch (t) {
      case 0: ((int32_t *)buf)[i] = (int32_t)(h % 65536) - 32768; break;
      case 1: ((int64_t *)buf)[i] = (int64_t)(h % 4294967296u) - 2147483648; break;
      case 2: ((float *)buf)[i] = (float)((int)(h % 64) - 32); break;
      default: ((double *)buf)[i] = (double)((int64_t)(h % 1048576) - 524288);
    }
  }
}

static void describe(char *out, size_t room, const void *buf, long long i, int t) {
  switch (t) {
    case 0: snprintf(out, room, "%d", ((const int32_t *)buf)[i]); break;
    case 1: snprintf(out, room, "%lld", (long long)((const int64_t *)buf)[i]); break;
    case 2: snprintf(out, room, "%.9g", ((const float *)buf)[i]); break;
    default: snprintf(out, room, "%.17g", ((const double *)buf)[i]);
  }
}

/* ---- one size ------------------------------------------------------------------------------ */

typedef struct exec_size {
  long long count, nin, nout; /* elements: per call, of this rank's input, of its result */
  long long result_at;        /* where the result starts in the work buffer (elements) */
  int64_t bytes;              /* M actually used */
  size_t elt;
  char *input;                /* pristine input */
  char *work[2];              /* result (or in-place buffer) of the executor [0] and MPI [1] */
  size_t work_bytes;
} exec_size;

/* Whether this call passes MPI_IN_PLACE: the in-place variant, at the root only for the
   rooted collectives (MPI's rule); never for broadcast and p2p (no such form). */
static int call_inplace(const exec_ctx *c) {
  tc_collective k = c->coll;
  if (!c->inplace || !tc_program_has_inplace(k)) return 0;
  return k < TC_COLL_BROADCAST || k == TC_COLL_ALLTOALL || c->rank == tc_mpi_plan_root(c->plan);
}

static int call_executor(const exec_ctx *c, const exec_size *z, tc_error *err) {
  int inplace = call_inplace(c), root = tc_mpi_plan_root(c->plan);
  const void *send = inplace ? TC_MPI_IN_PLACE : z->input;
  char *work = z->work[0];
  switch (c->coll) {
    case TC_COLL_ALLGATHER: return tc_mpi_allgather(c->plan, send, work, z->count, c->type, err);
    case TC_COLL_REDUCE_SCATTER: return tc_mpi_reduce_scatter(c->plan, send, work, z->count, c->type, c->op, err);
    case TC_COLL_ALLTOALL: return tc_mpi_alltoall(c->plan, send, work, z->count, c->type, err);
    case TC_COLL_BROADCAST: return tc_mpi_bcast(c->plan, work, z->count, c->type, root, err);
    case TC_COLL_REDUCE: return tc_mpi_reduce(c->plan, send, work, z->count, c->type, c->op, root, err);
    case TC_COLL_SCATTER:
      if (inplace) return tc_mpi_scatter(c->plan, work, TC_MPI_IN_PLACE, z->count, c->type, root, err);
      return tc_mpi_scatter(c->plan, z->input, work, z->count, c->type, root, err);
    case TC_COLL_GATHER: return tc_mpi_gather(c->plan, send, work, z->count, c->type, root, err);
    case TC_COLL_P2P: return tc_mpi_p2p(c->plan, z->input, work, z->count, c->type, err);
    default: return tc_mpi_allreduce(c->plan, send, work, z->count, c->type, c->op, err);
  }
}

static int call_mpi(const exec_ctx *c, const exec_size *z) {
  int inplace = call_inplace(c), root = tc_mpi_plan_root(c->plan), dest = tc_mpi_plan_dest(c->plan);
  const void *send = inplace ? MPI_IN_PLACE : z->input;
  char *work = z->work[1];
  int n = (int)z->count;
  switch (c->coll) {
    case TC_COLL_ALLGATHER:
      if (inplace) return MPI_Allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, work, n, c->type, MPI_COMM_WORLD);
      return MPI_Allgather(send, n, c->type, work, n, c->type, MPI_COMM_WORLD);
    case TC_COLL_REDUCE_SCATTER: return MPI_Reduce_scatter_block(send, work, n, c->type, c->op, MPI_COMM_WORLD);
    case TC_COLL_ALLTOALL:
      if (inplace) return MPI_Alltoall(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, work, n, c->type, MPI_COMM_WORLD);
      return MPI_Alltoall(send, n, c->type, work, n, c->type, MPI_COMM_WORLD);
    case TC_COLL_BROADCAST: return MPI_Bcast(work, n, c->type, root, MPI_COMM_WORLD);
    case TC_COLL_REDUCE: return MPI_Reduce(send, work, n, c->type, c->op, root, MPI_COMM_WORLD);
    case TC_COLL_SCATTER:
      if (inplace) return MPI_Scatter(work, n, c->type, MPI_IN_PLACE, n, c->type, root, MPI_COMM_WORLD);
      return MPI_Scatter(z->input, n, c->type, work, n, c->type, root, MPI_COMM_WORLD);
    case TC_COLL_GATHER:
      if (inplace) return MPI_Gather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, work, n, c->type, root, MPI_COMM_WORLD);
      return MPI_Gather(send, n, c->type, work, n, c->type, root, MPI_COMM_WORLD);
    case TC_COLL_P2P: /* the one message, tag 0: the plan's own messages use its duplicate communicator */
      if (c->rank == root) return MPI_Send(z->input, n, c->type, dest, 0, MPI_COMM_WORLD);
      if (c->rank == dest) return MPI_Recv(work, n, c->type, root, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      return MPI_SUCCESS;
    default: return MPI_Allreduce(send, work, n, c->type, c->op, MPI_COMM_WORLD);
  }
}

/* Each call starts from the input laid out where MPI wants it: in place, and always for a
   broadcast's root, whose one buffer is input and result. */
static void stage_input(const exec_ctx *c, const exec_size *z, int which) {
  if (!c->o->compute) return;
  if (c->coll == TC_COLL_BROADCAST) {
    if (c->rank == tc_mpi_plan_root(c->plan)) memcpy(z->work[which], z->input, (size_t)z->nin * z->elt);
    return;
  }
  if (!call_inplace(c)) return;
  int own_block = c->coll == TC_COLL_ALLGATHER || c->coll == TC_COLL_GATHER;
  size_t at = own_block ? (size_t)c->rank * (size_t)z->count * z->elt : 0;
  memcpy(z->work[which] + at, z->input, (size_t)z->nin * z->elt);
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* What one side's timed calls took (rank 0): the median, fastest and slowest iteration. */
typedef struct side_times {
  double median, min, max;
} side_times;

/* Every rank leaves here at the same moment, as far as the clock can tell. MPI_Barrier
   is enough on real machines (its skew is what a user sees too); under SMPI ranks leave
   a barrier up to a few simulated latencies apart, which would add 1-2 alpha to every
   simulated time, so there they meet at a common future instant instead. */
static double start_together(void) {
  MPI_Barrier(MPI_COMM_WORLD);
#ifdef SMPI_SHARED_MALLOC
  double now = MPI_Wtime(), latest;
  MPI_Allreduce(&now, &latest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  double t0 = latest + 1.0;
  sg_actor_sleep_until(t0);
  return t0;
#else
  return MPI_Wtime();
#endif
}

/* warmup + iters timed calls of one side; *out on rank 0. */
static int time_side(const exec_ctx *c, const exec_size *z, int which, side_times *out, tc_error *err) {
  long iters = c->o->iters, total = c->o->warmup + iters;
  double *t = malloc(sizeof *t * (size_t)iters * 2);
  int rc = t ? TC_OK : tc_error_set(err, TC_ENOMEM, "out of memory for timings");
  if ((rc = tci_run_agree(MPI_COMM_WORLD, rc, NULL, err))) {
    free(t);
    return rc;
  }
  /* The executor's agreement for a new count happens here, out of the timed calls: with
     --warmup 0 (simulate) the first call is timed alone. */
  if (which == 0 && (rc = tci_run_plan_prepare(c->plan, z->count, c->type, c->inplace, err))) {
    free(t);
    return rc;
  }
  for (long i = 0; i < total && !rc; i++) {
    /* The last call's result is the one compared: poison its buffer first, so that an
       element the collective fails to write differs from every value a correct result
       can hold (0xA5... is no small integer in any of the types). */
    if (c->o->check && i == total - 1) memset(z->work[which], 0xA5, z->work_bytes);
    stage_input(c, z, which);
    double t0 = start_together();
    if (which == 0) rc = call_executor(c, z, err);
    else if (call_mpi(c, z) != MPI_SUCCESS) rc = tc_error_set(err, TC_EFAIL, "MPI's own collective failed");
    double dt = MPI_Wtime() - t0;
    if (i >= c->o->warmup) t[i - c->o->warmup] = dt;
  }
  if (!rc) MPI_Reduce(t, t + iters, (int)iters, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  if (!rc && c->rank == 0) {
    const double *s = t + iters;
    qsort(t + iters, (size_t)iters, sizeof *t, cmp_double);
    out->median = iters % 2 ? s[iters / 2] : (s[iters / 2 - 1] + s[iters / 2]) / 2;
    out->min = s[0];
    out->max = s[iters - 1];
  }
  free(t);
  return rc;
}

/* Compare the two results; returns the number of elements that differ over all ranks (on
   every rank), and prints the first one on rank 0 when there is any. */
static long long compare(const exec_ctx *c, const exec_size *z) {
  long long bad = -1, wrong = 0, total = 0;
  const char *ours = z->work[0] + (size_t)z->result_at * z->elt, *mpis = z->work[1] + (size_t)z->result_at * z->elt;
  if (memcmp(ours, mpis, (size_t)z->nout * z->elt)) /* the common case costs one memcmp */
    for (long long i = 0; i < z->nout; i++)
      if (memcmp(ours + (size_t)i * z->elt, mpis + (size_t)i * z->elt, z->elt)) {
        if (bad < 0) bad = i;
        wrong++;
      }
  MPI_Allreduce(&wrong, &total, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
  struct {
    int ok, rank;
  } mine = {bad < 0, c->rank}, first;
  MPI_Allreduce(&mine, &first, 1, MPI_2INT, MPI_MINLOC, MPI_COMM_WORLD);
  if (first.ok) return 0;
  char line[256] = "";
  if (c->rank == first.rank) {
    char a[64], b[64];
    describe(a, sizeof a, z->work[0], z->result_at + bad, c->o->type);
    describe(b, sizeof b, z->work[1], z->result_at + bad, c->o->type);
    snprintf(line, sizeof line, "size %lld%s: rank %d: element %lld of the result differs: topocoll %s, MPI %s",
             (long long)z->bytes, c->inplace ? " in place" : "", c->rank, bad, a, b);
  }
  MPI_Bcast(line, (int)sizeof line, MPI_CHAR, first.rank, MPI_COMM_WORLD);
  if (c->rank == 0) fprintf(stderr, "topocoll-exec: %s\n", line);
  return total;
}

/* Count, element counts and bytes for a requested size. */
static int size_for(const exec_ctx *c, int64_t requested, exec_size *z, tc_error *err) {
  memset(z, 0, sizeof *z);
  z->elt = (size_t)exec_types[c->o->type].size;
  int64_t per = tc_program_count_per_rank(c->coll) ? (int64_t)z->elt * c->ranks : (int64_t)z->elt;
  z->count = requested / per > 0 ? requested / per : 1;
  z->bytes = (int64_t)z->count * per;
  if (c->o->only != ONLY_TOPOCOLL && z->count > INT_MAX)
    return tc_error_set(err, TC_EINPUT, "size %lld: %lld elements per call exceed MPI's int count (use --only "
                        "topocoll)", (long long)requested, z->count);
  long long whole = z->bytes / (long long)z->elt;
  int root = c->rank == tc_mpi_plan_root(c->plan), dest = c->rank == tc_mpi_plan_dest(c->plan);
  switch (c->coll) { /* this rank's input and result; none where MPI ignores the buffer */
    case TC_COLL_REDUCE_SCATTER: z->nin = whole, z->nout = z->count; break;
    case TC_COLL_ALLGATHER: z->nin = z->count, z->nout = whole; break;
    case TC_COLL_ALLTOALL: z->nin = z->nout = whole; break;
    case TC_COLL_REDUCE: z->nin = z->count, z->nout = root ? z->count : 0; break;
    case TC_COLL_SCATTER: z->nin = root ? whole : 0, z->nout = z->count; break;
    case TC_COLL_GATHER: z->nin = z->count, z->nout = root ? whole : 0; break;
    case TC_COLL_P2P: z->nin = root ? z->count : 0, z->nout = dest ? z->count : 0; break;
    default: z->nin = z->nout = z->count; /* allreduce, broadcast */
  }
  /* An in-place scatter's root finds its block where it is in the send buffer. */
  z->result_at = c->coll == TC_COLL_SCATTER && call_inplace(c) ? (long long)c->rank * z->count : 0;
  z->work_bytes = (size_t)whole * z->elt; /* room for the in-place layout too */
  return TC_OK;
}

static int alloc_size(const exec_ctx *c, exec_size *z, tc_error *err) {
  int shared = !c->o->compute;
  z->input = big_alloc((size_t)z->nin * z->elt, shared);
  int fail = !z->input;
  for (int w = 0; w < 2; w++) {
    int used = w == 0 ? c->o->only != ONLY_MPI : c->o->only != ONLY_TOPOCOLL;
    if (used && !(z->work[w] = big_alloc(z->work_bytes, shared))) fail = 1;
  }
  if (fail) return tc_error_set(err, TC_ENOMEM, "out of memory for size %lld", (long long)z->bytes);
  if (!c->o->compute) return TC_OK; /* dummy data */
  fill(z->input, z->nin, c->o->type, c->rank, 0);
  return TC_OK;
}

static void free_size(const exec_ctx *c, exec_size *z) {
  big_free(z->input, !c->o->compute);
  for (int w = 0; w < 2; w++) big_free(z->work[w], !c->o->compute);
}

/* One side's three time fields, from `prefix` ("" or "mpi_"), or nulls when it did not run. */
static void print_times(char *out, size_t room, const char *prefix, int ran, const side_times *t) {
  if (ran)
    snprintf(out, room, "\"%stime_s\": %.9g, \"%stime_min_s\": %.9g, \"%stime_max_s\": %.9g", prefix, t->median,
             prefix, t->min, prefix, t->max);
  else snprintf(out, room, "\"%stime_s\": null, \"%stime_min_s\": null, \"%stime_max_s\": null", prefix, prefix, prefix);
}

/* One size in one variant (c->inplace): returns TC_OK (with *mismatch set when the results
   differed) or an agreed error. */
static int run_variant(const exec_ctx *c, int64_t requested, int *mismatch, tc_error *err) {
  exec_size z;
  int rc = size_for(c, requested, &z, err);
  if (!rc) rc = alloc_size(c, &z, err);
  if ((rc = tci_run_agree(MPI_COMM_WORLD, rc, NULL, err))) {
    free_size(c, &z);
    return rc;
  }
  side_times t_tc = {0, 0, 0}, t_mpi = {0, 0, 0};
  int run_tc = c->o->only != ONLY_MPI, run_mpi = c->o->only != ONLY_TOPOCOLL;
  if (run_tc) rc = time_side(c, &z, 0, &t_tc, err);
  if (!rc && run_mpi) rc = time_side(c, &z, 1, &t_mpi, err);
  *mismatch = 0;
  long long wrong = 0;
  if (!rc && c->o->check) *mismatch = (wrong = compare(c, &z)) != 0;
  if (!rc && c->rank == 0) {
    char a[128], b[128], w[32];
    print_times(a, sizeof a, "", run_tc, &t_tc);
    print_times(b, sizeof b, "mpi_", run_mpi, &t_mpi);
    if (c->o->check) snprintf(w, sizeof w, "%lld", wrong);
    else snprintf(w, sizeof w, "null");
    printf("{\"size_bytes\": %lld, \"count\": %lld, \"inplace\": %s, %s, %s, \"wrong\": %s, \"verified\": %s}\n",
           (long long)z.bytes, z.count, c->inplace ? "true" : "false", a, b, w,
           !c->o->check ? "null" : *mismatch ? "false" : "true");
    fflush(stdout);
  }
  free_size(c, &z);
  return rc;
}

/* One size: out of place, then in place, as --inplace asks and the collective has. */
static int run_size(exec_ctx *c, int64_t requested, int *mismatch, tc_error *err) {
  int rc = TC_OK;
  *mismatch = 0;
  for (int v = 0; v < 2 && !rc; v++) {
    int bad = 0;
    if (!(c->o->variants & (v ? VARIANT_IN : VARIANT_OUT)) || (v && !tc_program_has_inplace(c->coll))) continue;
    c->inplace = v;
    rc = run_variant(c, requested, &bad, err);
    *mismatch |= bad;
  }
  return rc;
}

/* ---- main ------------------------------------------------------------------------------------ */

/* Bad usage, and a plan that cannot be read or used, is the user's to fix: 2. */
static int exit_status(int code, int loading) { return code == TC_EINPUT || (loading && code == TC_EIO) ? 2 : 1; }

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  exec_ctx c = {0};
  MPI_Comm_rank(MPI_COMM_WORLD, &c.rank);
  MPI_Comm_size(MPI_COMM_WORLD, &c.ranks);
  exec_opts o;
  tc_error err;
  tc_error_clear(&err);
  int status = 0, loading = 0;
  int rc = parse_opts(argc, argv, &o, &err); /* the same arguments on every rank */
  if (!rc && o.help) {
    if (c.rank == 0) usage();
  } else if (!rc) {
    c.o = &o;
    c.type = mpi_type(o.type);
    c.op = mpi_op(o.op);
    rc = tc_mpi_plan_load_mapped(o.plan, o.rank_map, MPI_COMM_WORLD, o.trusted ? TC_MPI_TRUSTED : 0, &c.plan, &err);
    loading = rc != TC_OK;
    if (!rc && o.variants == VARIANT_IN && !tc_program_has_inplace(tc_mpi_plan_collective(c.plan))) {
      rc = tc_error_set(&err, TC_EINPUT, "--inplace 1: %s has no in-place form in MPI (run it with --inplace 0)",
                        tc_collective_name(tc_mpi_plan_collective(c.plan)));
      tc_mpi_plan_destroy(c.plan);
    } else if (!rc) {
      c.coll = tc_mpi_plan_collective(c.plan);
      if (!o.compute) tc_mpi_plan_set_compute(c.plan, 0);
      for (int i = 0; i < o.nsizes && !rc; i++) {
        int mismatch = 0;
        rc = run_size(&c, o.sizes[i], &mismatch, &err);
        if (mismatch) status = 1;
      }
      tc_mpi_plan_destroy(c.plan);
    }
  }
  if (rc) {
    if (c.rank == 0) fprintf(stderr, "topocoll-exec: %s\n", err.msg);
    status = exit_status(rc, loading);
  }
  free(o.sizes);
  MPI_Finalize();
  return status;
}
