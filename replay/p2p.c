/* p2p.c - mailboxes, matching and transfers of the MPI point-to-point runtime.
 *
 * Mailboxes are FIFO queues per (receiver, source, tag) in one open-addressing hash
 * table: a posted send first looks for the oldest matching posted receive, a posted
 * receive for the oldest matching posted send, so matching is O(1) and respects MPI's
 * non-overtaking rule. A queue holds only sends or only receives at any time.
 * A matched pair becomes one flow in the engine; when it completes, the receive (and a
 * non-detached send) complete and their owners are woken. */
#include "p2p.h"

#include "xalloc.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct mbox {
  uint64_t key;          /* hash of (dst, src, tag, comm); 0 = free slot */
  int32_t dst, src, tag, comm;
  p2p_req *head, *tail;  /* posted, unmatched requests, all sends or all receives */
  int watch;             /* the receiver waits for a send to arrive here (p2p_watch) */
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
  rehash(w); /* the first table: get_box never meets an empty one */
  return w;
}

void p2p_set_message_fn(p2p_world *w, p2p_msg_fn fn) { w->msg = fn; }
void p2p_set_wake2_fn(p2p_world *w, p2p_wake2_fn fn) { w->wake2 = fn; }

void p2p_free(p2p_world *w) {
  if (!w)
    return;
  free(w->boxes);
  for (slab *b = w->slabs, *n; b; b = n) { /* the group requests still held: their children */
    n = b->next;
    for (int i = 0; i < (b == w->slabs ? w->slab_used : SLAB_N); i++)
      free(b->b[i].r.children); /* (NULL once released: p2p_req_free) */
    free(b);
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

/* Inserts the (absent) mailbox of (dst, src, tag, comm). */
__attribute__((noinline)) /* the cold path, out of get_box */
static mbox *new_box(p2p_world *w, uint64_t key, int dst, int src, int tag, int comm) {
  if (2 * (w->nboxes + 1) > w->cap)
    rehash(w);
  size_t j = box_slot(key, w->cap);
  while (w->boxes[j].key)
    j = (j + 1) & (w->cap - 1);
  w->nboxes++;
  w->boxes[j] = (mbox){.key = key, .dst = dst, .src = src, .tag = tag, .comm = comm};
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

/* The mailbox of (dst, src, tag, comm), created empty if it does not exist. */
__attribute__((always_inline)) static inline mbox *get_box(p2p_world *w, int dst, int src, int tag, int comm) {
  uint64_t key = box_key(dst, src, tag, comm);
  for (size_t j = box_slot(key, w->cap);; j = (j + 1) & (w->cap - 1)) {
    mbox *b = &w->boxes[j];
    if (b->key == key && b->dst == dst && b->src == src && b->tag == tag && b->comm == comm)
      return b;
    if (!b->key)
      break;
  }
  return new_box(w, key, dst, src, tag, comm);
}

static void enqueue(mbox *b, p2p_req *r) {
  r->next = NULL;
  if (b->tail)
    b->tail->next = r;
  else
    b->head = r;
  b->tail = r;
}

static p2p_req *dequeue(mbox *b) {
  p2p_req *r = b->head;
  b->head = r->next;
  if (!b->head)
    b->tail = NULL;
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
  mbox *b = get_box(w, dst, src, tag, comm);
  w->unmatched++;
  if (b->head && b->head->recv) {
    p2p_req *r = dequeue(b);
    start_transfer(w, s, r);
    release(w, r); /* the mailbox's reference */
  } else {
    s->refs++; /* the mailbox's reference */
    enqueue(b, s);
    if (b->watch) {
      b->watch = 0;
      w->wake(w->ctx, dst);
    }
  }
  return s;
}

p2p_req *p2p_post_recv(p2p_world *w, int src, int dst, int tag, int comm, int64_t bytes, long line) {
  p2p_req *r = req_new(w, src, dst, tag, comm, bytes, 1, line);
  mbox *b = get_box(w, dst, src, tag, comm);
  w->unmatched++;
  if (b->head && !b->head->recv) {
    p2p_req *s = dequeue(b);
    start_transfer(w, s, r);
    release(w, s); /* the mailbox's reference */
  } else {
    r->refs++;
    enqueue(b, r);
  }
  return r;
}

int64_t p2p_probe(p2p_world *w, int src, int dst, int tag, int comm) {
  mbox *b = get_box(w, dst, src, tag, comm);
  return b->head && !b->head->recv ? b->head->bytes : -1;
}

int p2p_watch(p2p_world *w, int src, int dst, int tag, int comm) {
  mbox *b = get_box(w, dst, src, tag, comm);
  if (b->head && !b->head->recv)
    return 1;
  b->watch = 1;
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
  free(r->children);
  r->children = NULL;
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
    for (const p2p_req *r = b->key ? b->head : NULL; r && shown < 20; r = r->next, shown++)
      fprintf(out, "  unmatched %s: rank %d -> rank %d, tag %d, %" PRId64 " bytes (trace line %ld)\n",
              r->recv ? "receive" : "send", r->src, r->dst, r->tag, r->bytes, r->line);
  }
  if (w->unmatched > shown)
    fprintf(out, "  ... and %d more\n", w->unmatched - shown);
}
