/* coll_select_ompi.c - SimGrid 3.32's `ompi` selector (smpi_openmpi_selector.cpp, "Updated
 * 02/2022"), which transcribes Open MPI 4.1's coll_tuned_decision_fixed.c.
 *
 * Each collective has a table of rows (communicator size bound, byte limits, algorithm
 * numbers) and the list of algorithm names SimGrid maps Open MPI's numbers to. The
 * replay's operation is MPI_OP_NULL, which SimGrid treats as commutative, so only the
 * commutative branches of allreduce/reduce/reduce_scatter are kept. Where SimGrid has no
 * counterpart of an Open MPI algorithm it substitutes another (e.g. bcast 1 "linear" ->
 * NTSL, alltoall 4 "linear_sync" -> basic_linear); doc/collectives.md lists them. */
#include "coll_algos.h"

static const coll_row allreduce_rows[] = {
    {4, 6, {8, 4096, 8192, 16384, 65536, 262144}, {4, 3, 4, 3, 4, 5, 6}},
    {8, 2, {16, 8192}, {4, 3, 6}},
    {16, 1, {8192}, {3, 6}},
    {32, 2, {64, 4096}, {5, 3, 6}},
    {64, 1, {128}, {5, 6}},
    {128, 1, {262144}, {3, 6}},
    {256, 2, {131072, 262144}, {2, 3, 6}},
    {512, 1, {4096}, {2, 6}},
    {2048, 2, {2048, 16384}, {2, 3, 6}},
    {4096, 3, {2048, 4096, 16384}, {2, 5, 3, 6}},
    {0, 3, {2048, 16384, 32768}, {2, 5, 3, 6}},
};
static const char *const allreduce_names[] = {"redbcast", "redbcast", "rdb", "lr", "ompi_ring_segmented", "rab_rdb"};
static const coll_row alltoall_rows[] = {
    {3, 9, {2, 4, 16, 64, 256, 4096, 32768, 262144, 1048576}, {2, 5, 2, 5, 2, 5, 2, 4, 5, 2}},
    {8, 5, {8192, 16384, 65536, 524288, 1048576}, {4, 1, 4, 1, 2, 1}},
    {16, 1, {262144}, {4, 1}},
    {32, 6, {4, 512, 8192, 32768, 262144, 524288}, {4, 3, 4, 1, 4, 1, 4}},
    {64, 2, {512, 524288}, {3, 1, 4}},
    {128, 4, {1024, 2048, 4096, 262144}, {3, 1, 4, 1, 2}},
    {256, 3, {1024, 2048, 262144}, {3, 4, 1, 2}},
    {512, 3, {1024, 8192, 32768}, {3, 4, 1, 2}},
    {1024, 5, {512, 8192, 16384, 131072, 262144}, {3, 4, 1, 4, 1, 2}},
    {2048, 5, {512, 1024, 2048, 16384, 262144}, {3, 4, 1, 4, 1, 4}},
    {4096, 4, {1024, 4096, 8192, 131072}, {3, 4, 1, 4, 1}},
    {0, 5, {2048, 8192, 16384, 32768, 65536}, {3, 4, 1, 4, 1, 4}},
};
static const char *const alltoall_names[] = {"basic_linear", "pair", "bruck", "basic_linear", "basic_linear"};

/* Open MPI 4.1's alltoall algorithm number for n ranks and b bytes per peer (also what
 * SimGrid's default selector uses). */
