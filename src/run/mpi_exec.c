/*
** mpi_exec.c — running a loaded plan: tc_mpi_allgather, tc_mpi_reduce_scatter,
** tc_mpi_allreduce, tc_mpi_alltoall, tc_mpi_bcast, tc_mpi_reduce, tc_mpi_scatter,
** tc_mpi_gather, tc_mpi_p2p (run_mpi.h).
**
** A call: check the arguments and prepare everything that could fail — the element
** layout for this count (tci_run_layout_prepare: every op's element offsets, every
** (step, peer) message's length and place, staging per step), the scratch and staging
** buffers, the request array — then one tci_run_agree, so a rank-local problem (bad type,
** overflowing count, NULL buffer, out of memory) stops every rank before any message is sent. A call repeating the last agreed
** (count, element size) skips it: nothing that could fail on one rank is prepared.
** tci_run_plan_prepare does the preparing and the agreement alone, so that a timed call
** can be the first one with its count and still not agree.
** Then the program runs step by step:
**   step 0 and steps+1: their COPYs, in order;
**   step t: its leading COPYs (materialising partials the step's sends read), then one
**           receive per peer the step receives from and one send per peer it sends to
**           (mpi_groups.c: a group's pieces travel as one message, straight from / into
**           the buffer when they lie end to end there, else packed into / received in the
**           step's staging — reduce-receives always land in staging), every receive
**           posted before any send, one MPI_Waitall, then the staged receives moved to
**           their places, then the step's reductions and copies in program order.
** mpi_plan.c checked at load that this order means what the program means. Tags are the
** step number (modulo MPI_TAG_UB + 1; matching never depends on it: each step completes
** before the next is posted and MPI does not let messages of one pair overtake). A
** message longer than msg_max elements goes as several messages, which both sides cut
** the same way (both know every piece's length: tci_run_plan_match). With compute off
** (SMPI's dummy data) nothing is packed or unpacked: only the message sizes matter.
** Reductions are typed loops (integer sums wrap like two's complement instead of
** overflowing, as MPI's do in practice).
*/
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run/run_internal.h"

typedef enum { RUN_I32, RUN_I64, RUN_F32, RUN_F64 } run_dtype;
typedef enum { RUN_SUM, RUN_MAX, RUN_MIN, RUN_NONE } run_rop;

/* ---- chunk -> element mapping ---------------------------------------------------------- */

/* GCC and Clang on 64-bit targets (mpicc and smpicc both use one of them). */
__extension__ typedef unsigned __int128 run_u128;

/* floor(a * b / c) for 0 <= a <= c, b >= 0, c > 0, without overflow. */
static int64_t mul_div(int64_t a, int64_t b, int64_t c) { return (int64_t)((run_u128)a * (run_u128)b / (run_u128)c); }

int64_t tci_run_chunk_start(const tc_mpi_plan *plan, int64_t total, int64_t c) {
  int64_t k = c / plan->units, j = c % plan->units;
  int64_t lo = mul_div(k, total, plan->nshards);
  if (j == 0) return lo;
  int64_t size = mul_div(k + 1, total, plan->nshards) - lo;
  return lo + mul_div(j, size, plan->units);
}

/* Alltoall: the scratch slot of relayed shard k (run_internal.h). */
static int64_t relay_slot(const tc_mpi_plan *plan, int64_t k) {
  int64_t a = 0, b = plan->a2a_nrelayed - 1;
  while (a < b) {
    int64_t mid = a + (b - a) / 2;
    if (plan->a2a_relayed[mid] < k) a = mid + 1;
    else b = mid;
  }
  return a;
}

