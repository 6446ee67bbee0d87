/*
** mpi_collectives.c — the MPI executor (run_mpi.h) against the MPI library's own
** collectives, bit for bit. Run under mpirun: mpi_collectives PLAN.json...
**
** For every plan, the plan's collective runs at counts 0, 1, 2, around the chunk count
** (one less, one more, not a multiple: uneven and empty chunks), and larger ones, for
** every datatype (MPI_INT32_T, MPI_INT64_T, MPI_FLOAT, MPI_DOUBLE; MPI_INT and MPI_LONG
** once), every op (sum, max, min; allgather and alltoall have none) out of place and, the
** ops taking turns, in place (the rooted collectives: MPI_IN_PLACE at the root, NULL for
** the buffers MPI ignores elsewhere), and
** each result must equal MPI_Allgather / MPI_Reduce_scatter_block / MPI_Allreduce /
** MPI_Alltoall / MPI_Bcast / MPI_Reduce / MPI_Scatter / MPI_Gather (p2p: MPI_Send and
** MPI_Recv) on the same input byte for byte. Inputs are integer-valued and small, so every float sum is
** exact and any order of summation gives the same bits. A guard zone after each result
** must come back untouched. Then the same with messages cut into pieces of at most 5
** elements (tci_run_plan_set_msg_max), which must give the same bits too — also on plans
** with redundant receives, whose lengths the receivers learn at load (tci_run_plan_match):
** such a plan says so in its line ("redundant receives split"), which mpi_baselines.sh
** checks of the plans made to have them.
** The lowest failing rank prints the first mismatch (plan, case, element, both values);
** the exit status is 1 on every rank then.
*/
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run/run_internal.h"
#include "topocoll/run_mpi.h"

#define GUARD_BYTES 64
#define GUARD_BYTE 0xA5

typedef struct dtype {
  MPI_Datatype type;
  const char *name;
  int size, is_float;
} dtype;

typedef struct tcase {
  long long count;
  dtype t;
  MPI_Op op;
  const char *op_name;
  int inplace;
} tcase;

static int rank, nranks;

/* A small integer-valued element of rank r at index i: sums of up to 2^10 ranks stay
   exact in every type. */
static int64_t value(int r, long long i, int salt) {
  uint64_t h = (uint64_t)r * 0x9E3779B97F4A7C15u ^ ((uint64_t)i + (uint64_t)salt * 0x632BE59BD9B4E019u);
  h ^= h >> 31;
  h *= 0xBF58476D1CE4E5B9u;
  h ^= h >> 29;
  return (int64_t)(h % 2001) - 1000;
}

static void fill(void *buf, long long n, const dtype *t, int r, long long first, int salt) {
  for (long long i = 0; i < n; i++) {
    int64_t v = value(r, first + i, salt);
    switch (t->size * 2 + t->is_float) {
      case 8: ((int32_t *)buf)[i] = (int32_t)v; break;
      case 16: ((int64_t *)buf)[i] = v * 1000003; break; /* exercise the high bits */
      case 9: ((float *)buf)[i] = (float)v; break;
      default: ((double *)buf)[i] = (double)v * 4096.0;
    }
  }
}

static void describe(char *out, size_t room, const void *buf, long long i, const dtype *t) {
  switch (t->size * 2 + t->is_float) {
    case 8: snprintf(out, room, "%d", ((const int32_t *)buf)[i]); break;
    case 16: snprintf(out, room, "%lld", (long long)((const int64_t *)buf)[i]); break;
    case 9: snprintf(out, room, "%.9g", ((const float *)buf)[i]); break;
    default: snprintf(out, room, "%.17g", ((const double *)buf)[i]);
  }
}

/* Elements of this rank's input and of its result for `count` (the rooted collectives:
   none where MPI's call ignores the buffer). */
static void sizes(const tc_mpi_plan *plan, long long count, long long *in, long long *out) {
  tc_collective coll = tc_mpi_plan_collective(plan);
  int root = rank == tc_mpi_plan_root(plan), dest = rank == tc_mpi_plan_dest(plan);
  long long all = count * nranks;
  switch (coll) {
    case TC_COLL_ALLGATHER: *in = count, *out = all; break;
    case TC_COLL_REDUCE_SCATTER: *in = all, *out = count; break;
    case TC_COLL_ALLTOALL: *in = *out = all; break;
    case TC_COLL_REDUCE: *in = count, *out = root ? count : 0; break;
    case TC_COLL_SCATTER: *in = root ? all : 0, *out = count; break;
    case TC_COLL_GATHER: *in = count, *out = root ? all : 0; break;
    case TC_COLL_P2P: *in = root ? count : 0, *out = dest ? count : 0; break;
    default: *in = *out = count; /* allreduce, broadcast */
  }
}

