/*
** test_program_io.c — the programs file (program_io.h):
**   - round trip: for BFB allreduce, allgather and reduce-scatter schedules (torus(3,3),
**     kautz(2,2)), every rank's program read back equals tc_program_lower's, field by
**     field and op by op (owner NULL, no dependencies); the header gives the collective,
**     the algorithm, N and a digest equal to FNV-1a 64 of every byte after the index
**     (computed here independently); the file opens with the documented lines;
**   - tc_program_file_detect: 1 on a programs file, 0 on a schedule JSON and a missing file;
**   - refusals, each one exact line: a missing file (TC_EIO), a schedule JSON, a rank out
**     of range, a truncated file, a misspelt op kind, an op count past the file's size, an
**     extra field; the writer's refusal of an algorithm name with a line break, with the
**     target left untouched.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tc_files.h"
#include "tc_test.h"
#include "topocoll/collective.h"
#include "topocoll/program_io.h"

static int make_tmpdir(void **state) { return tc_tmpdir_setup(state, "tc-progio"); }

/* root, dst: the rooted collectives' (-1: none). */
static void build_rooted(const char *spec, const char *algo, tc_collective coll, int32_t root, int32_t dst,
                         tc_graph **g, tc_schedule *s) {
  tc_error err;
  tc_cost cost;
  *g = tc_test_spec(spec);
  tc_collective_opts opts = {.root = root, .dst = dst};
  if (tc_collective_build(*g, algo, coll, &opts, s, &cost, &err)) fail_msg("%s: %s", spec, err.msg);
  tc_cost_destroy(&cost);
}

static void build_by(const char *spec, const char *algo, tc_collective coll, tc_graph **g, tc_schedule *s) {
  build_rooted(spec, algo, coll, -1, -1, g, s);
}

static void build(const char *spec, tc_collective coll, tc_graph **g, tc_schedule *s) {
  build_by(spec, "bfb", coll, g, s);
}

static void assert_same_program(const tc_program *a, const tc_program *b) {
  assert_int_equal(a->coll, b->coll);
  assert_int_equal(a->rank, b->rank);
  assert_int_equal(a->ranks, b->ranks);
  assert_int_equal(a->nshards, b->nshards);
  assert_int_equal(a->units, b->units);
  assert_int_equal(a->steps, b->steps);
  assert_int_equal(a->rs_steps, b->rs_steps);
  assert_int_equal(a->root, b->root);
  assert_int_equal(a->dest, b->dest);
  assert_int_equal(a->input_chunks, b->input_chunks);
  assert_int_equal(a->output_chunks, b->output_chunks);
  assert_int_equal(a->scratch_chunks, b->scratch_chunks);
  assert_int_equal(a->redundant_off, b->redundant_off);
  assert_int_equal(a->nops, b->nops);
  assert_null(b->owner);
  assert_int_equal(b->ndeps, 0);
  for (int64_t i = 0; i < a->nops; i++) {
    const tc_op *x = &a->ops[i], *y = &b->ops[i];
    assert_int_equal(x->kind, y->kind);
    assert_int_equal(x->step, y->step);
    assert_int_equal(x->peer, y->peer);
    assert_int_equal(x->arc, y->arc);
    assert_int_equal(x->src, y->src);
    assert_int_equal(x->src_off, y->src_off);
    assert_int_equal(x->dst, y->dst);
    assert_int_equal(x->dst_off, y->dst_off);
    assert_int_equal(x->cnt, y->cnt);
    assert_int_equal(y->ndeps, 0);
  }
}

/* FNV-1a 64 of text from the first section (index line 0's offset) to the end. */
static uint64_t body_digest(const char *text, int ranks) {
  const char *index = text;
  for (int line = 0; line < 5; line++) index = strchr(index, '\n') + 1;
  long long first = strtoll(index, NULL, 10);
  assert_int_equal(index[20], '\n');
  assert_true(first == (long long)(index - text) + 21LL * ranks);
  uint64_t h = UINT64_C(0xcbf29ce484222325);
  for (const char *c = text + first; *c; c++) h = (h ^ (unsigned char)*c) * UINT64_C(0x100000001b3);
  return h;
}

