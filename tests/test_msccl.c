/*
** test_msccl.c — MSCCL XML export (msccl.h) checked by an independent executor
** (msccl_exec.h); the lowering of paper 000 §7.
**
**   - many verified schedules exported and executed with MSCCL's semantics (mx_check): in
**     place and out of place, round-robin, with rendezvous sends, and seeded random orders,
**     sum and max, every output element compared with the collective's exact result, and
**     no two unordered steps of a GPU touching a chunk one of them writes: BFB allgathers
**     on torus(3,3), circulant(8,{1,2}), kautz(2,2), genkautz(2,10), genkautz(3,12) and the
**     line digraphs L(K_{2,2}), L(Q_3); reduce-scatters by Theorem 2 / Corollary 1.1 and
**     allreduces by composition on the same graphs; the ring, bidirectional ring, BFB
**     ring, recursive halving/doubling and two-shard double binary tree baselines; ForestColl's
**     pipelined trees (forestcoll) on hypercube(3) and genkautz(3,12);
**   - the file's shape: exactly the required attribute set on every element, in order
**     (libxml2), the algo attributes' values, steps numbered in order, hasdep on exactly
**     the steps waited for, nops with a dependency and cnt 0, cnt 1..71 otherwise, what the
**     options change, bad options refused with the file left as it was;
**   - the checker itself on hand-written two-GPU allgathers: right ones, one wrong out of
**     place only (no copy of the own chunk), races in place only (aliasing) and out of
**     place, deadlocks (a dependency without hasdep, a receive with nothing sent, a
**     receive after the GPU's own send under rendezvous sends), and files the runtime
**     would refuse (declaration, tab, missing or extra attribute, leading zero, hasdep 2,
**     offsets past the buffer, cnt 72, a nop without a dependency, a bad deps, two
**     threadblocks on one connection, the step limit);
**   - mutations of exported files: every single dependency dropped is a race, swapped sends
**     give wrong data, hasdep cleared is a deadlock, a changed cnt a FIFO mismatch; without
**     the race check, random orders alone find a dropped read-after-write dependency;
**   - limits: a small step limit spreads the connections over more channels and the file
**     still runs (and the checker holds it to that limit); K_34 needs several base
**     channels; impossible cases fail with their exact line and write nothing (33 sends at
**     1 step per threadblock, 8405 elements on a GPU, offsets past int16); cnt > 71 is
**     split; an unverified schedule and a broadcast are refused;
**   - fabrics (tc_fabric.h): allgathers, reduce-scatters and allreduces whose transfers hop
**     through switches export with one GPU per compute node and pass the whole check; a
**     replicating switch is refused with its exact line and nothing written.
*/
#include "tc_fabric.h"
#include "tc_files.h"
#include "tc_redundant.h"
#include "tc_test.h"

#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/xmlsave.h>

#include "msccl_exec.h"
#include "topocoll/baselines.h"
#include "topocoll/bfb.h"
#include "topocoll/msccl.h"
#include "topocoll/sched_io.h"
#include "topocoll/transform.h"
#include "topocoll/verify.h"

#define NRANDOM 3

static int make_tmpdir(void **state) { return tc_tmpdir_setup(state, "tc-msccl"); }

/* ---- schedules -------------------------------------------------------------------------- */

static int bfb_gen(const tc_graph *g, void *ctx, tc_schedule *out, tc_error *err) {
  (void)ctx;
  return tc_bfb_allgather(g, out, NULL, err);
}

/* BFB allgather, reduce-scatter (Thm 2 / Cor 1.1) or allreduce (composition) on g. */
static void bfb_schedule(const tc_graph *g, tc_collective coll, tc_schedule *s) {
  tc_error err;
  int rc = coll == TC_COLL_ALLGATHER        ? tc_bfb_allgather(g, s, NULL, &err)
           : coll == TC_COLL_REDUCE_SCATTER ? tc_schedule_reduce_scatter_by(g, NULL, bfb_gen, NULL, s, &err)
                                            : tc_schedule_allreduce_by(g, bfb_gen, NULL, s, &err);
  if (rc) fail_msg("bfb %s: %s", tc_collective_name(coll), err.msg);
}

static void baseline(const char *algo, const tc_graph *g, tc_collective coll, int32_t chunks, tc_schedule *s) {
  tc_error err;
  if (tc_test_generate(algo, NULL, g, coll, -1, chunks, s, &err)) fail_msg("%s %s: %s", algo, tc_collective_name(coll), err.msg);
}

/* ---- export + check --------------------------------------------------------------------- */

static void export_ok(const tc_graph *g, const tc_schedule *s, const tc_msccl_options *o, const char *path,
                      tc_msccl_stats *st) {
  tc_error err;
  if (tc_msccl_export(g, s, o, path, st, &err))
    fail_msg("export %s %s: %s", s->algorithm, tc_collective_name(s->coll), err.msg);
}

static void check_ok(const char *path, int max_steps, const char *what) {
  char msg[1024];
  int rc = mx_check(path, max_steps, NRANDOM, 12345, msg, sizeof msg);
  if (rc) fail_msg("%s: checker: %s", what, msg);
}

/* Export s with default options and run the whole check. */
static void export_and_check(const tc_tmpdir *d, const tc_graph *g, const tc_schedule *s, const char *what) {
  char path[PATH_MAX];
  tc_tmpdir_path(d, "algo.xml", path, sizeof path);
  tc_msccl_stats st;
  export_ok(g, s, NULL, path, &st);
  assert_true(st.max_tb_steps <= TC_MSCCL_DEFAULT_MAX_STEPS);
  check_ok(path, TC_MSCCL_DEFAULT_MAX_STEPS, what);
}

/* BFB allgather, reduce-scatter (tc_schedule_reduce_scatter_by: Theorem 2 when g is
   reverse-symmetric, Corollary 1.1 otherwise), allreduce, and the Corollary 1.1
   reduce-scatter explicitly (the reverse of the BFB allgather on g^T). */
static void bfb_all_collectives(const tc_tmpdir *d, const char *spec) {
  tc_graph *g = tc_test_spec(spec);
  char what[128];
  for (int c = TC_COLL_ALLGATHER; c <= TC_COLL_ALLREDUCE; c++) {
    tc_schedule s;
    bfb_schedule(g, (tc_collective)c, &s);
    snprintf(what, sizeof what, "bfb %s on %s", tc_collective_name((tc_collective)c), spec);
    export_and_check(d, g, &s, what);
    tc_schedule_destroy(&s);
  }
  tc_schedule s;
  tc_error err;
  if (tc_schedule_reduce_scatter_from(g, bfb_gen, NULL, &s, &err)) fail_msg("Cor 1.1 on %s: %s", spec, err.msg);
  snprintf(what, sizeof what, "Cor 1.1 reduce-scatter on %s", spec);
  export_and_check(d, g, &s, what);
  tc_schedule_destroy(&s);
  tc_graph_destroy(g);
}

static void bfb_torus_circulant(void **state) {
  bfb_all_collectives(*state, "torus(3,3)");
  bfb_all_collectives(*state, "circulant(8,1,2)");
}

static void bfb_kautz(void **state) {
  bfb_all_collectives(*state, "kautz(2,2)");
  bfb_all_collectives(*state, "genkautz(2,10)");
  bfb_all_collectives(*state, "genkautz(3,12)");
}

static void bfb_line_graphs(void **state) {
  bfb_all_collectives(*state, "line(bipartite(2))");
  bfb_all_collectives(*state, "line(hypercube(3))");
}

static void baselines_all(void **state) {
  static const struct {
    const char *algo, *spec;
  } cases[] = {{"ring", "uniring(1,6)"},
               {"ring", "uniring(2,5)"},
               {"biring", "biring(2,6)"},
               {"bfbring", "biring(2,7)"},
               {"rhd", "hypercube(3)"}};
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    tc_graph *g = tc_test_spec(cases[i].spec);
    for (int c = TC_COLL_ALLGATHER; c <= TC_COLL_ALLREDUCE; c++) {
      tc_schedule s;
      char what[128];
      baseline(cases[i].algo, g, (tc_collective)c, 0, &s);
      snprintf(what, sizeof what, "%s %s on %s", cases[i].algo, tc_collective_name((tc_collective)c), cases[i].spec);
      export_and_check(*state, g, &s, what);
      tc_schedule_destroy(&s);
    }
    tc_graph_destroy(g);
  }
}

