/* p2p.c - mailboxes, matching and transfers of the MPI point-to-point runtime.
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
 * non-detached send) complete and their owners are woken.
 *
 * smpi/async-small-thresh (A > 0): SimGrid 3.32 gives each rank a second, "small" mailbox
 * whose permanent receiver is the rank itself (Request::start, CommImpl::isend/irecv,
 * MailboxImpl::iprobe). Matching never crosses keys, so each key has three queues here, in
 * three tables: the large mailbox (the table above), the small mailbox's posted receives
 * (small_recv) and its eager sends (small_sent: sends that matched nothing there, whose
 * transfer started at once and that stay queued, running or finished, until a receive takes
 * them). SimGrid's message ids make a receive take only the oldest unmatched send of its key
 * (message number `count'), wherever it is; a send matches a waiting receive only if it is
 * that message itself. Hence the rules (post_send_async, post_recv_async):
 *  - a send below A takes the first receive of the large mailbox if one waits; else the
 *    first receive of the small one if one waits and no older send of the key is unmatched;
 *    else it is eager: its transfer starts now (bytes + 16 from its host to the receiver's)
 *    and it waits in small_sent. Its sender is detached, done at once (the command
 *    line refuses A above send-is-detached-thresh, as SimGrid does).
 *  - a send at or above A uses the large mailbox, as with A = 0 (a receive waiting only in
 *    the small mailbox does not see it: SimGrid's behaviour).
 *  - a receive takes the oldest unmatched send of its key: an eager one completes the
 *    receive at once if its transfer has ended, else when it ends; one in the large mailbox
 *    starts its transfer as with A = 0. With none, a receive below A waits in the small
 *    mailbox, another in the large one.
 *  - a probe sees the oldest unmatched send, eager or not.
 * Sends carry their posting order (seq) to tell which of the two send queues holds the
 * oldest. With A = 0 (the default) only the large table exists and none of this runs. */
#include "p2p.h"

#include "xalloc.h"

#include <float.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct mbox {
  uint64_t key;   /* hash of (dst, src, tag, comm); 0 = free slot */
  p2p_req *tail;  /* the last posted, unmatched request (all sends or all receives); its
                     next is the first one (a circular queue) */
} mbox;

/* An open-addressing table of mailboxes (power-of-two cap, at most half full). */
typedef struct box_table {
  mbox *boxes;
  size_t n, cap;
} box_table;

/* A request as allocated: the public part, then what a send needs while its transfer
 * runs (the send outlives it: the transfer holds a reference on it), so that starting a
 * message allocates nothing, or a group request's messages (a group request makes no
 * transfer). A receive is the public part alone (req_pool). The receive is the send's
 * next: a matched send is in no mailbox queue. */
typedef struct req_block {
  p2p_req r;   /* first: a p2p_req * of this file points to a req_block */
  union {
    struct {   /* a send */
      p2p_world *w;
      double posted; /* the date it was posted (a receive's is not kept: 64 bytes) */
      double start;  /* date both sides were posted */
    };
    struct {   /* a group request (r.group) */
      p2p_req **children; /* its messages */
      int32_t nchildren;
    };
  };
} req_block;

static inline req_block *blk(p2p_req *r) { return (req_block *)r; }
static inline const req_block *cblk(const p2p_req *r) { return (const req_block *)r; }

#define SLAB_N 256
typedef struct slab {
  struct slab *next;
  unsigned char b[]; /* SLAB_N blocks of its pool's size */
} slab;

/* Requests of one block size: req_block (sends, group and owned requests) or p2p_req alone
 * (receives: they never start a transfer nor hold children). */
typedef struct req_pool {
  p2p_req *spare; /* released requests for reuse, linked through next */
  slab *slabs;    /* every request ever allocated, SLAB_N at a time: freeing the world frees
                     them all, those of transfers still running included (a replay stopped
                     early: deadlock, error, truncated traces) */
  size_t size;    /* block size */
  int used;       /* blocks handed out of slabs (the newest) */
} req_pool;

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

/* One host's overhead tables (smpi/os, smpi/ois, smpi/or: its properties, else the
 * settings') and their memos. */