/* rooted: the collective line's tail (" root 2", " root 0 dest 5", or ""). */
static void round_trip_rooted(void **state, const char *spec, const char *algo, tc_collective coll, int32_t root,
                              int32_t dst, const char *rooted) {
  tc_tmpdir *f = *state;
  tc_graph *g;
  tc_schedule s;
  tc_error err;
  build_rooted(spec, algo, coll, root, dst, &g, &s);
  char path[PATH_MAX];
  tc_tmpdir_path(f, "programs.txt", path, sizeof path);
  assert_int_equal(tc_program_file_write(g, &s, path, &err), TC_OK);
  assert_int_equal(tc_program_file_detect(path), 1);
  char *text = tc_files_slurp(path), head[160];
  snprintf(head, sizeof head, "topocoll-programs 1\ncollective %s%s\nalgorithm %s\nranks %d\ndigest ",
           tc_collective_name(coll), rooted, algo, g->n);
  assert_memory_equal(text, head, strlen(head));
  tc_program_file_header hdr;
  assert_int_equal(tc_program_file_read_header(path, &hdr, &err), TC_OK);
  assert_int_equal(hdr.coll, coll);
  assert_int_equal(hdr.root, coll == TC_COLL_ALLGATHER || coll == TC_COLL_REDUCE_SCATTER ||
                                     coll == TC_COLL_ALLREDUCE || coll == TC_COLL_ALLTOALL ? -1 : root);
  assert_int_equal(hdr.dest, coll == TC_COLL_P2P ? dst : -1);
  assert_string_equal(hdr.algorithm, algo);
  assert_int_equal(hdr.ranks, g->n);
  assert_true(hdr.digest == body_digest(text, g->n));
  for (int32_t r = 0; r < g->n; r++) {
    tc_program want, got;
    assert_int_equal(tc_program_lower(g, &s, r, 0, &want, &err), TC_OK);
    assert_int_equal(tc_program_file_read(path, r, &hdr, &got, &err), TC_OK);
    assert_true(hdr.digest == body_digest(text, g->n));
    assert_same_program(&want, &got);
    tc_program_destroy(&want);
    tc_program_destroy(&got);
  }
  free(text);
  tc_schedule_destroy(&s);
  tc_graph_destroy(g);
}

static void round_trip_by(void **state, const char *spec, const char *algo, tc_collective coll) {
  round_trip_rooted(state, spec, algo, coll, -1, -1, "");
}

static void round_trip(void **state, const char *spec, tc_collective coll) { round_trip_by(state, spec, "bfb", coll); }

static void torus_allreduce(void **state) { round_trip(state, "torus(3,3)", TC_COLL_ALLREDUCE); }
/* Alltoall: relays through the mirror (sssp: two hops on torus(3,3)), split weights (ewsp). */
static void torus_alltoall(void **state) { round_trip_by(state, "torus(3,3)", "sssp", TC_COLL_ALLTOALL); }
static void hypercube_alltoall(void **state) { round_trip_by(state, "hypercube(3)", "ewsp", TC_COLL_ALLTOALL); }
/* The rooted collectives name their root; p2p its source and destination. */
static void kautz_broadcast(void **state) {
  round_trip_rooted(state, "kautz(2,1)", "kautz-c", TC_COLL_BROADCAST, 3, -1, " root 3");
}
static void kautz_reduce(void **state) {
  round_trip_rooted(state, "kautz(2,1)", "kautz-m", TC_COLL_REDUCE, 0, -1, " root 0");
}
static void binomial_scatter_gather(void **state) {
  round_trip_rooted(state, "complete(8)", "binomial", TC_COLL_SCATTER, 5, -1, " root 5");
  round_trip_rooted(state, "complete(8)", "binomial", TC_COLL_GATHER, 2, -1, " root 2");
}
static void kautz_p2p(void **state) {
  round_trip_rooted(state, "kautz(3,1)", "kautz-mp", TC_COLL_P2P, 1, 10, " root 1 dest 10");
}
static void kautz_allgather(void **state) { round_trip(state, "kautz(2,2)", TC_COLL_ALLGATHER); }
static void kautz_reduce_scatter(void **state) { round_trip(state, "kautz(2,2)", TC_COLL_REDUCE_SCATTER); }

/* Write torus(3,3)'s allreduce programs to path; returns the file's text (caller frees). */
static char *written(const char *path) {
  tc_graph *g;
  tc_schedule s;
  tc_error err;
  build("torus(3,3)", TC_COLL_ALLREDUCE, &g, &s);
  assert_int_equal(tc_program_file_write(g, &s, path, &err), TC_OK);
  tc_schedule_destroy(&s);
  tc_graph_destroy(g);
  return tc_files_slurp(path);
}

/* Reading `rank` of a file with `text` fails with `code` and exactly `want` (after "<path>: "). */
static void refused(const char *path, const char *text, size_t len, int32_t rank, int code, const char *want) {
  tc_files_spill(path, text, len);
  tc_program_file_header hdr;
  tc_program p;
  tc_error err;
  assert_int_equal(tc_program_file_read(path, rank, &hdr, &p, &err), code);
  char full[512];
  snprintf(full, sizeof full, "%s: %s", path, want);
  assert_string_equal(err.msg, full);
  assert_null(p.ops);
  assert_int_equal(hdr.ranks, 0);
}

