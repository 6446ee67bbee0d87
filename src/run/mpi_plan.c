/*
** mpi_plan.c — loading a schedule file as an MPI plan (run_mpi.h), and the agreement that
** keeps every rank's outcome the same.
**
** tc_mpi_plan_load: duplicate the communicator (the plan's messages never meet the
** caller's), then, on every rank independently: read the file, verify it (unless
** TC_MPI_TRUSTED), check its rank count (its compute nodes, rank_map.h) against the
** communicator, lower this rank's program (program.h) and annotate it (run_internal.h):
** global chunk ids for every op, the chunks of redundant receives read off the COPYs that
** follow them, step boundaries, and a check that the executor's way of running a step —
** leading COPYs, then every receive and send posted at once, one MPI_Waitall, then the
** rest in program order — means what the program means: no receive may land on chunks that
** a send of the same step reads, that another receive lands on, or that an earlier
** non-leading op of the step touches (in-place aliases counted, so the check holds in
** place and out of place). A failure
** there is a lowering bug, reported as TC_EFAIL. Then one tci_run_agree, and, when all
** succeeded, a broadcast of rank 0's digest of the schedule and graph and a second
** agreement: a rank that read a different file (a stale copy on one node) is an error on
** every rank instead of a hang in mismatched messages. Last, the ranks group their
** transfers into one message per (step, peer) and tell each other what they send
** (mpi_groups.c), which gives every receive its chunks.
** A programs file (program_io.h, recognised by its first line) skips the reading, verifying
** and lowering: each rank reads its own section (O(its ops), not O(transfers)), annotates
** it as above, and the file's digest is what the ranks compare.
*/
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run/run_internal.h"
#include "topocoll/program_io.h"
#include "topocoll/rank_map.h"
#include "topocoll/sched_io.h"
#include "topocoll/verify.h"

/* ---- agreement ------------------------------------------------------------------------ */

typedef struct agree_record {
  int code, detail;
  char msg[TC_ERRMSG_MAX];
} agree_record;

int tci_run_agree(MPI_Comm comm, int code, int *detail, tc_error *err) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  struct {
    int ok, rank;
  } mine = {code == TC_OK, rank}, first;
  if (MPI_Allreduce(&mine, &first, 1, MPI_2INT, MPI_MINLOC, comm) != MPI_SUCCESS)
    return tc_error_set(err, TC_EFAIL, "MPI_Allreduce failed while the ranks agreed on an outcome");
  if (first.ok) {
    if (detail) *detail = 0;
    return TC_OK;
  }
  agree_record rec;
  memset(&rec, 0, sizeof rec);
  if (rank == first.rank) {
    rec.code = code;
    rec.detail = detail ? *detail : 0;
    snprintf(rec.msg, sizeof rec.msg, "%s", err ? err->msg : "failed");
  }
  if (MPI_Bcast(&rec, (int)sizeof rec, MPI_BYTE, first.rank, comm) != MPI_SUCCESS)
    return tc_error_set(err, TC_EFAIL, "rank %d failed, and MPI_Bcast of its reason failed too", first.rank);
  rec.msg[sizeof rec.msg - 1] = '\0';
  if (detail) *detail = rec.detail;
  tc_error_set(err, rec.code, "%s", rec.msg);
  tc_error_prefix(err, "rank %d", first.rank);
  return rec.code;
}

/* ---- buffers ---------------------------------------------------------------------------- */

static void buf_free(run_buf *b) {
#ifdef SMPI_SHARED_MALLOC
  if (b->shared) {
    if (b->ptr) SMPI_SHARED_FREE(b->ptr);
  } else
#endif
    free(b->ptr);
  b->ptr = NULL;
  b->bytes = 0;
  b->shared = 0;
}

int tci_run_buf_reserve(run_buf *b, size_t bytes, int shared, tc_error *err) {
#ifndef SMPI_SHARED_MALLOC
  shared = 0; /* only SMPI has shared dummy buffers */
#endif
  if (b->ptr && b->bytes >= bytes && b->shared == shared) return TC_OK;
  buf_free(b);
  if (bytes == 0) bytes = 16; /* never NULL: even an empty message needs an address */
#ifdef SMPI_SHARED_MALLOC
  b->ptr = shared ? SMPI_SHARED_MALLOC(bytes) : malloc(bytes);
#else
  b->ptr = malloc(bytes);
#endif
  if (!b->ptr) return tc_error_set(err, TC_ENOMEM, "out of memory for a %zu-byte executor buffer", bytes);
  b->bytes = bytes;
  b->shared = shared;
  return TC_OK;
}