/* The double binary tree allreduce: two shards owned by the tree roots, pipelined. */
static void dbt_allreduce(void **state) {
  tc_error err;
  for (int32_t n = 5; n <= 8; n += 3)
    for (int32_t P = 1; P <= 3; P += 2) {
      tc_graph *g;
      assert_int_equal(tc_baseline_dbt_topology(n, -1, &g, &err), TC_OK);
      tc_schedule s;
      baseline("dbt", g, TC_COLL_ALLREDUCE, P, &s);
      assert_int_equal(s.nshards, 2);
      char what[64];
      snprintf(what, sizeof what, "dbt allreduce N=%d P=%d", n, P);
      export_and_check(*state, g, &s, what);
      tc_schedule_destroy(&s);
      tc_graph_destroy(g);
    }
}

/* ForestColl's trees pipelined into steps (forest.h, tc_forest_lower) on graphs without
   switches: every collective on hypercube(3), the allreduce on genkautz(3,12), P = 1 and 3. */
static void forestcoll_collectives(void **state) {
  static const struct {
    const char *spec;
    tc_collective coll;
  } cases[] = {{"hypercube(3)", TC_COLL_ALLGATHER},
               {"hypercube(3)", TC_COLL_REDUCE_SCATTER},
               {"hypercube(3)", TC_COLL_ALLREDUCE},
               {"genkautz(3,12)", TC_COLL_ALLREDUCE}};
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    tc_graph *g = tc_test_spec(cases[i].spec);
    for (int32_t P = 1; P <= 3; P += 2) {
      tc_schedule s;
      char what[128];
      baseline("forestcoll", g, cases[i].coll, P, &s);
      snprintf(what, sizeof what, "forestcoll %s on %s P=%d", tc_collective_name(cases[i].coll), cases[i].spec, P);
      export_and_check(*state, g, &s, what);
      tc_schedule_destroy(&s);
    }
    tc_graph_destroy(g);
  }
}

/* ---- the file's shape ------------------------------------------------------------------- */

/* "a b c" = the element's attribute names in document order. */
static void attr_names(xmlNode *n, char *buf, size_t size) {
  buf[0] = '\0';
  for (xmlAttr *a = n->properties; a; a = a->next) {
    size_t len = strlen(buf);
    snprintf(buf + len, size - len, "%s%s", len ? " " : "", (const char *)a->name);
  }
}

static long prop_long(xmlNode *n, const char *key) {
  xmlChar *v = xmlGetProp(n, (const xmlChar *)key);
  assert_non_null(v);
  long x = strtol((const char *)v, NULL, 10);
  xmlFree(v);
  return x;
}

static void assert_prop(xmlNode *n, const char *key, const char *want) {
  xmlChar *v = xmlGetProp(n, (const xmlChar *)key);
  assert_non_null(v);
  assert_string_equal((const char *)v, want);
  xmlFree(v);
}

static xmlNode *next_element(xmlNode *n) {
  while (n && n->type != XML_ELEMENT_NODE) n = n->next;
  return n;
}

/* Walk every element: exact attribute sets, steps in order, hasdep exactly on the steps
   some step waits for, cnt within 1..71 (0 for nops). Returns the number of steps. */
static long check_shape(const char *path, const char *algo_attrs) {
  xmlDoc *doc = xmlReadFile(path, NULL, XML_PARSE_NONET);
  assert_non_null(doc);
  xmlNode *algo = xmlDocGetRootElement(doc);
  char names[512];
  assert_string_equal((const char *)algo->name, "algo");
  attr_names(algo, names, sizeof names);
  assert_string_equal(names, algo_attrs);
  long steps = 0;
  for (xmlNode *gpu = next_element(algo->children); gpu; gpu = next_element(gpu->next)) {
    assert_string_equal((const char *)gpu->name, "gpu");
    attr_names(gpu, names, sizeof names);
    assert_string_equal(names, "id i_chunks o_chunks s_chunks");
    /* waited[tb][s] counts the steps that wait for (tb, s). */
    int ntb = 0;
    for (xmlNode *tb = next_element(gpu->children); tb; tb = next_element(tb->next)) ntb++;
    int(*waited)[1024] = calloc((size_t)ntb, sizeof *waited);
    assert_non_null(waited);
    for (xmlNode *tb = next_element(gpu->children); tb; tb = next_element(tb->next))
      for (xmlNode *st = next_element(tb->children); st; st = next_element(st->next))
        if (prop_long(st, "depid") >= 0) waited[prop_long(st, "depid")][prop_long(st, "deps")]++;
    int id = 0;
    for (xmlNode *tb = next_element(gpu->children); tb; tb = next_element(tb->next), id++) {
      assert_string_equal((const char *)tb->name, "tb");
      attr_names(tb, names, sizeof names);
      assert_string_equal(names, "id send recv chan");
      assert_int_equal(prop_long(tb, "id"), id);
      long s = 0;
      for (xmlNode *st = next_element(tb->children); st; st = next_element(st->next), s++, steps++) {
        attr_names(st, names, sizeof names);
        assert_string_equal(names, "s type srcbuf srcoff dstbuf dstoff cnt depid deps hasdep");
        assert_int_equal(prop_long(st, "s"), s);
        assert_int_equal(prop_long(st, "hasdep"), waited[id][s] > 0);
        xmlChar *type = xmlGetProp(st, (const xmlChar *)"type");
        long cnt = prop_long(st, "cnt");
        if (!strcmp((const char *)type, "nop")) {
          assert_int_equal(cnt, 0);
          assert_true(prop_long(st, "depid") >= 0);
        } else {
          assert_true(cnt >= 1 && cnt <= 71);
          assert_true(!strcmp((const char *)type, "s") || !strcmp((const char *)type, "r") ||
                      !strcmp((const char *)type, "rrc") || !strcmp((const char *)type, "cpy"));
        }
        xmlFree(type);
      }
    }
    free(waited);
  }
  xmlFreeDoc(doc);
  return steps;
}

#define ALGO_ATTRS "name proto nchannels nchunksperloop ngpus coll inplace outofplace minBytes maxBytes"

static void file_shape_and_options(void **state) {
  tc_tmpdir *d = *state;
  char path[PATH_MAX];
  tc_tmpdir_path(d, "shape.xml", path, sizeof path);
  tc_graph *g = tc_test_spec("torus(3,3)");
  tc_schedule s;
  bfb_schedule(g, TC_COLL_ALLREDUCE, &s);
  tc_msccl_stats st;
  export_ok(g, &s, NULL, path, &st);
  assert_int_equal(check_shape(path, ALGO_ATTRS), st.steps);
  xmlDoc *doc = xmlReadFile(path, NULL, XML_PARSE_NONET);
  xmlNode *algo = xmlDocGetRootElement(doc);
  char want[64];
  assert_prop(algo, "name", "bfb allreduce n9");
  assert_prop(algo, "proto", "Simple");
  assert_prop(algo, "coll", "allreduce");
  assert_prop(algo, "ngpus", "9");
  snprintf(want, sizeof want, "%lld", (long long)s.nshards * s.units);
  assert_prop(algo, "nchunksperloop", want);
  assert_prop(algo, "inplace", "1");
  assert_prop(algo, "outofplace", "1");
  assert_prop(algo, "minBytes", "0");
  assert_prop(algo, "maxBytes", "9223372036854775807");
  assert_int_equal(prop_long(algo, "nchannels"), st.nchannels);
  assert_int_equal(st.nchannels, 1);
  assert_int_equal(st.width, 1);
  xmlFreeDoc(doc);
  /* The file text: no declaration, the algo first, spaces only. */
  char *text = tc_files_slurp(path);
  assert_non_null(text);
  assert_true(!strncmp(text, "<algo name=\"bfb allreduce n9\" proto=\"Simple\" nchannels=\"1\"", 58));
  assert_null(strchr(text, '\t'));
  free(text);

  /* Options: name, protocol, sizes, reduction. */
  tc_msccl_options o;
  tc_msccl_options_init(&o);
  o.name = "torus 3x3 (allreduce), v1";
  o.proto = TC_MSCCL_LL128;
  o.min_bytes = 4096;
  o.max_bytes = 1 << 20;
  o.redop = "max";
  export_ok(g, &s, &o, path, &st);
  check_shape(path, ALGO_ATTRS " redop");
  doc = xmlReadFile(path, NULL, XML_PARSE_NONET);
  algo = xmlDocGetRootElement(doc);
  assert_prop(algo, "name", "torus 3x3 (allreduce), v1");
  assert_prop(algo, "proto", "LL128");
  assert_prop(algo, "minBytes", "4096");
  assert_prop(algo, "maxBytes", "1048576");
  assert_prop(algo, "redop", "max");
  xmlFreeDoc(doc);
  check_ok(path, TC_MSCCL_DEFAULT_MAX_STEPS, "torus allreduce with options");

  /* Bad options: nothing written over the good file. */
  static const struct {
    const char *name, *redop;
    int64_t min, max;
    int steps;
    const char *frag;
  } bad_opts[] = {{"a\"b", NULL, 0, 1, 0, "only printable ASCII"},
                  {"", NULL, 0, 1, 0, "1 to 200 characters"},
                  {NULL, "avg", 0, 1, 0, "unknown reduction \"avg\""},
                  {NULL, NULL, 10, 5, 0, "must be positive and at least minBytes"},
                  {NULL, NULL, -1, 5, 0, "minBytes -1 is negative"},
                  {NULL, NULL, 0, 5, 1025, "outside 1..1024"}};
  char *before = tc_files_slurp(path);
  for (size_t i = 0; i < sizeof bad_opts / sizeof bad_opts[0]; i++) {
    tc_msccl_options_init(&o);
    o.name = bad_opts[i].name;
    o.redop = bad_opts[i].redop;
    o.min_bytes = bad_opts[i].min;
    o.max_bytes = bad_opts[i].max;
    o.max_steps = bad_opts[i].steps;
    tc_error err;
    assert_int_equal(tc_msccl_export(g, &s, &o, path, NULL, &err), TC_EINPUT);
    if (!strstr(err.msg, bad_opts[i].frag)) fail_msg("'%s' lacks '%s'", err.msg, bad_opts[i].frag);
  }
  char *after = tc_files_slurp(path);
  assert_string_equal(before, after);
  free(before);
  free(after);
  tc_schedule_destroy(&s);

  /* A reduction on an allgather is refused. */
  bfb_schedule(g, TC_COLL_ALLGATHER, &s);
  tc_msccl_options_init(&o);
  o.redop = "sum";
  tc_error err;
  assert_int_equal(tc_msccl_export(g, &s, &o, path, NULL, &err), TC_EINPUT);
  assert_non_null(strstr(err.msg, "not allgather"));
  tc_schedule_destroy(&s);
  tc_graph_destroy(g);
}

