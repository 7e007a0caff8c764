/* validate.c - checks a trace set action by action, without simulating (validate.h).
 *
 * The pass keeps three kinds of state, none of which grows with the trace length:
 *  - per rank: counters, init's default datatype, the count of each collective op and a
 *    hash of the sequence of (collective op, root) it calls;
 *  - one table of message keys (src, dst, tag): sends and receives counted on both sides
 *    (send, isend and sendRecv send; recv, irecv and sendRecv receive, sendRecv with tag
 *    0 as SimGrid does), with their bytes, and where each side first appears;
 *  - per rank, a table of the request keys its isend/irecv left in SimGrid's request
 *    store, modelled as counts: wait pops one, test leaves the count as it is (it pops
 *    and re-inserts), waitall empties the store.
 * Verdicts come at the end, in key order, so that the output does not depend on
 * hash-table order. Matching is by count per key, not message by message (which would
 * need memory proportional to the messages in flight): a wrong order of sizes within one
 * key is caught only when the total received is below the total sent. */
#include "validate.h"
#include "xalloc.h"

#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct ventry {
  int used;              /* slot holds a key */
  int src, dst, tag;     /* the key */
  int64_t n[2];          /* messages: sends, receives; requests: pending, times tested */
  uint64_t bytes[2];     /* messages: bytes sent, bytes received */
  int probe;             /* messages: a receive of unknown size (negative count) */
  const char *file[2];   /* first send / first receive (requests: first start) */
  long line[2];
} ventry;

typedef struct vtable { /* open addressing, linear probing, at most half full */
  ventry *e;
  size_t cap, used;
} vtable;

typedef struct vrank {
  uint64_t actions;       /* actions read */
  uint64_t sent, recvd;   /* point-to-point bytes */
  int dflt;               /* size of the default datatype (0 before init) */
  int64_t pending;        /* requests in the store (the store is empty when 0) */
  vtable reqs;            /* pending requests by key */
  uint64_t ncoll[TRACE_EXSCAN + 1]; /* calls of each collective op (all <= TRACE_EXSCAN) */
  uint64_t coll_hash;     /* FNV-1a of the sequence of (op, root) */
  int64_t nreq_lines;     /* lines that made a request without a peer key (non-blocking
                             collectives, request-based RMA): the K-th one's key is (me, me, -K) */
  vtable wins;            /* windows by key (WIN, 0, 0): n[0] live, n[1] open epochs (W_*) */
  vtable locks;           /* passive-target locks held, key (WIN, TARGET, 0): n[0] held */
} vrank;

/* Epochs open on a window of a rank (vrank.wins' n[1] bits). */
#define W_LOCK_ALL 1 /* win_lock_all .. win_unlock_all */
#define W_START 2    /* win_start .. win_complete (access epoch of PSCW) */
#define W_POST 4     /* win_post .. win_wait (exposure epoch of PSCW) */

typedef struct vstate {
  int np;
  FILE *out;
  vrank *ranks;
  vtable msgs;            /* message keys */
  long errors, warnings;  /* findings so far */
  int init_arg;           /* init's argument seen first: -1 none yet, 0 absent, 1 present */
  unsigned once;          /* one-time warnings already given */
  char *err;              /* where the first error goes */
  size_t errlen;
} vstate;

#define ONCE_INIT_MIX 1u
#define ONCE_NO_INIT 2u

/* ====================================================================================
 * Findings
 * ==================================================================================== */

static void vfinding(vstate *v, int error, const char *fmt, va_list ap) {
  char msg[1024];
  vsnprintf(msg, sizeof msg, fmt, ap);
  if (error && v->errors == 0)
    x_err(v->err, v->errlen, "%s", msg);
  long n = v->errors + v->warnings;
  if (v->out && n < VALIDATE_MAX_SHOWN)
    fprintf(v->out, "%s: %s\n", error ? "error" : "warning", msg);
  if (v->out && n == VALIDATE_MAX_SHOWN)
    fprintf(v->out, "(further findings are counted, not shown)\n");
  if (error)
    v->errors++;
  else
    v->warnings++;
}

