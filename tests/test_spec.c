/*
** test_spec.c — the spec language (docs/spec.md): every grammar rule, named and default
** arguments, nesting, and every error path with the column and wording it must report.
*/
#include "tc_test.h"
#include <stdio.h>
#include <unistd.h>

#include "topo/spec_internal.h"
#include "topocoll/graph_io.h"

/* Build `spec`, expect failure `code`, and a message containing every given fragment. */
static void expect_error(const char *spec, int code, const char *frag1, const char *frag2) {
  tc_graph *g = (tc_graph *)1;
  tc_error err;
  int rc = tc_spec_build(spec, &g, &err);
  if (rc != code) fail_msg("spec '%s': expected code %d, got %d (%s)", spec, code, rc, rc ? err.msg : "ok");
  assert_null(g);
  if (frag1 && !strstr(err.msg, frag1)) fail_msg("spec '%s': message '%s' lacks '%s'", spec, err.msg, frag1);
  if (frag2 && !strstr(err.msg, frag2)) fail_msg("spec '%s': message '%s' lacks '%s'", spec, err.msg, frag2);
  assert_null(strchr(err.msg, '\n'));
}

static void same_arcs(const tc_graph *a, const tc_graph *b) {
  assert_int_equal(a->n, b->n);
  assert_int_equal(a->m, b->m);
  for (int64_t i = 0; i < a->m; i++) {
    assert_int_equal(a->src[i], b->src[i]);
    assert_int_equal(a->dst[i], b->dst[i]);
  }
}

static void positional_named_and_defaults(void **state) {
  (void)state;
  tc_graph *a = tc_test_spec("kautz(4,2)"), *b = tc_test_spec("kautz(d=4,n=2)"),
           *c = tc_test_spec("  kautz ( n = 2 , d = 4 )  "), *d = tc_test_spec("kautz(4, n=2)");
  assert_int_equal(a->n, 80); /* (d+1) d^n = 5 * 16, paper 000 Table 9 */
  same_arcs(a, b);
  same_arcs(a, c);
  same_arcs(a, d);
  tc_graph_destroy(a);
  tc_graph_destroy(b);
  tc_graph_destroy(c);
  tc_graph_destroy(d);
  /* default loops=keep; Π_{4,64} has 4 self-loops (paper 000 Def. 16: x is a loop iff
     5x ≡ -a mod 64, one x for each a = 1..4) */
  a = tc_test_spec("genkautz(4,64)");
  b = tc_test_spec("genkautz(4,64,loops=keep)");
  c = tc_test_spec("genkautz(4,64,drop)");
  same_arcs(a, b);
  assert_int_equal(a->m, 256);
  assert_int_equal(c->m, 252);
  tc_graph_destroy(a);
  tc_graph_destroy(b);
  tc_graph_destroy(c);
  a = tc_test_spec("line(bipartite(4))"); /* k defaults to 1 */
  assert_int_equal(a->n, 32);
  tc_graph_destroy(a);
  a = tc_test_spec("circulant(16)"); /* no offsets: Boesch–Wang C(16,{3,4}) (Thm 22) */
  b = tc_test_spec("circulant(16,3,4)");
  same_arcs(a, b);
  tc_graph_destroy(a);
  tc_graph_destroy(b);
  a = tc_test_spec("diamond()");
  assert_int_equal(a->n, 8);
  tc_graph_destroy(a);
}

static void nesting_and_variadics(void **state) {
  (void)state;
  tc_graph *g = tc_test_spec("product(biring(2,8),power(uniring(1,4),2))");
  assert_int_equal(g->n, 128);
  tc_graph_destroy(g);
  g = tc_test_spec("product(complete(2),complete(2),complete(2),complete(2))");
  assert_int_equal(g->n, 16);
  tc_graph_destroy(g);
  g = tc_test_spec("torus(3,3,3,2)");
  assert_int_equal(g->n, 54);
  tc_graph_destroy(g);
  g = tc_test_spec("transpose(transpose(line(degree(uniring(1,4),2),2)))");
  assert_int_equal(g->n, 32);
  tc_graph_destroy(g);
}

