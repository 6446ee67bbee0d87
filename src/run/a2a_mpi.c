/*
** a2a_mpi.c — topocoll-a2a-mpi: the certified all-to-all MCF with its child LPs spread over
** MPI ranks (paper 003 §3.1.2: "N independent child LPs, run in parallel"). `topocoll a2a
** SPEC --mpi N` launches it under mpirun (docs/alltoall.md); it can also be run directly:
**     mpirun -np R topocoll-a2a-mpi SPEC [--engine clp|glpk] [--host-cap P/Q]
**
** Every rank builds the graph from SPEC itself (deterministic). Rank 0 solves and certifies
** the master LP (6)-(9) exactly as tc_a2a_solve does without children, and broadcasts the
** rationalized per-source flows and the amount every commodity must receive; rank r solves
** the child LPs (10)-(14) of the sources s with s mod R == r; the children's doubles are
** summed onto rank 0 (every entry comes from exactly one rank and the others add 0.0, so
** the sum is the value itself, bit for bit), which makes them integers and exactly
** conserving (tci_a2a_children_finish) and certifies them on their own. A child LP's answer
** depends only on its source's data, so R ranks give exactly the result of one process; the
** report's `flows` line (the denominator and an FNV-1a hash of every exact per-commodity
** flow) shows it.
**
** Rank 0 prints the report on stdout; errors are one line "topocoll-a2a-mpi: ..." on stderr
** and exit 2 (bad input: TC_EINPUT, TC_ERANGE) or 1 (our failure), on every rank.
*/
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "a2a/a2a_internal.h"
#include "topocoll/spec.h"

static int usage(int rank, const char *msg) {
  if (rank == 0) fprintf(stderr, "topocoll-a2a-mpi: %s (usage: topocoll-a2a-mpi SPEC [--engine clp|glpk] [--host-cap P/Q])\n", msg);
  return 2;
}

static int exit_code(int rc) { return rc == TC_EINPUT || rc == TC_ERANGE ? 2 : 1; }

/* "C" or "P/Q", positive. */
static int parse_cap(const char *text, tc_rat *out) {
  char *end;
  long long p = strtoll(text, &end, 10), q = 1;
  if (*end == '/') q = strtoll(end + 1, &end, 10);
  if (*end || p <= 0 || q <= 0) return 1;
  tc_error err;
  return tc_rat_make(p, q, out, &err);
}

/* FNV-1a over the exact per-commodity flows. */
static unsigned long long flows_hash(const int64_t *units, int64_t count) {
  unsigned long long h = 1469598103934665603ULL;
  for (int64_t i = 0; i < count; i++)
    for (int b = 0; b < 8; b++) h = (h ^ (((unsigned long long)units[i] >> (8 * b)) & 0xff)) * 1099511628211ULL;
  return h;
}

/* Rank 0's part before the children: the master, certified; what each child must deliver. */
static int master(const tc_graph *g, const tc_a2a_options *o, tc_a2a_result *r, int64_t *f_units, tc_error *err) {
  tc_a2a_options mo = *o;
  mo.children = 0;
  int rc = tc_a2a_solve(g, &mo, r, err);
  if (rc) return rc;
  const int32_t n = g->n;
  int32_t *src = malloc(sizeof *src * (size_t)n), *dst = malloc(sizeof *dst * (size_t)n);
  if (!src || !dst) rc = tc_error_set(err, TC_ENOMEM, "out of memory");
  for (int32_t s = 0; !rc && s < n; s++) src[s] = s, dst[s] = -1;
  tci_a2a_lower lower;
  tc_rat host = o->host_cap.num > 0 ? o->host_cap : (tc_rat){0, 1};
  if (!rc) rc = tci_a2a_certify_lower(g, host, n, src, dst, r->source_flow, r->den, &lower, err);
  /* as tc_a2a_solve: each child delivers what the certificate says every commodity receives */
  if (!rc) *f_units = lower.delivered.num * (r->den / lower.delivered.den);
  free(src), free(dst);
  return rc;
}