void tci_run_buf_release(run_buf *b) { buf_free(b); }

/* ---- annotation --------------------------------------------------------------------------- */

static int64_t buffer_chunks(const tc_mpi_plan *plan, tc_buffer b) {
  switch (b) {
    case TC_BUF_INPUT: return plan->input_chunks;
    case TC_BUF_OUTPUT: return plan->output_chunks;
    case TC_BUF_SCRATCH: return plan->scratch_chunks;
  }
  return -1;
}

static int is_redundant(const tc_mpi_plan *plan, tc_buffer b, int64_t off) {
  return b == TC_BUF_SCRATCH && off >= plan->redundant_off;
}

/* Global chunk id of (b, off) outside the redundant area. */
static int64_t global_chunk(const tc_mpi_plan *plan, tc_buffer b, int64_t off) {
  int64_t own = (int64_t)plan->rank * plan->units;
  if (plan->coll == TC_COLL_ALLTOALL && b != TC_BUF_SCRATCH) { /* shard r*C + t out, s*C + r in */
    int64_t row = (int64_t)plan->ranks * plan->units;
    if (b == TC_BUF_INPUT) return plan->rank * row + off;
    return (off / plan->units) * row + own + off % plan->units;
  }
  if (b == TC_BUF_INPUT && (plan->coll == TC_COLL_ALLGATHER || plan->coll == TC_COLL_GATHER)) return own + off;
  if (b == TC_BUF_OUTPUT && (plan->coll == TC_COLL_REDUCE_SCATTER || plan->coll == TC_COLL_SCATTER)) return own + off;
  return off; /* allreduce, broadcast, reduce and p2p buffers, the whole sides and the mirror */
}

/* Where the program's buffers sit in one address space with the in-place aliases applied
   (allgather and gather input = output[r*units...], reduce-scatter and scatter output =
   input[r*units...], allreduce, broadcast and reduce input = output): space 0 is the data,
   space 1 the scratch buffer. Alltoall's three buffers never alias; p2p's input and output
   are on different ranks. */
static void unified(const tc_mpi_plan *plan, tc_buffer b, int64_t off, int *space, int64_t *pos) {
  if (plan->coll == TC_COLL_ALLTOALL) { /* three buffers apart: in place, the input is copied away */
    *space = (int)b;
    *pos = off;
    return;
  }
  *space = b == TC_BUF_SCRATCH;
  *pos = b == TC_BUF_SCRATCH ? off : global_chunk(plan, b, off);
}

static int program_error(const tc_mpi_plan *plan, tc_error *err, int64_t i, const char *what) {
  const run_op *op = &plan->ops[i];
  return tc_error_set(err, TC_EFAIL, "program of rank %d, op %lld (%s, step %d): %s", plan->rank, (long long)i,
                      tc_op_kind_name(op->kind), op->step, what);
}

