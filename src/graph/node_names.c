/*
** node_names.c — node names -> ids for the networkx readers, and whether a graph's labels
** can serve as names for its writers (node_names.h states the rule).
**
** The table is an open-addressing hash over (is_int, bytes) with FNV-1a, doubled when half
** full, so reading a graph of n names costs O(n) expected time and one copy of the names.
*/
#include "node_names.h"

#include <stdlib.h>
#include <string.h>

static int oom(tc_error *err) { return tc_error_set(err, TC_ENOMEM, "out of memory"); }

static uint64_t hash_name(int is_int, const char *s, size_t len) {
  uint64_t h = 1469598103934665603ULL ^ (uint64_t)(is_int != 0);
  for (size_t i = 0; i < len; i++) h = (h ^ (uint8_t)s[i]) * 1099511628211ULL;
  return h;
}

int tci_node_names_canonical_int(const char *s, size_t len) {
  if (len == 0 || len > 10 || (s[0] == '0' && len > 1)) return 0; /* 10 digits: beyond any id */
  for (size_t i = 0; i < len; i++)
    if (s[i] < '0' || s[i] > '9') return 0;
  return 1;
}

const char *tci_node_names_text(const tci_node_names *t, int32_t i) { return t->text + t->off[i]; }

static int same(const tci_node_names *t, int32_t i, int is_int, const char *s, size_t len) {
  const char *name = tci_node_names_text(t, i);
  return t->is_int[i] == (is_int != 0) && strlen(name) == len && memcmp(name, s, len) == 0;
}

/* The slot of (is_int, s) or the empty slot where it would go. */
static size_t find_slot(const tci_node_names *t, int is_int, const char *s, size_t len) {
  size_t mask = t->slots - 1, k = (size_t)hash_name(is_int, s, len) & mask;
  while (t->slot[k] && !same(t, t->slot[k] - 1, is_int, s, len)) k = (k + 1) & mask;
  return k;
}

static int rehash(tci_node_names *t, size_t slots) {
  int32_t *slot = calloc(slots, sizeof *slot);
  if (!slot) return -1;
  free(t->slot);
  t->slot = slot;
  t->slots = slots;
  for (int32_t i = 0; i < t->n; i++) {
    const char *name = tci_node_names_text(t, i);
    t->slot[find_slot(t, t->is_int[i], name, strlen(name))] = i + 1;
  }
  return 0;
}

static int grow(tci_node_names *t, size_t len, tc_error *err) {
  if (t->n == t->room) {
    int32_t room = t->room ? 2 * t->room : 64;
    if (room > TC_MAX_NODES) room = TC_MAX_NODES;
    size_t *off = realloc(t->off, (size_t)room * sizeof *off);
    if (off) t->off = off;
    uint8_t *is_int = realloc(t->is_int, (size_t)room);
    if (is_int) t->is_int = is_int;
    if (!off || !is_int) return oom(err);
    t->room = room;
  }
  if (t->text_room - t->text_len < len + 1) {
    size_t room = t->text_room ? 2 * t->text_room : 1024;
    while (room - t->text_len < len + 1) room *= 2;
    char *text = realloc(t->text, room);
    if (!text) return oom(err);
    t->text = text;
    t->text_room = room;
  }
  if ((size_t)(t->n + 1) * 2 > t->slots && rehash(t, t->slots ? 2 * t->slots : 128)) return oom(err);
  return TC_OK;
}

int32_t tci_node_names_find(const tci_node_names *t, int is_int, const char *s, size_t len) {
  return t->slots ? t->slot[find_slot(t, is_int, s, len)] - 1 : -1;
}

int tci_node_names_add(tci_node_names *t, int is_int, const char *s, size_t len, int32_t *index, int *added,
                       tc_error *err) {
  *added = 0;
  if ((*index = tci_node_names_find(t, is_int, s, len)) >= 0) return TC_OK;
  if (t->n == TC_MAX_NODES) return tc_error_set(err, TC_EINPUT, "more than %d nodes (the node limit)", TC_MAX_NODES);
  int rc = grow(t, len, err);
  if (rc) return rc;
  memcpy(t->text + t->text_len, s, len);
  t->text[t->text_len + len] = '\0';
  t->off[t->n] = t->text_len;
  t->is_int[t->n] = is_int != 0;
  t->text_len += len + 1;
  t->slot[find_slot(t, is_int, s, len)] = t->n + 1;
  *index = t->n++;
  *added = 1;
  return TC_OK;
}

/* Are the names exactly the integers 0..n-1? They are distinct, so n of them in range
   are all of them. */
static int names_are_ids(const tci_node_names *t) {
  for (int32_t i = 0; i < t->n; i++) {
    const char *name = tci_node_names_text(t, i);
    if (!t->is_int[i] || !tci_node_names_canonical_int(name, strlen(name)) || strtoll(name, NULL, 10) >= t->n)
      return 0;
  }
  return 1;
}

int tci_node_names_ids(const tci_node_names *t, int32_t **id, int *named, tc_error *err) {
  *id = malloc((size_t)(t->n ? t->n : 1) * sizeof **id);
  if (!*id) return oom(err);
  *named = !names_are_ids(t);
  for (int32_t i = 0; i < t->n; i++)
    (*id)[i] = *named ? i : (int32_t)strtoll(tci_node_names_text(t, i), NULL, 10);
  return TC_OK;
}

void tci_node_names_destroy(tci_node_names *t) {
  free(t->text);
  free(t->off);
  free(t->is_int);
  free(t->slot);
  memset(t, 0, sizeof *t);
}

int tci_node_names_usable(const tc_graph *g, int (*accept)(const char *label)) {
  if (!g->label || g->n == 0) return 0;
  for (int32_t u = 0; u < g->n; u++)
    if (!g->label[u] || !accept(g->label[u])) return 0;
  tci_node_names t = {0};
  tc_error err;
  int usable = 1;
  for (int32_t u = 0; usable == 1 && u < g->n; u++) {
    int32_t index;
    int added;
    if (tci_node_names_add(&t, 0, g->label[u], strlen(g->label[u]), &index, &added, &err)) usable = -1;
    else if (!added) usable = 0;
  }
  tci_node_names_destroy(&t);
  return usable;
}
