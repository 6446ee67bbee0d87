/*
** sim_smpi.c — one smpirun of the executor and its per-size answers (contract in
** sim_smpi.h).
**
** Two network models (sim_smpi.h). The α-β configuration (--model ab), option by option (SimGrid 3.32; checked by tests/sim_simulate.sh,
** which finds a one-hop message of M bytes taking alpha + (M + 16)/B — SMPI adds a 16-byte
** envelope to every message, the one deviation no option removes):
**   network/model:CM02            the flow model without SMPI's piecewise correction
**                                 factors (which smpirun's default model, SMPI, applies);
**   network/latency-factor:1, network/bandwidth-factor:1, network/weight-S:0
**                                 CM02's own defaults, stated: latency and bandwidth as
**                                 written in the platform, flows sharing a link equally;
**   network/TCP-gamma:0           no TCP window bound gamma / (2 latency) on a flow's rate;
**   network/crosstraffic:0        a flow loads only its own direction (no 5 % for ACKs);
**   smpi/simulate-computation:no  the CPU time between MPI calls is not injected, so the
**                                 reductions and copies are free, as in the α-β model;
**   smpi/wtime:0                  reading the clock costs no simulated time;
**   smpi/async-small-thresh:0     (SimGrid's default, stated) a transfer starts only when
**                                 both sides have posted, never into an unexpected-message
**                                 buffer: no message of step t+1 overlaps one of step t on
**                                 a link.
** smpi/send-is-detached-thresh keeps its default (65536): it only decides whether a small
** send returns before its transfer ends, not when the transfer starts or how long it
** takes, and some of SMPI's algorithms rely on it the way MPI codes rely on eager sends.
**
** SMPI's own model (--model smpi) is smpirun's defaults, network/model:SMPI stated, with
** two exceptions that concern the executor's CPU rather than the network, kept from the
** α-β configuration: smpi/simulate-computation:no (injecting the real time of this
** machine's reductions would make the simulated times depend on the machine and its load)
** and smpi/wtime:0. Everything the α-β configuration turns off is then on: SMPI's
** piecewise-linear latency and bandwidth factors per message size (smpi/lat-factor,
** smpi/bw-factor — a 1 MB message over one 12.5 GB/s, 1 us link takes 96.7 us instead of
** 81 us), the TCP window bound, cross-traffic (a flow takes a share of the reverse
** direction for its acknowledgements) and the latency-weighted sharing of network/weight-S.
*/
#include "sim_smpi.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exec_client.h"
#include "launch.h"
#include "topocoll/units.h"

static const char *const alpha_beta_cfg[] = {
    "--cfg=network/model:CM02",          "--cfg=network/latency-factor:1",
    "--cfg=network/bandwidth-factor:1",  "--cfg=network/weight-S:0",
    "--cfg=network/TCP-gamma:0",         "--cfg=network/crosstraffic:0",
    "--cfg=smpi/simulate-computation:no", "--cfg=smpi/wtime:0",
    "--cfg=smpi/async-small-thresh:0",
    NULL};

static const char *const smpi_cfg[] = {
    "--cfg=network/model:SMPI", "--cfg=smpi/simulate-computation:no", "--cfg=smpi/wtime:0", NULL};

const char *const *tc_sim_model_cfg(tc_sim_model model) {
  return model == TC_SIM_MODEL_SMPI ? smpi_cfg : alpha_beta_cfg;
}

const char *tc_sim_model_name(tc_sim_model model) { return model == TC_SIM_MODEL_SMPI ? "smpi" : "ab"; }

/* SimGrid 3.32's names ("Valid algorithms" of smpi_coll.cpp), "automatic" left out. */
static const char *const allreduce_algos[] = {
    "default", "lr", "rab1", "rab2", "rab_rdb", "rdb", "smp_binomial", "smp_binomial_pipeline", "smp_rdb", "smp_rsag",
    "smp_rsag_lr", "smp_rsag_rab", "redbcast", "ompi", "ompi_ring_segmented", "mpich", "mvapich2", "mvapich2_rs",
    "mvapich2_two_level", "impi", "rab", NULL};
static const char *const allgather_algos[] = {
    "default", "2dmesh", "3dmesh", "bruck", "GB", "loosely_lr", "NTSLR", "NTSLR_NB", "pair", "rdb", "rhv", "ring",
    "SMP_NTS", "smp_simple", "spreading_simple", "ompi", "ompi_neighborexchange", "mvapich2", "mvapich2_smp",
    "mpich", "impi", NULL};
