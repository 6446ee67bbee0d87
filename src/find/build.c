/*
** build.c — building a finder member: its topology from the spec and its allgather
** schedule by the construction its prediction rests on (paper 000 §5; issue #4 §3 "then
** build and verify the frontier's members").
**
** The spec is read recursively (only the outer call of each expansion matters here; base
** families are handed to tc_spec_build whole):
**   line(X,k)        X's schedule, then Definition 1 k times (tc_schedule_line)
**   degree(X,k)      Definition 2 (tc_schedule_degree)
**   power(X,k)       Definition 14 (tc_schedule_power)
**   product(...)     the optimal BFB schedule of the product (Thm 13)
**   bidir(X)         A.6 (tc_schedule_bidirectional)
**   diamond(), dbjmod(d,n)   the stored searched schedules (fig_schedules.h)
**   anything else    the optimal BFB schedule (tc_bfb_allgather)
** The graph of every expansion is built by expand.h, the same functions tc_spec_build
** uses, so node and arc ids agree with the spec's graph; the finished graph is still
** compared arc by arc with tc_spec_build(spec) so the contract "the spec rebuilds exactly
** this topology" is checked on every build, not assumed.
**
** tc_candidate_measure holds a built member to its prediction: steps exactly, tau exactly
** (or <= for a Thm 7 bound), diameter when predicted. Any difference is a bug in how a
** theorem was applied and fails loudly (TC_EFAIL naming the member and both values).
*/
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "find_internal.h"
#include "topocoll/bfb.h"
#include "topocoll/cost.h"
#include "topocoll/expand.h"
#include "topocoll/expand_sched.h"
#include "topocoll/fig_schedules.h"
#include "topocoll/metrics.h"
#include "topocoll/spec.h"
#include "topocoll/transform.h"
#include "topocoll/verify.h"

#define MAX_ARGS 64

typedef struct slice {
  const char *s;
  size_t len;
} slice;

static slice trim(slice x) {
  while (x.len && isspace((unsigned char)x.s[0])) x.s++, x.len--;
  while (x.len && isspace((unsigned char)x.s[x.len - 1])) x.len--;
  return x;
}

/* "name(a, b(c,d), k=3)" -> name and the top-level arguments (named ones keep "k="). */
static int split_call(slice spec, char *name, size_t name_size, slice *args, int *nargs, tc_error *err) {
  spec = trim(spec);
  size_t i = 0;
  while (i < spec.len && (isalnum((unsigned char)spec.s[i]) || spec.s[i] == '_')) i++;
  if (i == 0 || i >= name_size || i >= spec.len || spec.s[i] != '(' || spec.s[spec.len - 1] != ')')
    return tc_error_set(err, TC_EINPUT, "find: cannot read spec \"%.*s\" (expected name(arguments))", (int)spec.len,
                        spec.s);
  memcpy(name, spec.s, i);
  name[i] = '\0';
  *nargs = 0;
  size_t start = i + 1, end = spec.len - 1;
  int depth = 0, quoted = 0;
  for (size_t j = start; j <= end; j++) {
    char ch = j < end ? spec.s[j] : ',';
    if (ch == '"') quoted = !quoted;
    if (quoted) continue;
    if (ch == '(') depth++;
    else if (ch == ')') depth--;
    else if (ch == ',' && depth == 0) {
      slice a = trim((slice){spec.s + start, j - start});
      if (a.len) {
        if (*nargs == MAX_ARGS) return tc_error_set(err, TC_EINPUT, "find: spec %s has too many arguments", name);
        args[(*nargs)++] = a;
      }
      start = j + 1;
    }
  }
  return TC_OK;
}

/* Integer argument `which` (positional) or named `key=`; `def` if absent. */
static int int_arg(const slice *args, int nargs, int which, const char *key, int64_t def, int64_t *out, tc_error *err) {
  size_t klen = strlen(key);
  slice pick = {NULL, 0};
  for (int i = 0; i < nargs; i++)
    if (args[i].len > klen && !strncmp(args[i].s, key, klen) && args[i].s[klen] == '=')
      pick = trim((slice){args[i].s + klen + 1, args[i].len - klen - 1});
  if (!pick.s && which < nargs && !memchr(args[which].s, '=', args[which].len) &&
      !memchr(args[which].s, '(', args[which].len))
    pick = args[which];
  if (!pick.s) {
    *out = def;
    return TC_OK;
  }
  char buf[32];
  if (pick.len >= sizeof buf) return tc_error_set(err, TC_EINPUT, "find: argument %s is not an integer", key);
  memcpy(buf, pick.s, pick.len);
  buf[pick.len] = '\0';
  char *endp;
  long long v = strtoll(buf, &endp, 10);
  if (*endp || endp == buf) return tc_error_set(err, TC_EINPUT, "find: argument %s=%s is not an integer", key, buf);
  *out = v;
  return TC_OK;
}

static int spec_graph(slice spec, tc_graph **g, tc_error *err) {
  char *text = malloc(spec.len + 1);
  if (!text) return tc_error_set(err, TC_ENOMEM, "out of memory");
  memcpy(text, spec.s, spec.len);
  text[spec.len] = '\0';
  int rc = tc_spec_build(text, g, err);
  free(text);
  return rc;
}