/* ---- the checker on hand-written files ------------------------------------------------------ */

/* Copy fmt into out with every '@' replaced by the digit r. */
static void per_gpu(char *out, size_t size, const char *fmt, int r) {
  size_t k = 0;
  for (const char *p = fmt; *p && k + 1 < size; p++) out[k++] = *p == '@' ? (char)('0' + r) : *p;
  out[k] = '\0';
}

/* A two-GPU allgather: tb 0 sends (attributes `send` after type="s"), tb 1 receives the
   other GPU's chunk, tb 2 (when `own` is not empty) holds the step `own`; '@' stands for
   the GPU's id. */
static void two_gpu_allgather(const char *path, const char *head, const char *send, const char *own) {
  FILE *fp = fopen(path, "w");
  char line[512];
  assert_non_null(fp);
  fprintf(fp,
          "%s<algo name=\"t\" proto=\"Simple\" nchannels=\"1\" nchunksperloop=\"2\" ngpus=\"2\" coll=\"allgather\" "
          "inplace=\"1\" outofplace=\"1\" minBytes=\"0\" maxBytes=\"0\">\n",
          head);
  for (int r = 0; r < 2; r++) {
    fprintf(fp, "  <gpu id=\"%d\" i_chunks=\"1\" o_chunks=\"2\" s_chunks=\"0\">\n", r);
    per_gpu(line, sizeof line, send, r);
    fprintf(fp,
            "    <tb id=\"0\" send=\"%d\" recv=\"-1\" chan=\"0\">\n      <step s=\"0\" type=\"s\" %s/>\n    </tb>\n",
            1 - r, line);
    fprintf(fp,
            "    <tb id=\"1\" send=\"-1\" recv=\"%d\" chan=\"0\">\n      <step s=\"0\" type=\"r\" srcbuf=\"i\" "
            "srcoff=\"-1\" dstbuf=\"o\" dstoff=\"%d\" cnt=\"1\" depid=\"-1\" deps=\"-1\" hasdep=\"0\"/>\n    </tb>\n",
            1 - r, 1 - r);
    per_gpu(line, sizeof line, own, r);
    if (*own) fprintf(fp, "    <tb id=\"2\" send=\"-1\" recv=\"-1\" chan=\"0\">\n      %s\n    </tb>\n", line);
    fprintf(fp, "  </gpu>\n");
  }
  fprintf(fp, "</algo>\n");
  assert_int_equal(fclose(fp), 0);
}

/* Replace the first occurrence of `from` in the file by `to`. */
static void replace_in_file(const char *path, const char *from, const char *to) {
  char *text = tc_files_slurp(path);
  assert_non_null(text);
  char *p = strstr(text, from);
  if (!p) fail_msg("'%s' not in %s", from, path);
  size_t pre = (size_t)(p - text), len = strlen(text) - pre - strlen(from);
  char *out = malloc(pre + strlen(to) + len + 1);
  memcpy(out, text, pre);
  strcpy(out + pre, to);
  strcat(out, p + strlen(from));
  tc_files_spill(path, out, strlen(out));
  free(out);
  free(text);
}

static int run_with(const char *path, const mx_run_opts *o, char *msg, size_t size) {
  mx_algo *a;
  int rc = mx_load(path, 64, &a, msg, size);
  if (rc) return rc;
  rc = mx_run(a, o, msg, size);
  mx_free(a);
  return rc;
}

static int run_one(const char *path, int inplace, char *msg, size_t size) {
  mx_run_opts o = {.inplace = inplace, .op = MX_OP_SUM, .elems = 3};
  return run_with(path, &o, msg, size);
}

static void expect_rc(int rc, int want, const char *msg, const char *frag) {
  if (rc != want || !strstr(msg, frag)) fail_msg("got %d '%s', expected %d with '%s'", rc, msg, want, frag);
}

#define NODEP "depid=\"-1\" deps=\"-1\""
#define FROM_INPUT "srcbuf=\"i\" srcoff=\"0\" dstbuf=\"o\" dstoff=\"-1\" cnt=\"1\" "
#define FROM_OUTPUT "srcbuf=\"o\" srcoff=\"@\" dstbuf=\"o\" dstoff=\"-1\" cnt=\"1\" "
#define COPY_OWN(hasdep)                                                                            \
  "<step s=\"0\" type=\"cpy\" srcbuf=\"i\" srcoff=\"0\" dstbuf=\"o\" dstoff=\"@\" cnt=\"1\" " NODEP \
  " hasdep=\"" #hasdep "\"/>"