static const char *const reduce_scatter_algos[] = {
    "default", "ompi", "ompi_basic_recursivehalving", "ompi_ring", "ompi_butterfly", "mpich", "mpich_pair",
    "mpich_rdb", "mpich_noncomm", "mvapich2", "impi", NULL};
/* pair, pair_rma and the *_barrier variants of pair need a power-of-two rank count (SMPI
   aborts otherwise: reported as skipped, like any algorithm that fails). */
static const char *const alltoall_algos[] = {
    "default", "2dmesh", "3dmesh", "basic_linear", "bruck", "pair", "pair_rma", "pair_light_barrier",
    "pair_mpi_barrier", "pair_one_barrier", "rdb", "ring", "ring_light_barrier", "ring_mpi_barrier",
    "ring_one_barrier", "mvapich2", "mvapich2_scatter_dest", "ompi", "mpich", "impi", NULL};

static const char *const bcast_algos[] = {
    "default", "arrival_pattern_aware", "arrival_pattern_aware_wait", "arrival_scatter", "binomial_tree",
    "flattree", "flattree_pipeline", "NTSB", "NTSL", "NTSL_Isend", "scatter_LR_allgather", "scatter_rdb_allgather",
    "SMP_binary", "SMP_binomial", "SMP_linear", "ompi", "ompi_split_bintree", "ompi_pipeline", "mpich", "mvapich2",
    "mvapich2_inter_node", "mvapich2_intra_node", "mvapich2_knomial_intra_node", "impi", NULL};
static const char *const reduce_algos[] = {
    "default", "arrival_pattern_aware", "binomial", "flat_tree", "NTSL", "scatter_gather", "ompi", "ompi_chain",
    "ompi_pipeline", "ompi_basic_linear", "ompi_in_order_binary", "ompi_binary", "ompi_binomial", "mpich",
    "mvapich2", "mvapich2_knomial", "mvapich2_two_level", "impi", "rab", NULL};
static const char *const scatter_algos[] = {
    "default", "ompi", "ompi_basic_linear", "ompi_binomial", "ompi_linear_nb", "mpich", "mvapich2",
    "mvapich2_two_level_binomial", "mvapich2_two_level_direct", "impi", NULL};
static const char *const gather_algos[] = {
    "default", "ompi", "ompi_basic_linear", "ompi_binomial", "ompi_linear_sync", "mpich", "mvapich2",
    "mvapich2_two_level", "impi", NULL};

/* p2p has none: MPI has no multi-path send to compare with. */
const char *const *tc_sim_smpi_algorithms(tc_collective coll) {
  switch (coll) {
  case TC_COLL_ALLREDUCE: return allreduce_algos;
  case TC_COLL_ALLGATHER: return allgather_algos;
  case TC_COLL_REDUCE_SCATTER: return reduce_scatter_algos;
  case TC_COLL_ALLTOALL: return alltoall_algos;
  case TC_COLL_BROADCAST: return bcast_algos;
  case TC_COLL_REDUCE: return reduce_algos;
  case TC_COLL_SCATTER: return scatter_algos;
  case TC_COLL_GATHER: return gather_algos;
  default: return NULL;
  }
}

/* The algorithms `simulate` compares by default: a few strong ones per collective — one for
   small messages (few rounds), one for large (bandwidth-optimal), one between — chosen also
   because SimGrid simulates them in seconds at 256 ranks: SMPI's linear algorithms (and
   "default", "ompi", "mpich"... which pick them) keep N(N-1) transfers in flight at once,
   and SimGrid 3.32 finishes each transfer in time linear in the transfers in flight, so
   they take minutes per size there (bench/bench_sim_scale.sh). Every name is in the list
   above; tests/sim_simulate.sh checks that they run on a non-power-of-two rank count. */
static const char *const allreduce_strong[] = {"rdb", "lr", "rab_rdb", NULL};
static const char *const allgather_strong[] = {"bruck", "rdb", "ring", NULL};
static const char *const reduce_scatter_strong[] = {"mpich_rdb", "ompi_ring", "ompi_basic_recursivehalving", NULL};
static const char *const alltoall_strong[] = {"bruck", "ring", NULL};
/* the rooted ones: a tree for small messages, a pipelined or scatter-based one for large */
static const char *const bcast_strong[] = {"binomial_tree", "scatter_LR_allgather", "ompi_pipeline", NULL};
static const char *const reduce_strong[] = {"binomial", "scatter_gather", "ompi_pipeline", NULL};
static const char *const scatter_strong[] = {"ompi_binomial", "ompi_basic_linear", NULL};
static const char *const gather_strong[] = {"ompi_binomial", "ompi_basic_linear", NULL};
static const char *const no_algorithm[] = {NULL}; /* p2p: MPI has no multi-path send */

