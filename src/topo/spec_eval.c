/*
** spec_eval.c — evaluation of a parsed spec (spec.h): each call's graph arguments are built
** first, its values are handed to the family's generator through the registry
** (registry.c), and the argument graphs are released. The tree is already bound (spec.c),
** so what can fail here is only what the generators themselves refuse; their message is
** prefixed with the column of the call, and with the family name unless it starts with it.
*/
#include "spec_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The values of call's arguments and defaults in args; graphs[] of the caller's to free. */
static int bind_values(const tc_spec *s, const tc_spec_node *call, tc_spec_args *args, tc_graph **graphs,
                       char **defaults, tc_error *err) {
  const tc_family *f = call->family;
  tc_spec_param params[TC_SPEC_MAX_PARAMS];
  int np = tci_spec_signature(f->signature, params), given[TC_SPEC_MAX_PARAMS] = {0};
  for (int i = 0; i < call->nargs; i++) {
    const tc_spec_node *v = &call->args[i];
    const tc_spec_param *q = &params[v->param];
    tc_graph *g = NULL;
    if (q->type == 'g') {
      int rc = tc_spec_eval(s, v, &g, err);
      if (rc) return rc;
      graphs[i] = g;
    }
    given[v->param] = 1;
    if (q->mod == '*' || q->mod == '+') {
      if (q->type == 'i') args->list_ints[args->list_len] = v->value;
      else args->list_graphs[args->list_len] = g;
      args->list_len++;
    } else if (q->type == 'i') {
      args->ints[v->param] = v->value;
    } else if (q->type == 'w') {
      args->words[v->param] = v->text;
    } else {
      args->graphs[v->param] = g;
    }
  }
  for (int k = 0; k < np; k++) {
    if (given[k] || params[k].mod != '=') continue;
    if (!(defaults[k] = strndup(params[k].def, params[k].def_len))) return tc_error_set(err, TC_ENOMEM, "out of memory");
    if (params[k].type == 'i') args->ints[k] = strtoll(defaults[k], NULL, 10);
    else args->words[k] = defaults[k];
  }
  return TC_OK;
}

/* A failure of the whole spec names it, as the parser's errors do. */
static int prefix_spec(const tc_spec *s, int rc, tc_error *err) {
  if (rc && strlen(s->text) <= 80) tc_error_prefix(err, "bad spec \"%s\"", s->text);
  else if (rc) tc_error_prefix(err, "bad spec \"%.77s...\"", s->text);
  return rc;
}

int tc_spec_eval(const tc_spec *s, const tc_spec_node *node, tc_graph **out, tc_error *err) {
  *out = NULL;
  tc_error local;
  if (!err) err = &local; /* the message is read back to add context */
  if (!node) return prefix_spec(s, tc_spec_eval(s, s->root, out, err), err);
  if (node->kind != TC_SPEC_CALL) return tc_error_set(err, TC_EINPUT, "column %zu: not a topology", node->col);
  const tc_family *f = node->family;
  tc_spec_args args;
  memset(&args, 0, sizeof args);
  tc_graph **graphs = calloc((size_t)node->nargs + 1, sizeof *graphs);
  char *defaults[TC_SPEC_MAX_PARAMS] = {0};
  if (!graphs) return tc_error_set(err, TC_ENOMEM, "out of memory");
  int rc = bind_values(s, node, &args, graphs, defaults, err);
  if (!rc) {
    rc = f->build(&args, out, err);
    size_t nl = strlen(f->info.name);
    int named = !strncmp(err->msg, f->info.name, nl) && err->msg[nl] == ':';
    if (rc && named) tc_error_prefix(err, "column %zu", node->col);
    else if (rc) tc_error_prefix(err, "column %zu: %s", node->col, f->info.name);
  }
  for (int i = 0; i < node->nargs; i++) tc_graph_destroy(graphs[i]);
  for (int k = 0; k < TC_SPEC_MAX_PARAMS; k++) free(defaults[k]);
  free(graphs);
  if (rc) {
    tc_graph_destroy(*out);
    *out = NULL;
  }
  return rc;
}

int tc_spec_build(const char *spec, tc_graph **out, tc_error *err) {
  *out = NULL;
  tc_error local;
  if (!err) err = &local;
  tc_spec *s = NULL;
  int rc = tc_spec_parse(spec, &s, err);
  if (rc) return rc;
  rc = tc_spec_eval(s, NULL, out, err);
  tc_spec_destroy(s);
  return rc;
}
