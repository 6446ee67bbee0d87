/*
** topocoll.h — the whole public API of libtopocoll in one include, in layer order
** (docs/architecture.md). Link with `pkg-config --libs topocoll` or the CMake target
** topocoll::topocoll. The MPI executor's API (libtopocoll_mpi) needs <mpi.h> and is not
** included here: include <topocoll/run_mpi.h> and link topocoll-mpi / topocoll::topocoll_mpi.
*/
#ifndef TOPOCOLL_H
#define TOPOCOLL_H

/* core */
#include "topocoll/error.h"
#include "topocoll/rational.h"
#include "topocoll/units.h"
#include "topocoll/progress.h"
#include "topocoll/budget.h"
/* graph */
#include "topocoll/graph.h"
#include "topocoll/graph_io.h"
#include "topocoll/iso.h"
#include "topocoll/metrics.h"
#include "topocoll/summary.h"
/* topo */
#include "topocoll/expand.h"
#include "topocoll/netcost.h"
#include "topocoll/spec.h"
#include "topocoll/topo.h"
/* sched */
#include "topocoll/contention.h"
#include "topocoll/cost.h"
#include "topocoll/fit.h"
#include "topocoll/sched.h"
#include "topocoll/sched_io.h"
#include "topocoll/transform.h"
#include "topocoll/verify.h"
/* synth */
#include "topocoll/baselines.h"
#include "topocoll/bfb.h"
#include "topocoll/construct.h"
#include "topocoll/expand_sched.h"
#include "topocoll/fig_schedules.h"
#include "topocoll/multitree.h"
#include "topocoll/twodfc.h"
#include "topocoll/kautz.h"
/* forest */
#include "topocoll/forest.h"
/* a2a */
#include "topocoll/a2a.h"
#include "topocoll/a2a_flows.h"
#include "topocoll/a2a_route.h"
/* coll */
#include "topocoll/collective.h"
/* find, plan */
#include "topocoll/find.h"
#include "topocoll/plan.h"
#include "topocoll/train.h"
/* lower */
#include "topocoll/msccl.h"
#include "topocoll/program.h"
#include "topocoll/program_io.h"
#include "topocoll/rank_map.h"
#include "topocoll/simgrid.h"

#endif
