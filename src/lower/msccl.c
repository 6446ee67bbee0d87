/*
** msccl.c — tc_msccl_export (msccl.h): check the options, verify the schedule, lower every
** rank, search the channel width and the number of local threadblocks upward until every
** threadblock fits the step limit, check the per-GPU limits, write the file.
**
** The search: W (replicas per connection) and L (local threadblocks) start at 1; a plan
** whose longest peer threadblock is over the limit retries with W + 1 (while W * B <= 32),
** one whose longest local threadblock is over retries with L + 1 (up to 32). More
** threadblocks never shorten the XML, so the element limit ends the search at once.
** With I instances the search plans one instance, on I times fewer channels (W * B * I <=
** 32) and counting the XML elements of all I, and the plan is then replicated
** (msccl_instances.c).
*/
#include "topocoll/msccl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/intmath.h"
#include "core/progress.h"
#include "lower/msccl_internal.h"
#include "lower/relay.h"
#include "topocoll/rank_map.h"
#include "topocoll/verify.h"

#define NAME_MAX_LEN 200
#define STEPS_CEILING (INT64_MAX / 2) /* element_lower_bound's counts stop here */

void tc_msccl_options_init(tc_msccl_options *o) {
  memset(o, 0, sizeof *o);
  o->proto = TC_MSCCL_SIMPLE;
  o->min_bytes = 0;
  o->max_bytes = TC_MSCCL_ANY_SIZE;
}

const char *tc_msccl_proto_name(tc_msccl_proto p) {
  static const char *const names[] = {"Simple", "LL", "LL128"};
  return (unsigned)p < 3 ? names[p] : NULL;
}

int tc_msccl_proto_parse(const char *name) {
  for (int p = 0; p < 3; p++)
    if (!strcmp(name, tc_msccl_proto_name((tc_msccl_proto)p))) return p;
  return -1;
}

const char *tc_msccl_coll_name(tc_collective c) {
  switch (c) {
  case TC_COLL_ALLGATHER:
    return "allgather";
  case TC_COLL_REDUCE_SCATTER:
    return "reducescatter";
  case TC_COLL_ALLREDUCE:
    return "allreduce";
  case TC_COLL_ALLTOALL:
    return "alltoall";
  default:
    return NULL;
  }
}

/* The runtime copies attribute values into 256-byte buffers without unescaping: keep names
   short and free of characters XML would need escaped. */
static int name_char_ok(char c) { return c >= 0x20 && c < 0x7f && !strchr("\"'&<>", c); }

static int check_options(const tc_schedule *s, const tc_msccl_options *o, tc_error *err) {
  if (!tc_msccl_proto_name(o->proto)) return tc_error_set(err, TC_EINPUT, "unknown MSCCL protocol %d", (int)o->proto);
  if (o->name) {
    size_t len = strlen(o->name);
    if (len == 0 || len > NAME_MAX_LEN)
      return tc_error_set(err, TC_EINPUT, "MSCCL algo name must have 1 to %d characters", NAME_MAX_LEN);
    for (size_t i = 0; i < len; i++)
      if (!name_char_ok(o->name[i]))
        return tc_error_set(err, TC_EINPUT, "MSCCL algo name \"%s\": only printable ASCII without \" ' & < >", o->name);
  }
  if (o->min_bytes < 0) return tc_error_set(err, TC_EINPUT, "minBytes %lld is negative", (long long)o->min_bytes);
  if (o->max_bytes <= 0 || o->max_bytes < o->min_bytes)
    return tc_error_set(err, TC_EINPUT, "maxBytes %lld must be positive and at least minBytes %lld",
                        (long long)o->max_bytes, (long long)o->min_bytes);
  if (o->redop) {
    if (strcmp(o->redop, "sum") && strcmp(o->redop, "prod") && strcmp(o->redop, "max") && strcmp(o->redop, "min"))
      return tc_error_set(err, TC_EINPUT, "unknown reduction \"%s\" (sum, prod, max, min)", o->redop);
    if (s->coll == TC_COLL_ALLGATHER || s->coll == TC_COLL_ALLTOALL)
      return tc_error_set(err, TC_EINPUT, "a reduction (redop) applies to reduce-scatter and allreduce, not %s",
                          tc_collective_name(s->coll));
  }
  if (o->max_steps < 0 || o->max_steps > 1024)
    return tc_error_set(err, TC_EINPUT, "max steps per threadblock %d outside 1..1024", o->max_steps);
  if (o->channels < 0 || o->channels > TC_MX_MAX_CHANNELS)
    return tc_error_set(err, TC_EINPUT, "channels per connection %d outside 1..%d", o->channels,
                        TC_MX_MAX_CHANNELS);
  if (o->instances < 0 || o->instances > TC_MX_MAX_CHANNELS)
    return tc_error_set(err, TC_EINPUT, "instances %d outside 1..%d", o->instances, TC_MX_MAX_CHANNELS);
  return TC_OK;
}