typedef struct host_ov {
  const cfg_table *t[NMEMO];
  cost_memo memo[NMEMO];
} host_ov;

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
  box_table large;      /* the mailboxes (SimGrid's large one with async-small-thresh) */
  box_table *small;     /* async-small-thresh only: [SMALL_RECV] receives, [SMALL_SENT] eager sends */
  long async;           /* smpi/async-small-thresh (0: one mailbox) */
  int64_t send_seq;     /* sends posted (async-small-thresh: their seq) */
  uint64_t messages;
  int unmatched; /* requests posted and not yet matched */
  req_pool reqs[2]; /* [0] req_block, [1] receives (p2p_req) */
  watch *watches;   /* np of them, made by the first p2p_watch */
  int nwatch;       /* watches on */
  cost_memo memo[NMEMO]; /* the last overhead computed per table (smpi/os, ois, or) */
  host_ov *hov;          /* per host (some host has an smpi/os, ois or or property), or NULL */
  cfg_table *hov_tables; /* the tables parsed from properties, nhov_tables of them */
  int nhov_tables, nhosts;
};

enum { SMALL_RECV, SMALL_SENT };

static void rehash(box_table *t);
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
  w->reqs[0].size = sizeof(req_block);
  w->reqs[1].size = sizeof(p2p_req);
  for (int i = 0; i < NMEMO; i++)
    w->memo[i].bytes = INT64_MIN;
  rehash(&w->large); /* the first table: find_box never meets an empty one */
  w->async = c->async_small_thresh;
  if (w->async) {
    w->small = x_calloc(2, sizeof *w->small);
    rehash(&w->small[SMALL_RECV]);
    rehash(&w->small[SMALL_SENT]);
  }
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

static void free_table(p2p_world *w, box_table *t) {
  for (size_t i = 0; i < t->cap; i++)
    if (t->boxes[i].key) {
      p2p_req *head = t->boxes[i].tail->next;
      t->boxes[i].tail->next = NULL;
      free_queue(w, head);
    }
  free(t->boxes);
}

