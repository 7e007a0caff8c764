/* coll.h - collective algorithms as generators of point-to-point programs, and selectors.
 *
 * An algorithm turns one collective call on one rank into that rank's program: the
 * ordered list of point-to-point operations it performs (isend/irecv/send/recv, waits),
 * with peers as ranks of the communicator. The MPI runtime then runs the program
 * through the same matching, protocols and network model as the trace's own messages,
 * so a collective costs exactly what its messages cost. Programs do not depend on
 * timing, so they are generated once, when the rank enters the collective.
 *
 * Algorithms are registered by name in one table (coll_registry.c), under the names
 * SimGrid uses (`--cfg=smpi/bcast:binomial_tree`). A selector picks an algorithm per
 * call from communicator size and message size: SimGrid's `default`, `ompi` (Open MPI
 * 4.1 tuned rules) and `mpich` (MPICH 4.0 rules). */
#ifndef TIR_COLL_H
#define TIR_COLL_H

#include <stddef.h>
#include <stdint.h>

typedef enum coll_kind {
  COLL_BCAST,
  COLL_REDUCE,
  COLL_ALLREDUCE,
  COLL_ALLTOALL,
  COLL_ALLTOALLV,
  COLL_GATHER,
  COLL_GATHERV,
  COLL_ALLGATHER,
  COLL_ALLGATHERV,
  COLL_SCATTER,
  COLL_SCATTERV,
  COLL_BARRIER,
  COLL_REDUCE_SCATTER,
  COLL_SCAN,
  COLL_EXSCAN,
  COLL_NKINDS
} coll_kind;

/* Internal tags of collectives: negative, never equal to a trace's tags (SimGrid's
 * COLL_TAG_* values). */
enum {
  COLL_TAG_REDUCE = -112,
  COLL_TAG_SCATTER = -223,
  COLL_TAG_SCATTERV = -334,
  COLL_TAG_GATHER = -445,
  COLL_TAG_ALLGATHER = -556,
  COLL_TAG_ALLGATHERV = -667,
  COLL_TAG_BARRIER = -778,
  COLL_TAG_REDUCE_SCATTER = -889,
  COLL_TAG_ALLTOALLV = -1000,
  COLL_TAG_ALLTOALL = -1112,
  COLL_TAG_GATHERV = -2223,
  COLL_TAG_BCAST = -3334,
  COLL_TAG_ALLREDUCE = -4445,
  COLL_TAG_SCAN = -888 /* SimGrid's linear scan/exscan use -888 */
};

struct coll_args;
struct coll_prog;

/* A generator: writes collective a's program (an algorithm, a selector, the rest of a cut). */
typedef void (*coll_gen_fn)(const struct coll_args *a, struct coll_prog *p);

/* One collective call, as one rank sees it. Sizes are in bytes. */
typedef struct coll_args {
  coll_kind kind;
  int rank;                /* rank in the communicator */
  int size;                /* communicator size */
  int root;                /* rooted collectives */
  int64_t sbytes, rbytes;  /* bytes sent / received per peer (count x datatype size) */
  int64_t count;           /* element count (reduce-like), for segmenting algorithms */
  int dtsize;              /* element size in bytes (>= 0) */
  const int64_t *scounts;  /* v collectives: bytes to each peer (alltoallv, scatterv) */
  const int64_t *rcounts;  /* bytes from each peer (alltoallv, gatherv, allgatherv,
                              reduce_scatter's per-rank counts) */
  const int *node_of;      /* SMP-aware algorithms: host index of each comm rank (or NULL) */
  /* SimGrid's SMP sub-communicators (coll_smp.c). A scope names a communicator as seen
   * from the call's: 0 the call's own, 2s + 1 and 2s + 2 the host (intra) and leaders
   * communicators of scope s. */
  uint32_t smp_done;       /* scopes whose SMP view this rank has built (bit s); the first
                              algorithm needing an unbuilt one sends init_smp's messages */
  int smp_scope;           /* scope of this call's communicator (> 0: an SMP communicator) */
  int smp_blocked;         /* scope 0's is_blocked() gives the real value (else false, as
                              SimGrid's before rank 0 of MPI_COMM_WORLD has set it) */
  /* Generated again at a late read (coll_prog.late): this generator gives what follows
   * the cut, instead of the call's algorithm (NULL: the call). */
  coll_gen_fn late;
} coll_args;

