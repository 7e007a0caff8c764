/* rank.c - the action interpreter of one simulated rank (SimGrid 3.32's replay semantics).
 *
 * A trace action becomes a program of rops (expand_*), executed by step(): each rop
 * either completes at once (returns 1) or starts something and blocks (returns 0); the
 * rank is re-run when that thing completes, and `phase` says where the rop resumed.
 * Semantics follow smpi_replay.cpp and smpi_request.cpp (TI_FORMAT.md 2-3,
 * SMPI_MODEL.md 5-7): blocking send = post (after smpi/os if detached) + wait; isend
 * pays smpi/ois; a receive from a detached sender pays smpi/or when finished; waitall is
 * a loop of waitany; test sleeps nsleeps x smpi/test with one process-wide nsleeps; the
 * request store is keyed by (src, dst, tag) with FIFO lists and null placeholders. */
#include "rank.h"

#include "nbc.h"
#include "replay_impl.h"
#include "validate.h"
#include "xalloc.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

enum rop_kind {
  OP_SEND,          /* post a send (peer, tag, bytes); flags say how it is waited */
  OP_RECV,          /* post a receive */
  OP_WAITALL,       /* wait for the program's requests posted since the last waitall */
  OP_WAITEACH,      /* the same, one MPI_Wait after the other in posting order */
  OP_EXEC,          /* execute amount flops on the rank's host */
  OP_SLEEP,         /* sleep amount seconds */
  OP_WAIT_STORE,    /* trace wait: pop (peer, peer2, tag) from the store and wait */
  OP_TEST_STORE,    /* trace test */
  OP_WAITALL_STORE, /* trace waitall */
  OP_WAITALL_END,   /* end of trace: wait the last request of each store key */
  OP_PROBE,         /* recv with negative size: probe loop, then the receive */
  OP_INIT,          /* init: default datatype and timer origin */
  OP_WAIT_SLOT,     /* MPI_Wait on one program request: peer = index from wait_from */
  OP_IPROBE,        /* one MPI_Iprobe (tir extension) */
  OP_NBC_BEGIN,     /* a non-blocking collective: the following sends/receives ... */
  OP_NBC_END,       /* ... form one request, stored under (me, me, tag) */
  OP_RMA,           /* start a one-sided operation: tag = window, peer = target, bytes go,
                       amount = bytes back (ROP_BACK), ROP_STORE: a request in the store */
  OP_RMA_WAIT,      /* wait for the rank's operations on window tag (0: all) to peer (-1: all) */
  OP_RMA_LOCK,      /* take target peer's lock of window tag (peer2: exclusive) */
  OP_RMA_LOCK_ALL,  /* take every member's lock of window tag, shared, in rank order */
  OP_RMA_UNLOCK,    /* release peer's lock of window tag (peer -1: every member's) */
  OP_RMA_FREE,      /* the rank frees window tag */
  OP_POLL_WAIT,     /* wait until a message from peer with tag is in the rank's mailbox */
  OP_COLL_RESUME,   /* init_smp's messages are done: generate the rest of the collective */
  OP_COLL_RUN       /* the ops of r->prog from the run's cursor on (r->cpc; comm: the rops'
                       communicator), one at a time (see "Collective runs") */
};

enum { ROP_BLOCKING = 1, ROP_STORE = 2, ROP_ISEND = 4, ROP_NBC = 8,
       ROP_RAW = 16,  /* a message of the MPI library itself (one-sided protocol): no smpi/os, ois */
       ROP_BACK = 32  /* a one-sided operation whose result comes back */ };

/* ====== program building ====== */

/* Inlined: push runs once per rop, and the call only happens when the array is full. */
__attribute__((always_inline)) static inline rop *new_rop(rank *r) {
  if (r->nops == r->ops_cap)
    x_grow(&r->ops, &r->ops_cap, r->nops + 1, sizeof *r->ops);
  return &r->ops[r->nops++];
}

__attribute__((always_inline)) static inline rop *push(rank *r, int kind) {
  rop *o = new_rop(r);
  *o = (rop){.kind = (uint8_t)kind};
  return o;
}

__attribute__((always_inline)) static inline rop *push_p2p(rank *r, int kind, int flags, int peer, int tag, int64_t bytes) {
  rop *o = new_rop(r);
  *o = (rop){.kind = (uint8_t)kind, .flags = (uint8_t)flags, .peer = peer, .tag = tag, .comm = r->push_comm,
             .bytes = bytes};
  return o;
}

static void push_amount(rank *r, int kind, double amount) { push(r, kind)->amount = amount; }

static int64_t nbytes(replay_ctx *x, int64_t count, int dt) {
  int size = dt == TRACE_DT_DEFAULT ? x->dt_default : trace_dtype_size(dt);
  return count * (size < 0 ? 0 : size);
}

static int dtsize(replay_ctx *x, int dt) {
  return dt == TRACE_DT_DEFAULT ? x->dt_default : trace_dtype_size(dt);
}

/* Collective runs. A collective's program (r->prog) is not copied into rops: an OP_COLL_RUN
 * rop stands for its ops from a given one on, and the rank reads them one at a time through
 * r->crop, the current one as a rop (cur_op). A program holds an op per message of the
 * call, or one per series of posts (coll.h: a basic_linear alltoall's 2 (n - 1) posts are
 * two series), where a copy would cost every rank 32 bytes a message while the call ran;
 * the run's cursor is an op's index and the post of its series (cpc, crep). An action has
 * one program at most, which nothing else writes before its run ends; a COLL_OP_RESUME
 * generates the program again and moves the run's cursor to where it goes on (resume_coll). */

/* Op c of a program on communicator cm as a rop (peers: world ranks; comm: the rops'). */
__attribute__((always_inline)) static inline void coll_rop(const coll_op *c, const comm_t *cm, int comm, rop *o) {
  int peer = c->op <= COLL_OP_RECV ? cm->members[c->peer] : 0; /* world rank of a message's peer */
  int kind = OP_WAITALL, flags = 0;
  switch (c->op) {
  case COLL_OP_ISEND:
    kind = OP_SEND, flags = ROP_ISEND;
    break;
  case COLL_OP_IRECV:
    kind = OP_RECV;
    break;
  case COLL_OP_SEND:
    kind = OP_SEND, flags = ROP_BLOCKING;
    break;
  case COLL_OP_RECV:
    kind = OP_RECV, flags = ROP_BLOCKING;
    break;
  case COLL_OP_WAITEACH:
    *o = (rop){.kind = OP_WAITEACH};
    return;
  case COLL_OP_WAIT:
    *o = (rop){.kind = OP_WAIT_SLOT, .peer = c->peer};
    return;
  case COLL_OP_RESUME:
    *o = (rop){.kind = OP_COLL_RESUME};
    return;
  default:
    *o = (rop){.kind = OP_WAITALL};
    return;
  }
  *o = (rop){.kind = (uint8_t)kind, .flags = (uint8_t)flags, .peer = peer, .tag = c->tag, .comm = comm,
             .bytes = c->bytes};
}

/* The run's cursor: r->prog's ops on communicator cm, from op `from` on. */
static void run_from(rank *r, const comm_t *cm, size_t from) {
  r->run_cm = cm;
  r->cpc = from;
  r->crep = 0;
  r->crop_at = SIZE_MAX;
}

/* The run of r->prog on communicator cm from op `from` on. */
static void push_prog(rank *r, const comm_t *cm, size_t from) {
  run_from(r, cm, from);
  push(r, OP_COLL_RUN)->comm = r->push_comm;
}

/* The run's current post of a series as its current rop. */
__attribute__((noinline)) static void series_rop(rank *r, int comm) {
  coll_op c = coll_prog_op(&r->prog, r->cpc, r->crep);
  coll_rop(&c, r->run_cm, comm, &r->crop);
}

/* Run o's current op (o: the OP_COLL_RUN at pc), NULL when the run is over. */
__attribute__((noinline)) static rop *run_op(rank *r, const rop *o) {
  if (r->cpc >= r->prog.n)
    return NULL;
  if (r->crop_at != r->cpc || r->crop_rep != r->crep) {
    const coll_op *c = &r->prog.ops[r->cpc];
    if (c->op == COLL_OP_SERIES)
      series_rop(r, o->comm);
    else
      coll_rop(c, r->run_cm, o->comm, &r->crop);
    r->crop_at = r->cpc;
    r->crop_rep = r->crep;
  }
  return &r->crop;
}

/* The op a blocked rank is at: a run's is the one it made last (NULL: none). */
static const rop *op_now(const rank *r) {
  const rop *o = &r->ops[r->pc];
  return o->kind != OP_COLL_RUN ? o : r->crop_at == r->cpc && r->crop_rep == r->crep ? &r->crop : NULL;
}

/* The rop at pc; in a collective run its current op, NULL when the run is over. */
__attribute__((always_inline)) static inline rop *cur_op(rank *r) {
  rop *o = &r->ops[r->pc];
  return o->kind != OP_COLL_RUN ? o : run_op(r, o);
}

/* Op o (cur_op) is done: the next rop, or the run's next op. */
__attribute__((always_inline)) static inline void advance(rank *r, const rop *o) {
  r->phase = 0;
  if (o != &r->crop)
    r->pc++;
  else if (r->cskip)
    r->cskip = 0;
  else
    coll_prog_next(&r->prog, &r->cpc, &r->crep); /* (the op after it, or its series' next post) */
}

/* Byte vector of a count vector (np entries: nvec <= np are the communicator's). */
static void vec_bytes(replay_ctx *x, const int64_t *v, int n, int dt, int64_t **out) {
  *out = x_realloc(*out, (size_t)x->np * sizeof **out);
  for (int i = 0; i < n; i++)
    (*out)[i] = nbytes(x, v[i], dt);
}

/* The communicator of the current action (the rank must be a member); NULL after
 * reporting an error. */
static const comm_t *action_comm(replay_ctx *x, rank *r) {
  const trace_action *a = &r->act;
  const comm_t *c = comm_get(x->comms, a->comm, r->id);
  if (!c)
    replay_fail(x, "%s:%ld: rank %d is in no communicator %d (no comm_split/comm_dup/comm_create line of "
                "a member created it before): '%s'", a->file, a->line, r->id, a->comm, a->text);
  return c;
}