/* Element offset of chunk `chunk` at l, relative to l's buffer. */
static int64_t element_at(const tc_mpi_plan *plan, const run_layout *ly, const run_loc *l, int64_t chunk) {
  int64_t own = (int64_t)plan->rank * plan->units;
  if (plan->coll == TC_COLL_ALLTOALL) { /* every shard has `count` elements */
    int64_t k = chunk / plan->units, into = tci_run_chunk_start(plan, ly->total, chunk) - k * ly->count;
    int64_t block = l->buf == TC_BUF_INPUT ? k % plan->ranks : l->buf == TC_BUF_OUTPUT ? k / plan->ranks
                                                                                       : relay_slot(plan, k);
    return block * ly->count + into;
  }
  switch (l->buf) {
    case TC_BUF_INPUT:
      return tci_run_chunk_start(plan, ly->total, chunk) -
             (plan->coll == TC_COLL_ALLGATHER || plan->coll == TC_COLL_GATHER ? tci_run_chunk_start(plan, ly->total, own)
                                                                               : 0);
    case TC_BUF_OUTPUT:
      return tci_run_chunk_start(plan, ly->total, chunk) -
             (plan->coll == TC_COLL_REDUCE_SCATTER || plan->coll == TC_COLL_SCATTER
                  ? tci_run_chunk_start(plan, ly->total, own)
                  : 0);
    case TC_BUF_SCRATCH: break;
  }
  if (l->off < plan->redundant_off) return tci_run_chunk_start(plan, ly->total, chunk);
  int64_t slot = tci_run_chunk_start(plan, ly->total, plan->redundant_off) +
                 (l->anchor_slot - plan->redundant_off) * ly->maxc;
  if (l->anchor_chunk < 0) return slot; /* a dropped receive */
  return slot + tci_run_chunk_start(plan, ly->total, chunk) - tci_run_chunk_start(plan, ly->total, l->anchor_chunk);
}

static int64_t ceil_div(int64_t a, int64_t b) { return a / b + (a % b != 0); }

/* Largest element count the executor's byte arithmetic accepts (8-byte types). */
#define RUN_MAX_ELEMENTS (INT64_MAX / 8)

int tci_run_layout_prepare(tc_mpi_plan *plan, long long count, tc_error *err) {
  run_layout *ly = &plan->layout;
  if (ly->valid && ly->count == count) return TC_OK;
  ly->valid = 0;
  int64_t total = count; /* allreduce, broadcast, reduce, p2p: count is the whole buffer */
  if (tc_program_count_per_rank(plan->coll) && __builtin_mul_overflow((int64_t)count, (int64_t)plan->ranks, &total))
    return tc_error_set(err, TC_EINPUT, "count %lld times %d ranks overflows 64 bits", count, plan->ranks);
  if (plan->coll == TC_COLL_ALLTOALL && __builtin_mul_overflow(total, (int64_t)plan->ranks, &total))
    return tc_error_set(err, TC_EINPUT, "count %lld times %d ranks squared overflows 64 bits", count, plan->ranks);
  if (total > RUN_MAX_ELEMENTS)
    return tc_error_set(err, TC_EINPUT, "count %lld is too large: %lld elements overflow the byte offsets", count,
                        (long long)total);
  if (!ly->span) {
    ly->span = malloc(sizeof *ly->span * (size_t)(plan->nops ? plan->nops : 1));
    ly->gspan = malloc(sizeof *ly->gspan * (size_t)(plan->ngroups ? plan->ngroups : 1));
    if (!ly->span || !ly->gspan)
      return tc_error_set(err, TC_ENOMEM, "out of memory for the layout of rank %d", plan->rank);
  }
  ly->count = count;
  ly->total = total;
  ly->maxc = ceil_div(ceil_div(total, plan->nshards), plan->units);
  int64_t redundant;
  if (__builtin_mul_overflow(plan->scratch_chunks - plan->redundant_off, ly->maxc, &redundant) ||
      redundant > RUN_MAX_ELEMENTS - total)
    return tc_error_set(err, TC_EINPUT, "count %lld is too large for the scratch space of rank %d", count, plan->rank);
  ly->scratch_elems = tci_run_chunk_start(plan, total, plan->redundant_off) + redundant;
  if (plan->coll == TC_COLL_ALLTOALL) ly->scratch_elems = plan->a2a_nrelayed * (int64_t)count; /* <= total */
  ly->staging_elems = 0;
  ly->max_requests = 0;
  for (int32_t t = 0; t <= plan->steps + 1; t++) {
    for (int64_t i = plan->step_first[t]; i < plan->step_first[t + 1]; i++) {
      const run_op *op = &plan->ops[i];
      run_span *sp = &ly->span[i];
      if (op->chunk < 0) /* tci_run_plan_match gives every receive its chunk */
        return tc_error_set(err, TC_EFAIL, "rank %d, step %d: a receive from rank %d carries unknown chunks",
                            plan->rank, op->step, op->peer);
      sp->src = sp->dst = sp->stage = -1;
      sp->len = tci_run_chunk_start(plan, total, op->chunk + op->cnt) - tci_run_chunk_start(plan, total, op->chunk);
      if (op->kind != TC_OP_RECV) sp->src = element_at(plan, ly, &op->src, op->chunk);
      if (op->kind != TC_OP_SEND) sp->dst = element_at(plan, ly, &op->dst, op->chunk);
    }
    /* Each group one message: straight from (into) its buffer when its pieces lie there
       end to end, else packed (received) in the step's staging. */
    int64_t stage = 0, requests = 0;
    for (int64_t g = plan->group_first[t]; g < plan->group_first[t + 1]; g++) {
      const run_group *grp = &plan->groups[g];
      run_gspan *gs = &ly->gspan[g];
      const int64_t *ops = plan->group_ops + grp->first;
      *gs = (run_gspan){.direct = 1, .stage = -1};
      for (int64_t k = 0; k < grp->nops; k++) {
        const run_op *op = &plan->ops[ops[k]];
        const run_span *sp = &ly->span[ops[k]];
        tc_buffer buf = grp->send ? op->src.buf : op->dst.buf;
        int64_t off = grp->send ? sp->src : sp->dst;
        if (k == 0) {
          gs->buf = buf;
          gs->off = off;
        }
        if (op->kind == TC_OP_RECV_REDUCE || buf != gs->buf || off != gs->off + gs->len) gs->direct = 0;
        gs->len += sp->len; /* at most the collective's elements: no overflow */
      }
      if (!gs->direct) {
        gs->stage = stage;
        for (int64_t k = 0; k < grp->nops; k++) {
          ly->span[ops[k]].stage = stage;
          stage += ly->span[ops[k]].len;
        }
        if (stage > RUN_MAX_ELEMENTS)
          return tc_error_set(err, TC_EINPUT, "count %lld is too large for the staging space of rank %d", count,
                              plan->rank);
      }
      gs->pieces = gs->len == 0 ? 1 : ceil_div(gs->len, plan->msg_max);
      requests += gs->pieces;
    }
    if (stage > ly->staging_elems) ly->staging_elems = stage;
    if (requests > ly->max_requests) ly->max_requests = requests;
  }
  ly->valid = 1;
  return TC_OK;
}

