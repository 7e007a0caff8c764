/* evq.c - the engine's event queue: a binary heap of runs of same-date items (evq.h).
 *
 * Invariants: a run is in the heap iff it holds a live item (live > 0); its slots
 * [head, n) are sorted by strictly increasing tie (holes: item NULL), slot head is
 * live, and tie is that slot's tie; every slot of a run has the run's date. Runs are
 * ordered by (date, tie), so the heap's top run's head is the first item. Costs: push
 * O(1) when it appends to a run, else O(log runs); removing an item O(1), plus O(log runs)
 * when it was its run's head or last item. Memory: a run is 64 bytes (its first slot in
 * place), one cache line of a line-aligned chunk of EVQ_CHUNK, plus 8 in the heap; a run
 * that grows moves its slots to an array of its own. Runs are never freed, only recycled:
 * an empty run keeps its array for the next burst only within a budget (KEEP_SLOTS), since
 * a desynchronised alltoall leaves tens of thousands of small ones (8 % of the peak RSS on
 * issue 15's 512-rank mix with 4 ranks a host when every one kept its array). */
#include "evq.h"

#include "xalloc.h"

#include <stdlib.h>
#include <string.h>

#define KEEP_SLOTS 32 /* up to EVQ_KEEP_SMALL empty runs keep an array of up to this many
                         slots (a stencil's bursts recur), the others free theirs, */
#define KEEP_BIG 4 /* and up to KEEP_BIG spare runs keep one of up to KEEP_BIG_SLOTS (a */
#define KEEP_BIG_SLOTS 4096 /* burst of same-date items recurs: no regrowing it each time) */
#define EVQ_CHUNK 256 /* runs per allocated chunk */

_Static_assert(sizeof(evq_run) == 64, "a run is one cache line (evq.h)");

void evq_store_init(evq_store *st) { memset(st, 0, sizeof *st); }

void evq_store_free(evq_store *st) {
  for (size_t i = 0; i < st->nchunks; i++) {
    size_t used = i + 1 < st->nchunks ? EVQ_CHUNK : st->chunk_used;
    for (size_t j = 0; j < used; j++)
      if (st->chunks[i][j].v != &st->chunks[i][j].one)
        free(st->chunks[i][j].v);
    free(st->chunks[i]);
  }
  free(st->chunks);
  memset(st, 0, sizeof *st);
}

void evq_init(evq *q, evq_store *st) {
  memset(q, 0, sizeof *q);
  if (!st) {
    st = x_malloc(sizeof *st);
    evq_store_init(st);
    q->own_store = 1;
  }
  q->store = st;
}

static void run_drop(evq *q, evq_run *r);

void evq_free(evq *q) {
  for (size_t i = 0; i < q->nruns; i++)
    run_drop(q, q->heap[i]);
  if (q->own_store) {
    evq_store_free(q->store);
    free(q->store);
  }
  free(q->heap);
  memset(q, 0, sizeof *q);
}

/* ====== the heap of runs, by (date, tie) ====== */

static int run_before(const evq_run *a, const evq_run *b) {
  return a->date < b->date || (a->date == b->date && a->tie < b->tie);
}

static void heap_set(evq *q, size_t i, evq_run *r) {
  q->heap[i] = r;
  r->heap_idx = (uint32_t)i;
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
  if (q->nruns >= EVQ_OUT - 1) /* (4 G runs: 256 GiB of them; positions are 32-bit) */
    x_oom();
  if (q->nruns == q->heap_cap)
    x_grow(&q->heap, &q->heap_cap, q->nruns + 1, sizeof *q->heap);
  heap_set(q, q->nruns++, r);
  sift_up(q, r->heap_idx);
}

static void heap_del(evq *q, evq_run *r) {
  size_t i = r->heap_idx;
  r->heap_idx = EVQ_OUT;
  evq_run *last = q->heap[--q->nruns];
  if (i == q->nruns)
    return;
  heap_set(q, i, last);
  sift_up(q, i);
  sift_down(q, last->heap_idx);
}

/* ====== runs ====== */

/* A fresh run from st's last chunk (a new chunk when it is full). */
static evq_run *run_alloc(evq_store *st) {
  if (st->nchunks == 0 || st->chunk_used == EVQ_CHUNK) {
    x_grow(&st->chunks, &st->chunks_cap, st->nchunks + 1, sizeof *st->chunks);
    st->chunks[st->nchunks++] = x_malloc_lines(EVQ_CHUNK * sizeof **st->chunks);
    st->chunk_used = 0;
  }
  evq_run *r = &st->chunks[st->nchunks - 1][st->chunk_used++];
  r->v = &r->one;
  r->cap = 1;
  return r;
}

static evq_run *run_new(evq_store *st, double date, uint64_t tie) {
  evq_run *r = st->spare;
  if (r) {
    st->spare = r->next;
    if (r->cap > KEEP_SLOTS)
      st->nbig--;
    else if (r->cap > 1)
      st->nsmall--;
  } else {
    r = run_alloc(st);
  }
  r->date = date;
  r->tie = tie;
  r->head = r->n = r->live = 0;
  r->heap_idx = EVQ_OUT;
  return r;
}

static void run_recycle(evq_store *st, evq_run *r) {
  r->heap_idx = EVQ_OUT;
  if (r->cap > 1) {
    int big = r->cap > KEEP_SLOTS;
    size_t *kept = big ? &st->nbig : &st->nsmall;
    if (r->cap <= KEEP_BIG_SLOTS && *kept < (big ? KEEP_BIG : EVQ_KEEP_SMALL))
      ++*kept;
    else { /* a large burst's array, or enough kept: not kept (memory) */
      free(r->v);
      r->v = &r->one;
      r->cap = 1;
    }
  }
  r->next = st->spare;
  st->spare = r;
}

/* q's empty run r goes back to the store, and out of q's cache: the store may hand it to
 * another queue, whose pushes must not reach it from q. */
static void run_drop(evq *q, evq_run *r) {
  evq_run **c = &q->cache[evq_cache_slot(r->date)];
  if (*c == r)
    *c = NULL;
  run_recycle(q->store, r);
}

/* r's slots move to an array of twice their number (4 from the one in place). */
static void run_grow(evq_run *r) {
  if (r->cap >= EVQ_OUT / 2) /* (2 G slots in one run: 32 GiB) */
    x_oom();
  if (r->v == &r->one) {
    r->v = x_malloc(4 * sizeof *r->v);
    r->v[0] = r->one;
    r->cap = 4;
  } else {
    r->cap *= 2;
    r->v = x_realloc(r->v, r->cap * sizeof *r->v);
  }
}

static inline void run_append(evq *q, evq_run *r, evq_pos *p, uint64_t tie, void *item) {
  if (r->n == r->cap)
    run_grow(r);
  r->v[r->n] = (evq_slot){tie, item};
  p->run = r;
  p->idx = r->n++;
  r->live++;
  q->n++;
}

/* ====== the queue ====== */

void evq_push_slow(evq *q, evq_pos *p, double date, uint64_t tie, void *item) {
  evq_run **c = &q->cache[evq_cache_slot(date)], *r = *c;
  if (r && r->heap_idx != EVQ_OUT && r->date == date && r->v[r->n - 1].tie < tie) {
    run_append(q, r, p, tie, item); /* after its last slot: the run keeps its place */
    return;
  }
  r = *c = run_new(q->store, date, tie);
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
    run_drop(q, r);
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