/* A creation line: registers (or checks) the communicator it names. */
static void create_comm(replay_ctx *x, rank *r) {
  const trace_action *a = &r->act;
  char err[256];
  if (!a->has_arg || a->count < 0)
    return;
  if (comm_register(x->comms, (int)a->count, a->vec, a->nvec, err, sizeof err) < 0)
    replay_fail(x, "%s:%ld: %s: '%s'", a->file, a->line, err, a->text);
  else if (!comm_get(x->comms, (int)a->count, r->id))
    replay_fail(x, "%s:%ld: rank %d creates communicator %d but is not one of its members: '%s'", a->file,
                a->line, r->id, (int)a->count, a->text);
}

/* The memo of the collective c (without count vectors) on communicator comm. */
static coll_memo memo_of(const coll_args *c, int comm) {
  return (coll_memo){.comm = comm + 1, .root = c->root, .dtsize = c->dtsize, .kind = (uint8_t)c->kind,
                     .smp_blocked = (uint8_t)c->smp_blocked, .smp_done = c->smp_done, .sbytes = c->sbytes,
                     .rbytes = c->rbytes, .count = c->count};
}

static int same_memo(const coll_memo *a, const coll_memo *b) {
  return a->comm == b->comm && a->root == b->root && a->dtsize == b->dtsize && a->kind == b->kind &&
         a->smp_blocked == b->smp_blocked && a->smp_done == b->smp_done && a->sbytes == b->sbytes &&
         a->rbytes == b->rbytes && a->count == b->count;
}

/* The root of a rooted collective as a rank of cm (-1 when it is none of cm's ranks). */
static int coll_root(replay_ctx *x, const trace_action *a, const comm_t *cm) {
  if (a->comm == 0)
    return a->peer;
  return a->peer >= 0 && a->peer < x->np ? cm->rank_of[a->peer] : -1;
}

static int is_rooted(coll_kind k) {
  return k == COLL_BCAST || k == COLL_REDUCE || k == COLL_GATHER || k == COLL_GATHERV || k == COLL_SCATTER ||
         k == COLL_SCATTERV;
}

static int is_reduce_like(coll_kind k) {
  return k == COLL_REDUCE || k == COLL_ALLREDUCE || k == COLL_REDUCE_SCATTER || k == COLL_SCAN ||
         k == COLL_EXSCAN;
}

/* The byte counts of the call beyond its send count: receive counts and count vectors. */
static void coll_counts(replay_ctx *x, rank *r, coll_args *c) {
  const trace_action *a = &r->act;
  switch (c->kind) {
  case COLL_ALLTOALL:
  case COLL_GATHER:
  case COLL_SCATTER:
  case COLL_ALLGATHER:
    c->rbytes = nbytes(x, a->count2, a->dtype2);
    break;
  case COLL_GATHERV:
  case COLL_ALLGATHERV:
    vec_bytes(x, a->vec, a->nvec, a->dtype2, &r->vbytes);
    c->rcounts = r->vbytes;
    break;
  case COLL_SCATTERV:
    vec_bytes(x, a->vec, a->nvec, a->dtype, &r->vbytes);
    c->scounts = r->vbytes;
    c->rbytes = nbytes(x, a->count2, a->dtype2);
    break;
  case COLL_ALLTOALLV:
    vec_bytes(x, a->vec, a->nvec, a->dtype, &r->vbytes);
    vec_bytes(x, a->vec2, a->nvec, a->dtype2, &r->vbytes2);
    c->scounts = r->vbytes;
    c->rcounts = r->vbytes2;
    break;
  case COLL_REDUCE_SCATTER:
    vec_bytes(x, a->vec, a->nvec, a->dtype, &r->vbytes);
    c->rcounts = r->vbytes;
    break;
  default:
    break;
  }
}

/* The arguments of the current collective action of kind on cm; -1 after reporting a
 * root that is not a rank of cm. */
static int coll_setup(replay_ctx *x, rank *r, coll_kind kind, const comm_t *cm, coll_args *c) {
  const trace_action *a = &r->act;
  int root = coll_root(x, a, cm);
  if (is_rooted(kind) && (root < 0 || root >= cm->size)) {
    replay_fail(x, "%s:%ld: root %d is not a rank of %s: '%s'", a->file, a->line, a->peer,
                a->comm ? "the communicator" : "MPI_COMM_WORLD", a->text);
    return -1;
  }
  const int *node_of = x->host_of; /* world: members are 0..np-1, no O(np) copy per call */
  if (cm->id != 0) {
    for (int k = 0; k < cm->size; k++)
      x->scratch[k] = x->host_of[cm->members[k]];
    node_of = x->scratch;
  }
  *c = (coll_args){.kind = kind, .rank = cm->rank_of[r->id], .size = cm->size, .root = is_rooted(kind) ? root : 0,
                   .count = a->count, .node_of = node_of};
  c->dtsize = dtsize(x, a->dtype);
  c->sbytes = nbytes(x, a->count, a->dtype);
  c->rbytes = c->sbytes;
  coll_counts(x, r, c);
  return 0;
}

/* SimGrid's non-blocking shapes: every message posted at once, one request. The
 * computation of a reduce-like NBC is not replayed (the line has no FLOPS field). */
static void push_nbc(rank *r, const coll_args *c, const comm_t *cm) {
  r->memo.comm = 0; /* prog is overwritten */
  nbc_generate(c, &r->prog);
  push(r, OP_NBC_BEGIN);
  push_prog(r, cm, 0);
  push(r, OP_NBC_END);
}

static const signed char coll_of[TRACE_NOPS] = {
    [TRACE_BARRIER] = COLL_BARRIER + 1,     [TRACE_BCAST] = COLL_BCAST + 1,
    [TRACE_REDUCE] = COLL_REDUCE + 1,       [TRACE_ALLREDUCE] = COLL_ALLREDUCE + 1,
    [TRACE_ALLTOALL] = COLL_ALLTOALL + 1,   [TRACE_ALLTOALLV] = COLL_ALLTOALLV + 1,
    [TRACE_GATHER] = COLL_GATHER + 1,       [TRACE_GATHERV] = COLL_GATHERV + 1,
    [TRACE_ALLGATHER] = COLL_ALLGATHER + 1, [TRACE_ALLGATHERV] = COLL_ALLGATHERV + 1,
    [TRACE_SCATTER] = COLL_SCATTER + 1,     [TRACE_SCATTERV] = COLL_SCATTERV + 1,
    [TRACE_REDUCESCATTER] = COLL_REDUCE_SCATTER + 1, [TRACE_SCAN] = COLL_SCAN + 1,
    [TRACE_EXSCAN] = COLL_EXSCAN + 1};

/* The SMP views r has built on communicator id (a new entry the first time). */
static uint32_t *smp_done_of(rank *r, int id) {
  for (size_t i = 0; i < r->nsmp; i++)
    if (r->smp[i].comm == id)
      return &r->smp[i].done;
  r->smp = x_realloc(r->smp, (r->nsmp + 1) * sizeof *r->smp);
  r->smp[r->nsmp] = (smp_state){.comm = id, .done = 0};
  return &r->smp[r->nsmp++].done;
}

/* The arguments of r's current collective action (kind) and its communicator; 0 after
 * reporting an error. */
static int coll_args_of(replay_ctx *x, rank *r, coll_kind kind, coll_args *c, const comm_t **cmp) {
  const comm_t *cm = action_comm(x, r);
  if (!cm || coll_setup(x, r, kind, cm, c) < 0)
    return 0;
  r->push_comm = cm->id;
  *cmp = cm;
  return 1;
}

/* Generates (or reuses) r's program of collective c on cm; returns the op to run it from
 * (r->coll_from). r->prog still holds the program of the same call (an iteration's
 * allreduce) when the memo matches: coll_generate is a pure function of its arguments,
 * of the run's selector and of the communicator (node_of). Other writers of prog: the
 * NBC path (clears the memo) and the end-of-trace barrier (the rank's last program). A
 * program that builds SMP views ends at a COLL_OP_RESUME (see resume_coll). */
__attribute__((always_inline)) static inline size_t gen_coll(replay_ctx *x, rank *r, coll_args *c, const comm_t *cm) {
  uint32_t *done = smp_done_of(r, cm->id);
  c->smp_done = *done;
  /* is_blocked(): SimGrid's rank 0 of MPI_COMM_WORLD sets it at the end of its init_smp,
   * and a rank that reads it earlier gets false (a race: ranks may then take different
   * algorithms, and SimGrid deadlocks); tir/simgrid-compat reproduces it, the default
   * gives every rank the real value once its own view is built. */
  c->smp_blocked = cm->id == 0 && x->o->cfg.simgrid_compat ? x->smp_published : (int)(*done & 1);
  coll_memo m = memo_of(c, cm->id);
  if (c->scounts || c->rcounts || !same_memo(&m, &r->memo)) {
    coll_generate(c, x->sel, x->o->cfg.coll_algo[c->kind], &r->prog);
    *done |= r->prog.smp_built;
    r->memo = m;
    if (c->scounts || c->rcounts || r->prog.resume_at >= 0 || c->late)
      r->memo.comm = 0; /* (a late read's rest is not the call's program) */
  }
  size_t from = r->coll_from;
  if (r->prog.resume_at >= 0) {
    r->coll_from = (size_t)r->prog.init_at;
    r->resume_comm = cm->id;
    r->resume_bits = r->prog.smp_built;
    r->resume_late = r->prog.late;
  }
  return from;
}

/* gen_coll, then the program's run. */
__attribute__((always_inline)) static inline void emit_coll(replay_ctx *x, rank *r, coll_args *c, const comm_t *cm) {
  push_prog(r, cm, gen_coll(x, r, c, cm));
}

/* COLL_OP_RESUME: init_smp's messages of the current collective have completed (rank 0
 * of MPI_COMM_WORLD then publishes is_blocked, as SimGrid's init_smp does); the call is
 * generated again with the views built and the run goes on with its ops from where the init
 * began. After a late read's cut (coll_prog.late), the call generated again is only what
 * follows the cut. */
static void resume_coll(replay_ctx *x, rank *r) {
  if (r->id == 0 && r->resume_comm == 0 && (r->resume_bits & 1))
    x->smp_published = 1;
  coll_args c;
  const comm_t *cm = comm_get(x->comms, 0, r->id);
  if (r->ended)
    c = (coll_args){.kind = COLL_BARRIER, .rank = r->id, .size = x->np, .node_of = x->host_of};
  else if (!coll_args_of(x, r, (coll_kind)(coll_of[r->act.op] - 1), &c, &cm))
    return;
  c.late = r->resume_late;
  r->resume_late = NULL;
  run_from(r, cm, gen_coll(x, r, &c, cm));
  r->cskip = 1; /* the cursor is on the op to run next */
}

