/* tt_win.h - the one-sided windows a rank knows: the id the trace names each by, and its
 * communicator (whose world ranks translate target ranks).
 *
 * Like communicators (tt_comm.h), a window's id is agreed by its members when it is created
 * (max over them of a per-rank counter), so (rank, id) names one window in the whole trace.
 * Windows created by calls the tracer does not see are unknown: lines naming them are not
 * written (counted as unexpressed). Entries are freed by tt_win_clear only. */
#ifndef TT_WIN_H
#define TT_WIN_H

#include <mpi.h>

#include "tt_comm.h"

struct tt_win {
  MPI_Win handle;        /* the C handle (MPI_WIN_NULL once freed) */
  int id;                /* >= 1 */
  struct tt_comm *comm;  /* its communicator (members, world ranks) */
};

/* Collective over comm's members: a new window, its id agreed. */
struct tt_win *tt_win_register(MPI_Win win, struct tt_comm *comm, MPI_Comm handle);
/* The entry of win, or NULL (a window the tracer did not see created). */
struct tt_win *tt_win_get(MPI_Win win);
/* Forget win's handle (MPI_Win_free). */
void tt_win_forget(MPI_Win win);
void tt_win_clear(void);

#endif