int coll_ompi_alltoall_alg(int n, long b) {
  return coll_decide(alltoall_rows, sizeof alltoall_rows / sizeof alltoall_rows[0], n, b);
}
static const coll_row alltoallv_rows[] = {
    {4, 0, {}, {2}},
    {64, 0, {}, {1}},
    {128, 0, {}, {2}},
    {256, 0, {}, {1}},
    {1024, 0, {}, {2}},
    {0, 0, {}, {1}},
};
static const char *const alltoallv_names[] = {"ompi_basic_linear", "pair"};
static const coll_row barrier_rows[] = {
    {4, 0, {}, {3}},
    {8, 0, {}, {1}},
    {64, 0, {}, {3}},
    {256, 0, {}, {4}},
    {512, 0, {}, {6}},
    {1024, 0, {}, {4}},
    {4096, 0, {}, {6}},
    {0, 0, {}, {4}},
};
static const char *const barrier_names[] = {"ompi_basic_linear", "ompi_basic_linear", "ompi_recursivedoubling", "ompi_bruck", "ompi_two_procs", "ompi_tree"};
static const coll_row bcast_rows[] = {
    {4, 9, {32, 256, 512, 1024, 32768, 131072, 262144, 524288, 1048576}, {3, 5, 3, 7, 1, 5, 2, 1, 6, 5}},
    {8, 5, {64, 128, 2048, 8192, 1048576}, {5, 6, 5, 6, 1, 2}},
    {16, 5, {8, 64, 4096, 16384, 32768}, {7, 5, 7, 5, 6, 1}},
    {32, 2, {4096, 1048576}, {7, 6, 8}},
    {64, 1, {2048}, {6, 7}},
    {128, 0, {}, {7}},
    {256, 4, {2, 16384, 32768, 65536}, {6, 5, 1, 5, 7}},
    {1024, 2, {16384, 32768}, {7, 4, 7}},
    {2048, 1, {524288}, {7, 8}},
    {4096, 1, {262144}, {7, 8}},
    {0, 3, {8192, 16384, 262144}, {7, 5, 7, 8}},
};
static const char *const bcast_names[] = {"NTSL", "ompi_pipeline", "ompi_pipeline", "ompi_split_bintree", "NTSB", "binomial_tree", "mvapich2_knomial_intra_node", "scatter_rdb_allgather", "scatter_LR_allgather"};
static const coll_row reduce_rows[] = {
    {4, 6, {8, 16, 32, 262144, 524288, 1048576}, {7, 4, 3, 1, 3, 2, 3}},
    {8, 5, {4096, 65536, 262144, 524288, 1048576}, {4, 2, 5, 1, 5, 1}},
    {16, 1, {8192}, {4, 5}},
    {32, 1, {4096}, {4, 5}},
    {256, 0, {}, {5}},
    {512, 2, {8192, 16384}, {5, 6, 5}},
    {2048, 0, {}, {5}},
    {4096, 4, {512, 1024, 8192, 16384}, {5, 6, 5, 6, 5}},
    {0, 6, {16, 32, 1024, 2048, 8192, 16384}, {5, 6, 5, 6, 5, 6, 5}},
};
static const char *const reduce_names[] = {"ompi_basic_linear", "ompi_chain", "ompi_pipeline", "ompi_binary", "ompi_binomial", "ompi_in_order_binary", "ompi_basic_linear"};
static const coll_row reduce_scatter_rows[] = {
    {4, 2, {65536, 131072}, {3, 4, 3}},
    {8, 2, {8, 262144}, {1, 2, 3}},
    {32, 1, {262144}, {2, 3}},
    {64, 3, {64, 2048, 524288}, {1, 2, 4, 3}},
    {128, 4, {256, 512, 2048, 4096}, {1, 2, 4, 2, 4}},
    {256, 2, {256, 512}, {1, 2, 4}},
    {512, 2, {256, 1024}, {1, 2, 4}},
    {1024, 4, {512, 2048, 8192, 16384}, {1, 2, 4, 2, 4}},
    {2048, 4, {512, 4096, 16384, 32768}, {1, 2, 4, 2, 4}},
    {4096, 2, {512, 4096}, {1, 2, 4}},
    {0, 2, {1024, 8192}, {1, 2, 4}},
};
static const char *const reduce_scatter_names[] = {"default", "ompi_basic_recursivehalving", "ompi_ring", "ompi_butterfly"};
static const coll_row allgather_rows[] = {
    {3, 0, {}, {6}},
    {32, 0, {}, {3}},
    {64, 2, {1024, 65536}, {3, 5, 4}},
    {128, 2, {512, 65536}, {3, 5, 4}},
    {256, 4, {512, 131072, 524288, 1048576}, {3, 5, 4, 5, 4}},
    {512, 6, {32, 128, 1024, 131072, 524288, 1048576}, {3, 2, 3, 5, 4, 5, 4}},
    {1024, 3, {64, 256, 2048}, {3, 2, 3, 5}},
    {2048, 7, {4, 8, 16, 32, 256, 512, 4096}, {3, 2, 3, 2, 3, 2, 3, 5}},
    {4096, 4, {32, 128, 512, 4096}, {2, 3, 2, 3, 5}},
    {0, 5, {2, 8, 16, 512, 4096}, {3, 2, 3, 2, 3, 5}},
};
static const char *const allgather_names[] = {"NTSLR_NB", "bruck", "rdb", "ring", "ompi_neighborexchange", "pair"};
static const coll_row allgatherv_rows[] = {
    {3, 3, {2048, 4096, 8192}, {3, 5, 3, 5}},
    {8, 5, {256, 4096, 8192, 16384, 262144}, {1, 4, 3, 4, 2, 4}},
    {16, 1, {1024}, {1, 2}},
    {32, 2, {128, 262144}, {1, 2, 3}},
    {64, 2, {256, 8192}, {1, 2, 3}},
    {128, 2, {256, 4096}, {1, 2, 3}},
    {256, 2, {1024, 65536}, {2, 4, 3}},
    {512, 1, {1024}, {2, 3}},
    {1024, 4, {512, 1024, 4096, 1048576}, {2, 1, 2, 4, 3}},
    {0, 1, {4096}, {2, 4}},
};
static const char *const allgatherv_names[] = {"GB", "ompi_bruck", "mpich_ring", "ompi_neighborexchange", "pair"};
static const coll_row gather_rows[] = {
    {4, 5, {2, 4, 32768, 65536, 131072}, {3, 1, 2, 1, 2, 3}},
    {8, 4, {1024, 8192, 32768, 262144}, {2, 1, 2, 1, 3}},
    {256, 0, {}, {2}},
    {512, 2, {2048, 8192}, {2, 1, 2}},
    {0, 0, {}, {2}},
};
static const char *const gather_names[] = {"ompi_basic_linear", "ompi_binomial", "ompi_linear_sync"};
static const coll_row scatter_rows[] = {
    {4, 3, {2, 131072, 262144}, {3, 1, 3, 1}},
    {8, 5, {2048, 4096, 8192, 32768, 1048576}, {2, 1, 2, 1, 3, 1}},
    {16, 2, {16384, 1048576}, {2, 3, 1}},
    {32, 2, {16384, 32768}, {2, 1, 3}},
    {64, 3, {512, 8192, 16384}, {2, 3, 2, 3}},
    {0, 1, {512}, {2, 3}},
};
static const char *const scatter_names[] = {"ompi_basic_linear", "ompi_binomial", "ompi_linear_nb"};