static void verror(vstate *v, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void verror(vstate *v, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vfinding(v, 1, fmt, ap);
  va_end(ap);
}

static void vwarn(vstate *v, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void vwarn(vstate *v, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vfinding(v, 0, fmt, ap);
  va_end(ap);
}

/* ====================================================================================
 * Key tables
 * ==================================================================================== */

static size_t key_hash(int src, int dst, int tag) {
  uint64_t h = (uint64_t)(uint32_t)src * 0x9E3779B97F4A7C15u;
  h ^= (uint64_t)(uint32_t)dst * 0xC2B2AE3D27D4EB4Fu;
  h ^= (uint64_t)(uint32_t)tag * 0x165667B19E3779F9u;
  return (size_t)(h ^ (h >> 29));
}

static ventry *slot(const vtable *t, int src, int dst, int tag) {
  size_t i = key_hash(src, dst, tag) & (t->cap - 1);
  while (t->e[i].used && !(t->e[i].src == src && t->e[i].dst == dst && t->e[i].tag == tag))
    i = (i + 1) & (t->cap - 1);
  return &t->e[i];
}

static void vt_grow(vtable *t) {
  vtable old = *t;
  t->cap = old.cap ? old.cap * 2 : 16;
  t->e = x_calloc(t->cap, sizeof *t->e);
  for (size_t i = 0; i < old.cap; i++)
    if (old.e[i].used)
      *slot(t, old.e[i].src, old.e[i].dst, old.e[i].tag) = old.e[i];
  free(old.e);
}

/* The entry of a key, created when create is set (else NULL when absent). */
static ventry *vt_get(vtable *t, int src, int dst, int tag, int create) {
  if (!t->cap && !create)
    return NULL;
  if (2 * (t->used + 1) > t->cap)
    vt_grow(t);
  ventry *e = slot(t, src, dst, tag);
  if (e->used || !create)
    return e->used ? e : NULL;
  *e = (ventry){.used = 1, .src = src, .dst = dst, .tag = tag};
  t->used++;
  return e;
}

static void vt_clear(vtable *t) {
  if (t->used)
    memset(t->e, 0, t->cap * sizeof *t->e);
  t->used = 0;
}

static int by_key(const void *a, const void *b) {
  const ventry *x = *(ventry *const *)a, *y = *(ventry *const *)b;
  if (x->src != y->src)
    return x->src < y->src ? -1 : 1;
  if (x->dst != y->dst)
    return x->dst < y->dst ? -1 : 1;
  return x->tag < y->tag ? -1 : x->tag > y->tag;
}

/* The used entries, sorted by key (caller frees the array). */
static ventry **vt_sorted(const vtable *t, size_t *n) {
  ventry **s = x_malloc((t->used ? t->used : 1) * sizeof *s);
  *n = 0;
  for (size_t i = 0; i < t->cap; i++)
    if (t->e[i].used)
      s[(*n)++] = &t->e[i];
  qsort(s, *n, sizeof *s, by_key);
  return s;
}

/* ====================================================================================
 * Checks of one action
 * ==================================================================================== */

static uint64_t nbytes(vstate *v, const trace_action *a, int64_t count, int dtype) {
  vrank *r = &v->ranks[a->rank];
  int size = dtype == TRACE_DT_DEFAULT ? r->dflt : trace_dtype_size(dtype);
  if (dtype == TRACE_DT_DEFAULT && !r->dflt) {
    if (!(v->once & ONCE_NO_INIT))
      vwarn(v, "%s:%ld: the default datatype is used before this rank's init (SimGrid sets it"
            " at init; counted as 1 byte here)", a->file, a->line);
    v->once |= ONCE_NO_INIT;
    size = 1;
  }
  if (count <= 0 || size <= 0)
    return 0;
  return (uint64_t)count > UINT64_MAX / (unsigned)size ? UINT64_MAX
                                                       : (uint64_t)count * (unsigned)size;
}

/* ====================================================================================
 * The checks of one action alone: validate_action, shared with the replay
 * ==================================================================================== */

/* Each returns 0 or -1 with "FILE:LINE: message: 'TEXT'" in err. */
static int peer_ok(const trace_action *a, int np, int who, const char *what, char *err, size_t errlen) {
  if (who >= 0 && who < np)
    return 0;
  return x_err(err, errlen, "%s:%ld: %s %s %d out of range [0, %d]: '%s'", a->file, a->line,
               trace_op_name(a->op), what, who, np - 1, a->text);
}

static int count_ok(const trace_action *a, int64_t count, const char *what, char *err, size_t errlen) {
  if (count >= 0 && count <= VALIDATE_MAX_COUNT)
    return 0;
  if (count < 0)
    return x_err(err, errlen, "%s:%ld: %s %s is negative (%lld): '%s'", a->file, a->line,
                 trace_op_name(a->op), what, (long long)count, a->text);
  return x_err(err, errlen, "%s:%ld: %s %s %lld is beyond tir's limit of 2^48 elements: '%s'", a->file,
               a->line, trace_op_name(a->op), what, (long long)count, a->text);
}

static int amount_ok(const trace_action *a, char *err, size_t errlen) {
  if (isfinite(a->amount) && a->amount >= 0)
    return 0;
  return x_err(err, errlen, "%s:%ld: %s amount %g must be finite and >= 0: '%s'", a->file, a->line,
               trace_op_name(a->op), a->amount, a->text);
}

static int vector_ok(const trace_action *a, const int64_t *vec, char *err, size_t errlen) {
  for (int i = 0; vec && i < a->nvec; i++)
    if (vec[i] < 0)
      return count_ok(a, vec[i], "count vector element", err, errlen);
  return 0;
}

/* A collective's root and counts (reduce-like ones: their amount too). */
static int collective_ok(const trace_action *a, int np, int rooted, char *err, size_t errlen) {
  if (rooted && a->comm == 0 && peer_ok(a, np, a->peer, "ROOT", err, errlen) < 0)
    return -1;
  if (a->op != TRACE_SCATTERV && a->op != TRACE_REDUCESCATTER &&
      count_ok(a, a->count, a->op == TRACE_ALLTOALLV ? "SENDBUFSIZE" : "COUNT", err, errlen) < 0)
    return -1;
  if (a->op != TRACE_GATHERV && a->op != TRACE_ALLGATHERV &&
      count_ok(a, a->count2, a->op == TRACE_ALLTOALLV ? "RECVBUFSIZE" : "RECVCOUNT", err, errlen) < 0)
    return -1;
  if (vector_ok(a, a->vec, err, errlen) < 0 || vector_ok(a, a->vec2, err, errlen) < 0)
    return -1;
  int reduce = a->op == TRACE_REDUCE || a->op == TRACE_ALLREDUCE || a->op == TRACE_SCAN ||
               a->op == TRACE_EXSCAN || a->op == TRACE_REDUCESCATTER;
  return reduce ? amount_ok(a, err, errlen) : 0;
}

/* A one-sided line: its TARGET, its sizes, the members of a win_post/win_start group. */
static int rma_ok(const trace_action *a, int np, char *err, size_t errlen) {
  switch (a->op) {
  case TRACE_WIN_CREATE: case TRACE_WIN_ALLOCATE: case TRACE_WIN_ALLOCATE_SHARED: case TRACE_WIN_CREATE_DYNAMIC:
    return count_ok(a, a->count, "BYTES", err, errlen);
  case TRACE_WIN_LOCK: case TRACE_WIN_UNLOCK: case TRACE_WIN_FLUSH: case TRACE_WIN_FLUSH_LOCAL:
    return peer_ok(a, np, a->peer, "TARGET", err, errlen);
  case TRACE_WIN_POST: case TRACE_WIN_START:
    for (int i = 0; a->vec && i < a->nvec; i++)
      if (a->vec[i] < 0 || a->vec[i] >= np)
        return x_err(err, errlen, "%s:%ld: %s group member %lld out of range [0, %d]: '%s'", a->file, a->line,
                     trace_op_name(a->op), (long long)a->vec[i], np - 1, a->text);
    return 0;
  default:
    break;
  }
  if (a->op < TRACE_PUT || a->op > TRACE_RGET_ACCUMULATE)
    return 0;
  if (peer_ok(a, np, a->peer, "TARGET", err, errlen) < 0 || count_ok(a, a->count, "SBYTES", err, errlen) < 0)
    return -1;
  return count_ok(a, a->count2, "RBYTES", err, errlen);
}

int validate_action_all(const trace_action *a, int np, char *err, size_t errlen) {
  switch (a->op) {
  case TRACE_COMPUTE: case TRACE_SLEEP:
    return amount_ok(a, err, errlen);
  case TRACE_SEND: case TRACE_ISEND:
    if (peer_ok(a, np, a->peer, "DST", err, errlen) < 0)
      return -1;
    return count_ok(a, a->count, "COUNT", err, errlen);
  case TRACE_RECV: case TRACE_IRECV: /* a negative count: probe for the size first */
    if (peer_ok(a, np, a->peer, "SRC", err, errlen) < 0)
      return -1;
    return a->count < 0 ? 0 : count_ok(a, a->count, "COUNT", err, errlen);
  case TRACE_IPROBE: /* SimGrid's MPI_ANY_SOURCE: an iprobe that found nothing (doc/tracer.md) */
    return a->peer == TRACE_ANY_SOURCE ? 0 : peer_ok(a, np, a->peer, "SRC", err, errlen);
  case TRACE_PROBE:
    return peer_ok(a, np, a->peer, "SRC", err, errlen);
  case TRACE_SENDRECV:
    if (count_ok(a, a->count, "SENDCOUNT", err, errlen) < 0 || count_ok(a, a->count2, "RECVCOUNT", err, errlen) < 0)
      return -1;
    if (peer_ok(a, np, a->peer, "DST", err, errlen) < 0)
      return -1;
    return peer_ok(a, np, a->peer2, "SRC", err, errlen);
  case TRACE_BCAST: case TRACE_GATHER: case TRACE_GATHERV: case TRACE_SCATTER: case TRACE_SCATTERV:
  case TRACE_REDUCE:
    return collective_ok(a, np, 1, err, errlen);
  case TRACE_ALLREDUCE: case TRACE_SCAN: case TRACE_EXSCAN: case TRACE_REDUCESCATTER: case TRACE_BARRIER:
  case TRACE_ALLTOALL: case TRACE_ALLTOALLV: case TRACE_ALLGATHER: case TRACE_ALLGATHERV:
    return collective_ok(a, np, 0, err, errlen);
  default:
    return a->op >= TRACE_WIN_CREATE && a->op <= TRACE_WIN_SYNC ? rma_ok(a, np, err, errlen) : 0;
  }
}

/* ====================================================================================
 * What the whole pass keeps about actions
 * ==================================================================================== */

static int in_range(const vstate *v, int who) { return who >= 0 && who < v->np; }

/* One side (0 send, 1 receive) of a message on key (src, dst, tag). */
static void message(vstate *v, const trace_action *a, int side, int src, int dst, int tag,
                    uint64_t bytes, int probe) {
  ventry *e = vt_get(&v->msgs, src, dst, tag, 1);
  if (!e->n[side]++) {
    e->file[side] = a->file;
    e->line[side] = a->line;
  }
  e->bytes[side] += bytes;
  e->probe |= probe;
  if (side == 0)
    v->ranks[a->rank].sent += bytes;
  else
    v->ranks[a->rank].recvd += bytes;
}

static inline __attribute__((always_inline)) void start_request(vstate *v, const trace_action *a, int src, int dst,
                                                                 int tag) {
  vrank *r = &v->ranks[a->rank];
  ventry *e = vt_get(&r->reqs, src, dst, tag, 1);
  if (!e->n[0]++) {
    e->file[0] = a->file;
    e->line[0] = a->line;
  }
  r->pending++;
}

static void p2p(vstate *v, const trace_action *a) {
  int send = a->op == TRACE_SEND || a->op == TRACE_ISEND, me = a->rank;
  if (!in_range(v, a->peer))
    return;
  uint64_t b = nbytes(v, a, a->count, a->dtype);
  int src = send ? me : a->peer, dst = send ? a->peer : me;
  message(v, a, !send, src, dst, a->tag, b, a->count < 0);
  if (a->op == TRACE_ISEND || a->op == TRACE_IRECV)
    start_request(v, a, src, dst, a->tag);
}

static void sendrecv(vstate *v, const trace_action *a) {
  if (in_range(v, a->peer))
    message(v, a, 0, a->rank, a->peer, 0, nbytes(v, a, a->count, a->dtype), 0);
  if (in_range(v, a->peer2))
    message(v, a, 1, a->peer2, a->rank, 0, nbytes(v, a, a->count2, a->dtype2), 0);
}

static void wait_test(vstate *v, const trace_action *a) {
  vrank *r = &v->ranks[a->rank];
  if (a->op == TRACE_WAIT && r->pending == 0) {
    verror(v, "%s:%ld: wait with no isend or irecv pending on this rank (SimGrid aborts:"
           " 'action wait not preceded by any irecv or isend'): '%s'", a->file, a->line,
           a->text);
    return;
  }
  ventry *e = vt_get(&r->reqs, a->peer, a->peer2, a->tag, 0);
  if (e && e->n[0] > 0 && a->op == TRACE_TEST) {
    e->n[1]++;
  } else if (e && e->n[0] > 0) {
    e->n[0]--;
    r->pending--;
  } else if (a->op == TRACE_WAIT) {
    vwarn(v, "%s:%ld: wait matches no pending isend/irecv with key (src %d, dst %d, tag %d):"
          " SimGrid skips it: '%s'", a->file, a->line, a->peer, a->peer2, a->tag, a->text);
  }
}

static void waitall(vstate *v, const trace_action *a) {
  vrank *r = &v->ranks[a->rank];
  vt_clear(&r->reqs);
  r->pending = 0;
}

static void init(vstate *v, const trace_action *a) {
  v->ranks[a->rank].dflt = a->has_arg ? 8 : 1;
  if (v->init_arg < 0)
    v->init_arg = a->has_arg;
  if (v->init_arg != a->has_arg && !(v->once & ONCE_INIT_MIX))
    vwarn(v, "%s:%ld: ranks disagree on init's argument: SimGrid keeps one default datatype"
          " for all ranks, the one of the last init executed: '%s'", a->file, a->line, a->text);
  if (v->init_arg != a->has_arg)
    v->once |= ONCE_INIT_MIX;
}

/* The sequence hash of a collective (its root, its counts: validate_action). */
static void nbc_request(vstate *v, const trace_action *a);

static void collective(vstate *v, const trace_action *a, int rooted) {
  vrank *r = &v->ranks[a->rank];
  nbc_request(v, a);
  if (a->comm != 0) /* sub-communicator collectives: only members call them */
    return;
  r->ncoll[a->op]++;
  uint32_t w[2] = {(uint32_t)a->op, rooted ? (uint32_t)a->peer : 0xFFFFFFFFu};
  for (int i = 0; i < 2; i++)
    for (int k = 0; k < 4; k++)
      r->coll_hash = (r->coll_hash ^ ((w[i] >> (8 * k)) & 0xFF)) * 0x100000001B3u;
}

/* ---- one-sided communication ------------------------------------------------------- */

/* The rank's live window a->win, or NULL after an error (never created, or freed). */
static ventry *live_window(vstate *v, const trace_action *a) {
  ventry *w = vt_get(&v->ranks[a->rank].wins, a->win, 0, 0, 0);
  if (w && w->n[0])
    return w;
  verror(v, "%s:%ld: %s on window %d, which this rank %s: '%s'", a->file, a->line, trace_op_name(a->op), a->win,
         w ? "has freed (win_free)" : "did not create (no win_create line before)", a->text);
  return NULL;
}

static void win_create(vstate *v, const trace_action *a) {
  ventry *w = vt_get(&v->ranks[a->rank].wins, a->win, 0, 0, 1);
  if (w->n[0])
    verror(v, "%s:%ld: window %d created again while live (first at %s:%ld): '%s'", a->file, a->line, a->win,
           w->file[0], w->line[0], a->text);
  *w = (ventry){.used = 1, .src = a->win, .n = {1, 0}, .file = {a->file}, .line = {a->line}};
}

/* win_free: no epoch may be open (MPI forbids freeing a window locked or in PSCW). */
static void win_free(vstate *v, const trace_action *a, ventry *w) {
  if (w->n[1])
    verror(v, "%s:%ld: win_free on window %d while a %s epoch is open: '%s'", a->file, a->line, a->win,
           w->n[1] & W_LOCK_ALL ? "win_lock_all" : w->n[1] & W_START ? "win_start" : "win_post", a->text);
  w->n[0] = 0;
}

/* A transfer (TARGET and sizes: validate_action); the r* forms make a request. */
static void rma_op(vstate *v, const trace_action *a) {
  if (a->op >= TRACE_RPUT && a->op <= TRACE_RGET_ACCUMULATE)
    start_request(v, a, a->rank, a->rank, (int)-++v->ranks[a->rank].nreq_lines);
}

/* win_lock / win_unlock TARGET: one lock per (window, target), none while win_lock_all. */
static void win_lock(vstate *v, const trace_action *a, ventry *w) {
  if (!in_range(v, a->peer))
    return;
  ventry *l = vt_get(&v->ranks[a->rank].locks, a->win, a->peer, 0, 1);
  int lock = a->op == TRACE_WIN_LOCK;
  if (lock && (l->n[0] || (w->n[1] & W_LOCK_ALL)))
    verror(v, "%s:%ld: win_lock of target %d on window %d, which this rank holds already (%s): '%s'", a->file,
           a->line, a->peer, a->win, l->n[0] ? "win_lock" : "win_lock_all", a->text);
  else if (!lock && !l->n[0])
    verror(v, "%s:%ld: win_unlock of target %d on window %d, which this rank has not locked: '%s'", a->file,
           a->line, a->peer, a->win, a->text);
  l->n[0] = lock;
  if (lock) {
    l->file[0] = a->file;
    l->line[0] = a->line;
  }
}

/* The epochs that open and close with one call (lock_all, start, post), and their check. */
static void win_epoch(vstate *v, const trace_action *a, ventry *w, int bit, int open) {
  static const char *const name[] = {"", "win_lock_all", "win_start", "", "win_post"};
  if (open && (w->n[1] & bit))
    verror(v, "%s:%ld: %s on window %d while its %s epoch is still open: '%s'", a->file, a->line,
           trace_op_name(a->op), a->win, name[bit], a->text);
  else if (!open && !(w->n[1] & bit))
    verror(v, "%s:%ld: %s on window %d without a %s before it: '%s'", a->file, a->line, trace_op_name(a->op),
           a->win, name[bit], a->text);
  w->n[1] = open ? w->n[1] | bit : w->n[1] & ~bit; /* (the group's members: validate_action) */
}

__attribute__((noinline)) static void rma(vstate *v, const trace_action *a) {
  if (a->op >= TRACE_WIN_CREATE && a->op <= TRACE_WIN_CREATE_DYNAMIC) {
    win_create(v, a);
    return;
  }
  ventry *w = live_window(v, a);
  if (!w)
    return;
  switch (a->op) {
  case TRACE_WIN_FREE: win_free(v, a, w); break;
  case TRACE_WIN_LOCK: case TRACE_WIN_UNLOCK: win_lock(v, a, w); break;
  case TRACE_WIN_LOCK_ALL: case TRACE_WIN_UNLOCK_ALL: win_epoch(v, a, w, W_LOCK_ALL, a->op == TRACE_WIN_LOCK_ALL); break;
  case TRACE_WIN_START: case TRACE_WIN_COMPLETE: win_epoch(v, a, w, W_START, a->op == TRACE_WIN_START); break;
  case TRACE_WIN_POST: case TRACE_WIN_WAIT: win_epoch(v, a, w, W_POST, a->op == TRACE_WIN_POST); break;
  case TRACE_WIN_FENCE: case TRACE_WIN_FLUSH: case TRACE_WIN_FLUSH_LOCAL: case TRACE_WIN_FLUSH_ALL: case TRACE_WIN_FLUSH_LOCAL_ALL: case TRACE_WIN_SYNC: break;
  default: rma_op(v, a); break;
  }
}

/* A non-blocking collective makes a request named (me, me, -K), K counting such lines. */
static void nbc_request(vstate *v, const trace_action *a) {
  if (a->nbc)
    start_request(v, a, a->rank, a->rank, (int)-++v->ranks[a->rank].nreq_lines);
}

/* The action alone (validate_action: the replay makes the same checks), then what the
 * pass keeps about it. */
static void check_action(vstate *v, const trace_action *a) {
  char msg[1024];
  v->ranks[a->rank].actions++;
  if (validate_action(a, v->np, msg, sizeof msg) < 0)
    verror(v, "%s", msg);
  switch (a->op) {
  case TRACE_INIT: init(v, a); break;
  case TRACE_SEND: case TRACE_ISEND: case TRACE_RECV: case TRACE_IRECV: p2p(v, a); break;
  case TRACE_SENDRECV: sendrecv(v, a); break;
  case TRACE_TEST: case TRACE_WAIT: wait_test(v, a); break;
  case TRACE_WAITALL: waitall(v, a); break;
  case TRACE_BCAST: case TRACE_GATHER: case TRACE_GATHERV: case TRACE_SCATTER:
  case TRACE_SCATTERV: case TRACE_REDUCE: collective(v, a, 1); break;
  case TRACE_ALLREDUCE: case TRACE_SCAN: case TRACE_EXSCAN: case TRACE_REDUCESCATTER:
  case TRACE_BARRIER: case TRACE_ALLTOALL: case TRACE_ALLTOALLV: case TRACE_ALLGATHER:
  case TRACE_ALLGATHERV: collective(v, a, 0); break;
  default:
    if (a->win)
      rma(v, a);
    break;
  }
}

/* ====================================================================================
 * Verdicts at the end
 * ==================================================================================== */

static void check_messages(vstate *v) {
  size_t n;
  ventry **s = vt_sorted(&v->msgs, &n);
  for (size_t i = 0; i < n; i++) {
    const ventry *e = s[i];
    int w = e->n[0] ? 0 : 1;
    if (e->n[0] != e->n[1])
      verror(v, "rank %d sends %lld message(s) to rank %d with tag %d but rank %d receives %lld"
             " (first %s at %s:%ld)", e->src, (long long)e->n[0], e->dst, e->tag, e->dst,
             (long long)e->n[1], w ? "receive" : "send", e->file[w], e->line[w]);
    else if (!e->probe && e->bytes[1] < e->bytes[0])
      verror(v, "rank %d sends %llu bytes to rank %d with tag %d but rank %d receives only %llu:"
             " some receive is smaller than its send (MPI_ERR_TRUNCATE; first send at %s:%ld)",
             e->src, (unsigned long long)e->bytes[0], e->dst, e->tag, e->dst,
             (unsigned long long)e->bytes[1], e->file[0], e->line[0]);
  }
  free(s);
}

static void check_requests(vstate *v, int rank) {
  size_t n;
  ventry **s = vt_sorted(&v->ranks[rank].reqs, &n);
  for (size_t i = 0; i < n; i++)
    if (s[i]->n[0] > 0)
      vwarn(v, "%s:%ld: rank %d: %lld %s request(s) with key (src %d, dst %d, tag %d) never"
            " waited%s (SimGrid waits for the last one of the key at the end of the trace)",
            s[i]->file[0], s[i]->line[0], rank, (long long)s[i]->n[0],
            s[i]->src == rank ? "isend" : "irecv", s[i]->src, s[i]->dst, s[i]->tag,
            s[i]->n[1] ? ", only tested," : "");
  free(s);
}

/* Locks and epochs still open when the rank's trace ends (the replay does not wait for
 * them: their operations were waited for, or are, by the end of trace). */
static void check_windows(vstate *v, int rank) {
  size_t n;
  ventry **s = vt_sorted(&v->ranks[rank].locks, &n);
  for (size_t i = 0; i < n; i++)
    if (s[i]->n[0])
      vwarn(v, "%s:%ld: rank %d never unlocks target %d of window %d", s[i]->file[0], s[i]->line[0], rank,
            s[i]->dst, s[i]->src);
  free(s);
  s = vt_sorted(&v->ranks[rank].wins, &n);
  for (size_t i = 0; i < n; i++)
    if (s[i]->n[0] && s[i]->n[1])
      vwarn(v, "%s:%ld: rank %d ends its trace with a %s epoch open on window %d", s[i]->file[0], s[i]->line[0],
            rank, s[i]->n[1] & W_LOCK_ALL ? "win_lock_all" : s[i]->n[1] & W_START ? "win_start" : "win_post",
            s[i]->src);
  free(s);
}

static void check_collectives(vstate *v, int rank) {
  const vrank *r = &v->ranks[rank], *r0 = &v->ranks[0];
  for (int op = 0; op <= TRACE_EXSCAN; op++)
    if (r->ncoll[op] != r0->ncoll[op]) {
      verror(v, "rank %d calls %s %llu time(s) but rank 0 calls it %llu time(s)", rank,
             trace_op_name((trace_op)op), (unsigned long long)r->ncoll[op],
             (unsigned long long)r0->ncoll[op]);
      return;
    }
  if (r->coll_hash != r0->coll_hash)
    verror(v, "rank %d calls the same collectives as rank 0 but in another order or with other"
           " roots", rank);
}

static void report(vstate *v) {
  uint64_t act = 0, sent = 0, recvd = 0;
  if (!v->out)
    return;
  fprintf(v->out, "%-8s %12s %16s %16s\n", "rank", "actions", "bytes_sent", "bytes_received");
  for (int i = 0; i < v->np; i++) {
    const vrank *r = &v->ranks[i];
    fprintf(v->out, "%-8d %12llu %16llu %16llu\n", i, (unsigned long long)r->actions,
            (unsigned long long)r->sent, (unsigned long long)r->recvd);
    act += r->actions, sent += r->sent, recvd += r->recvd;
  }
  fprintf(v->out, "%-8s %12llu %16llu %16llu\n", "total", (unsigned long long)act,
          (unsigned long long)sent, (unsigned long long)recvd);
  if (v->errors)
    fprintf(v->out, "invalid: %ld error(s), %ld warning(s)\n", v->errors, v->warnings);
  else
    fprintf(v->out, "valid: %d rank(s), %llu action(s), %ld warning(s)\n", v->np,
            (unsigned long long)act, v->warnings);
}

static void finish(vstate *v) {
  check_messages(v);
  for (int i = 0; i < v->np; i++) {
    if (!v->ranks[i].actions)
      vwarn(v, "rank %d has no action", i);
    check_requests(v, i);
    check_windows(v, i);
    if (i > 0)
      check_collectives(v, i);
  }
  report(v);
}

int validate_traces(trace_set *t, int np, FILE *out, char *err, size_t errlen) {
  vstate v = {.np = np, .out = out, .init_arg = -1, .err = err, .errlen = errlen};
  char msg[1024];
  if (trace_set_np(t, np, msg, sizeof msg) < 0) {
    verror(&v, "%s", msg);
    if (out)
      fprintf(out, "invalid: 1 error(s), 0 warning(s)\n");
    return -1;
  }
  v.ranks = x_calloc((size_t)np, sizeof *v.ranks);
  trace_action a;
  int rc;
  while ((rc = trace_next_any(t, &a, msg, sizeof msg)) != 0) {
    if (rc < 0)
      verror(&v, "%s", msg);
    else
      check_action(&v, &a);
  }
  finish(&v);
  for (int i = 0; i < np; i++) {
    free(v.ranks[i].reqs.e);
    free(v.ranks[i].wins.e);
    free(v.ranks[i].locks.e);
  }
  free(v.ranks);
  free(v.msgs.e);
  return v.errors ? -1 : 0;
}