const char *const *tc_sim_smpi_default_algorithms(tc_collective coll) {
  switch (coll) {
  case TC_COLL_ALLREDUCE: return allreduce_strong;
  case TC_COLL_ALLGATHER: return allgather_strong;
  case TC_COLL_REDUCE_SCATTER: return reduce_scatter_strong;
  case TC_COLL_ALLTOALL: return alltoall_strong;
  case TC_COLL_BROADCAST: return bcast_strong;
  case TC_COLL_REDUCE: return reduce_strong;
  case TC_COLL_SCATTER: return scatter_strong;
  case TC_COLL_GATHER: return gather_strong;
  default: return no_algorithm;
  }
}

/* The algorithm MPI's result comes from when the schedule's checked run compares with it
   (its time is not reported, so only correctness and simulation speed matter; every
   algorithm gives the same bits, the inputs being small integers). NULL: SMPI's default,
   which simulates in about a second at 256 ranks for these two. allgather and alltoall
   take ring: never more than N transfers in flight, where their defaults keep N(N-1) and
   took more than 200 s (allgather) and 300 s (alltoall) per size at 256 ranks. */
static const char *reference_algorithm(tc_collective coll) {
  switch (coll) {
  case TC_COLL_ALLGATHER:
  case TC_COLL_ALLTOALL: return "ring";
  default: return NULL;
  }
}

/* The smpi/<name> configuration item that picks coll's algorithm. */
static const char *cfg_item(tc_collective coll) {
  switch (coll) {
  case TC_COLL_ALLGATHER: return "allgather";
  case TC_COLL_REDUCE_SCATTER: return "reduce_scatter";
  case TC_COLL_ALLTOALL: return "alltoall";
  case TC_COLL_BROADCAST: return "bcast";
  case TC_COLL_REDUCE: return "reduce";
  case TC_COLL_SCATTER: return "scatter";
  case TC_COLL_GATHER: return "gather";
  default: return "allreduce";
  }
}

/* ---- the command line ---- */

/* SMPI's stack per rank (SimGrid's default, stated on the command line so that the budget
   below and the simulation agree on it). */
#define STACK_KIB 8192
#define TC_STR_(x) #x
#define TC_STR(x) TC_STR_(x)

/* Half the memory available now (MemAvailable of /proc/meminfo) plus every rank's stack,
   or 0 when unknown. RLIMIT_DATA counts the stacks SMPI maps for its ranks, though a rank
   touches a few pages of its 8 MiB: without them in the budget, 1024 ranks (8 GiB of
   stacks) hit the limit with a gigabyte in use. */
static uint64_t memory_budget(int32_t ranks) {
  FILE *f = fopen("/proc/meminfo", "r");
  char line[128];
  unsigned long long kib = 0;
  while (f && fgets(line, sizeof line, f))
    if (sscanf(line, "MemAvailable: %llu kB", &kib) == 1) break;
  if (f) fclose(f);
  return kib ? (uint64_t)kib * 1024 / 2 + (uint64_t)ranks * STACK_KIB * 1024 : 0;
}

#define MAX_ARGS 48

typedef struct argv_list {
  char *v[MAX_ARGS + 1];
  char *owned[8];
  int n, nowned, failed;
} argv_list;

static void push(argv_list *a, const char *s) {
  if (a->n < MAX_ARGS) a->v[a->n++] = (char *)s; /* execvp takes char *const[]; nothing writes */
  else a->failed = 1;
}

/* Push a formatted argument the list owns. */
static void push_fmt(argv_list *a, const char *fmt, const char *x, const char *y) {
  size_t size = strlen(fmt) + strlen(x) + strlen(y) + 1;
  char *s = malloc(size);
  if (!s || a->nowned == 8) {
    free(s);
    a->failed = 1;
    return;
  }
  snprintf(s, size, fmt, x, y);
  a->owned[a->nowned++] = s;
  push(a, s);
}

