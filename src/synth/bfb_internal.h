/*
** bfb_internal.h — the per-receiver problems of the BFB generator (bfb.c), their exact and
** GLPK solvers (bfb_glpk.c: the cross-check the tests and the benchmark run) and the
** heterogeneous LP (14) of paper 000 App. E.3 (bfb_hetero.c). Internal header.
*/
#ifndef TC_SYNTH_BFB_INTERNAL_H
#define TC_SYNTH_BFB_INTERNAL_H

#include <stdint.h>

#include "topocoll/bfb.h"

/* LP (1) of one receiver, spelled out. Arcs are u's in-arcs without self-loops, in in_arc
   order; step[t-1] lists the sources at distance t and which of those arcs each may use. */
typedef struct tci_bfb_step {
  int32_t njobs;
  int32_t *job;       /* njobs sources v with d(v,u) = t, ascending */
  int64_t *allow_off; /* njobs + 1 */
  int32_t *allow;     /* job i may use arc[allow[allow_off[i] .. allow_off[i+1]-1]] (ascending
                         indices into tci_bfb_receiver.arc) */
} tci_bfb_step;

typedef struct tci_bfb_receiver {
  int32_t u;
  int32_t depth;      /* largest t with a source (u's in-eccentricity) */
  int32_t narcs;
  int64_t *arc;       /* narcs arc ids w -> u, w != u */
  tci_bfb_step *step;  /* depth entries */
} tci_bfb_receiver;

int tci_bfb_receiver_build(const tc_graph *g, int32_t u, tci_bfb_receiver *out, tc_error *err);
void tci_bfb_receiver_destroy(tci_bfb_receiver *r);

/* Exact optimum of LP (1) for receiver r at step t (1..depth): *U and, if x != NULL, one
   optimal x per allow entry (x[e] = fraction of the job's shard sent over that arc). */
int tci_bfb_step_solve(const tc_graph *g, const tci_bfb_receiver *r, int32_t t, tc_rat *U, tc_rat *x,
                      tc_error *err);

/* The same LP solved by GLPK's simplex method (floating point). */
int tci_bfb_step_solve_glpk(const tc_graph *g, const tci_bfb_receiver *r, int32_t t, double *U, double *x,
                           tc_error *err);

/* tc_bfb_optima with every LP solved by GLPK (one thread): the cross-check and the
   benchmark's "LP solver" side. The caller frees *U. */
int tci_bfb_optima_glpk(const tc_graph *g, double **U, int32_t *diameter, tc_error *err);

/* Heterogeneous links, LP (14) (paper 000 App. E.3): arc a has latency alpha[a] (s) and
   bandwidth bw[a] (bytes/s); a shard is shard_bytes. U_{u,t} is then the time of step t at u:
   max over in-arcs of alpha + shard_bytes * load / bw. Every in-arc pays its alpha in the LP;
   an arc that carries nothing while its alpha alone sets U is deleted and the LP re-solved
   (repeatedly), so idle slow links do not count. */
typedef struct tci_bfb_hetero_step {
  double time;       /* U_{u,t} after the re-solves, in seconds */
  int32_t resolves;  /* how many times arcs were deleted and the LP solved again */
  double *load;      /* r->narcs: shards each arc carries */
  uint8_t *dropped;  /* r->narcs: 1 if the arc was deleted */
  double *x;         /* one value per allow entry */
} tci_bfb_hetero_step;

int tci_bfb_hetero_step_solve(const tc_graph *g, const tci_bfb_receiver *r, int32_t t, const double *alpha,
                             const double *bw, double shard_bytes, tci_bfb_hetero_step *out, tc_error *err);
void tci_bfb_hetero_step_destroy(tci_bfb_hetero_step *s);

#endif
