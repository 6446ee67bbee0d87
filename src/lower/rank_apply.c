/*
** rank_apply.c — a ranks.csv applied to a schedule (contract in rank_map.h): the one place
** where "rank r plays the node the file gives it" becomes a schedule the executors run, for
** `export --rank-map` (MSCCL), `run --rank-map` and topocoll-exec (MPI) and the PMPI
** interposer (TOPOCOLL_RANK_MAP).
**
** Why a relabelling: every executor plays rank r as the r-th compute node (rank_map.h).
** Renaming node node_of_rank[r] to r, in the graph and in the schedule (tc_schedule_relabel:
** shard k becomes shard f(k), owners map), makes rank r play that node with its own data in
** its own block: an allgather's rank r still contributes block r, as MPI means it, and the
** schedule's transfers are the same cables as before. The relabelled schedule is an
** isomorphic image of a verified one; tc_schedule_relabel checks the map is an isomorphism.
** What it cannot express is refused with one line (TC_EINPUT): renumbering ranks on a
** fabric (switch ids stay where they are, and the r-th compute node is found by id). Rooted
** collectives move their root (and p2p its destination) with the map: a scatter from node u
** becomes one from rank f(u).
*/
#include "topocoll/rank_map.h"

#include <stdlib.h>
#include <string.h>

#include "topocoll/graph.h"
#include "topocoll/transform.h"

/* The graph and schedule with node f[u] in place of u (f a permutation). */
static int relabel(tc_schedule_doc *doc, const int32_t *f, tc_error *err) {
  const tc_graph *g = doc->graph;
  tc_graph_builder b;
  tc_graph *g2 = NULL;
  tc_schedule s2;
  memset(&s2, 0, sizeof s2);
  int rc = tc_graph_builder_init(&b, g->n, err);
  if (!rc) rc = tc_graph_builder_reserve(&b, g->m, err);
  for (int64_t a = 0; !rc && a < g->m; a++) rc = tc_graph_builder_add_arc(&b, f[g->src[a]], f[g->dst[a]], g->cap[a], err);
  for (int32_t u = 0; !rc && u < g->n; u++) {
    rc = tc_graph_builder_set_kind(&b, f[u], g->kind[u], err);
    if (!rc && tc_graph_label(g, u)) rc = tc_graph_builder_set_label(&b, f[u], tc_graph_label(g, u), err);
  }
  if (rc) tc_graph_builder_destroy(&b);
  else rc = tc_graph_builder_finish(&b, &g2, err);
  if (!rc) rc = tc_schedule_relabel(g, &doc->sched, g2, f, &s2, err);
  if (rc) {
    tc_graph_destroy(g2);
    return rc;
  }
  tc_graph_destroy(doc->graph);
  tc_schedule_destroy(&doc->sched);
  doc->graph = g2;
  doc->sched = s2;
  return TC_OK;
}

int tc_rank_map_apply(const char *path, tc_schedule_doc *doc, tc_error *err) {
  const tc_graph *g = doc->graph;
  int32_t ranks = tc_rank_count(g), *node = malloc((size_t)(ranks ? ranks : 1) * sizeof *node);
  int32_t *f = malloc((size_t)(g->n ? g->n : 1) * sizeof *f);
  int rc = !node || !f ? tc_error_set(err, TC_ENOMEM, "out of memory") : tc_rank_ports_read(g, path, node, err);
  int identity = 1;
  for (int32_t r = 0; !rc && r < ranks; r++) identity &= node[r] == r;
  if (!rc && !identity && ranks != g->n)
    rc = tc_error_set(err, TC_EINPUT, "%s renumbers the ranks; that needs a topology without switches", path);
  if (!rc && !identity) {
    for (int32_t r = 0; r < ranks; r++) f[node[r]] = r;
    if ((rc = relabel(doc, f, err))) tc_error_prefix(err, "%s", path);
  }
  free(node);
  free(f);
  return rc;
}
