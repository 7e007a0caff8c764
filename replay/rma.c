/* rma.c - windows, one-sided operations and their completion and lock waits (rma.h).
 *
 * A window holds, per member (by communicator rank): as an origin, its operations not yet
 * complete (a list, and their count); as a target, the lock of its part of the window (the
 * holders, and the requests waiting in FIFO order); and its PSCW groups. A rank blocks in at
 * most one of these waits at a time, so what it waits for is kept per rank (`waits`): a
 * completing operation decrements its origin's counts and wakes the origin when the wait is
 * over; a released lock grants the requests at the head of its queue that fit (one
 * exclusive, or a run of shared ones) and wakes them. Windows are found by (WIN, world rank),
 * as communicators are (idmap.h). */
#include "rma.h"

#include "idmap.h"
#include "xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct rma_op rma_op;

typedef struct lock_req { /* a lock request waiting in a target's queue */
  int origin, excl;
  struct lock_req *next;
} lock_req;

typedef struct wlock { /* the lock of one member's part of a window */
  int excl;            /* held exclusively */
  int shared;          /* shared holders */
  lock_req *head, *tail;
} wlock;

typedef struct wmember {
  int64_t npend;  /* its operations (as an origin) not complete */
  rma_op *pend;   /* them, newest first */
  int *group[2];  /* PSCW groups: post's, start's (world ranks) */
  int ngroup[2];
  int state;      /* M_NONE, M_LIVE, M_FREED */
} wmember;

enum { M_NONE, M_LIVE, M_FREED };

typedef struct rma_win {
  int id, size;
  const comm_t *cm;   /* its members (the communicator registry outlives the windows) */
  wmember *m; /* by communicator rank */
  wlock *lk;  /* by communicator rank */
} rma_win;

struct rma_op {
  rma_world *rw;
  rma_win *w;
  int origin, target; /* world ranks */
  int back;           /* a transfer target -> origin follows the current one */
  int64_t rbytes;
  p2p_req *req;       /* completed with the operation (request-based forms), or NULL */
  rma_op *prev, *next;
};

enum { W_NONE, W_ALL, W_WIN, W_TARGET }; /* what a rank's completion wait covers */

typedef struct rank_wait {
  int64_t npend;     /* the rank's operations not complete, every window */
  int kind;          /* W_* */
  rma_win *win;      /* W_WIN, W_TARGET */
  int target;        /* W_TARGET (world rank) */
  int64_t left;      /* W_TARGET: those operations still running */
  int lock_queued;   /* its lock request waits in a queue */
} rank_wait;

struct rma_world {
  eng *e;
  p2p_world *p2p;
  int np;
  const int *host_of;
  rma_wake_fn wake;
  rma_error_fn error;
  void *ctx;
  rank_wait *waits;  /* by world rank */
  idmap map;         /* (WIN, world rank) -> window */
  rma_win **all;     /* every window, for freeing */
  size_t nall, acap;
  int64_t pending;
};

rma_world *rma_new(eng *e, p2p_world *w, int np, const int *host_of, rma_wake_fn wake, rma_error_fn error,
                   void *ctx) {
  rma_world *rw = x_calloc(1, sizeof *rw);
  *rw = (rma_world){.e = e, .p2p = w, .np = np, .host_of = host_of, .wake = wake, .error = error, .ctx = ctx};
  rw->waits = x_calloc((size_t)np, sizeof *rw->waits);
  return rw;
}

static void win_free_all(rma_win *w) {
  for (int i = 0; i < w->size; i++) {
    for (rma_op *op = w->m[i].pend, *nx; op; op = nx) {
      nx = op->next;
      free(op); /* a deadlocked replay: its transfers never ended (their actions are freed with the engine) */
    }
    free(w->m[i].group[0]);
    free(w->m[i].group[1]);
    for (lock_req *q = w->lk[i].head, *nx; q; q = nx) {
      nx = q->next;
      free(q);
    }
  }
  free(w->m);
  free(w->lk);
  free(w);
}

void rma_free(rma_world *rw) {
  if (!rw)
    return;
  for (size_t i = 0; i < rw->nall; i++)
    win_free_all(rw->all[i]);
  free(rw->all);
  idmap_free(&rw->map);
  free(rw->waits);
  free(rw);
}

/* ====== the windows ====== */

static rma_win *find(const rma_world *rw, int id, int rank) { return idmap_get(&rw->map, id, rank); }

