/*
** rank_map.h — which node of the graph each rank of an executor plays.
**
** Ranks are the compute nodes: rank r plays the r-th compute node in id order, and a switch
** node has no rank (switches only relay what compute nodes send, program.h). On a graph
** without switches rank r is node r. Every lowerer and executor takes the mapping from
** here: the per-rank programs and the programs file (program.h, program_io.h), the MSCCL
** XML (one GPU per rank, msccl.h), the MPI executor and the PMPI interposer (one MPI rank
** per rank, run_mpi.h) and the SimGrid hostfile (rank r on the host of its node,
** simgrid.h).
*/
#ifndef TOPOCOLL_RANK_MAP_H
#define TOPOCOLL_RANK_MAP_H

#include "topocoll/export.h"

#include <stdint.h>

#include "topocoll/error.h"
#include "topocoll/graph.h"
#include "topocoll/graph_io.h"
#include "topocoll/sched_io.h"

typedef struct tc_rank_map {
  int32_t ranks; /* the compute nodes of the graph */
  int32_t nodes; /* all nodes of the graph */
  int32_t *node; /* ranks entries: the node rank r plays, ascending */
  int32_t *rank; /* nodes entries: the rank node u plays, -1 for a switch */
} tc_rank_map;

/* How many ranks a schedule on g runs on: its compute nodes. O(n). */
TC_API int32_t tc_rank_count(const tc_graph *g);
/* The map of g (TC_ENOMEM on failure; the map is then empty). */
TC_API int tc_rank_map_init(tc_rank_map *m, const tc_graph *g, tc_error *err);
TC_API void tc_rank_map_destroy(tc_rank_map *m);

/* The plan's ranks.csv (rank_ports.c; docs/formats.md, "Rank map"): one row per end of every
   cable of g's wiring plan (tc_graph_wiring_cables with `links`), with the rank playing the
   node and the one at the other end:
     rank,node,label,port,direction,peer_rank,peer_node,peer_port,cable
   direction "duplex", "loopback", or "tx" / "rx" for the ends of a simplex fibre; a switch
   has an empty rank. Replaced atomically. */
TC_API int tc_rank_ports_write(const tc_graph *g, tc_wiring_links links, const char *path, tc_error *err);
/* Read a ranks.csv for g (duplex or simplex as its rows say): every row must be the one g's
   wiring gives (same ports, peers and cables), and its ranks a bijection of g's compute
   nodes onto 0..ranks-1 that is the same wherever a node appears. node_of_rank (ranks
   entries) gets the node each rank plays. Anything else is TC_EINPUT naming the line. */
TC_API int tc_rank_ports_read(const tc_graph *g, const char *path, int32_t *node_of_rank, tc_error *err);

/* Apply the ranks.csv at path to doc (rank_apply.c): read it for doc's graph
   (tc_rank_ports_read) and, unless it is the identity, relabel the graph and the schedule so
   that rank r — the r-th compute node, as every executor plays it — is the node the file
   gives rank r, with that node's data (an isomorphic image: shard k of node u becomes shard
   f(u); a root, and p2p's destination, move with their nodes). What the map can be applied
   to: a topology without switches; a renumbering on a fabric, or a file that does not match
   the wiring, is TC_EINPUT, one line naming the file. On failure doc is unchanged. */
TC_API int tc_rank_map_apply(const char *path, tc_schedule_doc *doc, tc_error *err);

#endif