static void file_spec_reads_graphs(void **state) {
  (void)state;
  char dir[] = "/tmp/tc_spec_XXXXXX", path[256], spec[300];
  assert_non_null(mkdtemp(dir));
  tc_graph *g = tc_test_spec("kautz(2,2)"), *h = NULL;
  tc_error err;
  snprintf(path, sizeof path, "%s/k 2.json", dir);
  assert_int_equal(tc_graph_write_json(g, "kautz(2,2)", path, &err), TC_OK);
  snprintf(spec, sizeof spec, "line(file(\"%s\"))", path);
  h = tc_test_spec(spec);
  assert_int_equal(h->n, g->m); /* L(G) has one node per arc */
  tc_graph_destroy(h);
  snprintf(path, sizeof path, "%s/k.edges", dir);
  assert_int_equal(tc_graph_write_edgelist(g, path, &err), TC_OK);
  snprintf(spec, sizeof spec, "file(%s)", path);
  h = tc_test_spec(spec);
  same_arcs(g, h);
  tc_graph_destroy(h);
  remove(path);
  snprintf(path, sizeof path, "%s/k 2.json", dir);
  remove(path);
  rmdir(dir);
  tc_graph_destroy(g);
  expect_error("file(/nonexistent/x.json)", TC_EINPUT, "cannot read /nonexistent/x.json: No such file or directory",
               NULL);
}

static void syntax_errors(void **state) {
  (void)state;
  expect_error("", TC_EINPUT, "column 1: expected a topology name", "end of spec");
  expect_error("kautz", TC_EINPUT, "column 6: expected '(' after the topology name", NULL);
  expect_error("kautz(4,2", TC_EINPUT, "column 10: expected ',' or ')'", "end of spec");
  expect_error("kautz(4,2))", TC_EINPUT, "column 11: expected end of spec", "')'");
  expect_error("kautz(4;2)", TC_EINPUT, "column 7: expected an integer", NULL);
  expect_error("kautz(4,)", TC_EINPUT, "column 9: expected an argument", "')'");
  expect_error("kautz(4x,2)", TC_EINPUT, "column 7: expected an integer", NULL);
  expect_error("kautz(99999999999999999999,1)", TC_EINPUT, "out of range", NULL);
  expect_error("file(\"abc)", TC_EINPUT, "unterminated string", NULL);
  expect_error("kauts(4,2)", TC_EINPUT, "unknown topology 'kauts'", "did you mean 'kautz'");
  expect_error("zzzzzzzz(1)", TC_EINPUT, "unknown topology 'zzzzzzzz'", "--list");
  expect_error("(4,2)", TC_EINPUT, "expected a topology name", NULL);
}

static void binding_errors(void **state) {
  (void)state;
  expect_error("kautz(4)", TC_EINPUT, "missing argument 'n'", "usage: kautz(d, n)");
  expect_error("kautz(4,2,1)", TC_EINPUT, "column 11: kautz takes at most 2 arguments", NULL);
  expect_error("kautz(4,x=2)", TC_EINPUT, "kautz has no parameter 'x'", NULL);
  expect_error("kautz(d=4,d=2)", TC_EINPUT, "parameter 'd' given twice", NULL);
  expect_error("kautz(complete(3),2)", TC_EINPUT, "argument 'd' must be an integer, found a nested spec", NULL);
  expect_error("line(3)", TC_EINPUT, "column 6: line: argument 'g' must be a nested spec, found an integer", NULL);
  expect_error("drg(complete(3))", TC_EINPUT, "must be a word", NULL);
  expect_error("product(complete(3))", TC_EINPUT, "needs at least two graphs", NULL);
  expect_error("genkautz(4,64,loops=maybe)", TC_EINPUT, "loops must be 'keep' or 'drop'", NULL);
  expect_error("diamond(1)", TC_EINPUT, "diamond takes at most 0 arguments", NULL);
}

