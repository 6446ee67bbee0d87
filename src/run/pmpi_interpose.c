/*
** pmpi_interpose.c — libtopocoll_pmpi.so: serve MPI_Allreduce, MPI_Allgather,
** MPI_Reduce_scatter_block, MPI_Alltoall, MPI_Bcast, MPI_Reduce, MPI_Scatter and
** MPI_Gather of an unmodified MPI program from topocoll plans.
**
**   mpirun -x LD_PRELOAD=libtopocoll_pmpi.so -x TOPOCOLL_PLANS=ar.json:ag.json ./app
**
** TOPOCOLL_PLANS is a list of schedule JSON files separated by ':' or ','. At MPI_Init /
** MPI_Init_thread (both intercepted; PMPI_Init* runs first) every plan whose node count
** equals MPI_COMM_WORLD's size is loaded on MPI_COMM_WORLD (tc_mpi_plan_load, verified);
** a plan of another size is skipped (a warning with TOPOCOLL_VERBOSE=1), so one list can
** name plans for several job sizes. A plan that fails to load for any other reason gets
** one warning line and is not used; a second plan for an already served collective (for
** broadcast, reduce, scatter and gather: collective and root — one plan per root) is
** skipped, and a p2p plan is not used (MPI has no collective it could serve). Loading
** never aborts the program, and whatever cannot be served falls back to the MPI library
** (PMPI_*).
** A call is served when its collective (and root) has a plan, its communicator is
** MPI_COMM_WORLD or congruent to it (MPI_Comm_compare IDENT / CONGRUENT; under
** MPI_THREAD_MULTIPLE only MPI_COMM_WORLD itself, whose collectives MPI forbids from
** running concurrently), its datatype and op are ones the executor takes (run_mpi.h), and,
** for MPI_Allgather, MPI_Alltoall, MPI_Scatter and MPI_Gather, sendcount == recvcount and
** sendtype == recvtype where both mean something (or MPI_IN_PLACE; off the root a
** scatter's send and a gather's receive arguments are ignored, as MPI does). These tests
** read each rank's own arguments, as MPI's rules make them agree: a program whose ranks
** describe one collective with different datatypes (legal in MPI when the type signatures
** match) must not be given a plan for it. If the executor refuses the call anyway (an
** argument error or no memory, agreed on by every rank before any message), PMPI does it;
** if an MPI call fails inside the executor, the communicator's error handler is called,
** as for any failed collective.
** Internal MPI calls of the executor and the loader reach PMPI directly (a thread-local
** guard), so they are neither served nor counted.
** TOPOCOLL_RANK_MAP, when set, is a plan's ranks.csv (rank_map.h) applied to every plan
** loaded (tc_mpi_plan_load_mapped): MPI rank r plays the node the file gives rank r, the
** results still being MPI's. A map that does not apply to a plan of the job's size (not
** that plan's wiring, a renumbering on a fabric or for scatter or gather) is the one load
** error that is not a warning: rank 0 prints "topocoll: TOPOCOLL_RANK_MAP: <why>; aborting
** (...)" and MPI_Abort ends the job with status 2 — falling back to MPI would quietly ignore
** the placement asked for.
** At MPI_Finalize the plans are freed (before PMPI_Finalize) and, with TOPOCOLL_VERBOSE=1,
** rank 0 prints one line: "topocoll: S calls served by topocoll (allreduce A, allgather G,
** reduce-scatter R, alltoall T, broadcast B, reduce D, scatter C, gather H), F fell back to
** MPI".
*/
#include <mpi.h>

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run/run_internal.h"
#include "topocoll/run_mpi.h"

enum {
  SLOT_ALLGATHER, SLOT_REDUCE_SCATTER, SLOT_ALLREDUCE, SLOT_ALLTOALL,
  SLOT_BCAST, SLOT_REDUCE, SLOT_SCATTER, SLOT_GATHER, NSLOTS
};

/* A slot's plans: one at most, or one per root for the rooted collectives. */
typedef struct slot_plans {
  tc_mpi_plan **v;
  int n;
} slot_plans;

