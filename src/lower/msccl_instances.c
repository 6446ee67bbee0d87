/*
** msccl_instances.c — msccl-tools' instances (msccl/language/rank_dag.py, `replicate`): one
** planned GPU replicated I times, each copy an independent instance of the algorithm on a
** 1/I piece of every chunk, its own channels and its own threadblocks (the mapping is
** msccl_internal.h's, tci_mx_replicate).
**
** Why the pieces are blocks of a shard and not msccl-tools' single chunks: msccl-tools
** interleaves chunk c as c * I + i and so supports only single-chunk steps on the input
** and output; our steps move ranges of a shard's units, and a range stays a range when
** each shard (one block of `block` chunks) is cut into I consecutive pieces. The planner
** cut every step at the block boundaries (msccl_plan.c), so no step straddles two pieces.
** Scratch is private to a GPU: each instance gets its own copy after the others', as
** msccl-tools does. Instances share nothing, so no dependency crosses them: a step's
** (depid, deps) names the same step of the same instance's copy of the threadblock.
*/
#include <stdlib.h>
#include <string.h>

#include "lower/msccl_internal.h"

static int64_t map_offset(uint8_t buf, int64_t off, int32_t I, int32_t i, int64_t block, int64_t s_chunks) {
  if (off < 0) return off; /* an unused side */
  if (buf == TC_BUF_SCRATCH) return (int64_t)i * s_chunks + off;
  return (off / block * I + i) * block + off % block;
}

static int check_offset(int32_t rank, uint8_t buf, int64_t off, tc_error *err) {
  if (off <= TC_MX_MAX_OFFSET) return TC_OK;
  return tc_error_set(err, TC_ERANGE,
                      "MSCCL limit: gpu %d needs %s chunk offset %lld > %d with its instances (the runtime's offsets "
                      "are int16); use fewer instances or fewer chunks per shard",
                      rank, tc_buffer_name((tc_buffer)buf), (long long)off, TC_MX_MAX_OFFSET);
}

/* Threadblock `tb` as instance i's copy, whose id is `id`. */
static int copy_tb(const tc_mx_tb *tb, int32_t rank, int32_t id, int32_t I, int32_t i, int32_t nchannels,
                   int64_t block, int64_t s_chunks, tc_mx_tb *out, tc_error *err) {
  *out = *tb;
  out->chan = nchannels * i + tb->chan;
  out->room = tb->nsteps;
  out->steps = malloc(sizeof *out->steps * (size_t)(tb->nsteps ? tb->nsteps : 1));
  if (!out->steps) return tc_error_set(err, TC_ENOMEM, "out of memory replicating MSCCL gpu %d", rank);
  for (int64_t s = 0; s < tb->nsteps; s++) {
    tc_mx_step st = tb->steps[s];
    st.srcoff = map_offset(st.srcbuf, st.srcoff, I, i, block, s_chunks);
    st.dstoff = map_offset(st.dstbuf, st.dstoff, I, i, block, s_chunks);
    if (check_offset(rank, st.srcbuf, st.srcoff, err) || check_offset(rank, st.dstbuf, st.dstoff, err))
      return err->code;
    if (st.depid >= 0) st.depid = st.depid * I + i;
    if (st.depid > TC_MX_MAX_DEPID)
      return tc_error_set(err, TC_ERANGE,
                          "MSCCL limit: gpu %d threadblock %d waits for threadblock %d with its instances, but depid "
                          "is an int8 (at most %d); use fewer instances",
                          rank, id, st.depid, TC_MX_MAX_DEPID);
    out->steps[s] = st;
  }
  return TC_OK;
}

int tci_mx_replicate(const tc_mx_gpu *one, int32_t rank, int32_t I, int32_t nchannels, int64_t block, tc_mx_gpu *out,
                     tc_error *err) {
  memset(out, 0, sizeof *out);
  if ((int64_t)one->ntbs * I > TC_MX_MAX_TBS)
    return tc_error_set(err, TC_ERANGE, "MSCCL limit: gpu %d needs %d threadblocks x %d instances > %d", rank,
                        one->ntbs, I, TC_MX_MAX_TBS);
  out->i_chunks = one->i_chunks * I;
  out->o_chunks = one->o_chunks * I;
  out->s_chunks = one->s_chunks * I;
  out->nsteps = one->nsteps * I;
  out->nops = one->nops * I;
  out->tbs = calloc((size_t)(one->ntbs ? one->ntbs * I : 1), sizeof *out->tbs);
  if (!out->tbs) return tc_error_set(err, TC_ENOMEM, "out of memory replicating MSCCL gpu %d", rank);
  for (int32_t t = 0; t < one->ntbs; t++)
    for (int32_t i = 0; i < I; i++) {
      int rc = copy_tb(&one->tbs[t], rank, t * I + i, I, i, nchannels, block, one->s_chunks, &out->tbs[t * I + i], err);
      out->ntbs = t * I + i + 1; /* what tci_mx_gpu_destroy frees */
      if (rc) {
        tci_mx_gpu_destroy(out);
        return rc;
      }
    }
  return TC_OK;
}