/* ---- arguments --------------------------------------------------------------------------- */

static int decode_type(MPI_Datatype type, run_dtype *dt, int *size, tc_error *err) {
  int s = 0;
  if (type != MPI_DATATYPE_NULL) MPI_Type_size(type, &s);
  int integer = type == MPI_INT32_T || type == MPI_INT64_T || type == MPI_INT || type == MPI_LONG ||
                type == MPI_LONG_LONG;
  if (integer && (s == 4 || s == 8)) *dt = s == 4 ? RUN_I32 : RUN_I64;
  else if (type == MPI_FLOAT && s == 4) *dt = RUN_F32;
  else if (type == MPI_DOUBLE && s == 8) *dt = RUN_F64;
  else {
    char name[MPI_MAX_OBJECT_NAME] = "";
    int len = 0;
    if (type != MPI_DATATYPE_NULL) MPI_Type_get_name(type, name, &len);
    return tc_error_set(err, TC_EINPUT, "unsupported datatype %s (the executor takes MPI_INT32_T, MPI_INT64_T, "
                        "MPI_FLOAT, MPI_DOUBLE, MPI_INT, MPI_LONG, MPI_LONG_LONG)",
                        len > 0 ? name : "(unnamed or null)");
  }
  *size = s;
  return TC_OK;
}

static int decode_op(MPI_Op op, run_rop *rop, tc_error *err) {
  if (op == MPI_SUM) *rop = RUN_SUM;
  else if (op == MPI_MAX) *rop = RUN_MAX;
  else if (op == MPI_MIN) *rop = RUN_MIN;
  else return tc_error_set(err, TC_EINPUT, "unsupported MPI_Op (the executor takes MPI_SUM, MPI_MAX, MPI_MIN)");
  return TC_OK;
}

