/*
** construct.c — the allgather a spec constructs (contract in construct.h): a walk of the
** parse tree that follows the outer call of each expansion and hands base families to
** tc_spec_eval whole.
*/
#include "topocoll/construct.h"

#include <stdlib.h>
#include <string.h>

#include "topocoll/bfb.h"
#include "topocoll/expand.h"
#include "topocoll/expand_sched.h"
#include "topocoll/fig_schedules.h"
#include "topocoll/transform.h"

static int construct_node(const tc_spec *s, const tc_spec_node *node, tc_graph **g, tc_schedule *ag, tc_error *err);

/* Replace (*g, *ag) by (next, its schedule) from one expansion step. */
static void advance(tc_graph **g, tc_schedule *ag, tc_graph *next, tc_schedule *next_ag) {
  tc_graph_destroy(*g);
  tc_schedule_destroy(ag);
  *g = next;
  *ag = *next_ag;
}

/* One step: next = op(*g) and its schedule; advance on success, clean up on failure. */
typedef enum { STEP_LINE, STEP_DEGREE, STEP_POWER, STEP_BIDIR } step_kind;

static int expand_step(step_kind kind, int64_t k, tc_graph **g, tc_schedule *ag, tc_error *err) {
  tc_graph *xg = NULL;
  tc_schedule next;
  memset(&next, 0, sizeof next);
  int rc;
  switch (kind) {
    case STEP_LINE:
      rc = tc_graph_line(*g, &xg, err);
      if (!rc) rc = tc_schedule_line(*g, ag, xg, &next, err);
      break;
    case STEP_DEGREE:
      rc = tc_graph_degree_expand(*g, k, &xg, err);
      if (!rc) rc = tc_schedule_degree(*g, ag, k, xg, &next, err);
      break;
    case STEP_POWER:
      rc = tc_graph_power(*g, k, &xg, err);
      if (!rc) rc = tc_schedule_power(*g, ag, k, xg, &next, err);
      break;
    default:
      rc = tc_graph_bidir_closure(*g, &xg, err);
      if (!rc) rc = tc_schedule_bidirectional(*g, ag, NULL, xg, &next, err);
      break;
  }
  if (rc) {
    tc_graph_destroy(xg);
    tc_schedule_destroy(&next);
    return rc;
  }
  advance(g, ag, xg, &next);
  return TC_OK;
}

/* line(X,k), degree(X,n), power(X,k), bidir(X): X's construction, then the expansion. */
static int construct_expansion(const tc_spec *s, const tc_spec_node *node, step_kind kind, const char *param,
                               tc_graph **g, tc_schedule *ag, tc_error *err) {
  int64_t k = 1;
  int rc = param ? tc_spec_arg_int(node, param, &k, err) : TC_OK;
  if (!rc && k < (kind == STEP_LINE ? 0 : 1))
    rc = tc_error_set(err, TC_EINPUT, "%s: %s must be >= %d", node->text, param, kind == STEP_LINE ? 0 : 1);
  if (!rc) rc = construct_node(s, tc_spec_arg(node, "g"), g, ag, err);
  if (kind == STEP_LINE) {
    for (int64_t i = 0; !rc && i < k; i++) rc = expand_step(STEP_LINE, 1, g, ag, err);
  } else if (!rc) {
    rc = expand_step(kind, k, g, ag, err);
  }
  return rc;
}

/* A base (or a product): the graph from tc_spec_eval, the schedule stored or BFB. */
static int construct_base(const tc_spec *s, const tc_spec_node *node, tc_graph **g, tc_schedule *ag, tc_error *err) {
  int rc = tc_spec_eval(s, node, g, err);
  if (rc) return rc;
  if (strcmp(node->text, "diamond") && strcmp(node->text, "dbjmod")) return tc_bfb_allgather(*g, ag, NULL, err);
  char *text = tc_spec_node_text(s, node);
  if (!text) return tc_error_set(err, TC_ENOMEM, "out of memory");
  rc = tc_fig_schedule(text, *g, ag, err);
  free(text);
  return rc;
}

static int construct_node(const tc_spec *s, const tc_spec_node *node, tc_graph **g, tc_schedule *ag, tc_error *err) {
  *g = NULL;
  memset(ag, 0, sizeof *ag);
  int rc;
  if (!node || node->kind != TC_SPEC_CALL) rc = tc_error_set(err, TC_EINPUT, "expected a topology");
  else if (!strcmp(node->text, "line")) rc = construct_expansion(s, node, STEP_LINE, "k", g, ag, err);
  else if (!strcmp(node->text, "degree")) rc = construct_expansion(s, node, STEP_DEGREE, "n", g, ag, err);
  else if (!strcmp(node->text, "power")) rc = construct_expansion(s, node, STEP_POWER, "k", g, ag, err);
  else if (!strcmp(node->text, "bidir")) rc = construct_expansion(s, node, STEP_BIDIR, NULL, g, ag, err);
  else rc = construct_base(s, node, g, ag, err);
  if (rc) {
    tc_graph_destroy(*g);
    *g = NULL;
    tc_schedule_destroy(ag);
    memset(ag, 0, sizeof *ag);
  }
  return rc;
}

int tc_graph_same_arcs(const tc_graph *a, const tc_graph *b) {
  if (a->n != b->n || a->m != b->m) return 0;
  size_t m = (size_t)a->m;
  return !memcmp(a->src, b->src, m * sizeof *a->src) && !memcmp(a->dst, b->dst, m * sizeof *a->dst) &&
         !memcmp(a->cap, b->cap, m * sizeof *a->cap);
}

int tc_schedule_construct(const tc_spec *s, const tc_spec_node *node, tc_graph **g, tc_schedule *ag, tc_error *err) {
  if (!node) node = s->root;
  int rc = construct_node(s, node, g, ag, err);
  if (rc) return rc;
  tc_graph *check = NULL;
  rc = tc_spec_eval(s, node, &check, err);
  if (!rc && !tc_graph_same_arcs(*g, check))
    rc = tc_error_set(err, TC_EFAIL, "the graph built for the schedule differs from the spec's graph");
  tc_graph_destroy(check);
  if (rc) {
    tc_graph_destroy(*g);
    *g = NULL;
    tc_schedule_destroy(ag);
    memset(ag, 0, sizeof *ag);
  }
  return rc;
}

int tc_schedule_construct_text(const char *spec, tc_graph **g, tc_schedule *ag, tc_error *err) {
  tc_spec *s = NULL;
  *g = NULL;
  memset(ag, 0, sizeof *ag);
  int rc = tc_spec_parse(spec, &s, err);
  if (!rc) rc = tc_schedule_construct(s, NULL, g, ag, err);
  tc_spec_destroy(s);
  return rc;
}
