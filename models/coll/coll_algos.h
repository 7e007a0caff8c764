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
/* Ranks per host if all hosts of the communicator hold as many, else 0 (bcast_split.c). */
int coll_ranks_per_node(const coll_args *a);
/* MPICH's recursive doubling allgather of b-byte blocks, with its fix-up for sizes that
 * are not powers of two, as rank r of n (allgather.c; also alltoall rdb). */
void coll_rdb_allgather(int r, int n, int64_t b, int tag, coll_prog *p);
/* SMP algorithms (allreduce_smp.c): SimGrid's num_core, the ranks per host when every
 * host holds as many, else 1; binomial reduce to / bcast from the leader (local rank 0)
 * of rank r's host, ranks placed host by host, c per host. */
int coll_smp_cores(const coll_args *a);
void coll_smp_intra_reduce(coll_prog *p, int r, int c, int n, int tag, int64_t b);
void coll_smp_intra_bcast(coll_prog *p, int r, int c, int n, int tag, int64_t b);
void coll_by_ompi(const coll_args *a, coll_prog *p);
void coll_by_mpich(const coll_args *a, coll_prog *p);
#endif