typedef struct interposer {
  slot_plans plans[NSLOTS];
  long long served[NSLOTS], fell_back;
  int verbose, world_rank, thread_multiple, active;
} interposer;

static interposer state;
static _Thread_local int inside; /* in the executor or the loader: pass straight to PMPI */

static const char *const slot_names[NSLOTS] = {"allgather", "reduce-scatter", "allreduce", "alltoall",
                                               "broadcast", "reduce",         "scatter",   "gather"};

/* The slot of a collective; -1 for p2p, which no MPI collective is. */
static int slot_of(tc_collective c) {
  switch (c) {
    case TC_COLL_ALLGATHER: return SLOT_ALLGATHER;
    case TC_COLL_REDUCE_SCATTER: return SLOT_REDUCE_SCATTER;
    case TC_COLL_ALLREDUCE: return SLOT_ALLREDUCE;
    case TC_COLL_ALLTOALL: return SLOT_ALLTOALL;
    case TC_COLL_BROADCAST: return SLOT_BCAST;
    case TC_COLL_REDUCE: return SLOT_REDUCE;
    case TC_COLL_SCATTER: return SLOT_SCATTER;
    case TC_COLL_GATHER: return SLOT_GATHER;
    default: return -1;
  }
}

/* Slot s's plan for `root` (-1 for the unrooted collectives), or NULL. */
static tc_mpi_plan *slot_plan(int s, int root) {
  for (int i = 0; i < state.plans[s].n; i++)
    if (tc_mpi_plan_root(state.plans[s].v[i]) == root) return state.plans[s].v[i];
  return NULL;
}

static void warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void warn(const char *fmt, ...) {
  if (state.world_rank != 0) return;
  va_list ap;
  va_start(ap, fmt);
  fprintf(stderr, "topocoll: warning: ");
  vfprintf(stderr, fmt, ap);
  fprintf(stderr, "\n");
  va_end(ap);
}

static void load_one(const char *path, const char *rank_map) {
  tc_mpi_plan *plan = NULL;
  tc_error err;
  int cause = 0;
  if (tci_run_plan_load(path, rank_map, MPI_COMM_WORLD, 0, &plan, &cause, &err)) {
    if (cause == TCI_LOAD_RANK_MAP) { /* every rank got here: the agreement made the error theirs */
      if (state.world_rank == 0)
        fprintf(stderr, "topocoll: TOPOCOLL_RANK_MAP: %s; aborting (the ranks would not play the nodes the map "
                "gives them)\n", err.msg);
      PMPI_Abort(MPI_COMM_WORLD, 2);
    }
    if (!cause) warn("%s; plan not used", err.msg);
    else if (state.verbose) warn("%s; plan skipped", err.msg);
    return;
  }
  int s = slot_of(tc_mpi_plan_collective(plan)), root = tc_mpi_plan_root(plan);
  if (s < 0) {
    warn("%s: a p2p plan serves no MPI call; plan not used", path);
    tc_mpi_plan_destroy(plan);
    return;
  }
  if (slot_plan(s, root)) {
    if (state.verbose && root < 0) warn("%s: skipped (an earlier plan already serves %s)", path, slot_names[s]);
    else if (state.verbose) warn("%s: skipped (an earlier plan already serves %s from root %d)", path, slot_names[s], root);
    tc_mpi_plan_destroy(plan);
    return;
  }
  slot_plans *sp = &state.plans[s];
  tc_mpi_plan **v = realloc(sp->v, sizeof *v * (size_t)(sp->n + 1));
  if (!v) {
    warn("%s: out of memory; plan not used", path);
    tc_mpi_plan_destroy(plan);
    return;
  }
  sp->v = v;
  sp->v[sp->n++] = plan;
  if (state.verbose && state.world_rank == 0) {
    if (root < 0)
      fprintf(stderr, "topocoll: %s serves %s (%s, %d ranks)\n", path, slot_names[s], tc_mpi_plan_algorithm(plan),
              tc_mpi_plan_ranks(plan));
    else
      fprintf(stderr, "topocoll: %s serves %s from root %d (%s, %d ranks)\n", path, slot_names[s], root,
              tc_mpi_plan_algorithm(plan), tc_mpi_plan_ranks(plan));
  }
}

