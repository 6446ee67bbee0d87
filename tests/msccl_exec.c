/*
** msccl_exec.c — test-side MSCCL XML reader, validator and executor; the contract is in
** msccl_exec.h. CMake builds every tests/test_*.c on its own, so test_msccl.c includes
** this file rather than linking it.
**
** Layout: (1) the runtime tokenizer's view of the raw text, (2) libxml2 parsing into
** mx_algo with every attribute checked, (3) the cross-element rules (dependency targets,
** per-channel threadblocks, element counts), (4) the machine: buffers, FIFOs, flags and
** the event loop, (5) vector clocks and the race check, (6) mx_check.
*/
#include "msccl_exec.h"

#include <libxml/parser.h>
#include <libxml/tree.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MX_MAX_COUNT 71
#define MX_MAX_CHANNELS 32
#define MX_TB_PER_CHANNEL 32
#define MX_MAX_TBS 1024
#define MX_MAX_DEPID 127
#define MX_MAX_OFFSET 32767
#define MX_MAX_GPUS 1024
#define MX_MAX_ELEMENTS 4095
#define MX_MAX_STR 255
#define MX_MAX_ATTRS 16
#define MX_GARBAGE (UINT64_C(1) << 40)
#define MX_MAX_VC_ENTRIES (INT64_C(1) << 26)

static int say(char *msg, size_t size, int code, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, size, fmt, ap);
  va_end(ap);
  return code;
}

/* ---- (1) what the runtime's tokenizer accepts ------------------------------------------ */

static int lex_check(const char *text, char *msg, size_t size) {
  const char *p = text;
  int first = 1;
  for (;;) {
    while (*p == ' ' || *p == '\n' || *p == '\r') p++;
    if (!*p) return MX_OK;
    long at = (long)(p - text);
    if (*p != '<')
      return say(msg, size, MX_EINVALID, "byte %ld: the runtime's parser expects '<' here, not 0x%02x", at,
                 (unsigned char)*p);
    p++;
    if (!strncmp(p, "!--", 3)) {
      const char *end = strstr(p + 3, "-->");
      if (!end) return say(msg, size, MX_EINVALID, "byte %ld: unterminated comment", at);
      p = end + 3;
      continue;
    }
    if (first && strncmp(p, "algo ", 5) != 0)
      return say(
          msg, size, MX_EINVALID,
          "the file must start with <algo (the runtime reads its first element as the algo; no XML declaration)");
    first = 0;
    int closing = *p == '/';
    if (closing) p++;
    size_t len = strcspn(p, " >/\n\r\t");
    if (len == 0 || len >= MX_MAX_STR) return say(msg, size, MX_EINVALID, "byte %ld: bad element name", at);
    p += len;
    int nattrs = 0;
    while (!closing && *p == ' ') {
      p++;
      size_t klen = strcspn(p, "= >/\n\r\t\"");
      if (klen == 0 || klen >= MX_MAX_STR || p[klen] != '=')
        return say(msg, size, MX_EINVALID, "byte %ld: attributes must be name=\"value\" separated by one space", at);
      p += klen + 1;
      if (*p != '"') return say(msg, size, MX_EINVALID, "byte %ld: attribute values must be in double quotes", at);
      const char *end = strchr(p + 1, '"');
      if (!end || end - (p + 1) >= MX_MAX_STR)
        return say(msg, size, MX_EINVALID, "byte %ld: attribute value too long or unterminated", at);
      p = end + 1;
      if (++nattrs > MX_MAX_ATTRS)
        return say(msg, size, MX_EINVALID, "byte %ld: more than %d attributes", at, MX_MAX_ATTRS);
    }
    if (!closing && (*p == '\t' || *p == '\n' || *p == '\r'))
      return say(msg, size, MX_EINVALID, "byte %ld: attributes must be separated by one space, on one line", at);
    if (!closing && *p == '/') p++;
    if (*p != '>') return say(msg, size, MX_EINVALID, "byte %ld: tag must end with '>' right after its attributes", at);
    p++;
  }
}

/* ---- (2) parsing ----------------------------------------------------------------------- */

typedef struct reader {
  char *msg;
  size_t size;
  char where[96]; /* "gpu 3 tb 2 step 5" */
} reader;

static int bad(reader *R, const char *fmt, ...) {
  char detail[256];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(detail, sizeof detail, fmt, ap);
  va_end(ap);
  snprintf(R->msg, R->size, "%s: %s", R->where, detail);
  return MX_EINVALID;
}

/* Exactly the attributes `req` (all present) plus optionally `opt`. */
static int attrs_exact(reader *R, xmlNode *n, const char *const *req, int nreq, const char *opt) {
  for (xmlAttr *a = n->properties; a; a = a->next) {
    int known = opt && !strcmp((const char *)a->name, opt);
    for (int i = 0; i < nreq && !known; i++) known = !strcmp((const char *)a->name, req[i]);
    if (!known) return bad(R, "unexpected attribute %s", (const char *)a->name);
  }
  for (int i = 0; i < nreq; i++)
    if (!xmlHasProp(n, (const xmlChar *)req[i])) return bad(R, "missing attribute %s", req[i]);
  return MX_OK;
}

static int get_str(reader *R, xmlNode *n, const char *key, char *out, size_t size) {
  xmlChar *v = xmlGetProp(n, (const xmlChar *)key);
  if (!v) return bad(R, "missing attribute %s", key);
  int rc = strlen((const char *)v) < size ? MX_OK : bad(R, "attribute %s too long", key);
  if (!rc) strcpy(out, (const char *)v);
  xmlFree(v);
  return rc;
}

/* A plain decimal (the runtime's strtol base 0 would read a leading 0 as octal). */
static int get_int(reader *R, xmlNode *n, const char *key, long long lo, long long hi, long long *out) {
  char text[32];
  if (get_str(R, n, key, text, sizeof text)) return MX_EINVALID;
  const char *p = text + (text[0] == '-');
  size_t digits = strspn(p, "0123456789");
  if (digits == 0 || p[digits] != '\0' || (p[0] == '0' && digits > 1) || digits > 19)
    return bad(R, "%s=\"%s\" is not a plain decimal integer", key, text);
  long long v = strtoll(text, NULL, 10);
  if (v < lo || v > hi) return bad(R, "%s=%lld outside %lld..%lld", key, v, lo, hi);
  *out = v;
  return MX_OK;
}