static void expand_coll(replay_ctx *x, rank *r, coll_kind kind) {
  const comm_t *cm;
  coll_args c;
  if (!coll_args_of(x, r, kind, &c, &cm))
    return;
  if (r->act.nbc) {
    push_nbc(r, &c, cm);
    return;
  }
  r->coll_from = 0;
  emit_coll(x, r, &c, cm);
  /* reduce-like actions: then every rank computes, whatever simulate-computation says; not
   * 0 flops, unlike a compute line (SimGrid 3.32: a reduce of 0 flops replays as without the
   * execution, one of 1 flop as with it; coll_differential's default seed, 1 % apart) */
  if (is_reduce_like(kind) && r->act.amount != 0)
    push_amount(r, OP_EXEC, r->act.amount);
}

/* ====== expansion of one action: one function per kind of action ====== */

/* Each expander turns r->act into rops and may change r->category (0 compute/sleep,
 * 1 communication (the default), 2 wait, -1 bookkeeping) and r->logged. */
typedef void (*expander)(replay_ctx *x, rank *r);

static void bookkeeping(rank *r, int logged) {
  r->category = -1;
  r->logged = logged;
}

static void ex_init(replay_ctx *x, rank *r) {
  (void)x;
  push(r, OP_INIT)->flags = (uint8_t)r->act.has_arg;
  bookkeeping(r, 0);
}

static void ex_unlogged(replay_ctx *x, rank *r) { /* finalize */
  (void)x;
  bookkeeping(r, 0);
  r->finalized |= r->act.op == TRACE_FINALIZE;
}
static void ex_nothing(replay_ctx *x, rank *r) { (void)x, bookkeeping(r, 1); }  /* comm_size, location */

static void ex_comm_create(replay_ctx *x, rank *r) {
  bookkeeping(r, 1);
  create_comm(x, r);
}

static void ex_probe(replay_ctx *x, rank *r) {
  (void)x;
  push_p2p(r, OP_PROBE, 0, r->act.peer, r->act.tag, 0)->amount = -1; /* probe only: no receive */
}

static void ex_iprobe(replay_ctx *x, rank *r) { (void)x, push_p2p(r, OP_IPROBE, 0, r->act.peer, r->act.tag, 0); }

/* ====== Region speed (tir extension) ======
 * A host property speed_factor:NAME = F (tir-calibrate cpu writes them; replay.c checks
 * them at start) makes the computation a rank does inside code region NAME on that host
 * run F times as fast: each `compute` volume is divided by the factor of the rank's
 * innermost open region (1 for a region without one). Only when some host has such a
 * property does a rank keep the stack of its open regions' factors: O(1) per compute,
 * one property lookup per region entry. */
static void region_speed(replay_ctx *x, rank *r) {
  if (r->act.op == TRACE_REGION_END) {
    if (r->nspeedf > 0)
      r->nspeedf--;
    return;
  }
  size_t n = strlen(r->act.str) + sizeof "speed_factor:";
  char *key = x_malloc(n);
  snprintf(key, n, "speed_factor:%s", r->act.str);
  const char *v = plat_host_prop(x->o->plat, r->host, key);
  free(key);
  x_grow(&r->speedf, &r->speedf_cap, r->nspeedf + 1, sizeof *r->speedf);
  r->speedf[r->nspeedf++] = v ? strtod(v, NULL) : 1.0;
}

static void ex_region(replay_ctx *x, rank *r) {
  if (x->region_speed)
    region_speed(x, r);
  bookkeeping(r, 0);
}

/* A compute of 0 flops is an execution too, as in SimGrid (an exec that ends at once, in the
 * engine's next step: the flows due within surf/precision then end with it). */
static void ex_compute(replay_ctx *x, rank *r) {
  r->category = 0;
  double v = r->act.amount;
  if (x->o->cfg.simulate_computation)
    push_amount(r, OP_EXEC, r->nspeedf ? v / r->speedf[r->nspeedf - 1] : v);
}

static void ex_sleep(replay_ctx *x, rank *r) {
  (void)x;
  r->category = 0;
  push_amount(r, OP_SLEEP, r->act.amount);
}

static void ex_send(replay_ctx *x, rank *r) {
  const trace_action *a = &r->act;
  int flags = a->op == TRACE_SEND ? ROP_BLOCKING : ROP_STORE | ROP_ISEND;
  push_p2p(r, OP_SEND, flags, a->peer, a->tag, nbytes(x, a->count, a->dtype));
}

/* recv/irecv; a negative size is SimGrid's probe loop followed by the receive */
static void ex_recv(replay_ctx *x, rank *r) {
  const trace_action *a = &r->act;
  int flags = a->op == TRACE_RECV ? ROP_BLOCKING : ROP_STORE;
  if (a->count < 0)
    push_p2p(r, OP_PROBE, flags, a->peer, a->tag, 0);
  else
    push_p2p(r, OP_RECV, flags, a->peer, a->tag, nbytes(x, a->count, a->dtype));
}

static void ex_sendrecv(replay_ctx *x, rank *r) {
  const trace_action *a = &r->act;
  if (a->peer == r->id && a->peer2 == r->id)
    return;
  push_p2p(r, OP_SEND, ROP_ISEND, a->peer, 0, nbytes(x, a->count, a->dtype));
  push_p2p(r, OP_RECV, 0, a->peer2, 0, nbytes(x, a->count2, a->dtype2));
  push(r, OP_WAITALL);
}

static void ex_wait_test(replay_ctx *x, rank *r) {
  (void)x;
  const trace_action *a = &r->act;
  rop *o = push(r, a->op == TRACE_WAIT ? OP_WAIT_STORE : OP_TEST_STORE);
  o->peer = a->peer;
  o->peer2 = a->peer2;
  o->tag = a->tag;
  o->comm = r->push_comm;
  r->category = 2;
}

static void ex_waitall(replay_ctx *x, rank *r) {
  (void)x;
  push(r, OP_WAITALL_STORE);
  r->category = 2;
}

static void ex_coll(replay_ctx *x, rank *r) { expand_coll(x, r, (coll_kind)(coll_of[r->act.op] - 1)); }

/* ---- one-sided communication (rma.h; doc/model.md "One-sided communication") ---- */

/* The members of the current line's window (the rank's, live); NULL after an error. */
static const comm_t *action_win(replay_ctx *x, rank *r) {
  const trace_action *a = &r->act;
  const comm_t *cm = rma_win_comm(x->rma, a->win, r->id);
  if (!cm)
    replay_fail(x, "%s:%ld: rank %d has no window %d (no win_create line of it before, or a win_free): '%s'",
                a->file, a->line, r->id, a->win, a->text);
  return cm;
}

static rop *push_rma(rank *r, int kind, int win, int target) {
  rop *o = push(r, kind);
  o->tag = win;
  o->peer = target;
  return o;
}

/* A barrier over the window's members, in its own matching context (creation, fence, free). */
static void push_win_barrier(replay_ctx *x, rank *r, int win, const comm_t *cm) {
  const int *node_of = x->host_of;
  if (cm->id != 0) {
    for (int k = 0; k < cm->size; k++)
      x->scratch[k] = x->host_of[cm->members[k]];
    node_of = x->scratch;
  }
  coll_args c = {.kind = COLL_BARRIER, .rank = cm->rank_of[r->id], .size = cm->size, .node_of = node_of};
  r->memo.comm = 0; /* prog is overwritten */
  coll_generate(&c, x->sel, x->o->cfg.coll_algo[COLL_BARRIER], &r->prog);
  if (r->prog.resume_at >= 0) /* an SMP algorithm (views of a communicator, not of a window):
                                 the default selector's barrier instead */
    coll_generate(&c, coll_selector_find("default"), NULL, &r->prog);
  r->push_comm = rma_ctx(win);
  push_prog(r, cm, 0);
}

/* win_create, win_allocate(_shared), win_create_dynamic: the window, then a barrier. */
static void ex_win_create(replay_ctx *x, rank *r) {
  const trace_action *a = &r->act;
  const comm_t *cm = action_comm(x, r);
  char err[256];
  if (!cm)
    return;
  if (rma_win_create(x->rma, a->win, cm, r->id, err, sizeof err) < 0) {
    replay_fail(x, "%s:%ld: %s: '%s'", a->file, a->line, err, a->text);
    return;
  }
  push_win_barrier(x, r, a->win, cm);
}

/* win_free: the rank's operations complete, a barrier, then the window is gone. */
static void ex_win_free(replay_ctx *x, rank *r) {
  const comm_t *cm = action_win(x, r);
  if (!cm)
    return;
  push_rma(r, OP_RMA_WAIT, r->act.win, -1);
  push_win_barrier(x, r, r->act.win, cm);
  push_rma(r, OP_RMA_FREE, r->act.win, 0);
  r->category = 2;
}

static void ex_rma_op(replay_ctx *x, rank *r) {
  const trace_action *a = &r->act;
  if (!action_win(x, r))
    return;
  rop *o = push_rma(r, OP_RMA, a->win, a->peer);
  o->bytes = a->count;
  o->amount = (double)a->count2; /* exact: sizes below 2^53 */
  int back = a->op == TRACE_GET || a->op == TRACE_RGET || a->op == TRACE_GET_ACCUMULATE ||
             a->op == TRACE_RGET_ACCUMULATE || a->op == TRACE_FETCH_AND_OP || a->op == TRACE_COMPARE_AND_SWAP;
  int req = a->op >= TRACE_RPUT && a->op <= TRACE_RGET_ACCUMULATE;
  o->flags = (uint8_t)((back ? ROP_BACK : 0) | (req ? ROP_STORE : 0));
}

/* The synchronisations of passive and active target without messages: fence (and a
 * barrier), lock, unlock, lock_all, unlock_all, flush*, sync. */
