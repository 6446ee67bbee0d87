/*
** msccl_exec.h — test-side: an independent reader and executor of MSCCL algorithm XML.
**
** It shares nothing with the writer (src/lower/msccl*.c): the file is parsed with libxml2
** and checked against what the MSCCL runtime accepts (docs/msccl.md), then executed with
** MSCCL's semantics on real int64 buffers and compared with the collective's result.
**
** Loading (mx_load). The text must suit the runtime's own tokenizer (first element
** <algo>, no XML declaration, attributes separated by one space and double-quoted,
** nothing but spaces and line breaks between elements, names and values < 255 bytes,
** at most 16 attributes). Every element has exactly its attribute set (algo: name proto
** nchannels nchunksperloop ngpus coll inplace outofplace minBytes maxBytes, optional
** redop; gpu: id i_chunks o_chunks s_chunks; tb: id send recv chan; step: s type srcbuf
** srcoff dstbuf dstoff cnt depid deps hasdep), integers are plain decimals in range, and
** the runtime's limits hold: 1..32 channels, ngpus <= 1024, gpu ids 0..ngpus-1 once each,
** buffer sizes consistent with the collective and nchunksperloop, threadblock ids 0..n-1,
** peers other than the GPU itself, one threadblock per (channel, send peer) and per
** (channel, recv peer), <= 32 of each per channel, <= 1024 threadblocks, steps numbered
** 0.. in order and fewer than max_steps, cnt 1..71 (a nop's is ignored), offsets within
** their buffers and <= 32767, depid -1 or a threadblock <= 127 with deps naming one of
** its non-nop steps, a nop always carrying a dependency and followed by a step that
** carries one too, and 1 + ngpus + threadblocks + steps <= 4095 per GPU.
**
** Execution (mx_run). Each (gpu, threadblock) is a sequential program. A step starts when
** its dependency holds — threadblock depid has completed a step >= deps that has hasdep
** set (the runtime's flag) — and, for a receive, a message is waiting on its FIFO; it
** reads its sources when it starts and writes its destination when it ends, and other
** threadblocks' events may fall in between. A send snapshots its data into the FIFO of
** (channel, sender -> receiver) when it starts; receives take messages in FIFO order and
** must agree on cnt. With `rendezvous` a send may end only once its message has been
** taken (the runtime's bounded connection buffers at large sizes). The scheduler fires
** enabled events round-robin or in a seeded random order; when none is enabled and some
** threadblock is unfinished it reports a deadlock. In place the buffers alias the NCCL way
** (allgather: input = output + rank * i_chunks; reduce-scatter: output = input + rank *
** o_chunks; allreduce and alltoall: input = output). Inputs are pseudo-random 32-bit
** values, every other chunk starts as garbage larger than any of them (so a stray read
** shows under sum and max), and at the end every output element must equal the
** collective's result and an out-of-place input must be untouched. Alltoall: i_chunks =
** o_chunks = nchunksperloop = ngpus * B, input block t (chunks t*B ..) of gpu s must end as
** output block s of gpu t.
** Races. Every run also builds vector clocks along its events (program order, dependency
** edges from the step that set the flag, send start -> receive start, and with
** rendezvous receive start -> send end) and reports two steps of different threadblocks
** of one GPU that touch a common chunk, at least one writing, with neither ending before
** the other starts in that order: a missing dependency is found whatever order the run
** happened to take.
** Every function returns MX_OK or an MX_E* code and writes one line into msg.
*/
#ifndef TC_TESTS_MSCCL_EXEC_H
#define TC_TESTS_MSCCL_EXEC_H

#include <stddef.h>
#include <stdint.h>

enum { MX_OK = 0, MX_EINVALID, MX_EDEADLOCK, MX_EFIFO, MX_EWRONG, MX_ERACE, MX_ENOMEM };
enum { MX_OP_SUM = 0, MX_OP_MAX = 1 };
enum { MX_T_S, MX_T_R, MX_T_RCS, MX_T_RRS, MX_T_RRC, MX_T_RRCS, MX_T_CPY, MX_T_RE, MX_T_NOP };
enum { MX_BUF_I = 0, MX_BUF_O = 1, MX_BUF_S = 2 };
enum { MX_COLL_ALLGATHER, MX_COLL_REDUCESCATTER, MX_COLL_ALLREDUCE, MX_COLL_ALLTOALL };

typedef struct mx_step {
  int type, srcbuf, srcoff, dstbuf, dstoff, cnt, depid, deps, hasdep;
} mx_step;

typedef struct mx_tb {
  int send, recv, chan, nsteps;
  mx_step *steps;
} mx_tb;

typedef struct mx_gpu {
  int ichunks, ochunks, schunks, ntbs;
  mx_tb *tbs; /* index == id */
} mx_gpu;

typedef struct mx_algo {
  int coll, ngpus, nchannels, nchunksperloop, inplace, outofplace;
  int64_t min_bytes, max_bytes;
  char name[256], proto[8], redop[8]; /* redop "" when absent */
  mx_gpu *gpus;
} mx_algo;

typedef struct mx_run_opts {
  int inplace;
  int op; /* MX_OP_SUM or MX_OP_MAX (ignored for allgather) */
  int elems; /* elements per chunk, >= 1 */
  int random; /* 0: round-robin sweeps; 1: seeded random choice of the next event */
  uint64_t seed;
  int rendezvous;
  int skip_races; /* 1: leave out the race check (to see what the run alone finds) */
} mx_run_opts;

int mx_load(const char *path, int max_steps, mx_algo **out, char *msg, size_t size);
int mx_run(const mx_algo *a, const mx_run_opts *o, char *msg, size_t size);
void mx_free(mx_algo *a);

/* The whole check the tests apply to an exported file: load with max_steps, then runs in
   place and out of place (as the algo allows), round-robin and `nrandom` random orders
   each (seeds seed, seed+1, ...), with sum, and also max for reducing collectives, and one
   round-robin run with rendezvous sends (sum). */
int mx_check(const char *path, int max_steps, int nrandom, uint64_t seed, char *msg, size_t size);

#endif