typedef enum coll_op_kind {
  COLL_OP_ISEND,  /* post a send (MPI_Isend / persistent start), keep the request */
  COLL_OP_IRECV,  /* post a receive, keep the request */
  COLL_OP_SEND,   /* blocking MPI_Send */
  COLL_OP_RECV,   /* blocking MPI_Recv */
  COLL_OP_WAITALL, /* MPI_Waitall on every request posted since the last waitall (a loop of
                      waitany: completed requests are finished first) */
  COLL_OP_WAITEACH, /* MPI_Wait on each of them in posting order (SimGrid's scan/exscan);
                      differs from WAITALL when smpi/or injects receive overheads */
  COLL_OP_WAIT,     /* MPI_Wait on one request: peer = its index among the isend/irecv
                      posted since the last waitall (0-based); later waits skip it */
  COLL_OP_RESUME,   /* end of a program cut after init_smp's messages: once they complete,
                      the runtime generates the call again (coll_prog.resume_at) */
  COLL_OP_SERIES    /* the next ops, a group of posts (as many as the high 32 bits of bytes
                      say), repeat: peer times in all, their peers moving by tag each time,
                      modulo the low 32 bits of bytes (coll_isend_series); a program is read
                      through coll_prog_op */
} coll_op_kind;

typedef struct coll_op {
  int32_t peer;        /* communicator rank */
  signed int op : 8;   /* coll_op_kind */
  signed int tag : 24; /* a COLL_TAG_* (0 for the waits) */
  int64_t bytes;
} coll_op;
_Static_assert(sizeof(coll_op) == 16, "keep coll_op small: programs of big alltoalls are long");

/* A rank's program for one collective call (grows; reused between calls). */
typedef struct coll_prog {
  coll_op *ops;     /* the operations, in order */
  size_t n, cap;    /* used and allocated length of ops */
  int nreq;         /* isend/irecv posted since the last waitall (next request index) */
  uint32_t smp_built; /* scopes whose init_smp messages the program holds (coll_smp_need) */
  long init_at;     /* index of the first of them */
  long resume_at;   /* -1, or index of the COLL_OP_RESUME ending the program: the rest depends
                       on state init_smp publishes (is_blocked) and is generated again, from
                       init_at on, once the messages before it have completed */
  /* Non-NULL: the cut is a late read instead (tir/simgrid-compat: SimGrid reads a global
   * the selectors of other ranks may have set since the call began), and this generates
   * what follows it: the call is generated again with coll_args.late set to it, and that
   * program is pushed whole (init_at is 0). */
  coll_gen_fn late;
} coll_prog;

void coll_prog_reset(coll_prog *p);
void coll_prog_free(coll_prog *p);
/* Appenders used by the algorithms. coll_isend/coll_irecv return the request's index
 * for coll_wait (requests are numbered from 0 after each waitall). */
int coll_isend(coll_prog *p, int peer, int tag, int64_t bytes);
int coll_irecv(coll_prog *p, int peer, int tag, int64_t bytes);
void coll_send(coll_prog *p, int peer, int tag, int64_t bytes);
void coll_recv(coll_prog *p, int peer, int tag, int64_t bytes);
void coll_waitall(coll_prog *p);
void coll_wait(coll_prog *p, int req); /* MPI_Wait on request index req */
void coll_waiteach(coll_prog *p);
void coll_resume(coll_prog *p); /* COLL_OP_RESUME (coll_smp.c, and late reads) */
/* Whether a is the call being generated itself (not a sub-collective of its algorithm),
 * on its own communicator. */
int coll_top_call(const coll_args *a);
/* Series: posts to (from) peers first, first + step, first + 2 step, ... modulo m, count
 * of them, with one tag and size, held as one op (and the group's): a basic_linear
 * alltoall's program on n ranks is 5 ops instead of 2n - 1, an nbc_linear allgather's 7
 * (an isend and an irecv a peer, one group), so programs cost no memory per message (134
 * MB at 2,048 ranks, a program a rank). Each returns the first request's index; the others
 * follow it, in posting order. */
int coll_isend_series(coll_prog *p, int first, int count, int step, int m, int tag, int64_t bytes);
int coll_irecv_series(coll_prog *p, int first, int count, int step, int m, int tag, int64_t bytes);
/* An isend and an irecv with each peer of the series (the isend first if send_first). */
int coll_pair_series(coll_prog *p, int first, int count, int step, int m, int tag, int64_t sbytes, int64_t rbytes,
                     int send_first);
/* Two series that recur: every other rank's pair of posts in ascending rank order (the ranks
 * below, then those above), and Open MPI's linear alltoall (irecvs from rank + 1, rank + 2,
 * ... then isends to rank - 1, rank - 2, ..., modulo size). */
void coll_pair_each(coll_prog *p, int rank, int size, int tag, int64_t sbytes, int64_t rbytes, int send_first);
void coll_alltoall_posts(coll_prog *p, int rank, int size, int tag, int64_t sbytes, int64_t rbytes);
/* Reading a program: the op at position (i, j) as a plain op (j: the post of the series op
 * i starts, else 0); coll_prog_next moves to the next position (i == p->n: the end). Inline:
 * the runtime reads each post of a run through them. */
static inline int coll_series_width(const coll_op *s) { return (int)(s->bytes >> 32); }
/* Peer k of a series: first + k step modulo m (a subtraction or an addition when the
 * step is small, as it is: no division per post). */