static int get_intv(reader *R, xmlNode *n, const char *key, long long lo, long long hi, int *out) {
  long long v;
  if (get_int(R, n, key, lo, hi, &v)) return MX_EINVALID;
  *out = (int)v;
  return MX_OK;
}

/* Element children; any non-blank text is an error. */
static int children(reader *R, xmlNode *n, const char *name, xmlNode ***out, int *count) {
  int k = 0;
  for (xmlNode *c = n->children; c; c = c->next) {
    if (c->type == XML_COMMENT_NODE) continue;
    if (c->type == XML_TEXT_NODE) {
      const xmlChar *t = c->content;
      if (t && t[strspn((const char *)t, " \n\r")] != '\0') return bad(R, "unexpected text");
      continue;
    }
    if (c->type != XML_ELEMENT_NODE || strcmp((const char *)c->name, name) != 0)
      return bad(R, "unexpected element <%s> (expected <%s>)", (const char *)c->name, name);
    k++;
  }
  *out = malloc(sizeof **out * (size_t)(k ? k : 1));
  if (!*out) return say(R->msg, R->size, MX_ENOMEM, "out of memory");
  k = 0;
  for (xmlNode *c = n->children; c; c = c->next)
    if (c->type == XML_ELEMENT_NODE) (*out)[k++] = c;
  *count = k;
  return MX_OK;
}

static int type_code(const char *t) {
  static const char *const names[] = {"s", "r", "rcs", "rrs", "rrc", "rrcs", "cpy", "re", "nop"};
  for (int i = 0; i <= MX_T_NOP; i++)
    if (!strcmp(t, names[i])) return i;
  return -1;
}

static const char *type_text(int t) {
  static const char *const names[] = {"s", "r", "rcs", "rrs", "rrc", "rrcs", "cpy", "re", "nop"};
  return t >= 0 && t <= MX_T_NOP ? names[t] : "?";
}

static int buffer_code(const char *b) {
  return !strcmp(b, "i") ? MX_BUF_I : !strcmp(b, "o") ? MX_BUF_O : !strcmp(b, "s") ? MX_BUF_S : -1;
}

static int reads_src(int t) {
  return t == MX_T_S || t == MX_T_RRS || t == MX_T_RRC || t == MX_T_RRCS || t == MX_T_CPY || t == MX_T_RE;
}
static int writes_dst(int t) {
  return t == MX_T_R || t == MX_T_RCS || t == MX_T_RRC || t == MX_T_RRCS || t == MX_T_CPY || t == MX_T_RE;
}
static int receives(int t) { return t == MX_T_R || t == MX_T_RCS || t == MX_T_RRS || t == MX_T_RRC || t == MX_T_RRCS; }
static int sends(int t) { return t == MX_T_S || t == MX_T_RCS || t == MX_T_RRS || t == MX_T_RRCS; }

static int buffer_chunks(const mx_gpu *g, int b) {
  return b == MX_BUF_I ? g->ichunks : b == MX_BUF_O ? g->ochunks : g->schunks;
}

static int read_step(reader *R, xmlNode *n, int index, const mx_gpu *g, const mx_tb *tb, int max_steps, mx_step *st) {
  static const char *const req[] = {"s",      "type", "srcbuf", "srcoff", "dstbuf",
                                    "dstoff", "cnt",  "depid",  "deps",   "hasdep"};
  char text[16];
  int s;
  if (attrs_exact(R, n, req, 10, NULL) || get_intv(R, n, "s", 0, max_steps - 1, &s)) return MX_EINVALID;
  if (s != index) return bad(R, "s=%d but it is step %d of its threadblock", s, index);
  if (get_str(R, n, "type", text, sizeof text)) return MX_EINVALID;
  if ((st->type = type_code(text)) < 0) return bad(R, "unknown type \"%s\"", text);
  if (get_str(R, n, "srcbuf", text, sizeof text)) return MX_EINVALID;
  if ((st->srcbuf = buffer_code(text)) < 0) return bad(R, "srcbuf \"%s\" is not i, o or s", text);
  if (get_str(R, n, "dstbuf", text, sizeof text)) return MX_EINVALID;
  if ((st->dstbuf = buffer_code(text)) < 0) return bad(R, "dstbuf \"%s\" is not i, o or s", text);
  int nop = st->type == MX_T_NOP;
  if (get_intv(R, n, "srcoff", -1, MX_MAX_OFFSET, &st->srcoff) ||
      get_intv(R, n, "dstoff", -1, MX_MAX_OFFSET, &st->dstoff) ||
      get_intv(R, n, "cnt", nop ? 0 : 1, MX_MAX_COUNT, &st->cnt) ||
      get_intv(R, n, "depid", -1, MX_MAX_DEPID, &st->depid) || get_intv(R, n, "deps", -1, MX_MAX_OFFSET, &st->deps) ||
      get_intv(R, n, "hasdep", 0, 1, &st->hasdep))
    return MX_EINVALID;
  if (nop) st->cnt = 0;
  if ((st->depid < 0) != (st->deps < 0)) return bad(R, "depid=%d with deps=%d", st->depid, st->deps);
  if (nop && st->depid < 0) return bad(R, "a nop without a dependency (the runtime would miscount its steps)");
  if (!nop && index > 0 && tb->steps[index - 1].type == MX_T_NOP && st->depid < 0)
    return bad(R, "the step after nops must carry a dependency itself (the runtime refuses the file)");
  if (sends(st->type) && tb->send < 0) return bad(R, "%s in a threadblock without a send peer", type_text(st->type));
  if (receives(st->type) && tb->recv < 0) return bad(R, "%s in a threadblock without a recv peer", type_text(st->type));
  struct {
    int used, buf, off;
    const char *what;
  } side[2] = {{reads_src(st->type), st->srcbuf, st->srcoff, "src"},
               {writes_dst(st->type), st->dstbuf, st->dstoff, "dst"}};
  for (int i = 0; i < 2; i++) {
    if (!side[i].used) continue;
    int chunks = buffer_chunks(g, side[i].buf);
    if (side[i].off < 0 || side[i].off + st->cnt > chunks)
      return bad(R, "%s chunks [%d, %d) outside its buffer of %d chunks", side[i].what, side[i].off,
                 side[i].off + st->cnt, chunks);
  }
  return MX_OK;
}

