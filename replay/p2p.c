/* mpi.c - mailboxes, matching and transfers of the MPI point-to-point runtime.
 *
 * Mailboxes are FIFO queues per (receiver, source, tag) in one open-addressing hash
 * table: a posted send first looks for the oldest matching posted receive, a posted
 * receive for the oldest matching posted send, so matching is O(1) and respects MPI's
 * non-overtaking rule. A queue holds only sends or only receives at any time. A mailbox
 * exists only while its queue is not empty (an alltoall of n ranks makes n^2 of them, most
 * gone a moment later): an emptied one leaves the table at once (backward-shift deletion,
 * no tombstones), and its key (receiver, source, tag, communicator) is read from the
 * requests it holds; the queue is circular through the requests' next, the box keeps its
 * last one (16 bytes a box).
 * A matched pair becomes one flow in the engine; when it completes, the receive (and a
 * non-detached send) complete and their owners are woken. */
#include "p2p.h"

#include "xalloc.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct mbox {
  uint64_t key;   /* hash of (dst, src, tag, comm); 0 = free slot */
  p2p_req *tail;  /* the last posted, unmatched request (all sends or all receives); its
                     next is the first one (a circular queue) */
} mbox;

/* A request as allocated: the public part, then what a send needs while its transfer
 * runs (the send outlives it: the transfer holds a reference on it), so that starting a
 * message allocates nothing. The receive is the send's next: a matched send is in no
 * mailbox queue. */
typedef struct req_block {
  p2p_req r;   /* first: a p2p_req * of this file points to a req_block */
  p2p_world *w;
  double start; /* date both sides were posted */
} req_block;

#define SLAB_N 256
typedef struct slab {
  struct slab *next;
  req_block b[SLAB_N];
} slab;

/* A rank at the end of a polling run (tir/polling:wait) waits for a send of (src, tag, comm)
 * to arrive in its mailbox, which need not exist yet: one watch per rank at most. */
typedef struct watch {
  int32_t src, tag, comm, on;
} watch;

typedef struct cost_memo {
  int64_t bytes; /* INT64_MIN: none */
  double cost;
} cost_memo;

enum { MEMO_OS, MEMO_OIS, MEMO_OR, NMEMO };

struct p2p_world {
  eng *e;
  const double *now; /* the engine's clock (eng_clock) */
  const config *cfg;
  int np;
  const int *host_of;
  p2p_wake_fn wake;
  p2p_wake2_fn wake2; /* tir/simgrid-compat: both owners of a message, in SimGrid's order */
  uint64_t ndone;     /* messages completed so far (their done_seq) */
  p2p_error_fn error;
  p2p_msg_fn msg;
  void *ctx;
  mbox *boxes;
  size_t nboxes, cap;
  uint64_t messages;
  int unmatched; /* requests posted and not yet matched */
  p2p_req *spare; /* released requests (req_block) for reuse, linked through next */
  struct slab *slabs; /* every request ever allocated, SLAB_N at a time: freeing the world frees
                         them all, those of transfers still running included (a replay stopped
                         early: deadlock, error, truncated traces) */
  int slab_used;      /* blocks handed out of slabs (the newest) */
  watch *watches;   /* np of them, made by the first p2p_watch */
  int nwatch;       /* watches on */
  cost_memo memo[NMEMO]; /* the last overhead computed per table (smpi/os, ois, or) */
};

static void rehash(p2p_world *w);
static inline void release(p2p_world *w, p2p_req *r);

p2p_world *p2p_new(eng *e, const config *c, int np, const int *host_of, p2p_wake_fn wake,
                   p2p_error_fn error, void *ctx) {
  p2p_world *w = x_calloc(1, sizeof *w);
  w->e = e;
  w->now = eng_clock(e);
  w->cfg = c;
  w->np = np;
  w->host_of = host_of;
  w->wake = wake;
  w->error = error;
  w->ctx = ctx;
  for (int i = 0; i < NMEMO; i++)
    w->memo[i].bytes = INT64_MIN;
  rehash(w); /* the first table: find_box never meets an empty one */
  return w;
}

void p2p_set_message_fn(p2p_world *w, p2p_msg_fn fn) { w->msg = fn; }
void p2p_set_wake2_fn(p2p_world *w, p2p_wake2_fn fn) { w->wake2 = fn; }

static void free_queue(p2p_world *w, p2p_req *r) {
  while (r) {
    p2p_req *n = r->next;
    p2p_req_release(w, r);
    r = n;
  }
}