static void checker_hand_written(void **state) {
  tc_tmpdir *d = *state;
  char path[PATH_MAX], msg[512];
  mx_algo *a;
  tc_tmpdir_path(d, "hand.xml", path, sizeof path);
  /* 1. Send the own chunk after copying it into the output (dependency, hasdep on the
        copy): right in place and out of place. */
  two_gpu_allgather(path, "", FROM_INPUT "depid=\"2\" deps=\"0\" hasdep=\"0\"", COPY_OWN(1));
  for (int inplace = 0; inplace < 2; inplace++) expect_rc(run_one(path, inplace, msg, sizeof msg), MX_OK, msg, "");

  /* 2. Without the copies the own chunk is garbage out of place, and there in place. */
  two_gpu_allgather(path, "", FROM_INPUT NODEP " hasdep=\"0\"", "");
  expect_rc(run_one(path, 0, msg, sizeof msg), MX_EWRONG, msg, "gpu 0 output chunk 0 element 0");
  expect_rc(run_one(path, 1, msg, sizeof msg), MX_OK, msg, "");

  /* 3. Copy and send unordered: out of place they touch different buffers; in place the
        copy writes the chunk the send reads (the input is part of the output): a race,
        found whatever order the run took. */
  two_gpu_allgather(path, "", FROM_INPUT NODEP " hasdep=\"0\"", COPY_OWN(0));
  expect_rc(run_one(path, 0, msg, sizeof msg), MX_OK, msg, "");
  expect_rc(run_one(path, 1, msg, sizeof msg), MX_ERACE, msg,
            "race on gpu 0: tb 0 step 0 (reads i[0]) and tb 2 step 0 (writes o[0])");
  /* The same when the send reads the output chunk, out of place too. */
  two_gpu_allgather(path, "", FROM_OUTPUT NODEP " hasdep=\"0\"", COPY_OWN(0));
  expect_rc(run_one(path, 0, msg, sizeof msg), MX_ERACE, msg,
            "race on gpu 0: tb 0 step 0 (reads o[0]) and tb 2 step 0 (writes o[0])");
  two_gpu_allgather(path, "", FROM_OUTPUT "depid=\"2\" deps=\"0\" hasdep=\"0\"", COPY_OWN(1));
  for (int inplace = 0; inplace < 2; inplace++) expect_rc(run_one(path, inplace, msg, sizeof msg), MX_OK, msg, "");

  /* 4. A dependency on a step without hasdep never resolves. */
  two_gpu_allgather(path, "", FROM_OUTPUT "depid=\"2\" deps=\"0\" hasdep=\"0\"", COPY_OWN(0));
  expect_rc(run_one(path, 0, msg, sizeof msg), MX_EDEADLOCK, msg, "gpu 0 tb 0 step 0 (s) waits for its dependency");

  /* 5. A receive with nothing sent (GPU 0's sending threadblock only waits and copies):
        deadlock naming the waiting receive. */
  two_gpu_allgather(path, "", FROM_INPUT "depid=\"2\" deps=\"0\" hasdep=\"0\"", COPY_OWN(1));
  replace_in_file(path, "<step s=\"0\" type=\"s\" " FROM_INPUT "depid=\"2\" deps=\"0\" hasdep=\"0\"/>",
                  "<step s=\"0\" type=\"nop\" srcbuf=\"i\" srcoff=\"-1\" dstbuf=\"o\" dstoff=\"-1\" cnt=\"0\" "
                  "depid=\"2\" deps=\"0\" hasdep=\"0\"/>\n      <step s=\"1\" type=\"cpy\" srcbuf=\"i\" "
                  "srcoff=\"0\" dstbuf=\"o\" dstoff=\"0\" cnt=\"1\" depid=\"2\" deps=\"0\" hasdep=\"0\"/>");
  expect_rc(run_one(path, 0, msg, sizeof msg), MX_EDEADLOCK, msg, "gpu 1 tb 1 step 0 (r) waits for a message");

  /* 6. Each GPU receives only after its own send has ended: fine with buffered
        connections, a deadlock when a send ends only once its receive has begun. */
  two_gpu_allgather(path, "", FROM_INPUT "depid=\"2\" deps=\"0\" hasdep=\"1\"", COPY_OWN(1));
  for (int r = 0; r < 2; r++) {
    char from[128], to[128];
    snprintf(from, sizeof from,
             "type=\"r\" srcbuf=\"i\" srcoff=\"-1\" dstbuf=\"o\" dstoff=\"%d\" cnt=\"1\" depid=\"-1\"", 1 - r);
    snprintf(to, sizeof to, "type=\"r\" srcbuf=\"i\" srcoff=\"-1\" dstbuf=\"o\" dstoff=\"%d\" cnt=\"1\" depid=\"0\"",
             1 - r);
    replace_in_file(path, from, to);
    snprintf(from, sizeof from, "depid=\"0\" deps=\"-1\"");
    snprintf(to, sizeof to, "depid=\"0\" deps=\"0\"");
    replace_in_file(path, from, to);
  }
  expect_rc(run_one(path, 0, msg, sizeof msg), MX_OK, msg, "");
  mx_run_opts rdv = {.inplace = 0, .op = MX_OP_SUM, .elems = 1, .rendezvous = 1};
  expect_rc(run_with(path, &rdv, msg, sizeof msg), MX_EDEADLOCK, msg,
            "gpu 0 tb 0 step 0 (s) send waits for its receive to begin");

  /* 7. Refusals: the runtime's rules. */
  static const struct {
    const char *head, *send, *own, *frag;
  } refused[] = {
      {"<?xml version=\"1.0\"?>\n", FROM_INPUT NODEP " hasdep=\"0\"", "", "must start with <algo"},
      {"", FROM_INPUT NODEP "\thasdep=\"0\"", "", "one space"},
      {"", FROM_INPUT "depid=\"-1\" hasdep=\"0\"", "", "missing attribute deps"},
      {"", "srcbuf=\"i\" srcoff=\"00\" dstbuf=\"o\" dstoff=\"-1\" cnt=\"1\" " NODEP " hasdep=\"0\"", "",
       "srcoff=\"00\" is not a plain decimal"},
      {"", FROM_INPUT NODEP " hasdep=\"2\"", "", "hasdep=2 outside 0..1"},
      {"", FROM_INPUT NODEP " hasdep=\"0\" extra=\"1\"", "", "unexpected attribute extra"},
      {"", "srcbuf=\"i\" srcoff=\"1\" dstbuf=\"o\" dstoff=\"-1\" cnt=\"1\" " NODEP " hasdep=\"0\"", "",
       "src chunks [1, 2) outside its buffer of 1 chunks"},
      {"", "srcbuf=\"i\" srcoff=\"0\" dstbuf=\"o\" dstoff=\"-1\" cnt=\"72\" " NODEP " hasdep=\"0\"", "",
       "cnt=72 outside 1..71"},
      {"", FROM_INPUT NODEP " hasdep=\"0\"",
       "<step s=\"0\" type=\"nop\" srcbuf=\"i\" srcoff=\"-1\" dstbuf=\"o\" dstoff=\"-1\" cnt=\"0\" " NODEP
       " hasdep=\"0\"/>",
       "a nop without a dependency"},
      {"", FROM_INPUT NODEP " hasdep=\"1\"",
       "<step s=\"0\" type=\"nop\" srcbuf=\"i\" srcoff=\"-1\" dstbuf=\"o\" dstoff=\"-1\" cnt=\"0\" depid=\"0\" "
       "deps=\"0\" hasdep=\"0\"/>",
       "gpu 0 tb 2: the threadblock ends with a nop"},
      {"", FROM_INPUT "depid=\"1\" deps=\"3\" hasdep=\"0\"", "", "deps 3 is no earlier step of threadblock 1"},
      {"", FROM_INPUT "depid=\"1\" deps=\"0\" hasdep=\"0\"", "", ""},
  };
  for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
    two_gpu_allgather(path, refused[i].head, refused[i].send, refused[i].own);
    int rc = mx_load(path, 64, &a, msg, sizeof msg);
    if (!*refused[i].frag) { /* the last one is fine: control case */
      expect_rc(rc, MX_OK, msg, "");
      mx_free(a);
      continue;
    }
    expect_rc(rc, MX_EINVALID, msg, refused[i].frag);
  }
  /* Two threadblocks on one connection. */
  two_gpu_allgather(path, "", FROM_INPUT NODEP " hasdep=\"0\"", "");
  replace_in_file(path, "<tb id=\"1\" send=\"-1\" recv=\"1\"", "<tb id=\"1\" send=\"1\" recv=\"1\"");
  expect_rc(mx_load(path, 64, &a, msg, sizeof msg), MX_EINVALID, msg,
            "gpu 0: threadblocks 0 and 1 both send to 1 on channel 0");
  /* The step limit. */
  two_gpu_allgather(path, "", FROM_INPUT NODEP " hasdep=\"0\"", "");
  expect_rc(mx_load(path, 0, &a, msg, sizeof msg), MX_EINVALID, msg, "s=0 outside 0..-1");
}

/* ---- mutations of exported files ------------------------------------------------------------ */

/* Save doc without an XML declaration (the runtime's parser would reject one). */
static void save_doc(xmlDoc *doc, const char *path) {
  xmlSaveCtxtPtr ctxt = xmlSaveToFilename(path, NULL, XML_SAVE_NO_DECL);
  assert_non_null(ctxt);
  assert_true(xmlSaveDoc(ctxt, doc) >= 0);
  assert_true(xmlSaveClose(ctxt) >= 0);
}

/* The n-th <step> element of the document (document order) matching pred, or NULL. */
typedef int (*step_pred)(xmlNode *st);

static xmlNode *nth_step(xmlDoc *doc, step_pred pred, int n) {
  for (xmlNode *gpu = next_element(xmlDocGetRootElement(doc)->children); gpu; gpu = next_element(gpu->next))
    for (xmlNode *tb = next_element(gpu->children); tb; tb = next_element(tb->next)) {
      xmlNode *prev = NULL;
      for (xmlNode *st = next_element(tb->children); st; prev = st, st = next_element(st->next)) {
        xmlChar *ptype = prev ? xmlGetProp(prev, (const xmlChar *)"type") : NULL;
        int after_nop = ptype && !strcmp((const char *)ptype, "nop");
        xmlFree(ptype);
        if (!after_nop && pred(st) && n-- == 0) return st;
      }
    }
  return NULL;
}

static int is_type(xmlNode *st, const char *t) {
  xmlChar *v = xmlGetProp(st, (const xmlChar *)"type");
  int eq = v && !strcmp((const char *)v, t);
  xmlFree(v);
  return eq;
}

static int real_step_with_dep(xmlNode *st) { return !is_type(st, "nop") && prop_long(st, "depid") >= 0; }

static void set_prop(xmlNode *n, const char *key, long v) {
  char buf[32];
  snprintf(buf, sizeof buf, "%ld", v);
  xmlSetProp(n, (const xmlChar *)key, (const xmlChar *)buf);
}

static int check_file(const char *path, char *msg, size_t size) { return mx_check(path, 64, 0, 1, msg, size); }

/* Every dependency that a real step carries, dropped one at a time, must make the checker
   fail (the writer keeps no dependency that is implied on the GPU). */