static int read_tb(reader *R, xmlNode *n, int gpu, const mx_algo *a, mx_gpu *g, int max_steps, int *id_out) {
  static const char *const req[] = {"id", "send", "recv", "chan"};
  int id;
  if (attrs_exact(R, n, req, 4, NULL) || get_intv(R, n, "id", 0, MX_MAX_TBS - 1, &id)) return MX_EINVALID;
  if (id >= g->ntbs)
    return bad(R, "threadblock id %d but the gpu has %d threadblocks (ids must be 0..n-1)", id, g->ntbs);
  mx_tb *tb = &g->tbs[id];
  if (tb->steps) return bad(R, "threadblock id %d appears twice", id);
  snprintf(R->where + strlen(R->where), sizeof R->where - strlen(R->where), " tb %d", id);
  if (get_intv(R, n, "send", -1, a->ngpus - 1, &tb->send) || get_intv(R, n, "recv", -1, a->ngpus - 1, &tb->recv) ||
      get_intv(R, n, "chan", 0, a->nchannels - 1, &tb->chan))
    return MX_EINVALID;
  if (tb->send == gpu || tb->recv == gpu) return bad(R, "a peer is the gpu itself");
  xmlNode **steps;
  int nsteps;
  if (children(R, n, "step", &steps, &nsteps)) return MX_EINVALID;
  tb->steps = calloc((size_t)(nsteps ? nsteps : 1), sizeof *tb->steps);
  int rc = tb->steps ? MX_OK : say(R->msg, R->size, MX_ENOMEM, "out of memory");
  size_t base = strlen(R->where);
  for (int s = 0; s < nsteps && !rc; s++) {
    snprintf(R->where + base, sizeof R->where - base, " step %d", s);
    rc = read_step(R, steps[s], s, g, tb, max_steps, &tb->steps[s]);
    tb->nsteps = s + 1;
  }
  R->where[base] = '\0';
  if (!rc && nsteps > 0 && tb->steps[nsteps - 1].type == MX_T_NOP)
    rc = bad(R, "the threadblock ends with a nop (the runtime attaches its dependency to no step)");
  free(steps);
  *id_out = id;
  return rc;
}

static int read_gpu(reader *R, xmlNode *n, mx_algo *a, int max_steps) {
  static const char *const req[] = {"id", "i_chunks", "o_chunks", "s_chunks"};
  int id;
  snprintf(R->where, sizeof R->where, "gpu");
  if (attrs_exact(R, n, req, 4, NULL) || get_intv(R, n, "id", 0, a->ngpus - 1, &id)) return MX_EINVALID;
  mx_gpu *g = &a->gpus[id];
  snprintf(R->where, sizeof R->where, "gpu %d", id);
  if (g->tbs) return bad(R, "gpu id %d appears twice", id);
  if (get_intv(R, n, "i_chunks", 0, INT32_MAX, &g->ichunks) || get_intv(R, n, "o_chunks", 0, INT32_MAX, &g->ochunks) ||
      get_intv(R, n, "s_chunks", 0, INT32_MAX, &g->schunks))
    return MX_EINVALID;
  long long ncpl = a->nchunksperloop, n_ = a->ngpus;
  int ok = a->coll == MX_COLL_ALLGATHER       ? g->ochunks == ncpl && (long long)g->ichunks * n_ == ncpl
           : a->coll == MX_COLL_REDUCESCATTER ? g->ichunks == ncpl && (long long)g->ochunks * n_ == ncpl
           : a->coll == MX_COLL_ALLTOALL      ? g->ichunks == ncpl && g->ochunks == ncpl && ncpl % n_ == 0
                                              : g->ichunks == ncpl && g->ochunks == ncpl;
  if (!ok)
    return bad(R, "i_chunks %d, o_chunks %d do not fit the collective with nchunksperloop %d and %d gpus", g->ichunks,
               g->ochunks, a->nchunksperloop, a->ngpus);
  xmlNode **tbs;
  if (children(R, n, "tb", &tbs, &g->ntbs)) return MX_EINVALID;
  if (g->ntbs > MX_MAX_TBS) {
    free(tbs);
    return bad(R, "%d threadblocks > %d", g->ntbs, MX_MAX_TBS);
  }
  g->tbs = calloc((size_t)(g->ntbs ? g->ntbs : 1), sizeof *g->tbs);
  int rc = g->tbs ? MX_OK : say(R->msg, R->size, MX_ENOMEM, "out of memory");
  for (int t = 0; t < g->ntbs && !rc; t++) {
    int tid;
    snprintf(R->where, sizeof R->where, "gpu %d", id);
    rc = read_tb(R, tbs[t], id, a, g, max_steps, &tid);
  }
  free(tbs);
  return rc;
}