/* Errors raised by a nested family carry that call's column. */
static void semantic_errors_carry_columns(void **state) {
  (void)state;
  expect_error("line(kautz(0,1))", TC_EINPUT, "column 6: kautz", NULL);
  expect_error("product(complete(3),torus(3,1))", TC_EINPUT, "column 21: torus", NULL);
  expect_error("kautz(4,40)", TC_ERANGE, "kautz", NULL);
}

/* A positional argument after a named one would bind to the next positional slot (here
   the very parameter named): refused, naming the parameter. */
static void positional_after_named(void **state) {
  (void)state;
  expect_error("genkautz(4,m=64,5)", TC_EINPUT,
               "bad spec \"genkautz(4,m=64,5)\": column 17: genkautz: positional argument after named argument 'm' "
               "(usage: genkautz(d, m, loops=keep))", NULL);
  expect_error("genkautz(d=4,64)", TC_EINPUT, "column 14: genkautz: positional argument after named argument 'd'", NULL);
  expect_error("torus(dims=3,3)", TC_EINPUT, "positional argument after named argument 'dims'", NULL);
  tc_graph *g = tc_test_spec("genkautz(4,m=64,loops=drop)");
  assert_int_equal(g->n, 64);
  tc_graph_destroy(g);
}

/* The constraints `topo --list` prints are the ones the parser checks, with the values. */
static void registry_constraints(void **state) {
  (void)state;
  expect_error("debruijn(1,3)", TC_EINPUT, "column 1: debruijn: d must be >= 2 (got 1)", NULL);
  expect_error("debruijn(2,0)", TC_EINPUT, "column 1: debruijn: n must be >= 1 (got 0)", NULL);
  expect_error("line(debruijn(1,3))", TC_EINPUT, "column 6: debruijn: d must be >= 2 (got 1)", NULL);
  expect_error("genkautz(2,2)", TC_EINPUT, "genkautz: m must be >= d+1 (got m = 2, d = 2)", NULL);
  expect_error("jellyfish(4,4)", TC_EINPUT, "jellyfish: needs 1 <= d < n (got d = 4, n = 4)", NULL);
  expect_error("jellyfish(5,3,seed=2)", TC_EINPUT, "jellyfish: needs n*d even (got n = 5, d = 3)", NULL);
  expect_error("biring(3,4)", TC_EINPUT, "biring: d must be even (got 3)", NULL);
  expect_error("biring(0,4)", TC_EINPUT, "biring: d must be >= 2 (got 0)", NULL);
  expect_error("torus(4,4,1)", TC_EINPUT, "torus: l3 must be >= 2 (got 1)", NULL);
  expect_error("hyperx(1)", TC_EINPUT, "hyperx: m1 must be >= 2 (got 1)", NULL);
  expect_error("twistedtorus(3,1,0)", TC_EINPUT, "twistedtorus: b must be >= 2 (got 1)", NULL);
  tc_graph *g = tc_test_spec("mincirculant(9,12)"); /* 12 is a multiple of 4: 3 parallel links */
  assert_int_equal(g->n, 9);
  assert_int_equal(g->m, 9 * 12);
  tc_graph_destroy(g);
  expect_error("mincirculant(9,6)", TC_EINPUT, "mincirculant: d must be a multiple of 4 (got 6)", NULL);
  expect_error("mincirculant(6)", TC_EINPUT, "mincirculant: n must be > 6 (got 6)", NULL);
  expect_error("genkautz(2,3,loops=both)", TC_EINPUT, "genkautz: loops must be 'keep' or 'drop' (got \"both\")", NULL);
  expect_error("kautz(-1,2)", TC_EINPUT, "kautz: d must be >= 1 (got -1)", NULL);
  /* The clauses left to the generators, family by family: pinned, so that a typo cannot
     silently turn a checked clause into prose. */
  static const char *const prose[][2] = {
      {"circulant", "distinct a_i in 1..n/2; gcd(n, a..) = 1"},
      {"dcirculant", "distinct a_i in 1..n-1"},
      {"dbjmod", "Table 9 sizes"},
      {"drg", "a Table 8 name"},
      {"dragonfly", "(g-1) | a*h; g = 0 means a*h+1"},
      {"mi250", "gcds 8 or 16"},
      {"degree", "G loop-free"},
      {"product", "two or more graphs"},
      {"file", ".json or edge list"},
      {"nx", ".json node-link or edge list"},
  };
  for (int i = 0; i < tci_family_table_size(); i++) {
    const tc_family *f = tci_family_at(i);
    tc_spec_param params[TC_SPEC_MAX_PARAMS];
    tc_spec_binding b = {.params = params, .np = tci_spec_signature(f->signature, params)};
    for (int k = 0; k < b.np; k++) b.words[k] = "";
    char got[256];
    tci_family_prose(f, &b, got, sizeof got);
    const char *want = "";
    for (size_t j = 0; j < sizeof prose / sizeof prose[0]; j++)
      if (!strcmp(prose[j][0], f->info.name)) want = prose[j][1];
    if (strcmp(got, want)) fail_msg("%s: prose clauses '%s', expected '%s'", f->info.name, got, want);
  }
}

