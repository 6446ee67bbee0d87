/*
** sim_smpi.h — one SMPI simulation of the executor for `topocoll simulate`: smpirun on a
** topology's platform with one of two network models (env->model: the configuration that
** makes SimGrid a pure α-β network, or SMPI's own calibrated model), and the executor's
** per-size answers.
**
** tc_sim_run(env, algo, sizes, n, verify, ...) launches (launch.h: no shell, a deadline of
** env->timeout_s, nothing left running)
**   [prlimit --data=BYTES:] TMPDIR=DIR smpirun -quiet -np N -platform DIR/platform.xml
**           -hostfile DIR/hostfile <tc_sim_model_cfg(env->model)> --cfg=contexts/stack-size:8192
**           [--cfg=smpi/<coll>:ALGO]         (the schedule's checked run: the reference,
**                                             below)
**           --cfg=smpi/shared-malloc:local   (the --no-compute buffers: one lazily mapped
**                                             file per call site, sim_smpi.c says why)
**           --log=root.thres:warning
**           EXEC DIR/programs.txt --sizes B1,B2,... --iters 1 --warmup 0 --inplace 0|1
**           --only both                      (verify: real data, the schedule's result
**                                             compared with MPI's, i.e. with ALGO's)
**           --only topocoll|mpi --no-compute (!verify; algo == NULL: the schedule, else ALGO)
** - prlimit (util-linux; only when env->prlimit is set) caps the simulation's private memory
**   at half the memory available when it starts plus the ranks' stacks (8 MiB each, mapped
**   but barely touched; RLIMIT_DATA counts them and leaves SMPI_SHARED_MALLOC's file
**   mappings free): an SMPI algorithm whose real temporary
**   buffers (up to M bytes per rank) do not fit fails with std::bad_alloc rather than
**   calling in the OOM killer on a shared machine.
** - One timed iteration suffices: a simulation is deterministic. No warm-up either: the
**   executor agrees on a new size's arguments (one MPI_Allreduce, run_mpi.h) before its
**   timed call, which then holds the collective's own messages alone.
** --inplace is env->inplace: the executor runs one variant, in place (MPI_IN_PLACE, the
** collective must have it: tc_program_has_inplace) or out of place, on both sides.
** Rank 0 prints one JSON object per requested size, in order (docs/running.md), and
** flushes each as it finishes that size. Per answered size i: times[i] is its "time_s"
** (schedule) or "mpi_time_s" (SMPI's algorithm), used[i] its "size_bytes" — the size the
** executor actually ran, a whole number of elements per rank, which may differ from
** sizes[i] — and verified[i] its "verified" (1 true, 0 false, -1 null); *done counts the
** sizes answered before anything went wrong, so the sizes before a crash keep their times.
** Errors: TC_EFAIL when smpirun cannot be started, does not exit 0, times out, or prints
** anything else; err then says how it ended and quotes the telling line of its stderr.
** When this process got SIGINT, SIGTERM or SIGHUP meanwhile (the run is then killed, see
** launch.h), *interrupted is that signal's number, else 0: the caller should stop.
**
** The schedule's checked run takes MPI's result from a reference algorithm that SimGrid
** simulates fast (ring for allgather and alltoall, SMPI's default for the others): its time
** is never reported, and SMPI's default allgather and alltoall keep N(N-1) transfers in
** flight, which SimGrid 3.32 handles in time quadratic in them (minutes at 256 ranks).
**
** tc_sim_model_cfg(model): the --cfg options of each network model (NULL-terminated),
** documented in docs/running.md; tc_sim_model_name(model): "ab" or "smpi", as --model
** takes them and the report prints them. tc_sim_smpi_algorithms(coll): the names SimGrid
** 3.32 accepts for smpi/allreduce, smpi/allgather, smpi/reduce_scatter, smpi/alltoall,
** smpi/bcast, smpi/reduce, smpi/scatter or smpi/gather, less "automatic" (a selector that
** tries every algorithm inside each call), NULL-terminated; NULL for p2p (MPI has no
** multi-path send).
*/
#ifndef TC_TOOLS_SIM_SMPI_H
#define TC_TOOLS_SIM_SMPI_H

#include <stddef.h>
#include <stdint.h>

#include "topocoll/error.h"
#include "topocoll/sched.h"

/* The network SimGrid simulates. AB: a pure α-β network, every option that would bend the
   time of a message away from alpha + m/B turned off — the check of the schedule's model.
   SMPI: smpirun's own model (network/model:SMPI): max-min sharing of links by concurrent
   flows, size-dependent latency and bandwidth factors calibrated by SimGrid on a real
   cluster (smpi/lat-factor, smpi/bw-factor: they encode the eager/rendezvous protocol
   switch), TCP window and cross-traffic — what a real network adds to the model. */
typedef enum tc_sim_model { TC_SIM_MODEL_AB, TC_SIM_MODEL_SMPI } tc_sim_model;

typedef struct tc_sim_env {
  const char *smpirun;  /* path of smpirun */
  const char *exec;     /* path of topocoll-smpi-exec */
  const char *prlimit;  /* path of prlimit, or NULL: no memory limit */
  const char *dir;      /* holds platform.xml, hostfile and TC_SIM_PROGRAMS; smpirun's temporary files */
  int32_t ranks;        /* N */
  tc_collective coll;   /* the plan's collective */
  double timeout_s;     /* per run */
  tc_sim_model model;
  int inplace;          /* 1: the in-place variant (MPI_IN_PLACE), 0: out of place */
  /* NULL, or called with each line the executor prints, as it prints it (launch.h): the
     progress of the run, one line per size. */
  void (*on_line)(void *ctx, const char *line, size_t len);
  void *ctx;
} tc_sim_env;

/* The programs file (program_io.h) the caller writes into env->dir for the executor. */
#define TC_SIM_PROGRAMS "programs.txt"

const char *const *tc_sim_model_cfg(tc_sim_model model);
const char *tc_sim_model_name(tc_sim_model model);

const char *const *tc_sim_smpi_algorithms(tc_collective coll);
/* The few strong algorithms compared by default (a subset of the above), NULL-terminated. */
const char *const *tc_sim_smpi_default_algorithms(tc_collective coll);

int tc_sim_run(const tc_sim_env *env, const char *algo, const int64_t *sizes, int n, int verify, double *times,
               int64_t *used, int *verified, int *done, int *interrupted, tc_error *err);

#endif
