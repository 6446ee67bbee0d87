/*
** mpi_errors.c — every error of the MPI executor reaches every rank, with the same code
** and message, and nobody hangs (mpi_errors.sh runs this under a deadline).
**   mpi_errors AR.json AG.json WRONG_SIZE.json TRUNCATED.json INVALID.json BROADCAST.json
** AR.json / AG.json: valid allreduce / allgather plans for this many ranks; WRONG_SIZE.json
** a valid plan for another number of ranks; TRUNCATED.json a cut-off file; INVALID.json a
** well-formed file whose schedule the verifier rejects; BROADCAST.json a valid broadcast
** schedule with root 1. Checked on every rank:
**   loading  WRONG_SIZE   TC_EINPUT "rank 0: ...: the schedule is for X nodes but the
**                         communicator has N ranks"
**            TRUNCATED    TC_EINPUT "rank 0: TRUNCATED.json:" (the JSON reader's line)
**            INVALID      TC_EINPUT "rank 0: ...: invalid schedule: "
**            a file only the last rank cannot read: TC_EIO "rank N-1: cannot read"
**            another valid plan on the last rank: TC_EINPUT "rank N-1: ...: this rank read
**            another schedule than rank 0"
**            an intercommunicator: TC_EINPUT "...: a plan needs an intracommunicator"
**   calls    count overflowing N*count (allgather) and the byte offsets (allreduce),
**            an unsupported datatype and op, the wrong collective for the plan, a NULL
**            buffer, and a negative count passed by one rank only ("rank 1: negative
**            count" on all ranks), a broadcast naming another root than its plan's,
**            MPI_IN_PLACE off the root — each TC_EINPUT with its message;
**   after all that the plans still work: one allreduce, one allgather and one broadcast
**   equal MPI's.
** Every failed check is printed by the rank that saw it; the exit status is then 1 on
** every rank.
*/
#include <limits.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "topocoll/run_mpi.h"

static int rank, nranks, failures;

/* rc and err must be `code` and contain "rank R: " then `text`. */
static void expect(const char *what, int rc, const tc_error *err, int code, int from_rank, const char *text) {
  char prefix[32];
  snprintf(prefix, sizeof prefix, "rank %d: ", from_rank);
  if (rc == code && strncmp(err->msg, prefix, strlen(prefix)) == 0 && strstr(err->msg, text)) return;
  failures++;
  fprintf(stderr, "mpi_errors: rank %d: %s: got code %d \"%s\", expected code %d \"%s...%s...\"\n", rank, what, rc,
          rc ? err->msg : "", code, prefix, text);
}

static void expect_load(const char *what, const char *path, int code, int from_rank, const char *text) {
  tc_mpi_plan *plan = (tc_mpi_plan *)&plan; /* must come back NULL */
  tc_error err;
  int rc = tc_mpi_plan_load(path, MPI_COMM_WORLD, 0, &plan, &err);
  expect(what, rc, &err, code, from_rank, text);
  if (plan) {
    failures++;
    fprintf(stderr, "mpi_errors: rank %d: %s: the plan pointer was not cleared\n", rank, what);
  }
}

static tc_mpi_plan *load(const char *path) {
  tc_mpi_plan *plan = NULL;
  tc_error err;
  if (tc_mpi_plan_load(path, MPI_COMM_WORLD, 0, &plan, &err)) {
    fprintf(stderr, "mpi_errors: rank %d: %s: %s\n", rank, path, err.msg);
    failures++;
  }
  return plan;
}

static void load_errors(char **argv) {
  char msg[128];
  snprintf(msg, sizeof msg, "but the communicator has %d ranks", nranks);
  expect_load("wrong size", argv[3], TC_EINPUT, 0, msg);
  snprintf(msg, sizeof msg, "%s:", argv[4]);
  expect_load("truncated file", argv[4], TC_EINPUT, 0, msg);
  expect_load("invalid schedule", argv[5], TC_EINPUT, 0, ": invalid schedule: ");
  /* Only the last rank is given a file that does not exist. */
  const char *path = rank == nranks - 1 ? "/nonexistent/plan.json" : argv[1];
  expect_load("file missing on one rank", path, TC_EIO, nranks - 1, "cannot read /nonexistent/plan.json");
  /* The last rank reads another valid plan of the right size. */
  path = rank == nranks - 1 ? argv[2] : argv[1];
  snprintf(msg, sizeof msg, "%s: this rank read another schedule than rank 0", argv[2]);
  expect_load("a different file on one rank", path, TC_EINPUT, nranks - 1, msg);
  /* An intercommunicator (between the even and the odd ranks) is refused on every rank
     without any communication. */
  MPI_Comm half, inter;
  MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half);
  MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, rank % 2 ? 0 : 1, 7, &inter);
  tc_mpi_plan *plan = NULL;
  tc_error err;
  int rc = tc_mpi_plan_load(argv[1], inter, 0, &plan, &err);
  if (rc != TC_EINPUT || !strstr(err.msg, "a plan needs an intracommunicator") || plan) {
    failures++;
    fprintf(stderr, "mpi_errors: rank %d: intercommunicator: got %d \"%s\"\n", rank, rc, rc ? err.msg : "");
  }
  MPI_Comm_free(&inter);
  MPI_Comm_free(&half);
}

