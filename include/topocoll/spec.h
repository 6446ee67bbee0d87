/*
** spec.h — the topology spec language (docs/spec.md): one string names any topology,
** e.g. "kautz(4,2)", "line(circulant(16,3,4),3)", "product(biring(2,8),power(uniring(1,4),2))",
** "kautz(d=4,n=2)", "file(path.json)".
**
** Grammar:   spec  := name '(' [arg (',' arg)*] ')'
**            arg   := [ident '='] (integer | spec | word)
** A bad spec fails with TC_EINPUT and a message "at column C: expected ..., found ...".
**
** Two phases. tc_spec_parse reads the whole text into a parse tree and binds every call's
** arguments to its family's parameters (names, types, arity, defaults) without building
** anything, so every syntax or binding error is found before any graph is built.
** tc_spec_eval then builds the graph bottom-up. tc_spec_build does both. Code that needs
** to know how a topology was written (the finder's constructions, algorithms that read a
** torus's dimensions) walks the tree with tc_spec_arg* instead of re-reading the text.
*/
#ifndef TOPOCOLL_SPEC_H
#define TOPOCOLL_SPEC_H

#include "topocoll/export.h"

#include <stddef.h>
#include <stdint.h>

#include "topocoll/graph.h"

TC_API int tc_spec_build(const char *spec, tc_graph **out, tc_error *err);

/* Description of one spec family for `topocoll topo --list`. */
typedef struct tc_family_info {
  const char *name;        /* spec keyword */
  const char *params;      /* e.g. "d, n" */
  const char *constraints; /* e.g. "d >= 1, n >= 0, (d+1)*d^n <= 5e7" */
  const char *summary;     /* one line */
} tc_family_info;

/* Number of families and the i-th one (0-based), in listing order. */
TC_API int tc_spec_family_count(void);
TC_API const tc_family_info *tc_spec_family(int i);

/* ---- the parse tree ---- */

typedef enum { TC_SPEC_INT, TC_SPEC_WORD, TC_SPEC_CALL } tc_spec_kind;

/* One value of the spec: an integer, a word, or a call name(args...). */
typedef struct tc_spec_node {
  tc_spec_kind kind;
  int64_t value;      /* TC_SPEC_INT */
  char *text;         /* INT, WORD: the token (a word unquoted); CALL: the family name as listed */
  char name[32];      /* the parameter name when written "name=value", else "" */
  int param;          /* index of the parameter of the enclosing call this value is bound to */
  size_t col;         /* 1-based column of the value's first character */
  size_t start, len;  /* the value's text is spec->text[start .. start+len) */
  int nargs;          /* CALL: its arguments as written */
  struct tc_spec_node *args;
  const void *family; /* CALL: the registry row (internal) */
} tc_spec_node;

/* A parsed spec: the text (a copy) and the root call. */
typedef struct tc_spec {
  char *text;
  tc_spec_node *root;
} tc_spec;

/* Parse and bind `text` (at most 4096 bytes, nesting at most 32). On failure *out is NULL
   and err names the column ("bad spec \"...\": column C: ..."). */
TC_API int tc_spec_parse(const char *text, tc_spec **out, tc_error *err);
TC_API void tc_spec_destroy(tc_spec *s);

/* Build the graph of `node` (a call of s). Errors name the column of the call that failed;
   node == NULL builds the root and prefixes errors with the spec, as tc_spec_build does. */
TC_API int tc_spec_eval(const tc_spec *s, const tc_spec_node *node, tc_graph **out, tc_error *err);

/* The value bound to parameter `param` of `call` (a TC_SPEC_CALL), or NULL when it was not
   given (its default applies). For a list parameter ("dims", "offsets", "gs") this is the
   first item; tc_spec_arg_list returns them all. */
TC_API const tc_spec_node *tc_spec_arg(const tc_spec_node *call, const char *param);
/* The integer bound to `param`, or its default when not given; TC_EINPUT when the call has
   no such integer parameter. */
TC_API int tc_spec_arg_int(const tc_spec_node *call, const char *param, int64_t *out, tc_error *err);
/* The values bound to list parameter `param` in order: up to `max` pointers in items;
   returns their count (0 if none). */
TC_API int tc_spec_arg_list(const tc_spec_node *call, const char *param, const tc_spec_node **items, int max);

/* The source text of `node` (a fresh string; NULL if out of memory). */
TC_API char *tc_spec_node_text(const tc_spec *s, const tc_spec_node *node);

#endif