static void ex_win_sync(replay_ctx *x, rank *r) {
  const trace_action *a = &r->act;
  const comm_t *cm = action_win(x, r);
  if (!cm)
    return;
  r->category = 2;
  int all = a->op == TRACE_WIN_FENCE || a->op == TRACE_WIN_UNLOCK_ALL || a->op == TRACE_WIN_FLUSH_ALL ||
            a->op == TRACE_WIN_FLUSH_LOCAL_ALL;
  if (all || a->op == TRACE_WIN_UNLOCK || a->op == TRACE_WIN_FLUSH || a->op == TRACE_WIN_FLUSH_LOCAL)
    push_rma(r, OP_RMA_WAIT, a->win, all ? -1 : a->peer);
  if (a->op == TRACE_WIN_FENCE)
    push_win_barrier(x, r, a->win, cm);
  else if (a->op == TRACE_WIN_LOCK)
    push_rma(r, OP_RMA_LOCK, a->win, a->peer)->peer2 = (int32_t)a->count;
  else if (a->op == TRACE_WIN_LOCK_ALL)
    push_rma(r, OP_RMA_LOCK_ALL, a->win, -1);
  else if (a->op == TRACE_WIN_UNLOCK || a->op == TRACE_WIN_UNLOCK_ALL)
    push_rma(r, OP_RMA_UNLOCK, a->win, a->op == TRACE_WIN_UNLOCK ? a->peer : -1);
}

/* PSCW: post notifies each origin of its group, start waits for each target's notice,
 * complete waits for the rank's operations then notifies each target, wait waits for the
 * notice of each origin. The notices are 0-byte messages of the window's context. */
static void ex_win_pscw(replay_ctx *x, rank *r) {
  const trace_action *a = &r->act;
  if (!action_win(x, r))
    return;
  int post = a->op == TRACE_WIN_POST || a->op == TRACE_WIN_WAIT, n = a->nvec;
  int notify = a->op == TRACE_WIN_POST || a->op == TRACE_WIN_COMPLETE;
  if (a->op == TRACE_WIN_POST || a->op == TRACE_WIN_START)
    rma_set_group(x->rma, a->win, r->id, !post, a->vec, a->nvec);
  const int *g = rma_group(x->rma, a->win, r->id, !post, &n);
  if (a->op == TRACE_WIN_COMPLETE)
    push_rma(r, OP_RMA_WAIT, a->win, -1);
  r->push_comm = rma_ctx(a->win);
  int tag = a->op == TRACE_WIN_POST || a->op == TRACE_WIN_START ? RMA_TAG_POST : RMA_TAG_DONE;
  for (int i = 0; i < n; i++)
    push_p2p(r, notify ? OP_SEND : OP_RECV, notify ? ROP_RAW : 0, g[i], tag, 0);
  push(r, OP_WAITALL);
  r->category = 2;
}

static const expander expanders[TRACE_NOPS] = {
    [TRACE_INIT] = ex_init,          [TRACE_FINALIZE] = ex_unlogged,   [TRACE_REGION] = ex_region,
    [TRACE_REGION_END] = ex_region, [TRACE_COMM_SPLIT] = ex_comm_create, [TRACE_COMM_DUP] = ex_comm_create,
    [TRACE_COMM_CREATE] = ex_comm_create, [TRACE_PROBE] = ex_probe,   [TRACE_IPROBE] = ex_iprobe,
    [TRACE_COMM_SIZE] = ex_nothing,   [TRACE_LOCATION] = ex_nothing,   [TRACE_COMPUTE] = ex_compute,
    [TRACE_SLEEP] = ex_sleep,         [TRACE_SEND] = ex_send,           [TRACE_ISEND] = ex_send,
    [TRACE_RECV] = ex_recv,           [TRACE_IRECV] = ex_recv,          [TRACE_SENDRECV] = ex_sendrecv,
    [TRACE_WAIT] = ex_wait_test,      [TRACE_TEST] = ex_wait_test,      [TRACE_WAITALL] = ex_waitall,
    [TRACE_BARRIER] = ex_coll,        [TRACE_BCAST] = ex_coll,          [TRACE_REDUCE] = ex_coll,
    [TRACE_ALLREDUCE] = ex_coll,      [TRACE_ALLTOALL] = ex_coll,       [TRACE_ALLTOALLV] = ex_coll,
    [TRACE_GATHER] = ex_coll,         [TRACE_GATHERV] = ex_coll,        [TRACE_ALLGATHER] = ex_coll,
    [TRACE_ALLGATHERV] = ex_coll,     [TRACE_SCATTER] = ex_coll,        [TRACE_SCATTERV] = ex_coll,
    [TRACE_REDUCESCATTER] = ex_coll,  [TRACE_SCAN] = ex_coll,           [TRACE_EXSCAN] = ex_coll,
    [TRACE_WIN_CREATE] = ex_win_create, [TRACE_WIN_ALLOCATE] = ex_win_create,
    [TRACE_WIN_ALLOCATE_SHARED] = ex_win_create, [TRACE_WIN_CREATE_DYNAMIC] = ex_win_create,
    [TRACE_WIN_FREE] = ex_win_free,   [TRACE_PUT] = ex_rma_op,          [TRACE_GET] = ex_rma_op,
    [TRACE_ACCUMULATE] = ex_rma_op,   [TRACE_GET_ACCUMULATE] = ex_rma_op, [TRACE_FETCH_AND_OP] = ex_rma_op,
    [TRACE_COMPARE_AND_SWAP] = ex_rma_op, [TRACE_RPUT] = ex_rma_op,     [TRACE_RGET] = ex_rma_op,
    [TRACE_RACCUMULATE] = ex_rma_op,  [TRACE_RGET_ACCUMULATE] = ex_rma_op, [TRACE_WIN_FENCE] = ex_win_sync,
    [TRACE_WIN_LOCK] = ex_win_sync,   [TRACE_WIN_UNLOCK] = ex_win_sync, [TRACE_WIN_LOCK_ALL] = ex_win_sync,
    [TRACE_WIN_UNLOCK_ALL] = ex_win_sync, [TRACE_WIN_FLUSH] = ex_win_sync, [TRACE_WIN_FLUSH_ALL] = ex_win_sync,
    [TRACE_WIN_FLUSH_LOCAL] = ex_win_sync, [TRACE_WIN_FLUSH_LOCAL_ALL] = ex_win_sync,
    [TRACE_WIN_SYNC] = ex_win_sync,   [TRACE_WIN_POST] = ex_win_pscw,   [TRACE_WIN_START] = ex_win_pscw,
    [TRACE_WIN_COMPLETE] = ex_win_pscw, [TRACE_WIN_WAIT] = ex_win_pscw};

/* Expands r->act into r's program; sets its category and whether it is logged. An
 * action on a communicator other than the world's checks that the rank is a member
 * (collectives do it themselves). */
static void expand(replay_ctx *x, rank *r) {
  const trace_action *a = &r->act;
  r->category = 1;
  r->logged = 1;
  r->push_comm = 0;
  if (a->comm != 0 && !coll_of[a->op]) {
    const comm_t *cm = action_comm(x, r);
    if (!cm)
      return;
    r->push_comm = cm->id;
  }
  expanders[a->op](x, r);
}

/* ====== request store (trace-level isend/irecv requests) ====== */

/* The key's bit in r->store_bloom: a filter of the keys in the store (a bit may stay set
 * after its key left; it is cleared when the store empties), so that adding a new key,
 * the usual case (isend/irecv with distinct peers, then waitall), skips the scan. */
static inline uint64_t store_bit(int src, int dst, int tag, int comm) {
  uint32_t h = (uint32_t)src ^ (uint32_t)dst << 8 ^ (uint32_t)tag << 16 ^ (uint32_t)comm << 24;
  return 1ull << ((h * 0x9E3779B1u) >> 26);
}

__attribute__((always_inline)) static inline store_list *store_find(rank *r, int src, int dst, int tag, int comm, int create) {
  const store_key k = {src, dst, tag, comm};
  const uint64_t bit = store_bit(src, dst, tag, comm);
  if (r->store_bloom & bit)
    for (size_t i = 0; i < r->nstore; i++) {
      const store_key *o = &r->store[i].k;
      if (o->src == src && o->dst == dst && o->tag == tag && o->comm == comm)
        return &r->store[i];
    }
  if (!create)
    return NULL;
  r->store_bloom |= bit;
  if (r->nstore == r->store_cap) {
    size_t old = r->store_cap;
    x_grow(&r->store, &r->store_cap, r->nstore + 1, sizeof *r->store);
    /* entries past nstore keep their reqs buffer for reuse */
    memset(r->store + old, 0, (r->store_cap - old) * sizeof *r->store);
  }
  store_list *l = &r->store[r->nstore++];
  l->n = 0;
  l->k = k;
  return l;
}

__attribute__((always_inline)) static inline void store_add(rank *r, int src, int dst, int tag, int comm, p2p_req *q) {
  store_list *l = store_find(r, src, dst, tag, comm, 1);
  if (l->n == l->cap)
    x_grow(&l->reqs, &l->cap, l->n + 1, sizeof *l->reqs);
  l->reqs[l->n++] = q;
}

/* Pops the first request of key; *found = 0 when the key has no list. */
static p2p_req *store_pop(rank *r, int src, int dst, int tag, int comm, int *found) {
  store_list *l = store_find(r, src, dst, tag, comm, 0);
  *found = l && l->n > 0;
  if (!*found)
    return NULL;
  p2p_req *q = l->reqs[0];
  memmove(l->reqs, l->reqs + 1, (l->n - 1) * sizeof *l->reqs);
  if (--l->n == 0) { /* remove the key, as SimGrid does when a list empties (its */
    store_list gone = *l; /* buffer moves past nstore, for the next key) */
    *l = r->store[--r->nstore];
    r->store[r->nstore] = gone;
    if (r->nstore == 0)
      r->store_bloom = 0;
  }
  return q;
}

/* Moves the requests to wait for into r->wl and empties the store. last_only: only the
 * last request of each key (SimGrid's end-of-replay wait); the others are abandoned. */
static void store_drain(replay_ctx *x, rank *r, int last_only) {
  r->nwl = 0;
  for (size_t i = 0; i < r->nstore; i++) {
    store_list *l = &r->store[i];
    if (r->nwl + l->n > r->wl_cap)
      x_grow(&r->wl, &r->wl_cap, r->nwl + l->n, sizeof *r->wl);
    for (size_t k = 0; k < l->n; k++) {
      if (!l->reqs[k])
        continue;
      if (last_only && k + 1 < l->n) {
        p2p_req_release(x->w, l->reqs[k]);
        continue;
      }
      r->wl[r->nwl++] = l->reqs[k];
    }
    l->n = 0; /* its buffer stays, for the next key */
  }
  r->nstore = 0;
  r->store_bloom = 0;
}

/* ====== blocking helpers ====== */