/* One call, as the entry points describe it. */
typedef struct run_call {
  tc_collective coll;
  const void *sendbuf;
  void *recvbuf;
  long long count;
  MPI_Datatype type;
  MPI_Op op; /* the reductions' only */
  int root;  /* broadcast, reduce, scatter, gather: the caller's root; else unused */
  run_dtype dt;
  run_rop rop;
  int elt;
} run_call;

static int prepare_count(tc_mpi_plan *plan, long long count, int elt, int inplace, tc_error *err);

/* Alltoall in place needs its own copy of the input (below); the others alias freely. */
static int needs_input_copy(const tc_mpi_plan *plan, int inplace) { return inplace && plan->coll == TC_COLL_ALLTOALL; }

/* Whether the call is in place: MPI_IN_PLACE as the scatter's recvbuf (at its root), as
   every other collective's sendbuf. */
static int call_inplace(const run_call *c) {
  return c->coll == TC_COLL_SCATTER ? c->recvbuf == TC_MPI_IN_PLACE : c->sendbuf == TC_MPI_IN_PLACE;
}

static int check_call(tc_mpi_plan *plan, run_call *c, tc_error *err) {
  if (plan->coll != c->coll)
    return tc_error_set(err, TC_EINPUT, "the plan is for %s, not %s", tc_collective_name(plan->coll),
                        tc_collective_name(c->coll));
  int rooted = tc_program_rooted(c->coll) && c->coll != TC_COLL_P2P, inplace = call_inplace(c);
  if (rooted && c->root != plan->root) /* MPI requires the same root on every rank: all refuse alike */
    return tc_error_set(err, TC_EINPUT, "the plan's %s root is rank %d, not %d", tc_collective_name(c->coll),
                        plan->root, c->root);
  if (c->count < 0) return tc_error_set(err, TC_EINPUT, "negative count %lld", c->count);
  if (decode_type(c->type, &c->dt, &c->elt, err)) return err->code;
  c->rop = RUN_NONE;
  int reduces = c->coll == TC_COLL_REDUCE_SCATTER || c->coll == TC_COLL_ALLREDUCE || c->coll == TC_COLL_REDUCE;
  if (reduces && decode_op(c->op, &c->rop, err)) return err->code;
  /* MPI_IN_PLACE: a root's alone in the rooted collectives (MPI's rule), never p2p's. */
  if (inplace && (c->coll == TC_COLL_P2P || (rooted && plan->rank != plan->root)))
    return tc_error_set(err, TC_EINPUT, "MPI_IN_PLACE on rank %d, which is not the %s's root",
                        plan->rank, tc_collective_name(c->coll));
  /* The buffers this rank's program uses must be there (off a root, MPI lets the others be
     anything, NULL too). */
  int need_send = plan->input_chunks > 0 && !(inplace && c->coll != TC_COLL_SCATTER);
  int need_recv = plan->output_chunks > 0 && !(inplace && c->coll == TC_COLL_SCATTER);
  if (c->count > 0 && ((need_recv && !c->recvbuf) || (need_send && !c->sendbuf)))
    return tc_error_set(err, TC_EINPUT, "NULL %s with count %lld", need_recv && !c->recvbuf ? "recvbuf" : "sendbuf",
                        c->count);
  return prepare_count(plan, c->count, c->elt, needs_input_copy(plan, inplace), err);
}

/* The layout, buffers and request array for calls of `count` elements of `elt` bytes
   (copy: room for an alltoall's input copied away, C*count elements). */
static int prepare_count(tc_mpi_plan *plan, long long count, int elt, int copy, tc_error *err) {
  if (tci_run_layout_prepare(plan, count, err)) return err->code;
  const run_layout *ly = &plan->layout;
  int shared = !plan->compute; /* dummy data: SMPI may share it between ranks */
  if (tci_run_buf_reserve(&plan->scratch, (size_t)ly->scratch_elems * (size_t)elt, shared, err) ||
      tci_run_buf_reserve(&plan->staging, (size_t)ly->staging_elems * (size_t)elt, shared, err))
    return err->code;
  if (copy && tci_run_buf_reserve(&plan->a2a_input, (size_t)count * (size_t)plan->ranks * (size_t)elt, shared, err))
    return err->code;
  if (ly->max_requests > plan->req_room) {
    MPI_Request *r = realloc(plan->req, sizeof *r * (size_t)ly->max_requests);
    if (!r) return tc_error_set(err, TC_ENOMEM, "out of memory for %lld MPI requests", (long long)ly->max_requests);
    plan->req = r;
    plan->req_room = ly->max_requests;
  }
  return TC_OK;
}