static void drop_each_dependency(const tc_tmpdir *d, const tc_graph *g, const tc_schedule *s, int *dropped) {
  char path[PATH_MAX], mutated[PATH_MAX], msg[1024];
  tc_tmpdir_path(d, "orig.xml", path, sizeof path);
  tc_tmpdir_path(d, "mut.xml", mutated, sizeof mutated);
  export_ok(g, s, NULL, path, NULL);
  for (int k = 0;; k++) {
    xmlDoc *doc = xmlReadFile(path, NULL, XML_PARSE_NONET);
    xmlNode *st = nth_step(doc, real_step_with_dep, k);
    if (!st) {
      xmlFreeDoc(doc);
      break;
    }
    set_prop(st, "depid", -1);
    set_prop(st, "deps", -1);
    save_doc(doc, mutated);
    xmlFreeDoc(doc);
    int rc = check_file(mutated, msg, sizeof msg);
    if (rc != MX_ERACE) fail_msg("%s: dependency %d dropped: checker said %d '%s'", s->algorithm, k, rc, msg);
    (*dropped)++;
  }
}

static void mutation_dropped_dependencies(void **state) {
  int dropped = 0;
  tc_graph *g = tc_test_spec("torus(3,3)");
  tc_schedule s;
  bfb_schedule(g, TC_COLL_ALLREDUCE, &s);
  drop_each_dependency(*state, g, &s, &dropped);
  tc_schedule_destroy(&s);
  tc_graph_destroy(g);
  g = tc_test_spec("uniring(1,5)");
  baseline("ring", g, TC_COLL_ALLREDUCE, 0, &s);
  drop_each_dependency(*state, g, &s, &dropped);
  tc_schedule_destroy(&s);
  tc_graph_destroy(g);
  assert_true(dropped > 20);
}

static int is_send(xmlNode *st) { return is_type(st, "s"); }

/* A send of a received chunk (from the output) that waits for its receive. */
static int forwarding_send(xmlNode *st) {
  xmlChar *b = xmlGetProp(st, (const xmlChar *)"srcbuf");
  int o = b && !strcmp((const char *)b, "o");
  xmlFree(b);
  return is_send(st) && o && prop_long(st, "depid") >= 0;
}

/* Without the race check, the runs themselves: a dropped read-after-write dependency shows
   as wrong data in some seeded random order (reads happen when a step starts, writes when
   it ends, and the send may now start before the receive it forwards has ended). */
static void random_orders_find_missing_dependency(void **state) {
  tc_tmpdir *d = *state;
  char path[PATH_MAX], msg[1024];
  tc_tmpdir_path(d, "ring.xml", path, sizeof path);
  tc_graph *g = tc_test_spec("uniring(1,5)");
  tc_schedule s;
  baseline("ring", g, TC_COLL_ALLGATHER, 0, &s);
  export_ok(g, &s, NULL, path, NULL);
  xmlDoc *doc = xmlReadFile(path, NULL, XML_PARSE_NONET);
  xmlNode *st = nth_step(doc, forwarding_send, 0);
  assert_non_null(st);
  set_prop(st, "depid", -1);
  set_prop(st, "deps", -1);
  save_doc(doc, path);
  xmlFreeDoc(doc);
  mx_algo *a;
  assert_int_equal(mx_load(path, 64, &a, msg, sizeof msg), MX_OK);
  int wrong = 0, right = 0;
  for (uint64_t seed = 0; seed < 40; seed++) {
    mx_run_opts o = {.inplace = 0, .op = MX_OP_SUM, .elems = 1, .random = 1, .seed = seed, .skip_races = 1};
    int rc = mx_run(a, &o, msg, sizeof msg);
    if (rc == MX_EWRONG)
      wrong++;
    else if (rc == MX_OK)
      right++;
    else
      fail_msg("seed %llu: %s", (unsigned long long)seed, msg);
  }
  assert_true(wrong > 0);
  assert_true(right > 0); /* the order matters: some runs happen to be right */
  mx_run_opts o = {.inplace = 0, .op = MX_OP_SUM, .elems = 1};
  expect_rc(mx_run(a, &o, msg, sizeof msg), MX_ERACE, msg, "race on gpu 0");
  mx_free(a);
  tc_schedule_destroy(&s);
  tc_graph_destroy(g);
}

static int same_prop(xmlNode *x, xmlNode *y, const char *key) {
  xmlChar *a = xmlGetProp(x, (const xmlChar *)key), *b = xmlGetProp(y, (const xmlChar *)key);
  int eq = a && b && !strcmp((const char *)a, (const char *)b);
  xmlFree(a);
  xmlFree(b);
  return eq;
}

static void mutation_swap_hasdep_cnt(void **state) {
  tc_tmpdir *d = *state;
  char path[PATH_MAX], mutated[PATH_MAX], msg[1024];
  tc_tmpdir_path(d, "orig.xml", path, sizeof path);
  tc_tmpdir_path(d, "mut.xml", mutated, sizeof mutated);
  tc_graph *g = tc_test_spec("biring(2,6)");
  tc_schedule s;
  baseline("biring", g, TC_COLL_ALLGATHER, 0, &s);
  tc_error err;
  assert_int_equal(tc_schedule_refine(&s, 2, &err), TC_OK); /* every send moves >= 2 chunks */
  export_ok(g, &s, NULL, path, NULL);
  check_ok(path, 64, "biring allgather");

  /* Swap the sources of two sends of one threadblock: the data goes to the wrong place. */
  xmlDoc *doc = xmlReadFile(path, NULL, XML_PARSE_NONET);
  xmlNode *a = NULL, *b = NULL;
  for (int k = 0; !b; k++) {
    a = nth_step(doc, is_send, k);
    assert_non_null(a);
    for (xmlNode *st = next_element(a->next); st && !b; st = next_element(st->next))
      if (is_send(st) && prop_long(st, "cnt") == prop_long(a, "cnt") &&
          prop_long(st, "srcoff") != prop_long(a, "srcoff") && same_prop(st, a, "srcbuf"))
        b = st;
  }
  long off_a = prop_long(a, "srcoff"), off_b = prop_long(b, "srcoff");
  set_prop(a, "srcoff", off_b);
  set_prop(b, "srcoff", off_a);
  save_doc(doc, mutated);
  xmlFreeDoc(doc);
  int rc = check_file(mutated, msg, sizeof msg);
  if (rc != MX_EWRONG && rc != MX_ERACE) fail_msg("swapped sends: checker said %d '%s'", rc, msg);

  /* Clear hasdep on every step of a threadblock some step waits for: deadlock. */
  doc = xmlReadFile(path, NULL, XML_PARSE_NONET);
  xmlNode *waiter = nth_step(doc, real_step_with_dep, 0);
  assert_non_null(waiter);
  long depid = prop_long(waiter, "depid");
  xmlNode *tb = next_element(waiter->parent->parent->children);
  for (long i = 0; i < depid; i++) tb = next_element(tb->next);
  for (xmlNode *st = next_element(tb->children); st; st = next_element(st->next)) set_prop(st, "hasdep", 0);
  save_doc(doc, mutated);
  xmlFreeDoc(doc);
  expect_rc(check_file(mutated, msg, sizeof msg), MX_EDEADLOCK, msg, "waits for its dependency");

  /* A send's cnt changed (one chunk less): the receive disagrees. */
  doc = xmlReadFile(path, NULL, XML_PARSE_NONET);
  xmlNode *big = NULL;
  for (int k = 0; !big; k++) {
    xmlNode *st = nth_step(doc, is_send, k);
    assert_non_null(st);
    if (prop_long(st, "cnt") >= 2) big = st;
  }
  set_prop(big, "cnt", prop_long(big, "cnt") - 1);
  save_doc(doc, mutated);
  xmlFreeDoc(doc);
  expect_rc(check_file(mutated, msg, sizeof msg), MX_EFIFO, msg, "but the message carries");
  tc_schedule_destroy(&s);
  tc_graph_destroy(g);
}

/* ---- limits ------------------------------------------------------------------------------- */