/* "<algorithm> <collective> n<N>" (N ranks), characters the name may not hold replaced by '_'. */
static void default_name(const tc_schedule *s, int32_t ranks, char *buf, size_t size) {
  snprintf(buf, size, "%s %s n%d", s->algorithm[0] ? s->algorithm : "schedule", tc_collective_name(s->coll), ranks);
  for (char *c = buf; *c; c++)
    if (!name_char_ok(*c)) *c = '_';
}

typedef struct exporter {
  const tc_schedule *s;
  int32_t n, max_steps, channels;
  int32_t instances; /* I >= 1 */
  int64_t block;     /* chunks per shard when I > 1 (every step cut at its multiples), else 0 */
  tc_program *progs;
  tc_mx_channels ch;
  tc_mx_gpu *gpus;
  tc_error *err;
} exporter;

static void free_gpus(exporter *E) {
  if (!E->gpus) return;
  for (int32_t r = 0; r < E->n; r++) tci_mx_gpu_destroy(&E->gpus[r]);
  free(E->gpus);
  E->gpus = NULL;
}

/* Every message between two ranks is at least ceil(cnt / 71) steps at its sender and at
   its receiver: refuse at once (before lowering N programs) a schedule that cannot fit the
   parser's element limit on some GPU. */
static int element_lower_bound(exporter *E, const tc_graph *g) {
  tc_rank_map map;
  tci_rank_xfers all;
  if (tc_rank_map_init(&map, g, E->err)) return E->err->code;
  int rc = tci_rank_xfers_init(&all, g, E->s, &map, E->err);
  tc_rank_map_destroy(&map);
  if (rc) return rc;
  int64_t *steps = calloc((size_t)E->n, sizeof *steps);
  if (!steps) {
    tci_rank_xfers_destroy(&all);
    return tc_error_set(E->err, TC_ENOMEM, "out of memory counting steps");
  }
  for (int64_t i = 0; i < all.count; i++) {
    tci_rank_xfer x = tci_rank_xfers_get(&all, i);
    int32_t u = x.from, w = x.to;
    int64_t len = x.hi - x.lo, pieces = len / TC_MX_MAX_COUNT + (len % TC_MX_MAX_COUNT != 0);
    if (u == w) continue;
    /* Chunk bounds reach 2^63-1: a sum that overflows stops at a bound it is above, which
       keeps "at least" true and 1 + n + steps representable. */
    if (tci_add64(steps[u], pieces, &steps[u]) || steps[u] > STEPS_CEILING) steps[u] = STEPS_CEILING;
    if (tci_add64(steps[w], pieces, &steps[w]) || steps[w] > STEPS_CEILING) steps[w] = STEPS_CEILING;
  }
  tci_rank_xfers_destroy(&all);
  for (int32_t r = 0; r < E->n && !rc; r++)
    if (1 + (int64_t)E->n + steps[r] > TC_MX_MAX_ELEMENTS)
      rc = tc_error_set(E->err, TC_ERANGE,
                        "MSCCL limit: gpu %d needs at least %lld XML elements (1 algo, %d gpus, %lld steps for its "
                        "transfers) > %d, what the runtime's parser holds",
                        r, (long long)(1 + E->n + steps[r]), E->n, (long long)steps[r], TC_MX_MAX_ELEMENTS);
  free(steps);
  return rc;
}

static int cmp_interval(const void *a, const void *b) {
  const int64_t *x = a, *y = b;
  return (x[0] > y[0]) - (x[0] < y[0]);
}

/* Alltoall: the program's scratch mirrors all C*C shards (program.h), of which a rank
   relays a few; MSCCL sizes scratch by s_chunks (the same chunk size as the buffers) and
   offsets are int16, so the chunks the ops touch are packed together in their order. An
   op's range lies within one merged interval of the touched chunks, so it stays one range. */
