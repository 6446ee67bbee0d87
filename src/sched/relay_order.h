/*
** relay_order.h — internal: the order in which a switch relays partials in a reduce phase,
** the one home of the rule that the verifier (verify.c, contract in verify.h) and the
** lowering that collapses switch hops into messages between ranks (lower/relay.c) both
** follow, so that every reduce phase the verifier accepts on a fabric means the same
** messages to the executors.
**
** A switch holds no data and adds nothing up. Per (switch, segment of a shard) its reduce-
** phase receipts wait in a queue in order of arrival: by step, and within a step by the
** transfer's (arc, lo, hi). Its sends are served in the same order, each taking the head of
** the queue among the receipts of earlier steps (a send carries what reached the switch
** before its step) and forwarding that partial unchanged; a send that finds the queue empty
** carries nothing. Transfers equal in (step, arc, lo, hi) are interchangeable, so the
** matching does not depend on the order a schedule lists its transfers in.
*/
#ifndef TC_SCHED_RELAY_ORDER_H
#define TC_SCHED_RELAY_ORDER_H

#include "topocoll/sched.h"

/* <0, 0, >0 as a is served (a send) or queued (a receipt) before, with, or after b at one
   switch and segment: by (step, arc, lo, hi). Sends of a step come before its receipts;
   that is the callers' to keep (the verifier sorts them so, the lowering queues a step's
   receipts after resolving its sends). */
static inline int tci_relay_order(const tc_transfer *a, const tc_transfer *b) {
  if (a->step != b->step) return a->step < b->step ? -1 : 1;
  if (a->arc != b->arc) return a->arc < b->arc ? -1 : 1;
  if (a->lo != b->lo) return a->lo < b->lo ? -1 : 1;
  return (a->hi > b->hi) - (a->hi < b->hi);
}

#endif