static void limits_channel_splitting(void **state) {
  tc_tmpdir *d = *state;
  char path[PATH_MAX];
  tc_tmpdir_path(d, "split.xml", path, sizeof path);
  tc_graph *g = tc_test_spec("torus(3,3)");
  tc_schedule s;
  bfb_schedule(g, TC_COLL_ALLREDUCE, &s);
  tc_msccl_stats one, split;
  export_ok(g, &s, NULL, path, &one);
  assert_int_equal(one.width, 1);
  tc_msccl_options o;
  tc_msccl_options_init(&o);
  o.max_steps = one.max_tb_steps - 1;
  export_ok(g, &s, &o, path, &split);
  assert_true(split.width >= 2);
  assert_int_equal(split.nchannels, split.width * split.base_channels);
  assert_true(split.max_tb_steps <= o.max_steps);
  check_ok(path, o.max_steps, "torus allreduce over more channels");
  /* The checker holds the file to the limit it was written for. */
  char msg[512];
  mx_algo *a;
  expect_rc(mx_load(path, split.max_tb_steps - 1, &a, msg, sizeof msg), MX_EINVALID, msg, "outside 0..");
  /* Very tight: still possible with many channels. */
  o.max_steps = 3;
  export_ok(g, &s, &o, path, &split);
  assert_true(split.max_tb_steps <= 3);
  check_ok(path, 3, "torus allreduce, 3 steps per threadblock");
  tc_schedule_destroy(&s);
  tc_graph_destroy(g);
}

/* --channels N (o.channels): every connection spread over exactly N channels when the
   step limit needs no more, N x B channels in the file; each of the ring allgather's 3
   sends to a peer on its own channel and threadblock; refused beyond 32 channels. */
static void limits_channels_option(void **state) {
  tc_tmpdir *d = *state;
  char path[PATH_MAX];
  tc_tmpdir_path(d, "chan.xml", path, sizeof path);
  tc_graph *g = tc_test_spec("uniring(1,4)");
  tc_schedule s;
  baseline("ring", g, TC_COLL_ALLGATHER, 0, &s);
  tc_msccl_stats one, three;
  export_ok(g, &s, NULL, path, &one);
  assert_int_equal(one.nchannels, 1);
  assert_int_equal(one.max_tb_steps, 3); /* N - 1 = 3 sends to the successor */
  tc_msccl_options o;
  tc_msccl_options_init(&o);
  o.channels = 3;
  export_ok(g, &s, &o, path, &three);
  assert_int_equal(three.width, 3);
  assert_int_equal(three.base_channels, 1);
  assert_int_equal(three.nchannels, 3);
  assert_int_equal(three.max_tb_steps, 1);
  assert_int_equal(three.steps, one.steps);
  check_ok(path, TC_MSCCL_DEFAULT_MAX_STEPS, "ring allgather over 3 channels");
  /* the step limit may ask for more than --channels; the larger wins */
  o.channels = 2;
  o.max_steps = 1;
  export_ok(g, &s, &o, path, &three);
  assert_int_equal(three.width, 3);
  check_ok(path, 1, "ring allgather, 2 channels asked, 3 needed");
  tc_schedule_destroy(&s);
  tc_graph_destroy(g);

  /* K_34 takes 3 base channels: 11 per connection is 33 > 32 */
  g = tc_test_spec("complete(34)");
  bfb_schedule(g, TC_COLL_ALLGATHER, &s);
  tc_msccl_options_init(&o);
  o.channels = 11;
  tc_error err;
  assert_int_equal(tc_msccl_export(g, &s, &o, path, NULL, &err), TC_ERANGE);
  assert_string_equal(err.msg, "MSCCL limit: 11 channels per connection x 3 base channels > 32 channels");
  o.channels = 33;
  assert_int_equal(tc_msccl_export(g, &s, &o, path, NULL, &err), TC_EINPUT);
  assert_string_equal(err.msg, "channels per connection 33 outside 1..32");
  tc_schedule_destroy(&s);
  tc_graph_destroy(g);
}

/* --instances I (o.instances, msccl-tools' instances): the whole algorithm I times, each
   shard cut into I pieces. Every collective, with scratch (reduce-scatter's mirror,
   alltoall's relays), pipelined shards of several units (forestcoll, ewsp), switches
   (fig2toy), exported with I = 2 and 3 and executed by the checker in place and out of
   place, in every order: each instance must move exactly its pieces and nothing may race.
   The file is I copies of the one-instance plan: I times the channels, threadblocks and
   chunks; copy i of threadblock t is threadblock t * I + i, with t's peers and at least
   its steps, on channel nchannels_1 * i + t's channel. Beyond the limits: one line each. */
static void limits_instances_option(void **state) {
  tc_tmpdir *d = *state;
  static const struct {
    const char *algo, *spec;
    tc_collective coll;
    int32_t chunks;
  } cases[] = {{"bfb", "torus(3,3)", TC_COLL_ALLGATHER, 0},     {"bfb", "torus(3,3)", TC_COLL_REDUCE_SCATTER, 0},
               {"bfb", "kautz(2,2)", TC_COLL_REDUCE_SCATTER, 0}, {"bfb", "torus(3,3)", TC_COLL_ALLREDUCE, 0},
               {"ring", "uniring(1,5)", TC_COLL_ALLREDUCE, 0},   {"ewsp", "hypercube(3)", TC_COLL_ALLTOALL, 0},
               {"sssp", "fig2toy()", TC_COLL_ALLTOALL, 0},       {"forestcoll", "fig2toy()", TC_COLL_ALLGATHER, 3}};
  char one_path[PATH_MAX], path[PATH_MAX], what[128], msg[512];
  tc_tmpdir_path(d, "one.xml", one_path, sizeof one_path);
  tc_tmpdir_path(d, "inst.xml", path, sizeof path);
  for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
    tc_graph *g = tc_test_spec(cases[k].spec);
    tc_schedule s;
    if (!strcmp(cases[k].algo, "bfb")) bfb_schedule(g, cases[k].coll, &s);
    else baseline(cases[k].algo, g, cases[k].coll, cases[k].chunks, &s);
    tc_msccl_stats one, st;
    export_ok(g, &s, NULL, one_path, &one);
    mx_algo *a1, *a;
    assert_int_equal(mx_load(one_path, TC_MSCCL_DEFAULT_MAX_STEPS, &a1, msg, sizeof msg), MX_OK);
    for (int32_t I = 2; I <= 3; I++) {
      tc_msccl_options o;
      tc_msccl_options_init(&o);
      o.instances = I;
      export_ok(g, &s, &o, path, &st);
      snprintf(what, sizeof what, "%s %s on %s, %d instances", cases[k].algo, tc_collective_name(cases[k].coll),
               cases[k].spec, I);
      check_ok(path, TC_MSCCL_DEFAULT_MAX_STEPS, what);
      assert_int_equal(st.instances, I);
      assert_int_equal(st.nchannels, I * one.nchannels);
      assert_int_equal(st.threadblocks, I * one.threadblocks);
      assert_int_equal(st.max_threadblocks, I * one.max_threadblocks);
      assert_true(st.steps >= I * one.steps);
      assert_int_equal(mx_load(path, TC_MSCCL_DEFAULT_MAX_STEPS, &a, msg, sizeof msg), MX_OK);
      assert_int_equal(a->nchunksperloop, I * a1->nchunksperloop);
      assert_int_equal(a->nchannels, I * a1->nchannels);
      for (int r = 0; r < a->ngpus; r++) {
        assert_int_equal(a->gpus[r].ichunks, I * a1->gpus[r].ichunks);
        assert_int_equal(a->gpus[r].ochunks, I * a1->gpus[r].ochunks);
        assert_int_equal(a->gpus[r].schunks, I * a1->gpus[r].schunks);
        assert_int_equal(a->gpus[r].ntbs, I * a1->gpus[r].ntbs);
        for (int t = 0; t < a1->gpus[r].ntbs; t++)
          for (int i = 0; i < I; i++) {
            const mx_tb *x = &a1->gpus[r].tbs[t], *y = &a->gpus[r].tbs[t * I + i];
            assert_int_equal(y->send, x->send);
            assert_int_equal(y->recv, x->recv);
            assert_int_equal(y->chan, a1->nchannels * i + x->chan);
            assert_true(y->nsteps >= x->nsteps);
          }
      }
      mx_free(a);
    }
    /* BFB allgather messages move one shard's units from a whole block: nothing more is cut */
    if (!strcmp(cases[k].algo, "bfb") && cases[k].coll == TC_COLL_ALLGATHER) assert_int_equal(st.steps, 3 * one.steps);
    mx_free(a1);
    tc_schedule_destroy(&s);
    tc_graph_destroy(g);
  }

  /* the limits: instances in 1..32, all instances' channels in 32, depid in 127 */
  tc_graph *g = tc_test_spec("torus(3,3)");
  tc_schedule s;
  bfb_schedule(g, TC_COLL_ALLREDUCE, &s);
  tc_msccl_options o;
  tc_msccl_options_init(&o);
  tc_error err;
  o.instances = 33;
  assert_int_equal(tc_msccl_export(g, &s, &o, path, NULL, &err), TC_EINPUT);
  assert_string_equal(err.msg, "instances 33 outside 1..32");
  o.instances = 4;
  o.channels = 9;
  assert_int_equal(tc_msccl_export(g, &s, &o, path, NULL, &err), TC_ERANGE);
  assert_string_equal(err.msg, "MSCCL limit: 9 channels per connection x 1 base channel x 4 instances > 32 channels");
  o.channels = 0;
  o.instances = 32; /* 8 threadblocks a GPU: instance 0's waits for threadblock 7 become 7 x 32 */
  assert_int_equal(tc_msccl_export(g, &s, &o, path, NULL, &err), TC_ERANGE);
  assert_string_equal(err.msg, "MSCCL limit: gpu 0 threadblock 0 waits for threadblock 224 with its instances, but depid "
                               "is an int8 (at most 127); use fewer instances");
  tc_schedule_destroy(&s);
  tc_graph_destroy(g);
  g = tc_test_spec("complete(34)"); /* 3 base channels */
  bfb_schedule(g, TC_COLL_ALLGATHER, &s);
  o.instances = 11;
  tc_tmpdir_path(d, "none.xml", path, sizeof path);
  assert_int_equal(tc_msccl_export(g, &s, &o, path, NULL, &err), TC_ERANGE);
  assert_string_equal(err.msg, "MSCCL limit: 1 channel per connection x 3 base channels x 11 instances > 32 channels");
  assert_int_equal(access(path, F_OK), -1); /* a refusal writes nothing */
  tc_schedule_destroy(&s);
  tc_graph_destroy(g);
}

