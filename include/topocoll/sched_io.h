/*
** sched_io.h — the JSON schedule file (schema in docs/formats.md, "Schedule JSON"):
** a step schedule together with the graph it runs on, so a file can be re-verified
** without the program or spec that produced it.
**
**   {"format": "topocoll-schedule", "version": 1,
**    "graph": {"spec": "torus(3,3,2)", "nodes": 18, "arcs": [[0, 1], [0, 2, 2], ...]},
**    "schedule": {"collective": "allgather", "algorithm": "bfb", "nodes": 18, "nshards": 18,
**                 "owners": [...] (only when not the identity), "units": 4, "steps": 3,
**                 "rs_steps": 0, "transfers": [[shard, step, arc, lo, hi], ...]}}
**
** Writer: streams the document (no tree is built), arcs in arc-id order, transfers in the
** schedule's order, and replaces the target atomically (a failed write leaves the old
** file or nothing). It checks only that the schedule fits the graph (same node count,
** arc ids in range); verifying the schedule is the caller's duty (tc_schedule_verify).
** Reader: every field is checked for presence, type and range; a problem is TC_EINPUT
** with one line "file: json.path: problem", e.g.
** "s.json: schedule.transfers[7][2]: arc 90 outside 0..89". Arcs must be listed in arc-id
** order (sorted by source, destination, capacity) so that the arc ids in the transfers
** mean what the writer meant. The reader does not decide whether the schedule performs
** its collective: that is tc_schedule_verify's job.
*/
#ifndef TOPOCOLL_SCHED_IO_H
#define TOPOCOLL_SCHED_IO_H

#include "topocoll/export.h"

#include "topocoll/graph.h"
#include "topocoll/sched.h"

/* What a schedule file holds. */
typedef struct tc_schedule_doc {
  char *spec;        /* the graph's spec string, or NULL when the file has none */
  tc_graph *graph;   /* built from the embedded arcs (arc ids as in the file) */
  tc_schedule sched; /* transfers in file order */
} tc_schedule_doc;

/* Write s, which runs on g, to path. `spec` (may be NULL) is stored for information. */
TC_API int tc_schedule_write_json(const tc_graph *g, const char *spec, const tc_schedule *s, const char *path,
                                  tc_error *err);

/* Read path into *out (zeroed first; on failure nothing is left to free). When `expect`
   is not NULL the embedded graph must equal it arc for arc (same n, same arcs with the
   same ids and capacities), else TC_EINPUT naming the first difference. */
TC_API int tc_schedule_read_json(const char *path, const tc_graph *expect, tc_schedule_doc *out, tc_error *err);

TC_API void tc_schedule_doc_destroy(tc_schedule_doc *doc);

#endif