/* ---- kernels ------------------------------------------------------------------------------ */

/* dst[i] = a[i] (op) b[i]; a may alias dst. Integer sums wrap (computed unsigned). */
#define RUN_REDUCE_LOOP(T, U)                                                                      \
  do {                                                                                             \
    T *d = dst;                                                                                    \
    const T *x = a, *y = b;                                                                        \
    if (rop == RUN_SUM)                                                                            \
      for (int64_t i = 0; i < n; i++) d[i] = (T)((U)x[i] + (U)y[i]);                               \
    else if (rop == RUN_MAX)                                                                       \
      for (int64_t i = 0; i < n; i++) d[i] = x[i] > y[i] ? x[i] : y[i];                            \
    else                                                                                           \
      for (int64_t i = 0; i < n; i++) d[i] = x[i] < y[i] ? x[i] : y[i];                            \
  } while (0)

static void reduce(run_dtype dt, run_rop rop, void *dst, const void *a, const void *b, int64_t n) {
  switch (dt) {
    case RUN_I32: RUN_REDUCE_LOOP(int32_t, uint32_t); break;
    case RUN_I64: RUN_REDUCE_LOOP(int64_t, uint64_t); break;
    case RUN_F32: RUN_REDUCE_LOOP(float, float); break;
    case RUN_F64: RUN_REDUCE_LOOP(double, double); break;
  }
}

/* ---- execution ---------------------------------------------------------------------------- */

typedef struct run_exec {
  tc_mpi_plan *plan;
  const run_call *call;
  char *buf[3]; /* input, output, scratch */
  char *staging;
} run_exec;

static char *at(const run_exec *x, tc_buffer b, int64_t elem) { return x->buf[b] + elem * x->call->elt; }

static int mpi_failed(const run_exec *x, int rc, const char *what, int peer, int step, tc_error *err) {
  char text[MPI_MAX_ERROR_STRING] = "";
  int len = 0;
  MPI_Error_string(rc, text, &len);
  return tc_error_set(err, TC_EFAIL, "rank %d, step %d: %s rank %d failed: %s", x->plan->rank, step, what, peer,
                      text);
}

/* Under SMPI the sends are synchronous (MPI_Issend), never "detached": SMPI 3.32 detaches
   a small MPI_Isend (below smpi/send-is-detached-thresh, 64 KiB), completing it at once for
   the sender, and keeps every detached transfer on its sender's list of activities, which
   it then searches linearly each time a transfer ends — quadratic in a rank's messages:
   the 256-rank demo plan at 1 MB (a thousand ~1 KB messages per rank) spent 90 % of five
   minutes there. A synchronous send is what a larger message gets anyway, so every size
   now runs alike: a rank's MPI_Waitall returns when its sends have been delivered too.
   When transfers start and how long they take is unchanged (smpi/async-small-thresh 0:
   a transfer starts when both sides have posted). Real MPI keeps MPI_Isend (eager sends
   are cheaper there). */
#ifdef SMPI_SHARED_MALLOC
#define RUN_ISEND MPI_Issend
#else
#define RUN_ISEND MPI_Isend
#endif

/* Post group g's message (cut into msg_max pieces) from / into ptr. */
static int post(const run_exec *x, int64_t g, int32_t step, char *ptr, int tag, int64_t *nreq, tc_error *err) {
  tc_mpi_plan *plan = x->plan;
  const run_group *grp = &plan->groups[g];
  const run_gspan *gs = &plan->layout.gspan[g];
  for (int64_t p = 0; p < gs->pieces; p++) {
    int64_t from = p * plan->msg_max, n = gs->len - from < plan->msg_max ? gs->len - from : plan->msg_max;
    char *piece = ptr + from * x->call->elt;
    MPI_Request *req = &plan->req[(*nreq)++];
    int rc = grp->send ? RUN_ISEND(piece, (int)n, x->call->type, grp->peer, tag, plan->comm, req)
                       : MPI_Irecv(piece, (int)n, x->call->type, grp->peer, tag, plan->comm, req);
    if (rc != MPI_SUCCESS)
      return mpi_failed(x, rc, grp->send ? "MPI_Isend to" : "MPI_Irecv from", grp->peer, step, err);
  }
  return TC_OK;
}