/* K_34: every GPU sends to and receives from 33 peers, more than a channel's 32
   threadblocks per direction: the connections take several base channels (the greedy
   assignment uses 3). */
static void limits_many_peers(void **state) {
  tc_tmpdir *d = *state;
  char path[PATH_MAX], msg[1024];
  tc_tmpdir_path(d, "k34.xml", path, sizeof path);
  tc_graph *g = tc_test_spec("complete(34)");
  tc_schedule s;
  bfb_schedule(g, TC_COLL_ALLGATHER, &s);
  tc_msccl_stats st;
  export_ok(g, &s, NULL, path, &st);
  assert_int_equal(st.base_channels, 3);
  assert_int_equal(st.width, 1);
  assert_int_equal(st.nchannels, 3);
  int rc = mx_check(path, 64, 0, 1, msg, sizeof msg);
  if (rc) fail_msg("K_34 allgather: %s", msg);
  tc_schedule_destroy(&s);
  tc_graph_destroy(g);
}

static void limits_impossible(void **state) {
  tc_tmpdir *d = *state;
  char path[PATH_MAX];
  tc_tmpdir_path(d, "none.xml", path, sizeof path);
  tc_error err;
  /* A ring of 34: every rank sends its successor 33 chunks one after the other; 32
     channels leave 2 sends on the first, over a limit of 1. */
  tc_graph *g = tc_test_spec("uniring(1,34)");
  tc_schedule s;
  baseline("ring", g, TC_COLL_ALLGATHER, 0, &s);
  tc_msccl_options o;
  tc_msccl_options_init(&o);
  o.max_steps = 1;
  assert_int_equal(tc_msccl_export(g, &s, &o, path, NULL, &err), TC_ERANGE);
  assert_string_equal(err.msg,
                      "MSCCL limit: gpu 0 threadblock 0 (send to 1, channel 0) needs 2 steps > 1 even over 32 "
                      "channels and 1 local threadblocks");
  assert_int_equal(access(path, F_OK), -1);
  tc_schedule_destroy(&s);
  tc_graph_destroy(g);

  /* Offsets beyond int16: 40000 chunks. */
  g = tc_test_spec("uniring(1,4)");
  baseline("ring", g, TC_COLL_ALLGATHER, 0, &s);
  assert_int_equal(tc_schedule_refine(&s, 10000, &err), TC_OK);
  assert_int_equal(tc_msccl_export(g, &s, NULL, path, NULL, &err), TC_ERANGE);
  assert_non_null(strstr(err.msg, "(the runtime's offsets are int16)"));
  assert_int_equal(access(path, F_OK), -1);
  tc_schedule_destroy(&s);

  /* More than 4095 elements on a GPU: 3 sends and 3 receives of 1400 steps each. */
  baseline("ring", g, TC_COLL_ALLGATHER, 0, &s);
  assert_int_equal(tc_schedule_refine(&s, 71 * 1400 / tc_schedule_chunk_count(&s), &err), TC_OK);
  assert_int_equal(tc_msccl_export(g, &s, NULL, path, NULL, &err), TC_ERANGE);
  assert_string_equal(err.msg,
                      "MSCCL limit: gpu 0 needs at least 8405 XML elements (1 algo, 4 gpus, 8400 steps for its "
                      "transfers) > 4095, what the runtime's parser holds");
  tc_schedule_destroy(&s);

  /* cnt above 71 becomes consecutive steps of 71 and the rest. */
  baseline("ring", g, TC_COLL_ALLGATHER, 0, &s);
  assert_int_equal(tc_schedule_refine(&s, 100 / tc_schedule_chunk_count(&s), &err), TC_OK);
  assert_int_equal(s.units, 100);
  tc_msccl_stats st;
  export_ok(g, &s, NULL, path, &st);
  char *text = tc_files_slurp(path);
  assert_non_null(strstr(text, "cnt=\"71\""));
  assert_non_null(strstr(text, "cnt=\"29\""));
  free(text);
  check_ok(path, 64, "ring with cnt split");
  tc_schedule_destroy(&s);

  /* Unverified: one transfer short. Refused, nothing written. */
  tc_tmpdir_path(d, "unverified.xml", path, sizeof path);
  baseline("ring", g, TC_COLL_ALLGATHER, 0, &s);
  s.count--;
  assert_int_equal(tc_msccl_export(g, &s, NULL, path, NULL, &err), TC_EFAIL);
  assert_non_null(strstr(err.msg, "not exported: the schedule fails verification: "));
  assert_int_equal(access(path, F_OK), -1);
  tc_schedule_destroy(&s);
  tc_graph_destroy(g);

  /* Broadcast is not an MSCCL export. */
  tc_graph *k = tc_test_spec("complete(5)");
  assert_int_equal(tc_baseline_dbt(k, TC_COLL_BROADCAST, 0, 1, &s, &err), TC_OK);
  assert_int_equal(tc_msccl_export(k, &s, NULL, path, NULL, &err), TC_EINPUT);
  assert_string_equal(err.msg, "MSCCL export covers allgather, reduce-scatter, allreduce and alltoall, not broadcast (an MSCCL algorithm "
                      "names no root: it would serve every root's calls)");
  tc_schedule_destroy(&s);
  tc_graph_destroy(k);
}

/* ---- redundant transfers ---------------------------------------------------------------- */

/* The fuzzer's reproducers (fuzz/regressions/msccl/): exported, they computed garbage out of
   place (torus(3,3)) and deadlocked with rendezvous sends (biring(2,5)); mx_check runs both
   and compares every output element with the exact result. */
static void fuzz_regressions(void **state) {
  for (size_t i = 0; i < sizeof tc_redundant_regressions / sizeof *tc_redundant_regressions; i++) {
    char path[1024];
    tc_redundant_regression_path(tc_redundant_regressions[i], path, sizeof path);
    tc_schedule_doc doc;
    tc_error err;
    if (tc_schedule_read_json(path, NULL, &doc, &err)) fail_msg("%s: %s", path, err.msg);
    export_and_check(*state, doc.graph, &doc.sched, tc_redundant_regressions[i]);
    tc_schedule_doc_destroy(&doc);
  }
}

/* Redundant transfers added at random to verified schedules (tc_redundant.h), exported and
   run by the MSCCL executor (rendezvous included). */
static void redundant_transfers_random(void **state) {
  const tc_collective colls[] = {TC_COLL_ALLGATHER, TC_COLL_REDUCE_SCATTER, TC_COLL_ALLREDUCE};
  uint64_t seed = 20240612;
  int kept = 0;
  for (size_t i = 0; i < sizeof tc_redundant_cases / sizeof *tc_redundant_cases; i++)
    for (size_t k = 0; k < 3; k++)
      for (int round = 0; round < 3; round++) {
        tc_graph *g;
        tc_schedule s;
        tc_redundant_base(i, colls[k], &g, &s);
        kept += tc_redundant_add(g, &s, 3, 40, &seed);
        char what[128];
        snprintf(what, sizeof what, "%s %s + redundant (round %d)", tc_redundant_cases[i].spec,
                 tc_collective_name(colls[k]), round);
        export_and_check(*state, g, &s, what);
        tc_schedule_destroy(&s);
        tc_graph_destroy(g);
      }
  /* The seed's count (no paper gives it): it pins that redundant transfers were exercised;
     each export's result is checked against the independent MSCCL executor above. */
  assert_int_equal(kept, 81);
}

