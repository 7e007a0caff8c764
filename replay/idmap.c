/* idmap.c - the (id, world rank) -> pointer map (idmap.h): linear probing in a power-of-two
 * table kept at most half full, doubled when it would pass that. */
#include "idmap.h"

#include "xalloc.h"

#include <stdlib.h>

static size_t hash(int id, int rank, size_t cap) {
  return (((size_t)(unsigned)id * 2654435761u) ^ ((size_t)(unsigned)rank * 40503u)) & (cap - 1);
}

static idmap_slot *find(const idmap *m, int id, int rank) {
  if (!m->cap)
    return NULL;
  for (size_t j = hash(id, rank, m->cap); m->slots[j].v; j = (j + 1) & (m->cap - 1))
    if (m->slots[j].id == id && m->slots[j].rank == rank)
      return &m->slots[j];
  return NULL;
}

static void grow(idmap *m) {
  idmap_slot *old = m->slots;
  size_t ocap = m->cap;
  m->cap = m->cap ? 2 * m->cap : 1024;
  m->slots = x_calloc(m->cap, sizeof *m->slots);
  m->n = 0;
  for (size_t i = 0; i < ocap; i++)
    if (old[i].v)
      idmap_put(m, old[i].id, old[i].rank, old[i].v);
  free(old);
}

void idmap_put(idmap *m, int id, int rank, void *v) {
  idmap_slot *s = find(m, id, rank);
  if (s) {
    s->v = v;
    return;
  }
  if (2 * (m->n + 1) > m->cap)
    grow(m);
  size_t j = hash(id, rank, m->cap);
  while (m->slots[j].v)
    j = (j + 1) & (m->cap - 1);
  m->slots[j] = (idmap_slot){id, rank, v};
  m->n++;
}

void *idmap_get(const idmap *m, int id, int rank) {
  const idmap_slot *s = find(m, id, rank);
  return s ? s->v : NULL;
}

void idmap_free(idmap *m) {
  free(m->slots);
  *m = (idmap){0};
}
