/* comm.c - the communicator registry: MPI_COMM_WORLD and the communicators a trace creates.
 *
 * Ids are the trace's (agreed by the members at trace time), kept in an open-addressing
 * table; each communicator stores its members and the inverse map (O(np) memory per
 * communicator, O(1) rank translation: collectives translate every peer). */
#include "comm.h"

#include "xalloc.h"

#include <stdlib.h>
#include <string.h>

struct comm_reg {
  int np;
  comm_t **slots; /* open addressing by id */
  size_t cap, n;
};

static comm_t *comm_alloc(int np, int id, int size) {
  comm_t *c = x_calloc(1, sizeof *c);
  c->id = id;
  c->size = size;
  c->members = x_malloc((size_t)size * sizeof *c->members);
  c->rank_of = x_malloc((size_t)np * sizeof *c->rank_of);
  for (int i = 0; i < np; i++)
    c->rank_of[i] = -1;
  return c;
}

static void insert(comm_reg *r, comm_t *c);

static void grow(comm_reg *r) {
  comm_t **old = r->slots;
  size_t ocap = r->cap;
  r->cap = r->cap ? 2 * r->cap : 64;
  r->slots = x_calloc(r->cap, sizeof *r->slots);
  r->n = 0;
  for (size_t i = 0; i < ocap; i++)
    if (old[i])
      insert(r, old[i]);
  free(old);
}

static void insert(comm_reg *r, comm_t *c) {
  if (2 * (r->n + 1) > r->cap)
    grow(r);
  size_t j = ((size_t)c->id * 2654435761u) & (r->cap - 1);
  while (r->slots[j])
    j = (j + 1) & (r->cap - 1);
  r->slots[j] = c;
  r->n++;
}

comm_reg *comm_reg_new(int np) {
  comm_reg *r = x_calloc(1, sizeof *r);
  r->np = np;
  comm_t *w = comm_alloc(np, 0, np);
  for (int i = 0; i < np; i++)
    w->members[i] = w->rank_of[i] = i;
  insert(r, w);
  return r;
}

void comm_reg_free(comm_reg *r) {
  if (!r)
    return;
  for (size_t i = 0; i < r->cap; i++)
    if (r->slots[i]) {
      free(r->slots[i]->members);
      free(r->slots[i]->rank_of);
      free(r->slots[i]);
    }
  free(r->slots);
  free(r);
}

const comm_t *comm_get(const comm_reg *r, int id) {
  if (!r->cap)
    return NULL;
  for (size_t j = ((size_t)id * 2654435761u) & (r->cap - 1); r->slots[j]; j = (j + 1) & (r->cap - 1))
    if (r->slots[j]->id == id)
      return r->slots[j];
  return NULL;
}

int comm_register(comm_reg *r, int id, const int64_t *w, int size, char *err, size_t errlen) {
  const comm_t *old = comm_get(r, id);
  if (old) {
    if (old->size != size)
      return x_err(err, errlen, "communicator %d was created with %d members, here with %d", id, old->size, size);
    for (int i = 0; i < size; i++)
      if (old->members[i] != w[i])
        return x_err(err, errlen, "communicator %d: member %d is world rank %d here, %d where it was created", id,
                     i, (int)w[i], old->members[i]);
    return 0;
  }
  comm_t *c = comm_alloc(r->np, id, size);
  for (int i = 0; i < size; i++) {
    if (w[i] < 0 || w[i] >= r->np || c->rank_of[w[i]] >= 0) {
      int bad = (int)w[i];
      free(c->members);
      free(c->rank_of);
      free(c);
      return x_err(err, errlen, "communicator %d: world rank %d %s", id, bad,
                   bad < 0 || bad >= r->np ? "does not exist" : "is listed twice");
    }
    c->members[i] = (int)w[i];
    c->rank_of[w[i]] = i;
  }
  insert(r, c);
  return 0;
}
