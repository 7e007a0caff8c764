/* comm.c - the communicator registry: world, splits and dups, as MPI defines them.
 *
 * A pending creation records, per parent rank, the (color, key) it called with; the
 * last member to arrive builds the new communicators: one per color (ascending), its
 * members ordered by (key, parent rank), exactly MPI_Comm_split's rule. MPI_Comm_dup is
 * a split with one color and the parent rank as key. */
#include "comm.h"

#include "xalloc.h"

#include <stdlib.h>
#include <string.h>

typedef struct pending {
  int parent, seq, arrived;
  int *color, *key; /* per parent rank */
} pending;

struct comm_reg {
  int np;
  comm_t **comms;
  size_t ncomms, cap;
  pending *pend;
  size_t npend, pcap;
};

static comm_t *comm_add(comm_reg *r, int size) {
  comm_t *c = x_calloc(1, sizeof *c);
  c->id = (int)r->ncomms;
  c->size = size;
  c->members = x_malloc((size_t)size * sizeof *c->members);
  c->rank_of = x_malloc((size_t)r->np * sizeof *c->rank_of);
  c->next_seq = x_calloc((size_t)size, sizeof *c->next_seq);
  for (int i = 0; i < r->np; i++)
    c->rank_of[i] = -1;
  x_grow(&r->comms, &r->cap, r->ncomms + 1, sizeof *r->comms);
  r->comms[r->ncomms++] = c;
  return c;
}

comm_reg *comm_reg_new(int np) {
  comm_reg *r = x_calloc(1, sizeof *r);
  r->np = np;
  comm_t *w = comm_add(r, np);
  for (int i = 0; i < np; i++)
    w->members[i] = w->rank_of[i] = i;
  return r;
}

void comm_reg_free(comm_reg *r) {
  if (!r)
    return;
  for (size_t i = 0; i < r->ncomms; i++) {
    free(r->comms[i]->members);
    free(r->comms[i]->rank_of);
    free(r->comms[i]->next_seq);
    free(r->comms[i]);
  }
  for (size_t i = 0; i < r->npend; i++) {
    free(r->pend[i].color);
    free(r->pend[i].key);
  }
  free(r->pend);
  free(r->comms);
  free(r);
}

const comm_t *comm_get(const comm_reg *r, int id) {
  return id >= 0 && (size_t)id < r->ncomms ? r->comms[id] : NULL;
}

static pending *find_pending(comm_reg *r, const comm_t *p, int seq) {
  for (size_t i = 0; i < r->npend; i++)
    if (r->pend[i].parent == p->id && r->pend[i].seq == seq)
      return &r->pend[i];
  x_grow(&r->pend, &r->pcap, r->npend + 1, sizeof *r->pend);
  pending *q = &r->pend[r->npend++];
  *q = (pending){.parent = p->id, .seq = seq};
  q->color = x_malloc((size_t)p->size * sizeof *q->color);
  q->key = x_malloc((size_t)p->size * sizeof *q->key);
  return q;
}

static const pending *sort_ctx;
static int by_key(const void *a, const void *b) {
  int i = *(const int *)a, j = *(const int *)b;
  if (sort_ctx->key[i] != sort_ctx->key[j])
    return sort_ctx->key[i] < sort_ctx->key[j] ? -1 : 1;
  return i - j;
}

/* Builds the communicators of a complete creation q of parent p into out[]. */
static void build(comm_reg *r, const comm_t *p, const pending *q, int *out) {
  int n = p->size, *idx = x_malloc((size_t)n * sizeof *idx);
  for (int i = 0; i < n; i++)
    out[i] = -1;
  for (;;) {
    int color = -1, found = 0; /* smallest color not yet built */
    for (int i = 0; i < n; i++)
      if (q->color[i] >= 0 && out[i] == -1 && (!found || q->color[i] < color))
        color = q->color[i], found = 1;
    if (!found)
      break;
    int m = 0;
    for (int i = 0; i < n; i++)
      if (q->color[i] == color)
        idx[m++] = i;
    sort_ctx = q;
    qsort(idx, (size_t)m, sizeof *idx, by_key);
    comm_t *c = comm_add(r, m);
    p = r->comms[q->parent]; /* comm_add may move the array, not the comm itself */
    for (int k = 0; k < m; k++) {
      c->members[k] = p->members[idx[k]];
      c->rank_of[c->members[k]] = k;
      out[idx[k]] = c->id;
    }
  }
  free(idx);
}

int comm_create_arrive(comm_reg *r, int parent, int crank, int color, int key, int *out) {
  comm_t *p = r->comms[parent];
  pending *q = find_pending(r, p, p->next_seq[crank]++);
  q->color[crank] = color;
  q->key[crank] = key;
  if (++q->arrived < p->size)
    return 0;
  pending done = *q;
  *q = r->pend[--r->npend]; /* remove it before build: build adds communicators only */
  build(r, p, &done, out);
  free(done.color);
  free(done.key);
  return 1;
}