static void build_argv(argv_list *a, const tc_sim_env *env, const char *algo, const char *size_list, int verify,
                       const char *np, const char *budget) {
  memset(a, 0, sizeof *a);
  /* SMPI's algorithms allocate real temporaries of up to M bytes per rank; capping the
     private memory of the simulation (RLIMIT_DATA, which SMPI_SHARED_MALLOC's file
     mappings do not count) makes one that needs too much fail with std::bad_alloc instead
     of waking the OOM killer. prlimit sets it for smpirun alone. */
  if (env->prlimit && budget) {
    push(a, env->prlimit);
    push(a, budget);
  }
  push(a, env->smpirun);
  push(a, "-quiet");
  push(a, "-np");
  push(a, np);
  push(a, "-platform");
  push_fmt(a, "%s/%s", env->dir, "platform.xml");
  push(a, "-hostfile");
  push_fmt(a, "%s/%s", env->dir, "hostfile");
  for (const char *const *c = tc_sim_model_cfg(env->model); *c; c++) push(a, *c);
  push(a, "--cfg=contexts/stack-size:" TC_STR(STACK_KIB));
  /* The schedule's checked run compares with MPI's result, computed by the reference. */
  const char *pick = algo ? algo : verify ? reference_algorithm(env->coll) : NULL;
  if (pick) push_fmt(a, "--cfg=smpi/%s:%s", cfg_item(env->coll), pick);
  /* SMPI_SHARED_MALLOC (the --no-compute buffers) in SimGrid's "local" mode: one shared
     memory file per call site, mapped by every rank and every call, whose pages exist only
     once touched — and the executor touches none without computing. The default, "global",
     maps one block of a file over and over with MAP_POPULATE, so every byte of every
     rank's dummy buffers gets a page-table entry and counts in the resident set: 2.2 GB on
     256 ranks for a 1 MB alltoall relayed over 5 hops (docs/running.md, "Scale"), and its
     blocks had to be as large as the largest buffer to stay under vm.max_map_count. */
  push(a, "--cfg=smpi/shared-malloc:local");
  push(a, "--log=root.thres:warning");
  push(a, env->exec);
  push_fmt(a, "%s/%s", env->dir, TC_SIM_PROGRAMS);
  push(a, "--sizes");
  push(a, size_list);
  push(a, "--iters");
  push(a, "1");
  push(a, "--warmup"); /* the executor agrees on a new size before its timed calls (run_mpi.h) */
  push(a, "0");
  push(a, "--inplace");
  push(a, env->inplace ? "1" : "0");
  push(a, "--only");
  if (verify) {
    push(a, "both"); /* the check compares the schedule's result with MPI's */
  } else {
    push(a, algo ? "mpi" : "topocoll");
    push(a, "--no-compute");
  }
  a->v[a->n] = NULL;
}

static void free_argv(argv_list *a) {
  for (int i = 0; i < a->nowned; i++) free(a->owned[i]);
}

/* ---- the answer ---- */

/* The lines printed, in order: *done of them are good results, each with a size and a
   time under `key` (the other time is null). An error names the first bad line, or too
   few or too many. */
static int parse_output(char *out, int n, int inplace, const char *key, double *times, int64_t *used, int *verified, int *done,
                        tc_error *err) {
  tc_exec_reader reader;
  tc_exec_reader_init(&reader, out);
  tc_exec_result r;
  char why[128];
  *done = 0;
  for (int got; (got = tc_exec_reader_next(&reader, &r, why, sizeof why));) {
    if (*done == n) return tc_error_set(err, TC_EFAIL, "the executor printed more than the %d requested sizes", n);
    double t = got > 0 ? (!strcmp(key, "time_s") ? r.time_s : r.mpi_time_s) : -1;
    /* A result line, but not one this run can use: no size, or no time for its program. */
    if (got > 0 && r.size_bytes <= 0) {
      snprintf(why, sizeof why, "size_bytes is not a size");
      got = -1;
    } else if (got > 0 && r.inplace != inplace) {
      snprintf(why, sizeof why, "inplace is not %s", inplace ? "true" : "false");
      got = -1;
    } else if (got > 0 && t < 0) {
      snprintf(why, sizeof why, "%s is not a time", key);
      got = -1;
    }
    if (got < 0)
      return tc_error_set(err, TC_EFAIL, "the executor's output line %d: %s: %.80s", reader.lineno, why, reader.line);
    used[*done] = r.size_bytes;
    times[*done] = t;
    verified[*done] = r.verified;
    ++*done;
  }
  if (*done != n) return tc_error_set(err, TC_EFAIL, "the executor reported %d of the %d requested sizes", *done, n);
  return TC_OK;
}

/* The stderr line worth quoting: the executor's own error line, else the message of
   SimGrid's first CRITICAL line (an uncaught exception, a detected deadlock), else the
   last line with text. */