/* After PMPI_Init*: load every plan in TOPOCOLL_PLANS. The list is the same on every rank
   (mpirun exports one environment), so every rank makes the same collective calls. */
static void load_plans(int provided) {
  PMPI_Comm_rank(MPI_COMM_WORLD, &state.world_rank);
  const char *v = getenv("TOPOCOLL_VERBOSE");
  state.verbose = v && !strcmp(v, "1");
  state.thread_multiple = provided == MPI_THREAD_MULTIPLE;
  state.active = 1;
  const char *list = getenv("TOPOCOLL_PLANS");
  if (!list || !*list) return;
  char *copy = strdup(list);
  if (!copy) {
    warn("out of memory reading TOPOCOLL_PLANS");
    return;
  }
  const char *rank_map = getenv("TOPOCOLL_RANK_MAP");
  if (rank_map && !*rank_map) rank_map = NULL;
  inside = 1;
  for (char *save = NULL, *p = strtok_r(copy, ":,", &save); p; p = strtok_r(NULL, ":,", &save)) load_one(p, rank_map);
  inside = 0;
  free(copy);
}

int MPI_Init(int *argc, char ***argv) {
  int rc = PMPI_Init(argc, argv);
  if (rc == MPI_SUCCESS) load_plans(MPI_THREAD_SINGLE);
  return rc;
}

int MPI_Init_thread(int *argc, char ***argv, int required, int *provided) {
  int rc = PMPI_Init_thread(argc, argv, required, provided);
  if (rc == MPI_SUCCESS) load_plans(*provided);
  return rc;
}

int MPI_Finalize(void) {
  if (state.active) {
    inside = 1;
    long long served = 0;
    for (int s = 0; s < NSLOTS; s++) {
      served += state.served[s];
      for (int i = 0; i < state.plans[s].n; i++) tc_mpi_plan_destroy(state.plans[s].v[i]);
      free(state.plans[s].v);
      state.plans[s] = (slot_plans){0};
    }
    inside = 0;
    if (state.verbose && state.world_rank == 0)
      fprintf(stderr, "topocoll: %lld calls served by topocoll (allreduce %lld, allgather %lld, reduce-scatter "
              "%lld, alltoall %lld, broadcast %lld, reduce %lld, scatter %lld, gather %lld), %lld fell back to MPI\n",
              served, state.served[SLOT_ALLREDUCE], state.served[SLOT_ALLGATHER], state.served[SLOT_REDUCE_SCATTER],
              state.served[SLOT_ALLTOALL], state.served[SLOT_BCAST], state.served[SLOT_REDUCE],
              state.served[SLOT_SCATTER], state.served[SLOT_GATHER], state.fell_back);
    state.active = 0;
  }
  return PMPI_Finalize();
}

/* The plan for slot s (and root: -1 for the unrooted collectives) if this call on comm may
   use it. */
static tc_mpi_plan *plan_for(int s, int root, MPI_Comm comm) {
  tc_mpi_plan *plan = inside || !state.active ? NULL : slot_plan(s, root);
  if (!plan) return NULL;
  if (comm == MPI_COMM_WORLD) return plan;
  if (state.thread_multiple || comm == MPI_COMM_NULL) return NULL;
  int inter = 0, same = MPI_UNEQUAL;
  if (PMPI_Comm_test_inter(comm, &inter) != MPI_SUCCESS || inter) return NULL;
  if (PMPI_Comm_compare(comm, MPI_COMM_WORLD, &same) != MPI_SUCCESS) return NULL;
  return same == MPI_IDENT || same == MPI_CONGRUENT ? plan : NULL;
}

/* Whether the executor takes this datatype and op (the same test it makes, done here so
   that an unsupported call falls back without a collective agreement). */
