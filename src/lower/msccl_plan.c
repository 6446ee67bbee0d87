/*
** msccl_plan.c — one rank's program as MSCCL threadblocks and steps (rules in msccl.h).
**
** Three passes over the program's ops, all in array order:
**   1. threadblock of every op: sends to q and receives from q go round-robin over the
**      connection's `width` replicas (channel base + j*B), a copy that moves the new pieces
**      of the receive just before it joins that receive's threadblock, every other copy
**      goes round-robin over `nlocal` local threadblocks;
**   2. threadblock ids: ordered by (channel, sends before receives, peer), local ones last;
**   3. steps: each op becomes ceil(cnt / 71) steps at the end of its threadblock (more
**      when `block` cuts it: for instances, no step may straddle a multiple of `block` in
**      the input or output, see msccl_instances.c), preceded by one nop per extra
**      dependency. A dependency on an op of another threadblock is the
**      XML index of that op's last step; it is dropped when the threadblock already knows
**      that step complete: `known[T][X]` is the highest step of threadblock X that T has
**      (transitively) waited for, and each step keeps a copy of its threadblock's vector,
**      so waiting for (X, s) teaches everything X knew at s.
** Array order is every threadblock's order, and the op a dependency names comes earlier,
** so its steps exist when the dependent op is laid out.
*/
#include <stdlib.h>
#include <string.h>

#include "lower/msccl_internal.h"

/* ---- base channels ---------------------------------------------------------------- */

int tci_mx_channels_assign(const tc_program *progs, int32_t n, tc_mx_channels *out, tc_error *err) {
  memset(out, 0, sizeof *out);
  size_t nn = (size_t)n * (size_t)n, nc = (size_t)n * TC_MX_MAX_CHANNELS;
  out->n = n;
  out->base = malloc(sizeof *out->base * (nn ? nn : 1));
  int32_t *sends = calloc(nc ? nc : 1, sizeof *sends), *recvs = calloc(nc ? nc : 1, sizeof *recvs);
  int rc = TC_OK;
  if (!out->base || !sends || !recvs) {
    rc = tc_error_set(err, TC_ENOMEM, "out of memory assigning MSCCL channels");
    goto done;
  }
  for (size_t i = 0; i < nn; i++) out->base[i] = -1;
  for (int32_t u = 0; u < n; u++)
    for (int64_t x = 0; x < progs[u].nops; x++)
      if (progs[u].ops[x].kind == TC_OP_SEND) out->base[(size_t)u * n + progs[u].ops[x].peer] = -2;
  for (int32_t u = 0; u < n && !rc; u++)
    for (int32_t w = 0; w < n; w++) {
      int32_t *b = &out->base[(size_t)u * n + w];
      if (*b != -2) continue;
      int32_t c = 0;
      while (c < TC_MX_MAX_CHANNELS && (sends[(size_t)u * TC_MX_MAX_CHANNELS + c] >= TC_MX_TB_PER_CHANNEL ||
                                        recvs[(size_t)w * TC_MX_MAX_CHANNELS + c] >= TC_MX_TB_PER_CHANNEL))
        c++;
      if (c == TC_MX_MAX_CHANNELS) {
        rc = tc_error_set(err, TC_ERANGE,
                          "MSCCL limit: the connection %d -> %d finds no channel with room (32 channels of 32 send "
                          "and 32 recv threadblocks per GPU)",
                          u, w);
        break;
      }
      *b = c;
      sends[(size_t)u * TC_MX_MAX_CHANNELS + c]++;
      recvs[(size_t)w * TC_MX_MAX_CHANNELS + c]++;
      if (c + 1 > out->nbase) out->nbase = c + 1;
    }
  if (out->nbase == 0) out->nbase = 1;
done:
  free(sends);
  free(recvs);
  if (rc) tci_mx_channels_destroy(out);
  return rc;
}

void tci_mx_channels_destroy(tc_mx_channels *c) {
  free(c->base);
  memset(c, 0, sizeof *c);
}

/* ---- the planner's state ---------------------------------------------------------- */

enum { DIR_SEND = 0, DIR_RECV = 1, DIR_LOCAL = 2 };

/* A threadblock before it has an id. */
typedef struct tb_spec {
  int32_t chan, dir, peer, local_index, id;
} tb_spec;

