/*
** progress.h — how a long library call says where it stands. The library never prints:
** a call that can run for seconds takes a tc_progress_fn (and its ctx) in its options and
** reports through it; the program decides what to show, where and how often.
**
** The contract of a report (phase, done, total):
**   - phase says what is being done, in words a user reads ("forest: packing trees",
**     "plan: resilience, single link failures"); it may carry the state of an open-ended
**     phase ("a2a dw: round 40, f in [0.0123, 0.0124], gap 0.49 %"). It is valid only
**     during the call.
**   - done of total counts the phase's units (trees, switches, members); total 0: the phase
**     has no count known in advance.
**   - a phase begins with one report of done 0 and, when total > 0, ends with one of done ==
**     total; reports in between have 0 < done < total (or any done > 0 when total is 0).
**   - reports come from the calling thread, at the work's natural steps (each tree, each
**     switch, each round), so the callback must be cheap (no I/O unless it decides to) and
**     must not call back into the library. A NULL callback means no reports, at no cost.
** Progress never changes a result: the same call with or without a callback computes the
** same thing.
*/
#ifndef TOPOCOLL_PROGRESS_H
#define TOPOCOLL_PROGRESS_H

typedef void (*tc_progress_fn)(void *ctx, const char *phase, double done, double total);

#endif