void p2p_free(p2p_world *w) {
  if (!w)
    return;
  for (size_t i = 0; i < w->cap; i++)
    if (w->boxes[i].key) {
      p2p_req *head = w->boxes[i].tail->next;
      w->boxes[i].tail->next = NULL;
      free_queue(w, head);
    }
  free(w->boxes);
  free(w->watches);
  while (w->slabs) {
    slab *n = w->slabs->next;
    free(w->slabs);
    w->slabs = n;
  }
  free(w);
}

/* ====== mailbox table ====== */

/* Hash of a mailbox's key, never 0 (0 marks a free slot); its high bits give the slot. */
static uint64_t box_key(int dst, int src, int tag, int comm) {
  uint64_t k = (uint64_t)(uint32_t)dst * 0x9E3779B97F4A7C15ull ^ (uint64_t)(uint32_t)src * 0xC2B2AE3D27D4EB4Full ^
               (uint64_t)(uint32_t)tag * 0x165667B19E3779F9ull ^ (uint64_t)(uint32_t)comm * 0xD6E8FEB86659FD93ull;
  k ^= k >> 29;
  return k * 0xFF51AFD7ED558CCDull | 1;
}

/* Home slot of key in a table of cap (a power of two) slots: the product's high bits. */
static size_t box_slot(uint64_t key, size_t cap) { return (size_t)(key >> 32) & (cap - 1); }

/* Inserts an (absent) mailbox for key: the caller enqueues its first request at once. */
__attribute__((noinline)) /* the cold path, out of get_box */
static mbox *new_box(p2p_world *w, uint64_t key) {
  if (2 * (w->nboxes + 1) > w->cap)
    rehash(w);
  size_t j = box_slot(key, w->cap);
  while (w->boxes[j].key)
    j = (j + 1) & (w->cap - 1);
  w->nboxes++;
  w->boxes[j] = (mbox){.key = key};
  return &w->boxes[j];
}

static void rehash(p2p_world *w) {
  size_t ncap = w->cap ? 2 * w->cap : 1024;
  mbox *nb = x_calloc(ncap, sizeof *nb);
  for (size_t i = 0; i < w->cap; i++)
    if (w->boxes[i].key) {
      size_t j = box_slot(w->boxes[i].key, ncap);
      while (nb[j].key)
        j = (j + 1) & (ncap - 1);
      nb[j] = w->boxes[i];
    }
  free(w->boxes);
  w->boxes = nb;
  w->cap = ncap;
}

/* Whether the queue of b holds the requests of (dst, src, tag, comm). */
static inline int box_is(const mbox *b, int dst, int src, int tag, int comm) {
  const p2p_req *r = b->tail;
  return r->dst == dst && r->src == src && r->tag == tag && r->comm == comm;
}

/* The mailbox of (dst, src, tag, comm), NULL if none (no request waits there). */
__attribute__((always_inline)) static inline mbox *find_box(p2p_world *w, uint64_t key, int dst, int src, int tag,
                                                            int comm) {
  for (size_t j = box_slot(key, w->cap);; j = (j + 1) & (w->cap - 1)) {
    mbox *b = &w->boxes[j];
    if (b->key == key && box_is(b, dst, src, tag, comm))
      return b;
    if (!b->key)
      return NULL;
  }
}

/* Takes the emptied box b out of the table: the entries after it in its probe run move back
 * to fill the hole when their home slot allows. */
static void del_box(p2p_world *w, mbox *b) {
  size_t mask = w->cap - 1, i = (size_t)(b - w->boxes);
  for (size_t j = (i + 1) & mask; w->boxes[j].key; j = (j + 1) & mask) {
    size_t h = box_slot(w->boxes[j].key, w->cap);
    if (((j - h) & mask) >= ((j - i) & mask)) { /* h is not in (i, j]: it may fill i */
      w->boxes[i] = w->boxes[j];
      i = j;
    }
  }
  w->boxes[i] = (mbox){0};
  w->nboxes--;
}

static void enqueue(mbox *b, p2p_req *r) {
  if (b->tail) {
    r->next = b->tail->next;
    b->tail->next = r;
  } else {
    r->next = r;
  }
  b->tail = r;
}

/* The first request of b's queue; b leaves the table when that was the last. */
static p2p_req *dequeue(p2p_world *w, mbox *b) {
  p2p_req *r = b->tail->next;
  if (r == b->tail)
    del_box(w, b);
  else
    b->tail->next = r->next;
  r->next = NULL;
  return r;
}