/* Move the data of a staged group's SENDs into staging (pack = 1), or of its RECVs out of
   it (pack = 0; its RECV_REDUCEs are reduced from staging by apply). */
static void stage_group(const run_exec *x, int64_t g, int pack) {
  const tc_mpi_plan *plan = x->plan;
  const run_group *grp = &plan->groups[g];
  size_t elt = (size_t)x->call->elt;
  for (int64_t k = 0; k < grp->nops; k++) {
    int64_t i = plan->group_ops[grp->first + k];
    const run_op *op = &plan->ops[i];
    const run_span *sp = &plan->layout.span[i];
    char *staged = x->staging + sp->stage * x->call->elt;
    if (pack) memcpy(staged, at(x, op->src.buf, sp->src), (size_t)sp->len * elt);
    else if (op->kind == TC_OP_RECV) memcpy(at(x, op->dst.buf, sp->dst), staged, (size_t)sp->len * elt);
  }
}

/* A COPY or the reduction of a RECV_REDUCE, after its data is in. */
static void apply(const run_exec *x, int64_t i) {
  const run_op *op = &x->plan->ops[i];
  const run_span *sp = &x->plan->layout.span[i];
  char *dst = at(x, op->dst.buf, sp->dst), *src = at(x, op->src.buf, sp->src);
  if (op->kind == TC_OP_RECV_REDUCE)
    reduce(x->call->dt, x->call->rop, dst, src, x->staging + sp->stage * x->call->elt, sp->len);
  else if (op->kind == TC_OP_COPY && dst != src)
    memmove(dst, src, (size_t)sp->len * (size_t)x->call->elt);
}

/* MPI_Waitall over the step's requests. SMPI 3.32's MPI_Waitall calls MPI_Waitany until
   none is left, each call registering with every pending request: quadratic in a step's
   messages (a third of the demo plan's simulation). Under SMPI the requests are waited for
   one by one instead, in linear time; the transfers progress by themselves meanwhile, so
   the rank leaves at the same simulated instant: when the last of them ends. */
static int wait_all(tc_mpi_plan *plan, int64_t nreq) {
#ifdef SMPI_SHARED_MALLOC
  for (int64_t i = 0; i < nreq; i++) {
    int rc = MPI_Wait(&plan->req[i], MPI_STATUS_IGNORE);
    if (rc != MPI_SUCCESS) return rc;
  }
  return MPI_SUCCESS;
#else
  return MPI_Waitall((int)nreq, plan->req, MPI_STATUSES_IGNORE);
#endif
}

static int run_step(const run_exec *x, int32_t t, tc_error *err) {
  tc_mpi_plan *plan = x->plan;
  int64_t first = plan->step_first[t], end = plan->step_first[t + 1];
  int compute = plan->compute;
  if (t == 0 || t == plan->steps + 1) {
    for (int64_t i = first; i < end && compute; i++) apply(x, i);
    return TC_OK;
  }
  for (; first < end && plan->ops[first].kind == TC_OP_COPY; first++)
    if (compute) apply(x, first);
  int tag = (int)(t % ((long long)plan->tag_ub + 1));
  int64_t nreq = 0;
  /* The receive groups come first (tci_run_plan_group): every receive is posted before
     any send. Packing a send reads no chunk a receive of the step lands on (mpi_plan.c). */
  for (int64_t g = plan->group_first[t]; g < plan->group_first[t + 1]; g++) {
    const run_gspan *gs = &plan->layout.gspan[g];
    char *ptr = gs->direct ? at(x, gs->buf, gs->off) : x->staging + gs->stage * x->call->elt;
    if (plan->groups[g].send && !gs->direct && compute) stage_group(x, g, 1);
    if (post(x, g, t, ptr, tag, &nreq, err)) return err->code;
  }
  int rc = wait_all(plan, nreq);
  if (rc != MPI_SUCCESS) {
    char text[MPI_MAX_ERROR_STRING] = "";
    int len = 0;
    MPI_Error_string(rc, text, &len);
    return tc_error_set(err, TC_EFAIL, "rank %d, step %d: MPI_Waitall failed: %s", plan->rank, t, text);
  }
  if (!compute) return TC_OK;
  /* Staged receives land now, as they would have during the transfers: no op of the step
     before them touches their chunks (mpi_plan.c's step check). */
  for (int64_t g = plan->group_first[t]; g < plan->group_first[t + 1]; g++)
    if (!plan->groups[g].send && !plan->layout.gspan[g].direct) stage_group(x, g, 0);
  for (int64_t i = first; i < end; i++)
    if (plan->ops[i].kind == TC_OP_RECV_REDUCE || plan->ops[i].kind == TC_OP_COPY) apply(x, i);
  return TC_OK;
}