static int supported(MPI_Datatype type, MPI_Op op, int needs_op) {
  if (needs_op && op != MPI_SUM && op != MPI_MAX && op != MPI_MIN) return 0;
  int size = 0;
  if (type == MPI_DATATYPE_NULL || PMPI_Type_size(type, &size) != MPI_SUCCESS) return 0;
  if (type == MPI_FLOAT) return size == 4;
  if (type == MPI_DOUBLE) return size == 8;
  return (type == MPI_INT32_T || type == MPI_INT64_T || type == MPI_INT || type == MPI_LONG || type == MPI_LONG_LONG) &&
         (size == 4 || size == 8);
}

/* After the executor ran: 1 when it did the work. A refusal (TC_EINPUT, TC_ENOMEM: agreed
   on by every rank before any message) falls back; a failure in the middle (TC_EFAIL: an
   MPI call failed, buffers may be half written) goes to comm's error handler, as a failed
   MPI collective would. *mpi_rc is then what the call returns. */
static int served(int s, int rc, MPI_Comm comm, int *mpi_rc) {
  *mpi_rc = MPI_SUCCESS;
  if (rc == TC_OK) {
    state.served[s]++;
    return 1;
  }
  if (rc != TC_EFAIL) return 0;
  *mpi_rc = MPI_ERR_OTHER;
  PMPI_Comm_call_errhandler(comm, MPI_ERR_OTHER);
  return 1;
}

int MPI_Allreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm) {
  tc_mpi_plan *plan = plan_for(SLOT_ALLREDUCE, -1, comm);
  if (plan && count >= 0 && supported(type, op, 1)) {
    inside = 1;
    int rc = tc_mpi_allreduce(plan, sendbuf, recvbuf, count, type, op, NULL);
    inside = 0;
    int mpi_rc;
    if (served(SLOT_ALLREDUCE, rc, comm, &mpi_rc)) return mpi_rc;
  }
  if (!inside) state.fell_back++;
  return PMPI_Allreduce(sendbuf, recvbuf, count, type, op, comm);
}

int MPI_Allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                  MPI_Datatype recvtype, MPI_Comm comm) {
  tc_mpi_plan *plan = plan_for(SLOT_ALLGATHER, -1, comm);
  int inplace = sendbuf == MPI_IN_PLACE;
  if (plan && recvcount >= 0 && supported(recvtype, MPI_OP_NULL, 0) &&
      (inplace || (sendcount == recvcount && sendtype == recvtype))) {
    inside = 1;
    int rc = tc_mpi_allgather(plan, sendbuf, recvbuf, recvcount, recvtype, NULL);
    inside = 0;
    int mpi_rc;
    if (served(SLOT_ALLGATHER, rc, comm, &mpi_rc)) return mpi_rc;
  }
  if (!inside) state.fell_back++;
  return PMPI_Allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
}

int MPI_Reduce_scatter_block(const void *sendbuf, void *recvbuf, int recvcount, MPI_Datatype type, MPI_Op op,
                             MPI_Comm comm) {
  tc_mpi_plan *plan = plan_for(SLOT_REDUCE_SCATTER, -1, comm);
  if (plan && recvcount >= 0 && supported(type, op, 1)) {
    inside = 1;
    int rc = tc_mpi_reduce_scatter(plan, sendbuf, recvbuf, recvcount, type, op, NULL);
    inside = 0;
    int mpi_rc;
    if (served(SLOT_REDUCE_SCATTER, rc, comm, &mpi_rc)) return mpi_rc;
  }
  if (!inside) state.fell_back++;
  return PMPI_Reduce_scatter_block(sendbuf, recvbuf, recvcount, type, op, comm);
}

