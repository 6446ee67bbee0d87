/*
** msccl_internal.h — internal: the MSCCL plan (threadblocks and steps of every GPU)
** between the per-rank programs and the XML text. msccl_plan.c builds it (threadblock
** assignment, channels, dependencies as nops), msccl_write.c prints it, msccl.c drives
** the search over channel widths and checks the limits. The contract is msccl.h's.
*/
#ifndef TOPOCOLL_LOWER_MSCCL_INTERNAL_H
#define TOPOCOLL_LOWER_MSCCL_INTERNAL_H

#include <stdint.h>

#include "topocoll/msccl.h"
#include "topocoll/program.h"

/* Runtime constants (docs/msccl.md gives each one's source). */
#define TC_MX_MAX_COUNT 71 /* cnt < MSCCL_MAX_COUNT = 72 */
#define TC_MX_MAX_CHANNELS 32 /* MAXCHANNELS */
#define TC_MX_TB_PER_CHANNEL 32 /* MSCCL_MAX_NUM_THREAD_BLOCKS_PER_CHANNEL, per direction */
#define TC_MX_MAX_TBS 1024 /* MSCCL_MAX_NUM_THREAD_BLOCKS = 32 * MAXCHANNELS */
#define TC_MX_MAX_DEPID 127 /* dependentBid is an int8_t */
#define TC_MX_MAX_OFFSET 32767 /* srcOffset / dstOffset are int16_t */
#define TC_MX_MAX_GPUS 1024 /* MAX_SUBS of the parser: the algo's gpu children */
#define TC_MX_MAX_ELEMENTS 4095 /* MAX_NODES = 4096 parsed elements, one slot to spare */
#define TC_MX_MAX_LOCAL 32 /* local (copy-only) threadblocks we try at most */

typedef enum { TC_MX_SEND = 0, TC_MX_RECV, TC_MX_RECV_REDUCE_COPY, TC_MX_COPY, TC_MX_NOP } tc_mx_type;

typedef struct tc_mx_step {
  uint8_t type; /* tc_mx_type */
  uint8_t srcbuf, dstbuf; /* tc_buffer */
  uint8_t hasdep;
  int64_t srcoff, dstoff; /* chunks; -1 on an unused side */
  int32_t cnt; /* 0 for a nop */
  int32_t depid, deps; /* -1 when none */
} tc_mx_step;

typedef struct tc_mx_tb {
  int32_t send, recv, chan; /* -1 for no peer */
  int32_t local; /* 1 for a copy-only threadblock */
  int64_t nsteps, room;
  tc_mx_step *steps;
} tc_mx_tb;

typedef struct tc_mx_gpu {
  int64_t i_chunks, o_chunks, s_chunks;
  int32_t ntbs;
  tc_mx_tb *tbs; /* index == XML id */
  int64_t nsteps, nops;
} tc_mx_gpu;

/* Connection (u -> w) of ranks: its base channel, or -1 when u sends w nothing. */
typedef struct tc_mx_channels {
  int32_t n; /* ranks */
  int32_t nbase; /* B */
  int32_t *base; /* n * n */
} tc_mx_channels;

/* Base channels for the connections the programs use (greedy lowest-first colouring with
   at most 32 send and 32 recv connections per rank and channel). TC_ERANGE when more than
   32 base channels would be needed. */
int tci_mx_channels_assign(const tc_program *progs, int32_t n, tc_mx_channels *out, tc_error *err);
void tci_mx_channels_destroy(tc_mx_channels *c);

/* What went over a per-threadblock step limit in one planned GPU (-1 tb: nothing). */
typedef struct tc_mx_overflow {
  int32_t tb; /* XML id of the longest threadblock over the limit */
  int64_t steps;
} tc_mx_overflow;

/* Plan rank p->rank with every connection spread over `width` replicas and the local
   copies over `nlocal` threadblocks; `block` > 0 (instances) cuts every step at the
   multiples of block in the input and output. Fails only for memory, the int16 offsets,
   the int8 depid and the per-GPU threadblock count; step counts are checked by the caller
   from `peer` and `local` (the longest peer / local threadblock over max_steps). */
int tci_mx_plan_gpu(const tc_program *p, const tc_mx_channels *ch, int32_t width, int32_t nlocal, int64_t block,
                   int32_t max_steps, tc_mx_gpu *out, tc_mx_overflow *peer, tc_mx_overflow *local, tc_error *err);
void tci_mx_gpu_destroy(tc_mx_gpu *g);

/* msccl-tools' instances: `one` (planned with block = the chunks of a shard, nchannels
   channels) replicated I times into *out. Instance i: threadblock t becomes t * I + i on
   channel nchannels * i + chan (dependencies likewise); input/output chunk c = b * block +
   j (block b, unit j) becomes (b * I + i) * block + j — every shard cut into I pieces, piece
   i moved by instance i, as msccl-tools' interleaved replication with block = 1 — and
   scratch chunk c becomes i * s_chunks + c. TC_ERANGE (naming gpu `rank`) for the int16
   offsets, the int8 depid and the threadblocks per GPU. */
int tci_mx_replicate(const tc_mx_gpu *one, int32_t rank, int32_t instances, int32_t nchannels, int64_t block,
                     tc_mx_gpu *out, tc_error *err);

/* The algo attributes msccl_write.c needs beyond the GPUs. */
typedef struct tc_mx_algo {
  const char *name, *coll, *proto, *redop; /* redop may be NULL */
  int32_t nchannels, ngpus;
  int64_t nchunksperloop, min_bytes, max_bytes;
  int inplace; /* the inplace attribute (outofplace is always 1) */
  const tc_mx_gpu *gpus;
} tc_mx_algo;

/* Write the XML to path atomically. */
int tci_mx_write(const tc_mx_algo *a, const char *path, tc_error *err);

#endif