/* rank's member entry of its live window id, or NULL. */
static wmember *live_member(const rma_world *rw, int id, int rank, rma_win **w) {
  *w = find(rw, id, rank);
  if (!*w || (*w)->cm->rank_of[rank] < 0)
    return NULL;
  wmember *m = &(*w)->m[(*w)->cm->rank_of[rank]];
  return m->state == M_LIVE ? m : NULL;
}

static rma_win *new_window(rma_world *rw, int id, const comm_t *cm) {
  rma_win *w = x_calloc(1, sizeof *w);
  w->id = id;
  w->size = cm->size;
  w->cm = cm;
  w->m = x_calloc((size_t)cm->size, sizeof *w->m);
  w->lk = x_calloc((size_t)cm->size, sizeof *w->lk);
  x_grow(&rw->all, &rw->acap, rw->nall + 1, sizeof *rw->all);
  rw->all[rw->nall++] = w;
  for (int i = 0; i < cm->size; i++) /* replacing an older window of that name */
    idmap_put(&rw->map, id, cm->members[i], w);
  return w;
}

int rma_win_create(rma_world *rw, int win, const comm_t *cm, int rank, char *err, size_t errlen) {
  rma_win *w = find(rw, win, rank);
  wmember *m = w && w->cm->rank_of[rank] >= 0 ? &w->m[w->cm->rank_of[rank]] : NULL;
  if (m && m->state == M_LIVE)
    return x_err(err, errlen, "window %d is created again by rank %d while it is live", win, rank);
  if (!m || m->state == M_FREED) /* the first member to come (a freed name is a new window) */
    w = new_window(rw, win, cm);
  else if (w->cm != cm)
    return x_err(err, errlen, "window %d: rank %d creates it over communicator %d, another member over "
                 "communicator %d", win, rank, cm->id, w->cm->id);
  w->m[cm->rank_of[rank]].state = M_LIVE;
  return 0;
}

const comm_t *rma_win_comm(const rma_world *rw, int win, int rank) {
  rma_win *w;
  return live_member(rw, win, rank, &w) ? w->cm : NULL;
}

void rma_win_free(rma_world *rw, int win, int rank) {
  rma_win *w;
  wmember *m = live_member(rw, win, rank, &w);
  if (m)
    m->state = M_FREED;
}

/* ====== operations ====== */

static void wake_waiter(rma_world *rw, const rma_op *op, const wmember *m) {
  rank_wait *r = &rw->waits[op->origin];
  int done = (r->kind == W_ALL && r->npend == 0) || (r->kind == W_WIN && r->win == op->w && m->npend == 0) ||
             (r->kind == W_TARGET && r->win == op->w && op->target == r->target && --r->left == 0);
  if (done) {
    r->kind = W_NONE;
    rw->wake(rw->ctx, op->origin);
  }
}

static void op_complete(rma_op *op) {
  rma_world *rw = op->rw;
  wmember *m = &op->w->m[op->w->cm->rank_of[op->origin]];
  if (op->prev)
    op->prev->next = op->next;
  else
    m->pend = op->next;
  if (op->next)
    op->next->prev = op->prev;
  m->npend--;
  rw->waits[op->origin].npend--;
  rw->pending--;
  wake_waiter(rw, op, m);
  if (op->req) {
    p2p_req_finish(rw->p2p, op->req);
    p2p_req_release(rw->p2p, op->req);
  }
  free(op);
}

static int transfer(rma_op *op, int from, int to, int64_t bytes);

/* A transfer of op ended: the result's way back, or the end of the operation. */
static void leg_done(void *ctx, eng_act *a) {
  (void)a;
  rma_op *op = ctx;
  if (op->back) {
    op->back = 0;
    transfer(op, op->target, op->origin, op->rbytes);
    return;
  }
  op_complete(op);
}

/* A transfer of bytes (+ the envelope) between the hosts of two ranks; -1 (reported) when
 * no route joins them. */
static int transfer(rma_op *op, int from, int to, int64_t bytes) {
  rma_world *rw = op->rw;
  char err[256];
  if (eng_flow_start(rw->e, rw->host_of[from], rw->host_of[to], (double)bytes + RMA_ENVELOPE, leg_done, op, err,
                     sizeof err) == 0)
    return 0;
  rw->error(rw->ctx, 1, err);
  return -1;
}

/* origin's member entry of window win, and target's rank in it; NULL after an error. */
static wmember *origin_of(rma_world *rw, int win, int origin, int target, rma_win **w, int *t) {
  wmember *m = live_member(rw, win, origin, w);
  *t = m && target >= 0 && target < rw->np ? (*w)->cm->rank_of[target] : -1;
  if (m && *t >= 0)
    return m;
  char msg[256];
  snprintf(msg, sizeof msg, m ? "rank %d: target %d is not a member of window %d" :
           "rank %d has no window %d", origin, m ? target : win, win);
  rw->error(rw->ctx, 1, msg);
  return NULL;
}

