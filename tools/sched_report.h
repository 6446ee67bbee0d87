/*
** sched_report.h — the report `topocoll sched` and `topocoll verify` print for a verified
** schedule: what it is (collective, algorithm, topology), its costs in the alpha-beta
** model, and, when given, the predicted time and the file written or read.
**
** Only verified schedules reach it: it prints "verified: yes" (text) or "verified": true
** (JSON) without checking. T_B factors print exactly (num/den) beside their float value.
*/
#ifndef TC_TOOLS_SCHED_REPORT_H
#define TC_TOOLS_SCHED_REPORT_H

#include <stdint.h>

#include "topocoll/cost.h"
#include "topocoll/sched.h"

/* What an alltoall schedule was lowered from (paper 003 §5.3): its routing's fluid rate f
   = 1 / max link load, the arc that bounds it, its paths and virtual-channel layers. */
typedef struct tc_cli_routing_report {
  tc_rat rate, max_load;
  int64_t max_arc;       /* -1: nothing moves */
  int64_t paths;
  int32_t layers;        /* LASH-sequential */
  const char *read;      /* the route file read (--routes), or NULL */
  const char *written;   /* the route file written (--routes-out), or NULL */
} tc_cli_routing_report;

/* A verified schedule s on g with cost c. */
typedef struct tc_cli_sched_report {
  const char *spec;    /* the topology's spec, or NULL (a graph read from a file) */
  const tc_graph *g;
  const tc_schedule *s;
  const tc_cost *c;
  int32_t root;        /* tc_schedule_root: -1 unless broadcast, reduce, scatter, gather, p2p */
  double alpha_s, link_bw, time_s; /* < 0 when not given (time_s: not computed) */
  int64_t size_bytes;  /* < 0 when not given */
  const char *written; /* the file written, or NULL */
  const char *file;    /* the schedule file read (verify), or NULL */
  int64_t chunks_chosen; /* > 0: P picked by the predicted time among 1, 2, 4, ..., chunks_tried */
  int64_t chunks_tried;
  const tc_cli_routing_report *routing; /* alltoall lowered from a routing, or NULL */
  const char *chosen;  /* the variant the builder kept (tc_collective_opts.chosen), or NULL / "" */
  double copy_bw;      /* > 0: time_s includes local_copy * M / copy_bw (--copy-bw) */
} tc_cli_sched_report;

/* Print r on stdout as text, or as one JSON object when json. */
void tc_cli_print_sched_report(const tc_cli_sched_report *r, int json);

/* The reports of one schedule at n sizes (`sched --size 1MB,256MB`): n == 1 prints as
   above; n > 1 prints one text section per size, each opening with its "size" line and
   separated by a blank line, or one JSON array of the n objects. */
void tc_cli_print_sched_reports(const tc_cli_sched_report *r, int n, int json);

#endif