/* MPI's own collective; broadcast works in `out`, which holds the root's input. */
static int mpi_reference(const tc_mpi_plan *plan, const void *in, void *out, const tcase *c) {
  int n = (int)c->count, root = tc_mpi_plan_root(plan);
  switch (tc_mpi_plan_collective(plan)) {
    case TC_COLL_ALLGATHER: return MPI_Allgather(in, n, c->t.type, out, n, c->t.type, MPI_COMM_WORLD);
    case TC_COLL_REDUCE_SCATTER: return MPI_Reduce_scatter_block(in, out, n, c->t.type, c->op, MPI_COMM_WORLD);
    case TC_COLL_ALLTOALL: return MPI_Alltoall(in, n, c->t.type, out, n, c->t.type, MPI_COMM_WORLD);
    case TC_COLL_BROADCAST: return MPI_Bcast(out, n, c->t.type, root, MPI_COMM_WORLD);
    case TC_COLL_REDUCE: return MPI_Reduce(in, out, n, c->t.type, c->op, root, MPI_COMM_WORLD);
    case TC_COLL_SCATTER: return MPI_Scatter(in, n, c->t.type, out, n, c->t.type, root, MPI_COMM_WORLD);
    case TC_COLL_GATHER: return MPI_Gather(in, n, c->t.type, out, n, c->t.type, root, MPI_COMM_WORLD);
    case TC_COLL_P2P:
      if (rank == root) return MPI_Send(in, n, c->t.type, tc_mpi_plan_dest(plan), 99, MPI_COMM_WORLD);
      if (rank == tc_mpi_plan_dest(plan))
        return MPI_Recv(out, n, c->t.type, root, 99, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      return MPI_SUCCESS;
    default: return MPI_Allreduce(in, out, n, c->t.type, c->op, MPI_COMM_WORLD);
  }
}

static int executor(tc_mpi_plan *plan, const void *in, void *out, const tcase *c, tc_error *err) {
  int root = tc_mpi_plan_root(plan);
  switch (tc_mpi_plan_collective(plan)) {
    case TC_COLL_ALLGATHER: return tc_mpi_allgather(plan, in, out, c->count, c->t.type, err);
    case TC_COLL_REDUCE_SCATTER: return tc_mpi_reduce_scatter(plan, in, out, c->count, c->t.type, c->op, err);
    case TC_COLL_ALLTOALL: return tc_mpi_alltoall(plan, in, out, c->count, c->t.type, err);
    case TC_COLL_BROADCAST: return tc_mpi_bcast(plan, out, c->count, c->t.type, root, err);
    case TC_COLL_REDUCE: return tc_mpi_reduce(plan, in, out, c->count, c->t.type, c->op, root, err);
    case TC_COLL_SCATTER: return tc_mpi_scatter(plan, in, out, c->count, c->t.type, root, err);
    case TC_COLL_GATHER: return tc_mpi_gather(plan, in, out, c->count, c->t.type, root, err);
    case TC_COLL_P2P: return tc_mpi_p2p(plan, in, out, c->count, c->t.type, err);
    default: return tc_mpi_allreduce(plan, in, out, c->count, c->t.type, c->op, err);
  }
}

/* Run one case; on failure write the reason into msg and return 1 (the executor's own
   error is the same on every rank; a mismatch is this rank's). *expected_error: when not
   NULL, the executor must fail with a message containing it instead. In place, the
   rooted collectives pass MPI_IN_PLACE at the root only (MPI's rule), and the buffers MPI
   ignores off the root are NULL, which the executor must never touch. */
static int run_case(tc_mpi_plan *plan, const tcase *c, const char *expected_error, char *msg, size_t room) {
  tc_collective coll = tc_mpi_plan_collective(plan);
  int is_root = rank == tc_mpi_plan_root(plan);
  long long nin, nout;
  sizes(plan, c->count, &nin, &nout);
  size_t esz = (size_t)c->t.size, work_elems = (size_t)(nin > nout ? nin : nout);
  char *in = malloc(esz * (size_t)nin + 1), *ref = malloc(esz * (size_t)nout + 1);
  char *got = malloc(esz * work_elems + GUARD_BYTES);
  int failed = 0;
  if (!in || !ref || !got) {
    snprintf(msg, room, "out of memory");
    failed = 1;
    goto done;
  }
  int salt = (int)(c->count % 7) + c->inplace;
  long long first = coll == TC_COLL_ALLGATHER || coll == TC_COLL_GATHER ? (long long)rank * c->count : 0;
  fill(in, nin, &c->t, rank, first, salt);
  memset(ref, 0x3C, esz * (size_t)nout);
  if (coll == TC_COLL_BROADCAST) memcpy(ref, in, esz * (size_t)nin); /* every rank's own: the root's wins */
  if (mpi_reference(plan, in, ref, c) != MPI_SUCCESS) {
    snprintf(msg, room, "MPI's own collective failed");
    failed = 1;
    goto done;
  }
  memset(got, 0x5C, esz * work_elems); /* garbage where the result goes */
  memset(got + esz * work_elems, GUARD_BYTE, GUARD_BYTES);
  const void *send = in;
  void *recv = got;
  size_t result_at = 0; /* elements into got where the result is */
  int rooted = tc_program_rooted(coll) && coll != TC_COLL_P2P;
  int inplace = c->inplace && coll != TC_COLL_P2P && coll != TC_COLL_BROADCAST && (!rooted || is_root);
  if (coll == TC_COLL_BROADCAST && is_root) memcpy(got, in, esz * (size_t)nin);
  if (inplace && coll == TC_COLL_SCATTER) { /* the root's block stays in its send buffer */
    memcpy(got, in, esz * (size_t)nin);
    send = got;
    recv = TC_MPI_IN_PLACE;
    result_at = (size_t)rank * (size_t)c->count;
  } else if (inplace) {
    send = TC_MPI_IN_PLACE;
    size_t at = coll == TC_COLL_ALLGATHER || coll == TC_COLL_GATHER ? (size_t)rank * (size_t)c->count * esz : 0;
    memcpy(got + at, in, esz * (size_t)nin);
  }
  if (rooted && !is_root && coll != TC_COLL_BROADCAST) { /* what MPI ignores off the root */
    if (coll == TC_COLL_SCATTER) send = NULL;
    else recv = NULL;
  }
  if (coll == TC_COLL_P2P && nin == 0) send = NULL;
  if (coll == TC_COLL_P2P && nout == 0) recv = NULL;
  tc_error err;
  int rc = executor(plan, send, recv, c, &err);
  if (expected_error) {
    if (rc == TC_OK || !strstr(err.msg, expected_error)) {
      snprintf(msg, room, "expected the error '%s', got %s", expected_error, rc ? err.msg : "success");
      failed = 1;
    }
    goto done;
  }
  if (rc) {
    snprintf(msg, room, "executor failed: %s", err.msg);
    failed = 1;
    goto done;
  }
  for (long long i = 0; i < nout; i++)
    if (memcmp(got + (result_at + (size_t)i) * esz, ref + (size_t)i * esz, esz)) {
      char a[64], b[64];
      describe(a, sizeof a, got, (long long)result_at + i, &c->t);
      describe(b, sizeof b, ref, i, &c->t);
      snprintf(msg, room, "element %lld: executor %s, MPI %s", i, a, b);
      failed = 1;
      goto done;
    }
  for (size_t i = 0; i < GUARD_BYTES; i++)
    if ((unsigned char)got[esz * work_elems + i] != GUARD_BYTE) {
      snprintf(msg, room, "wrote past the end of its buffer (guard byte %zu)", i);
      failed = 1;
      break;
    }
done:
  free(in);
  free(ref);
  free(got);
  return failed;
}

/* Agree on a failure; the lowest failing rank prints. Returns 1 when any rank failed. */
static int report(const char *path, const tcase *c, int failed, const char *msg) {
  struct {
    int ok, rank;
  } mine = {!failed, rank}, first;
  MPI_Allreduce(&mine, &first, 1, MPI_2INT, MPI_MINLOC, MPI_COMM_WORLD);
  if (first.ok) return 0;
  if (rank == first.rank)
    fprintf(stderr, "mpi_collectives: %s: rank %d: count %lld, %s, %s, %s: %s\n", path, rank, c->count, c->t.name,
            c->op_name, c->inplace ? "in place" : "out of place", msg);
  return 1;
}

static int run_plan(const char *path) {
  tc_mpi_plan *plan = NULL;
  tc_error err;
  if (tc_mpi_plan_load(path, MPI_COMM_WORLD, 0, &plan, &err)) {
    if (rank == 0) fprintf(stderr, "mpi_collectives: %s: %s\n", path, err.msg);
    return 1;
  }
  tc_collective coll = tc_mpi_plan_collective(plan);
  const dtype types[] = {{MPI_INT32_T, "int32", 4, 0}, {MPI_INT64_T, "int64", 8, 0},
                         {MPI_FLOAT, "float", 4, 1},   {MPI_DOUBLE, "double", 8, 1},
                         {MPI_INT, "MPI_INT", (int)sizeof(int), 0}, {MPI_LONG, "MPI_LONG", (int)sizeof(long), 0}};
  const MPI_Op ops[] = {MPI_SUM, MPI_MAX, MPI_MIN};
  const char *op_names[] = {"sum", "max", "min"};
  int noop = coll != TC_COLL_REDUCE_SCATTER && coll != TC_COLL_ALLREDUCE && coll != TC_COLL_REDUCE;
  int nops = noop ? 1 : 3;
  /* Counts: a whole collective (allreduce, broadcast, reduce, p2p) has nchunks chunks; per
     rank (allgather, reduce-scatter, scatter, gather) or per destination (alltoall) a
     block is one shard of `units` chunks. */
  int whole = coll == TC_COLL_ALLREDUCE || coll == TC_COLL_BROADCAST || coll == TC_COLL_REDUCE || coll == TC_COLL_P2P;
  long long unit = whole ? (long long)plan->nchunks : (long long)plan->units;
  long long small[] = {0, 1, 2, unit - 1, unit, unit + 1, 2 * unit + 3}, large[] = {3001, 40009};
  int cases = 0, failed = 0;
  for (size_t k = 0; k < sizeof small / sizeof *small && !failed; k++) {
    if (small[k] < 0 || (k > 0 && small[k] <= small[k - 1])) continue;
    for (int t = 0; t < 4 && !failed; t++)
      for (int o = 0; o <= nops && !failed; o++) {
        /* every op out of place, then in place with the ops taking turns */
        int inplace = o == nops, op = inplace ? (t + (int)k) % nops : o;
        tcase c = {small[k], types[t], ops[op], noop ? "no op" : op_names[op], inplace};
        char msg[1024] = "";
        failed = report(path, &c, run_case(plan, &c, NULL, msg, sizeof msg), msg);
        cases++;
      }
  }
  /* Larger counts, and the datatype aliases, on a few combinations. */
  for (size_t k = 0; k < sizeof large / sizeof *large && !failed; k++)
    for (int v = 0; v < 4 && !failed; v++) {
      int t = (int[]){0, 3, 4, 5}[v], o = v % nops;
      tcase c = {large[k], types[t], ops[o], noop ? "no op" : op_names[o], v & 1};
      char msg[1024] = "";
      failed = report(path, &c, run_case(plan, &c, NULL, msg, sizeof msg), msg);
      cases++;
    }
  /* Messages cut into pieces of at most 5 elements. */
  int redundant = 0, any_redundant = 0;
  for (int64_t i = 0; i < plan->nops; i++)
    redundant |= plan->ops[i].kind == TC_OP_RECV && plan->ops[i].dst.buf == TC_BUF_SCRATCH &&
                 plan->ops[i].dst.off >= plan->redundant_off;
  MPI_Allreduce(&redundant, &any_redundant, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  tci_run_plan_set_msg_max(plan, 5);
  for (int inplace = 0; inplace < 2 && !failed; inplace++) {
    tcase c = {unit * 7 + 3, types[0], ops[0], noop ? "no op" : "sum", inplace};
    char msg[1024] = "";
    failed = report(path, &c, run_case(plan, &c, NULL, msg, sizeof msg), msg);
    cases++;
  }
  char rootinfo[48] = "";
  if (tc_mpi_plan_root(plan) >= 0)
    snprintf(rootinfo, sizeof rootinfo, coll == TC_COLL_P2P ? ", %d -> %d" : ", root %d", tc_mpi_plan_root(plan),
             tc_mpi_plan_dest(plan));
  if (!failed && rank == 0)
    printf("mpi_collectives: %s: %s %s on %d ranks%s: %d cases equal MPI's%s\n", path, tc_collective_name(coll),
           tc_mpi_plan_algorithm(plan), nranks, rootinfo, cases, any_redundant ? " (redundant receives split)" : "");
  tc_mpi_plan_destroy(plan);
  return failed;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &nranks);
  int failed = argc < 2;
  if (argc < 2 && rank == 0) fprintf(stderr, "usage: mpi_collectives PLAN.json...\n");
  for (int i = 1; i < argc && !failed; i++) failed = run_plan(argv[i]);
  MPI_Finalize();
  return failed;
}