static int check_shape(tc_mpi_plan *plan, const tc_program *p, tc_error *err) {
  int64_t n = plan->nchunks, row = (int64_t)p->ranks * p->units, u = p->units;
  int a2a = p->coll == TC_COLL_ALLTOALL, root = p->rank == p->root, rooted = tc_program_rooted(p->coll);
  int64_t in = n, out = n, mirror = n; /* reduce, and the defaults */
  switch (p->coll) {
  case TC_COLL_ALLGATHER: in = u; mirror = 0; break;
  case TC_COLL_REDUCE_SCATTER: out = u; break;
  case TC_COLL_ALLREDUCE:
  case TC_COLL_BROADCAST: mirror = 0; break;
  case TC_COLL_ALLTOALL: in = out = row; break;
  case TC_COLL_REDUCE: out = root ? n : 0; break;
  case TC_COLL_SCATTER: in = root ? n : 0; out = u; break;
  case TC_COLL_GATHER: in = u; out = root ? n : 0; break;
  case TC_COLL_P2P: in = root ? n : 0; out = p->rank == p->dest ? n : 0; break;
  }
  if (a2a && (int64_t)p->nshards != (int64_t)p->ranks * p->ranks)
    return tc_error_set(err, TC_EFAIL, "alltoall program of rank %d has %d shards, not %d ranks squared", plan->rank,
                        p->nshards, p->ranks);
  if ((p->coll == TC_COLL_SCATTER || p->coll == TC_COLL_GATHER) && p->nshards != p->ranks)
    return tc_error_set(err, TC_EFAIL, "%s program of rank %d has %d shards, not one per rank",
                        tc_collective_name(p->coll), plan->rank, p->nshards);
  if (rooted != (p->root >= 0) || p->root >= p->ranks || (p->coll == TC_COLL_P2P) != (p->dest >= 0) ||
      p->dest >= p->ranks || (p->dest >= 0 && p->dest == p->root))
    return tc_error_set(err, TC_EFAIL, "%s program of rank %d has root %d and destination %d",
                        tc_collective_name(p->coll), plan->rank, p->root, p->dest);
  if (p->ranks != plan->ranks || p->rank != plan->rank || p->input_chunks != in || p->output_chunks != out ||
      p->redundant_off != mirror || p->scratch_chunks < mirror || p->steps < 0 || p->nops < 0)
    return tc_error_set(err, TC_EFAIL, "program of rank %d has an unexpected shape (input %lld, output %lld, "
                        "scratch %lld from %lld chunks)", plan->rank, (long long)p->input_chunks,
                        (long long)p->output_chunks, (long long)p->scratch_chunks, (long long)p->redundant_off);
  return TC_OK;
}

static int check_loc(const tc_mpi_plan *plan, tc_buffer b, int64_t off, int64_t cnt) {
  int64_t size = buffer_chunks(plan, b);
  return size >= 0 && off >= 0 && off <= size && cnt <= size - off;
}

/* The receive of op i's step that landed redundant slot `slot` (searching back from i). */
static int64_t landing_receive(const tc_mpi_plan *plan, int64_t i, int64_t slot) {
  for (int64_t j = i - 1; j >= 0 && plan->ops[j].step == plan->ops[i].step; j--) {
    const run_op *r = &plan->ops[j];
    if (r->kind == TC_OP_RECV && is_redundant(plan, r->dst.buf, r->dst.off) && r->dst.off <= slot &&
        slot < r->dst.off + r->cnt)
      return j;
  }
  return -1;
}

/* Copy op x into plan->ops[i] with its chunk ids. */
static int annotate_op(tc_mpi_plan *plan, int64_t i, const tc_op *x, tc_error *err) {
  run_op *op = &plan->ops[i];
  *op = (run_op){.kind = x->kind, .peer = x->peer, .step = x->step, .cnt = x->cnt, .chunk = -1,
                 .src = {x->src, x->src_off, -1, -1}, .dst = {x->dst, x->dst_off, -1, -1}};
  int reads = x->kind != TC_OP_RECV, writes = x->kind != TC_OP_SEND;
  int local = x->kind == TC_OP_COPY;
  if (x->cnt < 1) return program_error(plan, err, i, "empty chunk range");
  if (local ? (x->step < 0 || x->step > plan->steps + 1) : (x->step < 1 || x->step > plan->steps))
    return program_error(plan, err, i, "step out of range");
  if (!local && (x->peer < 0 || x->peer >= plan->ranks)) return program_error(plan, err, i, "peer out of range");
  if ((reads && !check_loc(plan, x->src, x->src_off, x->cnt)) ||
      (writes && !check_loc(plan, x->dst, x->dst_off, x->cnt)))
    return program_error(plan, err, i, "chunk range outside its buffer");
  int src_red = reads && is_redundant(plan, x->src, x->src_off);
  int dst_red = writes && is_redundant(plan, x->dst, x->dst_off);
  if ((reads && !src_red && is_redundant(plan, x->src, x->src_off + x->cnt - 1)) ||
      (writes && !dst_red && is_redundant(plan, x->dst, x->dst_off + x->cnt - 1)))
    return program_error(plan, err, i, "chunk range straddles the redundant area");
  if (src_red && x->kind != TC_OP_COPY) return program_error(plan, err, i, "reads the redundant area");
  if (dst_red && x->kind != TC_OP_RECV) return program_error(plan, err, i, "writes the redundant area");
  if (writes && x->dst == TC_BUF_INPUT) return program_error(plan, err, i, "writes the read-only input");
  if (x->kind == TC_OP_SEND) op->chunk = global_chunk(plan, x->src, x->src_off);
  else if (!dst_red) op->chunk = global_chunk(plan, x->dst, x->dst_off);
  if (reads && !src_red && global_chunk(plan, x->src, x->src_off) != op->chunk)
    return program_error(plan, err, i, "moves data between different chunks");
  if (dst_red) op->dst.anchor_slot = x->dst_off; /* its chunk: from the COPYs that follow */
  if (src_red) {
    int64_t j = landing_receive(plan, i, x->src_off);
    if (j < 0) return program_error(plan, err, i, "copies from a redundant slot no receive of its step filled");
    run_op *r = &plan->ops[j];
    int64_t first = op->chunk - (x->src_off - r->dst.off);
    if (x->src_off + x->cnt > r->dst.off + r->cnt || first < 0 || first > plan->nchunks - r->cnt ||
        (r->chunk >= 0 && r->chunk != first))
      return program_error(plan, err, i, "disagrees about the chunks its receive carries");
    r->chunk = r->dst.anchor_chunk = first;
    op->src.anchor_slot = r->dst.off;
    op->src.anchor_chunk = first;
  }
  return TC_OK;
}