static int compact_scratch(tc_program *p, tc_error *err) {
  int64_t n = 0, (*iv)[2] = malloc(sizeof *iv * (size_t)(2 * p->nops + 1));
  if (!iv) return tc_error_set(err, TC_ENOMEM, "out of memory packing the scratch of rank %d", p->rank);
  for (int64_t i = 0; i < p->nops; i++) {
    const tc_op *op = &p->ops[i];
    if (op->kind != TC_OP_RECV && op->src == TC_BUF_SCRATCH) iv[n][0] = op->src_off, iv[n++][1] = op->src_off + op->cnt;
    if (op->kind != TC_OP_SEND && op->dst == TC_BUF_SCRATCH) iv[n][0] = op->dst_off, iv[n++][1] = op->dst_off + op->cnt;
  }
  qsort(iv, (size_t)n, sizeof *iv, cmp_interval);
  int64_t m = 0; /* merge, and give each merged interval its packed start in iv[k][1] after */
  for (int64_t i = 0; i < n; i++) {
    if (m && iv[i][0] <= iv[m - 1][1]) {
      if (iv[i][1] > iv[m - 1][1]) iv[m - 1][1] = iv[i][1];
    } else {
      iv[m][0] = iv[i][0];
      iv[m++][1] = iv[i][1];
    }
  }
  int64_t *packed = malloc(sizeof *packed * (size_t)(m + 1));
  if (!packed) {
    free(iv);
    return tc_error_set(err, TC_ENOMEM, "out of memory packing the scratch of rank %d", p->rank);
  }
  packed[0] = 0;
  for (int64_t k = 0; k < m; k++) packed[k + 1] = packed[k] + iv[k][1] - iv[k][0];
  for (int64_t i = 0; i < p->nops; i++) {
    tc_op *op = &p->ops[i];
    int64_t *offs[2] = {op->kind != TC_OP_RECV && op->src == TC_BUF_SCRATCH ? &op->src_off : NULL,
                        op->kind != TC_OP_SEND && op->dst == TC_BUF_SCRATCH ? &op->dst_off : NULL};
    for (int j = 0; j < 2; j++) {
      if (!offs[j]) continue;
      int64_t a = 0, b = m - 1; /* the merged interval holding the offset */
      while (a < b) {
        int64_t mid = a + (b - a + 1) / 2;
        if (iv[mid][0] <= *offs[j]) a = mid;
        else b = mid - 1;
      }
      *offs[j] = packed[a] + (*offs[j] - iv[a][0]);
    }
  }
  p->scratch_chunks = p->redundant_off = packed[m];
  free(packed);
  free(iv);
  return TC_OK;
}

static int lower_all(exporter *E, const tc_graph *g) {
  E->progs = calloc((size_t)E->n, sizeof *E->progs);
  if (!E->progs) return tc_error_set(E->err, TC_ENOMEM, "out of memory lowering %d ranks", E->n);
  if (tc_program_lower_all(g, E->s, TC_LOWER_DEPS, E->progs, E->err)) return E->err->code;
  for (int32_t r = 0; r < E->n && E->s->coll == TC_COLL_ALLTOALL; r++)
    if (compact_scratch(&E->progs[r], E->err)) return E->err->code;
  return tci_mx_channels_assign(E->progs, E->n, &E->ch, E->err);
}

static int check_elements(exporter *E) {
  for (int32_t r = 0; r < E->n; r++) {
    const tc_mx_gpu *g = &E->gpus[r];
    int64_t I = E->instances, elements = 1 + (int64_t)E->n + (g->ntbs + g->nsteps) * I;
    if (elements > TC_MX_MAX_ELEMENTS)
      return tc_error_set(E->err, TC_ERANGE,
                          "MSCCL limit: gpu %d needs %lld XML elements (1 algo, %d gpus, %lld threadblocks, %lld steps%s) "
                          "> %d, what the runtime's parser holds",
                          r, (long long)elements, E->n, (long long)(g->ntbs * I), (long long)(g->nsteps * I),
                          I > 1 ? " over its instances" : "", TC_MX_MAX_ELEMENTS);
  }
  return TC_OK;
}

static void describe_tb(const tc_mx_tb *tb, char *buf, size_t size) {
  if (tb->send >= 0)
    snprintf(buf, size, "send to %d, channel %d", tb->send, tb->chan);
  else if (tb->recv >= 0)
    snprintf(buf, size, "recv from %d, channel %d", tb->recv, tb->chan);
  else
    snprintf(buf, size, "local copies");
}

/* What exceeded the step limit in one kind of threadblock (peer or local): the longest. */
typedef struct overflow_note {
  int exceeded;
  int64_t steps;
  char where[160];
} overflow_note;