#define DECIDE(k, b) k##_names[coll_decide(k##_rows, sizeof k##_rows / sizeof k##_rows[0], a->size, (b)) - 1]

static const char *ompi_alltoall(const coll_args *a) {
  const char *name = DECIDE(alltoall, a->sbytes);
  if (name[0] == 'p' && (a->size & (a->size - 1))) /* SimGrid 3.32 aborts: documented difference */
    return "basic_linear";
  return name;
}

static const char *ompi_rooted(const coll_args *a) {
  int root = a->rank == a->root;
  if (a->kind == COLL_GATHER)
    return DECIDE(gather, root ? a->rbytes : a->sbytes);
  return DECIDE(scatter, root ? a->sbytes : a->rbytes);
}

const char *coll_select_ompi(const coll_args *a, coll_prog *p) {
  (void)p;
  switch (a->kind) {
  case COLL_ALLREDUCE:
    return DECIDE(allreduce, a->sbytes);
  case COLL_ALLTOALL:
    return ompi_alltoall(a);
  case COLL_ALLTOALLV:
    return DECIDE(alltoallv, 0);
  case COLL_BARRIER:
    return DECIDE(barrier, 0);
  case COLL_BCAST:
    return DECIDE(bcast, a->sbytes);
  case COLL_REDUCE:
    return DECIDE(reduce, a->sbytes);
  case COLL_REDUCE_SCATTER:
    return DECIDE(reduce_scatter, coll_sum(a->rcounts, a->size));
  case COLL_ALLGATHER:
    return DECIDE(allgather, a->sbytes);
  case COLL_ALLGATHERV:
    return DECIDE(allgatherv, coll_sum(a->rcounts, a->size) / a->size);
  case COLL_GATHER:
  case COLL_SCATTER:
    return ompi_rooted(a);
  default:
    return "default";
  }
}