typedef struct planner {
  const tc_program *p;
  const tc_mx_channels *ch;
  int32_t width, nlocal;
  int64_t block; /* 0, or the chunks no input/output step may straddle a multiple of */
  tc_mx_gpu *g;
  tc_error *err;
  tb_spec *specs;
  int32_t nspecs;
  int32_t *op_spec; /* per op: its spec, then (after numbering) its threadblock id */
  int64_t *op_last; /* per op: XML index of its last step */
  int32_t *known; /* ntbs x ntbs */
  int32_t **snap; /* per threadblock: (room) x ntbs, the known vector after each step */
  int32_t *cand_tb; /* scratch for one op's dependencies */
  int64_t *cand_s;
} planner;

static int oom(planner *P) {
  return tc_error_set(P->err, TC_ENOMEM, "out of memory planning MSCCL rank %d", P->p->rank);
}

static int new_spec(planner *P, int32_t chan, int32_t dir, int32_t peer, int32_t local_index, int32_t *slot) {
  tb_spec *v = realloc(P->specs, sizeof *v * (size_t)(P->nspecs + 1));
  if (!v) return oom(P);
  P->specs = v;
  v[P->nspecs] = (tb_spec){chan, dir, peer, local_index, -1};
  *slot = P->nspecs++;
  return TC_OK;
}

/* Copy x moves pieces of the redundant receive it follows (program.h: right after it). */
static int follows_its_receive(const tc_program *p, int64_t x, int64_t anchor) {
  if (anchor < 0) return 0;
  const tc_op *c = &p->ops[x], *rv = &p->ops[anchor];
  return c->step == rv->step && c->src == TC_BUF_SCRATCH && rv->dst == TC_BUF_SCRATCH && c->src_off >= rv->dst_off &&
         c->src_off + c->cnt <= rv->dst_off + rv->cnt;
}

/* Pass 1: the spec of every op. */
static int assign_specs(planner *P) {
  const tc_program *p = P->p;
  int32_t n = p->ranks, r = p->rank, W = P->width, B = P->ch->nbase;
  size_t keys = (size_t)n * (size_t)W;
  int32_t *send_spec = malloc(sizeof *send_spec * keys), *recv_spec = malloc(sizeof *recv_spec * keys);
  int32_t *local_spec = malloc(sizeof *local_spec * (size_t)P->nlocal);
  int64_t *sent = calloc((size_t)n, sizeof *sent), *received = calloc((size_t)n, sizeof *received);
  int rc = TC_OK;
  if (!send_spec || !recv_spec || !local_spec || !sent || !received) {
    rc = oom(P);
    goto done;
  }
  for (size_t i = 0; i < keys; i++) send_spec[i] = recv_spec[i] = -1;
  for (int32_t l = 0; l < P->nlocal; l++) local_spec[l] = -1;
  int64_t nlocal_ops = 0, anchor = -1; /* anchor: the receive the following copies may belong to */
  for (int64_t x = 0; x < p->nops && !rc; x++) {
    const tc_op *op = &p->ops[x];
    int32_t q = op->peer, *slot;
    if (op->kind == TC_OP_SEND || op->kind == TC_OP_RECV || op->kind == TC_OP_RECV_REDUCE) {
      int is_send = op->kind == TC_OP_SEND;
      int32_t j = (int32_t)((is_send ? sent[q]++ : received[q]++) % W);
      int32_t base = P->ch->base[is_send ? (size_t)r * n + q : (size_t)q * n + r];
      if (base < 0) { /* the programs disagree with program.h's matching rule */
        rc = tc_error_set(P->err, TC_EFAIL, "rank %d receives from rank %d, whose program sends it nothing", r, q);
        break;
      }
      slot = is_send ? &send_spec[(size_t)q * W + j] : &recv_spec[(size_t)q * W + j];
      if (*slot < 0) rc = new_spec(P, base + j * B, is_send ? DIR_SEND : DIR_RECV, q, -1, slot);
      P->op_spec[x] = *slot;
      anchor = op->kind == TC_OP_RECV ? x : -1;
    } else if (follows_its_receive(p, x, anchor)) {
      P->op_spec[x] = P->op_spec[x - 1];
    } else {
      int32_t l = (int32_t)(nlocal_ops++ % P->nlocal);
      slot = &local_spec[l];
      if (*slot < 0) rc = new_spec(P, 0, DIR_LOCAL, -1, l, slot);
      P->op_spec[x] = *slot;
      anchor = -1;
    }
  }
done:
  free(send_spec);
  free(recv_spec);
  free(local_spec);
  free(sent);
  free(received);
  return rc;
}

