/*
** fuzz_spec.c — the spec language: tc_spec_parse on any text, then tc_spec_eval.
**
** Invariants: the error contract (harness.h); a parse tree's nodes point into the text
** (the text of every node is its span of the spec), calls are bound to families, and the
** text of the root parses again to the same tree; a graph built from a spec is well
** formed and building it twice gives the same graph (the random families are seeded).
** Bounded work: the fuzz build's size limits (graph.h, docs/fuzzing.md) make every family
** refuse large sizes before allocating; specs naming file(...) are parsed but not built
** (the fuzzer must not read arbitrary files, /dev/zero included).
*/
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "topocoll/spec.h"

static int names_a_file(const tc_spec_node *v) {
  if (v->kind != TC_SPEC_CALL) return 0;
  if (!strcmp(v->text, "file")) return 1;
  for (int i = 0; i < v->nargs; i++)
    if (names_a_file(&v->args[i])) return 1;
  return 0;
}

static void check_node(const tc_spec *s, const tc_spec_node *v, size_t len) {
  if (v->start + v->len > len || v->len == 0 || v->col != v->start + 1 || !v->text)
    tcf_fail("spec node at %zu (+%zu, column %zu) does not lie in the %zu-byte spec", v->start, v->len, v->col, len);
  char *t = tc_spec_node_text(s, v);
  if (!t || strlen(t) != v->len || memcmp(t, s->text + v->start, v->len))
    tcf_fail("tc_spec_node_text of the node at %zu is not its span", v->start);
  free(t);
  if (v->kind == TC_SPEC_CALL && !v->family) tcf_fail("call '%s' is bound to no family", v->text);
  if (v->kind != TC_SPEC_CALL && v->nargs) tcf_fail("a non-call node has %d arguments", v->nargs);
  for (int i = 0; i < v->nargs; i++) check_node(s, &v->args[i], len);
}

/* The same tree, offsets aside (b was parsed from a's root text). */
static void check_same_tree(const tc_spec_node *a, const tc_spec_node *b) {
  if (a->kind != b->kind || a->value != b->value || strcmp(a->text, b->text) || strcmp(a->name, b->name) ||
      a->param != b->param || a->len != b->len || a->nargs != b->nargs || a->family != b->family)
    tcf_fail("re-parsing the root's text changed the node '%s'", a->text);
  for (int i = 0; i < a->nargs; i++) check_same_tree(&a->args[i], &b->args[i]);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char *text = tcf_cstring(data, size);
  tc_spec *s = NULL;
  tc_error err;
  tc_error_clear(&err);
  int rc = tc_spec_parse(text, &s, &err);
  tcf_check_result("tc_spec_parse", rc, &err);
  if (rc) {
    if (s) tcf_fail("tc_spec_parse failed but returned a tree");
    free(text);
    return 0;
  }
  if (!s || !s->root || strcmp(s->text, text)) tcf_fail("tc_spec_parse succeeded without a tree holding the text");
  check_node(s, s->root, strlen(text));

  char *root_text = tc_spec_node_text(s, s->root);
  tc_spec *again = NULL;
  rc = tc_spec_parse(root_text, &again, &err);
  if (rc) tcf_fail("the root's text \"%s\" does not parse again: %s", root_text, err.msg);
  check_same_tree(s->root, again->root);
  tc_spec_destroy(again);
  free(root_text);

  if (!names_a_file(s->root)) {
    tc_graph *g = NULL, *g2 = NULL;
    rc = tc_spec_eval(s, NULL, &g, &err);
    tcf_check_result("tc_spec_eval", rc, &err);
    if (rc && g) tcf_fail("tc_spec_eval failed but returned a graph");
    if (!rc) {
      tcf_check_graph("tc_spec_eval", g);
      rc = tc_spec_eval(s, NULL, &g2, &err);
      if (rc) tcf_fail("the second evaluation failed: %s", err.msg);
      tcf_check_same_graph("evaluating twice", g, g2, 1);
    }
    tc_graph_destroy(g);
    tc_graph_destroy(g2);
  }
  tc_spec_destroy(s);
  free(text);
  return 0;
}