int rma_start(rma_world *rw, int win, int origin, int target, int64_t sbytes, int64_t rbytes, int two_legs,
              p2p_req *req) {
  rma_win *w;
  int t;
  wmember *m = origin_of(rw, win, origin, target, &w, &t);
  if (!m)
    return -1;
  rma_op *op = x_malloc(sizeof *op);
  *op = (rma_op){.rw = rw, .w = w, .origin = origin, .target = target, .back = two_legs, .rbytes = rbytes,
                 .req = req, .next = m->pend};
  if (m->pend)
    m->pend->prev = op;
  m->pend = op;
  m->npend++;
  rw->waits[origin].npend++;
  rw->pending++;
  if (req)
    req->refs++;
  return transfer(op, origin, target, sbytes);
}

/* The count of rank's operations of window w to target. */
static int64_t to_target(const wmember *m, int target) {
  int64_t n = 0;
  for (const rma_op *op = m->pend; op; op = op->next)
    n += op->target == target;
  return n;
}

int rma_wait(rma_world *rw, int win, int rank, int target, int first) {
  rank_wait *r = &rw->waits[rank];
  if (!first)
    return r->kind == W_NONE;
  if (win == 0) {
    r->kind = r->npend ? W_ALL : W_NONE;
    return r->kind == W_NONE;
  }
  rma_win *w;
  const wmember *m = live_member(rw, win, rank, &w);
  if (!m)
    return 1;
  r->win = w;
  r->target = target;
  r->left = target < 0 ? m->npend : to_target(m, target);
  r->kind = r->left == 0 ? W_NONE : target < 0 ? W_WIN : W_TARGET;
  return r->kind == W_NONE;
}

/* ====== locks ====== */

static int fits(const wlock *l, int excl) { return excl ? !l->excl && !l->shared : !l->excl; }

static void take(wlock *l, int excl) {
  if (excl)
    l->excl = 1;
  else
    l->shared++;
}

/* Grants the requests at the head of l's queue while they fit, and wakes them. */
static void grant(rma_world *rw, wlock *l) {
  while (l->head && fits(l, l->head->excl)) {
    lock_req *q = l->head;
    l->head = q->next;
    if (!l->head)
      l->tail = NULL;
    take(l, q->excl);
    rw->waits[q->origin].lock_queued = 0;
    rw->wake(rw->ctx, q->origin);
    free(q);
  }
}

int rma_lock(rma_world *rw, int win, int origin, int target, int excl) {
  rma_win *w;
  int t;
  if (!origin_of(rw, win, origin, target, &w, &t))
    return 1; /* reported: the replay stops */
  wlock *l = &w->lk[t];
  if (!l->head && fits(l, excl)) {
    take(l, excl);
    return 1;
  }
  lock_req *q = x_malloc(sizeof *q);
  *q = (lock_req){.origin = origin, .excl = excl};
  if (l->tail)
    l->tail->next = q;
  else
    l->head = q;
  l->tail = q;
  rw->waits[origin].lock_queued = 1;
  return 0;
}

int rma_lock_granted(const rma_world *rw, int origin) { return !rw->waits[origin].lock_queued; }

void rma_unlock(rma_world *rw, int win, int origin, int target) {
  rma_win *w;
  int t;
  if (!origin_of(rw, win, origin, target, &w, &t))
    return;
  wlock *l = &w->lk[t];
  if (l->excl)
    l->excl = 0;
  else if (l->shared > 0)
    l->shared--;
  grant(rw, l);
}

/* ====== PSCW groups ====== */

void rma_set_group(rma_world *rw, int win, int rank, int which, const int64_t *g, int n) {
  rma_win *w;
  wmember *m = live_member(rw, win, rank, &w);
  if (!m)
    return;
  m->group[which] = x_realloc(m->group[which], (size_t)(n ? n : 1) * sizeof *m->group[which]);
  for (int i = 0; i < n; i++)
    m->group[which][i] = (int)g[i];
  m->ngroup[which] = n;
}

const int *rma_group(const rma_world *rw, int win, int rank, int which, int *n) {
  rma_win *w;
  const wmember *m = live_member(rw, win, rank, &w);
  *n = m ? m->ngroup[which] : 0;
  return m ? m->group[which] : NULL;
}

int64_t rma_pending(const rma_world *rw) { return rw->pending; }