int MPI_Alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                 MPI_Datatype recvtype, MPI_Comm comm) {
  tc_mpi_plan *plan = plan_for(SLOT_ALLTOALL, -1, comm);
  int inplace = sendbuf == MPI_IN_PLACE;
  if (plan && recvcount >= 0 && supported(recvtype, MPI_OP_NULL, 0) &&
      (inplace || (sendcount == recvcount && sendtype == recvtype))) {
    inside = 1;
    int rc = tc_mpi_alltoall(plan, sendbuf, recvbuf, recvcount, recvtype, NULL);
    inside = 0;
    int mpi_rc;
    if (served(SLOT_ALLTOALL, rc, comm, &mpi_rc)) return mpi_rc;
  }
  if (!inside) state.fell_back++;
  return PMPI_Alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
}

int MPI_Bcast(void *buf, int count, MPI_Datatype type, int root, MPI_Comm comm) {
  tc_mpi_plan *plan = plan_for(SLOT_BCAST, root, comm);
  if (plan && count >= 0 && supported(type, MPI_OP_NULL, 0)) {
    inside = 1;
    int rc = tc_mpi_bcast(plan, buf, count, type, root, NULL);
    inside = 0;
    int mpi_rc;
    if (served(SLOT_BCAST, rc, comm, &mpi_rc)) return mpi_rc;
  }
  if (!inside) state.fell_back++;
  return PMPI_Bcast(buf, count, type, root, comm);
}

int MPI_Reduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype type, MPI_Op op, int root, MPI_Comm comm) {
  tc_mpi_plan *plan = plan_for(SLOT_REDUCE, root, comm);
  if (plan && count >= 0 && supported(type, op, 1)) {
    inside = 1;
    int rc = tc_mpi_reduce(plan, sendbuf, recvbuf, count, type, op, root, NULL);
    inside = 0;
    int mpi_rc;
    if (served(SLOT_REDUCE, rc, comm, &mpi_rc)) return mpi_rc;
  }
  if (!inside) state.fell_back++;
  return PMPI_Reduce(sendbuf, recvbuf, count, type, op, root, comm);
}

/* Scatter and gather: the block every rank has is count x type (a scatter's receive, a
   gather's send; an in-place root's other side); where both sides mean something (the
   root, not in place) they must be equal. */
static int block_args(int inplace, int root_side, int count, MPI_Datatype type, int other_count,
                      MPI_Datatype other_type) {
  if (count < 0 || !supported(type, MPI_OP_NULL, 0)) return 0;
  return inplace || !root_side || (count == other_count && type == other_type);
}

int MPI_Scatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                MPI_Datatype recvtype, int root, MPI_Comm comm) {
  tc_mpi_plan *plan = plan_for(SLOT_SCATTER, root, comm);
  int me = -1, inplace = recvbuf == MPI_IN_PLACE;
  if (plan) PMPI_Comm_rank(comm, &me);
  int count = inplace ? sendcount : recvcount;
  MPI_Datatype type = inplace ? sendtype : recvtype;
  if (plan && block_args(inplace, me == root, count, type, sendcount, sendtype)) {
    inside = 1;
    int rc = tc_mpi_scatter(plan, sendbuf, recvbuf, count, type, root, NULL);
    inside = 0;
    int mpi_rc;
    if (served(SLOT_SCATTER, rc, comm, &mpi_rc)) return mpi_rc;
  }
  if (!inside) state.fell_back++;
  return PMPI_Scatter(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm);
}

int MPI_Gather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
               MPI_Datatype recvtype, int root, MPI_Comm comm) {
  tc_mpi_plan *plan = plan_for(SLOT_GATHER, root, comm);
  int me = -1, inplace = sendbuf == MPI_IN_PLACE;
  if (plan) PMPI_Comm_rank(comm, &me);
  int count = inplace ? recvcount : sendcount;
  MPI_Datatype type = inplace ? recvtype : sendtype;
  if (plan && block_args(inplace, me == root, count, type, recvcount, recvtype)) {
    inside = 1;
    int rc = tc_mpi_gather(plan, sendbuf, recvbuf, count, type, root, NULL);
    inside = 0;
    int mpi_rc;
    if (served(SLOT_GATHER, rc, comm, &mpi_rc)) return mpi_rc;
  }
  if (!inside) state.fell_back++;
  return PMPI_Gather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm);
}
