/*
** verify.h — the independent schedule verifier (paper 000 App. B, Def. 4).
**
** tc_schedule_verify replays a step schedule symbolically with exact integer units and
** decides whether it performs its collective on g. It trusts nothing a generator says:
**   - structure: N matches, every transfer names an existing arc, a step in 1..steps
**     (allreduce: reduce-scatter transfers in 1..rs_steps, allgather after), a shard the
**     collective has, and a chunk 0 <= lo < hi <= units; every shard owned by a compute
**     node (a switch forwards but holds no data: it cannot own a shard or a root's buffer);
**   - count: at least one transfer per shard and compute node besides its owner, per half
**     (copy, reduce; both in allreduce) — checked in O(N + nshards) before any replay, so a
**     tiny file declaring millions of nodes fails at once, naming both counts;
**   - copy semantics (allgather, broadcast, allreduce's second half): a node sends a byte
**     only if it held it before that step (a shard's owner holds it from the start; in
**     allreduce, after step rs_steps); at the end every node holds every byte of every shard;
**     scatter and gather (copy semantics too): the shard's destination must end with it
**     (node k with shard k of a scatter, the root with every shard of a gather); other
**     nodes may hold copies in transit;
**   - flow semantics (alltoall, p2p): a send hands the sender's copy on; every unit
**     travels one walk from the owner and reaches its destination exactly once;
**   - layout: broadcast, reduce and scatter shards all owned by the root; the fixed
**     layouts of scatter, gather and p2p (sched.h), their root / destination a compute node;
**   - reduce semantics (reduce-scatter, reduce, allreduce's first half): a transfer carries
**     the sender's partial reduction as of the start of the step; each shard's owner must end
**     with every node's contribution to every byte exactly once (counted along all
**     time-respecting paths, so a duplicated or missing contribution is caught);
**   - switches: they hold no data of their own. In the copy phase a switch forwards what it
**     has received. In the reduce phase it relays: each send out of a switch carries the
**     earliest partial it received (in an earlier step; same step: by arc, lo, hi) and has
**     not forwarded yet, or nothing — a switch never adds partials up and keeps nothing it
**     sent, so several relays of the same units through one switch count once each (a
**     schedule that needs a switch to reduce loses a contribution and fails).
** On failure it returns TC_EFAIL and err->msg names the first violated transfer (lowest
** step, then index) and why, or the byte range and node whose contribution is wrong.
*/
#ifndef TOPOCOLL_VERIFY_H
#define TOPOCOLL_VERIFY_H

#include "topocoll/export.h"

#include "topocoll/sched.h"

TC_API int tc_schedule_verify(const tc_graph *g, const tc_schedule *s, tc_error *err);

#endif