static int read_algo(reader *R, xmlNode *root, mx_algo *a, int max_steps) {
  static const char *const req[] = {"name", "proto",   "nchannels",  "nchunksperloop", "ngpus",
                                    "coll", "inplace", "outofplace", "minBytes",       "maxBytes"};
  char coll[32];
  snprintf(R->where, sizeof R->where, "algo");
  if (strcmp((const char *)root->name, "algo") != 0) return bad(R, "root element is <%s>", (const char *)root->name);
  if (attrs_exact(R, root, req, 10, "redop") || get_str(R, root, "name", a->name, sizeof a->name) ||
      get_str(R, root, "proto", a->proto, sizeof a->proto) || get_str(R, root, "coll", coll, sizeof coll) ||
      get_intv(R, root, "nchannels", 1, MX_MAX_CHANNELS, &a->nchannels) ||
      get_intv(R, root, "nchunksperloop", 1, INT32_MAX, &a->nchunksperloop) ||
      get_intv(R, root, "ngpus", 1, MX_MAX_GPUS, &a->ngpus) || get_intv(R, root, "inplace", 0, 1, &a->inplace) ||
      get_intv(R, root, "outofplace", 0, 1, &a->outofplace))
    return MX_EINVALID;
  long long v;
  if (get_int(R, root, "minBytes", 0, INT64_MAX, &v)) return MX_EINVALID;
  a->min_bytes = v;
  if (get_int(R, root, "maxBytes", 0, INT64_MAX, &v)) return MX_EINVALID;
  a->max_bytes = v;
  if (a->max_bytes != 0 && a->max_bytes < a->min_bytes) return bad(R, "maxBytes < minBytes");
  if (strcmp(a->proto, "Simple") && strcmp(a->proto, "LL") && strcmp(a->proto, "LL128"))
    return bad(R, "unknown proto \"%s\"", a->proto);
  if (!strcmp(coll, "allgather"))
    a->coll = MX_COLL_ALLGATHER;
  else if (!strcmp(coll, "reducescatter"))
    a->coll = MX_COLL_REDUCESCATTER;
  else if (!strcmp(coll, "allreduce"))
    a->coll = MX_COLL_ALLREDUCE;
  else if (!strcmp(coll, "alltoall"))
    a->coll = MX_COLL_ALLTOALL;
  else
    return bad(R, "collective \"%s\" is not one this checker executes", coll);
  if (!a->inplace && !a->outofplace) return bad(R, "neither inplace nor outofplace");
  if (xmlHasProp(root, (const xmlChar *)"redop")) {
    if (get_str(R, root, "redop", a->redop, sizeof a->redop)) return MX_EINVALID;
    if (strcmp(a->redop, "sum") && strcmp(a->redop, "prod") && strcmp(a->redop, "max") && strcmp(a->redop, "min"))
      return bad(R, "unknown redop \"%s\"", a->redop);
  }
  xmlNode **gpus;
  int ngpu;
  if (children(R, root, "gpu", &gpus, &ngpu)) return MX_EINVALID;
  int rc = MX_OK;
  if (ngpu != a->ngpus) rc = bad(R, "%d gpu elements for ngpus=%d", ngpu, a->ngpus);
  a->gpus = rc ? NULL : calloc((size_t)a->ngpus, sizeof *a->gpus);
  if (!rc && !a->gpus) rc = say(R->msg, R->size, MX_ENOMEM, "out of memory");
  for (int i = 0; i < ngpu && !rc; i++) rc = read_gpu(R, gpus[i], a, max_steps);
  free(gpus);
  return rc;
}

/* ---- (3) rules across elements ------------------------------------------------------- */

static int cross_check(const mx_algo *a, char *msg, size_t size) {
  for (int r = 0; r < a->ngpus; r++) {
    const mx_gpu *g = &a->gpus[r];
    long long elements = 1 + a->ngpus + g->ntbs;
    for (int t = 0; t < g->ntbs; t++) {
      const mx_tb *tb = &g->tbs[t];
      elements += tb->nsteps;
      for (int u = 0; u < t; u++) {
        const mx_tb *o = &g->tbs[u];
        if (o->chan == tb->chan && tb->send >= 0 && o->send == tb->send)
          return say(msg, size, MX_EINVALID, "gpu %d: threadblocks %d and %d both send to %d on channel %d", r, u, t,
                     tb->send, tb->chan);
        if (o->chan == tb->chan && tb->recv >= 0 && o->recv == tb->recv)
          return say(msg, size, MX_EINVALID, "gpu %d: threadblocks %d and %d both receive from %d on channel %d", r, u,
                     t, tb->recv, tb->chan);
      }
      for (int s = 0; s < tb->nsteps; s++) {
        const mx_step *st = &tb->steps[s];
        if (st->depid < 0) continue;
        if (st->depid >= g->ntbs)
          return say(msg, size, MX_EINVALID, "gpu %d tb %d step %d: depid %d is no threadblock", r, t, s, st->depid);
        const mx_tb *target = &g->tbs[st->depid];
        if (st->deps >= target->nsteps || (st->depid == t && st->deps >= s))
          return say(msg, size, MX_EINVALID, "gpu %d tb %d step %d: deps %d is no earlier step of threadblock %d", r, t,
                     s, st->deps, st->depid);
        if (target->steps[st->deps].type == MX_T_NOP)
          return say(msg, size, MX_EINVALID,
                     "gpu %d tb %d step %d: depends on a nop (the runtime sets no flag for nops)", r, t, s);
      }
    }
    for (int c = 0; c < a->nchannels; c++) {
      int ns = 0, nr = 0;
      for (int t = 0; t < g->ntbs; t++) {
        ns += g->tbs[t].chan == c && g->tbs[t].send >= 0;
        nr += g->tbs[t].chan == c && g->tbs[t].recv >= 0;
      }
      if (ns > MX_TB_PER_CHANNEL || nr > MX_TB_PER_CHANNEL)
        return say(msg, size, MX_EINVALID,
                   "gpu %d channel %d: %d sending and %d receiving threadblocks (at most %d each)", r, c, ns, nr,
                   MX_TB_PER_CHANNEL);
    }
    if (elements > MX_MAX_ELEMENTS)
      return say(msg, size, MX_EINVALID, "gpu %d: %lld XML elements > %d (the runtime parser's capacity)", r, elements,
                 MX_MAX_ELEMENTS);
  }
  return MX_OK;
}

void mx_free(mx_algo *a) {
  if (!a) return;
  if (a->gpus)
    for (int r = 0; r < a->ngpus; r++) {
      for (int t = 0; a->gpus[r].tbs && t < a->gpus[r].ntbs; t++) free(a->gpus[r].tbs[t].steps);
      free(a->gpus[r].tbs);
    }
  free(a->gpus);
  free(a);
}