static void telling_line(const char *text, char *buf, size_t size) {
  static const char marker[] = "/CRITICAL] ";
  tc_launch_error_line(text, TC_EXEC_NAME, buf, size);
  if (*buf && !strncmp(buf, TC_EXEC_NAME, strlen(TC_EXEC_NAME))) return;
  const char *c = strstr(text, marker);
  if (c) {
    c += sizeof marker - 1;
    size_t len = strcspn(c, "\n");
    if (len >= size) len = size - 1;
    memcpy(buf, c, len);
    buf[len] = '\0';
  }
}

/* Why an SMPI algorithm ran out of memory at size m, in place of SimGrid's bare
   "Uncaught exception std::bad_alloc": only the schedule runs on shared dummy buffers; SMPI's
   own algorithms allocate real temporaries inside the collective, up to about m per rank,
   and the simulation's private memory is capped at `budget` bytes (0: unknown). */
static void out_of_memory_note(const tc_sim_env *env, int64_t m, uint64_t budget, char *buf, size_t size) {
  char each[32], all[32];
  tc_units_format_size(m, each, sizeof each);
  tc_units_format_size(m > INT64_MAX / env->ranks ? INT64_MAX : m * env->ranks, all, sizeof all);
  int len = snprintf(buf, size,
                     "out of memory at M = %s: SMPI's algorithms allocate real temporary buffers (only the schedule "
                     "runs on shared dummy data), up to about M per rank, %s on %d ranks",
                     each, all, (int)env->ranks);
  if (budget && len > 0 && (size_t)len < size)
    snprintf(buf + len, size - (size_t)len,
             ", where the simulation may use %.1f GiB (half the memory available, and the ranks' stacks)",
             (double)budget / (1 << 30));
}

int tc_sim_run(const tc_sim_env *env, const char *algo, const int64_t *sizes, int n, int verify, double *times,
               int64_t *used, int *verified, int *done, int *interrupted, tc_error *err) {
  *interrupted = 0;
  *done = 0;
  char np[16];
  snprintf(np, sizeof np, "%d", env->ranks);
  char budget[64] = "";
  uint64_t bytes = memory_budget(env->ranks);
  if (bytes) snprintf(budget, sizeof budget, "--data=%" PRIu64 ":", bytes);
  char *size_list = tc_exec_sizes_arg(sizes, n);
  argv_list a;
  if (size_list) build_argv(&a, env, algo, size_list, verify, np, *budget ? budget : NULL);
  if (!size_list || a.failed) {
    if (size_list) free_argv(&a);
    free(size_list);
    return tc_error_set(err, TC_ENOMEM, "out of memory building the smpirun command");
  }
  tc_launch_options opts = {.timeout_s = env->timeout_s, .on_line = env->on_line, .ctx = env->ctx};
  tc_launch_result res;
  /* smpirun's -tmpdir option is broken in 3.32 (it takes its value for the program); its
     default, the directory of `mktemp -u`, follows TMPDIR, which the child inherits. */
  char *saved = getenv("TMPDIR") ? strdup(getenv("TMPDIR")) : NULL;
  setenv("TMPDIR", env->dir, 1);
  int rc = tc_launch_run(a.v, &opts, &res, err);
  if (saved) setenv("TMPDIR", saved, 1);
  else unsetenv("TMPDIR");
  free(saved);
  free_argv(&a);
  free(size_list);
  if (rc) return rc == TC_ENOMEM ? rc : TC_EFAIL;
  *interrupted = res.interrupted;
  /* The executor flushes each size's line as it finishes: what came before a crash holds. */
  tc_error parse_err;
  int parsed = parse_output(res.out, n, env->inplace, algo ? "mpi_time_s" : "time_s", times, used, verified, done, &parse_err);
  char line[512];
  telling_line(res.err_tail, line, sizeof line);
  if (algo && *done < n && strstr(line, "std::bad_alloc"))
    out_of_memory_note(env, sizes[*done], bytes, line, sizeof line);
  if (!res.exited || res.exit_code != 0) {
    char how[128];
    tc_launch_describe(&res, env->timeout_s, how, sizeof how);
    rc = tc_error_set(err, TC_EFAIL, "smpirun %s%s%s", how, *line ? ": " : "", line);
  } else if (res.out_truncated) {
    rc = tc_error_set(err, TC_EFAIL, "the executor printed more output than expected");
  } else if (parsed) {
    rc = tc_error_set(err, TC_EFAIL, "%s%s%s%s", parse_err.msg, *line ? " (stderr: " : "", line, *line ? ")" : "");
  }
  tc_launch_result_destroy(&res);
  return rc;
}