/* ====== transfers ====== */

static void transfer_done(void *ctx, eng_act *a) {
  (void)a;
  req_block *t = ctx;
  p2p_world *w = t->w;
  p2p_req *s = &t->r, *r = s->next;
  if (w->msg)
    w->msg(w->ctx, s, t->start, eng_now(w->e));
  r->complete = 1;
  r->detached_sender = s->detached;
  if (!s->detached)
    s->complete = 1;
  if (w->wake2) /* tir/simgrid-compat */
    r->done_seq = s->done_seq = ++w->ndone;
  if (w->wake2)
    w->wake2(w->ctx, r, s->detached ? NULL : s);
  else {
    w->wake(w->ctx, r->dst);
    if (!s->detached)
      w->wake(w->ctx, s->src);
  }
  s->next = NULL;
  release(w, r);
  release(w, s);
}

static void start_transfer(p2p_world *w, p2p_req *s, p2p_req *r) {
  s->matched = r->matched = 1;
  r->real_bytes = s->bytes;
  w->unmatched -= 2;
  if (r->bytes < s->bytes) {
    char msg[256];
    snprintf(msg, sizeof msg,
             "message truncated (MPI_ERR_TRUNCATE): rank %d sends %" PRId64 " bytes with tag %d "
             "(line %ld) but rank %d posted a receive of %" PRId64 " bytes (line %ld)",
             s->src, s->bytes, s->tag, s->line, r->dst, r->bytes, r->line);
    w->error(w->ctx, 0, msg);
  }
  req_block *t = (req_block *)s;
  t->w = w;
  t->start = *w->now;
  s->next = r;
  s->refs++;
  r->refs++;
  w->messages++;
  char err[256];
  if (!eng_flow_start(w->e, w->host_of[s->src], w->host_of[r->dst], (double)s->bytes + 16,
                      transfer_done, t, err, sizeof err)) {
    w->error(w->ctx, 1, err);
    s->next = NULL;
    s->refs--;
    r->refs--;
  }
}

/* Wakes dst if it watches (src, tag, comm): a send just arrived there. */
static void wake_watcher(p2p_world *w, int dst, int src, int tag, int comm) {
  watch *v = &w->watches[dst];
  if (v->on && v->src == src && v->tag == tag && v->comm == comm) {
    v->on = 0;
    w->nwatch--;
    w->wake(w->ctx, dst);
  }
}

static p2p_req *req_new(p2p_world *w, int src, int dst, int tag, int comm, int64_t bytes, int recv, long line) {
  p2p_req *r = w->spare;
  if (r) {
    w->spare = r->next;
  } else {
    if (!w->slabs || w->slab_used == SLAB_N) {
      slab *b = x_malloc(sizeof *b);
      b->next = w->slabs;
      w->slabs = b;
      w->slab_used = 0;
    }
    r = &w->slabs->b[w->slab_used++].r;
  }
  *r = (p2p_req){.src = src, .dst = dst, .tag = tag, .comm = comm, .bytes = bytes, .recv = (uint8_t)recv,
                 .refs = 1, .line = line, .posted = *w->now};
  return r;
}

p2p_req *p2p_post_send(p2p_world *w, int src, int dst, int tag, int comm, int64_t bytes, long line) {
  p2p_req *s = req_new(w, src, dst, tag, comm, bytes, 0, line);
  s->detached = bytes < w->cfg->detached_thresh;
  if (s->detached)
    s->complete = 1;
  uint64_t key = box_key(dst, src, tag, comm);
  mbox *b = find_box(w, key, dst, src, tag, comm);
  w->unmatched++;
  if (b && b->tail->recv) {
    p2p_req *r = dequeue(w, b);
    start_transfer(w, s, r);
    release(w, r); /* the mailbox's reference */
  } else {
    s->refs++; /* the mailbox's reference */
    enqueue(b ? b : new_box(w, key), s);
    if (w->nwatch)
      wake_watcher(w, dst, src, tag, comm);
  }
  return s;
}

p2p_req *p2p_post_recv(p2p_world *w, int src, int dst, int tag, int comm, int64_t bytes, long line) {
  p2p_req *r = req_new(w, src, dst, tag, comm, bytes, 1, line);
  uint64_t key = box_key(dst, src, tag, comm);
  mbox *b = find_box(w, key, dst, src, tag, comm);
  w->unmatched++;
  if (b && !b->tail->recv) {
    p2p_req *s = dequeue(w, b);
    start_transfer(w, s, r);
    release(w, s); /* the mailbox's reference */
  } else {
    r->refs++;
    enqueue(b ? b : new_box(w, key), r);
  }
  return r;
}

