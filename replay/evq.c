/* evq.c - the engine's event queue: a binary heap of runs of same-date items (evq.h).
 *
 * Invariants: a run is in the heap iff it holds a live item (live > 0); its slots
 * [head, n) are sorted by strictly increasing tie (holes: item NULL), slot head is
 * live, and tie is that slot's tie; every slot of a run has the run's date. Runs are
 * ordered by (key, tie), key being the date as an integer of the same order, so the
 * heap's top run's head is the first item. Costs: push O(1) when it appends to a run,
 * else O(log runs); removing an item O(1), plus O(log runs) when it was its run's head
 * or last item. */
#include "evq.h"

#include "xalloc.h"

#include <stdlib.h>
#include <string.h>

#define KEEP_SLOTS 32 /* an empty run keeps an array of up to this many slots, */
#define KEEP_BIG 4 /* and up to KEEP_BIG spare runs keep one of up to KEEP_BIG_SLOTS (a */
#define KEEP_BIG_SLOTS 4096 /* burst of same-date items recurs: no regrowing it each time) */

void evq_init(evq *q) { memset(q, 0, sizeof *q); }

void evq_free(evq *q) {
  for (size_t i = 0; i < q->nall; i++) {
    free(q->all[i]->v);
    free(q->all[i]);
  }
  free(q->all);
  free(q->heap);
  memset(q, 0, sizeof *q);
}

/* ====== the heap of runs, by (key, tie) ====== */

static int run_before(const evq_run *a, const evq_run *b) {
  return a->key < b->key || (a->key == b->key && a->tie < b->tie);
}

static void heap_set(evq *q, size_t i, evq_run *r) {
  q->heap[i] = r;
  r->heap_idx = i;
}

static void sift_up(evq *q, size_t i) {
  evq_run *r = q->heap[i];
  while (i > 0 && run_before(r, q->heap[(i - 1) / 2])) {
    heap_set(q, i, q->heap[(i - 1) / 2]);
    i = (i - 1) / 2;
  }
  heap_set(q, i, r);
}

static void sift_down(evq *q, size_t i) {
  evq_run *r = q->heap[i];
  for (;;) {
    size_t c = 2 * i + 1;
    if (c >= q->nruns)
      break;
    if (c + 1 < q->nruns && run_before(q->heap[c + 1], q->heap[c]))
      c++;
    if (!run_before(q->heap[c], r))
      break;
    heap_set(q, i, q->heap[c]);
    i = c;
  }
  heap_set(q, i, r);
}

static void heap_add(evq *q, evq_run *r) {
  if (q->nruns == q->heap_cap)
    x_grow(&q->heap, &q->heap_cap, q->nruns + 1, sizeof *q->heap);
  heap_set(q, q->nruns++, r);
  sift_up(q, r->heap_idx);
}

static void heap_del(evq *q, evq_run *r) {
  size_t i = r->heap_idx;
  r->heap_idx = SIZE_MAX;
  evq_run *last = q->heap[--q->nruns];
  if (i == q->nruns)
    return;
  heap_set(q, i, last);
  sift_up(q, i);
  sift_down(q, last->heap_idx);
}

/* ====== runs ====== */

static evq_run *run_new(evq *q, uint64_t key, double date, uint64_t tie) {
  evq_run *r = q->spare;
  if (r) {
    q->spare = r->next;
    if (r->cap > KEEP_SLOTS)
      q->nbig--;
  } else {
    r = x_calloc(1, sizeof *r);
    x_grow(&q->all, &q->all_cap, q->nall + 1, sizeof *q->all);
    q->all[q->nall++] = r;
  }
  r->key = key;
  r->date = date;
  r->tie = tie;
  r->head = r->n = r->live = 0;
  r->heap_idx = SIZE_MAX;
  return r;
}

static void run_recycle(evq *q, evq_run *r) {
  if (r->cap > KEEP_SLOTS) {
    if (r->cap <= KEEP_BIG_SLOTS && q->nbig < KEEP_BIG)
      q->nbig++;
    else { /* a large burst's array, or enough kept: not kept (memory) */
      free(r->v);
      r->v = NULL;
      r->cap = 0;
    }
  }
  r->next = q->spare;
  q->spare = r;
}

static inline void run_append(evq *q, evq_run *r, evq_pos *p, uint64_t tie, void *item) {
  if (r->n == r->cap) { /* from 2 slots: most runs of a solver-driven replay hold one item */
    r->cap = r->cap ? 2 * r->cap : 2;
    r->v = x_realloc(r->v, r->cap * sizeof *r->v);
  }
  r->v[r->n] = (evq_slot){tie, item};
  p->run = r;
  p->idx = r->n++;
  r->live++;
  q->n++;
}

/* ====== the queue ====== */

void evq_push_slow(evq *q, evq_pos *p, double date, uint64_t tie, void *item) {
  uint64_t key = evq_date_key(date);
  evq_run **c = &q->cache[evq_cache_slot(key)], *r = *c;
  if (r && r->heap_idx != SIZE_MAX && r->key == key && r->v[r->n - 1].tie < tie) {
    run_append(q, r, p, tie, item); /* after its last slot: the run's key is unchanged */
    return;
  }
  r = *c = run_new(q, key, date, tie);
  run_append(q, r, p, tie, item);
  heap_add(q, r);
}

void evq_remove(evq *q, evq_pos *p) {
  evq_run *r = p->run;
  if (!r)
    return;
  r->v[p->idx].item = NULL;
  p->run = NULL;
  q->n--;
  if (--r->live == 0) {
    heap_del(q, r);
    run_recycle(q, r);
    return;
  }
  if (p->idx != r->head)
    return;
  while (!r->v[r->head].item)
    r->head++;
  r->tie = r->v[r->head].tie; /* later: the run moves down, if it must */
  size_t c = 2 * r->heap_idx + 1;
  if (c < q->nruns && (run_before(q->heap[c], r) || (c + 1 < q->nruns && run_before(q->heap[c + 1], r))))
    sift_down(q, r->heap_idx);
}