static void note(overflow_note *n, const tc_mx_gpu *g, int32_t r, const tc_mx_overflow *o, int32_t max_steps) {
  if (o->tb < 0) return;
  n->exceeded = 1;
  if (o->steps <= n->steps) return;
  char what[64];
  n->steps = o->steps;
  describe_tb(&g->tbs[o->tb], what, sizeof what);
  snprintf(n->where, sizeof n->where, "gpu %d threadblock %d (%s) needs %lld steps > %d", r, o->tb, what,
           (long long)o->steps, max_steps);
}

/* Plan every GPU with (W, L), noting the threadblocks over the step limit. */
static int plan_all(exporter *E, int32_t W, int32_t L, overflow_note *peer_note, overflow_note *local_note) {
  memset(peer_note, 0, sizeof *peer_note);
  memset(local_note, 0, sizeof *local_note);
  E->gpus = calloc((size_t)E->n, sizeof *E->gpus);
  if (!E->gpus) return tc_error_set(E->err, TC_ENOMEM, "out of memory planning %d GPUs", E->n);
  for (int32_t r = 0; r < E->n; r++) {
    tc_mx_overflow peer, local;
    if (tci_mx_plan_gpu(&E->progs[r], &E->ch, W, L, E->block, E->max_steps, &E->gpus[r], &peer, &local, E->err))
      return E->err->code;
    note(peer_note, &E->gpus[r], r, &peer, E->max_steps);
    note(local_note, &E->gpus[r], r, &local, E->max_steps);
  }
  return check_elements(E);
}

static int search(exporter *E, int32_t *W_out, int32_t *L_out) {
  int32_t W = E->channels > 1 ? E->channels : 1, L = 1, Wmax = TC_MX_MAX_CHANNELS / (E->ch.nbase * E->instances);
  /* Asked for more replicas than the channels hold (B base channels each, for each of the
     I instances): no plan can. */
  if (W > Wmax) {
    char instances[48] = "";
    if (E->instances > 1) snprintf(instances, sizeof instances, " x %d instances", E->instances);
    return tc_error_set(E->err, TC_ERANGE, "MSCCL limit: %d channel%s per connection x %d base channel%s%s > %d channels",
                        W, W == 1 ? "" : "s", E->ch.nbase, E->ch.nbase == 1 ? "" : "s", instances, TC_MX_MAX_CHANNELS);
  }
  for (;;) {
    overflow_note peer, local;
    if (plan_all(E, W, L, &peer, &local)) return E->err->code;
    if (!peer.exceeded && !local.exceeded) break;
    free_gpus(E);
    const char *stuck = NULL;
    if (peer.exceeded && W == Wmax)
      stuck = peer.where;
    else if (local.exceeded && L == TC_MX_MAX_LOCAL)
      stuck = local.where;
    if (stuck)
      return tc_error_set(E->err, TC_ERANGE, "MSCCL limit: %s even over %d channels and %d local threadblocks", stuck,
                          W * E->ch.nbase, L);
    if (peer.exceeded) W++;
    if (local.exceeded) L++;
  }
  *W_out = W;
  *L_out = L;
  return TC_OK;
}

/* The planned instance's channels: 1 + the highest any threadblock uses. */
static int32_t planned_channels(const exporter *E) {
  int32_t nchannels = 1;
  for (int32_t r = 0; r < E->n; r++)
    for (int32_t t = 0; t < E->gpus[r].ntbs; t++)
      if (E->gpus[r].tbs[t].chan + 1 > nchannels) nchannels = E->gpus[r].tbs[t].chan + 1;
  return nchannels;
}

/* I > 1: every planned GPU becomes its I instances (msccl_instances.c). */
static int replicate_all(exporter *E) {
  if (E->instances == 1) return TC_OK;
  int32_t nchannels = planned_channels(E);
  tc_mx_gpu *all = calloc((size_t)E->n, sizeof *all);
  if (!all) return tc_error_set(E->err, TC_ENOMEM, "out of memory replicating %d GPUs", E->n);
  int rc = TC_OK;
  for (int32_t r = 0; r < E->n && !rc; r++)
    rc = tci_mx_replicate(&E->gpus[r], r, E->instances, nchannels, E->block, &all[r], E->err);
  free_gpus(E);
  E->gpus = all; /* freed by free_gpus, the ones not made are empty */
  return rc;
}

