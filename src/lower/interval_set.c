/*
** interval_set.c — sorted disjoint intervals; see interval_set.h.
*/
#include "lower/interval_set.h"

#include <stdlib.h>
#include <string.h>

void tci_interval_set_init(tc_interval_set *s) { memset(s, 0, sizeof *s); }

void tci_interval_set_destroy(tc_interval_set *s) {
  free(s->iv);
  memset(s, 0, sizeof *s);
}

void tci_interval_set_clear(tc_interval_set *s) { s->count = 0; }

/* Index of the first interval whose hi >= x (so it may touch a range starting at x). */
static int64_t first_reaching(const tc_interval_set *s, int64_t x) {
  int64_t a = 0, b = s->count;
  while (a < b) {
    int64_t mid = a + (b - a) / 2;
    if (s->iv[mid].hi < x) a = mid + 1;
    else b = mid;
  }
  return a;
}

int tci_interval_set_add(tc_interval_set *s, int64_t lo, int64_t hi, tc_error *err) {
  int64_t i = first_reaching(s, lo), j = i;
  /* Intervals i..j-1 overlap or touch [lo, hi): merge them into one. */
  while (j < s->count && s->iv[j].lo <= hi) {
    if (s->iv[j].lo < lo) lo = s->iv[j].lo;
    if (s->iv[j].hi > hi) hi = s->iv[j].hi;
    j++;
  }
  if (j > i) {
    s->iv[i] = (tc_interval){lo, hi};
    memmove(&s->iv[i + 1], &s->iv[j], sizeof *s->iv * (size_t)(s->count - j));
    s->count -= j - i - 1;
    return TC_OK;
  }
  if (s->count == s->room) {
    int64_t room = s->room ? 2 * s->room : 8;
    tc_interval *iv = realloc(s->iv, sizeof *iv * (size_t)room);
    if (!iv) return tc_error_set(err, TC_ENOMEM, "out of memory tracking chunk intervals");
    s->iv = iv;
    s->room = room;
  }
  memmove(&s->iv[i + 1], &s->iv[i], sizeof *s->iv * (size_t)(s->count - i));
  s->iv[i] = (tc_interval){lo, hi};
  s->count++;
  return TC_OK;
}

int tci_interval_set_overlaps(const tc_interval_set *s, int64_t lo, int64_t hi) {
  int64_t i = first_reaching(s, lo + 1); /* first interval with hi > lo */
  return i < s->count && s->iv[i].lo < hi;
}

int tci_interval_set_covers(const tc_interval_set *s, int64_t lo, int64_t hi) {
  int64_t i = first_reaching(s, lo + 1);
  return i < s->count && s->iv[i].lo <= lo && s->iv[i].hi >= hi;
}

int tci_interval_set_gaps(const tc_interval_set *s, int64_t lo, int64_t hi, tc_interval **gaps, int64_t *ngaps,
                         int64_t *room, tc_error *err) {
  int64_t at = lo;
  for (int64_t i = first_reaching(s, lo + 1); at < hi; i++) {
    int64_t next = (i < s->count && s->iv[i].lo < hi) ? s->iv[i].lo : hi;
    if (next > at) {
      if (*ngaps == *room) {
        int64_t r = *room ? 2 * *room : 8;
        tc_interval *g = realloc(*gaps, sizeof *g * (size_t)r);
        if (!g) return tc_error_set(err, TC_ENOMEM, "out of memory tracking chunk intervals");
        *gaps = g;
        *room = r;
      }
      (*gaps)[(*ngaps)++] = (tc_interval){at, next};
    }
    if (i >= s->count || s->iv[i].lo >= hi) break;
    at = s->iv[i].hi;
  }
  return TC_OK;
}