/* Rank 0's part after the children: per-commodity flows, certified on their own. */
static int finish(const tc_graph *g, const tc_a2a_options *o, const double *flows, tc_a2a_result *r, tc_error *err) {
  const int32_t n = g->n;
  const int64_t m = g->m, K = (int64_t)n * (n - 1);
  r->commodity_flow = malloc(sizeof *r->commodity_flow * (size_t)n * (size_t)n * (size_t)(m > 0 ? m : 1));
  int32_t *src = malloc(sizeof *src * (size_t)K), *dst = malloc(sizeof *dst * (size_t)K);
  int64_t *packed = malloc(sizeof *packed * (size_t)K * (size_t)(m > 0 ? m : 1));
  int rc = !r->commodity_flow || !src || !dst || !packed ? tc_error_set(err, TC_ENOMEM, "out of memory") : TC_OK;
  if (!rc) rc = tci_a2a_children_finish(g, flows, r->commodity_flow, &r->commodity_den, err);
  int64_t k = 0;
  for (int32_t s = 0; !rc && s < n; s++)
    for (int32_t t = 0; t < n; t++)
      if (s != t) {
        src[k] = s, dst[k] = t;
        memcpy(packed + k * m, r->commodity_flow + ((int64_t)s * n + t) * m, sizeof *packed * (size_t)m);
        k++;
      }
  tci_a2a_lower cl;
  tc_rat host = o->host_cap.num > 0 ? o->host_cap : (tc_rat){0, 1};
  if (!rc) rc = tci_a2a_certify_lower(g, host, (int32_t)K, src, dst, packed, r->commodity_den, &cl, err);
  if (!rc) r->commodity_lower = cl.value;
  free(src), free(dst), free(packed);
  return rc;
}