static int cmp_spec(const void *a, const void *b) {
  const tb_spec *x = *(const tb_spec *const *)a, *y = *(const tb_spec *const *)b;
  int xl = x->dir == DIR_LOCAL, yl = y->dir == DIR_LOCAL;
  if (xl != yl) return xl - yl;
  if (xl) return (x->local_index > y->local_index) - (x->local_index < y->local_index);
  if (x->chan != y->chan) return x->chan < y->chan ? -1 : 1;
  if (x->dir != y->dir) return x->dir < y->dir ? -1 : 1;
  return (x->peer > y->peer) - (x->peer < y->peer);
}

/* Pass 2: ids in (channel, direction, peer) order, local threadblocks last. */
static int number_threadblocks(planner *P) {
  tc_mx_gpu *g = P->g;
  if (P->nspecs > TC_MX_MAX_TBS)
    return tc_error_set(P->err, TC_ERANGE, "MSCCL limit: gpu %d needs %d threadblocks > %d", P->p->rank, P->nspecs,
                        TC_MX_MAX_TBS);
  tb_spec **order = malloc(sizeof *order * (size_t)(P->nspecs ? P->nspecs : 1));
  g->tbs = calloc((size_t)(P->nspecs ? P->nspecs : 1), sizeof *g->tbs);
  P->snap = calloc((size_t)(P->nspecs ? P->nspecs : 1), sizeof *P->snap);
  if (!order || !g->tbs || !P->snap) {
    free(order);
    return oom(P);
  }
  for (int32_t i = 0; i < P->nspecs; i++) order[i] = &P->specs[i];
  qsort(order, (size_t)P->nspecs, sizeof *order, cmp_spec);
  for (int32_t id = 0; id < P->nspecs; id++) {
    tb_spec *s = order[id];
    s->id = id;
    g->tbs[id] = (tc_mx_tb){.send = s->dir == DIR_SEND ? s->peer : -1,
                            .recv = s->dir == DIR_RECV ? s->peer : -1,
                            .chan = s->chan,
                            .local = s->dir == DIR_LOCAL};
  }
  g->ntbs = P->nspecs;
  free(order);
  for (int64_t x = 0; x < P->p->nops; x++) P->op_spec[x] = P->specs[P->op_spec[x]].id;
  size_t nk = (size_t)g->ntbs * (size_t)g->ntbs;
  P->known = malloc(sizeof *P->known * (nk ? nk : 1));
  P->cand_tb = malloc(sizeof *P->cand_tb * (size_t)(g->ntbs ? g->ntbs : 1));
  P->cand_s = malloc(sizeof *P->cand_s * (size_t)(g->ntbs ? g->ntbs : 1));
  if (!P->known || !P->cand_tb || !P->cand_s) return oom(P);
  for (size_t i = 0; i < nk; i++) P->known[i] = -1;
  return TC_OK;
}

/* ---- pass 3: steps ------------------------------------------------------------------ */

static const int32_t *snapshot(const planner *P, int32_t tb, int64_t s) {
  return P->snap[tb] + (size_t)s * (size_t)P->g->ntbs;
}

/* Append a step to threadblock tb; its snapshot is tb's known vector with itself at s. */
static int append_step(planner *P, int32_t tb, tc_mx_step step) {
  tc_mx_tb *t = &P->g->tbs[tb];
  int32_t ntbs = P->g->ntbs;
  if (t->nsteps == t->room) {
    int64_t room = t->room ? 2 * t->room : 16;
    tc_mx_step *v = realloc(t->steps, sizeof *v * (size_t)room);
    if (!v) return oom(P);
    t->steps = v;
    int32_t *sv = realloc(P->snap[tb], sizeof *sv * (size_t)room * (size_t)ntbs);
    if (!sv) return oom(P);
    P->snap[tb] = sv;
    t->room = room;
  }
  int64_t s = t->nsteps++;
  t->steps[s] = step;
  int32_t *known = P->known + (size_t)tb * ntbs;
  known[tb] = (int32_t)s;
  memcpy(P->snap[tb] + (size_t)s * ntbs, known, sizeof *known * (size_t)ntbs);
  P->g->nsteps++;
  if (step.type == TC_MX_NOP) P->g->nops++;
  return TC_OK;
}

/* The dependencies of op x that threadblock tb must still wait for, in cand_*; returns
   their number. Per other threadblock only the latest step counts; a candidate that tb
   already knows complete, or that another candidate's step knew complete, is dropped. */