static void limits(void **state) {
  (void)state;
  char deep[600] = ""; /* 40 * 10 + 11 + 40 bytes */
  for (int i = 0; i < 40; i++) strcat(deep, "transpose(");
  strcat(deep, "complete(3)");
  for (int i = 0; i < 40; i++) strcat(deep, ")");
  expect_error(deep, TC_EINPUT, "nest deeper than 32", NULL);
  char *big = malloc(5000);
  memset(big, 'a', 4999);
  big[4999] = '\0';
  expect_error(big, TC_EINPUT, "at most 4096", NULL);
  free(big);
  char many[600] = "torus(";
  for (int i = 0; i < 70; i++) strcat(many, i ? ",2" : "2");
  strcat(many, ")");
  expect_error(many, TC_EINPUT, "more than 64 values", NULL);
}

static void family_listing(void **state) {
  (void)state;
  const char *required[] = {"complete", "bipartite", "hamming", "hypercube", "twistedhypercube", "uniring", "biring",
                            "torus", "twistedtorus", "circulant", "dcirculant", "genkautz", "kautz", "debruijn",
                            "dbjmod", "diamond", "drg", "hyperx", "dragonfly", "jellyfish", "xpander", "dgx_a100",
                            "mi250", "fattree", "fig2toy", "line", "degree", "product", "power", "bidir", "file", "nx"};
  for (size_t i = 0; i < sizeof required / sizeof required[0]; i++) {
    int found = 0;
    for (int k = 0; k < tc_spec_family_count(); k++) {
      const tc_family_info *f = tc_spec_family(k);
      assert_non_null(f->summary);
      found |= !strcmp(f->name, required[i]);
    }
    if (!found) fail_msg("family %s missing from the registry", required[i]);
  }
  assert_null(tc_spec_family(-1));
  assert_null(tc_spec_family(tc_spec_family_count()));
}

