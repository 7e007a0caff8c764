/* tt_util.c - thread-local scratch arrays of the wrappers and hooks.
 *
 * Scratch arrays only grow and are freed by tt_util_free (MPI_Finalize); one per use, so a
 * wrapper's converted arrays and its hooks' saved handles never share memory. */
#include "tt.h"

#include <stdlib.h>

struct scratch {
  void *p;    /* the array */
  size_t cap; /* elements allocated */
};

static _Thread_local struct scratch st_c, st_f, st_req, st_saved;

static void *scratch(struct scratch *s, int n, size_t elt) {
  x_grow(&s->p, &s->cap, n > 0 ? (size_t)n : 1, elt);
  return s->p;
}

MPI_Status *tt_scratch_status(int n) { return scratch(&st_c, n, sizeof(MPI_Status)); }
MPI_Request *tt_scratch_request(int n) { return scratch(&st_req, n, sizeof(MPI_Request)); }
MPI_Request *tt_saved(int n) { return scratch(&st_saved, n, sizeof(MPI_Request)); }
MPI_Fint *tt_scratch_fstatus(int n) {
  return scratch(&st_f, (n > 0 ? n : 1) * TT_F_STATUS_SIZE, sizeof(MPI_Fint));
}

void tt_util_free(void) {
  struct scratch *all[] = {&st_c, &st_f, &st_req, &st_saved};
  for (size_t i = 0; i < sizeof all / sizeof *all; i++) {
    free(all[i]->p);
    all[i]->p = NULL;
    all[i]->cap = 0;
  }
}