/* One access of a step, for the step check. mode: 'W' a receive landing (during the
   MPI transfers), 'S' a send reading (during the transfers), 'L' a local access after. */
typedef struct step_access {
  int space;
  char mode;
  int64_t lo, hi, op;
} step_access;

static int cmp_access(const void *a, const void *b) {
  const step_access *x = a, *y = b;
  if (x->space != y->space) return x->space - y->space;
  return (x->lo > y->lo) - (x->lo < y->lo);
}

static void add_access(const tc_mpi_plan *plan, step_access *v, int64_t *n, const run_loc *l, int64_t cnt, char mode,
                       int64_t op) {
  step_access a = {.mode = mode, .op = op};
  unified(plan, l->buf, l->off, &a.space, &a.lo);
  a.hi = a.lo + cnt;
  v[(*n)++] = a;
}

/* Whether accesses a (a receive landing, op i) and b conflict under the step discipline. */
static const char *conflict(const step_access *a, const step_access *b) {
  if (a->mode != 'W') {
    const step_access *t = a;
    a = b;
    b = t;
  }
  if (a->mode != 'W') return NULL;
  if (b->mode == 'W') return "two receives of one step land on the same chunks";
  if (b->mode == 'S') return "a receive lands on chunks a send of the same step reads";
  if (b->op < a->op) return "a receive lands on chunks an earlier op of the same step still needs";
  return NULL;
}

static int check_steps(tc_mpi_plan *plan, tc_error *err) {
  step_access *v = malloc(sizeof *v * (size_t)(2 * plan->nops + 1));
  if (!v) return tc_error_set(err, TC_ENOMEM, "out of memory checking the program of rank %d", plan->rank);
  int rc = TC_OK;
  for (int32_t t = 1; t <= plan->steps && !rc; t++) {
    int64_t first = plan->step_first[t], end = plan->step_first[t + 1], n = 0;
    while (first < end && plan->ops[first].kind == TC_OP_COPY) first++; /* leading COPYs run before */
    for (int64_t i = first; i < end; i++) {
      const run_op *op = &plan->ops[i];
      switch (op->kind) {
        case TC_OP_SEND: add_access(plan, v, &n, &op->src, op->cnt, 'S', i); break;
        case TC_OP_RECV: add_access(plan, v, &n, &op->dst, op->cnt, 'W', i); break;
        default:
          add_access(plan, v, &n, &op->src, op->cnt, 'L', i);
          add_access(plan, v, &n, &op->dst, op->cnt, 'L', i);
      }
    }
    qsort(v, (size_t)n, sizeof *v, cmp_access);
    for (int64_t a = 0; a < n && !rc; a++)
      for (int64_t b = a + 1; b < n && v[b].space == v[a].space && v[b].lo < v[a].hi && !rc; b++) {
        const char *why = conflict(&v[a], &v[b]);
        if (why) rc = program_error(plan, err, v[a].mode == 'W' ? v[a].op : v[b].op, why);
      }
  }
  free(v);
  return rc;
}

static int cmp_i64(const void *a, const void *b) {
  int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
  return (x > y) - (x < y);
}