/* Completion of the rank's execution or sleep: ready again, back in the run queue. */
static void act_done_q(void *ctx, eng_act *a) {
  (void)a;
  rank *r = ctx;
  r->state = RS_READY;
  replay_note_activity(r->x, r->id, OBS_IDLE);
  replay_enqueue(r->x, r->id);
}

/* Sleeps t seconds inside MPI (injected overheads) or, for a trace sleep, idle. */
static int sleep_as(replay_ctx *x, rank *r, double t, obs_activity act) {
  r->state = RS_BUSY;
  replay_note_activity(x, r->id, act);
  if (x->sgc) /* SimGrid's sleep action marks the host's CPU */
    eng_sg_cpu_touch(x->e, r->host);
  eng_sleep_start(x->e, t, act_done_q, r);
  return 0;
}

static int sleep_for(replay_ctx *x, rank *r, double t) { return sleep_as(x, r, t, OBS_MPI); }

static int exec_flops(replay_ctx *x, rank *r, double flops) {
  r->state = RS_BUSY;
  replay_note_activity(x, r->id, OBS_COMPUTE);
  eng_exec_start(x->e, r->host, flops, act_done_q, r);
  return 0;
}

/* ====== tir/simgrid-compat: SimGrid's actor scheduling ======
 *
 * SimGrid runs every ready actor up to its next simcall (an MPI call reaching the
 * kernel: posting a send or a receive, a wait, an execution, a sleep), then handles the
 * simcalls in the order the actors ran; a simcall answered at once (a post, a wait on a
 * finished request) puts the actor at the back of the run queue for the next round, a
 * blocking one parks it until the activity ends, and the waiters of a finished
 * communication are answered in the order they started waiting. So within one date the
 * ranks advance one MPI call at a time, round-robin, and the flows they create come in
 * that order, which decides SimGrid's ties and selective update. Under the compat mode
 * tir runs ranks the same way: sg_yield ends a rank's turn before its second simcall. A
 * wait on a detached send makes no simcall (SimGrid's request has no activity), and a
 * waitall is a loop of waitany, each one a simcall. */

static int covers(const p2p_req *w, const p2p_req *q) {
  if (w == q)
    return 1;
  return w->group && p2p_group_has(w, q);
}

static int any_covers(p2p_req *const *v, size_t n, const p2p_req *q) {
  for (size_t i = 0; i < n; i++)
    if (v[i] && covers(v[i], q))
      return 1;
  return 0;
}

int rank_waits_on(const rank *r, const p2p_req *q) {
  if (r->state != RS_WAIT || !r->sg_waiting || r->pc >= r->nops)
    return 0;
  const rop *o = op_now(r);
  if (!o)
    return 0;
  size_t i = r->wait_from;
  switch (o->kind) {
  case OP_WAITALL:
    return any_covers(r->slots + r->wait_from, r->nslots - r->wait_from, q);
  case OP_WAITEACH: /* one MPI_Wait at a time: on the first request left */
    while (i < r->nslots && !r->slots[i])
      i++;
    return i < r->nslots && covers(r->slots[i], q);
  case OP_WAITALL_STORE:
  case OP_WAITALL_END:
    return any_covers(r->wl, r->nwl, q);
  default:
    return r->cur && covers(r->cur, q);
  }
}

/* Before a simcall: 0 when r may make it in this turn (it is then used), 1 when r has
 * made one already: it goes to the back of the run queue and must return (not done). */
static inline int sg_yield(replay_ctx *x, rank *r) {
  if (__builtin_expect(!x->sgc, 1))
    return 0;
  if (!r->sg_used) {
    r->sg_used = 1;
    return 0;
  }
  r->state = RS_READY;
  replay_enqueue(x, r->id);
  return 1;
}

static int detached_send(const p2p_req *q) { return !q->recv && q->detached; }

#define SG_SLEEP_PHASE 20 /* r->phase: the turn ended before a sleep simcall (sg_sleep) */

/* An MPI overhead sleep of t, after which r's operation goes on in phase `after`; under
 * the compat mode, a sleep after this turn's simcall waits for the next turn (rank_run
 * then starts it). */
static int sg_sleep(replay_ctx *x, rank *r, double t, int after) {
  if (x->sgc && r->sg_used) {
    r->sg_sleep = t;
    r->sg_after = (uint8_t)after;
    r->phase = SG_SLEEP_PHASE;
    r->state = RS_READY;
    replay_enqueue(x, r->id);
    return 0;
  }
  r->sg_used = 1;
  r->phase = after;
  return sleep_for(x, r, t);
}

/* Blocks on requests: the rank polls inside MPI until one completes. */
__attribute__((always_inline)) static inline int block_wait(replay_ctx *x, rank *r) {
  if (__builtin_expect(x->sgc, 0) && !r->sg_waiting) { /* registered on its requests from now on */
    r->sg_waiting = 1;
    r->sg_stamp = ++x->sg_clock;
  }
  if (r->state != RS_WAIT) {
    r->state = RS_WAIT;
    replay_note_activity(x, r->id, OBS_MPI);
  }
  return 0;
}

/* Blocks in a single wait (MPI_Wait, a blocking send or receive): SimGrid's wait_for on
 * an unfinished communication creates a CPU sleep action on the rank's host (a waitany,
 * hence a waitall, does not). */
static int block_single(replay_ctx *x, rank *r) {
  if (x->sgc && !r->sg_waiting)
    eng_sg_cpu_touch(x->e, r->host);
  return block_wait(x, r);
}

/* Finishes a completed request (SimGrid's finish_wait): the receiver's overhead after a
 * detached sender. Returns the sleep to inject. */
static inline double finish_req(replay_ctx *x, p2p_req *q) {
  double ov = p2p_recv_overhead(x->w, q);
  p2p_req_release(x->w, q);
  return ov;
}

/* Single wait on r->cur (phase 2: waiting, phase 3: in the receive overhead). */
static int wait_cur(replay_ctx *x, rank *r) {
  if (r->phase == 3)
    return 1;
  if (x->sgc && !r->sg_waiting && !detached_send(r->cur) && sg_yield(x, r))
    return 0;
  if (!p2p_req_done(r->cur))
    return block_single(x, r);
  r->sg_waiting = 0;
  double ov = finish_req(x, r->cur);
  r->cur = NULL;
  if (ov > 0)
    return sg_sleep(x, r, ov, 3);
  return 1;
}

/* Waitall over v[0..*n) as SimGrid's loop of waitany: finish the first completed
 * request in order (paying its receive overhead), until none is left. One pass: finishing
 * a request changes no other's state and takes no simulated time unless it sleeps, so
 * the next waitany would find the same unfinished ones before it. The finished ones are
 * dropped (order kept, *n updated): a root waiting on np requests rescans only the
 * pending ones at each wake-up, not O(np) finished slots. */
/* tir/simgrid-compat's waitall: one waitany (one simcall) per turn. A detached send is
 * returned first, without a simcall; else a waitany issued now returns the first finished
 * request in order, and a blocked one the first to finish. */
static int sg_wait_all(replay_ctx *x, rank *r, p2p_req **v, size_t *n) {
  r->phase = 0;
  for (;;) {
    size_t pick = SIZE_MAX, pending = 0;
    for (size_t i = 0; i < *n && pick == SIZE_MAX; i++)
      if (v[i] && detached_send(v[i]))
        pick = i;
      else if (v[i])
        pending++;
    if (pick == SIZE_MAX) {
      if (pending == 0) {
        *n = 0;
        return 1;
      }
      if (!r->sg_waiting && sg_yield(x, r))
        return 0;
      uint64_t best = UINT64_MAX;
      for (size_t i = 0; i < *n; i++)
        if (v[i] && p2p_req_done(v[i]) && (r->sg_waiting ? v[i]->done_seq < best : pick == SIZE_MAX))
          pick = i, best = v[i]->done_seq;
      if (pick == SIZE_MAX)
        return block_wait(x, r);
      r->sg_waiting = 0;
    }
    double ov = finish_req(x, v[pick]);
    v[pick] = NULL;
    if (ov > 0)
      return sg_sleep(x, r, ov, 1);
  }
}

__attribute__((always_inline)) static inline int wait_all(replay_ctx *x, rank *r, p2p_req **v, size_t *n) {
  if (x->sgc)
    return sg_wait_all(x, r, v, n);
  /* Without receive overheads (a finished request never sleeps), the scan waits until as
   * many of the rank's requests completed as it left unfinished: a rank waiting on n
   * requests that complete one by one scans O(n) times its pending ones, not O(n^2). */
  if (r->wait_pending > 0 && r->wakes - r->wait_wakes < r->wait_pending)
    return block_wait(x, r);
  r->phase = 0;
  size_t j = 0;
  for (size_t i = 0; i < *n; i++) {
    p2p_req *q = v[i];
    if (!q)
      continue;
    if (!p2p_req_done(q)) {
      v[j++] = q;
      continue;
    }
    double ov = finish_req(x, q);
    if (ov > 0) {
      memmove(v + j, v + i + 1, (*n - i - 1) * sizeof *v);
      *n = j + (*n - i - 1);
      r->phase = 1;
      return sleep_for(x, r, ov);
    }
  }
  *n = j;
  if (j == 0) {
    r->wait_pending = 0;
    return 1;
  }
  if (x->no_recv_ov) {
    r->wait_pending = j;
    r->wait_wakes = r->wakes;
  }
  return block_wait(x, r);
}

/* Waits on v[0..n) one after the other, in order (phase 1: in a receive overhead). */
static int wait_each(replay_ctx *x, rank *r, p2p_req **v, size_t n) {
  r->phase = 0;
  for (size_t i = 0; i < n; i++) {
    if (!v[i])
      continue;
    if (x->sgc && !r->sg_waiting && !detached_send(v[i]) && sg_yield(x, r))
      return 0;
    if (!p2p_req_done(v[i]))
      return block_single(x, r);
    r->sg_waiting = 0;
    double ov = finish_req(x, v[i]);
    v[i] = NULL;
    if (ov > 0)
      return sg_sleep(x, r, ov, 1);
  }
  return 1;
}

/* ====== executing one rop ====== */

/* Where a just-posted request q goes: the trace's request store (isend/irecv actions),
 * the open non-blocking collective, or the program's slots (returns 1: the operation is
 * done); or, for a blocking send/recv, r->cur, to be waited in phase 2 (returns 0). */
