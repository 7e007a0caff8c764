/* evq.h - the engine's event queue: items ordered by (date, tie), ties all distinct.
 *
 * Built for simulations in which many events fall on the same date (synchronised
 * ranks: a stencil's messages all end together): items of one date pushed in
 * increasing tie order share a "run", an array appended to in O(1) and popped from its
 * front, and only the runs are kept in a binary heap, keyed by (date, tie of their
 * first item). An item pushed out of tie order, or whose date has no run at hand,
 * starts a run of its own, so with all dates distinct this is a binary heap with one
 * item per run. Removing an item leaves a hole in its run (items never move), so an
 * item's handle (evq_pos) stays valid until it leaves the queue.
 *
 * The order in which items leave is the total order of (date, tie) whatever the runs:
 * the same as any other priority queue's for distinct ties. Dates must not be NaN. */
#ifndef TIR_EVQ_H
#define TIR_EVQ_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

typedef struct evq_run evq_run;

/* ---- private to evq.c (here for evq_top, inline) ---- */
typedef struct evq_slot {
  uint64_t tie;
  void *item; /* NULL: removed */
} evq_slot;

/* 64 bytes: with all dates distinct (a desynchronised replay's flows) there is one run per
 * item, so a run holds its first slot itself. */
struct evq_run {
  double date;       /* its date (of its first push: -0 and +0 share a run) */
  union {
    uint64_t tie;    /* in the heap: tie of its first live slot */
    evq_run *next;   /* spare: the next spare run */
  };
  evq_slot *v;       /* its slots: &one while it has room for one only (cap 1) */
  uint32_t head, n, cap, live; /* first live slot, slots used, allocated, live */
  uint32_t heap_idx; /* position in the heap, EVQ_OUT when in none */
  evq_slot one;      /* the slot of a run of one */
};
#define EVQ_OUT UINT32_MAX

/* ---- */

/* Where an item is: embedded in the item; run is NULL when it is in no queue. */
typedef struct evq_pos {
  evq_run *run;
  size_t idx;
} evq_pos;

/* Empty runs that keep a small array of slots for reuse, at most (evq.c "KEEP_SLOTS"). */
#define EVQ_KEEP_SMALL 4096

#define EVQ_CACHE 64 /* runs remembered by date for appending (a power of two) */

/* Where runs come from and go back to: the queues of one engine share one (its levels' queues
 * and the main one), so that the runs one queue no longer needs serve the others. */
typedef struct evq_store {
  evq_run *spare;            /* empty runs (their arrays kept), for reuse */
  size_t nbig;               /* spare runs keeping an array of more than KEEP_SLOTS (evq.c) */
  size_t nsmall;             /* spare runs keeping a smaller array (EVQ_KEEP_SMALL at most) */
  evq_run **chunks;          /* the runs, allocated EVQ_CHUNK at a time (evq.c) */
  size_t nchunks, chunks_cap, chunk_used; /* (runs used in the last chunk) */
} evq_store;

typedef struct evq {
  evq_run **heap;            /* the runs holding items, binary heap by (date, first tie) */
  size_t nruns, heap_cap;
  size_t n;                  /* items in the queue */
  evq_store *store;          /* where its runs come from and go back to */
  int own_store;             /* store is its own (evq_init without one) */
  evq_run *cache[EVQ_CACHE]; /* by a hash of the date: the last run started at it */
} evq;

void evq_store_init(evq_store *st);
/* Frees every run of st (after the queues using it). */
void evq_store_free(evq_store *st);
/* An empty queue taking its runs from st (NULL: a store of its own). */
void evq_init(evq *q, evq_store *st);
/* Frees q; its runs go back to its store. */
void evq_free(evq *q);

/* Adds item (not in the queue) at (date, tie); p is its handle. */
static inline void evq_push(evq *q, evq_pos *p, double date, uint64_t tie, void *item);
void evq_push_slow(evq *q, evq_pos *p, double date, uint64_t tie, void *item); /* evq.c */
/* Removes the item whose handle is p (nothing if it is in no queue). */
void evq_remove(evq *q, evq_pos *p);
/* The first item and its date; NULL when the queue is empty. */
static inline void *evq_top(const evq *q, double *date) {
  if (q->nruns == 0)
    return NULL;
  const evq_run *r = q->heap[0];
  *date = r->date;
  return r->v[r->head].item;
}

/* The first item's (date, tie), without loading the item (its slot nor the item itself:
 * a queue that only schedules reads its run); 0 when the queue is empty. */
static inline int evq_top_key(const evq *q, double *date, uint64_t *tie) {
  if (q->nruns == 0)
    return 0;
  const evq_run *r = q->heap[0];
  *date = r->date;
  *tie = r->tie;
  return 1;
}

static inline int evq_queued(const evq_pos *p) { return p->run != NULL; }

/* ---- private: the inline fast path of evq_push ---- */

/* The cache slot of date d (-0 and +0 share one: they share a run). */
static inline size_t evq_cache_slot(double d) {
  uint64_t b;
  d += 0.0;
  memcpy(&b, &d, sizeof b);
  return (size_t)((b * 0x9E3779B97F4A7C15ull) >> 58) & (EVQ_CACHE - 1);
}

/* Appending to the cached run of the same date, after its last slot, with room left, is
 * done here (the common case of same-date bursts); anything else by evq_push_slow. */
static inline void evq_push(evq *q, evq_pos *p, double date, uint64_t tie, void *item) {
  evq_run *r = q->cache[evq_cache_slot(date)];
  if (r && r->heap_idx != EVQ_OUT && r->date == date && r->v[r->n - 1].tie < tie && r->n < r->cap) {
    r->v[r->n] = (evq_slot){tie, item};
    p->run = r;
    p->idx = r->n++;
    r->live++;
    q->n++;
    return;
  }
  evq_push_slow(q, p, date, tie, item);
}

#endif