/* Alltoall: the shards the scratch ops touch (plan->a2a_relayed), each op within one. */
static int collect_relayed(tc_mpi_plan *plan, tc_error *err) {
  int64_t n = 0, *k = malloc(sizeof *k * (size_t)(plan->nops ? plan->nops : 1));
  if (!k) return tc_error_set(err, TC_ENOMEM, "out of memory loading the program of rank %d", plan->rank);
  for (int64_t i = 0; i < plan->nops; i++) {
    const run_op *op = &plan->ops[i];
    const run_loc *l = op->kind == TC_OP_SEND ? &op->src : op->kind == TC_OP_RECV ? &op->dst : NULL;
    if (!l || l->buf != TC_BUF_SCRATCH) continue; /* alltoall has no scratch COPY or RECV_REDUCE */
    if (l->off / plan->units != (l->off + op->cnt - 1) / plan->units) {
      free(k);
      return program_error(plan, err, i, "an alltoall op crosses shards in scratch");
    }
    k[n++] = l->off / plan->units;
  }
  if (n > 1) qsort(k, (size_t)n, sizeof *k, cmp_i64);
  int64_t m = 0;
  for (int64_t i = 0; i < n; i++)
    if (!m || k[m - 1] != k[i]) k[m++] = k[i];
  plan->a2a_relayed = k;
  plan->a2a_nrelayed = m;
  return TC_OK;
}

int tci_run_plan_annotate(tc_mpi_plan *plan, const tc_program *p, tc_error *err) {
  plan->root = p->root;
  plan->dest = p->dest;
  plan->nshards = p->nshards;
  plan->units = p->units;
  plan->steps = p->steps;
  if (p->nshards < 1 || p->units < 1 || __builtin_mul_overflow((int64_t)p->nshards, p->units, &plan->nchunks))
    return tc_error_set(err, TC_EFAIL, "program of rank %d has no valid chunking", plan->rank);
  if (check_shape(plan, p, err)) return err->code;
  plan->input_chunks = p->input_chunks;
  plan->output_chunks = p->output_chunks;
  plan->scratch_chunks = p->scratch_chunks;
  plan->redundant_off = p->redundant_off;
  plan->nops = p->nops;
  plan->ops = malloc(sizeof *plan->ops * (size_t)(p->nops ? p->nops : 1));
  plan->step_first = malloc(sizeof *plan->step_first * (size_t)(p->steps + 3));
  if (!plan->ops || !plan->step_first)
    return tc_error_set(err, TC_ENOMEM, "out of memory loading the program of rank %d", plan->rank);
  int32_t t = 0;
  plan->step_first[0] = 0;
  for (int64_t i = 0; i < p->nops; i++) {
    if (p->ops[i].step < t) return program_error(plan, err, i, "ops not in step order");
    while (t < p->ops[i].step && t <= plan->steps) plan->step_first[++t] = i;
    if (annotate_op(plan, i, &p->ops[i], err)) return err->code;
  }
  while (t <= plan->steps + 1) plan->step_first[++t] = p->nops;
  if (check_steps(plan, err)) return err->code;
  if (plan->coll == TC_COLL_ALLTOALL && collect_relayed(plan, err)) return err->code;
  return tci_run_plan_group(plan, err);
}

/* ---- loading ------------------------------------------------------------------------------ */

/* FNV-1a over the words that make a schedule and its graph: ranks that read different
   files (a stale copy on one node) would run programs that do not match. */
static uint64_t digest_words(uint64_t h, const void *data, size_t bytes) {
  const unsigned char *p = data;
  for (size_t i = 0; i < bytes; i++) h = (h ^ p[i]) * UINT64_C(0x100000001b3);
  return h;
}

static uint64_t schedule_digest(const tc_schedule_doc *doc) {
  const tc_graph *g = doc->graph;
  const tc_schedule *s = &doc->sched;
  int64_t head[] = {s->coll, s->nodes, s->nshards, s->units, s->steps, s->rs_steps, s->count, g->n, g->m};
  uint64_t h = digest_words(UINT64_C(0xcbf29ce484222325), head, sizeof head);
  if (s->owner) h = digest_words(h, s->owner, sizeof *s->owner * (size_t)s->nshards);
  h = digest_words(h, g->src, sizeof *g->src * (size_t)g->m);
  h = digest_words(h, g->dst, sizeof *g->dst * (size_t)g->m);
  h = digest_words(h, g->cap, sizeof *g->cap * (size_t)g->m);
  for (int64_t i = 0; i < s->count; i++) {
    const tc_transfer *x = &s->xfer[i];
    int64_t t[] = {x->shard, x->step, x->arc, x->lo, x->hi};
    h = digest_words(h, t, sizeof t);
  }
  return h;
}