static void call_errors(tc_mpi_plan *ar, tc_mpi_plan *ag, tc_mpi_plan *bc) {
  int buf[4] = {0}, out[4] = {0};
  tc_error err;
  int rc = tc_mpi_allgather(ag, buf, out, LLONG_MAX / 2, MPI_INT, &err);
  expect("allgather count overflow", rc, &err, TC_EINPUT, 0, "overflows 64 bits");
  rc = tc_mpi_allreduce(ar, buf, out, LLONG_MAX / 4, MPI_INT, MPI_SUM, &err);
  expect("allreduce count overflow", rc, &err, TC_EINPUT, 0, "is too large");
  rc = tc_mpi_allreduce(ar, buf, out, 4, MPI_UNSIGNED, MPI_SUM, &err);
  expect("unsupported datatype", rc, &err, TC_EINPUT, 0, "unsupported datatype MPI_UNSIGNED");
  rc = tc_mpi_allreduce(ar, buf, out, 4, MPI_INT, MPI_PROD, &err);
  expect("unsupported op", rc, &err, TC_EINPUT, 0, "unsupported MPI_Op");
  rc = tc_mpi_allgather(ar, buf, out, 1, MPI_INT, &err);
  expect("wrong collective", rc, &err, TC_EINPUT, 0, "the plan is for allreduce, not allgather");
  rc = tc_mpi_reduce_scatter(ag, buf, out, 1, MPI_INT, MPI_SUM, &err);
  expect("wrong collective", rc, &err, TC_EINPUT, 0, "the plan is for allgather, not reduce-scatter");
  rc = tc_mpi_allreduce(ar, buf, NULL, 4, MPI_INT, MPI_SUM, &err);
  expect("NULL buffer", rc, &err, TC_EINPUT, 0, "NULL recvbuf with count 4");
  rc = tc_mpi_allreduce(ar, buf, out, rank == 1 ? -3 : 4, MPI_INT, MPI_SUM, &err);
  expect("one rank's negative count", rc, &err, TC_EINPUT, 1, "negative count -3");
  rc = tc_mpi_bcast(bc, buf, 4, MPI_INT, 0, &err);
  expect("another root", rc, &err, TC_EINPUT, 0, "the plan's broadcast root is rank 1, not 0");
  rc = tc_mpi_allreduce(bc, buf, out, 4, MPI_INT, MPI_SUM, &err);
  expect("wrong collective", rc, &err, TC_EINPUT, 0, "the plan is for broadcast, not allreduce");
  rc = tc_mpi_bcast(bc, rank == 1 ? buf : NULL, 4, MPI_INT, 1, &err);
  expect("NULL buffer off the root", rc, &err, TC_EINPUT, 0, "NULL recvbuf with count 4");
}

/* The plans still work after all the refusals. */
static void still_works(tc_mpi_plan *ar, tc_mpi_plan *ag, tc_mpi_plan *bc) {
  enum { COUNT = 37 };
  int in[COUNT], got[COUNT], want[COUNT];
  int *gathered = malloc(sizeof *gathered * COUNT * (size_t)nranks);
  int *reference = malloc(sizeof *reference * COUNT * (size_t)nranks);
  for (int i = 0; i < COUNT; i++) in[i] = rank * 1000 + i;
  tc_error err;
  if (tc_mpi_allreduce(ar, in, got, COUNT, MPI_INT, MPI_SUM, &err) ||
      tc_mpi_allgather(ag, in, gathered, COUNT, MPI_INT, &err)) {
    failures++;
    fprintf(stderr, "mpi_errors: rank %d: after the errors: %s\n", rank, err.msg);
  } else {
    MPI_Allreduce(in, want, COUNT, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allgather(in, COUNT, MPI_INT, reference, COUNT, MPI_INT, MPI_COMM_WORLD);
    if (memcmp(got, want, sizeof got) || memcmp(gathered, reference, sizeof *gathered * COUNT * (size_t)nranks)) {
      failures++;
      fprintf(stderr, "mpi_errors: rank %d: after the errors the results differ from MPI's\n", rank);
    }
  }
  free(gathered);
  free(reference);
  int sent[COUNT], expected[COUNT];
  for (int i = 0; i < COUNT; i++) sent[i] = expected[i] = rank == 1 ? 7 * i - 50 : -1;
  MPI_Bcast(expected, COUNT, MPI_INT, 1, MPI_COMM_WORLD);
  if (tc_mpi_bcast(bc, sent, COUNT, MPI_INT, 1, &err)) {
    failures++;
    fprintf(stderr, "mpi_errors: rank %d: broadcast after the errors: %s\n", rank, err.msg);
  } else if (memcmp(sent, expected, sizeof sent)) {
    failures++;
    fprintf(stderr, "mpi_errors: rank %d: after the errors the broadcast differs from MPI's\n", rank);
  }
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &nranks);
  if (argc != 7 || nranks < 2) {
    if (rank == 0) fprintf(stderr, "usage: mpi_errors AR AG WRONG_SIZE TRUNCATED INVALID BROADCAST (2+ ranks)\n");
    MPI_Finalize();
    return 2;
  }
  load_errors(argv);
  tc_mpi_plan *ar = load(argv[1]), *ag = load(argv[2]), *bc = load(argv[6]);
  if (ar && ag && bc) {
    call_errors(ar, ag, bc);
    still_works(ar, ag, bc);
  }
  tc_mpi_plan_destroy(ar);
  tc_mpi_plan_destroy(ag);
  tc_mpi_plan_destroy(bc);
  int any = 0;
  MPI_Allreduce(&failures, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  if (rank == 0 && !any) printf("mpi_errors: every error reached all %d ranks\n", nranks);
  MPI_Finalize();
  return any ? 1 : 0;
}