int tci_run_plan_prepare(tc_mpi_plan *plan, long long count, MPI_Datatype type, int inplace, tc_error *err) {
  run_dtype dt;
  int elt = 0, copy = needs_input_copy(plan, inplace);
  tc_error_clear(err);
  int rc = count < 0 ? tc_error_set(err, TC_EINPUT, "negative count %lld", count) : decode_type(type, &dt, &elt, err);
  if (!rc) rc = prepare_count(plan, count, elt, copy, err);
  if ((rc = tci_run_agree(plan->comm, rc, NULL, err))) return rc;
  plan->agreed_count = count;
  plan->agreed_elt = elt;
  plan->agreed_inplace = copy;
  return TC_OK;
}

static int run_collective(tc_mpi_plan *plan, run_call *c, tc_error *err) {
  tc_error local;
  if (!err) err = &local;
  tc_error_clear(err);
  if (!plan) return tc_error_set(err, TC_EINPUT, "no plan (NULL)");
  int rc = check_call(plan, c, err);
  int inplace = call_inplace(c), copy = needs_input_copy(plan, inplace);
  /* Agreement costs a small allreduce; it is needed only where one rank may fail and
     another not: a new (count, type), for which layout and buffers are prepared, or an
     alltoall newly in place (its input copy). Otherwise the checks depend on arguments MPI
     requires equal on every rank (MPI_IN_PLACE too) and the buffers. */
  if (c->count != plan->agreed_count || c->elt != plan->agreed_elt || copy > plan->agreed_inplace) {
    if ((rc = tci_run_agree(plan->comm, rc, NULL, err))) return rc;
    plan->agreed_count = c->count;
    plan->agreed_elt = c->elt;
    plan->agreed_inplace = copy;
  } else if (rc) {
    return rc; /* an op every rank refuses alike, or this rank's own NULL buffer */
  }
  if (c->count == 0) return TC_OK;
  size_t elt = (size_t)c->elt, block = (size_t)c->count * elt, own = (size_t)plan->rank * block;
  char *recv = c->recvbuf;
  run_exec x = {.plan = plan, .call = c, .staging = plan->staging.ptr};
  x.buf[TC_BUF_SCRATCH] = plan->scratch.ptr;
  x.buf[TC_BUF_OUTPUT] = recv;
  x.buf[TC_BUF_INPUT] = (char *)(uintptr_t)c->sendbuf; /* never written: the program only reads its input */
  if (inplace) {
    x.buf[TC_BUF_INPUT] = c->coll == TC_COLL_ALLGATHER || c->coll == TC_COLL_GATHER ? recv + own : recv;
    /* MPI puts an in-place reduce-scatter result first; the program's alias is r's block. */
    if (c->coll == TC_COLL_REDUCE_SCATTER) x.buf[TC_BUF_OUTPUT] = recv + own;
    /* An in-place scatter's root keeps its block where it is in the send buffer. */
    if (c->coll == TC_COLL_SCATTER) {
      x.buf[TC_BUF_INPUT] = (char *)(uintptr_t)c->sendbuf;
      x.buf[TC_BUF_OUTPUT] = x.buf[TC_BUF_INPUT] + own;
    }
    /* Alltoall: rank s's block for t is overwritten by t's block for s, possibly before it
       leaves, so the input is copied away first (as MPI libraries do). */
    if (copy) {
      x.buf[TC_BUF_INPUT] = plan->a2a_input.ptr;
      if (plan->compute) memcpy(plan->a2a_input.ptr, recv, block * (size_t)plan->ranks);
    }
  }
  for (int32_t t = 0; t <= plan->steps + 1; t++)
    if ((rc = run_step(&x, t, err))) return rc;
  if (inplace && c->coll == TC_COLL_REDUCE_SCATTER && own > 0 && plan->compute) memmove(recv, recv + own, block);
  return TC_OK;
}

