/* coll_tables.h - the decision tables of the mvapich2 and impi selectors, as data
 * (coll_mvapich2_tables.c, coll_impi_tables.c; logic in coll_select_mvapich2.c and
 * coll_select_impi.c). Functions are named as tir's registry names them for the
 * table's collective; "mv2:..." names SimGrid's helpers that are no registered
 * algorithm (see coll_select_mvapich2.c). */
#ifndef TIR_COLL_TABLES_H
#define TIR_COLL_TABLES_H

#include "coll.h"

/* ====== MVAPICH2 ("Stampede" tables of smpi_mvapich2_selector_stampede.hpp) ====== */

typedef struct coll_mv2_fn {
  int32_t max;    /* the entry applies up to max bytes (-1: no bound) */
  const char *fn; /* NULL past the listed entries */
} coll_mv2_fn;

/* One communicator-size range: it applies up to numproc ranks (the last one beyond). The
 * chosen entry is the first whose max is at least the byte count, at most entry n - 1;
 * entries past n exist where SimGrid's initializers list more than they declare (its
 * scatter reads entry i + 1). */
typedef struct coll_mv2_row {
  int numproc;
  int extra[3];       /* bcast: segment size, intra- and inter-node k-nomial factors;
                         reduce: inter and intra k-nomial degrees; allreduce: mcast enabled */
  unsigned two_level; /* bit i: inter entry i is two-level */
  int ninter, nintra; /* declared entries */
  coll_mv2_fn inter[12], intra[12];
} coll_mv2_row;

typedef struct coll_mv2_table {
  int ppn;  /* ranks per host this table is for (0: any) */
  int nrows;
  const coll_mv2_row *rows;
} coll_mv2_table;

/* Per collective: tables by ranks per host (alltoall, allgather, scatter: 1, 2 and 16),
 * else one. */
extern const coll_mv2_table coll_mv2_alltoall[3], coll_mv2_allgather[3], coll_mv2_scatter[3];
extern const coll_mv2_table coll_mv2_gather[1], coll_mv2_allgatherv[1], coll_mv2_allreduce[1];
extern const coll_mv2_table coll_mv2_bcast[1], coll_mv2_reduce[1], coll_mv2_red_scat[1];

/* ====== Intel MPI (smpi_intel_mpi_selector.cpp, after Intel MPI's reference tables) ====== */

typedef struct coll_impi_size {
  uint32_t max; /* this algorithm below max bytes */
  int8_t alg;   /* 1-based index into the collective's function list */
} coll_impi_size;

typedef struct coll_impi_row {
  int max_np; /* applies up to max_np ranks */
  int n;      /* declared entries (SimGrid's loop may read entry n: listed or zero) */
  coll_impi_size e[13];
} coll_impi_row;

typedef struct coll_impi_table {
  int ppn; /* ranks per host */
  int nrows;
  coll_impi_row rows[12];
} coll_impi_table;

typedef struct coll_impi_kind {
  coll_kind kind;
  int nfn;
  const char *const *fn; /* registry names of the algorithms 1..nfn */
  int ntables;
  const coll_impi_table *tables;
} coll_impi_kind;

extern const coll_impi_kind coll_impi_kinds[11];

#endif
