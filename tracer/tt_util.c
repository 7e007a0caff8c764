/* tt_util.c - thread-local scratch arrays and the lookup of the Fortran PMPI bindings.
 *
 * Scratch arrays only grow and are freed by tt_util_free (MPI_Finalize); one per use, so a
 * wrapper's converted arrays and its hooks' saved handles never share memory. */
#define _GNU_SOURCE 1 /* RTLD_NEXT */
#include "tt.h"

#include <ctype.h>
#include <dlfcn.h>
#include <stdio.h>
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

/* The Fortran MPI library, when the program does not load it itself (a program linked with
 * -ltirtrace gets every mpi_*_ from libtirtrace, and the linker drops the real one). */
static void *fortran_lib(void) {
  static const char *const names[] = {"libmpi_mpifh.so.40", "libmpi_mpifh.so", "libmpichfort.so.12",
                                      "libmpifort.so.12", "libmpichfort.so", "libmpifort.so"};
  for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
    void *h = dlopen(names[i], RTLD_NOW | RTLD_GLOBAL);
    if (h)
      return h;
  }
  return NULL;
}

void *tt_fsym(const char *name) {
  char sym[4][96];
  snprintf(sym[0], sizeof sym[0], "pmpi_%s_", name);
  snprintf(sym[1], sizeof sym[1], "pmpi_%s__", name);
  snprintf(sym[2], sizeof sym[2], "pmpi_%s", name);
  snprintf(sym[3], sizeof sym[3], "PMPI_%s", name);
  for (char *p = sym[3]; *p; p++)
    *p = (char)toupper((unsigned char)*p);
  for (int i = 0; i < 4; i++) {
    void *f = dlsym(RTLD_NEXT, sym[i]);
    if (f)
      return f;
  }
  static void *flib;
  if (!flib)
    flib = fortran_lib();
  for (int i = 0; flib && i < 4; i++) {
    void *f = dlsym(flib, sym[i]);
    if (f)
      return f;
  }
  fprintf(stderr, "libtirtrace: the MPI library has no Fortran binding %s (nor %s, %s, %s): "
          "is the Fortran MPI library (libmpi_mpifh, libmpifort) loaded?\n",
          sym[0], sym[1], sym[2], sym[3]);
  abort();
}

int tt_f_in_place(const void *buf) {
  static int init;
  static const void *cand[3]; /* Open MPI's common block, MPICH's pointer to its own */
  if (!init) {
    cand[0] = dlsym(RTLD_DEFAULT, "mpi_fortran_in_place_");
    cand[1] = dlsym(RTLD_DEFAULT, "mpi_fortran_in_place");
    void **p = dlsym(RTLD_DEFAULT, "MPIR_F_MPI_IN_PLACE");
    cand[2] = p ? *p : NULL;
    init = 1;
  }
  for (int i = 0; i < 3; i++)
    if (cand[i] && buf == cand[i])
      return 1;
  return 0;
}
