/*
** harness.c — the checks every fuzz target shares (contract in harness.h).
**
** Message lines: every error is one line of printable text (error.h: tc_error_set and
** tc_error_prefix neutralize control bytes and invalid UTF-8 in every message, whatever
** input was formatted into it; readers also quote what they echo, core/io_text.h).
*/
#include "harness.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/fs_tree.h"

_Noreturn void tcf_fail(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fputs("fuzz invariant broken: ", stderr);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
  abort();
}

/* ---- scratch files ---- */

static char scratch[4096];

static void remove_scratch(void) {
  if (scratch[0]) tci_fs_remove_tree(scratch);
}

static const char *scratch_dir(void) {
  if (scratch[0]) return scratch;
  const char *tmp = getenv("TMPDIR");
  snprintf(scratch, sizeof scratch, "%s/tc-fuzz-XXXXXX", tmp && *tmp ? tmp : "/tmp");
  if (!mkdtemp(scratch)) tcf_fail("cannot create a scratch directory %s: %s", scratch, strerror(errno));
  atexit(remove_scratch);
  return scratch;
}

const char *tcf_path(const char *name) {
  /* A few fixed names per target: one slot each, found by name. */
  static struct { char name[32]; char path[4200]; } slots[8];
  for (size_t i = 0; i < sizeof slots / sizeof *slots; i++) {
    if (!strcmp(slots[i].name, name)) return slots[i].path;
    if (!slots[i].name[0]) {
      snprintf(slots[i].name, sizeof slots[i].name, "%s", name);
      snprintf(slots[i].path, sizeof slots[i].path, "%s/%s", scratch_dir(), name);
      return slots[i].path;
    }
  }
  tcf_fail("tcf_path: more than 8 scratch names");
}

void tcf_write_file(const char *path, const uint8_t *data, size_t size) {
  FILE *fp = fopen(path, "wb");
  if (!fp || (size && fwrite(data, 1, size, fp) != size) || fclose(fp))
    tcf_fail("cannot write the input to %s: %s", path, strerror(errno));
}

char *tcf_cstring(const uint8_t *data, size_t size) {
  char *s = malloc(size + 1);
  if (!s) tcf_fail("out of memory copying a %zu-byte input", size);
  if (size) memcpy(s, data, size);
  s[size] = '\0';
  return s;
}

/* ---- the error contract ---- */

void tcf_check_result(const char *what, int rc, const tc_error *err) {
  if (rc == TC_OK) {
    if (err->code != TC_OK || err->msg[0])
      tcf_fail("%s succeeded but left error %d \"%s\"", what, err->code, err->msg);
    return;
  }
  if (rc < TC_EINPUT || rc > TC_EFAIL) tcf_fail("%s returned the unknown code %d", what, rc);
  if (err->code != rc) tcf_fail("%s returned %d but recorded code %d (\"%s\")", what, rc, err->code, err->msg);
  size_t len = strnlen(err->msg, sizeof err->msg);
  if (len == 0) tcf_fail("%s failed (%d) without a message", what, rc);
  if (len == sizeof err->msg) tcf_fail("%s left an unterminated message", what);
  for (size_t i = 0; i < len; i++) {
    unsigned char c = (unsigned char)err->msg[i];
    if (c < 0x20 || c == 0x7f)
      tcf_fail("%s: message byte %zu is the control byte 0x%02x: \"%s\"", what, i, c, err->msg);
  }
}

/* ---- graphs ---- */

void tcf_check_graph(const char *what, const tc_graph *g) {
  if (g->n < 0 || g->n > TC_MAX_NODES || g->m < 0 || g->m > TC_MAX_ARCS)
    tcf_fail("%s: graph of %d nodes and %lld arcs is beyond the limits", what, g->n, (long long)g->m);
  if (g->out_off[0] != 0 || g->out_off[g->n] != g->m || g->in_off[0] != 0 || g->in_off[g->n] != g->m)
    tcf_fail("%s: CSR offsets do not span the %lld arcs", what, (long long)g->m);
  for (int64_t a = 0; a < g->m; a++) {
    int32_t u = g->src[a], v = g->dst[a];
    if (u < 0 || u >= g->n || v < 0 || v >= g->n || g->cap[a] < 1)
      tcf_fail("%s: arc %lld = %d -> %d cap %lld is out of range", what, (long long)a, u, v, (long long)g->cap[a]);
    if (a < g->out_off[u] || a >= g->out_off[u + 1]) tcf_fail("%s: arc %lld outside its source's range", what, (long long)a);
    if (a > 0 && (g->src[a - 1] > u || (g->src[a - 1] == u && (g->dst[a - 1] > v ||
                                                                (g->dst[a - 1] == v && g->cap[a - 1] > g->cap[a])))))
      tcf_fail("%s: arcs %lld and %lld are out of order", what, (long long)a - 1, (long long)a);
  }
  unsigned char *seen = calloc((size_t)g->m + 1, 1); /* each arc once in the in-arc index */
  if (!seen) tcf_fail("out of memory checking a graph of %lld arcs", (long long)g->m);
  for (int32_t v = 0; v < g->n; v++) {
    if (g->out_off[v] > g->out_off[v + 1] || g->in_off[v] > g->in_off[v + 1])
      tcf_fail("%s: CSR offsets decrease at node %d", what, v);
    for (int64_t i = g->in_off[v]; i < g->in_off[v + 1]; i++) {
      int64_t a = g->in_arc[i];
      if (a < 0 || a >= g->m || g->dst[a] != v || seen[a]++)
        tcf_fail("%s: in-arc %lld of node %d is wrong", what, (long long)i, v);
    }
  }
  free(seen);
  if (g->bidirectional != (g->rev != NULL)) tcf_fail("%s: bidirectional = %d disagrees with rev", what, g->bidirectional);
  for (int64_t a = 0; g->rev && a < g->m; a++) {
    int64_t b = g->rev[a];
    if (b < 0 || b >= g->m || g->rev[b] != a || g->src[b] != g->dst[a] || g->dst[b] != g->src[a] || g->cap[b] != g->cap[a])
      tcf_fail("%s: rev[%lld] = %lld is no opposite arc", what, (long long)a, (long long)b);
  }
}

void tcf_check_same_graph(const char *what, const tc_graph *a, const tc_graph *b, int with_extras) {
  if (a->n != b->n || a->m != b->m)
    tcf_fail("%s: %d nodes %lld arcs became %d nodes %lld arcs", what, a->n, (long long)a->m, b->n, (long long)b->m);
  for (int64_t i = 0; i < a->m; i++)
    if (a->src[i] != b->src[i] || a->dst[i] != b->dst[i] || a->cap[i] != b->cap[i])
      tcf_fail("%s: arc %lld differs", what, (long long)i);
  if (a->bidirectional != b->bidirectional) tcf_fail("%s: bidirectional differs", what);
  if (!with_extras) return;
  for (int32_t u = 0; u < a->n; u++) {
    if (a->kind[u] != b->kind[u]) tcf_fail("%s: kind of node %d differs", what, u);
    const char *la = tc_graph_label(a, u), *lb = tc_graph_label(b, u);
    if ((la == NULL) != (lb == NULL) || (la && strcmp(la, lb))) tcf_fail("%s: label of node %d differs", what, u);
  }
}
