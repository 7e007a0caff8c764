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
#endif