/* Schedules on fabrics (tc_fabric.h): one GPU per compute node, the hops through switches
   collapsed into direct sends, and the checker runs them like any other — allgathers (a
   ring on dgx_a100(2) through NVSwitches and NIC-IB-NIC chains, a ring on fig2toy(1), the
   direct one on a star whose switch is node 0), reduce-scatters and allreduces (two
   islands with a switch; ForestColl's on fig2toy() and dgx_a100(2)). A replicating switch is refused with the lowering's line and
   nothing is written. */
static void fabric_schedules(void **state) {
  const tc_tmpdir *d = *state;
  char path[PATH_MAX], msg[512], what[64];
  tc_tmpdir_path(d, "algo.xml", path, sizeof path);
  tc_graph *g = tc_test_spec("dgx_a100(2)");
  const int32_t ring[] = {0, 1, 2, 3, 4, 5, 6, 7, 15, 14, 13, 12, 11, 10, 9, 8};
  tc_schedule s;
  tc_fabric_ring_ag(g, ring, 16, 1, &s);
  export_and_check(d, g, &s, "dgx_a100(2) ring allgather");
  mx_algo *a;
  assert_int_equal(mx_load(path, TC_MSCCL_DEFAULT_MAX_STEPS, &a, msg, sizeof msg), MX_OK);
  assert_int_equal(a->ngpus, 16);
  assert_int_equal(a->nchunksperloop, 16);
  assert_string_equal(a->name, "fabric allgather n16");
  mx_free(a);
  tc_schedule_destroy(&s);
  tc_graph_destroy(g);
  g = tc_test_spec("fig2toy(1)");
  tc_fabric_ring_ag(g, ring, 8, 2, &s);
  export_and_check(d, g, &s, "fig2toy(1) ring allgather");
  tc_schedule_destroy(&s);
  tc_graph_destroy(g);
  g = tc_fabric_star(4, 1);
  tc_fabric_direct_ag(g, &s);
  export_and_check(d, g, &s, "star(4) allgather, switch first");
  tc_schedule_destroy(&s);
  tc_graph_destroy(g);
  for (int m = 2; m <= 3; m++) {
    g = tc_fabric_islands(m);
    for (int c = TC_COLL_ALLGATHER; c <= TC_COLL_ALLREDUCE; c++) {
      tc_fabric_islands_sched(g, m, (tc_collective)c, &s);
      snprintf(what, sizeof what, "islands(%d) %s", m, tc_collective_name((tc_collective)c));
      export_and_check(d, g, &s, what);
      tc_schedule_destroy(&s);
    }
    tc_graph_destroy(g);
  }
  /* ForestColl's in-trees, which cross a switch on several edges: its reduce-scatter and
     allreduce on fig2toy() and dgx_a100(2) (P = 2) */
  static const char *const forest[] = {"fig2toy()", "dgx_a100(2)"};
  for (int f = 0; f < 2; f++) {
    g = tc_test_spec(forest[f]);
    for (int c = TC_COLL_REDUCE_SCATTER; c <= TC_COLL_ALLREDUCE; c++) {
      baseline("forestcoll", g, (tc_collective)c, 2, &s);
      snprintf(what, sizeof what, "forestcoll %s on %s", tc_collective_name((tc_collective)c), forest[f]);
      export_and_check(d, g, &s, what);
      tc_schedule_destroy(&s);
    }
    tc_graph_destroy(g);
  }
  /* star(3): shard k enters the switch once and leaves it twice */
  g = tc_fabric_star(3, 0);
  tc_error err;
  tc_fabric_init(g, TC_COLL_ALLGATHER, 1, &s);
  for (int32_t k = 0; k < 3; k++) {
    assert_int_equal(tc_schedule_add(&s, k, tc_test_arc_id(g, k, 3), 1, 0, 1, &err), TC_OK);
    for (int32_t j = 0; j < 3; j++)
      if (j != k) assert_int_equal(tc_schedule_add(&s, k, tc_test_arc_id(g, 3, j), 2, 0, 1, &err), TC_OK);
  }
  tc_tmpdir_path(d, "refused.xml", path, sizeof path);
  assert_int_equal(tc_msccl_export(g, &s, NULL, path, NULL, &err), TC_EINPUT);
  assert_string_equal(err.msg, "switch 3 replicates shard 0 units [0,1) at step 2: it sends them on more often than "
                               "it received them, and in the executors switches only relay (one send per chunk "
                               "received)");
  assert_int_equal(access(path, F_OK), -1);
  tc_schedule_destroy(&s);
  tc_graph_destroy(g);
}

/* Alltoall (coll="alltoall"): the routing baselines' schedules, relays included (sssp and
   ewsp forward shards over several hops; ewsp splits them in 6 units on hypercube(3)) and on
   fig2toy(), whose GPUs meet only in switches, exported and executed by the checker: every
   input block reaches its destination's output. The header: nchunksperloop = i_chunks =
   o_chunks = ngpus * units (MSCCL's per-peer count times ngpus), out of place only, the
   scratch packed to the chunks a GPU relays (sssp on uniring(1,4): GPU 1 relays shards
   0 -> 2, 0 -> 3 and 3 -> 2 — two chunks of 0's row and one of 3's, 3 chunks, not 16). */
static void alltoall_schedules(void **state) {
  const tc_tmpdir *d = *state;
  static const struct {
    const char *algo, *spec;
  } cases[] = {{"direct", "hypercube(3)"}, {"sssp", "hypercube(3)"}, {"ewsp", "hypercube(3)"},
               {"sssp", "torus(3,3)"},     {"ewsp", "torus(3,3)"},   {"sssp", "genkautz(2,10)"},
               {"sssp", "fig2toy()"},      {"ewsp", "fig2toy()"}};
  char path[PATH_MAX], msg[512], what[96];
  tc_tmpdir_path(d, "algo.xml", path, sizeof path);
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    tc_graph *g = tc_test_spec(cases[i].spec);
    tc_schedule s;
    baseline(cases[i].algo, g, TC_COLL_ALLTOALL, 0, &s);
    snprintf(what, sizeof what, "%s alltoall on %s", cases[i].algo, cases[i].spec);
    export_and_check(d, g, &s, what);
    mx_algo *a;
    assert_int_equal(mx_load(path, TC_MSCCL_DEFAULT_MAX_STEPS, &a, msg, sizeof msg), MX_OK);
    assert_int_equal(a->coll, MX_COLL_ALLTOALL);
    assert_int_equal(a->ngpus, tc_rank_count(g));
    assert_int_equal(a->nchunksperloop, (int64_t)a->ngpus * s.units);
    assert_int_equal(a->inplace, 0);
    assert_int_equal(a->outofplace, 1);
    mx_free(a);
    tc_schedule_destroy(&s);
    tc_graph_destroy(g);
  }
  tc_graph *g = tc_test_spec("uniring(1,4)");
  tc_schedule s;
  baseline("sssp", g, TC_COLL_ALLTOALL, 0, &s);
  export_and_check(d, g, &s, "sssp alltoall on uniring(1,4)");
  mx_algo *a;
  assert_int_equal(mx_load(path, TC_MSCCL_DEFAULT_MAX_STEPS, &a, msg, sizeof msg), MX_OK);
  assert_int_equal(a->nchunksperloop, 4);
  for (int r = 0; r < 4; r++) {
    assert_int_equal(a->gpus[r].ichunks, 4);
    assert_int_equal(a->gpus[r].schunks, 3);
  }
  mx_free(a);
  tc_msccl_options o;
  tc_msccl_options_init(&o);
  o.redop = "sum";
  tc_error err;
  assert_int_equal(tc_msccl_export(g, &s, &o, path, NULL, &err), TC_EINPUT);
  assert_string_equal(err.msg, "a reduction (redop) applies to reduce-scatter and allreduce, not alltoall");
  tc_schedule_destroy(&s);
  tc_graph_destroy(g);
}

#define T(fn) cmocka_unit_test_setup_teardown(fn, make_tmpdir, tc_tmpdir_teardown)

int main(void) {
  const struct CMUnitTest tests[] = {
      T(bfb_torus_circulant),
      T(bfb_kautz),
      T(bfb_line_graphs),
      T(baselines_all),
      T(dbt_allreduce),
      T(forestcoll_collectives),
      T(file_shape_and_options),
      T(checker_hand_written),
      T(mutation_dropped_dependencies),
      T(mutation_swap_hasdep_cnt),
      T(random_orders_find_missing_dependency),
      T(limits_channel_splitting),
      T(limits_channels_option),
      T(limits_instances_option),
      T(limits_many_peers),
      T(limits_impossible),
      T(fuzz_regressions),
      T(redundant_transfers_random),
      T(fabric_schedules),
      T(alltoall_schedules),
  };
  int rc = cmocka_run_group_tests(tests, NULL, NULL);
  xmlCleanupParser();
  return rc;
}
