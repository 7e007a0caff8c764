/* rank.h - a simulated MPI rank: a state machine interpreting its trace actions.
 *
 * A rank never has a thread or a stack of its own. Each trace action is expanded into a
 * short program of operations (post a send or a receive, wait, waitall, execute,
 * sleep, test, probe); rank_run executes operations until one blocks (on an execution,
 * a sleep or requests), and is called again when what it waits for completes. */
#ifndef TIR_RANK_H
#define TIR_RANK_H

#include "coll.h"
#include "comm.h"
#include "engine.h"
#include "p2p.h"
#include "replay.h"
#include "trace.h"

#include <stdint.h>

/* An operation of a rank's program (a collective's has one per message): amount and peer2
 * serve different kinds and share a union. */
typedef struct rop {
  uint8_t kind;  /* rop_kind (rank.c) */
  uint8_t flags; /* ROP_* */
  int32_t peer, tag;
  int32_t comm;  /* global communicator id (0: world) */
  int64_t bytes;
  union {
    double amount; /* OP_EXEC, OP_SLEEP: flops or seconds; OP_RMA: bytes back; OP_PROBE:
                      negative for a probe alone */
    int32_t peer2; /* OP_WAIT_STORE, OP_TEST_STORE: the store key's dst; OP_RMA_LOCK: exclusive */
  };
} rop;

typedef struct store_key {
  int32_t src, dst, tag, comm;
} store_key;

typedef struct store_list {
  store_key k;
  p2p_req **reqs; /* FIFO; NULL entries are placeholders left by successful tests */
  size_t n, cap;
} store_list;

/* A collective call without count vectors, as far as its program depends on it (the
 * communicator gives the rank's place, the size and node_of). */
typedef struct coll_memo {
  int32_t comm;   /* communicator + 1; 0: none */
  int32_t root, dtsize;
  uint8_t kind, smp_blocked;
  uint32_t smp_done;
  int64_t sbytes, rbytes, count;
} coll_memo;

/* A run of failed polls being read ahead (tir/polling:wait; rank.c, "Polling runs"): the
 * failed iprobe or test lines of one key and the compute lines between them, kept until the
 * line after them says whether they end with their message (then they replay as waiting
 * for it) or not (then as recorded). */
typedef struct poll_run {
  int op;                          /* TRACE_IPROBE or TRACE_TEST; 0: no run */
  int32_t peer, peer2, tag, comm;  /* its key: iprobe SRC TAG, test SRC DST TAG */
  double *items;                   /* as recorded: compute amounts (>= 0), polls (-1) */
  size_t n, cap;
} poll_run;
/* The SMP views (coll_smp.c scopes) a rank has built on one communicator. */
typedef struct smp_state {
  int32_t comm;
  uint32_t done;
} smp_state;

typedef struct replay_ctx replay_ctx;

typedef enum { RS_READY, RS_BUSY, RS_WAIT, RS_DONE } rank_state;

typedef struct rank {
  replay_ctx *x;        /* the replay it belongs to */
  int id;
  int host;
  rank_state state;
  int queued;           /* in the run queue */
  int in_action;        /* an action is being executed (ops below are its program) */
  int ended;            /* its trace ended: the end-of-replay program is running */
  int category;         /* of the current action: 0 compute, 1 comm, 2 wait, -1 none */
  int logged;           /* the current action is printed in the -v log */
  double act_start;     /* simulated time at which the current action started */
  trace_action act;     /* the current action (strings owned by the reader) */
  rop *ops;             /* the current action's program */
  size_t nops, ops_cap, pc;
  int phase;            /* progress within ops[pc] (or within the run's current op) */
  rop crop;             /* a collective run (rank.c "Collective runs"): its current op, */
  size_t cpc;           /* its index in prog, */
  int crep;             /* the post it is at when that op starts a series (coll.h), */
  int crop_rep;         /* crop's post of that series, */
  size_t crop_at;       /* the index crop was made from (SIZE_MAX: none), */
  const comm_t *run_cm; /* and the communicator of prog's peers */
  uint8_t cskip;        /* the run's cursor was moved onto its next op */
  p2p_req *cur;         /* request waited for by a single wait */
  p2p_req **slots;      /* requests of the program not yet waited (collectives) */
  size_t nslots, slots_cap, wait_from;
  p2p_req **wl;         /* requests of a trace waitall */
  size_t nwl, wl_cap;
  uint64_t wakes;       /* completions of its requests so far (replay.c wake) */
  uint64_t wait_wakes;  /* wakes when a waitall last scanned its requests, */
  size_t wait_pending;  /* and how many it left unfinished (0: scan at the next call) */
  store_list *store;    /* trace-level request store: key (src, dst, tag) -> FIFO */
  size_t nstore, store_cap;
  uint64_t store_bloom;  /* filter of the store's keys (rank.c store_bit) */
  double init_time;     /* time of its init action (simulated timer origin) */
  coll_prog prog;       /* scratch for collective programs */
  coll_memo memo;       /* the collective whose program prog holds (see expand_coll) */
  int64_t *vbytes, *vbytes2; /* scratch: per-rank byte vectors */
  replay_rank *stats;
  p2p_req *nbc;         /* the non-blocking collective being posted (its group request) */
  int nbc_count;        /* non-blocking collectives posted so far (their store tags: -k) */
  int push_comm;        /* communicator of the operations being generated (expand) */
  int polling;          /* in a probe loop's poll after a failed probe (replay.c stuck) */
  uint64_t poll_stamp;  /* replay_ctx.sends_posted when that probe failed */
  poll_run run;         /* polls read ahead (tir/polling:wait) */
  int finalized;        /* its trace reached `finalize` (a trace cut short has none) */
  double *speedf;       /* speed factor of each open code region, innermost last (only when
                           some host has speed_factor:NAME properties) */
  size_t nspeedf, speedf_cap;
  uint8_t sg_used;      /* tir/simgrid-compat: this turn's simcall is made (sg_yield) */
  uint8_t sg_waiting;   /* ... blocked in a wait simcall, registered at sg_stamp */
  uint64_t sg_stamp;
  double sg_sleep;      /* ... a sleep deferred to its next turn, then phase sg_after */
  uint8_t sg_after;
  smp_state *smp;       /* per communicator used by a collective: SMP views built */
  size_t nsmp;
  size_t coll_from;     /* first op of the collective's program still to push (> 0 when
                           it is generated again after init_smp: COLL_OP_RESUME) */
  int resume_comm;      /* communicator of the program cut at a COLL_OP_RESUME ... */
  uint32_t resume_bits; /* ... and the views its init_smp builds */
  coll_gen_fn resume_late; /* ... or the generator of what follows its late read (coll_prog.late) */
} rank;

/* Runs rank r until it blocks or ends. Returns 0, or -1 after reporting a fatal
 * error (bad trace line, protocol error) through the context. */
int rank_run(replay_ctx *x, rank *r);
void rank_free(rank *r);
/* Blocks r in a sleep (smpi/init's injected start delay). */
void rank_start_sleep(rank *r, double seconds);
/* tir/simgrid-compat: whether r is blocked in a wait registered on q (q among the
 * requests its current wait waits for, or a child of one of them). */
int rank_waits_on(const rank *r, const p2p_req *q);
/* One line saying what a blocked rank waits for (deadlock reports). */
void rank_describe(const rank *r, FILE *out);

#endif