__attribute__((always_inline)) static inline int keep(rank *r, const rop *o, p2p_req *q) {
  if (o->flags & ROP_STORE) {
    store_add(r, q->src, q->dst, q->tag, q->comm, q);
    return 1;
  }
  if (!(o->flags & ROP_BLOCKING)) {
    if (r->nbc)
      p2p_group_add(r->nbc, q);
    else {
      if (r->nslots == r->slots_cap)
        x_grow(&r->slots, &r->slots_cap, r->nslots + 1, sizeof *r->slots);
      r->slots[r->nslots++] = q;
    }
    return 1;
  }
  r->cur = q;
  r->phase = 2;
  return 0;
}

/* ====== tir/simgrid-compat with smpi/async-small-thresh: SimGrid's simcalls in a post ======
 * With a non-zero threshold SimGrid's Request::start makes more simcalls, one turn each
 * (sg_yield): a send locks the receiver's mailboxes (a mutex), probes the large mailbox for
 * a receive (messages below the threshold), posts (isend) and unlocks; a receive locks, probes
 * the small mailbox, then the large one (below the threshold, when the small one had
 * nothing), posts (irecv) and unlocks. The mutex serialises the posts to one receiver, so the
 * mailbox chosen is the one p2p.c picks when the post is made. Phases (the first simcall,
 * the lock, is phase 1 of a send, 0 of a receive): 4 probe, 5 probe or post, 6 post or
 * unlock, 7 unlock. */

static inline int sg_async(const replay_ctx *x) { return x->sgc && x->o->cfg.async_small_thresh != 0; }

/* The unlock simcall after a post (the request in r->cur): then as without the threshold. */
static int sg_unlock(replay_ctx *x, rank *r, rop *o) {
  if (sg_yield(x, r))
    return 0;
  p2p_req *q = r->cur;
  r->cur = NULL;
  if (keep(r, o, q))
    return 1;
  return wait_cur(x, r);
}

static int sg_send_steps(replay_ctx *x, rank *r, rop *o) {
  if (r->phase == 1) /* locked */
    r->phase = o->bytes < x->o->cfg.async_small_thresh ? 4 : 5;
  if (r->phase == 4) { /* the large mailbox's probe */
    if (sg_yield(x, r))
      return 0;
    r->phase = 5;
  }
  if (r->phase == 5) {
    if (sg_yield(x, r))
      return 0;
    r->cur = p2p_post_send(x->w, r->id, o->peer, o->tag, o->comm, o->bytes, r->act.line);
    x->sends_posted++;
    r->stats->bytes_sent += (uint64_t)o->bytes;
    r->phase = 6;
  }
  return sg_unlock(x, r, o);
}

static int sg_recv_steps(replay_ctx *x, rank *r, rop *o) {
  if (r->phase == 4) { /* the small mailbox's probe */
    if (sg_yield(x, r))
      return 0;
    int small = o->bytes < x->o->cfg.async_small_thresh;
    r->phase = small && p2p_probe_mailbox(x->w, o->peer, r->id, o->tag, o->comm, 1) < 0 ? 5 : 6;
  }
  if (r->phase == 5) { /* the large mailbox's probe */
    if (sg_yield(x, r))
      return 0;
    r->phase = 6;
  }
  if (r->phase == 6) {
    if (sg_yield(x, r))
      return 0;
    r->cur = p2p_post_recv(x->w, o->peer, r->id, o->tag, o->comm, o->bytes, r->act.line);
    r->phase = 7;
  }
  return sg_unlock(x, r, o);
}

__attribute__((noinline)) static int do_send(replay_ctx *x, rank *r, rop *o) {
  if (r->phase == 0) {
    double ov = o->flags & ROP_RAW ? 0 : p2p_send_overhead(x->w, r->id, o->bytes, o->flags & ROP_ISEND);
    r->phase = 1;
    if (ov > 0)
      return sg_sleep(x, r, ov, 1);
  }
  if (r->phase == 1) {
    if (sg_yield(x, r))
      return 0;
    if (sg_async(x))
      return sg_send_steps(x, r, o);
    p2p_req *q = p2p_post_send(x->w, r->id, o->peer, o->tag, o->comm, o->bytes, r->act.line);
    x->sends_posted++;
    r->stats->bytes_sent += (uint64_t)o->bytes;
    if (keep(r, o, q))
      return 1;
  }
  if (r->phase >= 4)
    return sg_send_steps(x, r, o);
  return wait_cur(x, r);
}

__attribute__((noinline)) static int do_recv(replay_ctx *x, rank *r, rop *o) {
  if (r->phase == 0) {
    if (sg_yield(x, r))
      return 0;
    if (sg_async(x)) {
      r->phase = 4;
      return sg_recv_steps(x, r, o);
    }
    p2p_req *q = p2p_post_recv(x->w, o->peer, r->id, o->tag, o->comm, o->bytes, r->act.line);
    if (keep(r, o, q))
      return 1;
  }
  if (r->phase >= 4)
    return sg_recv_steps(x, r, o);
  return wait_cur(x, r);
}

__attribute__((noinline)) static int do_wait_store(replay_ctx *x, rank *r, rop *o) {
  if (r->phase == 0) {
    if (r->nstore == 0) {
      replay_fail(x, "%s:%ld: action wait not preceded by any irecv or isend: '%s'", r->act.file,
                  r->act.line, r->act.text);
      return -1;
    }
    int found;
    r->cur = store_pop(r, o->peer, o->peer2, o->tag, o->comm, &found);
    if (!r->cur)
      return 1;
    r->phase = 2;
  }
  return wait_cur(x, r);
}

__attribute__((noinline)) static int do_test_store(replay_ctx *x, rank *r, rop *o) {
  if (r->phase == 0) {
    int found;
    r->cur = store_pop(r, o->peer, o->peer2, o->tag, o->comm, &found);
    if (!r->cur)
      return 1;
    r->phase = 1;
    double t = x->test_nsleeps * x->o->cfg.test_sleep;
    if (t > 0)
      return sg_sleep(x, r, t, 1);
  }
  if (r->phase == 1) {
    p2p_req *q = r->cur;
    if (x->sgc && !detached_send(q) && sg_yield(x, r)) /* the test simcall */
      return 0;
    if (!p2p_req_done(q)) {
      store_add(r, q->src, q->dst, q->tag, q->comm, q);
      r->cur = NULL;
      if (x->o->cfg.grow_injected)
        x->test_nsleeps++;
      return 1;
    }
    store_add(r, q->src, q->dst, q->tag, q->comm, NULL);
    x->test_nsleeps = 1;
    r->cur = NULL;
    double ov = finish_req(x, q);
    r->phase = 3;
    if (ov > 0)
      return sg_sleep(x, r, ov, 3);
  }
  return 1;
}

static int do_probe(replay_ctx *x, rank *r, rop *o);
static int do_iprobe(replay_ctx *x, rank *r, rop *o);


/* The less frequent rops, out of step: step stays a bare dispatcher whose calls are tail
 * calls, so the hot send/recv rops pay no large frame of inlined cold paths. */
#define COLD __attribute__((noinline))

/* Program waitall/waiteach over the slots posted since wait_from. */
COLD static int do_wait_slots(replay_ctx *x, rank *r, rop *o) {
  size_t n = r->nslots - r->wait_from;
  if (n == 0) /* nothing posted (a collective on one rank): slots may be NULL, NULL + 0 undefined */
    return r->nslots = r->wait_from = 0, 1;
  p2p_req **v = r->slots + r->wait_from;
  int done = o->kind == OP_WAITALL ? wait_all(x, r, v, &n) : wait_each(x, r, v, n);
  if (done)
    r->nslots = r->wait_from = 0;
  else /* wait_all dropped the finished requests */
    r->nslots = r->wait_from + n;
  return done;
}

COLD static int do_wait_slot(replay_ctx *x, rank *r, rop *o) {
  if (r->phase == 0) {
    p2p_req **q = &r->slots[r->wait_from + (size_t)o->peer];
    r->cur = *q;
    *q = NULL;
    if (!r->cur)
      return 1;
    r->phase = 2;
  }
  return wait_cur(x, r);
}

COLD static int do_exec_sleep(replay_ctx *x, rank *r, rop *o) {
  if (r->phase == 0 && sg_yield(x, r))
    return 0;
  if (r->phase++ == 0)
    return o->kind == OP_EXEC ? exec_flops(x, r, o->amount) : sleep_as(x, r, o->amount, OBS_SLEEP);
  return 1;
}

COLD static int do_waitall_store(replay_ctx *x, rank *r, rop *o) {
  if (r->phase == 0 && r->nwl == 0)
    store_drain(x, r, o->kind == OP_WAITALL_END);
  if (wait_all(x, r, r->wl, &r->nwl)) {
    r->nwl = 0;
    return 1;
  }
  return 0;
}

/* One-sided: start an operation (with its request in the store for the r* forms). */
COLD static int do_rma(replay_ctx *x, rank *r, rop *o) {
  p2p_req *q = NULL;
  if (o->flags & ROP_STORE) {
    q = p2p_req_new_owned(x->w, r->id, r->act.line);
    store_add(r, r->id, r->id, -(++r->nbc_count), 0, q);
  }
  r->stats->bytes_sent += (uint64_t)o->bytes + (uint64_t)o->amount;
  return rma_start(x->rma, o->tag, r->id, o->peer, o->bytes, (int64_t)o->amount, o->flags & ROP_BACK, q) < 0 ? -1 : 1;
}

/* The waits of one-sided synchronisations (phase 1: blocked, woken when over). */
COLD static int do_rma_wait(replay_ctx *x, rank *r, rop *o) {
  int done = o->kind == OP_RMA_WAIT ? rma_wait(x->rma, o->tag, r->id, o->peer, r->phase == 0)
                                    : r->phase == 0 ? rma_lock(x->rma, o->tag, r->id, o->peer, o->peer2)
                                                    : rma_lock_granted(x->rma, r->id);
  if (done)
    return 1;
  r->phase = 1;
  return block_wait(x, r);
}

/* lock_all: every member's lock, shared, in rank order; phase 2i: ask member i's, 2i + 1:
 * queued for it. */
COLD static int do_rma_lock_all(replay_ctx *x, rank *r, rop *o) {
  const comm_t *cm = rma_win_comm(x->rma, o->tag, r->id);
  while (cm) {
    int i = r->phase / 2;
    if (r->phase & 1) {
      if (!rma_lock_granted(x->rma, r->id))
        return block_wait(x, r);
      r->phase++;
    } else if (i >= cm->size) {
      return 1;
    } else if (rma_lock(x->rma, o->tag, r->id, cm->members[i], 0)) {
      r->phase += 2;
    } else {
      r->phase++;
      return block_wait(x, r);
    }
  }
  return 1;
}

