/* wrap_special.c - the hand-written wrappers: MPI_Init, MPI_Init_thread, MPI_Finalize,
 * MPI_Abort, in C, Fortran (mpif.h, `use mpi`) and Fortran 2008 (`use mpi_f08`).
 *
 * They start and stop the tracer rather than record an event. Every MPI_Init first checks
 * that the program's MPI library has the ABI this tracer was built for (tt_mpilib_check):
 * a mismatch stops the program with one message before any handle is used. The library's
 * own call runs with the nesting guard set (tt_enter with TT_LOCAL is not usable before the
 * tracer is active), so that MPICH's Fortran MPI_INIT, which calls the C MPI_Init, starts it
 * once. The Fortran 2008 IERROR argument is optional: absent, it is a null pointer. */
#include "tt.h"

#include <stdio.h>

static int in_special; /* inside one of these wrappers: the nested C call passes through */

static void check_once(void) {
  static int checked;
  if (!checked)
    tt_mpilib_check();
  checked = 1;
}

int MPI_Init(int *argc, char ***argv) {
  if (in_special)
    return PMPI_Init(argc, argv);
  check_once();
  in_special = 1;
  int rc = PMPI_Init(argc, argv);
  if (rc == MPI_SUCCESS)
    tt_start(MPI_THREAD_SINGLE);
  in_special = 0;
  return rc;
}

int MPI_Init_thread(int *argc, char ***argv, int required, int *provided) {
  if (in_special)
    return PMPI_Init_thread(argc, argv, required, provided);
  check_once();
  in_special = 1;
  int rc = PMPI_Init_thread(argc, argv, required, provided);
  if (rc == MPI_SUCCESS)
    tt_start(*provided);
  in_special = 0;
  return rc;
}

int MPI_Finalize(void) {
  if (!in_special)
    tt_stop();
  return PMPI_Finalize();
}

/* MPI_Abort: the trace ends here; rank 0 says so in trace.meta */
static void aborted(int errorcode) {
  char detail[64];
  snprintf(detail, sizeof detail, "reason = MPI_Abort (error code %d)", errorcode);
  tt_abandon("aborted", detail);
}

int MPI_Abort(MPI_Comm comm, int errorcode) {
  aborted(errorcode);
  return PMPI_Abort(comm, errorcode);
}

/* ---- Fortran --------------------------------------------------------------------------- */
typedef void (*f_init_t)(MPI_Fint *);
typedef void (*f_init_thread_t)(MPI_Fint *, MPI_Fint *, MPI_Fint *);
typedef void (*f_finalize_t)(MPI_Fint *);
typedef void (*f_abort_t)(MPI_Fint *, MPI_Fint *, MPI_Fint *);

void mpi_init_(MPI_Fint *ierr) {
  static f_init_t f;
  check_once();
  if (!f)
    f = (f_init_t)tt_fsym("init");
  in_special = 1;
  f(ierr);
  if (*ierr == MPI_SUCCESS)
    tt_start(MPI_THREAD_SINGLE);
  in_special = 0;
}

void mpi_init_thread_(MPI_Fint *required, MPI_Fint *provided, MPI_Fint *ierr) {
  static f_init_thread_t f;
  check_once();
  if (!f)
    f = (f_init_thread_t)tt_fsym("init_thread");
  in_special = 1;
  f(required, provided, ierr);
  if (*ierr == MPI_SUCCESS)
    tt_start((int)*provided);
  in_special = 0;
}

void mpi_finalize_(MPI_Fint *ierr) {
  static f_finalize_t f;
  if (!f)
    f = (f_finalize_t)tt_fsym("finalize");
  tt_stop();
  in_special = 1;
  f(ierr);
  in_special = 0;
}

void mpi_abort_(MPI_Fint *comm, MPI_Fint *errorcode, MPI_Fint *ierr) {
  static f_abort_t f;
  if (!f)
    f = (f_abort_t)tt_fsym("abort");
  aborted((int)*errorcode);
  f(comm, errorcode, ierr);
}

void mpi_init__(MPI_Fint *ierr) __attribute__((alias("mpi_init_")));
void mpi_init(MPI_Fint *ierr) __attribute__((alias("mpi_init_")));
void MPI_INIT(MPI_Fint *ierr) __attribute__((alias("mpi_init_")));
void mpi_init_thread__(MPI_Fint *r, MPI_Fint *p, MPI_Fint *e) __attribute__((alias("mpi_init_thread_")));
void mpi_init_thread(MPI_Fint *r, MPI_Fint *p, MPI_Fint *e) __attribute__((alias("mpi_init_thread_")));
void MPI_INIT_THREAD(MPI_Fint *r, MPI_Fint *p, MPI_Fint *e) __attribute__((alias("mpi_init_thread_")));
void mpi_finalize__(MPI_Fint *ierr) __attribute__((alias("mpi_finalize_")));
void mpi_finalize(MPI_Fint *ierr) __attribute__((alias("mpi_finalize_")));
void MPI_FINALIZE(MPI_Fint *ierr) __attribute__((alias("mpi_finalize_")));
void mpi_abort__(MPI_Fint *c, MPI_Fint *e, MPI_Fint *i) __attribute__((alias("mpi_abort_")));
void mpi_abort(MPI_Fint *c, MPI_Fint *e, MPI_Fint *i) __attribute__((alias("mpi_abort_")));
void MPI_ABORT(MPI_Fint *c, MPI_Fint *e, MPI_Fint *i) __attribute__((alias("mpi_abort_")));

/* ---- Fortran 2008 ------------------------------------------------------------------------ */
void mpi_init_f08_(MPI_Fint *ierr) {
  static f_init_t f;
  MPI_Fint e = MPI_SUCCESS;
  check_once();
  if (!f)
    f = (f_init_t)tt_f08sym("init");
  in_special = 1;
  f(&e);
  if (e == MPI_SUCCESS)
    tt_start(MPI_THREAD_SINGLE);
  in_special = 0;
  if (ierr)
    *ierr = e;
}

void mpi_init_thread_f08_(MPI_Fint *required, MPI_Fint *provided, MPI_Fint *ierr) {
  static f_init_thread_t f;
  MPI_Fint e = MPI_SUCCESS;
  check_once();
  if (!f)
    f = (f_init_thread_t)tt_f08sym("init_thread");
  in_special = 1;
  f(required, provided, &e);
  if (e == MPI_SUCCESS)
    tt_start((int)*provided);
  in_special = 0;
  if (ierr)
    *ierr = e;
}

void mpi_finalize_f08_(MPI_Fint *ierr) {
  static f_finalize_t f;
  if (!f)
    f = (f_finalize_t)tt_f08sym("finalize");
  tt_stop();
  in_special = 1;
  f(ierr);
  in_special = 0;
}

void mpi_abort_f08_(MPI_Fint *comm, MPI_Fint *errorcode, MPI_Fint *ierr) {
  static f_abort_t f;
  if (!f)
    f = (f_abort_t)tt_f08sym("abort");
  aborted((int)*errorcode);
  f(comm, errorcode, ierr);
}