/* The parse tree: calls, bound parameters, defaults, lists, source text and columns. */
static void parse_tree(void **state) {
  (void)state;
  tc_spec *s = NULL;
  tc_error err;
  const char *text = " line(circulant(16, 3,4), k=3)";
  assert_int_equal(tc_spec_parse(text, &s, &err), TC_OK);
  const tc_spec_node *root = s->root;
  assert_int_equal(root->kind, TC_SPEC_CALL);
  assert_string_equal(root->text, "line");
  assert_int_equal(root->col, 2);
  assert_int_equal(root->nargs, 2);
  const tc_spec_node *g = tc_spec_arg(root, "g");
  assert_non_null(g);
  assert_int_equal(g->kind, TC_SPEC_CALL);
  assert_string_equal(g->text, "circulant");
  assert_int_equal(g->col, 7);
  char *gtext = tc_spec_node_text(s, g);
  assert_string_equal(gtext, "circulant(16, 3,4)");
  free(gtext);
  int64_t v = 0;
  assert_int_equal(tc_spec_arg_int(root, "k", &v, &err), TC_OK);
  assert_int_equal(v, 3);
  assert_string_equal(tc_spec_arg(root, "k")->name, "k");
  assert_int_equal(tc_spec_arg_int(g, "n", &v, &err), TC_OK);
  assert_int_equal(v, 16);
  const tc_spec_node *offs[8];
  assert_int_equal(tc_spec_arg_list(g, "offsets", offs, 8), 2);
  assert_int_equal(offs[0]->value, 3);
  assert_int_equal(offs[1]->value, 4);
  assert_int_equal(offs[1]->col, 23); /* " line(circulant(16, 3,4)": the 4 is the 23rd character */
  /* no such parameter, or not an integer */
  assert_null(tc_spec_arg(root, "x"));
  assert_int_equal(tc_spec_arg_int(root, "g", &v, &err), TC_EINPUT);
  assert_string_equal(err.msg, "line has no integer parameter 'g'");
  /* the evaluated tree is the graph tc_spec_build gives */
  tc_graph *a = NULL, *b = tc_test_spec(text);
  assert_int_equal(tc_spec_eval(s, NULL, &a, &err), TC_OK);
  same_arcs(a, b);
  tc_graph_destroy(a);
  tc_graph_destroy(b);
  tc_spec_destroy(s);
  /* defaults apply when a parameter is not given; words keep their text */
  assert_int_equal(tc_spec_parse("line(complete(3))", &s, &err), TC_OK);
  assert_null(tc_spec_arg(s->root, "k"));
  assert_int_equal(tc_spec_arg_int(s->root, "k", &v, &err), TC_OK);
  assert_int_equal(v, 1);
  tc_spec_destroy(s);
  assert_int_equal(tc_spec_parse("genkautz(4, 64, loops=drop)", &s, &err), TC_OK);
  assert_int_equal(tc_spec_arg(s->root, "loops")->kind, TC_SPEC_WORD);
  assert_string_equal(tc_spec_arg(s->root, "loops")->text, "drop");
  tc_spec_destroy(s);
}

/* The whole spec is read before anything is built: a syntax error after an expensive or
   impossible argument is reported as the syntax error, and a tree that parses may still
   fail to build (kautz(4,40) is far too large), naming the call's column. */
static void parse_before_build(void **state) {
  (void)state;
  tc_spec *s = (tc_spec *)1;
  tc_error err;
  assert_int_equal(tc_spec_parse("product(kautz(4,40), complete(3)", &s, &err), TC_EINPUT);
  assert_null(s);
  assert_non_null(strstr(err.msg, "column 33: expected ',' or ')', found end of spec"));
  assert_int_equal(tc_spec_parse("product(kautz(4,40), complete(3))", &s, &err), TC_OK);
  tc_graph *g = (tc_graph *)1;
  assert_int_equal(tc_spec_eval(s, NULL, &g, &err), TC_ERANGE);
  assert_null(g);
  assert_non_null(strstr(err.msg, "bad spec \"product(kautz(4,40), complete(3))\": column 9: kautz"));
  tc_spec_destroy(s);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(positional_named_and_defaults),
      cmocka_unit_test(nesting_and_variadics),
      cmocka_unit_test(file_spec_reads_graphs),
      cmocka_unit_test(syntax_errors),
      cmocka_unit_test(binding_errors),
      cmocka_unit_test(semantic_errors_carry_columns),
      cmocka_unit_test(positional_after_named),
      cmocka_unit_test(registry_constraints),
      cmocka_unit_test(limits),
      cmocka_unit_test(family_listing),
      cmocka_unit_test(parse_tree),
      cmocka_unit_test(parse_before_build),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