COLD static int do_rma_unlock(replay_ctx *x, rank *r, rop *o) {
  const comm_t *cm = rma_win_comm(x->rma, o->tag, r->id);
  for (int i = 0; cm && i < (o->peer < 0 ? cm->size : 1); i++)
    rma_unlock(x->rma, o->tag, r->id, o->peer < 0 ? cm->members[i] : o->peer);
  return 1;
}

COLD static int do_other(replay_ctx *x, rank *r, rop *o) {
  switch (o->kind) {
  case OP_RMA:
    return do_rma(x, r, o);
  case OP_RMA_WAIT:
  case OP_RMA_LOCK:
    return do_rma_wait(x, r, o);
  case OP_RMA_LOCK_ALL:
    return do_rma_lock_all(x, r, o);
  case OP_RMA_UNLOCK:
    return do_rma_unlock(x, r, o);
  case OP_RMA_FREE:
    rma_win_free(x->rma, o->tag, r->id);
    return 1;
  case OP_POLL_WAIT: /* the end of a polling run: its message (woken when it comes) */
    return p2p_watch(x->w, o->peer, r->id, o->tag, o->comm) ? 1 : block_wait(x, r);
  case OP_NBC_BEGIN:
    r->nbc = p2p_group_new(x->w, r->id, r->act.line);
    return 1;
  case OP_NBC_END:
    store_add(r, r->id, r->id, -(++r->nbc_count), 0, r->nbc);
    r->nbc = NULL;
    return 1;
  case OP_INIT:
    x->dt_default = o->flags ? 8 : 1;
    r->init_time = *x->now;
    return 1;
  case OP_COLL_RESUME:
    resume_coll(x, r);
    return 1;
  }
  return 1;
}

static int step(replay_ctx *x, rank *r, rop *o) {
  switch (o->kind) {
  case OP_SEND:
    return do_send(x, r, o);
  case OP_RECV:
    return do_recv(x, r, o);
  case OP_WAITALL:
  case OP_WAITEACH:
    return do_wait_slots(x, r, o);
  case OP_WAIT_SLOT:
    return do_wait_slot(x, r, o);
  case OP_EXEC:
  case OP_SLEEP:
    return do_exec_sleep(x, r, o);
  case OP_WAIT_STORE:
    return do_wait_store(x, r, o);
  case OP_TEST_STORE:
    return do_test_store(x, r, o);
  case OP_WAITALL_STORE:
  case OP_WAITALL_END:
    return do_waitall_store(x, r, o);
  case OP_PROBE:
    return do_probe(x, r, o);
  case OP_IPROBE:
    return do_iprobe(x, r, o);
  default:
    return do_other(x, r, o);
  }
}

/* One MPI_Iprobe's look at the mailboxes after its execution: the size of the message, or
 * -1; or -2 when the turn ended first (tir/simgrid-compat with smpi/async-small-thresh:
 * SimGrid looks at the small mailbox, then in another simcall at the large one; *phase is
 * then set to large, the phase that comes back here). */
static int64_t probe_mailboxes(replay_ctx *x, rank *r, rop *o, int large) {
  if (!sg_async(x))
    return p2p_probe(x->w, o->peer, r->id, o->tag, o->comm);
  if (r->phase != large) {
    sg_yield(x, r); /* the first simcall of the turn that the execution's end began */
    int64_t bytes = p2p_probe_mailbox(x->w, o->peer, r->id, o->tag, o->comm, 1);
    if (bytes >= 0)
      return bytes;
    r->phase = large;
  }
  if (sg_yield(x, r))
    return -2;
  return p2p_probe_mailbox(x->w, o->peer, r->id, o->tag, o->comm, 0);
}

#define PROBE_LARGE 10 /* do_probe's phase: the large mailbox's look (probe_mailboxes) */

/* recv with a negative size: SimGrid's MPI_Probe, a loop of MPI_Iprobe each executing
 * nsleeps x smpi/iprobe x speed x usage flops at that bounded rate; then the receive
 * with the size of the message found. Phases: 0 probe, 1 probed (PROBE_LARGE: half
 * probed), 2+ receive. */
__attribute__((noinline)) static int do_probe(replay_ctx *x, rank *r, rop *o) {
  if (r->phase >= 2 && r->phase != PROBE_LARGE) {
    rop rv = *o;
    rv.kind = OP_RECV;
    r->phase -= 2;
    int done = do_recv(x, r, &rv);
    if (r->phase == SG_SLEEP_PHASE) /* the receive's overhead waits for the next turn */
      r->sg_after = (uint8_t)(r->sg_after + 2);
    else
      r->phase += 2;
    return done;
  }
  int failed = r->phase == 1 || r->phase == PROBE_LARGE; /* the poll below follows a failed probe */
  if (failed) {
    int64_t bytes = probe_mailboxes(x, r, o, PROBE_LARGE);
    if (r->polling) /* (before a yield: a rank between two turns is not stuck polling) */
      r->polling = 0, x->npolling--;
    if (bytes == -2)
      return 0;
    if (bytes >= 0) {
      x->iprobe_nsleeps = 1;
      if (o->amount < 0) /* MPI_Probe alone (tir's probe line) */
        return 1;
      o->bytes = bytes;
      r->phase = 2;
      return step(x, r, o);
    }
    if (x->o->cfg.grow_injected)
      x->iprobe_nsleeps++;
  }
  r->phase = 1;
  double speed = eng_host_speed(x->e, r->host), usage = x->o->cfg.iprobe_cpu_usage;
  double flops = x->iprobe_nsleeps * x->o->cfg.iprobe_sleep * speed * usage;
  if (!(flops > 0)) { /* a poll of no cost: the loop would spin with the clock stopped */
    replay_fail(x, "%s:%ld: rank %d probes for a message that is not there yet, and a poll costs nothing "
                "(smpi/iprobe %g s x smpi/iprobe-cpu-usage %g x host speed %g flop/s): the probe loop would "
                "spin forever without simulated time passing (SimGrid hangs); give smpi/iprobe > 0: '%s'",
                r->act.file, r->act.line, r->id, x->o->cfg.iprobe_sleep, usage, speed, r->act.text);
    return -1;
  }
  if (failed) { /* replay.c stuck_polling: only a poll after a failed probe is hopeless */
    r->polling = 1, x->npolling++;
    r->poll_stamp = x->sends_posted;
  }
  r->state = RS_BUSY;
  replay_note_activity(x, r->id, OBS_MPI);
  eng_exec_start_bounded(x->e, r->host, flops, usage * speed, act_done_q, r);
  return 0;
}

/* One MPI_Iprobe (tir's iprobe line): its polling cost, then a look at the mailbox. */
__attribute__((noinline)) static int do_iprobe(replay_ctx *x, rank *r, rop *o) {
  if (r->phase == 0) {
    double speed = eng_host_speed(x->e, r->host), usage = x->o->cfg.iprobe_cpu_usage;
    double flops = x->iprobe_nsleeps * x->o->cfg.iprobe_sleep * speed * usage;
    r->phase = 1;
    if (flops > 0) {
      r->state = RS_BUSY;
      replay_note_activity(x, r->id, OBS_MPI);
      eng_exec_start_bounded(x->e, r->host, flops, usage * speed, act_done_q, r);
      return 0;
    }
  }
  int64_t bytes = probe_mailboxes(x, r, o, 2);
  if (bytes == -2)
    return 0;
  if (bytes >= 0)
    x->iprobe_nsleeps = 1;
  else if (x->o->cfg.grow_injected)
    x->iprobe_nsleeps++;
  return 1;
}

/* ====== the loop ====== */

static void log_action(replay_ctx *x, rank *r) {
  double now = *x->now, d = now - r->act_start;
  replay_note_action(x, r, 0);
  if (r->logged && x->o->log)
    fprintf(x->o->log, "[%f] %s %f\n", now, r->act.text, d);
  r->stats->actions++;
  if (r->category == 0)
    r->stats->compute += d;
  else if (r->category == 1) {
    r->stats->comm += d;
    if (coll_of[r->act.op])
      r->stats->coll += d;
  }
  else if (r->category == 2)
    r->stats->wait += d;
}

/* ====== polling runs (tir/polling:wait) ======
 *
 * A program that polls (MPI_Iprobe, MPI_Test in a loop) leaves as many failed polls in its
 * trace as the traced machine happened to spin, and SimGrid's replay charges each one
 * (smpi/iprobe, smpi/test, growing with smpi/grow-injected-times): the prediction then
 * depends on the traced run's timing. So by default a *run* is read ahead: the failed polls
 * of one key, consecutive in the rank's trace but for compute lines between them (and after
 * the last one), that is `iprobe SRC TAG 0` lines (SRC, TAG possibly the wildcards -555,
 * -444) or tir-trace's `test SRC DST TAG 0` lines. The line that follows decides:
 *  - iprobe run, then a successful `iprobe S T 1`, a `probe S T`, a `recv`/`irecv` from S
 *    with tag T that the run's key matches: the run (polls and computes) is replaced by a
 *    wait until a message from S with tag T is in the rank's mailbox, then the line runs;
 *  - test run, then the completion of its request (`test SRC DST TAG` with FLAG 1 or none,
 *    which becomes a `wait` of that key; a `wait` of that key; a `waitall`): the run is
 *    dropped, and the completion waits for the request;
 *  - anything else (another line, another key's poll, the end of the trace): the run's polls
 *    cost nothing (they found nothing and the program waits for nothing: progress polls,
 *    such as ARMCI-MPI's, or the polls of a loop over several keys) and its computes are
 *    replayed (the work between them).
 * A successful poll waits the same way (`iprobe S T 1` for its message, tir-trace's
 * `test S D T 1` as a wait), failed polls before it or not, so that the number of failed
 * polls, zero included, never changes the time. SimGrid's own `test` lines (no FLAG) keep
 * SimGrid's semantics.
 * A run and the line that ends it are one action for the -v log, the statistics' categories
 * and the timelines (the run's lines count as actions). */

/* Whether r->act may concern polling runs (a quick test for every action): a run is open,
 * or it is a poll (tir/polling:wait only). */
static inline int may_poll(const replay_ctx *x, const rank *r) {
  return (r->run.op || r->act.op == TRACE_IPROBE || r->act.op == TRACE_TEST) && !x->o->cfg.polling_simgrid;
}