static int32_t needed_deps(planner *P, int64_t x, int32_t tb) {
  const tc_program *p = P->p;
  const tc_op *op = &p->ops[x];
  const int32_t *known = P->known + (size_t)tb * P->g->ntbs;
  int32_t k = 0;
  for (int32_t i = 0; i < op->ndeps; i++) {
    int64_t d = p->deps[op->dep_first + i];
    int32_t X = P->op_spec[d];
    int64_t s = P->op_last[d];
    if (X == tb || s <= known[X]) continue;
    int32_t j = 0;
    while (j < k && P->cand_tb[j] != X) j++;
    if (j == k) {
      P->cand_tb[k] = X;
      P->cand_s[k++] = s;
    } else if (s > P->cand_s[j])
      P->cand_s[j] = s;
  }
  int32_t kept = 0;
  for (int32_t a = 0; a < k; a++) {
    int implied = 0;
    for (int32_t b = 0; b < k && !implied; b++)
      implied = b != a && snapshot(P, P->cand_tb[b], P->cand_s[b])[P->cand_tb[a]] >= P->cand_s[a];
    if (!implied) {
      P->cand_tb[kept] = P->cand_tb[a];
      P->cand_s[kept++] = P->cand_s[a];
    }
  }
  return kept;
}

static tc_mx_type step_type(tc_op_kind k) {
  switch (k) {
  case TC_OP_SEND:
    return TC_MX_SEND;
  case TC_OP_RECV:
    return TC_MX_RECV;
  case TC_OP_RECV_REDUCE:
    return TC_MX_RECV_REDUCE_COPY;
  default:
    return TC_MX_COPY;
  }
}

static int check_offset(planner *P, tc_buffer b, int64_t off) {
  if (off <= TC_MX_MAX_OFFSET) return TC_OK;
  return tc_error_set(P->err, TC_ERANGE,
                      "MSCCL limit: gpu %d needs %s chunk offset %lld > %d (the runtime's offsets are int16); use "
                      "fewer chunks per shard",
                      P->p->rank, tc_buffer_name(b), (long long)off, TC_MX_MAX_OFFSET);
}

/* Wait for (X, s): the step of this threadblock carrying it gets depid/deps, the target
   is marked hasdep, and the waiting threadblock learns what X knew at s. */
static int wait_for(planner *P, int32_t tb, int32_t X, int64_t s, tc_mx_step *carrier) {
  if (X > TC_MX_MAX_DEPID)
    return tc_error_set(P->err, TC_ERANGE,
                        "MSCCL limit: gpu %d threadblock %d waits for threadblock %d, but depid is an int8 (at most "
                        "%d)",
                        P->p->rank, tb, X, TC_MX_MAX_DEPID);
  carrier->depid = X;
  carrier->deps = (int32_t)s;
  P->g->tbs[X].steps[s].hasdep = 1;
  int32_t ntbs = P->g->ntbs, *known = P->known + (size_t)tb * ntbs;
  const int32_t *theirs = snapshot(P, X, s);
  for (int32_t i = 0; i < ntbs; i++)
    if (theirs[i] > known[i]) known[i] = theirs[i];
  return TC_OK;
}

static int straddles(uint8_t buf, int64_t off, int64_t cnt, int64_t block) {
  return buf != TC_BUF_SCRATCH && cnt > 0 && off / block != (off + cnt - 1) / block;
}

/* The next step of op from chunk `done` on: at most 71 chunks, and with a block, up to the
   next multiple of it on an input or output side (scratch is never cut: msccl_instances.c
   gives each instance its own contiguous copy). */
static int64_t piece(const tc_op *op, int64_t done, int64_t block, int reads, int writes) {
  int64_t len = op->cnt - done < TC_MX_MAX_COUNT ? op->cnt - done : TC_MX_MAX_COUNT;
  if (block && reads && op->src != TC_BUF_SCRATCH && block - (op->src_off + done) % block < len)
    len = block - (op->src_off + done) % block;
  if (block && writes && op->dst != TC_BUF_SCRATCH && block - (op->dst_off + done) % block < len)
    len = block - (op->dst_off + done) % block;
  return len;
}

