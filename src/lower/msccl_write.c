/*
** msccl_write.c — the MSCCL plan as XML text, in the shape the runtime's hand-written
** parser reads (msccl_parser.cc): the file starts with the <algo> element (no XML
** declaration: the parser would take it for the first element), attributes are separated
** by one space and quoted with double quotes, elements are indented with spaces (the
** parser skips only spaces and line breaks between elements), steps are empty elements.
** Every attribute is written on every element, as msccl-tools' "old format" does; the
** values are plain decimal integers (the runtime reads them with strtol base 0, so no
** leading zeros) or the fixed names of msccl.h. The file is replaced atomically.
*/
#include <inttypes.h>
#include <stdio.h>

#include "core/io_atomic.h"
#include "lower/msccl_internal.h"

static const char *type_name(uint8_t t) {
  static const char *const names[] = {"s", "r", "rrc", "cpy", "nop"};
  return t <= TC_MX_NOP ? names[t] : "?";
}

static char buffer_letter(uint8_t b) { return b == TC_BUF_INPUT ? 'i' : b == TC_BUF_OUTPUT ? 'o' : 's'; }

static void write_step(FILE *fp, int64_t s, const tc_mx_step *st) {
  fprintf(fp,
          "      <step s=\"%" PRId64 "\" type=\"%s\" srcbuf=\"%c\" srcoff=\"%" PRId64
          "\" dstbuf=\"%c\" dstoff=\"%" PRId64 "\" cnt=\"%d\" depid=\"%d\" deps=\"%d\" hasdep=\"%d\"/>\n",
          s, type_name(st->type), buffer_letter(st->srcbuf), st->srcoff, buffer_letter(st->dstbuf), st->dstoff, st->cnt,
          st->depid, st->deps, st->hasdep);
}

static void write_gpu(FILE *fp, int32_t id, const tc_mx_gpu *g) {
  fprintf(fp, "  <gpu id=\"%d\" i_chunks=\"%" PRId64 "\" o_chunks=\"%" PRId64 "\" s_chunks=\"%" PRId64 "\">\n", id,
          g->i_chunks, g->o_chunks, g->s_chunks);
  for (int32_t t = 0; t < g->ntbs; t++) {
    const tc_mx_tb *tb = &g->tbs[t];
    fprintf(fp, "    <tb id=\"%d\" send=\"%d\" recv=\"%d\" chan=\"%d\">\n", t, tb->send, tb->recv, tb->chan);
    for (int64_t s = 0; s < tb->nsteps; s++) write_step(fp, s, &tb->steps[s]);
    fprintf(fp, "    </tb>\n");
  }
  fprintf(fp, "  </gpu>\n");
}

int tci_mx_write(const tc_mx_algo *a, const char *path, tc_error *err) {
  tc_atomic_file af;
  if (tci_atomic_open(&af, path, err)) return err->code;
  fprintf(af.fp,
          "<algo name=\"%s\" proto=\"%s\" nchannels=\"%d\" nchunksperloop=\"%" PRId64
          "\" ngpus=\"%d\" coll=\"%s\""
          " inplace=\"%d\" outofplace=\"1\" minBytes=\"%" PRId64 "\" maxBytes=\"%" PRId64 "\"",
          a->name, a->proto, a->nchannels, a->nchunksperloop, a->ngpus, a->coll, a->inplace ? 1 : 0, a->min_bytes,
          a->max_bytes);
  if (a->redop) fprintf(af.fp, " redop=\"%s\"", a->redop);
  fprintf(af.fp, ">\n");
  for (int32_t r = 0; r < a->ngpus; r++) write_gpu(af.fp, r, &a->gpus[r]);
  fprintf(af.fp, "</algo>\n");
  return tci_atomic_commit(&af, err);
}
