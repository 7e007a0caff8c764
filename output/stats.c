/* stats.c - the statistics observer behind the report's per-rank, per-kind and
 * per-region figures (stats.h).
 *
 * Every action with a category (observer.h) adds its duration to its rank (compute,
 * point-to-point or collective; a wait also to `wait`), to its kind, and to the innermost
 * region of its rank. A wait belongs to what it completes: isend/irecv requests (p2p: a
 * halo exchange's time is in its waitall), or a non-blocking collective (its request key
 * has a negative tag); waitall counts as point-to-point. Collectives are also counted per
 * communicator (kind, communicator), in order of first call, so that sub-communicator
 * collectives are told apart from MPI_COMM_WORLD's. Regions nest per rank (region pushes, region_end pops); a region still open at
 * the end of the replay closes then. Region names are looked up linearly: O(regions)
 * per region entry, fine for the tens of regions applications mark. */
#include "stats.h"

#include "xalloc.h"

#include <stdlib.h>
#include <string.h>

/* Open regions of one rank. */
typedef struct stats_open {
  size_t *id;     /* region indices, innermost last */
  double *since;  /* entry times */
  size_t cap;
} stats_open;

stats *stats_new(void) { return x_calloc(1, sizeof(stats)); }

void stats_free(stats *s) {
  if (!s)
    return;
  for (int i = 0; i < s->np; i++)
    free(s->open[i].id), free(s->open[i].since);
  free(s->open);
  for (size_t i = 0; i < s->nregions; i++)
    free(s->regions[i].name);
  free(s->regions);
  free(s->colls);
  free(s->ranks);
  free(s);
}

int stats_is_collective(trace_op op) { return op >= TRACE_BARRIER && op <= TRACE_EXSCAN; }

static void on_start(void *ctx, int np, const int *host_of) {
  stats *s = ctx;
  (void)host_of;
  if (s->ranks)
    return;
  s->np = np;
  s->ranks = x_calloc((size_t)(np > 0 ? np : 1), sizeof *s->ranks);
  s->open = x_calloc((size_t)(np > 0 ? np : 1), sizeof *s->open);
}

/* A wait or test completing a non-blocking collective: its request key is (R, R, -k). */
static int nbc_wait(const trace_action *a) { return (a->op == TRACE_WAIT || a->op == TRACE_TEST) && a->tag < 0; }

/* The (kind, communicator) entry of a collective, added at its first call. */
static stats_coll *coll_entry(stats *s, const trace_action *a) {
  for (size_t i = 0; i < s->ncolls; i++)
    if (s->colls[i].op == a->op && s->colls[i].comm == a->comm)
      return &s->colls[i];
  x_grow(&s->colls, &s->colls_cap, s->ncolls + 1, sizeof *s->colls);
  stats_coll *c = &s->colls[s->ncolls++];
  *c = (stats_coll){.op = a->op, .comm = a->comm, .size = a->comm_size};
  return c;
}

static void on_action_end(void *ctx, int rank, const trace_action *a, int category, double start, double now) {
  stats *s = ctx;
  if (category < 0 || rank < 0 || rank >= s->np || (unsigned)a->op >= TRACE_NOPS)
    return;
  double d = now - start;
  stats_rank *r = &s->ranks[rank];
  if (category == 0)
    r->compute += d;
  else if (stats_is_collective(a->op) || nbc_wait(a))
    r->coll += d;
  else
    r->p2p += d;
  if (category == 2)
    r->wait += d;
  if (stats_is_collective(a->op)) {
    stats_coll *c = coll_entry(s, a);
    c->calls++;
    c->time += d;
  }
  s->kinds[a->op].calls++;
  s->kinds[a->op].time += d;
  if (r->depth) {
    stats_region *g = &s->regions[s->open[rank].id[r->depth - 1]];
    if (category == 0)
      g->compute += d;
    else
      g->mpi += d;
  }
}

static size_t region_index(stats *s, const char *name) {
  for (size_t i = 0; i < s->nregions; i++)
    if (!strcmp(s->regions[i].name, name))
      return i;
  x_grow(&s->regions, &s->regions_cap, s->nregions + 1, sizeof *s->regions);
  stats_region *g = &s->regions[s->nregions];
  memset(g, 0, sizeof *g);
  g->name = x_strdup(name);
  return s->nregions++;
}

static void region_leave(stats *s, int rank, double now) {
  stats_rank *r = &s->ranks[rank];
  if (r->depth == 0)
    return;
  r->depth--;
  s->regions[s->open[rank].id[r->depth]].time += now - s->open[rank].since[r->depth];
}

static void on_region(void *ctx, int rank, const char *name, double now) {
  stats *s = ctx;
  if (rank < 0 || rank >= s->np)
    return;
  if (!name) {
    region_leave(s, rank, now);
    return;
  }
  stats_rank *r = &s->ranks[rank];
  stats_open *o = &s->open[rank];
  if (r->depth == o->cap) {
    o->cap = o->cap ? 2 * o->cap : 4;
    o->id = x_realloc(o->id, o->cap * sizeof *o->id);
    o->since = x_realloc(o->since, o->cap * sizeof *o->since);
  }
  size_t g = region_index(s, name);
  s->regions[g].entries++;
  o->id[r->depth] = g;
  o->since[r->depth++] = now;
}

static void on_message(void *ctx, int src, int dst, int tag, int64_t bytes, double posted, double start,
                       double end) {
  stats *s = ctx;
  (void)tag, (void)posted, (void)start, (void)end;
  if (src >= 0 && src < s->np)
    s->ranks[src].msgs_sent++, s->ranks[src].bytes_sent += (uint64_t)bytes;
  if (dst >= 0 && dst < s->np)
    s->ranks[dst].msgs_recv++, s->ranks[dst].bytes_recv += (uint64_t)bytes;
}

static void on_finish(void *ctx, double now) {
  stats *s = ctx;
  for (int i = 0; i < s->np; i++)
    while (s->ranks[i].depth)
      region_leave(s, i, now);
}

void stats_observer(stats *s, replay_observer *o) {
  memset(o, 0, sizeof *o);
  o->ctx = s;
  o->start = on_start;
  o->action_end = on_action_end;
  o->region = on_region;
  o->message = on_message;
  o->finish = on_finish;
}