int mx_load(const char *path, int max_steps, mx_algo **out, char *msg, size_t size) {
  *out = NULL;
  FILE *fp = fopen(path, "rb");
  if (!fp) return say(msg, size, MX_EINVALID, "%s: cannot open", path);
  size_t room = 1 << 16, len = 0, got;
  char *text = malloc(room);
  while (text && (got = fread(text + len, 1, room - len - 1, fp)) > 0) {
    len += got;
    if (len + 1 == room) {
      char *t = realloc(text, room *= 2);
      if (!t) free(text);
      text = t;
    }
  }
  fclose(fp);
  if (!text) return say(msg, size, MX_ENOMEM, "out of memory reading %s", path);
  text[len] = '\0';
  int rc = strlen(text) == len ? lex_check(text, msg, size) : say(msg, size, MX_EINVALID, "NUL byte in the file");
  xmlDoc *doc = NULL;
  if (!rc) {
    doc = xmlReadMemory(text, (int)len, path, NULL, XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
    if (!doc) rc = say(msg, size, MX_EINVALID, "not well-formed XML");
  }
  free(text);
  mx_algo *a = rc ? NULL : calloc(1, sizeof *a);
  if (!rc && !a) rc = say(msg, size, MX_ENOMEM, "out of memory");
  if (!rc) {
    reader R = {.msg = msg, .size = size};
    rc = read_algo(&R, xmlDocGetRootElement(doc), a, max_steps);
  }
  if (!rc) rc = cross_check(a, msg, size);
  if (doc) xmlFreeDoc(doc);
  if (rc)
    mx_free(a);
  else
    *out = a;
  return rc;
}

/* ---- (4) the machine ------------------------------------------------------------------ */

typedef struct message {
  struct message *next, *all;
  uint64_t *data;
  int cnt;
  int64_t send_step; /* global step index of the send */
  int64_t taker_step; /* global step index of the receive that took it, -1 */
} message;

typedef struct tbstate {
  int gpu, tb, pc, inflight;
  uint64_t *srcv, *dstv;
  message *in, *out;
} tbstate;

typedef struct machine {
  const mx_algo *a;
  const mx_run_opts *o;
  int E, N, T;
  uint64_t **mem;
  int *tbase; /* per gpu: global index of its threadblock 0 */
  int64_t *sbase; /* per global threadblock: global index of its step 0 */
  int64_t nsteps;
  int *flag; /* per global threadblock */
  tbstate *ts;
  message **head, **tail; /* per FIFO (channel, from, to) */
  message *all;
  int32_t *vc; /* 2 rows (start, end) of T per global step */
  uint64_t rng;
  char *msg;
  size_t size;
} machine;

static uint64_t mix(uint64_t x) {
  x += UINT64_C(0x9E3779B97F4A7C15);
  x = (x ^ (x >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
  x = (x ^ (x >> 27)) * UINT64_C(0x94D049BB133111EB);
  return x ^ (x >> 31);
}

/* Rank r's input element e of chunk c: a pseudo-random 32-bit value. */
static uint64_t input_value(int r, int c, int e) {
  return mix(mix(mix((uint64_t)r) ^ (uint64_t)c) ^ (uint64_t)e) & UINT64_C(0xffffffff);
}

static uint64_t reduce(int op, uint64_t x, uint64_t y) {
  if (op == MX_OP_MAX) return (int64_t)x > (int64_t)y ? x : y;
  return x + y;
}

/* Chunk index in gpu r's memory of chunk c of buffer b, with the in-place aliases. */
static int64_t phys(const machine *m, int r, int b, int c) {
  const mx_gpu *g = &m->a->gpus[r];
  if (!m->o->inplace)
    return b == MX_BUF_O ? c : b == MX_BUF_I ? (int64_t)g->ochunks + c : (int64_t)g->ochunks + g->ichunks + c;
  switch (m->a->coll) {
  case MX_COLL_ALLGATHER:
    return b == MX_BUF_O ? c : b == MX_BUF_I ? (int64_t)r * g->ichunks + c : (int64_t)g->ochunks + c;
  case MX_COLL_REDUCESCATTER:
    return b == MX_BUF_I ? c : b == MX_BUF_O ? (int64_t)r * g->ochunks + c : (int64_t)g->ichunks + c;
  default:
    return b == MX_BUF_S ? (int64_t)g->ochunks + c : c;
  }
}

static int64_t memory_chunks(const machine *m, int r) {
  const mx_gpu *g = &m->a->gpus[r];
  if (!m->o->inplace) return (int64_t)g->ochunks + g->ichunks + g->schunks;
  return (m->a->coll == MX_COLL_REDUCESCATTER ? g->ichunks : g->ochunks) + (int64_t)g->schunks;
}

static uint64_t *at(const machine *m, int r, int b, int c) { return m->mem[r] + phys(m, r, b, c) * m->E; }

static const mx_step *cur(const machine *m, const tbstate *t) { return &m->a->gpus[t->gpu].tbs[t->tb].steps[t->pc]; }
static int ntbsteps(const machine *m, const tbstate *t) { return m->a->gpus[t->gpu].tbs[t->tb].nsteps; }
static int fifo_index(const machine *m, int chan, int from, int to) { return (chan * m->N + from) * m->N + to; }

static void machine_free(machine *m) {
  if (m->mem)
    for (int r = 0; r < m->N; r++) free(m->mem[r]);
  free(m->mem);
  if (m->ts)
    for (int t = 0; t < m->T; t++) {
      free(m->ts[t].srcv);
      free(m->ts[t].dstv);
    }
  while (m->all) {
    message *next = m->all->all;
    free(m->all->data);
    free(m->all);
    m->all = next;
  }
  free(m->ts);
  free(m->tbase);
  free(m->sbase);
  free(m->flag);
  free(m->head);
  free(m->tail);
  free(m->vc);
}

static int machine_init(machine *m) {
  const mx_algo *a = m->a;
  m->N = a->ngpus;
  m->E = m->o->elems;
  m->tbase = malloc(sizeof *m->tbase * (size_t)(m->N + 1));
  m->mem = calloc((size_t)m->N, sizeof *m->mem);
  if (!m->tbase || !m->mem) return say(m->msg, m->size, MX_ENOMEM, "out of memory");
  m->T = 0;
  for (int r = 0; r < m->N; r++) {
    m->tbase[r] = m->T;
    m->T += a->gpus[r].ntbs;
  }
  m->tbase[m->N] = m->T;
  size_t nf = (size_t)a->nchannels * m->N * m->N;
  m->ts = calloc((size_t)(m->T ? m->T : 1), sizeof *m->ts);
  m->sbase = malloc(sizeof *m->sbase * (size_t)(m->T + 1));
  m->flag = malloc(sizeof *m->flag * (size_t)(m->T ? m->T : 1));
  m->head = calloc(nf, sizeof *m->head);
  m->tail = calloc(nf, sizeof *m->tail);
  if (!m->ts || !m->sbase || !m->flag || !m->head || !m->tail) return say(m->msg, m->size, MX_ENOMEM, "out of memory");
  m->nsteps = 0;
  for (int r = 0; r < m->N; r++)
    for (int t = 0; t < a->gpus[r].ntbs; t++) {
      int gt = m->tbase[r] + t;
      m->ts[gt] = (tbstate){.gpu = r, .tb = t};
      m->ts[gt].srcv = malloc(sizeof(uint64_t) * MX_MAX_COUNT * (size_t)m->E);
      m->ts[gt].dstv = malloc(sizeof(uint64_t) * MX_MAX_COUNT * (size_t)m->E);
      if (!m->ts[gt].srcv || !m->ts[gt].dstv) return say(m->msg, m->size, MX_ENOMEM, "out of memory");
      m->flag[gt] = -1;
      m->sbase[gt] = m->nsteps;
      m->nsteps += a->gpus[r].tbs[t].nsteps;
    }
  m->sbase[m->T] = m->nsteps;
  if ((int64_t)m->T * 2 * m->nsteps > MX_MAX_VC_ENTRIES)
    return say(m->msg, m->size, MX_ENOMEM, "%d threadblocks and %lld steps: too large for the race check", m->T,
               (long long)m->nsteps);
  m->vc = calloc((size_t)(m->T ? m->T : 1) * 2 * (size_t)(m->nsteps ? m->nsteps : 1), sizeof *m->vc);
  if (!m->vc) return say(m->msg, m->size, MX_ENOMEM, "out of memory");
  /* Buffers: garbage everywhere, then the inputs. */
  for (int r = 0; r < m->N; r++) {
    int64_t n = memory_chunks(m, r) * m->E;
    m->mem[r] = malloc(sizeof(uint64_t) * (size_t)(n ? n : 1));
    if (!m->mem[r]) return say(m->msg, m->size, MX_ENOMEM, "out of memory");
    for (int64_t i = 0; i < n; i++) m->mem[r][i] = MX_GARBAGE + (uint64_t)i * 7 + (uint64_t)r;
    for (int c = 0; c < a->gpus[r].ichunks; c++)
      for (int e = 0; e < m->E; e++) at(m, r, MX_BUF_I, c)[e] = input_value(r, c, e);
  }
  return MX_OK;
}

static int32_t *vc_row(const machine *m, int64_t gstep, int end) {
  return m->vc + ((size_t)gstep * 2 + (size_t)end) * (size_t)m->T;
}

static void vc_join(machine *m, int32_t *into, const int32_t *from) {
  for (int i = 0; i < m->T; i++)
    if (from[i] > into[i]) into[i] = from[i];
}

/* Why threadblock t cannot fire now (NULL: it can). */
static const char *blocked(const machine *m, const tbstate *t) {
  if (t->pc >= ntbsteps(m, t)) return "finished";
  const mx_step *st = cur(m, t);
  if (!t->inflight) {
    if (st->depid >= 0 && m->flag[m->tbase[t->gpu] + st->depid] < st->deps) return "waits for its dependency";
    if (receives(st->type)) {
      const mx_tb *tb = &m->a->gpus[t->gpu].tbs[t->tb];
      if (!m->head[fifo_index(m, tb->chan, tb->recv, t->gpu)]) return "waits for a message";
    }
    return NULL;
  }
  if (m->o->rendezvous && t->out && t->out->taker_step < 0) return "send waits for its receive to begin";
  return NULL;
}

static void copy_chunks(uint64_t *to, const uint64_t *from, int n) { memcpy(to, from, sizeof *to * (size_t)n); }

static int start(machine *m, tbstate *t) {
  const mx_tb *tb = &m->a->gpus[t->gpu].tbs[t->tb];
  const mx_step *st = cur(m, t);
  int gt = m->tbase[t->gpu] + t->tb, n = st->cnt * m->E, op = m->o->op;
  int64_t gs = m->sbase[gt] + t->pc;
  int32_t *row = vc_row(m, gs, 0);
  if (t->pc > 0) memcpy(row, vc_row(m, gs - 1, 1), sizeof *row * (size_t)m->T);
  if (st->depid >= 0) {
    /* The flag first reached deps when the first hasdep step >= deps ended. */
    const mx_tb *dt = &m->a->gpus[t->gpu].tbs[st->depid];
    int f = st->deps;
    while (!dt->steps[f].hasdep || dt->steps[f].type == MX_T_NOP) f++;
    vc_join(m, row, vc_row(m, m->sbase[m->tbase[t->gpu] + st->depid] + f, 1));
  }
  if (reads_src(st->type)) copy_chunks(t->srcv, at(m, t->gpu, st->srcbuf, st->srcoff), n);
  if (st->type == MX_T_RE) copy_chunks(t->dstv, at(m, t->gpu, st->dstbuf, st->dstoff), n);
  t->in = t->out = NULL;
  if (receives(st->type)) {
    int f = fifo_index(m, tb->chan, tb->recv, t->gpu);
    message *msg = m->head[f];
    if (msg->cnt != st->cnt)
      return say(m->msg, m->size, MX_EFIFO,
                 "gpu %d tb %d step %d receives cnt %d from gpu %d channel %d, but the message carries %d", t->gpu,
                 t->tb, t->pc, st->cnt, tb->recv, tb->chan, msg->cnt);
    m->head[f] = msg->next;
    if (!m->head[f]) m->tail[f] = NULL;
    msg->taker_step = gs;
    vc_join(m, row, vc_row(m, msg->send_step, 0));
    t->in = msg;
  }
  row[gt] = 2 * t->pc + 1;
  if (sends(st->type)) {
    message *msg = calloc(1, sizeof *msg);
    if (!msg || !(msg->data = malloc(sizeof *msg->data * (size_t)(n ? n : 1)))) {
      free(msg);
      return say(m->msg, m->size, MX_ENOMEM, "out of memory");
    }
    msg->all = m->all;
    m->all = msg;
    msg->cnt = st->cnt;
    msg->send_step = gs;
    msg->taker_step = -1;
    for (int i = 0; i < n; i++)
      msg->data[i] = st->type == MX_T_S     ? t->srcv[i]
                     : st->type == MX_T_RCS ? t->in->data[i]
                                            : reduce(op, t->srcv[i], t->in->data[i]);
    int f = fifo_index(m, tb->chan, t->gpu, tb->send);
    if (m->tail[f])
      m->tail[f]->next = msg;
    else
      m->head[f] = msg;
    m->tail[f] = msg;
    t->out = msg;
  }
  t->inflight = 1;
  return MX_OK;
}

static void end(machine *m, tbstate *t) {
  const mx_step *st = cur(m, t);
  int gt = m->tbase[t->gpu] + t->tb, n = st->cnt * m->E, op = m->o->op;
  int64_t gs = m->sbase[gt] + t->pc;
  int32_t *row = vc_row(m, gs, 1);
  memcpy(row, vc_row(m, gs, 0), sizeof *row * (size_t)m->T);
  if (m->o->rendezvous && t->out) vc_join(m, row, vc_row(m, t->out->taker_step, 0));
  row[gt] = 2 * t->pc + 2;
  if (writes_dst(st->type)) {
    uint64_t *dst = at(m, t->gpu, st->dstbuf, st->dstoff);
    for (int i = 0; i < n; i++) {
      switch (st->type) {
      case MX_T_R:
      case MX_T_RCS:
        dst[i] = t->in->data[i];
        break;
      case MX_T_RRC:
      case MX_T_RRCS:
        dst[i] = reduce(op, t->srcv[i], t->in->data[i]);
        break;
      case MX_T_CPY:
        dst[i] = t->srcv[i];
        break;
      default:
        dst[i] = reduce(op, t->srcv[i], t->dstv[i]);
        break; /* re */
      }
    }
  }
  if (st->hasdep && st->type != MX_T_NOP) m->flag[gt] = t->pc; /* the runtime keeps no nop as a step */
  t->inflight = 0;
  t->pc++;
}

static int fire(machine *m, tbstate *t) {
  if (t->inflight) {
    end(m, t);
    return MX_OK;
  }
  return start(m, t);
}

static int deadlock(machine *m) {
  char detail[320] = "";
  int shown = 0;
  for (int i = 0; i < m->T && shown < 3; i++) {
    const tbstate *t = &m->ts[i];
    const char *why = blocked(m, t);
    if (!why || t->pc >= ntbsteps(m, t)) continue;
    size_t len = strlen(detail);
    snprintf(detail + len, sizeof detail - len, "%sgpu %d tb %d step %d (%s) %s", shown ? "; " : "", t->gpu, t->tb,
             t->pc, type_text(cur(m, t)->type), why);
    shown++;
  }
  return say(m->msg, m->size, MX_EDEADLOCK, "deadlock: no threadblock can advance: %s", detail);
}

static int run_events(machine *m) {
  int64_t left = 2 * m->nsteps;
  int *enabled = malloc(sizeof *enabled * (size_t)(m->T ? m->T : 1));
  if (!enabled) return say(m->msg, m->size, MX_ENOMEM, "out of memory");
  int rc = MX_OK;
  while (left > 0 && !rc) {
    int k = 0;
    for (int i = 0; i < m->T; i++)
      if (!blocked(m, &m->ts[i])) enabled[k++] = i;
    if (k == 0) {
      rc = deadlock(m);
      break;
    }
    if (m->o->random) {
      m->rng = mix(m->rng);
      rc = fire(m, &m->ts[enabled[m->rng % (uint64_t)k]]);
      left--;
    } else {
      for (int i = 0; i < k && !rc; i++, left--) rc = fire(m, &m->ts[enabled[i]]); /* one sweep */
    }
  }
  free(enabled);
  if (rc) return rc;
  for (size_t f = 0; f < (size_t)m->a->nchannels * m->N * m->N; f++)
    if (m->head[f]) {
      int chan = (int)(f / ((size_t)m->N * m->N)), from = (int)(f / m->N % m->N), to = (int)(f % m->N);
      return say(m->msg, m->size, MX_EFIFO, "a message from gpu %d to gpu %d on channel %d was never received", from,
                 to, chan);
    }
  return MX_OK;
}

/* ---- (5) races ---------------------------------------------------------------------------- */

typedef struct mx_access {
  int64_t step; /* global step */
  int tb, idx, write, buf, chunk;
} mx_access;

static int ordered(const machine *m, const mx_access *x, const mx_access *y) {
  return vc_row(m, y->step, 0)[x->tb] >= 2 * x->idx + 2; /* x ends before y starts */
}

static int race_check_gpu(machine *m, int r) {
  const mx_gpu *g = &m->a->gpus[r];
  int64_t nchunks = memory_chunks(m, r);
  /* Accesses per chunk (CSR): count, prefix sums, fill. A re reads and writes its dst:
     the write covers both. */
  int64_t *start_at = calloc((size_t)nchunks + 1, sizeof *start_at);
  if (!start_at) return say(m->msg, m->size, MX_ENOMEM, "out of memory");
  for (int t = 0; t < g->ntbs; t++)
    for (int s = 0; s < g->tbs[t].nsteps; s++) {
      const mx_step *st = &g->tbs[t].steps[s];
      if (reads_src(st->type))
        for (int c = 0; c < st->cnt; c++) start_at[phys(m, r, st->srcbuf, st->srcoff + c) + 1]++;
      if (writes_dst(st->type))
        for (int c = 0; c < st->cnt; c++) start_at[phys(m, r, st->dstbuf, st->dstoff + c) + 1]++;
    }
  for (int64_t c = 0; c < nchunks; c++) start_at[c + 1] += start_at[c];
  mx_access *acc = malloc(sizeof *acc * (size_t)(start_at[nchunks] ? start_at[nchunks] : 1));
  int64_t *fill = malloc(sizeof *fill * (size_t)(nchunks ? nchunks : 1));
  if (!acc || !fill) {
    free(start_at);
    free(acc);
    free(fill);
    return say(m->msg, m->size, MX_ENOMEM, "out of memory");
  }
  memcpy(fill, start_at, sizeof *fill * (size_t)nchunks);
  for (int t = 0; t < g->ntbs; t++)
    for (int s = 0; s < g->tbs[t].nsteps; s++) {
      const mx_step *st = &g->tbs[t].steps[s];
      int64_t gs = m->sbase[m->tbase[r] + t] + s;
      if (reads_src(st->type))
        for (int c = 0; c < st->cnt; c++)
          acc[fill[phys(m, r, st->srcbuf, st->srcoff + c)]++] =
              (mx_access){gs, m->tbase[r] + t, s, 0, st->srcbuf, st->srcoff + c};
      if (writes_dst(st->type))
        for (int c = 0; c < st->cnt; c++)
          acc[fill[phys(m, r, st->dstbuf, st->dstoff + c)]++] =
              (mx_access){gs, m->tbase[r] + t, s, 1, st->dstbuf, st->dstoff + c};
    }
  static const char buf_letter[] = "ios";
  int rc = MX_OK;
  for (int64_t c = 0; c < nchunks && !rc; c++)
    for (int64_t i = start_at[c]; i < start_at[c + 1] && !rc; i++)
      for (int64_t j = i + 1; j < start_at[c + 1] && !rc; j++) {
        const mx_access *x = &acc[i], *y = &acc[j];
        if (x->tb == y->tb || (!x->write && !y->write) || ordered(m, x, y) || ordered(m, y, x)) continue;
        rc = say(m->msg, m->size, MX_ERACE,
                 "race on gpu %d: tb %d step %d (%s %c[%d]) and tb %d step %d (%s %c[%d]) touch the same chunk with "
                 "no order between them",
                 r, x->tb - m->tbase[r], x->idx, x->write ? "writes" : "reads", buf_letter[x->buf], x->chunk,
                 y->tb - m->tbase[r], y->idx, y->write ? "writes" : "reads", buf_letter[y->buf], y->chunk);
      }
  free(start_at);
  free(acc);
  free(fill);
  return rc;
}

/* ---- results ----------------------------------------------------------------------------- */

static uint64_t expected(const machine *m, int r, int c, int e) {
  const mx_algo *a = m->a;
  if (a->coll == MX_COLL_ALLGATHER) {
    int ic = a->gpus[0].ichunks;
    return input_value(c / ic, c % ic, e);
  }
  if (a->coll == MX_COLL_ALLTOALL) { /* output block s of gpu r: input block r of gpu s */
    int B = a->gpus[r].ochunks / a->ngpus;
    return input_value(c / B, r * B + c % B, e);
  }
  int src = a->coll == MX_COLL_REDUCESCATTER ? r * a->gpus[r].ochunks + c : c;
  uint64_t v = input_value(0, src, e);
  for (int q = 1; q < a->ngpus; q++) v = reduce(m->o->op, v, input_value(q, src, e));
  return v;
}

static int compare(machine *m) {
  for (int r = 0; r < m->N; r++) {
    const mx_gpu *g = &m->a->gpus[r];
    for (int c = 0; c < g->ochunks; c++)
      for (int e = 0; e < m->E; e++) {
        uint64_t got = at(m, r, MX_BUF_O, c)[e], want = expected(m, r, c, e);
        if (got != want)
          return say(m->msg, m->size, MX_EWRONG, "gpu %d output chunk %d element %d is %llu, expected %llu%s", r, c, e,
                     (unsigned long long)got, (unsigned long long)want,
                     got >= MX_GARBAGE ? " (never written or garbage read)" : "");
      }
    if (!m->o->inplace)
      for (int c = 0; c < g->ichunks; c++)
        for (int e = 0; e < m->E; e++)
          if (at(m, r, MX_BUF_I, c)[e] != input_value(r, c, e))
            return say(m->msg, m->size, MX_EWRONG, "gpu %d input chunk %d element %d was overwritten out of place", r,
                       c, e);
  }
  return MX_OK;
}

int mx_run(const mx_algo *a, const mx_run_opts *o, char *msg, size_t size) {
  if (o->elems < 1) return say(msg, size, MX_EINVALID, "elems must be >= 1");
  if (o->inplace ? !a->inplace : !a->outofplace)
    return say(msg, size, MX_EINVALID, "the algo is not marked %s", o->inplace ? "inplace" : "outofplace");
  machine m = {.a = a, .o = o, .rng = o->seed, .msg = msg, .size = size};
  int rc = machine_init(&m);
  if (!rc) rc = run_events(&m);
  for (int r = 0; r < m.N && !rc && !o->skip_races; r++) rc = race_check_gpu(&m, r);
  if (!rc) rc = compare(&m);
  machine_free(&m);
  return rc;
}

/* ---- (6) the tests' whole check ------------------------------------------------------------ */

int mx_check(const char *path, int max_steps, int nrandom, uint64_t seed, char *msg, size_t size) {
  mx_algo *a;
  int rc = mx_load(path, max_steps, &a, msg, size);
  if (rc) return rc;
  int nops = a->coll == MX_COLL_ALLGATHER || a->coll == MX_COLL_ALLTOALL ? 1 : 2;
  for (int inplace = 0; inplace < 2 && !rc; inplace++) {
    if (inplace ? !a->inplace : !a->outofplace) continue;
    for (int op = 0; op < nops && !rc; op++)
      /* k = -2: round-robin with rendezvous sends (sum only), -1: round-robin, k >= 0: random */
      for (int k = op ? -1 : -2; k < nrandom && !rc; k++) {
        mx_run_opts o = {.inplace = inplace,
                         .op = op,
                         .elems = 2,
                         .random = k >= 0,
                         .seed = seed + (uint64_t)k,
                         .rendezvous = k == -2};
        rc = mx_run(a, &o, msg, size);
        if (rc) {
          char detail[512], how[64];
          snprintf(detail, sizeof detail, "%s", msg);
          if (k >= 0)
            snprintf(how, sizeof how, "random order (seed %llu)", (unsigned long long)(seed + (uint64_t)k));
          else
            snprintf(how, sizeof how, "round-robin%s", k == -2 ? ", rendezvous sends" : "");
          snprintf(msg, size, "%s, %s, %s: %s", inplace ? "in place" : "out of place", op ? "max" : "sum", how, detail);
        }
      }
  }
  mx_free(a);
  return rc;
}