int64_t p2p_probe(p2p_world *w, int src, int dst, int tag, int comm) {
  const mbox *b = find_box(w, box_key(dst, src, tag, comm), dst, src, tag, comm);
  return b && !b->tail->recv ? b->tail->next->bytes : -1;
}

int p2p_watch(p2p_world *w, int src, int dst, int tag, int comm) {
  if (p2p_probe(w, src, dst, tag, comm) >= 0)
    return 1;
  if (!w->watches)
    w->watches = x_calloc((size_t)w->np, sizeof *w->watches);
  w->nwatch += !w->watches[dst].on;
  w->watches[dst] = (watch){.src = src, .tag = tag, .comm = comm, .on = 1};
  return 0;
}

p2p_req *p2p_req_new_owned(p2p_world *w, int rank, long line) { return req_new(w, rank, rank, 0, 0, 0, 0, line); }

void p2p_req_finish(p2p_world *w, p2p_req *r) {
  r->complete = 1;
  w->wake(w->ctx, r->src);
}

p2p_req *p2p_group_new(p2p_world *w, int rank, long line) {
  p2p_req *g = req_new(w, rank, rank, 0, 0, 0, 0, line);
  g->group = 1;
  return g;
}

void p2p_group_add(p2p_req *g, p2p_req *child) {
  g->children = x_realloc(g->children, ((size_t)g->nchildren + 1) * sizeof *g->children);
  g->children[g->nchildren++] = child;
}

int p2p_group_done(const p2p_req *r) {
  for (int i = 0; i < r->nchildren; i++)
    if (!r->children[i]->complete)
      return 0;
  return 1;
}

void p2p_req_free(p2p_world *w, p2p_req *r) {
  for (int i = 0; i < r->nchildren; i++)
    p2p_req_release(w, r->children[i]);
  if (r->children)
    free(r->children);
  r->next = w->spare;
  w->spare = r;
}

/* p2p_req_release inside this file: a message's requests (no children) go back to the
 * spare list without a call. */
static inline void release(p2p_world *w, p2p_req *r) {
  if (r && --r->refs <= 0) {
    if (r->children)
      p2p_req_free(w, r);
    else {
      r->next = w->spare;
      w->spare = r;
    }
  }
}

/* cfg_affine(t, bytes), remembered for the last size asked (a pure function of it). */
static double overhead(const cfg_table *t, cost_memo *m, int64_t bytes) {
  if (bytes != m->bytes) {
    m->bytes = bytes;
    m->cost = cfg_affine(t, (double)bytes);
  }
  return m->cost;
}

double p2p_send_overhead(p2p_world *w, int64_t bytes, int isend) {
  if (isend)
    return overhead(&w->cfg->ois, &w->memo[MEMO_OIS], bytes);
  if (bytes < w->cfg->detached_thresh)
    return overhead(&w->cfg->os, &w->memo[MEMO_OS], bytes);
  return 0;
}

double p2p_recv_overhead_of(p2p_world *w, const p2p_req *r) {
  double t = r->recv && r->detached_sender ? overhead(&w->cfg->orecv, &w->memo[MEMO_OR], r->real_bytes) : 0;
  for (int i = 0; i < r->nchildren; i++) /* a group: its receives are finished one after the other */
    t += p2p_recv_overhead(w, r->children[i]);
  return t;
}

int p2p_unmatched(const p2p_world *w) { return w->unmatched; }
uint64_t p2p_messages(const p2p_world *w) { return w->messages; }

void p2p_report_unmatched(const p2p_world *w, FILE *out) {
  int shown = 0;
  for (size_t i = 0; i < w->cap && shown < 20; i++) {
    const mbox *b = &w->boxes[i];
    const p2p_req *r = b->key ? b->tail->next : NULL;
    for (; r && shown < 20; r = r == b->tail ? NULL : r->next, shown++)
      fprintf(out, "  unmatched %s: rank %d -> rank %d, tag %d, %" PRId64 " bytes (trace line %ld)\n",
              r->recv ? "receive" : "send", r->src, r->dst, r->tag, r->bytes, r->line);
  }
  if (w->unmatched > shown)
    fprintf(out, "  ... and %d more\n", w->unmatched - shown);
}
