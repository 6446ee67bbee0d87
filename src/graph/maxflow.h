/*
** maxflow.h — exact integer maximum flow (Dinic's algorithm). Internal header.
**
** A tc_maxflow holds a directed network with int64 capacities. Build it with
** tci_maxflow_reset + tci_maxflow_add, then tci_maxflow_run computes a maximum s-t flow from
** zero, exactly: every flow value is an integer and no arithmetic is rounded. Capacities can
** be changed between runs (tci_maxflow_set_cap) without rebuilding, which is what parametric
** searches (BFB's Dinkelbach iteration, ForestColl's binary search) need.
**
** Guarantees after a successful run:
**   - tci_maxflow_flow(f, a) is the flow on arc a (0 <= flow <= cap), flows are conserved at
**     every node but s and t, and their value is maximum;
**   - tci_maxflow_source_side(f, v) is 1 exactly for the nodes reachable from s in the
**     residual network: that set is the source side of a minimum cut (the smallest one);
**     tci_maxflow_sink_side gives the nodes that reach t, the smallest sink side.
** The only arithmetic risk is the flow value itself; run() refuses with TC_ERANGE when the
** capacities leaving s could sum beyond int64. Arc flows never exceed their capacity.
**
** Memory is reused across reset/run calls; one tc_maxflow per thread (no shared state).
*/
#ifndef TC_GRAPH_MAXFLOW_H
#define TC_GRAPH_MAXFLOW_H

#include <stdint.h>

#include "topocoll/error.h"

typedef struct tc_maxflow {
  int32_t n;           /* nodes 0..n-1 */
  int64_t m;           /* arcs added; arc a is residual arc 2a, its reverse 2a+1 */
  int64_t arc_room;    /* capacity of the arc arrays (in arcs) */
  int32_t node_room;   /* capacity of the node arrays */
  int32_t *head;       /* 2*arc_room: head of each residual arc (tail = head of the partner) */
  int64_t *cap;        /* arc_room: capacity of each arc as added or set */
  int64_t *resid;      /* 2*arc_room: residual capacities during and after a run */
  int64_t *adj;        /* 2*arc_room: residual arc ids grouped by tail */
  int64_t *adj_off;    /* node_room + 1 */
  int64_t *next_arc;   /* node_room: current-arc pointer of the blocking-flow search */
  int32_t *level;      /* node_room: BFS level, -1 when unreachable */
  int32_t *queue;      /* node_room */
  int64_t *path;       /* node_room: residual arcs of the current augmenting path */
  int adj_valid;       /* adj/adj_off describe the current arc set */
} tc_maxflow;

/* An empty network with no nodes; allocation happens on demand. */
void tci_maxflow_init(tc_maxflow *f);
void tci_maxflow_destroy(tc_maxflow *f);
/* Drop every arc and size the network to `nodes` nodes (keeps the buffers). */
int tci_maxflow_reset(tc_maxflow *f, int32_t nodes, tc_error *err);
/* Add arc u -> v with capacity cap >= 0; its id (0, 1, 2, ... in order) goes to *arc. */
int tci_maxflow_add(tc_maxflow *f, int32_t u, int32_t v, int64_t cap, int64_t *arc, tc_error *err);
/* Change the capacity of an existing arc (cap >= 0); takes effect at the next run. */
static inline void tci_maxflow_set_cap(tc_maxflow *f, int64_t arc, int64_t cap) { f->cap[arc] = cap; }
/* Maximum flow from s to t (s != t), starting from zero flow. */
int tci_maxflow_run(tc_maxflow *f, int32_t s, int32_t t, int64_t *value, tc_error *err);
/* The same, but free to stop as soon as the flow value reaches `limit`: *value is then the
   exact maximum when it is < limit, and some value >= limit otherwise (a valid flow, but the
   residual reachability no longer describes a minimum cut). Threshold tests ("is the max flow
   at least L?") cost only what they need. */
int tci_maxflow_run_limit(tc_maxflow *f, int32_t s, int32_t t, int64_t limit, int64_t *value, tc_error *err);
/* Flow on arc `arc` after the last run. */
static inline int64_t tci_maxflow_flow(const tc_maxflow *f, int64_t arc) { return f->resid[2 * arc + 1]; }
/* 1 if v is reachable from s in the residual network after the last run. */
static inline int tci_maxflow_source_side(const tc_maxflow *f, int32_t v) { return f->level[v] >= 0; }
/* After a run that was not stopped by its limit: side[v] = 1 exactly for the nodes that
   reach t in the residual network — the sink side of the minimum cut nearest to t (the
   smallest one). side has room for every node; uses the run's queue. */
void tci_maxflow_sink_side(tc_maxflow *f, int32_t t, uint8_t *side);

#endif