static void report(const char *spec, const tc_graph *g, const tc_a2a_result *r, int ranks, int32_t *per_rank) {
  char lo[48], up[48], f[48], cl[48];
  tc_rat_format(r->lower_exact, lo, sizeof lo);
  tc_rat_format(r->upper_exact, up, sizeof up);
  tc_rat_format(r->commodity_lower, cl, sizeof cl);
  printf("a2a %s: all-to-all on %d nodes, %lld arcs (maximum concurrent MCF, paper 003)\n", spec, g->n, (long long)g->m);
  if (r->exact) {
    tc_rat_format(r->f_exact, f, sizeof f);
    printf("  f               %s exact (lower bound = upper bound)\n", f);
  } else {
    printf("  f               %.9g (solver; not certified exact)\n", r->f);
  }
  printf("  lower bound     %s = %.9g (flows checked: capacity, conservation)\n", lo, r->lower_bound);
  printf("  upper bound     %s = %.9g (dual lengths: sum c*l / sum dist_l)\n", up, r->upper_bound);
  printf("  per commodity   %d x %d flows certify %s on their own\n", g->n, g->n - 1, cl);
  printf("  flows           denominator %lld, hash %016llx\n", (long long)r->commodity_den,
         flows_hash(r->commodity_flow, (int64_t)g->n * g->n * g->m));
  printf("  child LPs       on %d MPI ranks:", ranks);
  for (int i = 0; i < ranks; i++) printf(" %d", per_rank[i]);
  printf(" sources\n");
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, ranks;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  const char *spec = NULL;
  tc_a2a_options o;
  tc_a2a_options_default(&o);
  int status = 0;
  for (int i = 1; i < argc && !status; i++) {
    tc_error err;
    if (!strcmp(argv[i], "--engine") && i + 1 < argc) {
      if (tc_a2a_engine_parse(argv[++i], &o.engine, &err)) status = usage(rank, err.msg);
    } else if (!strcmp(argv[i], "--host-cap") && i + 1 < argc) {
      if (parse_cap(argv[++i], &o.host_cap)) status = usage(rank, "--host-cap needs a positive integer or fraction P/Q");
    } else if (argv[i][0] != '-' && !spec) {
      spec = argv[i];
    } else {
      status = usage(rank, "unexpected argument");
    }
  }
  if (!status && !spec) status = usage(rank, "missing SPEC");
  if (status) {
    MPI_Finalize();
    return status;
  }
  tc_error err = {0, ""};
  tc_graph *g = NULL;
  tc_a2a_result r = {0};
  int64_t f_units = 0, den = 0;
  double *flows = NULL, *mine = NULL;
  int rc = tc_spec_build(spec, &g, &err), own = rc; /* own: this rank's failure, its line */
  if (!rc && (int64_t)g->n * g->n * g->m > INT32_MAX)
    own = rc = tc_error_set(&err, TC_ERANGE, "%s: %d nodes x %d x %lld arcs of child flows exceed one MPI message",
                            spec, g->n, g->n, (long long)g->m);
  /* the master on rank 0; its outcome decides for everyone */
  if (!rc && rank == 0) own = rc = master(g, &o, &r, &f_units, &err);
  MPI_Bcast(&rc, 1, MPI_INT, 0, MPI_COMM_WORLD);
  const int32_t n = g ? g->n : 0;
  const int64_t m = g ? g->m : 0, nm = (int64_t)n * m;
  int64_t *source_flow = NULL;
  if (!rc) {
    if (rank == 0) den = r.den, source_flow = r.source_flow;
    else source_flow = malloc(sizeof *source_flow * (size_t)(nm > 0 ? nm : 1));
    int64_t head[2] = {den, f_units};
    MPI_Bcast(head, 2, MPI_INT64_T, 0, MPI_COMM_WORLD);
    den = head[0], f_units = head[1];
    MPI_Bcast(source_flow, (int)nm, MPI_INT64_T, 0, MPI_COMM_WORLD);
    mine = calloc((size_t)n * (size_t)(nm > 0 ? nm : 1), sizeof *mine);
    if (rank == 0) flows = malloc(sizeof *flows * (size_t)n * (size_t)(nm > 0 ? nm : 1));
    int ok = mine && (rank != 0 || flows) ? TC_OK : TC_ENOMEM;
    if (ok) own = rc = tc_error_set(&err, TC_ENOMEM, "out of memory for the child LPs");
    for (int32_t s = rank; !rc && s < n; s += ranks)
      if (f_units > 0)
        own = rc = tci_a2a_child_solve(g, s, o.engine == TC_A2A_GLPK ? TCI_LP_GLPK : TCI_LP_CLP, source_flow + (int64_t)s * m,
                                 den, f_units, o.time_limit, mine + (int64_t)s * nm, &err);
    int any = rc;
    MPI_Allreduce(&rc, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (!any) MPI_Reduce(mine, flows, (int)(n * nm), MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
    else if (!rc) rc = any, snprintf(err.msg, sizeof err.msg, "a child LP failed on another rank");
    if (rank != 0) free(source_flow);
  }
  if (!rc && rank == 0) own = rc = finish(g, &o, flows, &r, &err);
  if (!rc && rank == 0) {
    int32_t *per_rank = calloc((size_t)ranks, sizeof *per_rank);
    for (int32_t s = 0; per_rank && s < n; s++) per_rank[s % ranks]++;
    if (per_rank) report(spec, g, &r, ranks, per_rank);
    free(per_rank);
  }
  /* one line: rank 0's, or the rank whose child failed (a bad SPEC fails on every rank) */
  if (own && (rank == 0 || (own != TC_EINPUT && own != TC_ERANGE))) fprintf(stderr, "topocoll-a2a-mpi: %s\n", err.msg);
  free(mine), free(flows);
  tc_a2a_result_destroy(&r);
  tc_graph_destroy(g);
  MPI_Finalize();
  return rc ? exit_code(rc) : 0;
}
