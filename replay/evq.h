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

struct evq_run {
  uint64_t key;    /* its date as an integer of the same order */
  uint64_t tie;    /* tie of its first live slot */
  double date;
  evq_slot *v;     /* its slots */
  size_t head, n, cap, live; /* first live slot, slots used, allocated, live */
  size_t heap_idx; /* position in the heap, SIZE_MAX when empty */
  evq_run *next;   /* spare list */
};
/* ---- */

/* Where an item is: embedded in the item; run is NULL when it is in no queue. */
typedef struct evq_pos {
  evq_run *run;
  size_t idx;
} evq_pos;

#define EVQ_CACHE 64 /* runs remembered by date for appending (a power of two) */

typedef struct evq {
  evq_run **heap;            /* the runs holding items, binary heap by (date, first tie) */
  size_t nruns, heap_cap;
  size_t n;                  /* items in the queue */
  evq_run *spare;            /* empty runs (their arrays kept), for reuse */
  size_t nbig;               /* spare runs keeping an array of more than KEEP_SLOTS (evq.c) */
  evq_run **all;             /* every run allocated, freed by evq_free */
  size_t nall, all_cap;
  evq_run *cache[EVQ_CACHE]; /* by a hash of the date: the last run started at it */
} evq;

void evq_init(evq *q);
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
/* An unsigned integer ordered as the (non-NaN) double d: the bits of a positive double
 * grow with it, negatives are reversed below them; -0 counts as +0 (d + 0.0). */
static inline uint64_t evq_date_key(double d) {
  uint64_t b;
  d += 0.0;
  memcpy(&b, &d, sizeof b);
  return b >> 63 ? ~b : b | (uint64_t)1 << 63;
}

static inline size_t evq_cache_slot(uint64_t key) {
  return (size_t)((key * 0x9E3779B97F4A7C15ull) >> 58) & (EVQ_CACHE - 1);
}

/* Appending to the cached run of the same date, after its last slot, with room left, is
 * done here (the common case of same-date bursts); anything else by evq_push_slow. */
static inline void evq_push(evq *q, evq_pos *p, double date, uint64_t tie, void *item) {
  uint64_t key = evq_date_key(date);
  evq_run *r = q->cache[evq_cache_slot(key)];
  if (r && r->heap_idx != SIZE_MAX && r->key == key && r->v[r->n - 1].tie < tie && r->n < r->cap) {
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
