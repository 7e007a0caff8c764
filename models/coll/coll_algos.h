/* coll_algos.h - prototypes of every algorithm generator listed in coll_algos.def. */
#ifndef TIR_COLL_ALGOS_H
#define TIR_COLL_ALGOS_H
#include "coll.h"
#define COLL_ALGO(kind, name, fn, desc) void fn(const coll_args *a, coll_prog *p);
#include "coll_algos.def"
#undef COLL_ALGO

/* Open MPI 4.1 alltoall decision (coll_select_default.c): algorithm number, and its name. */
int coll_ompi_alltoall_alg(int n, long bytes_per_peer);
const char *coll_alltoall_alg_name(int alg);
/* One row of an Open MPI decision table: for communicators smaller than max_n (0: any),
 * the algorithm alg[k] of the first limit lim[k] exceeding the byte count, else alg[n]. */
typedef struct coll_row {
  int max_n;          /* row applies when size < max_n; 0 = every size */
  int n;              /* number of limits */
  int64_t lim[10];    /* byte limits, increasing */
  signed char alg[11]; /* algorithm numbers (1-based, index into the selector's names) */
} coll_row;
/* Algorithm number of the first row of rows[0..nrows) applying to size n and bytes b. */
int coll_decide(const coll_row *rows, size_t nrows, int n, int64_t b);
/* Bytes of data of a reduce_scatter/allgatherv (sum of its per-rank byte counts). */
int64_t coll_sum(const int64_t *v, int n);
/* Largest power of two <= n (n >= 1). */
int coll_pof2_floor(int n);
/* Open MPI's COLL_TUNED_COMPUTED_SEGCOUNT: elements per segment of segsize bytes. */
int64_t coll_segcount(int64_t segsize, int dtsize, int64_t count);
/* Open MPI's trees (coll_topo.c): one rank's parent and children. */
#define COLL_TREE_MAX 32
typedef struct coll_tree {
  int prev;                /* parent rank, -1 at the root (bmtrees: the root itself) */
  int nnext;               /* number of children */
  int next[COLL_TREE_MAX]; /* children, in serving order */
  int root;                /* the tree's root */
} coll_tree;
void coll_tree_kary(coll_tree *t, int fanout, int rank, int n, int root);
void coll_tree_chain(coll_tree *t, int fanout, int rank, int n, int root);
void coll_tree_in_order_bmtree(coll_tree *t, int rank, int n, int root);
void coll_tree_in_order_bintree(coll_tree *t, int rank, int n);
/* Whole buffer from a non-zero root to rank 0 (bcast_pipe.c). */
void coll_bcast_root_to_0(const coll_args *a, coll_prog *p);
/* MPICH's recursive doubling allgather of b-byte blocks, with its fix-up for sizes that
 * are not powers of two, as rank r of n (allgather.c; also alltoall rdb). */
void coll_rdb_allgather(int r, int n, int64_t b, int tag, coll_prog *p);
/* SMP algorithms (allreduce_smp.c): binomial reduce to / bcast from the leader (local
 * rank 0) of rank r's host, ranks taken host by host, c per host. */
void coll_smp_intra_reduce(coll_prog *p, int r, int c, int n, int tag, int64_t b);
void coll_smp_intra_bcast(coll_prog *p, int r, int c, int n, int tag, int64_t b);
/* SimGrid's SMP view of a communicator (coll_smp.c). Ranks of host h (hosts ordered by
 * their lowest rank, h = the leader's rank in SimGrid's leaders communicator) are
 * by_host[start[h] .. start[h + 1]), ascending; by_host[start[h]] is h's leader. */
typedef struct coll_smp {
  int n, nhosts;
  int *host;           /* host index of each rank */
  int *by_host, *start; /* ranks grouped by host; start has nhosts + 1 entries */
  int uniform;         /* every host holds as many ranks (SimGrid's is_uniform) */
  int blocked;         /* each host's ranks are consecutive (SimGrid's is_blocked) */
  int me_host, intra_rank, intra_size; /* the calling rank's host, rank and size there */
} coll_smp;
void coll_smp_layout(const coll_args *a, coll_smp *s); /* fills s (allocates) */
void coll_smp_free(coll_smp *s);
/* Builds the SMP view (coll_smp_need) and returns SimGrid's num_core: the calling rank's
 * intra size when the communicator is uniform, else 1; *uniform (if not NULL) says which. */
