/*
** msccl.h — a verified schedule as an MSCCL algorithm file (the XML the MSCCL runtime,
** Azure/msccl-executor-nccl and RCCL's MSCCL executor, loads from MSCCL_ALGO_DIR).
**
** tc_msccl_export(g, s, opts, path) verifies s on g (tc_schedule_verify: an unverified
** schedule is never exported), lowers every rank with tc_program_lower(..., TC_LOWER_DEPS)
** and writes one <algo> element (docs/msccl.md has the facts and their sources):
**   <algo name proto nchannels nchunksperloop ngpus coll inplace outofplace minBytes maxBytes [redop]>
**     <gpu id i_chunks o_chunks s_chunks>        one per rank, buffers in program chunks
**       <tb id send recv chan>                   threadblocks, ids 0..n-1
**         <step s type srcbuf srcoff dstbuf dstoff cnt depid deps hasdep/>
** coll is allgather, reducescatter, allreduce or alltoall; nchunksperloop = nshards * units
** (the larger of i_chunks and o_chunks); inplace = outofplace = 1 (program.h computes the
** dependencies with the in-place aliases, so one program serves both). Alltoall (paper 003
** §4): the runtime multiplies the per-peer count by ngpus, so nchunksperloop = i_chunks =
** o_chunks = ngpus * units; relayed units live in scratch, packed to the chunks the GPU
** relays (s_chunks); inplace = 0 (its input and output never alias, program.h).
**
** Mapping. SEND -> "s", RECV -> "r", RECV_REDUCE -> "rrc" (dst = src (op) received),
** COPY -> "cpy"; buffers input/output/scratch -> "i"/"o"/"s"; an unused side is written
** as buffer "i" or "o" with offset -1 (as msccl-tools writes it). No fused types: every
** op stays one step (or several, see cnt).
** Threadblocks. One per (channel, send peer) holding the rank's sends to that peer, one
** per (channel, recv peer) holding its receives from that peer and the copies that move
** a redundant receive's new pieces (program.h), and local threadblocks (send = recv =
** -1, channel 0) for the other copies. The k-th send of u to w and the k-th receive of w
** from u go to the same channel, so every (channel, u -> w) connection carries one FIFO
** whose sends and receives match one for one in order.
** Dependencies. A step waits for the program's dependencies that live in other
** threadblocks of the same rank; dependencies implied by the threadblock's order or by
** what it already waited for (transitively, through the steps it waited for) are
** dropped. The runtime gives a step one (depid, deps) pair, so k > 1 dependencies become
** k - 1 "nop" steps (cnt 0) before it, each with one; deps names the XML step index s
** (nops counted, as the runtime counts them). hasdep = 1 on exactly the steps some other
** step waits for.
** Limits (MSCCL runtime constants, docs/msccl.md): a step moves cnt <= 71 chunks (longer
** ops become several consecutive steps); at most max_steps steps (nops included) per
** threadblock; at most 32 threadblocks with a send peer and 32 with a recv peer per
** channel and GPU; at most 32 channels; at most 1024 threadblocks per GPU; a depended-on
** threadblock id <= 127 (int8 depid); chunk offsets <= 32767 (int16); ngpus <= 1024 and
** 1 + ngpus + threadblocks + steps <= 4095 per GPU (the runtime's XML parser holds 4096
** elements). Channels are assigned deterministically: each connection gets a base
** channel (greedily, lowest first, keeping every GPU within 32 send and 32 recv
** threadblocks per channel; B base channels in all), then, while some threadblock has
** too many steps, every connection is spread round-robin over W = 1, 2, ... replicas
** (from W = o->channels when set: W x B <= 32 or TC_ERANGE)
** (channels base + j*B, j < W; W*B <= 32), and while a local threadblock has too many,
** the local copies over L = 1, 2, ... (<= 32) of them. What still does not fit is
** TC_ERANGE naming the threadblock, e.g.
** "MSCCL limit: gpu 0 threadblock 0 (send to 1, channel 0) needs 2 steps > 1 even over 32
** channels and 1 local threadblocks".
** Instances (o->instances = I > 1; msccl-tools' `instances`, msccl/language/rank_dag.py,
** `replicate`): one instance is planned as above with every step also cut at the shard
** boundaries of the input and output, on at most 32 / I channels, then replicated: the
** copy i of threadblock t is threadblock t * I + i on channel nchannels_1 * i + chan, its
** dependencies point into copy i; every shard (units chunks) is cut into I consecutive
** pieces, input/output chunk k * units + j of instance i at (k * I + i) * units + j
** (msccl-tools' interleaved chunk c * I + i when units = 1), scratch chunk c at
** i * s_chunks + c; nchunksperloop, i_chunks, o_chunks and s_chunks are I times larger,
** nchannels is I x nchannels_1. The limits hold for the whole file (TC_ERANGE otherwise,
** e.g. "MSCCL limit: 11 channels per connection x 1 base channel x 3 instances > 32 channels").
** Errors: TC_EFAIL when s fails verification (the verifier's line), TC_EINPUT for a
** collective other than the four or a bad option, TC_ERANGE for a runtime limit,
** TC_EIO naming the file; the file is replaced atomically (whole or untouched).
*/
#ifndef TOPOCOLL_MSCCL_H
#define TOPOCOLL_MSCCL_H