static void refusals(void **state) {
  tc_tmpdir *f = *state;
  char path[PATH_MAX], bad[PATH_MAX];
  tc_tmpdir_path(f, "programs.txt", path, sizeof path);
  tc_tmpdir_path(f, "bad.txt", bad, sizeof bad);
  char *text = written(path);
  size_t len = strlen(text);
  tc_program_file_header hdr;
  tc_program p;
  tc_error err;

  tc_tmpdir_path(f, "missing.txt", bad, sizeof bad);
  assert_int_equal(tc_program_file_detect(bad), 0);
  assert_int_equal(tc_program_file_read(bad, 0, &hdr, &p, &err), TC_EIO);
  assert_non_null(strstr(err.msg, "missing.txt: cannot open: No such file or directory"));
  tc_tmpdir_path(f, "bad.txt", bad, sizeof bad);

  static const char json[] = "{\"format\": \"topocoll-schedule\"}\n";
  refused(bad, json, strlen(json), 0, TC_EINPUT,
          "line 1: not a topocoll programs file (expected 'topocoll-programs 1')");
  assert_int_equal(tc_program_file_detect(bad), 0);
  refused(bad, text, len, 9, TC_EINPUT, "holds the programs of 9 ranks, not of rank 9");
  refused(bad, text, len, -1, TC_EINPUT, "holds the programs of 9 ranks, not of rank -1");
  /* cut into rank 8's last op line (every op line is 31 bytes or more) */
  const char *index = text;
  for (int line = 0; line < 5; line++) index = strchr(index, '\n') + 1;
  const char *last = strstr(text + strtoll(index + 8 * 21, NULL, 10), " ops ");
  assert_non_null(last);
  char want[PATH_MAX + 64];
  snprintf(want, sizeof want, "rank 8, op %lld: too long or not ended by a line break", strtoll(last + 5, NULL, 10) - 1);
  refused(bad, text, len - 10, 8, TC_EINPUT, want);
  refused(bad, text, 30, 0, TC_EINPUT, "line 2 (collective): too long or not ended by a line break");

  /* rank 0's section: its first line, then its first op */
  char *copy = malloc(len + 8);
  size_t sec = (size_t)strtoll(index, NULL, 10), op = (size_t)(strchr(text + sec, '\n') + 1 - text);
  size_t op_end = (size_t)(strchr(text + op, '\n') - text);
  memcpy(copy, text, len + 1);
  copy[op] = 'X'; /* "Xend", "Xecv", ...: no such kind */
  refused(bad, copy, len, 0, TC_EINPUT, "rank 0, op 0: unknown name");
  memcpy(copy, text, len + 1);
  char *ops = strstr(copy + sec, " ops ");
  assert_non_null(ops);
  snprintf(ops, (size_t)(copy + len + 8 - ops), " ops 99999999%s", strchr(text + (ops - copy), '\n'));
  assert_true(strlen(copy) < len + 8); /* far past file size / 31 */
  refused(bad, copy, strlen(copy), 0, TC_EINPUT,
          "the first line of rank 0's section: a number is malformed or out of range");
  memcpy(copy, text, op_end);
  memcpy(copy + op_end, " 7", 2); /* an extra field on the op line */
  memcpy(copy + op_end + 2, text + op_end, len - op_end + 1);
  refused(bad, copy, len + 2, 0, TC_EINPUT, "rank 0, op 0: extra text at the end");
  free(copy);

  /* the writer: an algorithm name with a line break; the old file stays */
  tc_graph *g;
  tc_schedule s;
  build("torus(3,3)", TC_COLL_ALLREDUCE, &g, &s);
  snprintf(s.algorithm, sizeof s.algorithm, "b\nfb");
  assert_int_equal(tc_program_file_write(g, &s, path, &err), TC_EINPUT);
  snprintf(want, sizeof want, "%s: the algorithm name holds a line break", path);
  assert_string_equal(err.msg, want);
  char *after = tc_files_slurp(path);
  assert_string_equal(after, text);
  free(after);
  tc_schedule_destroy(&s);
  tc_graph_destroy(g);
  free(text);
}

/* The collective line of a rooted collective: its root (p2p: and destination) must be
   ranks of the file, p2p's two different, and no other collective has any. */
static void rooted_refusals(void **state) {
  tc_tmpdir *f = *state;
  char bad[PATH_MAX];
  tc_tmpdir_path(f, "bad.txt", bad, sizeof bad);
  static const struct {
    const char *line, *msg;
  } cases[] = {
      {"collective broadcast", "line 2 (collective): unexpected field"},
      {"collective scatter root 6", "line 2 (collective): the root is no rank (6 ranks)"},
      {"collective p2p root 1", "line 2 (collective): unexpected field"},
      {"collective p2p root 1 dest 6", "line 2 (collective): the destination is no rank (6 ranks)"},
      {"collective p2p root 2 dest 2", "line 2 (collective): the destination is the source (6 ranks)"},
      {"collective allreduce root 2", "line 2 (collective): extra text at the end"},
      {"collective gather root -1", "line 2 (collective): a number is malformed or out of range"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    char text[256];
    int len = snprintf(text, sizeof text, "topocoll-programs 1\n%s\nalgorithm x\nranks 6\ndigest 0000000000000000\n",
                       cases[i].line);
    refused(bad, text, (size_t)len, 0, TC_EINPUT, cases[i].msg);
  }
}

#define T(fn) cmocka_unit_test_setup_teardown(fn, make_tmpdir, tc_tmpdir_teardown)

int main(void) {
  const struct CMUnitTest tests[] = {T(torus_allreduce), T(kautz_allgather), T(kautz_reduce_scatter),
                                     T(torus_alltoall),  T(hypercube_alltoall), T(refusals),
                                     T(kautz_broadcast), T(kautz_reduce), T(binomial_scatter_gather),
                                     T(kautz_p2p),       T(rooted_refusals)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}
