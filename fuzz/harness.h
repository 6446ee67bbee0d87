/*
** harness.h — what every fuzz target (fuzz/fuzz_<target>.c) shares: a private scratch
** directory for the files the readers and writers work on, the checks of the error
** contract (error.h), a structural check of a graph and graph equality for round trips.
**
** A broken invariant is reported with one line on stderr and abort(), which libFuzzer
** records as a crash together with the input that caused it (docs/fuzzing.md).
*/
#ifndef TC_FUZZ_HARNESS_H
#define TC_FUZZ_HARNESS_H

#include <stddef.h>
#include <stdint.h>

#include "topocoll/error.h"
#include "topocoll/graph.h"

/* Report a broken invariant and abort. */
_Noreturn void tcf_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* `dir/name` in the target's scratch directory (created on first use under $TMPDIR and
   removed at exit); the result lives until the next call with the same name. */
const char *tcf_path(const char *name);

/* Replace the file at `path` with exactly `size` bytes of `data`. */
void tcf_write_file(const char *path, const uint8_t *data, size_t size);

/* The input as a C string (cut at its first NUL byte); free() it. */
char *tcf_cstring(const uint8_t *data, size_t size);

/* The error contract of one call that returned rc with err (cleared before the call):
   success leaves err untouched (code 0, empty message); a failure returns a known code,
   records the same code and a non-empty, terminated message of one line without raw
   control bytes. `what` names the call. */
void tcf_check_result(const char *what, int rc, const tc_error *err);

/* A graph the library handed out is well formed: sizes within the limits, arcs sorted by
   (src, dst, cap) with endpoints in range and capacities >= 1, the CSR offsets and the
   in-arc index consistent with them, and the reverse pairing (when present) an involution
   onto opposite arcs of equal capacity. */
void tcf_check_graph(const char *what, const tc_graph *g);

/* a and b are the same graph: nodes, arcs (ids, ends, capacities), kinds, labels and
   bidirectionality. `with_extras` = 0 compares the arcs only (formats without kinds and
   labels). */
void tcf_check_same_graph(const char *what, const tc_graph *a, const tc_graph *b, int with_extras);

#endif