static int build_slice(slice spec, tc_graph **g, tc_schedule *ag, tc_error *err);

/* Replace (*g, *ag) by (next, its schedule) from one expansion step. */
static void advance(tc_graph **g, tc_schedule *ag, tc_graph *next, tc_schedule *next_ag) {
  tc_graph_destroy(*g);
  tc_schedule_destroy(ag);
  *g = next;
  *ag = *next_ag;
}

static int build_line(const slice *args, int nargs, tc_graph **g, tc_schedule *ag, tc_error *err) {
  int64_t k = 1;
  int rc = int_arg(args, nargs, 1, "k", 1, &k, err);
  if (!rc && (nargs < 1 || k < 0)) rc = tc_error_set(err, TC_EINPUT, "find: line needs a graph and k >= 0");
  if (!rc) rc = build_slice(args[0], g, ag, err);
  for (int64_t i = 0; !rc && i < k; i++) {
    tc_graph *lg = NULL;
    tc_schedule next;
    memset(&next, 0, sizeof next);
    rc = tc_graph_line(*g, &lg, err);
    if (!rc) rc = tc_schedule_line(*g, ag, lg, &next, err);
    if (rc) {
      tc_graph_destroy(lg);
      tc_schedule_destroy(&next);
    } else {
      advance(g, ag, lg, &next);
    }
  }
  return rc;
}

typedef enum { EXPAND_DEGREE, EXPAND_POWER } expand_kind;

static int build_multiplied(expand_kind kind, const slice *args, int nargs, tc_graph **g, tc_schedule *ag,
                            tc_error *err) {
  const char *what = kind == EXPAND_DEGREE ? "degree" : "power";
  int64_t k = 0;
  int rc = int_arg(args, nargs, 1, kind == EXPAND_DEGREE ? "n" : "k", 0, &k, err);
  if (!rc && (nargs < 2 || k < 1)) rc = tc_error_set(err, TC_EINPUT, "find: %s needs a graph and a factor >= 1", what);
  if (!rc) rc = build_slice(args[0], g, ag, err);
  if (rc) return rc;
  tc_graph *xg = NULL;
  tc_schedule next;
  memset(&next, 0, sizeof next);
  if (kind == EXPAND_DEGREE) {
    rc = tc_graph_degree_expand(*g, k, &xg, err);
    if (!rc) rc = tc_schedule_degree(*g, ag, k, xg, &next, err);
  } else {
    rc = tc_graph_power(*g, k, &xg, err);
    if (!rc) rc = tc_schedule_power(*g, ag, k, xg, &next, err);
  }
  if (rc) {
    tc_graph_destroy(xg);
    tc_schedule_destroy(&next);
    return rc;
  }
  advance(g, ag, xg, &next);
  return TC_OK;
}

static int build_bidir(const slice *args, int nargs, tc_graph **g, tc_schedule *ag, tc_error *err) {
  if (nargs != 1) return tc_error_set(err, TC_EINPUT, "find: bidir needs one graph");
  int rc = build_slice(args[0], g, ag, err);
  if (rc) return rc;
  tc_graph *bg = NULL;
  tc_schedule next;
  memset(&next, 0, sizeof next);
  rc = tc_graph_bidir_closure(*g, &bg, err);
  if (!rc) rc = tc_schedule_bidirectional(*g, ag, NULL, bg, &next, err);
  if (rc) {
    tc_graph_destroy(bg);
    tc_schedule_destroy(&next);
    return rc;
  }
  advance(g, ag, bg, &next);
  return TC_OK;
}

/* A base (or a product): the graph from tc_spec_build, the schedule stored or BFB. */
static int build_base(slice spec, const char *name, tc_graph **g, tc_schedule *ag, tc_error *err) {
  int rc = spec_graph(spec, g, err);
  if (rc) return rc;
  if (!strcmp(name, "diamond") || !strcmp(name, "dbjmod")) {
    char text[64];
    snprintf(text, sizeof text, "%.*s", (int)spec.len, spec.s);
    return tc_fig_schedule(text, *g, ag, err);
  }
  return tc_bfb_allgather(*g, ag, NULL, err);
}

static int build_slice(slice spec, tc_graph **g, tc_schedule *ag, tc_error *err) {
  char name[32];
  slice args[MAX_ARGS];
  int nargs = 0;
  *g = NULL;
  memset(ag, 0, sizeof *ag);
  int rc = split_call(spec, name, sizeof name, args, &nargs, err);
  if (!rc) {
    if (!strcmp(name, "line")) rc = build_line(args, nargs, g, ag, err);
    else if (!strcmp(name, "degree")) rc = build_multiplied(EXPAND_DEGREE, args, nargs, g, ag, err);
    else if (!strcmp(name, "power")) rc = build_multiplied(EXPAND_POWER, args, nargs, g, ag, err);
    else if (!strcmp(name, "bidir")) rc = build_bidir(args, nargs, g, ag, err);
    else rc = build_base(trim(spec), name, g, ag, err);
  }
  if (rc) {
    tc_graph_destroy(*g);
    *g = NULL;
    tc_schedule_destroy(ag);
    memset(ag, 0, sizeof *ag);
  }
  return rc;
}

