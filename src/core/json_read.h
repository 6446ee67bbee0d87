/*
** json_read.h — internal: strict reading of the project's JSON documents (the graph file
** of graph/io_json.c and the schedule file of sched/sched_io.c) on top of jansson.
**
** A document is parsed whole by jansson with duplicate keys rejected; syntax errors,
** trailing garbage, integers beyond 64 bits and truncated files are reported as
** "path:line:column: problem". Everything after parsing is reported as
** "path: jpath: problem", where jpath names the offending value the way a reader would
** write it ("arcs[12][1]", "schedule.transfers[3][0]"), so every message is one line
** that points at one place in the file. All errors are TC_EINPUT except that a file that
** cannot be opened or read is TC_EIO; text taken from the file is echoed only through
** tci_io_quote, so it cannot break the one-line contract.
**
** The helpers check one thing each (a type, a range, a set of keys, a header) and leave
** the meaning of the document to the format's own reader. Every function that returns
** int returns TC_OK or the code it recorded in r->err; a function that returns json_t *
** returns a borrowed reference (or NULL with *rc set, except where noted).
*/
#ifndef TC_CORE_JSON_READ_H
#define TC_CORE_JSON_READ_H

#include <jansson.h>
#include <stdint.h>

#include "topocoll/error.h"

/* Room for any jpath the readers build ("schedule.transfers[<20 digits>][4]" and shorter). */
#define TC_JSON_PATH_MAX 96

/* One document being read: where it came from, where errors go, and what the format is. */
typedef struct tc_json_reader {
  const char *path;        /* the file name, first in every message */
  tc_error *err;           /* receives the first problem */
  const char *format;      /* the value the top-level "format" key must have */
  int version;             /* the one "version" this reader knows */
  const char *empty_range; /* why no integer fits when lo > hi: "%s%lld, but <empty_range>" */
} tc_json_reader;

/* Parse r->path and require an object at the top level. NULL with *rc set on failure;
   otherwise the caller owns the tree (json_decref). */
json_t *tci_json_load_object(tc_json_reader *r, int *rc);

/* Before any other check: a document whose "format" names another of the project's
   formats is refused as what it is, "g.json is a graph JSON (nodes/arcs), not a schedule;
   ...", rather than by its first key this reader does not know (TC_EINPUT). */
int tci_json_check_kind(tc_json_reader *r, json_t *root);

/* Record "path: jpath: <problem>" as TC_EINPUT and return TC_EINPUT. */
#if defined(__GNUC__)
__attribute__((format(printf, 3, 4)))
#endif
int tci_json_fail(tc_json_reader *r, const char *jpath, const char *fmt, ...);

/* `j` must have type t; JSON_TRUE (or JSON_FALSE) accepts either boolean. `want` names
   the expected value in the message ("expected <want>, found an array"). */
int tci_json_expect_type(tc_json_reader *r, const char *jpath, const json_t *j, json_type t, const char *want);

/* Integer `j` in lo..hi into *out; `what` ("node ", "arc " or "") prefixes the value in
   range errors. hi == INT64_MAX means "no upper bound" in the message. */
int tci_json_get_int(tc_json_reader *r, const char *jpath, const json_t *j, const char *what, long long lo,
                    long long hi, long long *out);

/* Member `key` of `obj`, whose own jpath is `prefix` ("" for the top level); missing is an
   error "path: prefix.key: missing". */
json_t *tci_json_require(tc_json_reader *r, json_t *obj, const char *prefix, const char *key, int *rc);

/* Required integer member `prefix.key` in lo..hi. */
int tci_json_member_int(tc_json_reader *r, json_t *obj, const char *prefix, const char *key, long long lo,
                       long long hi, long long *out);

/* Reject any key of the object at `prefix` that is not in `known` (NULL-terminated); the
   message lists the keys r->version defines. */
int tci_json_check_keys(tc_json_reader *r, json_t *obj, const char *prefix, const char *const *known);

/* Required object member `key` of the top level, with its keys checked against `known`. */
json_t *tci_json_member_object(tc_json_reader *r, json_t *root, const char *key, const char *const *known, int *rc);

/* Optional array member `prefix.key`: NULL with *rc untouched when absent; otherwise it
   must be an array of exactly `count` entries, one per `per` ("node", "shard"). */
json_t *tci_json_optional_array(tc_json_reader *r, json_t *obj, const char *prefix, const char *key, int32_t count,
                               const char *per, int *rc);

/* The top-level "format" (must be r->format) and "version" (must be r->version) keys. */
int tci_json_check_header(tc_json_reader *r, json_t *root);

/* An arc entry `prefix[i]` = [u, v] or [u, v, cap] with nodes in 0..nodes-1 and cap >= 1
   (default 1): fills x = {u, v, cap}. Shared by the graph and schedule formats. */
int tci_json_read_arc(tc_json_reader *r, const char *prefix, size_t i, const json_t *arc, int32_t nodes,
                     long long x[3]);

#endif