void p2p_free(p2p_world *w) {
  if (!w)
    return;
  free_table(w, &w->large);
  if (w->small) {
    free_table(w, &w->small[SMALL_RECV]);
    free_table(w, &w->small[SMALL_SENT]);
    free(w->small);
  }
  for (int i = 0; i < w->nhov_tables; i++)
    free(w->hov_tables[i].v);
  free(w->hov_tables);
  free(w->hov);
  free(w->watches);
  for (slab *b = w->reqs[0].slabs, *n; b; b = n) { /* the group requests still held: their children */
    n = b->next;
    req_block *t = (req_block *)b->b;
    for (int i = 0; i < (b == w->reqs[0].slabs ? w->reqs[0].used : SLAB_N); i++)
      if (t[i].r.group)
        free(t[i].children); /* (NULL once released: p2p_req_free) */
    free(b);
  }
  for (slab *b = w->reqs[1].slabs, *n; b; b = n) {
    n = b->next;
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

/* Inserts an (absent) mailbox for key: the caller enqueues its first request at once. */
__attribute__((noinline)) /* the cold path, out of get_box */
static mbox *new_box(box_table *t, uint64_t key) {
  if (2 * (t->n + 1) > t->cap)
    rehash(t);
  size_t j = box_slot(key, t->cap);
  while (t->boxes[j].key)
    j = (j + 1) & (t->cap - 1);
  t->n++;
  t->boxes[j] = (mbox){.key = key};
  return &t->boxes[j];
}

static void rehash(box_table *t) {
  size_t ncap = t->cap ? 2 * t->cap : 1024;
  mbox *nb = x_calloc(ncap, sizeof *nb);
  for (size_t i = 0; i < t->cap; i++)
    if (t->boxes[i].key) {
      size_t j = box_slot(t->boxes[i].key, ncap);
      while (nb[j].key)
        j = (j + 1) & (ncap - 1);
      nb[j] = t->boxes[i];
    }
  free(t->boxes);
  t->boxes = nb;
  t->cap = ncap;
}

/* Whether the queue of b holds the requests of (dst, src, tag, comm). */
static inline int box_is(const mbox *b, int dst, int src, int tag, int comm) {
  const p2p_req *r = b->tail;
  return r->dst == dst && r->src == src && r->tag == tag && r->comm == comm;
}

/* The mailbox of (dst, src, tag, comm), NULL if none (no request waits there). */
__attribute__((always_inline)) static inline mbox *find_box(box_table *t, uint64_t key, int dst, int src, int tag,
                                                            int comm) {
  for (size_t j = box_slot(key, t->cap);; j = (j + 1) & (t->cap - 1)) {
    mbox *b = &t->boxes[j];
    if (b->key == key && box_is(b, dst, src, tag, comm))
      return b;
    if (!b->key)
      return NULL;
  }
}

/* Takes the emptied box b out of the table: the entries after it in its probe run move back
 * to fill the hole when their home slot allows. */
static void del_box(box_table *t, mbox *b) {
  size_t mask = t->cap - 1, i = (size_t)(b - t->boxes);
  for (size_t j = (i + 1) & mask; t->boxes[j].key; j = (j + 1) & mask) {
    size_t h = box_slot(t->boxes[j].key, t->cap);
    if (((j - h) & mask) >= ((j - i) & mask)) { /* h is not in (i, j]: it may fill i */
      t->boxes[i] = t->boxes[j];
      i = j;
    }
  }
  t->boxes[i] = (mbox){0};
  t->n--;
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
static p2p_req *dequeue(box_table *t, mbox *b) {
  p2p_req *r = b->tail->next;
  if (r == b->tail)
    del_box(t, b);
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
    w->msg(w->ctx, s, t->posted, t->start, eng_now(w->e));
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

/* MPI_ERR_TRUNCATE: r is smaller than the message s (a replay error). */
__attribute__((noinline)) static void truncated(p2p_world *w, const p2p_req *s, const p2p_req *r) {
  char msg[256];
  snprintf(msg, sizeof msg,
           "message truncated (MPI_ERR_TRUNCATE): rank %d sends %" PRId64 " bytes with tag %d "
           "(line %d) but rank %d posted a receive of %" PRId64 " bytes (line %d)",
           s->src, s->bytes, s->tag, s->line, r->dst, r->bytes, r->line);
  w->error(w->ctx, 0, msg);
}

static void start_transfer(p2p_world *w, p2p_req *s, p2p_req *r) {
  s->matched = r->matched = 1;
  r->real_bytes = s->bytes;
  w->unmatched -= 2;
  if (r->bytes < s->bytes)
    truncated(w, s, r);
  req_block *t = (req_block *)s;
  t->w = w;
  t->start = *w->now;
  s->next = r;
  s->refs++;
  r->refs++;
  w->messages++;
  char err[256];
  if (eng_flow_start(w->e, w->host_of[s->src], w->host_of[r->dst], (double)s->bytes + 16, transfer_done, t,
                     err, sizeof err) < 0) {
    w->error(w->ctx, 1, err);
    s->next = NULL;
    s->refs--;
    r->refs--;
  }
}

/* ====== eager sends (smpi/async-small-thresh) ====== */

/* The end of an eager send's transfer. A receive that took it meanwhile completes as with
 * any message; else the send stays, finished, in small_sent, and a rendez-vous sender is
 * done now (SimGrid answers its wait when the communication ends). */
static void eager_done(void *ctx, eng_act *a) {
  req_block *t = ctx;
  p2p_world *w = t->w;
  p2p_req *s = &t->r;
  s->eager = 2;
  if (s->matched) {
    transfer_done(ctx, a);
    return;
  }
  if (w->msg)
    w->msg(w->ctx, s, t->posted, t->start, eng_now(w->e));
  if (!s->detached) {
    s->complete = 1;
    if (w->wake2) {
      s->done_seq = ++w->ndone;
      w->wake2(w->ctx, NULL, s);
    } else {
      w->wake(w->ctx, s->src);
    }
  }
  release(w, s);
}

/* Starts the transfer of s (queued in small_sent) before any receive: SimGrid's permanent
 * receiver takes it at once. */
static void start_eager(p2p_world *w, p2p_req *s) {
  req_block *t = (req_block *)s;
  t->w = w;
  t->start = *w->now;
  s->eager = 1;
  s->refs++; /* the transfer's */
  w->messages++;
  char err[256];
  if (eng_flow_start(w->e, w->host_of[s->src], w->host_of[s->dst], (double)s->bytes + 16, eager_done, t, err,
                     sizeof err) < 0) {
    w->error(w->ctx, 1, err);
    s->refs--;
  }
}

/* The receive r takes the eager send s (out of small_sent): done at once when s's transfer
 * has ended (SimGrid's irecv finds the communication finished), else when it ends. */
static void take_eager(p2p_world *w, p2p_req *s, p2p_req *r) {
  s->matched = r->matched = 1;
  r->real_bytes = s->bytes;
  w->unmatched -= 2;
  if (r->bytes < s->bytes)
    truncated(w, s, r);
  if (s->eager == 2) {
    r->complete = 1;
    r->detached_sender = s->detached;
    if (w->wake2)
      r->done_seq = ++w->ndone;
    return;
  }
  s->next = r; /* eager_done completes r */
  r->refs++;
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

/* A block of p's size out of its newest slab. */
__attribute__((noinline)) /* the cold path, out of req_new */
static p2p_req *slab_take(req_pool *p) {
  if (!p->slabs || p->used == SLAB_N) {
    slab *b = x_malloc(sizeof *b + SLAB_N * p->size);
    b->next = p->slabs;
    p->slabs = b;
    p->used = 0;
  }
  return (p2p_req *)(p->slabs->b + p->size * (size_t)p->used++);
}

static p2p_req *req_new(p2p_world *w, int src, int dst, int tag, int comm, int64_t bytes, int recv, long line) {
  req_pool *p = &w->reqs[recv]; /* recv: 0 or 1 */
  p2p_req *r = p->spare;
  if (r)
    p->spare = r->next;
  else
    r = slab_take(p);
  *r = (p2p_req){.src = src, .dst = dst, .tag = tag, .comm = comm, .bytes = bytes, .recv = (uint8_t)recv,
                 .refs = 1, .line = line > INT32_MAX ? INT32_MAX : (int32_t)line};
  if (!recv)
    blk(r)->posted = *w->now;
  return r;
}

/* r goes back to its pool's spare list. */
static inline void req_put(p2p_world *w, p2p_req *r) {
  req_pool *p = &w->reqs[r->recv];
  r->next = p->spare;
  p->spare = r;
}

/* ====== posting (smpi/async-small-thresh: the rules at the top of this file) ====== */

/* s takes the first receive of b (in table t) and their transfer starts. */
static p2p_req *send_takes(p2p_world *w, box_table *t, mbox *b, p2p_req *s) {
  p2p_req *r = dequeue(t, b);
  start_transfer(w, s, r);
  release(w, r); /* the mailbox's reference */
  return s;
}

__attribute__((noinline)) static p2p_req *post_send_async(p2p_world *w, p2p_req *s, uint64_t key) {
  int dst = s->dst, src = s->src, tag = s->tag, comm = s->comm;
  s->seq = ++w->send_seq;
  mbox *b = find_box(&w->large, key, dst, src, tag, comm);
  if (b && b->tail->recv)
    return send_takes(w, &w->large, b, s);
  s->refs++; /* the mailbox's reference */
  if (s->bytes < w->async) {
    box_table *rt = &w->small[SMALL_RECV], *st = &w->small[SMALL_SENT];
    mbox *sr = find_box(rt, key, dst, src, tag, comm), *ss = find_box(st, key, dst, src, tag, comm);
    if (sr && !b && !ss) { /* a receive waits there and no older send is unmatched */
      s->refs--;
      return send_takes(w, rt, sr, s);
    }
    enqueue(ss ? ss : new_box(st, key), s);
    start_eager(w, s);
  } else {
    enqueue(b ? b : new_box(&w->large, key), s);
  }
  if (w->nwatch)
    wake_watcher(w, dst, src, tag, comm);
  return s;
}

p2p_req *p2p_post_send(p2p_world *w, int src, int dst, int tag, int comm, int64_t bytes, long line) {
  p2p_req *s = req_new(w, src, dst, tag, comm, bytes, 0, line);
  s->detached = bytes < w->cfg->detached_thresh;
  if (s->detached)
    s->complete = 1;
  uint64_t key = box_key(dst, src, tag, comm);
  w->unmatched++;
  if (__builtin_expect(w->async != 0, 0))
    return post_send_async(w, s, key);
  mbox *b = find_box(&w->large, key, dst, src, tag, comm);
  if (b && b->tail->recv)
    return send_takes(w, &w->large, b, s);
  s->refs++; /* the mailbox's reference */
  enqueue(b ? b : new_box(&w->large, key), s);
  if (w->nwatch)
    wake_watcher(w, dst, src, tag, comm);
  return s;
}

/* The box holding the oldest unmatched send of the key (SimGrid's next message id), NULL if
 * none; *t is its table. */
static mbox *oldest_send(p2p_world *w, uint64_t key, int dst, int src, int tag, int comm, box_table **t) {
  box_table *st = &w->small[SMALL_SENT];
  mbox *ss = find_box(st, key, dst, src, tag, comm), *b = find_box(&w->large, key, dst, src, tag, comm);
  int large = b && !b->tail->recv;
  *t = large ? &w->large : st;
  if (ss && (!large || ss->tail->next->seq < b->tail->next->seq)) {
    *t = st;
    return ss;
  }
  return large ? b : NULL;
}

__attribute__((noinline)) static p2p_req *post_recv_async(p2p_world *w, p2p_req *r, uint64_t key) {
  int dst = r->dst, src = r->src, tag = r->tag, comm = r->comm;
  box_table *t;
  mbox *b = oldest_send(w, key, dst, src, tag, comm, &t);
  if (b) {
    p2p_req *s = dequeue(t, b);
    if (s->eager)
      take_eager(w, s, r);
    else
      start_transfer(w, s, r);
    release(w, s); /* the mailbox's reference */
    return r;
  }
  r->refs++;
  t = r->bytes < w->async ? &w->small[SMALL_RECV] : &w->large;
  b = find_box(t, key, dst, src, tag, comm);
  enqueue(b ? b : new_box(t, key), r);
  return r;
}

p2p_req *p2p_post_recv(p2p_world *w, int src, int dst, int tag, int comm, int64_t bytes, long line) {
  p2p_req *r = req_new(w, src, dst, tag, comm, bytes, 1, line);
  uint64_t key = box_key(dst, src, tag, comm);
  w->unmatched++;
  if (__builtin_expect(w->async != 0, 0))
    return post_recv_async(w, r, key);
  mbox *b = find_box(&w->large, key, dst, src, tag, comm);
  if (b && !b->tail->recv) {
    p2p_req *s = dequeue(&w->large, b);
    start_transfer(w, s, r);
    release(w, s); /* the mailbox's reference */
  } else {
    r->refs++;
    enqueue(b ? b : new_box(&w->large, key), r);
  }
  return r;
}

int64_t p2p_probe(p2p_world *w, int src, int dst, int tag, int comm) {
  uint64_t key = box_key(dst, src, tag, comm);
  if (__builtin_expect(w->async != 0, 0)) { /* SimGrid's iprobe looks at the small mailbox first */
    box_table *t;
    const mbox *b = oldest_send(w, key, dst, src, tag, comm, &t);
    return b ? b->tail->next->bytes : -1;
  }
  const mbox *b = find_box(&w->large, key, dst, src, tag, comm);
  return b && !b->tail->recv ? b->tail->next->bytes : -1;
}

int64_t p2p_probe_mailbox(p2p_world *w, int src, int dst, int tag, int comm, int small) {
  if (!w->async)
    return small ? -1 : p2p_probe(w, src, dst, tag, comm);
  box_table *t;
  const mbox *b = oldest_send(w, box_key(dst, src, tag, comm), dst, src, tag, comm, &t);
  return b && (t != &w->large) == (small != 0) ? b->tail->next->bytes : -1;
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
  blk(g)->children = NULL;
  blk(g)->nchildren = 0;
  return g;
}

void p2p_group_add(p2p_req *g, p2p_req *child) {
  req_block *b = blk(g);
  b->children = x_realloc(b->children, ((size_t)b->nchildren + 1) * sizeof *b->children);
  b->children[b->nchildren++] = child;
}

int p2p_group_done(const p2p_req *r) {
  const req_block *b = cblk(r);
  for (int i = 0; i < b->nchildren; i++)
    if (!b->children[i]->complete)
      return 0;
  return 1;
}

int p2p_group_has(const p2p_req *g, const p2p_req *q) {
  const req_block *b = cblk(g);
  for (int i = 0; i < b->nchildren; i++)
    if (b->children[i] == q)
      return 1;
  return 0;
}

void p2p_req_free(p2p_world *w, p2p_req *r) {
  if (r->group) {
    req_block *b = blk(r);
    for (int i = 0; i < b->nchildren; i++)
      p2p_req_release(w, b->children[i]);
    free(b->children);
    b->children = NULL;
    b->nchildren = 0;
  }
  req_put(w, r);
}

/* p2p_req_release inside this file: a message's requests (no children) go back to the
 * spare list without a call. */
static inline void release(p2p_world *w, p2p_req *r) {
  if (r && --r->refs <= 0) {
    if (r->group)
      p2p_req_free(w, r);
    else
      req_put(w, r);
  }
}

/* ====== overheads (smpi/os, ois, or; per host: p2p_host_overheads) ====== */

static const char *const ov_key[NMEMO] = {"smpi/os", "smpi/ois", "smpi/or"};

/* The settings' table of overhead k. */
static const cfg_table *ov_setting(const config *c, int k) {
  return k == MEMO_OS ? &c->os : k == MEMO_OIS ? &c->ois : &c->orecv;
}

/* Parses host h's property k (value v) into t: overheads finite and >= 0, as the settings
 * (base/config.c, ranges). Returns 0, or -1 with err (t left empty). */
static int host_prop_table(const platform *p, int h, int k, const char *v, cfg_table *t, char *err, size_t errlen) {
  char perr[200];
  *t = (cfg_table){NULL, 0};
  if (cfg_parse_table(t, v, 1, perr, sizeof perr) < 0)
    return x_err(err, errlen, "%s: host %s: property %s=\"%s\": %s", plat_source(p), plat_host_at(p, h)->name,
                 ov_key[k], v, perr);
  for (int i = 0; i < t->n; i++)
    if (!(t->v[i].a >= 0 && t->v[i].b >= 0 && t->v[i].a <= DBL_MAX && t->v[i].b <= DBL_MAX)) {
      free(t->v);
      *t = (cfg_table){NULL, 0};
      return x_err(err, errlen, "%s: host %s: property %s=\"%s\": overheads must be >= 0", plat_source(p),
                   plat_host_at(p, h)->name, ov_key[k], v);
    }
  return 0;
}

/* Parses host h's property k (value v) into a new table of w->hov_tables. */
static int host_table(p2p_world *w, const platform *p, int h, int k, const char *v, char *err, size_t errlen) {
  cfg_table t;
  if (host_prop_table(p, h, k, v, &t, err, errlen) < 0)
    return -1;
  w->hov_tables[w->nhov_tables++] = t;
  w->hov[h].t[k] = &w->hov_tables[w->nhov_tables - 1];
  return 0;
}

int p2p_check_host_overheads(const platform *p, char *err, size_t errlen) {
  for (int h = 0; h < plat_host_count(p); h++)
    for (int k = 0; k < NMEMO; k++) {
      const char *v = plat_host_prop(p, h, ov_key[k]);
      cfg_table t;
      if (v && host_prop_table(p, h, k, v, &t, err, errlen) < 0)
        return -1;
      if (v)
        free(t.v);
    }
  return 0;
}

int p2p_host_overheads(p2p_world *w, const platform *p, char *err, size_t errlen) {
  int nh = plat_host_count(p), n = 0;
  for (int h = 0; h < nh; h++)
    for (int k = 0; k < NMEMO; k++)
      n += plat_host_prop(p, h, ov_key[k]) != NULL;
  if (n == 0)
    return 0;
  w->hov = x_calloc((size_t)nh, sizeof *w->hov);
  w->hov_tables = x_calloc((size_t)n, sizeof *w->hov_tables);
  w->nhosts = nh;
  for (int h = 0; h < nh; h++)
    for (int k = 0; k < NMEMO; k++) {
      const char *v = plat_host_prop(p, h, ov_key[k]);
      w->hov[h].t[k] = ov_setting(w->cfg, k);
      w->hov[h].memo[k].bytes = INT64_MIN;
      if (v && host_table(w, p, h, k, v, err, errlen) < 0)
        return -1;
    }
  return 0;
}

int p2p_no_recv_overhead(const p2p_world *w) {
  if (!cfg_affine_zero(&w->cfg->orecv))
    return 0;
  for (int i = 0; w->hov && i < w->nhosts; i++)
    if (!cfg_affine_zero(w->hov[i].t[MEMO_OR]))
      return 0;
  return 1;
}

/* cfg_affine(t, bytes), remembered for the last size asked (a pure function of it). */
static double overhead(const cfg_table *t, cost_memo *m, int64_t bytes) {
  if (bytes != m->bytes) {
    m->bytes = bytes;
    m->cost = cfg_affine(t, (double)bytes);
  }
  return m->cost;
}

/* Overhead k of size bytes on host h, from its properties. */
static double host_overhead(p2p_world *w, int h, int k, int64_t bytes) {
  host_ov *o = &w->hov[h];
  return overhead(o->t[k], &o->memo[k], bytes);
}

double p2p_send_overhead(p2p_world *w, int src, int64_t bytes, int isend) {
  if (__builtin_expect(w->hov != NULL, 0)) {
    int k = isend ? MEMO_OIS : bytes < w->cfg->detached_thresh ? MEMO_OS : -1;
    return k < 0 ? 0 : host_overhead(w, w->host_of[src], k, bytes);
  }
  if (isend)
    return overhead(&w->cfg->ois, &w->memo[MEMO_OIS], bytes);
  if (bytes < w->cfg->detached_thresh)
    return overhead(&w->cfg->os, &w->memo[MEMO_OS], bytes);
  return 0;
}

double p2p_recv_overhead_of(p2p_world *w, const p2p_req *r) {
  double t = 0;
  if (r->recv && r->detached_sender)
    t = w->hov ? host_overhead(w, w->host_of[r->dst], MEMO_OR, r->real_bytes)
               : overhead(&w->cfg->orecv, &w->memo[MEMO_OR], r->real_bytes);
  /* a group: its receives are finished one after the other */
  for (int i = 0; r->group && i < cblk(r)->nchildren; i++)
    t += p2p_recv_overhead(w, cblk(r)->children[i]);
  return t;
}

int p2p_unmatched(const p2p_world *w) { return w->unmatched; }
uint64_t p2p_messages(const p2p_world *w) { return w->messages; }

/* Reports the requests queued in t (up to 20 in all, *shown so far). */
static void report_table(const box_table *t, const char *what, FILE *out, int *shown) {
  for (size_t i = 0; i < t->cap && *shown < 20; i++) {
    const mbox *b = &t->boxes[i];
    const p2p_req *r = b->key ? b->tail->next : NULL;
    for (; r && *shown < 20; r = r == b->tail ? NULL : r->next, ++*shown)
      fprintf(out, "  unmatched %s%s: rank %d -> rank %d, tag %d, %" PRId64 " bytes (trace line %d)\n",
              r->recv ? "receive" : "send", r->eager ? what : "", r->src, r->dst, r->tag, r->bytes, r->line);
  }
}

void p2p_report_unmatched(const p2p_world *w, FILE *out) {
  int shown = 0;
  report_table(&w->large, "", out, &shown);
  if (w->small) {
    report_table(&w->small[SMALL_RECV], "", out, &shown);
    report_table(&w->small[SMALL_SENT], " (eager, never received)", out, &shown);
  }
  if (w->unmatched > shown)
    fprintf(out, "  ... and %d more\n", w->unmatched - shown);
}
