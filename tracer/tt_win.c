/* tt_win.c - the window table of libtirtrace (see tt_win.h).
 *
 * A plain array searched newest first, as the communicator table (tt_comm.c): programs
 * hold few windows (ARMCI-MPI: one per global array), and a freed handle may be reused by
 * the MPI library for the next window, which then gets a new entry. */
#include "tt_win.h"

#include <stdlib.h>

#include "tt.h"

static struct tt_win **all; /* every entry ever made */
static size_t nall, capall;

struct tt_win *tt_win_get(MPI_Win win) {
  for (size_t i = nall; i-- > 0;)
    if (all[i]->handle == win)
      return all[i];
  return NULL;
}

struct tt_win *tt_win_register(MPI_Win win, struct tt_comm *comm, MPI_Comm handle) {
  int mine = tt.next_win_id, id = 0;
  PMPI_Allreduce(&mine, &id, 1, MPI_INT, MPI_MAX, handle);
  tt.next_win_id = id + 1;
  tt_win_forget(win); /* a stale entry of a reused handle */
  struct tt_win *w = x_calloc(1, sizeof *w);
  *w = (struct tt_win){.handle = win, .id = id, .comm = comm};
  x_grow(&all, &capall, nall + 1, sizeof *all);
  all[nall++] = w;
  return w;
}

void tt_win_forget(MPI_Win win) {
  struct tt_win *w = tt_win_get(win);
  if (w)
    w->handle = MPI_WIN_NULL;
}

void tt_win_clear(void) {
  for (size_t i = 0; i < nall; i++)
    free(all[i]);
  free(all);
  all = NULL;
  nall = capall = 0;
}