/* A programs file (program_io.h): this rank's section only; the file's digest stands for
   the schedule's. */
static int load_programs(tc_mpi_plan *plan, const char *path, int *cause, uint64_t *digest, tc_error *err) {
  tc_program_file_header hdr;
  tc_program prog;
  int rc = tc_program_file_read_header(path, &hdr, err);
  if (!rc && hdr.ranks != plan->ranks) {
    *cause = TCI_LOAD_WRONG_SIZE;
    return tc_error_set(err, TC_EINPUT, "%s: the programs are for %d ranks but the communicator has %d ranks", path,
                        hdr.ranks, plan->ranks);
  }
  if (!rc) rc = tc_program_file_read(path, plan->rank, &hdr, &prog, err);
  if (rc) return rc;
  plan->coll = hdr.coll;
  snprintf(plan->algorithm, sizeof plan->algorithm, "%s", hdr.algorithm);
  *digest = hdr.digest;
  rc = tci_run_plan_annotate(plan, &prog, err);
  tc_program_destroy(&prog);
  return rc;
}

static int load_local(tc_mpi_plan *plan, const char *path, const char *rank_map, unsigned flags, int *cause,
                      uint64_t *digest, tc_error *err) {
  int programs = tc_program_file_detect(path);
  if (programs && rank_map) {
    *cause = TCI_LOAD_RANK_MAP;
    return tc_error_set(err, TC_EINPUT, "%s: a rank map (%s) needs a schedule file, not a programs file", path,
                        rank_map);
  }
  if (programs) return load_programs(plan, path, cause, digest, err);
  tc_schedule_doc doc;
  if (tc_schedule_read_json(path, NULL, &doc, err)) return err->code;
  const tc_schedule *s = &doc.sched; /* doc.sched itself: still the schedule after a rank map */
  int rc = TC_OK;
  if (tc_program_check(doc.graph, s, err)) { /* what `run` checks before launching mpirun */
    tc_error_prefix(err, "%s", path);
    rc = err->code;
  } else if (tc_rank_count(doc.graph) != plan->ranks) { /* rank r plays the r-th compute node */
    *cause = TCI_LOAD_WRONG_SIZE;
    int fabric = tc_rank_count(doc.graph) < doc.graph->n;
    rc = tc_error_set(err, TC_EINPUT, "%s: the schedule is for %d %snodes but the communicator has %d ranks", path,
                      tc_rank_count(doc.graph), fabric ? "compute " : "", plan->ranks);
  } else if (!(flags & TC_MPI_TRUSTED) && tc_schedule_verify(doc.graph, s, err)) {
    tc_error_prefix(err, "%s: invalid schedule", path);
    rc = TC_EINPUT;
    err->code = rc;
  } else if (rank_map) { /* onto the verified schedule: the image of a valid schedule is valid */
    if ((rc = tc_rank_map_apply(rank_map, &doc, err))) *cause = TCI_LOAD_RANK_MAP;
  }
  /* After the map: ranks given different maps are caught like ranks that read different files. */
  *digest = rc ? 0 : schedule_digest(&doc);
  if (!rc) {
    plan->coll = s->coll;
    snprintf(plan->algorithm, sizeof plan->algorithm, "%s", s->algorithm);
    tc_program prog;
    rc = tc_program_lower(doc.graph, s, plan->rank, 0, &prog, err);
    if (rc) tc_error_prefix(err, "%s", path);
    else {
      rc = tci_run_plan_annotate(plan, &prog, err);
      tc_program_destroy(&prog);
    }
  }
  tc_schedule_doc_destroy(&doc);
  return rc;
}

