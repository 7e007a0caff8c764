/* idmap.h - a map from (id, world rank) to a pointer: how the replay finds what a trace names
 * by an id its members agreed on (communicators, one-sided windows). Such an id is unique
 * per member, not in the whole trace (two disjoint communicators may share one), so the key
 * is the pair. Open addressing, at most half full; putting a key again replaces its value. */
#ifndef TIR_IDMAP_H
#define TIR_IDMAP_H

#include <stddef.h>

typedef struct idmap_slot {
  int id, rank;
  void *v; /* NULL: free */
} idmap_slot;

typedef struct idmap {
  idmap_slot *slots;
  size_t cap, n;
} idmap;

/* m starts zeroed (an empty map). */
void idmap_put(idmap *m, int id, int rank, void *v);
/* The value of (id, rank), or NULL. */
void *idmap_get(const idmap *m, int id, int rank);
void idmap_free(idmap *m);

#endif