static inline int coll_series_peer(int first, int k, int step, int64_t m) {
  int64_t v = first + (int64_t)k * step;
  if (v >= m && (v -= m) >= m)
    v %= m;
  else if (v < 0 && (v += m) < 0 && (v %= m) < 0)
    v += m;
  return (int)v;
}
static inline coll_op coll_prog_op(const coll_prog *p, size_t i, int j) {
  const coll_op *s = &p->ops[i];
  if (s->op != COLL_OP_SERIES)
    return *s;
  int w = coll_series_width(s), k = j, g = 0; /* post j: the g-th of the group's k-th time */
  if (w == 2)
    k = j >> 1, g = j & 1;
  else if (w > 2)
    k = j / w, g = j % w;
  coll_op o = s[1 + g];
  o.peer = coll_series_peer(o.peer, k, s->tag, s->bytes & 0xffffffff);
  return o;
}
static inline void coll_prog_next(const coll_prog *p, size_t *i, int *j) {
  const coll_op *s = &p->ops[*i];
  if (s->op != COLL_OP_SERIES) {
    (*i)++;
    return;
  }
  if (++*j < s->peer * coll_series_width(s))
    return;
  *i += 1 + (size_t)coll_series_width(s);
  *j = 0;
}

/* MPI_Sendrecv as SimGrid does it: isend + irecv started together, then waitall. */
void coll_sendrecv(coll_prog *p, int dst, int64_t sbytes, int src, int64_t rbytes, int tag);

typedef struct coll_algo {
  coll_kind kind;
  const char *name; /* SimGrid's name, e.g. "binomial_tree" */
  coll_gen_fn gen;
  const char *desc;
} coll_algo;

/* Name table (coll_registry.c). */
int coll_algo_count(void);
const coll_algo *coll_algo_at(int i);
/* Index of algorithm name for kind, or -1. */
int coll_algo_find(coll_kind kind, const char *name);
/* Comma-separated names of kind's algorithms into buf. */
void coll_algo_names(coll_kind kind, char *buf, size_t len);
const char *coll_kind_name(coll_kind kind); /* "bcast", "reduce_scatter", ... */
/* kind from its --cfg name ("bcast", "reduce_scatter", ...), or -1. */
int coll_kind_find(const char *name);

/* Registers the collectives' configuration keys (smpi/coll-selector, smpi/<collective>)
 * with the base layer's config (coll_settings.c); call before setting any of them. */
void coll_settings_register(void);

/* Selectors: each maps a call to an algorithm name of the registry. */
/* A selector's decision for call a; it may append messages to p first (SimGrid's
 * selectors that build SMP communicators, coll_smp.c) and read the SMP view. */
typedef const char *(*coll_select_fn)(const coll_args *a, coll_prog *p);
typedef struct coll_selector {
  const char *name;
  coll_select_fn select;
  const char *desc;
} coll_selector;
int coll_selector_find(const char *name); /* index or -1 */
const coll_selector *coll_selector_at(int i);
int coll_selector_count(void);
const char *coll_selector_names(void);

/* Generates a's program into p with the algorithm forced for its kind (forced != NULL
 * and non-empty) or picked by selector sel (a->late set: that generator instead, and NULL
 * is returned). Returns the algorithm used. When the program
 * builds an SMP view (p->smp_built), it ends at a COLL_OP_RESUME after init_smp's
 * messages: the caller runs them, marks the scopes built (a->smp_done) and calls
 * coll_generate again, executing the new program from p->init_at on. */
const coll_algo *coll_generate(const coll_args *a, int sel, const char *forced, coll_prog *p);

/* Records the algorithm forced for kind by --cfg=smpi/KIND:NAME (NULL or "" for none), so
 * that algorithms calling a sub-collective of that kind use it as SimGrid does. The
 * runtime calls it once per kind before the replay; without it, only a sub-collective of
 * the call's own kind follows the call's forced algorithm. */
void coll_force(coll_kind kind, const char *name);

/* Once at the start of each replay: clears the state algorithms keep from call to call
 * (SimGrid's mvapich2 selector globals, coll_select_mvapich2.c) and sets whether
 * algorithms keep SimGrid 3.32's bugs that break runs (tir/simgrid-compat: e.g. the SMP
 * trees that send to another host's leader, coll_smp.c), or run as their authors meant. */
void coll_run_begin(int simgrid_compat);

/* Appends to p the program of sub-collective a (a->kind) as the current call's selector
 * picks it: what SimGrid's algorithms get when they call colls::bcast, colls::gather...
 * (for use by algorithms only, inside coll_generate). */
void coll_sub(const coll_args *a, coll_prog *p);

/* Selectors' decision functions (coll_select_*.c). */
const char *coll_select_default(const coll_args *a, coll_prog *p);
const char *coll_select_ompi(const coll_args *a, coll_prog *p);
const char *coll_select_mpich(const coll_args *a, coll_prog *p);
const char *coll_select_mvapich2(const coll_args *a, coll_prog *p);
const char *coll_select_impi(const coll_args *a, coll_prog *p);

#endif