static int lay_out_op(planner *P, int64_t x) {
  const tc_op *op = &P->p->ops[x];
  int32_t tb = P->op_spec[x];
  int32_t k = needed_deps(P, x, tb);
  for (int32_t i = 0; i + 1 < k; i++) {
    tc_mx_step nop = {.type = TC_MX_NOP,
                      .srcbuf = TC_BUF_INPUT,
                      .dstbuf = TC_BUF_OUTPUT,
                      .srcoff = -1,
                      .dstoff = -1,
                      .cnt = 0,
                      .depid = -1,
                      .deps = -1};
    if (wait_for(P, tb, P->cand_tb[i], P->cand_s[i], &nop) || append_step(P, tb, nop)) return P->err->code;
  }
  int reads = op->kind != TC_OP_RECV, writes = op->kind != TC_OP_SEND;
  /* A message is cut the same way at its sender and its receiver, so their FIFO still
     matches one for one, only when a block cut falls on neither side: messages stay within
     one shard (program.h), whose chunks are one block of the input and the output. */
  if (P->block && op->kind != TC_OP_COPY &&
      ((reads && straddles(op->src, op->src_off, op->cnt, P->block)) ||
       (writes && straddles(op->dst, op->dst_off, op->cnt, P->block))))
    return tc_error_set(P->err, TC_EFAIL, "MSCCL instances: rank %d op %lld (%lld chunks) crosses a shard",
                        P->p->rank, (long long)x, (long long)op->cnt);
  for (int64_t done = 0, cnt; done < op->cnt; done += cnt) {
    cnt = piece(op, done, P->block, reads, writes);
    tc_mx_step st = {.type = (uint8_t)step_type(op->kind),
                     .srcbuf = reads ? op->src : TC_BUF_INPUT,
                     .dstbuf = writes ? op->dst : TC_BUF_OUTPUT,
                     .srcoff = reads ? op->src_off + done : -1,
                     .dstoff = writes ? op->dst_off + done : -1,
                     .cnt = (int32_t)cnt,
                     .depid = -1,
                     .deps = -1};
    if ((reads && check_offset(P, op->src, st.srcoff)) || (writes && check_offset(P, op->dst, st.dstoff)))
      return P->err->code;
    if (done == 0 && k > 0 && wait_for(P, tb, P->cand_tb[k - 1], P->cand_s[k - 1], &st)) return P->err->code;
    if (append_step(P, tb, st)) return P->err->code;
  }
  P->op_last[x] = P->g->tbs[tb].nsteps - 1;
  return TC_OK;
}

static void note_overflow(tc_mx_overflow *o, int32_t tb, int64_t steps) {
  if (o->tb < 0 || steps > o->steps) {
    o->tb = tb;
    o->steps = steps;
  }
}

int tci_mx_plan_gpu(const tc_program *p, const tc_mx_channels *ch, int32_t width, int32_t nlocal, int64_t block,
                   int32_t max_steps, tc_mx_gpu *out, tc_mx_overflow *peer, tc_mx_overflow *local, tc_error *err) {
  memset(out, 0, sizeof *out);
  *peer = *local = (tc_mx_overflow){-1, 0};
  out->i_chunks = p->input_chunks;
  out->o_chunks = p->output_chunks;
  out->s_chunks = p->scratch_chunks;
  planner P = {.p = p, .ch = ch, .width = width, .nlocal = nlocal, .block = block, .g = out, .err = err};
  int rc = TC_OK;
  size_t nops = (size_t)(p->nops ? p->nops : 1);
  P.op_spec = malloc(sizeof *P.op_spec * nops);
  P.op_last = malloc(sizeof *P.op_last * nops);
  if (!P.op_spec || !P.op_last) rc = oom(&P);
  if (!rc) rc = assign_specs(&P);
  if (!rc) rc = number_threadblocks(&P);
  for (int64_t x = 0; x < p->nops && !rc; x++) rc = lay_out_op(&P, x);
  for (int32_t t = 0; t < out->ntbs && !rc; t++)
    if (out->tbs[t].nsteps > max_steps) note_overflow(out->tbs[t].local ? local : peer, t, out->tbs[t].nsteps);
  if (P.snap)
    for (int32_t t = 0; t < out->ntbs; t++) free(P.snap[t]);
  free(P.snap);
  free(P.specs);
  free(P.op_spec);
  free(P.op_last);
  free(P.known);
  free(P.cand_tb);
  free(P.cand_s);
  if (rc) tci_mx_gpu_destroy(out);
  return rc;
}

void tci_mx_gpu_destroy(tc_mx_gpu *g) {
  if (g->tbs)
    for (int32_t t = 0; t < g->ntbs; t++) free(g->tbs[t].steps);
  free(g->tbs);
  memset(g, 0, sizeof *g);
}