#define ANY_SOURCE_VALUE (-555) /* SimGrid's MPI_ANY_SOURCE: tir-trace writes it in failed */
#define ANY_TAG_VALUE (-444)    /* iprobes with a wildcard, as MPI gives no source then */

static int is_failed_poll(const trace_action *a) {
  return (a->op == TRACE_IPROBE || a->op == TRACE_TEST) && a->count == 0;
}

static int same_run_key(const poll_run *p, const trace_action *a) {
  return (int)a->op == p->op && a->peer == p->peer && a->tag == p->tag && a->comm == p->comm &&
         (a->op != TRACE_TEST || a->peer2 == p->peer2);
}

static void run_add(poll_run *p, double item) {
  if (p->n == p->cap)
    x_grow(&p->items, &p->cap, p->n + 1, sizeof *p->items);
  p->items[p->n++] = item;
}

/* A run that no message or completion ends, appended to r's program: its computes (the
 * work between the polls), not its polls, which found nothing and wait for nothing. */
static void run_without_polls(replay_ctx *x, rank *r) {
  poll_run *p = &r->run;
  for (size_t i = 0; i < p->n; i++)
    if (p->items[i] > 0 && x->o->cfg.simulate_computation)
      push_amount(r, OP_EXEC, p->items[i]);
  p->op = 0;
  p->n = 0;
}

/* Takes r->act into the run when it is one of its lines (or starts one): 1, else 0. A
 * failed poll of another key first ends the current run (run_without_polls). */
static int absorb(replay_ctx *x, rank *r) {
  poll_run *p = &r->run;
  const trace_action *a = &r->act;
  if (p->op && a->op == TRACE_COMPUTE) {
    run_add(p, a->amount);
  } else if (is_failed_poll(a)) {
    if (p->op && !same_run_key(p, a))
      run_without_polls(x, r);
    if (!p->op)
      *p = (poll_run){.op = a->op, .peer = a->peer, .peer2 = a->peer2, .tag = a->tag, .comm = a->comm,
                      .items = p->items, .cap = p->cap};
    run_add(p, -1);
  } else {
    return 0;
  }
  r->stats->actions++;
  return 1;
}

/* Whether r->act names a message by a concrete source and tag that the iprobe run p's key
 * (wildcards allowed; NULL: any key) matches: a successful iprobe, a probe, a receive. */
static int names_message(const poll_run *p, const trace_action *a) {
  int kind = a->op == TRACE_PROBE || a->op == TRACE_RECV || a->op == TRACE_IRECV ||
             (a->op == TRACE_IPROBE && a->count == 1);
  if (!kind || a->peer < 0 || a->tag == ANY_TAG_VALUE)
    return 0;
  return !p || (a->comm == p->comm && (p->peer == ANY_SOURCE_VALUE || p->peer == a->peer) &&
                (p->tag == ANY_TAG_VALUE || p->tag == a->tag));
}

/* Whether r->act completes the request a test run polled: its test (FLAG 1 or none), its
 * wait, or a waitall. */
static int ends_test_run(const poll_run *p, const trace_action *a) {
  return a->op == TRACE_WAITALL || ((a->op == TRACE_TEST || a->op == TRACE_WAIT) && a->peer == p->peer &&
                                    a->peer2 == p->peer2 && a->tag == p->tag && a->comm == p->comm);
}

/* Ends the run before r->act (its computes, or nothing when r->act is what it waited for),
 * and puts the wait for r->act's message or request first: after an iprobe run, or
 * for a successful `iprobe S T 1`, a wait until the message is in the mailbox; after a test
 * run, or for tir-trace's `test S D T 1`, the test becomes a wait of its key (returns 1:
 * r->act is replaced). */
static int close_run(replay_ctx *x, rank *r) {
  poll_run *p = &r->run;
  const trace_action *a = &r->act;
  int ended = p->op == TRACE_IPROBE ? names_message(p, a) : p->op == TRACE_TEST && ends_test_run(p, a);
  if (p->op && !ended)
    run_without_polls(x, r);
  int iprobe_run = ended && p->op == TRACE_IPROBE;
  p->op = 0;
  p->n = 0;
  if (iprobe_run || (a->op == TRACE_IPROBE && names_message(NULL, a))) {
    rop *o = push_p2p(r, OP_POLL_WAIT, 0, a->peer, a->tag, 0);
    o->comm = a->comm;
    return 0;
  }
  if (a->op != TRACE_TEST || !(ended || a->count == 1))
    return 0;
  rop *o = push(r, OP_WAIT_STORE); /* the completing test, as a wait */
  *o = (rop){.kind = OP_WAIT_STORE, .peer = a->peer, .peer2 = a->peer2, .tag = a->tag, .comm = a->comm};
  r->category = 2;
  r->logged = 1;
  return 1;
}

/* The end of the rank's trace: its pending requests and one-sided operations. */
static void end_program(replay_ctx *x, rank *r) {
  r->ended = 1;
  r->in_action = 0;
  push(r, OP_WAITALL_END);
  push_rma(r, OP_RMA_WAIT, 0, -1); /* its one-sided operations, if any, complete */
  if (x->o->cfg.finalization_barrier) {
    coll_args c = {.kind = COLL_BARRIER, .rank = r->id, .size = x->np, .node_of = x->host_of};
    r->push_comm = 0;
    r->coll_from = 0;
    emit_coll(x, r, &c, comm_get(x->comms, 0, r->id));
  }
}

/* Reads r's next action into r->act and makes --validate's own checks of it (one
 * validation path: validate_action). 1: got one, 0: the trace ended, -1: error in err. */
static int read_action(replay_ctx *x, rank *r, char *err, size_t errlen) {
  int got = trace_next(x->t, r->id, &r->act, err, errlen);
  if (got > 0 && validate_action(&r->act, x->np, err, errlen) < 0)
    return -1;
  return got;
}

/* Fetches and expands the next action (with the polling run it ends, if any), or the
 * end-of-replay program. 1: got work, 0: the rank is done, -1: error. */
static int next_action(replay_ctx *x, rank *r) {
  if (r->ended)
    return 0;
  char err[1024];
  int got;
  r->nops = r->pc = 0;
  r->phase = 0;
  while ((got = read_action(x, r, err, sizeof err)) > 0 && may_poll(x, r) && absorb(x, r))
    ;
  if (got < 0) {
    replay_fail(x, "%s", err);
    return -1;
  }
  r->act_start = *x->now;
  if (got == 0) {
    if (r->run.op)
      run_without_polls(x, r);
    end_program(x, r);
    return 1;
  }
  r->in_action = 1;
  replay_note_action(x, r, 1);
  if (r->act.op == TRACE_REGION || r->act.op == TRACE_REGION_END)
    replay_note_region(x, r->id, r->act.op == TRACE_REGION ? r->act.str : NULL);
  if (!may_poll(x, r) || !close_run(x, r))
    expand(x, r);
  return 1;
}

void rank_start_sleep(rank *r, double seconds) { sleep_for(r->x, r, seconds); }

int rank_run(replay_ctx *x, rank *r) {
  if (r->state == RS_DONE)
    return 0;
  r->state = RS_READY;
  r->sg_used = 0; /* a new turn (tir/simgrid-compat, sg_yield) */
  for (;;) {
    if (x->failed)
      return -1;
    if (r->pc == r->nops) {
      if (r->in_action) {
        log_action(x, r);
        r->in_action = 0;
      }
      int got = next_action(x, r);
      if (got < 0)
        return -1;
      if (got == 0) {
        r->state = RS_DONE;
        return 0;
      }
      continue;
    }
    if (r->phase == SG_SLEEP_PHASE) { /* a sleep simcall deferred to this turn (sg_sleep) */
      r->sg_used = 1;
      r->phase = r->sg_after;
      return sleep_for(x, r, r->sg_sleep);
    }
    rop *o = cur_op(r);
    if (!o) { /* a collective run is over */
      r->pc++;
      r->phase = 0;
      continue;
    }
    int done = step(x, r, o);
    if (done < 0)
      return -1;
    if (!done)
      return 0;
    advance(r, o);
  }
}

/* Drops the requests a rank still holds (a replay stopped before its end: deadlock, error,
 * truncated traces), so that freeing the p2p world frees them. */
static void release_held(rank *r) {
  p2p_world *w = r->x ? r->x->w : NULL;
  if (!w)
    return;
  p2p_req_release(w, r->cur);
  p2p_req_release(w, r->nbc);
  for (size_t i = r->wait_from; i < r->nslots; i++)
    p2p_req_release(w, r->slots[i]);
  for (size_t i = 0; i < r->nwl; i++)
    p2p_req_release(w, r->wl[i]);
  for (size_t i = 0; i < r->nstore; i++)
    for (size_t k = 0; k < r->store[i].n; k++)
      p2p_req_release(w, r->store[i].reqs[k]);
  r->cur = r->nbc = NULL;
  r->nslots = r->nwl = r->nstore = 0;
}

void rank_free(rank *r) {
  release_held(r);
  free(r->smp);
  free(r->speedf);
  free(r->run.items);
  free(r->ops);
  free(r->slots);
  free(r->wl);
  for (size_t i = 0; i < r->store_cap; i++) /* past nstore: kept buffers, or NULL */
    free(r->store[i].reqs);
  free(r->store);
  free(r->vbytes);
  free(r->vbytes2);
  coll_prog_free(&r->prog);
}

void rank_describe(const rank *r, FILE *out) {
  fprintf(out, "  rank %d", r->id);
  if (r->in_action)
    fprintf(out, " blocked in '%s' (%s:%ld)", r->act.text, r->act.file, r->act.line);
  else if (r->ended)
    fprintf(out, " blocked at the end of its trace, waiting for its pending requests");
  const rop *o;
  const p2p_req *q = r->cur;
  for (size_t i = 0; !q && i < r->nwl; i++)
    q = r->wl[i];
  for (size_t i = r->wait_from; !q && i < r->nslots; i++)
    q = r->slots[i];
  if (q)
    fprintf(out, ", waiting for rank %d (%s, tag %d, %" PRId64 " bytes)", q->recv ? q->src : q->dst,
            q->recv ? "its send" : "its receive", q->tag, q->bytes);
  else if (r->polling && r->pc < r->nops && (o = op_now(r)))
    fprintf(out, ", probing for a message from rank %d with tag %d that no rank can send any more",
            o->peer, o->tag);
  fputc('\n', out);
}