int coll_smp_cores(const coll_args *a, coll_prog *p, int *uniform);
/* Whether a's SMP view is built (by an earlier call or earlier in p); SimGrid's
 * is_uniform() and is_blocked() of a's communicator as the calling rank reads them. */
int coll_smp_built(const coll_args *a, const coll_prog *p);
int coll_smp_is_uniform(const coll_args *a, const coll_prog *p, const coll_smp *s);
int coll_smp_is_blocked(const coll_args *a, const coll_prog *p, const coll_smp *s);
/* gen run on the calling rank's host communicator / on the leaders communicator (the
 * caller must be a leader); a holds the sub-call's sizes, counts and root. */
void coll_on_intra(const coll_args *a, coll_gen_fn gen, const coll_smp *s, coll_prog *p);
void coll_on_leaders(const coll_args *a, coll_gen_fn gen, const coll_smp *s, coll_prog *p);
/* Appends init_smp's messages when a->smp_fresh and p has none yet: every algorithm that
 * uses the SMP view calls it first (SimGrid: if (!comm->get_leaders_comm()) init_smp()). */
void coll_smp_need(const coll_args *a, coll_prog *p);
/* Appends the program of gen run by rank `me` of the sub-communicator whose rank k is
 * communicator rank members[k] (m ranks), scope 2 x a's + sub; a's sizes, root, counts
 * are the sub-call's. Peers outside the sub-communicator are left out (one warning). */
void coll_on_group(const coll_args *a, coll_gen_fn gen, int sub, const int *members, int m, int me,
                   coll_prog *p);
void coll_by_ompi(const coll_args *a, coll_prog *p);
void coll_by_mpich(const coll_args *a, coll_prog *p);
void coll_by_mvapich2(const coll_args *a, coll_prog *p);
void coll_by_impi(const coll_args *a, coll_prog *p);

/* SimGrid's mvapich2 globals (smpi_mvapich2_selector_stampede.hpp): the functions and
 * factors the mvapich2 selector last chose, which the mvapich2 algorithms read; NULL
 * (never chosen) makes each algorithm take SimGrid's default. Shared by all ranks of a
 * run, as in SimGrid; coll_run_begin clears them (coll_select_mvapich2.c). */
typedef struct coll_mv2_globals {
  coll_gen_fn bcast, bcast_intra;         /* MV2_Bcast_function, MV2_Bcast_intra_node_function */
  int intra_knomial;                      /* mv2_intra_node_knomial_factor (4) */
  coll_gen_fn reduce, reduce_intra;       /* MV2_Reduce_function, MV2_Reduce_intra_function */
  int reduce_intra_k, reduce_inter_k;     /* mv2_reduce_{intra,inter}_knomial_factor (-1: unset) */
  coll_gen_fn allreduce, allreduce_intra; /* MV2_Allreducection, MV2_Allreduce_intra_function */
  int allreduce_intra_on_comm;            /* the intra function is a reduce over the whole
                                             communicator (MPIR_Allreduce_reduce_p2p/shmem_MV2) */
  coll_gen_fn gather_intra;               /* MV2_Gather_intra_node_function */
  coll_gen_fn scatter_intra;              /* MV2_Scatter_intra_function */
} coll_mv2_globals;
extern coll_mv2_globals coll_mv2_state;
/* tir/simgrid-compat (coll_run_begin): keep SimGrid's bugs that break runs. */
extern int coll_simgrid_compat;
/* End (exclusive) of the host of rank r in SimGrid's rank arithmetic (c ranks a host,
 * N in all) for a local tree's children: N under tir/simgrid-compat (SimGrid checks a
 * child against N only, so with c not a power of two a host's last rank talks to the
 * next host's leader, which never answers: a deadlock or an unmatched message), else the
 * host's own end. */
int coll_smp_host_end(int r, int c, int n);
#endif
