/*
** run_mpi.h — libtopocoll_mpi: run verified schedules as MPI collectives.
**
** A plan is a schedule JSON file (sched_io.h) loaded collectively on a communicator whose
** size equals the schedule's compute node count; rank r of the communicator plays the r-th
** compute node (rank_map.h: node r on a graph without switches; on a fabric the switch
** hops are collapsed into messages between ranks, program.h). Every
** rank reads and checks the file itself (the schedule is verified with tc_schedule_verify
** unless TC_MPI_TRUSTED is given), lowers its own program (program.h), and then all ranks
** agree on the outcome with one MPI_Allreduce: if any rank failed, every rank returns the
** same error code and a message naming the first failing rank and its reason ("rank R:
** reason"), and nobody is left waiting in a collective; a second agreement makes sure all
** ranks read the same schedule (a digest of it and its graph). comm must be an
** intracommunicator (else TC_EINPUT on every rank at once).
** The file may instead be a programs file (program_io.h: every rank's program, lowered
** once from a verified schedule by tc_program_file_write; told apart by its first line):
** then each rank reads only its own program, nothing is verified (TC_MPI_TRUSTED is
** implied: the writer took a verified schedule) and the ranks compare the file's digest.
** Loading is then O(a rank's ops) per rank instead of O(transfers) — what makes a
** simulation of hundreds of ranks in one process (SMPI) load in seconds. The plan works on its own
** duplicate of comm (MPI_Comm_dup, errors returned), so its messages never meet the
** caller's; tc_mpi_plan_destroy is collective over it and comes before MPI_Finalize.
**
** Calls mirror MPI's: tc_mpi_allgather(sendbuf, recvbuf, count, ...) gathers `count`
** elements from every rank (recvbuf holds N*count); tc_mpi_reduce_scatter(sendbuf, recvbuf,
** count, ...) is MPI_Reduce_scatter_block (sendbuf holds N*count, recvbuf gets count);
** tc_mpi_allreduce(sendbuf, recvbuf, count, ...); tc_mpi_alltoall(sendbuf, recvbuf, count,
** ...) is MPI_Alltoall with sendcount == recvcount == count (sendbuf holds N*count, block t
** for rank t; recvbuf gets N*count, block s from rank s). TC_MPI_IN_PLACE (== MPI_IN_PLACE)
** as sendbuf means in place, with MPI's conventions (allgather: own block already in
** recvbuf; reduce-scatter: recvbuf holds the N*count input and the result lands in its
** first count elements; alltoall: recvbuf holds the input, which the call first copies into
** a buffer of the plan, N*count elements kept for later calls). Any count >= 0 works: shard k of `count` elements is
** [k*count/nshards, (k+1)*count/nshards) rounded down and each unit likewise, so chunks
** may be empty or uneven. Datatypes MPI_INT32_T, MPI_INT64_T, MPI_FLOAT, MPI_DOUBLE (and
** MPI_INT, MPI_LONG, MPI_LONG_LONG when they have one of those sizes); ops MPI_SUM,
** MPI_MAX, MPI_MIN. A plan serves only its own collective.
** Rooted collectives: a plan of a broadcast, reduce, scatter or gather has its root (the
** schedule's, as a rank: tc_mpi_plan_root), and a call naming another root is TC_EINPUT on
** every rank ("the plan's broadcast root is rank 3, not 0"): one plan per root.
** tc_mpi_bcast(buf, count, ..., root) is MPI_Bcast; tc_mpi_reduce(sendbuf, recvbuf, count,
** ..., op, root) MPI_Reduce (recvbuf the root's only); tc_mpi_scatter(sendbuf, recvbuf,
** count, ..., root) MPI_Scatter with sendcount == recvcount == count (sendbuf, N*count
** elements, the root's only; block r goes to rank r); tc_mpi_gather(sendbuf, recvbuf,
** count, ..., root) MPI_Gather likewise (recvbuf, N*count, the root's only). MPI_IN_PLACE
** as in MPI and only at the root: reduce's and gather's sendbuf (the input is recvbuf, the
** root's own block of it for gather), scatter's recvbuf (the root's block stays in
** sendbuf); elsewhere it is TC_EINPUT. Buffers a rank's program does not use (a non-root's
** recvbuf, sendbuf for scatter) may be anything, NULL too. tc_mpi_p2p(sendbuf, recvbuf,
** count, ...) moves `count` elements from the plan's source rank (tc_mpi_plan_root) to its
** destination (tc_mpi_plan_dest), over the schedule's paths: collective over the plan's
** communicator, since the other ranks relay (sendbuf is the source's, recvbuf the
** destination's; no MPI_IN_PLACE). Their scratch holds a mirror of the whole collective on
** every rank (reduce: count elements, where the non-roots accumulate; scatter and gather:
** N*count, where relays keep what they forward; p2p: count), kept for later calls. An alltoall rank's scratch
** holds the blocks it relays for others, `count` elements each (none for a schedule of
** direct sends).
**
** Execution: step by step; in step t the program's pre-copies run, then every receive and
** send of the step is posted non-blocking (receives first, copy-receives straight into
** their final place, reduce-receives into a staging buffer), then one MPI_Waitall, then
** the step's reductions and copies in program order. Tags are the step number (modulo
** MPI_TAG_UB + 1; each step completes before the next is posted). A message of more than
** INT_MAX elements goes as several. Staging and scratch buffers are kept in the plan and
** grown on demand; the element layout of the last count is cached.
**
** Errors: TC_EINPUT (unsupported datatype / op / collective, a negative count, a NULL
** buffer with count > 0, count * N or the byte offsets overflowing int64, a receive the
** rank drops whole — a redundant copy, whose length it cannot know — longer than INT_MAX
** elements, size mismatch, a malformed or invalid file), TC_EIO (the file cannot be read),
** TC_ENOMEM, TC_EFAIL (an MPI call failed, or a lowered program the executor cannot run as
** program.h describes — a lowering bug). Collective calls are collective: the first call
** with a new (count, datatype size) agrees on the outcome with one MPI_Allreduce of two
** ints (layout and buffers are prepared then, which can fail on one rank alone), so an
** error there is reported on every rank and none hangs. Later calls with the same count
** and size skip that agreement (it costs about log2 N latencies, noticeable at small
** sizes): their checks depend only on arguments MPI requires equal on every rank, except
** a NULL buffer, which is then the calling rank's error alone — as in MPI, a program with
** one is erroneous. The plan itself must not be NULL (TC_EINPUT on the calling rank).
*/
#ifndef TOPOCOLL_RUN_MPI_H
#define TOPOCOLL_RUN_MPI_H

