/*
** relay.h — internal: the messages between ranks that a step schedule amounts to, what
** every lowerer consumes (program.h, "Ranks and switches", states the rules).
**
** On a graph without switches they are the schedule's own transfers, rank = node: the view
** copies nothing and transfer i is s->xfer[i] between the ranks of its arc's ends. On a
** fabric the switch hops are collapsed (relay.c): a transfer between compute nodes stays
** one message; an interval that leaves a switch for a compute node becomes one message from
** the compute node that sent it into the switches (traced through any chain of switches, each
** forwarding what it received earliest first), at the step it leaves the last switch, and
** transfers into switches carry no message of their own.
*/
#ifndef TC_LOWER_RELAY_H
#define TC_LOWER_RELAY_H

#include <stdint.h>

#include "topocoll/error.h"
#include "topocoll/graph.h"
#include "topocoll/rank_map.h"
#include "topocoll/sched.h"

typedef struct tci_rank_xfer {
  int32_t shard, step;
  int32_t from, to; /* ranks */
  int64_t arc;      /* the schedule's arc into the receiver: the transfer's own, or a relay's last hop */
  int64_t lo, hi;   /* units of the shard */
} tci_rank_xfer;

typedef struct tci_rank_xfers {
  const tc_graph *g;
  const tc_schedule *s;
  tci_rank_xfer *relayed; /* the collapsed messages on a fabric; NULL without switches */
  int64_t count;
} tci_rank_xfers;

/* The messages of s on g (s->nodes == g->n, shard owners compute nodes: the caller has
   checked). A switch's sends forward its receipts by the verifier's relay rule
   (sched/relay_order.h). On a fabric, TC_EINPUT for a switch that replicates in a copy
   phase, or a reduce-phase partial that changes while it crosses the switches (program.h)
   — and, in a schedule that would fail verification, for a switch that forwards copies it
   never received — naming the switch or node, the shard, the units and the step; the first
   such problem in (shard, step) order. */
int tci_rank_xfers_init(tci_rank_xfers *v, const tc_graph *g, const tc_schedule *s, const tc_rank_map *map,
                        tc_error *err);
void tci_rank_xfers_destroy(tci_rank_xfers *v);

static inline tci_rank_xfer tci_rank_xfers_get(const tci_rank_xfers *v, int64_t i) {
  if (v->relayed) return v->relayed[i];
  const tc_transfer *x = &v->s->xfer[i];
  return (tci_rank_xfer){.shard = x->shard, .step = x->step, .from = v->g->src[x->arc], .to = v->g->dst[x->arc],
                         .arc = x->arc, .lo = x->lo, .hi = x->hi};
}

#endif
