/*
** spec_internal.h — what the spec parser (spec.c) and the family registry (registry.c)
** share: the parsed signature, bound argument values and the registry table. Internal
** header.
**
** A family's signature is a string of space-separated parameters "name:T[mod]" where T is
** i (integer), g (nested spec, i.e. a graph) or w (word: a bare token or quoted string),
** and mod is "=default" (optional), "*" (zero or more, last only) or "+" (one or more, last
** only). Example: "d:i m:i loops:w=keep", "dims:i+", "gs:g+".
*/
#ifndef TC_TOPO_SPEC_INTERNAL_H
#define TC_TOPO_SPEC_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "topocoll/spec.h"

#define TC_SPEC_MAX_PARAMS 8
#define TC_SPEC_MAX_LIST 64

/* Arguments bound to a family's parameters, in signature order. */
typedef struct tc_spec_args {
  int64_t ints[TC_SPEC_MAX_PARAMS];
  const char *words[TC_SPEC_MAX_PARAMS];      /* owned by the parser */
  const tc_graph *graphs[TC_SPEC_MAX_PARAMS]; /* owned by the parser */
  int64_t list_ints[TC_SPEC_MAX_LIST];        /* the variadic parameter, if integers */
  const tc_graph *list_graphs[TC_SPEC_MAX_LIST];
  int list_len;
} tc_spec_args;

typedef struct tc_family {
  tc_family_info info;
  const char *signature;
  int (*build)(const tc_spec_args *a, tc_graph **out, tc_error *err);
} tc_family;

/* One parameter of a signature, parsed (tci_spec_signature). */
typedef struct tc_spec_param {
  char name[32];
  char type;       /* 'i', 'g', 'w' */
  char mod;        /* 0, '=', '*', '+' */
  const char *def; /* default text after '=' (not terminated; def_len bytes) */
  size_t def_len;
} tc_spec_param;

/* The values a call binds, as its constraints see them (constraint.c): every integer and
   word parameter given or defaulted, and the integers of its list parameter. */
typedef struct tc_spec_binding {
  const tc_spec_param *params;
  int np;
  int64_t ints[TC_SPEC_MAX_PARAMS];
  const char *words[TC_SPEC_MAX_PARAMS];
  const int64_t *list;
  int list_len;
} tc_spec_binding;

/* Check the family's documented constraints (its info.constraints, the text `topo --list`
   prints) against b: TC_EINPUT naming the first clause broken, TC_ERANGE if the values are
   too large to evaluate it. Clauses that are prose are left to the generator. */
int tci_family_check(const tc_family *f, const tc_spec_binding *b, tc_error *err);

/* The clauses of f's constraints that tci_family_check leaves to the generator, joined by
   "; " into buf ("" if none), for tests to pin. */
void tci_family_prose(const tc_family *f, const tc_spec_binding *b, char *buf, size_t size);

/* Parse a family's signature into params (at most TC_SPEC_MAX_PARAMS); returns the count. */
int tci_spec_signature(const char *sig, tc_spec_param *params);

/* The registry (registry.c): NULL if no family has this name. */
const tc_family *tci_family_find(const char *name, size_t len);
int tci_family_table_size(void);
const tc_family *tci_family_at(int i);

#endif