#include "topocoll/export.h"

#include <mpi.h>

#include "topocoll/error.h"
#include "topocoll/sched.h"

#define TC_MPI_IN_PLACE MPI_IN_PLACE

typedef struct tc_mpi_plan tc_mpi_plan;

enum { TC_MPI_TRUSTED = 1 /* skip tc_schedule_verify (the caller has verified the file) */ };

/* Collective over comm: load `path`. On failure *out is NULL on every rank. err may be
   NULL (then only the code tells). */
TC_API int tc_mpi_plan_load(const char *path, MPI_Comm comm, unsigned flags, tc_mpi_plan **out, tc_error *err);
/* As tc_mpi_plan_load, rank r of comm playing the node the plan's ranks.csv `rank_map`
   assigns to rank r (NULL: the r-th compute node, as above): each rank applies the file to
   the schedule it read (tc_rank_map_apply, rank_map.h) after verifying it, so every rank's
   buffers mean what MPI means (an allgather's block r is still rank r's). A file that does
   not fit the schedule's wiring, that renumbers ranks on a fabric or for scatter, gather or
   p2p, or given with a programs file, is TC_EINPUT on every rank. */
TC_API int tc_mpi_plan_load_mapped(const char *path, const char *rank_map, MPI_Comm comm, unsigned flags,
                                   tc_mpi_plan **out, tc_error *err);
TC_API void tc_mpi_plan_destroy(tc_mpi_plan *plan);

/* What the plan does; its algorithm name ("bfb", "ring", ...) and its rank count. */
TC_API tc_collective tc_mpi_plan_collective(const tc_mpi_plan *plan);
TC_API const char *tc_mpi_plan_algorithm(const tc_mpi_plan *plan);
TC_API int tc_mpi_plan_ranks(const tc_mpi_plan *plan);
/* The root's rank of a broadcast, reduce, scatter or gather plan, the source's of a p2p
   plan; -1 for the others. The destination's rank of a p2p plan; -1 for the others. */
TC_API int tc_mpi_plan_root(const tc_mpi_plan *plan);
TC_API int tc_mpi_plan_dest(const tc_mpi_plan *plan);

TC_API int tc_mpi_allgather(tc_mpi_plan *plan, const void *sendbuf, void *recvbuf, long long count, MPI_Datatype type,
                            tc_error *err);
TC_API int tc_mpi_reduce_scatter(tc_mpi_plan *plan, const void *sendbuf, void *recvbuf, long long count,
                                 MPI_Datatype type, MPI_Op op, tc_error *err);
TC_API int tc_mpi_allreduce(tc_mpi_plan *plan, const void *sendbuf, void *recvbuf, long long count, MPI_Datatype type,
                            MPI_Op op, tc_error *err);
TC_API int tc_mpi_alltoall(tc_mpi_plan *plan, const void *sendbuf, void *recvbuf, long long count, MPI_Datatype type,
                           tc_error *err);
TC_API int tc_mpi_bcast(tc_mpi_plan *plan, void *buf, long long count, MPI_Datatype type, int root, tc_error *err);
TC_API int tc_mpi_reduce(tc_mpi_plan *plan, const void *sendbuf, void *recvbuf, long long count, MPI_Datatype type,
                         MPI_Op op, int root, tc_error *err);
TC_API int tc_mpi_scatter(tc_mpi_plan *plan, const void *sendbuf, void *recvbuf, long long count, MPI_Datatype type,
                          int root, tc_error *err);
TC_API int tc_mpi_gather(tc_mpi_plan *plan, const void *sendbuf, void *recvbuf, long long count, MPI_Datatype type,
                         int root, tc_error *err);
TC_API int tc_mpi_p2p(tc_mpi_plan *plan, const void *sendbuf, void *recvbuf, long long count, MPI_Datatype type,
                      tc_error *err);

/* Testing and simulation aid: when off, reductions and copies are skipped (the messages
   are exactly the same), so SMPI can time 1 GB collectives on shared dummy buffers (under
   SMPI the plan's own scratch and staging then come from SMPI_SHARED_MALLOC too). */
TC_API void tc_mpi_plan_set_compute(tc_mpi_plan *plan, int on);

#endif