#include "topocoll/progress.h"
#include "topocoll/export.h"

#include <stdint.h>

#include "topocoll/error.h"
#include "topocoll/graph.h"
#include "topocoll/sched.h"

typedef enum { TC_MSCCL_SIMPLE = 0, TC_MSCCL_LL = 1, TC_MSCCL_LL128 = 2 } tc_msccl_proto;

/* msccl-executor-nccl's default MSCCL_MAX_NUM_STEPS (a build option there; the older
   microsoft/msccl runtime has 256). */
#define TC_MSCCL_DEFAULT_MAX_STEPS 64
/* maxBytes for "any size": accepted as a bound by every runtime (msccl-executor-nccl
   also reads 0 as "no limit", the older runtime does not). */
#define TC_MSCCL_ANY_SIZE INT64_MAX

typedef struct tc_msccl_options {
  const char *name; /* algo name (printable ASCII without " ' & < >, <= 200 chars);
                           NULL: "<algorithm> <collective> n<N>" */
  tc_msccl_proto proto; /* Simple */
  int64_t min_bytes; /* 0 */
  int64_t max_bytes; /* TC_MSCCL_ANY_SIZE; must be >= min_bytes and > 0 */
  const char *redop; /* NULL (no attribute) or "sum", "prod", "max", "min"; only for
                           reduce-scatter and allreduce (informative: the runtime takes the
                           reduction from the NCCL call) */
  int32_t max_steps; /* steps per threadblock, 1..1024; 0 means TC_MSCCL_DEFAULT_MAX_STEPS */
  int32_t channels; /* 0 or 1..32: spread every connection over at least this many channels
                           (W >= channels, as msccl-tools' channels divide one ring's chunks
                           over channels and threadblocks); 0 means as few as the limits allow */
  int32_t instances; /* 0 or 1..32: msccl-tools' instances, I copies of the whole algorithm
                           (see Instances above); 0 or 1 means one */
  tc_progress_fn progress; /* NULL, or reports (topocoll/progress.h) of the steps, phases
                           without a count: "msccl: verifying the schedule", "msccl: lowering
                           to per-GPU programs", "msccl: choosing channels and threadblocks",
                           "msccl: writing PATH" */
  void *progress_ctx;
} tc_msccl_options;

/* What the written file holds. */
typedef struct tc_msccl_stats {
  int32_t nchannels; /* the algo's nchannels */
  int32_t base_channels; /* B */
  int32_t width; /* W: replicas of every connection */
  int32_t instances; /* I */
  int64_t threadblocks; /* over all GPUs */
  int32_t max_threadblocks; /* on one GPU */
  int32_t max_tb_steps; /* most steps of one threadblock, nops included */
  int64_t steps; /* all steps of all GPUs, nops included */
  int64_t nops;
} tc_msccl_stats;

/* Defaults as documented on each field. */
TC_API void tc_msccl_options_init(tc_msccl_options *o);

/* Export s (on g) to path. o may be NULL (defaults); stats may be NULL. */
TC_API int tc_msccl_export(const tc_graph *g, const tc_schedule *s, const tc_msccl_options *o, const char *path,
                           tc_msccl_stats *stats, tc_error *err);

/* "Simple", "LL", "LL128" and back (-1 when unknown; exact case). */
TC_API const char *tc_msccl_proto_name(tc_msccl_proto p);
TC_API int tc_msccl_proto_parse(const char *name);
/* "allgather", "reducescatter", "allreduce"; NULL for the other collectives. */
TC_API const char *tc_msccl_coll_name(tc_collective c);

#endif
