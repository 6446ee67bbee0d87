/*
** program_io.c — every rank's program in one file, read one rank at a time (contract and
** format in program_io.h).
**
** The writer leaves room for the digest and the index, writes the sections while hashing
** them, then seeks back and fills both in: one pass over the programs, nothing held but
** them. The reader parses with its own strict tokenizer (strtoll, one space between
** fields, nothing after the last), so a damaged file is an error line, never a misread.
*/
#include "topocoll/program_io.h"

#include <errno.h>
#include <stdarg.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/io_atomic.h"

#define MAGIC "topocoll-programs 1"
#define INDEX_WIDTH 20 /* digits of one index line; the line is INDEX_WIDTH + 1 bytes */
#define LINE_MAX_BYTES 512
/* No op line is shorter ("copy 0 -1 -1 input 0 input 0 1\n" is 31 bytes): a count past
   file size / this is a damaged file, refused before allocating. */
#define OP_LINE_MIN 31

/* ---- writing ---- */

typedef struct hashing_writer {
  FILE *fp;
  uint64_t h;
  int64_t at; /* bytes written so far */
} hashing_writer;

static void emit(hashing_writer *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void emit(hashing_writer *w, const char *fmt, ...) {
  char line[LINE_MAX_BYTES];
  va_list ap;
  va_start(ap, fmt);
  int len = vsnprintf(line, sizeof line, fmt, ap);
  va_end(ap);
  if (len < 0) return;
  if ((size_t)len >= sizeof line) len = (int)sizeof line - 1; /* cannot happen: numbers and names */
  fwrite(line, 1, (size_t)len, w->fp);
  for (int i = 0; i < len; i++) w->h = (w->h ^ (unsigned char)line[i]) * UINT64_C(0x100000001b3);
  w->at += len;
}

static void write_section(hashing_writer *w, const tc_program *p) {
  emit(w,
       "rank %d nshards %d units %" PRId64 " steps %d rs_steps %d input %" PRId64 " output %" PRId64
       " scratch %" PRId64 " redundant %" PRId64 " ops %" PRId64 "\n",
       p->rank, p->nshards, p->units, p->steps, p->rs_steps, p->input_chunks, p->output_chunks, p->scratch_chunks,
       p->redundant_off, p->nops);
  for (int64_t i = 0; i < p->nops; i++) {
    const tc_op *o = &p->ops[i];
    emit(w, "%s %d %d %" PRId64 " %s %" PRId64 " %s %" PRId64 " %" PRId64 "\n", tc_op_kind_name(o->kind), o->step,
         o->peer, o->arc, tc_buffer_name(o->src), o->src_off, tc_buffer_name(o->dst), o->dst_off, o->cnt);
  }
}

int tc_program_file_write(const tc_graph *g, const tc_schedule *s, const char *path, tc_error *err) {
  if (strchr(s->algorithm, '\n') || strchr(s->algorithm, '\r'))
    return tc_error_set(err, TC_EINPUT, "%s: the algorithm name holds a line break", path);
  int32_t n = tc_rank_count(g);
  tc_program *progs = calloc((size_t)(n > 0 ? n : 1), sizeof *progs);
  if (!progs) return tc_error_set(err, TC_ENOMEM, "out of memory lowering %d ranks", n);
  int rc = tc_program_lower_all(g, s, 0, progs, err);
  tc_atomic_file af;
  if (!rc) rc = tci_atomic_open(&af, path, err);
  if (rc) {
    free(progs);
    return rc;
  }
  FILE *fp = af.fp;
  fprintf(fp, MAGIC "\ncollective %s", tc_collective_name(s->coll));
  if (progs[0].root >= 0) fprintf(fp, " root %d", progs[0].root);
  if (progs[0].dest >= 0) fprintf(fp, " dest %d", progs[0].dest);
  fprintf(fp, "\nalgorithm %s\nranks %d\n", s->algorithm, n);
  long digest_at = ftell(fp);
  fprintf(fp, "digest %016" PRIx64 "\n", UINT64_C(0));
  for (int32_t r = 0; r < n; r++) fprintf(fp, "%0*d\n", INDEX_WIDTH, 0);
  int64_t *offset = malloc(sizeof *offset * (size_t)(n > 0 ? n : 1));
  hashing_writer w = {fp, UINT64_C(0xcbf29ce484222325), ftell(fp)};
  if (!offset) rc = tc_error_set(err, TC_ENOMEM, "out of memory writing %s", path);
  else if (digest_at < 0 || w.at < 0) rc = tc_error_set(err, TC_EIO, "%s: cannot tell the write position", path);
  for (int32_t r = 0; r < n && !rc; r++) {
    offset[r] = w.at;
    write_section(&w, &progs[r]);
    tc_program_destroy(&progs[r]);
  }
  if (!rc && fseek(fp, digest_at, SEEK_SET) == 0) {
    fprintf(fp, "digest %016" PRIx64 "\n", w.h);
    for (int32_t r = 0; r < n; r++) fprintf(fp, "%0*" PRId64 "\n", INDEX_WIDTH, offset[r]);
  } else if (!rc) {
    rc = tc_error_set(err, TC_EIO, "%s: cannot seek back to write the index", path);
  }
  for (int32_t r = 0; r < n; r++) tc_program_destroy(&progs[r]);
  free(progs);
  free(offset);
  if (rc) {
    tci_atomic_abort(&af);
    return rc;
  }
  return tci_atomic_commit(&af, err);
}

/* ---- reading ---- */

typedef struct reader {
  FILE *fp;
  const char *path;
  int64_t size; /* of the file */
  char line[LINE_MAX_BYTES];
  char *at;     /* the next field of line */
  const char *what; /* what the current line is, for errors */
  tc_error *err;
} reader;

static int bad(reader *rd, const char *why) {
  return tc_error_set(rd->err, TC_EINPUT, "%s: %s: %s", rd->path, rd->what, why);
}

/* The next line into rd->line (its '\n' dropped). */
static int next_line(reader *rd, const char *what) {
  rd->what = what;
  if (!fgets(rd->line, sizeof rd->line, rd->fp))
    return ferror(rd->fp) ? tc_error_set(rd->err, TC_EIO, "%s: read error", rd->path) : bad(rd, "missing (truncated)");
  size_t len = strlen(rd->line);
  if (len == 0 || rd->line[len - 1] != '\n') return bad(rd, "too long or not ended by a line break");
  rd->line[len - 1] = '\0';
  rd->at = rd->line;
  return TC_OK;
}

/* The next space-separated field, copied into buf (the first of a line has no space
   before it); NULL when there is none or it does not fit. */
static const char *field(reader *rd, char *buf, size_t size) {
  const char *f = rd->at;
  if (f != rd->line) {
    if (*f != ' ') return NULL;
    f++;
  }
  size_t len = strcspn(f, " ");
  if (len == 0 || len >= size) return NULL;
  memcpy(buf, f, len);
  buf[len] = '\0';
  rd->at = (char *)f + len;
  return buf;
}

/* The next field as an integer in [lo, hi]. */
static int integer(reader *rd, int64_t lo, int64_t hi, int64_t *out) {
  char buf[32], *end;
  if (!field(rd, buf, sizeof buf)) return bad(rd, "a number is missing or too long");
  errno = 0;
  long long v = strtoll(buf, &end, 10);
  if (end == buf || *end || errno || v < lo || v > hi) return bad(rd, "a number is malformed or out of range");
  *out = v;
  return TC_OK;
}

/* The next field equal to `word`. */
static int keyword(reader *rd, const char *word) {
  char buf[32];
  if (!field(rd, buf, sizeof buf) || strcmp(buf, word)) return bad(rd, "unexpected field");
  return TC_OK;
}

/* "key <integer in [lo, hi]>" */
static int keyed(reader *rd, const char *key, int64_t lo, int64_t hi, int64_t *out) {
  if (keyword(rd, key) || integer(rd, lo, hi, out)) return rd->err->code;
  return TC_OK;
}

/* The next field as one of name(0) .. name(n-1) (its index). */
static int named(reader *rd, const char *(*name)(int), int n, int *out) {
  char buf[32];
  if (!field(rd, buf, sizeof buf)) return bad(rd, "a name is missing");
  for (int i = 0; i < n; i++)
    if (!strcmp(buf, name(i))) {
      *out = i;
      return TC_OK;
    }
  return bad(rd, "unknown name");
}

static int line_end(reader *rd) { return *rd->at ? bad(rd, "extra text at the end") : TC_OK; }

static const char *kind_name(int k) { return tc_op_kind_name((tc_op_kind)k); }
static const char *buffer_name(int b) { return tc_buffer_name((tc_buffer)b); }

static int read_header(reader *rd, tc_program_file_header *hdr) {
  memset(hdr, 0, sizeof *hdr);
  if (next_line(rd, "line 1")) return rd->err->code;
  if (strcmp(rd->line, MAGIC)) return bad(rd, "not a topocoll programs file (expected '" MAGIC "')");
  char buf[32];
  if (next_line(rd, "line 2 (collective)") || keyword(rd, "collective")) return rd->err->code;
  int coll = field(rd, buf, sizeof buf) ? tc_collective_parse(buf) : -1;
  if (coll < 0) return bad(rd, "unknown collective");
  hdr->coll = (tc_collective)coll;
  /* Rooted collectives name their root (p2p: source and destination), ranks checked below. */
  int64_t root = -1, dest = -1;
  int rooted = tc_program_rooted((tc_collective)coll);
  if (rooted && keyed(rd, "root", 0, INT32_MAX, &root)) return rd->err->code;
  if (coll == TC_COLL_P2P && keyed(rd, "dest", 0, INT32_MAX, &dest)) return rd->err->code;
  if (line_end(rd) || next_line(rd, "line 3 (algorithm)")) return rd->err->code;
  if (strncmp(rd->line, "algorithm ", 10)) return bad(rd, "unexpected field");
  if (strlen(rd->line + 10) >= sizeof hdr->algorithm) return bad(rd, "the name is too long");
  strcpy(hdr->algorithm, rd->line + 10);
  int64_t v;
  if (next_line(rd, "line 4 (ranks)") || keyed(rd, "ranks", 1, INT32_MAX, &v) || line_end(rd)) return rd->err->code;
  hdr->ranks = (int32_t)v;
  const char *wrong = root >= hdr->ranks ? "the root is no rank"
                      : dest >= hdr->ranks ? "the destination is no rank"
                      : dest >= 0 && dest == root ? "the destination is the source" : NULL;
  if (wrong) return tc_error_set(rd->err, TC_EINPUT, "%s: line 2 (collective): %s (%d ranks)", rd->path, wrong, hdr->ranks);
  hdr->root = (int32_t)root;
  hdr->dest = (int32_t)dest;
  if (next_line(rd, "line 5 (digest)") || keyword(rd, "digest")) return rd->err->code;
  char *end;
  if (!field(rd, buf, sizeof buf) || strlen(buf) != 16 || line_end(rd)) return bad(rd, "expected 16 hex digits");
  errno = 0;
  hdr->digest = strtoull(buf, &end, 16);
  if (*end || errno || buf[0] == '-' || buf[0] == '+') return bad(rd, "expected 16 hex digits");
  return TC_OK;
}

static int open_reader(reader *rd, const char *path, tc_error *err) {
  memset(rd, 0, sizeof *rd);
  rd->path = path;
  rd->err = err;
  tc_error_clear(err);
  struct stat st;
  rd->fp = fopen(path, "r");
  if (!rd->fp || fstat(fileno(rd->fp), &st)) {
    int e = errno;
    if (rd->fp) fclose(rd->fp);
    rd->fp = NULL;
    return tc_error_set(err, TC_EIO, "%s: cannot open: %s", path, strerror(e));
  }
  rd->size = (int64_t)st.st_size;
  return TC_OK;
}

int tc_program_file_detect(const char *path) {
  char line[sizeof MAGIC + 1] = "";
  FILE *fp = fopen(path, "r");
  if (!fp) return 0;
  int is = fgets(line, sizeof line, fp) && !strcmp(line, MAGIC "\n");
  fclose(fp);
  return is;
}

int tc_program_file_read_header(const char *path, tc_program_file_header *hdr, tc_error *err) {
  reader rd;
  memset(hdr, 0, sizeof *hdr);
  if (open_reader(&rd, path, err)) return err->code;
  int rc = read_header(&rd, hdr);
  fclose(rd.fp);
  if (rc) memset(hdr, 0, sizeof *hdr);
  return rc;
}

static int read_op(reader *rd, tc_op *o) {
  int kind = 0, src = 0, dst = 0;
  int64_t step, peer, arc, src_off, dst_off, cnt;
  if (named(rd, kind_name, 4, &kind) || integer(rd, 0, INT32_MAX, &step) || integer(rd, -1, INT32_MAX, &peer) ||
      integer(rd, -1, INT64_MAX, &arc) || named(rd, buffer_name, 3, &src) || integer(rd, -1, INT64_MAX, &src_off) ||
      named(rd, buffer_name, 3, &dst) || integer(rd, -1, INT64_MAX, &dst_off) || integer(rd, 1, INT64_MAX, &cnt) ||
      line_end(rd))
    return rd->err->code;
  *o = (tc_op){.kind = (tc_op_kind)kind, .step = (int32_t)step, .peer = (int32_t)peer, .arc = arc,
               .src = (tc_buffer)src, .src_off = src_off, .dst = (tc_buffer)dst, .dst_off = dst_off, .cnt = cnt};
  return TC_OK;
}

static int read_section(reader *rd, const tc_program_file_header *hdr, int32_t rank, tc_program *p) {
  char what[64];
  snprintf(what, sizeof what, "the index line of rank %d", rank);
  int64_t off, v[10];
  if (next_line(rd, what) || integer(rd, 0, rd->size, &off) || line_end(rd) ||
      strlen(rd->line) != INDEX_WIDTH)
    return rd->err->code ? rd->err->code : bad(rd, "malformed");
  if (fseek(rd->fp, (long)off, SEEK_SET)) return tc_error_set(rd->err, TC_EIO, "%s: cannot seek", rd->path);
  snprintf(what, sizeof what, "the first line of rank %d's section", rank);
  if (next_line(rd, what) || keyed(rd, "rank", rank, rank, &v[0]) || keyed(rd, "nshards", 1, INT32_MAX, &v[1]) ||
      keyed(rd, "units", 1, INT64_MAX, &v[2]) || keyed(rd, "steps", 0, INT32_MAX - 2, &v[3]) ||
      keyed(rd, "rs_steps", 0, INT32_MAX, &v[4]) || keyed(rd, "input", 0, INT64_MAX, &v[5]) ||
      keyed(rd, "output", 0, INT64_MAX, &v[6]) || keyed(rd, "scratch", 0, INT64_MAX, &v[7]) ||
      keyed(rd, "redundant", 0, INT64_MAX, &v[8]) || keyed(rd, "ops", 0, rd->size / OP_LINE_MIN, &v[9]) ||
      line_end(rd))
    return rd->err->code;
  *p = (tc_program){.coll = hdr->coll, .rank = rank, .ranks = hdr->ranks, .nshards = (int32_t)v[1], .units = v[2],
                    .steps = (int32_t)v[3], .rs_steps = (int32_t)v[4], .root = hdr->root, .dest = hdr->dest,
                    .input_chunks = v[5], .output_chunks = v[6],
                    .scratch_chunks = v[7], .redundant_off = v[8], .nops = v[9]};
  p->ops = malloc(sizeof *p->ops * (size_t)(p->nops ? p->nops : 1));
  if (!p->ops) return tc_error_set(rd->err, TC_ENOMEM, "%s: out of memory for %lld ops", rd->path, (long long)p->nops);
  for (int64_t i = 0; i < p->nops; i++) {
    snprintf(what, sizeof what, "rank %d, op %lld", rank, (long long)i);
    if (next_line(rd, what) || read_op(rd, &p->ops[i])) return rd->err->code;
  }
  return TC_OK;
}

int tc_program_file_read(const char *path, int32_t rank, tc_program_file_header *hdr, tc_program *out,
                         tc_error *err) {
  memset(out, 0, sizeof *out);
  memset(hdr, 0, sizeof *hdr);
  reader rd;
  if (open_reader(&rd, path, err)) return err->code;
  int rc = read_header(&rd, hdr);
  if (!rc && (rank < 0 || rank >= hdr->ranks))
    rc = tc_error_set(err, TC_EINPUT, "%s: holds the programs of %d ranks, not of rank %d", path, hdr->ranks, rank);
  long index = rc ? -1 : ftell(rd.fp);
  if (!rc && (index < 0 || fseek(rd.fp, index + (long)rank * (INDEX_WIDTH + 1), SEEK_SET)))
    rc = tc_error_set(err, TC_EIO, "%s: cannot seek", path);
  if (!rc) rc = read_section(&rd, hdr, rank, out);
  fclose(rd.fp);
  if (rc) {
    tc_program_destroy(out);
    memset(hdr, 0, sizeof *hdr);
  }
  return rc;
}
