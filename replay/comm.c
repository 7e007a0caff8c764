/* comm.c - the communicator registry: MPI_COMM_WORLD and the communicators a trace creates.
 *
 * Ids are the trace's (agreed by the members at trace time, unique per member: the key is
 * (id, world rank), idmap.h); each communicator stores its members and the inverse map
 * (O(np) memory per communicator, O(1) rank translation: collectives translate every peer). */
#include "comm.h"

#include "idmap.h"
#include "xalloc.h"

#include <stdlib.h>
#include <string.h>

struct comm_reg {
  int np;
  idmap map;    /* (id, member) -> its communicator */
  comm_t **all; /* every communicator, for freeing */
  size_t nall, acap;
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

static void keep(comm_reg *r, comm_t *c) {
  x_grow(&r->all, &r->acap, r->nall + 1, sizeof *r->all);
  r->all[r->nall++] = c;
  for (int i = 0; i < c->size; i++)
    idmap_put(&r->map, c->id, c->members[i], c);
}

comm_reg *comm_reg_new(int np) {
  comm_reg *r = x_calloc(1, sizeof *r);
  r->np = np;
  comm_t *w = comm_alloc(np, 0, np);
  for (int i = 0; i < np; i++)
    w->members[i] = w->rank_of[i] = i;
  keep(r, w);
  return r;
}

void comm_reg_free(comm_reg *r) {
  if (!r)
    return;
  for (size_t i = 0; i < r->nall; i++) {
    free(r->all[i]->members);
    free(r->all[i]->rank_of);
    free(r->all[i]);
  }
  free(r->all);
  idmap_free(&r->map);
  free(r);
}

const comm_t *comm_get(const comm_reg *r, int id, int rank) { return idmap_get(&r->map, id, rank); }

int comm_register(comm_reg *r, int id, const int64_t *w, int size, char *err, size_t errlen) {
  for (int i = 0; i < size; i++)
    if (w[i] < 0 || w[i] >= r->np)
      return x_err(err, errlen, "communicator %d: world rank %d does not exist", id, (int)w[i]);
  const comm_t *old = NULL;
  for (int i = 0; i < size && !old; i++)
    old = comm_get(r, id, (int)w[i]);
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
    if (c->rank_of[w[i]] >= 0) {
      int bad = (int)w[i];
      free(c->members);
      free(c->rank_of);
      free(c);
      return x_err(err, errlen, "communicator %d: world rank %d is listed twice", id, bad);
    }
    c->members[i] = (int)w[i];
    c->rank_of[w[i]] = i;
  }
  keep(r, c);
  return 0;
}