/* 1 if a and b have the same nodes and the same arcs in the same order. */
static int same_graph(const tc_graph *a, const tc_graph *b) {
  if (a->n != b->n || a->m != b->m) return 0;
  size_t m = (size_t)a->m;
  return !memcmp(a->src, b->src, m * sizeof *a->src) && !memcmp(a->dst, b->dst, m * sizeof *a->dst) &&
         !memcmp(a->cap, b->cap, m * sizeof *a->cap);
}

int tc_find_build_spec(const char *spec, tc_graph **g, tc_schedule *ag, tc_error *err) {
  int rc = build_slice((slice){spec, strlen(spec)}, g, ag, err);
  if (rc) {
    tc_error_prefix(err, "find: building %s", spec);
    return rc;
  }
  tc_graph *check = NULL;
  rc = tc_spec_build(spec, &check, err);
  if (!rc && !same_graph(*g, check))
    rc = tc_error_set(err, TC_EFAIL, "find: %s: the graph built for the schedule differs from the spec's graph", spec);
  tc_graph_destroy(check);
  if (rc) {
    tc_graph_destroy(*g);
    *g = NULL;
    tc_schedule_destroy(ag);
    memset(ag, 0, sizeof *ag);
  }
  return rc;
}

int tc_candidate_build(const tc_candidate *c, tc_graph **g, tc_schedule *ag, tc_error *err) {
  if (!c || !g || !ag) return tc_error_set(err, TC_EINPUT, "find: build needs a candidate and outputs");
  int rc = tc_find_build_spec(c->spec, g, ag, err);
  if (!rc) rc = tc_schedule_verify(*g, ag, err);
  if (rc && *g) {
    tc_error_prefix(err, "find: %s: the allgather failed verification", c->spec);
    tc_graph_destroy(*g);
    *g = NULL;
    tc_schedule_destroy(ag);
    memset(ag, 0, sizeof *ag);
  }
  return rc;
}

static int mismatch(const tc_candidate *c, const char *what, const char *measured, const char *predicted,
                    tc_error *err) {
  return tc_error_set(err, TC_EFAIL, "find: %s (%s): measured %s %s but the prediction is %s — a bug", c->spec,
                      c->source, what, measured, predicted);
}

/* Compare the measured cost with the prediction (see the header). */
static int check_cost(const tc_candidate *c, const tc_cost *cost, tc_error *err) {
  char m[48], p[48];
  if (cost->steps != c->steps) {
    snprintf(m, sizeof m, "%d", (int)cost->steps);
    snprintf(p, sizeof p, "%d", (int)c->steps);
    return mismatch(c, "steps", m, p, err);
  }
  int cmp = tc_rat_cmp(cost->tau, c->tau);
  if (cmp > 0 || (cmp < 0 && !c->tau_is_bound)) {
    tc_rat_format(cost->tau, m, sizeof m);
    tc_rat_format(c->tau, p, sizeof p);
    return mismatch(c, "tau", m, p, err);
  }
  if (cost->degree != c->degree) {
    snprintf(m, sizeof m, "%lld", (long long)cost->degree);
    snprintf(p, sizeof p, "%d", (int)c->degree);
    return mismatch(c, "degree", m, p, err);
  }
  return TC_OK;
}

int tc_candidate_measure(tc_candidate *c, const tc_graph *g, const tc_schedule *ag, tc_error *err) {
  if (!c || !g || !ag) return tc_error_set(err, TC_EINPUT, "find: measure needs a candidate, a graph and a schedule");
  if (g->n != c->nodes)
    return tc_error_set(err, TC_EFAIL, "find: %s has %d nodes, not the predicted %d — a bug", c->spec, g->n,
                        c->nodes);
  int rc = tc_schedule_verify(g, ag, err);
  if (rc) {
    tc_error_prefix(err, "find: %s: the allgather failed verification", c->spec);
    return rc;
  }
  c->built = 1;
  c->verified = 1;
  tc_cost cost;
  rc = tc_schedule_cost(g, ag, &cost, err);
  if (rc) return rc;
  c->measured_steps = cost.steps;
  c->measured_tau = cost.tau;
  rc = check_cost(c, &cost, err);
  tc_cost_destroy(&cost);
  if (rc) return rc;
  tc_distance_stats st;
  rc = tc_graph_distance_stats(g, &st, err);
  if (rc) return rc;
  int32_t diameter = st.strongly_connected ? st.diameter : -1;
  c->avg_distance = st.pairs ? (double)st.distance_sum / (double)st.pairs : 0.0;
  tc_distance_stats_destroy(&st);
  if (c->diameter >= 0 && c->diameter != diameter)
    return tc_error_set(err, TC_EFAIL, "find: %s has diameter %d, not the predicted %d — a bug", c->spec,
                        (int)diameter, (int)c->diameter);
  c->diameter = diameter;
  return TC_OK;
}