static void fill_stats(const exporter *E, int32_t W, tc_mx_algo *a, tc_msccl_stats *st) {
  memset(st, 0, sizeof *st);
  st->base_channels = E->ch.nbase;
  st->width = W;
  st->instances = E->instances;
  a->nchannels = 1;
  for (int32_t r = 0; r < E->n; r++) {
    const tc_mx_gpu *g = &E->gpus[r];
    st->threadblocks += g->ntbs;
    if (g->ntbs > st->max_threadblocks) st->max_threadblocks = g->ntbs;
    st->steps += g->nsteps;
    st->nops += g->nops;
    for (int32_t t = 0; t < g->ntbs; t++) {
      if (g->tbs[t].chan + 1 > a->nchannels) a->nchannels = g->tbs[t].chan + 1;
      if (g->tbs[t].nsteps > st->max_tb_steps) st->max_tb_steps = (int32_t)g->tbs[t].nsteps;
    }
  }
  st->nchannels = a->nchannels;
}

int tc_msccl_export(const tc_graph *g, const tc_schedule *s, const tc_msccl_options *opts, const char *path,
                    tc_msccl_stats *stats, tc_error *err) {
  tc_msccl_options defaults;
  tc_msccl_options_init(&defaults);
  const tc_msccl_options *o = opts ? opts : &defaults;
  const char *coll = tc_msccl_coll_name(s->coll);
  /* The runtime's broadcast and reduce algorithms carry no root (an algorithm file is
     picked for every root's call), and it has no multi-path point-to-point: the rooted
     collectives are not exported rather than exported wrong. */
  if (!coll)
    return tc_error_set(err, TC_EINPUT, "MSCCL export covers allgather, reduce-scatter, allreduce and alltoall, not %s%s",
                        tc_collective_name(s->coll),
                        s->coll == TC_COLL_P2P ? " (MSCCL has no multi-path point-to-point)"
                                               : " (an MSCCL algorithm names no root: it would serve every root's calls)");
  if (check_options(s, o, err)) return err->code;
  int32_t ranks = tc_rank_count(g);
  if (ranks > TC_MX_MAX_GPUS)
    return tc_error_set(err, TC_ERANGE, "MSCCL limit: %d ranks > %d (the runtime's parser holds %d gpu elements)",
                        ranks, TC_MX_MAX_GPUS, TC_MX_MAX_GPUS);
  tci_progress(o->progress, o->progress_ctx, 0, 0, "msccl: verifying the schedule");
  int rc = tc_schedule_verify(g, s, err);
  if (rc) {
    tc_error_prefix(err, "not exported: the schedule fails verification");
    return rc;
  }
  exporter E = {
      .s = s,
      .n = ranks,
      .max_steps = o->max_steps ? o->max_steps : TC_MSCCL_DEFAULT_MAX_STEPS,
      .channels = o->channels,
      .instances = o->instances > 1 ? o->instances : 1,
      .block = o->instances > 1 ? s->units : 0,
      .err = err};
  int32_t W = 0, L = 0;
  tci_progress(o->progress, o->progress_ctx, 0, 0, "msccl: lowering to per-GPU programs");
  rc = element_lower_bound(&E, g);
  if (!rc) rc = lower_all(&E, g);
  if (!rc) tci_progress(o->progress, o->progress_ctx, 0, 0, "msccl: choosing channels and threadblocks");
  if (!rc) rc = search(&E, &W, &L);
  if (!rc) rc = replicate_all(&E);
  if (!rc) {
    char name[NAME_MAX_LEN + 64];
    if (o->name)
      snprintf(name, sizeof name, "%s", o->name);
    else
      default_name(s, ranks, name, sizeof name);
    tc_msccl_stats st;
    tc_mx_algo a = {.name = name,
                    .coll = coll,
                    .proto = tc_msccl_proto_name(o->proto),
                    .redop = o->redop,
                    .ngpus = E.n,
                    /* the whole buffer in chunks: the gathered / scattered / reduced one, or
                       alltoall's per-rank send buffer (C shards; the runtime multiplies the
                       per-peer count by ngpus) */
                    .nchunksperloop = (s->coll == TC_COLL_ALLTOALL ? (int64_t)ranks * s->units
                                                                   : (int64_t)s->nshards * s->units) *
                                      E.instances,
                    .min_bytes = o->min_bytes,
                    .max_bytes = o->max_bytes,
                    /* alltoall's dependencies keep input and output apart (program.h) */
                    .inplace = s->coll != TC_COLL_ALLTOALL,
                    .gpus = E.gpus};
    fill_stats(&E, W, &a, &st);
    tci_progress(o->progress, o->progress_ctx, 0, 0, "msccl: writing %s", path);
    rc = tci_mx_write(&a, path, err);
    if (!rc && stats) *stats = st;
  }
  free_gpus(&E);
  if (E.progs)
    for (int32_t r = 0; r < E.n; r++) tc_program_destroy(&E.progs[r]);
  free(E.progs);
  tci_mx_channels_destroy(&E.ch);
  return rc;
}