int tc_mpi_allgather(tc_mpi_plan *plan, const void *sendbuf, void *recvbuf, long long count, MPI_Datatype type,
                     tc_error *err) {
  run_call c = {.coll = TC_COLL_ALLGATHER, .sendbuf = sendbuf, .recvbuf = recvbuf, .count = count, .type = type,
                .op = MPI_OP_NULL};
  return run_collective(plan, &c, err);
}

int tc_mpi_reduce_scatter(tc_mpi_plan *plan, const void *sendbuf, void *recvbuf, long long count,
                          MPI_Datatype type, MPI_Op op, tc_error *err) {
  run_call c = {.coll = TC_COLL_REDUCE_SCATTER, .sendbuf = sendbuf, .recvbuf = recvbuf, .count = count,
                .type = type, .op = op};
  return run_collective(plan, &c, err);
}

int tc_mpi_allreduce(tc_mpi_plan *plan, const void *sendbuf, void *recvbuf, long long count, MPI_Datatype type,
                     MPI_Op op, tc_error *err) {
  run_call c = {.coll = TC_COLL_ALLREDUCE, .sendbuf = sendbuf, .recvbuf = recvbuf, .count = count, .type = type,
                .op = op};
  return run_collective(plan, &c, err);
}

int tc_mpi_alltoall(tc_mpi_plan *plan, const void *sendbuf, void *recvbuf, long long count, MPI_Datatype type,
                    tc_error *err) {
  run_call c = {.coll = TC_COLL_ALLTOALL, .sendbuf = sendbuf, .recvbuf = recvbuf, .count = count, .type = type,
                .op = MPI_OP_NULL};
  return run_collective(plan, &c, err);
}

/* One buffer: the root's input is every other rank's output (program.h: a broadcast's
   input and output alias). */
int tc_mpi_bcast(tc_mpi_plan *plan, void *buf, long long count, MPI_Datatype type, int root, tc_error *err) {
  run_call c = {.coll = TC_COLL_BROADCAST, .sendbuf = buf, .recvbuf = buf, .count = count, .type = type,
                .op = MPI_OP_NULL, .root = root};
  return run_collective(plan, &c, err);
}

int tc_mpi_reduce(tc_mpi_plan *plan, const void *sendbuf, void *recvbuf, long long count, MPI_Datatype type,
                  MPI_Op op, int root, tc_error *err) {
  run_call c = {.coll = TC_COLL_REDUCE, .sendbuf = sendbuf, .recvbuf = recvbuf, .count = count, .type = type,
                .op = op, .root = root};
  return run_collective(plan, &c, err);
}

int tc_mpi_scatter(tc_mpi_plan *plan, const void *sendbuf, void *recvbuf, long long count, MPI_Datatype type,
                   int root, tc_error *err) {
  run_call c = {.coll = TC_COLL_SCATTER, .sendbuf = sendbuf, .recvbuf = recvbuf, .count = count, .type = type,
                .op = MPI_OP_NULL, .root = root};
  return run_collective(plan, &c, err);
}

int tc_mpi_gather(tc_mpi_plan *plan, const void *sendbuf, void *recvbuf, long long count, MPI_Datatype type,
                  int root, tc_error *err) {
  run_call c = {.coll = TC_COLL_GATHER, .sendbuf = sendbuf, .recvbuf = recvbuf, .count = count, .type = type,
                .op = MPI_OP_NULL, .root = root};
  return run_collective(plan, &c, err);
}

int tc_mpi_p2p(tc_mpi_plan *plan, const void *sendbuf, void *recvbuf, long long count, MPI_Datatype type,
               tc_error *err) {
  run_call c = {.coll = TC_COLL_P2P, .sendbuf = sendbuf, .recvbuf = recvbuf, .count = count, .type = type,
                .op = MPI_OP_NULL};
  return run_collective(plan, &c, err);
}
