/*
** mpi_groups.c — one MPI message per (step, peer): grouping a plan's transfers by peer,
** and the load-time exchange that tells every receiver what its peers send.
**
** Why. Under SimGrid SMPI a rank's pending transfers are scanned whenever one of them
** ends, so hundreds of small messages per step cost quadratic simulation time (a
** 1024-rank plan did not finish in five minutes); and the α-β model charges one α per
** link per step, not one per chunk range. So the executor sends, per step, everything a
** rank sends to one peer as ONE message — the concatenation of the SENDs' data in program
** order — and the peer receives it with one receive whose pieces are, in its program
** order, its RECV / RECV_REDUCEs from that rank (program.h's matching rule: they pair one
** for one, with equal cnt, in the same order).
**
** tci_run_plan_group builds the groups once per plan (O(ops log ops)): per step, the
** receive groups (by peer) before the send groups (by peer), so that the executor posts
** every receive before any send, as before.
**
** tci_run_plan_match. The receiver must know where each piece ends, but a redundant
** receive that no COPY reads (its data is dropped) has no chunk id on the receiving side,
** so its length is unknown there. At load, each rank therefore sends each peer it sends
** to one message with (step, cnt, first chunk) of every send to it, all steps at once
** (about d messages per rank, once), and applies what it receives: a dropped receive gets
** its chunk, every other receive is checked against the sender's view — two programs that
** do not pair up are a lowering bug, reported on every rank instead of garbage or a hang.
*/
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>

#include "run/run_internal.h"

/* ---- grouping ------------------------------------------------------------------------------ */

typedef struct group_key {
  int send;
  int32_t peer;
  int64_t op;
} group_key;

static int cmp_key(const void *a, const void *b) {
  const group_key *x = a, *y = b;
  if (x->send != y->send) return x->send - y->send;
  if (x->peer != y->peer) return (x->peer > y->peer) - (x->peer < y->peer);
  return (x->op > y->op) - (x->op < y->op);
}

int tci_run_plan_group(tc_mpi_plan *plan, tc_error *err) {
  int64_t n = plan->nops ? plan->nops : 1;
  group_key *keys = malloc(sizeof *keys * (size_t)n);
  plan->groups = malloc(sizeof *plan->groups * (size_t)n);
  plan->group_ops = malloc(sizeof *plan->group_ops * (size_t)n);
  plan->group_first = malloc(sizeof *plan->group_first * (size_t)(plan->steps + 3));
  if (!keys || !plan->groups || !plan->group_ops || !plan->group_first) {
    free(keys);
    return tc_error_set(err, TC_ENOMEM, "out of memory grouping the messages of rank %d", plan->rank);
  }
  int64_t ng = 0, no = 0;
  for (int32_t t = 0; t <= plan->steps + 1; t++) {
    plan->group_first[t] = ng;
    int64_t nk = 0;
    for (int64_t i = plan->step_first[t]; i < plan->step_first[t + 1]; i++) {
      const run_op *op = &plan->ops[i];
      if (op->kind != TC_OP_COPY) keys[nk++] = (group_key){op->kind == TC_OP_SEND, op->peer, i};
    }
    qsort(keys, (size_t)nk, sizeof *keys, cmp_key);
    for (int64_t k = 0; k < nk; k++) {
      if (k == 0 || keys[k].send != keys[k - 1].send || keys[k].peer != keys[k - 1].peer)
        plan->groups[ng++] = (run_group){.peer = keys[k].peer, .send = keys[k].send, .first = no, .nops = 0};
      plan->group_ops[no++] = keys[k].op;
      plan->groups[ng - 1].nops++;
    }
  }
  plan->group_first[plan->steps + 2] = ng;
  plan->ngroups = ng;
  free(keys);
  return TC_OK;
}

/* ---- matching -------------------------------------------------------------------------------- */

static int recv_error(const tc_mpi_plan *plan, tc_error *err, int64_t i, int32_t peer, const char *fmt,
                      long long a, long long b) {
  const run_op *op = &plan->ops[i];
  tc_error_set(err, TC_EFAIL, fmt, a, b);
  tc_error_prefix(err, "program of rank %d, op %lld (%s, step %d) from rank %d", plan->rank, (long long)i,
                  tc_op_kind_name(op->kind), op->step, peer);
  return TC_EFAIL;
}

int tci_run_plan_apply_records(tc_mpi_plan *plan, const int64_t *first, const run_send_record *rec, tc_error *err) {
  int64_t *next = malloc(sizeof *next * (size_t)plan->ranks);
  if (!next) return tc_error_set(err, TC_ENOMEM, "out of memory matching the messages of rank %d", plan->rank);
  for (int32_t p = 0; p < plan->ranks; p++) next[p] = first[p];
  int rc = TC_OK;
  for (int64_t i = 0; i < plan->nops && !rc; i++) {
    run_op *op = &plan->ops[i];
    if (op->kind != TC_OP_RECV && op->kind != TC_OP_RECV_REDUCE) continue;
    int32_t p = op->peer;
    if (next[p] == first[p + 1]) {
      rc = recv_error(plan, err, i, p, "no matching send: rank %d sends %lld transfers to this rank", p,
                      (long long)(first[p + 1] - first[p]));
      break;
    }
    const run_send_record *r = &rec[next[p]++];
    if (r->step != op->step || r->cnt != op->cnt)
      rc = recv_error(plan, err, i, p, "the matching send is at step %lld with %lld chunks", (long long)r->step,
                      (long long)r->cnt);
    else if (r->chunk < 0 || r->chunk > plan->nchunks - op->cnt || (op->chunk >= 0 && op->chunk != r->chunk))
      rc = recv_error(plan, err, i, p, "the matching send carries chunk %lld, the receive chunk %lld",
                      (long long)r->chunk, (long long)op->chunk);
    else if (op->chunk < 0)
      op->chunk = op->dst.anchor_chunk = r->chunk; /* a dropped redundant receive */
  }
  for (int32_t p = 0; p < plan->ranks && !rc; p++)
    if (next[p] != first[p + 1])
      rc = tc_error_set(err, TC_EFAIL, "program of rank %d receives %lld transfers from rank %d, which sends it %lld",
                        plan->rank, (long long)(next[p] - first[p]), p, (long long)(first[p + 1] - first[p]));
  free(next);
  return rc;
}

