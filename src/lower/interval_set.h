/*
** interval_set.h — a set of int64 points kept as sorted, disjoint, non-adjacent half-open
** intervals [lo, hi). What the lowerers use to track which chunks a rank holds or has
** touched. Adding is O(log n + merged); queries are O(log n + answer).
*/
#ifndef TC_LOWER_INTERVAL_SET_H
#define TC_LOWER_INTERVAL_SET_H

#include <stdint.h>

#include "topocoll/error.h"

typedef struct tc_interval {
  int64_t lo, hi;
} tc_interval;

typedef struct tc_interval_set {
  int64_t count, room;
  tc_interval *iv;
} tc_interval_set;

void tci_interval_set_init(tc_interval_set *s);
void tci_interval_set_destroy(tc_interval_set *s);
void tci_interval_set_clear(tc_interval_set *s);
/* Add [lo, hi) (lo < hi), merging with overlapping or adjacent intervals. */
int tci_interval_set_add(tc_interval_set *s, int64_t lo, int64_t hi, tc_error *err);
/* Whether any point of [lo, hi) is in the set. */
int tci_interval_set_overlaps(const tc_interval_set *s, int64_t lo, int64_t hi);
/* Whether every point of [lo, hi) is in the set. */
int tci_interval_set_covers(const tc_interval_set *s, int64_t lo, int64_t hi);
/* The maximal sub-ranges of [lo, hi) NOT in the set, in increasing order, appended to
   *gaps (grown with realloc; *ngaps and *room updated). */
int tci_interval_set_gaps(const tc_interval_set *s, int64_t lo, int64_t hi, tc_interval **gaps, int64_t *ngaps,
                         int64_t *room, tc_error *err);

#endif