int tci_run_plan_load(const char *path, const char *rank_map, MPI_Comm comm, unsigned flags, tc_mpi_plan **out,
                      int *cause, tc_error *err) {
  tc_error local;
  if (!err) err = &local; /* the ranks still need a reason to share */
  tc_error_clear(err);
  *out = NULL;
  if (cause) *cause = 0;
  int inter = 0;
  MPI_Comm_test_inter(comm, &inter); /* the same answer on every rank: no agreement needed */
  if (inter) return tc_error_set(err, TC_EINPUT, "%s: a plan needs an intracommunicator", path ? path : "(null)");
  MPI_Comm dup;
  if (MPI_Comm_dup(comm, &dup) != MPI_SUCCESS)
    return tc_error_set(err, TC_EFAIL, "%s: MPI_Comm_dup failed", path ? path : "(null)");
  MPI_Comm_set_errhandler(dup, MPI_ERRORS_RETURN);
  tc_mpi_plan *plan = calloc(1, sizeof *plan);
  int rank, size, rc, mismatch = 0;
  uint64_t digest = 0;
  MPI_Comm_rank(dup, &rank);
  MPI_Comm_size(dup, &size);
  if (!plan) rc = tc_error_set(err, TC_ENOMEM, "out of memory for a plan");
  else if (!path) rc = tc_error_set(err, TC_EINPUT, "no plan file given");
  else {
    plan->comm = dup;
    plan->rank = rank;
    plan->ranks = size;
    plan->compute = 1;
    plan->msg_max = INT_MAX;
    int *ub, flag = 0;
    MPI_Comm_get_attr(dup, MPI_TAG_UB, &ub, &flag);
    plan->tag_ub = flag && *ub > 0 ? *ub : 32767; /* the least MPI guarantees */
    rc = load_local(plan, path, rank_map, flags, &mismatch, &digest, err);
  }
  rc = tci_run_agree(dup, rc, &mismatch, err);
  if (cause) *cause = rc ? mismatch : 0;
  if (!rc) { /* every rank must have read the same schedule */
    unsigned long long first = digest;
    if (MPI_Bcast(&first, 1, MPI_UNSIGNED_LONG_LONG, 0, dup) != MPI_SUCCESS)
      rc = tc_error_set(err, TC_EFAIL, "%s: MPI_Bcast failed", path);
    else if (first != digest)
      rc = tc_error_set(err, TC_EINPUT, "%s: this rank read another schedule than rank 0 (the file differs "
                        "between ranks)", path);
    rc = tci_run_agree(dup, rc, NULL, err);
  }
  if (!rc) rc = tci_run_agree(dup, tci_run_plan_match(plan, err), NULL, err); /* one message per (step, peer) */
  if (rc) {
    if (plan) plan->comm = MPI_COMM_NULL;
    tc_mpi_plan_destroy(plan);
    MPI_Comm_free(&dup);
    return rc;
  }
  *out = plan;
  return TC_OK;
}

int tc_mpi_plan_load(const char *path, MPI_Comm comm, unsigned flags, tc_mpi_plan **out, tc_error *err) {
  return tci_run_plan_load(path, NULL, comm, flags, out, NULL, err);
}

int tc_mpi_plan_load_mapped(const char *path, const char *rank_map, MPI_Comm comm, unsigned flags,
                            tc_mpi_plan **out, tc_error *err) {
  return tci_run_plan_load(path, rank_map, comm, flags, out, NULL, err);
}

void tc_mpi_plan_destroy(tc_mpi_plan *plan) {
  if (!plan) return;
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (plan->comm != MPI_COMM_NULL && !finalized) MPI_Comm_free(&plan->comm);
  free(plan->ops);
  free(plan->step_first);
  free(plan->groups);
  free(plan->group_ops);
  free(plan->group_first);
  free(plan->layout.span);
  free(plan->layout.gspan);
  tci_run_buf_release(&plan->scratch);
  tci_run_buf_release(&plan->staging);
  tci_run_buf_release(&plan->a2a_input);
  free(plan->a2a_relayed);
  free(plan->req);
  free(plan);
}

tc_collective tc_mpi_plan_collective(const tc_mpi_plan *plan) { return plan->coll; }
const char *tc_mpi_plan_algorithm(const tc_mpi_plan *plan) { return plan->algorithm; }
int tc_mpi_plan_ranks(const tc_mpi_plan *plan) { return plan->ranks; }
int tc_mpi_plan_root(const tc_mpi_plan *plan) { return plan->root; }
int tc_mpi_plan_dest(const tc_mpi_plan *plan) { return plan->dest; }

void tc_mpi_plan_set_compute(tc_mpi_plan *plan, int on) { plan->compute = on != 0; }

void tci_run_plan_set_msg_max(tc_mpi_plan *plan, int64_t elements) {
  plan->msg_max = elements < 1 ? 1 : elements > INT_MAX ? INT_MAX : elements;
  plan->layout.valid = 0;
}