/* Counts per peer to offsets: first[p] = sum of count[q < p]. */
static void offsets(const int64_t *count, int64_t *first, int32_t ranks) {
  first[0] = 0;
  for (int32_t p = 0; p < ranks; p++) first[p + 1] = first[p] + count[p];
}

int tci_run_plan_match(tc_mpi_plan *plan, tc_error *err) {
  int32_t R = plan->ranks;
  size_t ents = (size_t)R + 1;
  int64_t *nsend = calloc(ents, sizeof *nsend), *nrecv = calloc(ents, sizeof *nrecv);
  int64_t *sfirst = malloc(sizeof *sfirst * ents), *rfirst = malloc(sizeof *rfirst * ents);
  int64_t *fill = calloc(ents, sizeof *fill);
  run_send_record *out = NULL, *in = NULL;
  MPI_Request *req = malloc(sizeof *req * 2 * ents);
  MPI_Status *st = malloc(sizeof *st * 2 * ents);
  int32_t *from = malloc(sizeof *from * ents); /* the peer of receive request k */
  const int64_t words = sizeof(run_send_record) / sizeof(int64_t);
  int rc = TC_OK, nreq = 0, nrecvreq = 0;
  if (!nsend || !nrecv || !sfirst || !rfirst || !fill || !req || !st || !from) {
    rc = tc_error_set(err, TC_ENOMEM, "out of memory matching the messages of rank %d", plan->rank);
    goto agree;
  }
  for (int64_t i = 0; i < plan->nops; i++) {
    const run_op *op = &plan->ops[i];
    if (op->kind == TC_OP_SEND) nsend[op->peer]++;
    else if (op->kind != TC_OP_COPY) nrecv[op->peer]++;
  }
  offsets(nsend, sfirst, R);
  offsets(nrecv, rfirst, R);
  out = malloc(sizeof *out * (size_t)(sfirst[R] ? sfirst[R] : 1));
  in = malloc(sizeof *in * (size_t)(rfirst[R] ? rfirst[R] : 1));
  if (!out || !in) {
    rc = tc_error_set(err, TC_ENOMEM, "out of memory matching the messages of rank %d", plan->rank);
    goto agree;
  }
  for (int64_t i = 0; i < plan->nops; i++) {
    const run_op *op = &plan->ops[i];
    if (op->kind == TC_OP_SEND) out[sfirst[op->peer] + fill[op->peer]++] = (run_send_record){op->step, op->cnt, op->chunk};
  }
  for (int32_t p = 0; p < R && !rc; p++) {
    if (nrecv[p] == 0) continue;
    if (nrecv[p] > INT_MAX / words)
      rc = tc_error_set(err, TC_EFAIL, "rank %d receives too many transfers from rank %d", plan->rank, p);
    else if ((from[nreq] = p, MPI_Irecv(in + rfirst[p], (int)(nrecv[p] * words), MPI_INT64_T, p, 0, plan->comm,
                                         &req[nreq++])))
      rc = tc_error_set(err, TC_EFAIL, "MPI_Irecv from rank %d failed while matching messages", p);
  }
  nrecvreq = nreq;
  for (int32_t p = 0; p < R && !rc; p++) {
    if (nsend[p] == 0) continue;
    if (nsend[p] > INT_MAX / words)
      rc = tc_error_set(err, TC_EFAIL, "rank %d sends too many transfers to rank %d", plan->rank, p);
    else if (MPI_Isend(out + sfirst[p], (int)(nsend[p] * words), MPI_INT64_T, p, 0, plan->comm, &req[nreq++]))
      rc = tc_error_set(err, TC_EFAIL, "MPI_Isend to rank %d failed while matching messages", p);
  }
  /* A sender and a receiver that disagree on the number of transfers (a lowering bug) make
     a truncated receive, which fails here, or a shorter one, found by its count. */
  if (nreq > 0 && MPI_Waitall(nreq, req, st) != MPI_SUCCESS && !rc)
    rc = tc_error_set(err, TC_EFAIL, "program of rank %d: a peer sends it more transfers than it receives",
                      plan->rank);
  for (int k = 0; k < nrecvreq && !rc; k++) {
    int got = 0;
    MPI_Get_count(&st[k], MPI_INT64_T, &got);
    if (got != nrecv[from[k]] * words)
      rc = tc_error_set(err, TC_EFAIL, "program of rank %d receives %lld transfers from rank %d, which sends it %lld",
                        plan->rank, (long long)nrecv[from[k]], from[k], (long long)(got / words));
  }
  if (!rc) rc = tci_run_plan_apply_records(plan, rfirst, in, err);
agree:
  free(nsend);
  free(nrecv);
  free(sfirst);
  free(rfirst);
  free(fill);
  free(out);
  free(in);
  free(req);
  free(st);
  free(from);
  return rc;
}
