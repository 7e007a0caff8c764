/* tt.h - internals shared by the files of libtirtrace, the PMPI tracer.
 *
 * The tracer sits between the application and the MPI library. Every wrapped call enters
 * through tt_enter (which closes the CPU burst that ran since the previous call), calls the
 * library, then a hand-written hook (ev_*.c) writes the call as time-independent trace lines
 * through the per-rank writer (tt_out.c), and tt_leave restarts the burst counter. Nothing
 * here is exported: libtirtrace.map keeps only the MPI_*, mpi_* and tir_* symbols.
 * Invariants: one trace file per world rank; all lines of a rank start with its world rank;
 * the CPU volume of the tracer's own work is never counted in a burst (the counter is read
 * at the very start of tt_enter and the very end of tt_leave); a wrapper called from inside
 * another (MPICH's Fortran bindings call the C MPI_*) passes straight through (`depth`). */
#ifndef TT_H
#define TT_H

#include <mpi.h>
#include <stdint.h>

#include "wrappers-gen.h"
#include "../base/xalloc.h"
#include "../trace/keywords.h" /* the trace's keywords: the one header the tracer takes from trace/ */

/* the return address of the wrapper: the application's call site */
#define TT_SITE() __builtin_return_address(0)

/* MPI_Fint elements in one Fortran status (MPI_STATUS_SIZE of mpif.h) */
#ifdef MPI_F_STATUS_SIZE
#define TT_F_STATUS_SIZE MPI_F_STATUS_SIZE
#else
#define TT_F_STATUS_SIZE ((int)(sizeof(MPI_Status) / sizeof(MPI_Fint)))
#endif

/* Fortran 2008 bindings (`use mpi_f08`, wrappers-gen.c). TYPE(MPI_Status) has the layout of
 * the C MPI_Status in both ABIs; MPI_STATUS(ES)_IGNORE are Open MPI's mpif.h sentinels, and
 * MPICH's own f08 objects. Open MPI's f08 bindings all end in PMPI_* and are all wrapped;
 * MPICH's bindings with a choice buffer (mpi_send_f08ts_) call the C MPI_Send, recorded by
 * the C wrapper, and only those without one (mpi_wait_f08_, which calls PMPI_Wait) are. */
#ifdef OPEN_MPI
#define TT_F08_CHOICE 1
#define TT_F08_STATUS_IGNORE ((void *)MPI_F_STATUS_IGNORE)
#define TT_F08_STATUSES_IGNORE ((void *)MPI_F_STATUSES_IGNORE)
#else
#define TT_F08_CHOICE 0
#define TT_F08_STATUS_IGNORE ((void *)MPI_F08_STATUS_IGNORE)
#define TT_F08_STATUSES_IGNORE ((void *)MPI_F08_STATUSES_IGNORE)
_Static_assert(sizeof(MPI_F08_status) == sizeof(MPI_Status), "MPICH's f08 status is the C status");
#endif

_Static_assert(sizeof(MPI_Fint) == sizeof(int), "Fortran INTEGER arrays are passed as int arrays");

/* what a wrapper does with its call (the KIND column of mpi-api.txt) */
enum tt_mode {
  TT_EV,    /* traced: closes the burst, hooks write lines */
  TT_LOCAL, /* counted only; part of the burst */
  TT_UNSUP  /* counted as unexpressed; its CPU time is excluded */
};

/* where the per-call CPU volume comes from (never mixed in one trace) */
enum tt_source {
  TT_SRC_INSTRUCTIONS, /* hardware instructions retired, perf_event_open */
  TT_SRC_CPUTIME       /* thread CPU time (CLOCK_THREAD_CPUTIME_ID) x TIR_RATE */
};

/* One call in progress (on the wrapper's stack). */
struct tt_call {
  int fn;        /* enum tt_fn */
  int mode;      /* enum tt_mode */
  int fortran;   /* entered through a Fortran symbol (TT_FORTRAN or TT_F08) */
  int base;      /* first index of the caller's arrays (Waitany...): 0 in C, 1 in Fortran */
  void *site;    /* return address into the application */
  int nsaved;    /* requests captured by the pre hook (in tt_saved()) */
};

/* The tracer of this process (one per rank). */
struct tt_state {
  _Atomic int active;     /* between the end of MPI_Init and MPI_Finalize (or an early end) */
  int rank, np;           /* world rank and size */
  int simgrid;            /* write only actions SimGrid 3.32 replays (tir-only ones as comments) */
  int callsite_regions;   /* TIR_CALLSITE_REGIONS: name each burst by its two call sites */
  enum tt_source source;  /* counter used for every burst */
  double rate;            /* compute units per second of CPU time (cputime source) */
  double min_burst;       /* bursts below this are merged into the next one */
  double pending;         /* CPU volume not yet written as a compute line */
  double last;            /* counter value when the previous traced call returned */
  double bias;            /* counter cost included in every burst, subtracted (tt_counter_bias) */
  void *last_site;        /* call site of the previous traced call */
  long long nbc;          /* non-blocking collectives started (their request tag is -nbc) */
  int next_comm_id;       /* ids of new communicators are agreed as max over members */
  int f08_base;           /* first index the library's f08 bindings return (tt_f08_index_base) */
  int next_win_id;        /* and so are those of new one-sided windows */
  long long calls[TT_FN_COUNT];       /* calls seen, per wrapped function */
  long long unexpressed[TT_FN_COUNT]; /* calls the trace could not express */
  long long approximated[TT_FN_COUNT];/* calls written as an approximation (see doc/tracer.md) */
  char *dir;              /* output directory */
  int level;              /* zlib level, 0 = plain text files */
  char *started;          /* start date, ISO 8601 UTC */
};

extern struct tt_state tt;

/* --- tt_state.c: entering and leaving a wrapped call ---------------------------------- */
/* the binding a wrapper was entered through */
enum tt_lang {
  TT_C,       /* MPI_X */
  TT_FORTRAN, /* mpi_x_ (mpif.h, use mpi) */
  TT_F08      /* mpi_x_f08_ (use mpi_f08) */
};
/* Returns 0 when the call must pass through untraced (tracer off, or nested call). */
int tt_enter(struct tt_call *c, int fn, int mode, void *site, int lang);
void tt_leave(struct tt_call *c);
/* Write the pending CPU burst as a compute line if it reaches min_burst (force: any > 0). */
void tt_burst_flush(struct tt_call *c, int force);
/* Count c's call as not expressible in the trace. */
void tt_unexpressed(struct tt_call *c);
void tt_approximated(struct tt_call *c);
/* --- tt_life.c: start and ends of the trace ------------------------------------------------- */
/* Start after PMPI_Init*, stop before PMPI_Finalize (collective); both idempotent. */
void tt_start(int thread_level);
void tt_stop(void);
/* The trace ends early (MPI_Abort, exit without MPI_Finalize, a signal): close this rank's
 * file with every complete line; rank 0 writes status (killed, aborted) and detail (a
 * `key = value` line) into trace.meta. Any thread but a signal handler. */
void tt_abandon(const char *status, const char *detail);
/* The helper thread's part of a signal that stops the rank (tt_watch.c). */
void tt_stopped_by(int sig);
/* A write of the trace failed with errno err: report it once (this rank's trace is cut). */
void tt_write_failed(int err);

/* --- tt_watch.c: the helper thread ---------------------------------------------------------- */
/* Start the thread that syncs the trace every interval seconds (0: the writer syncs every
 * line) and, if signals, catch the signals that stop a rank. 0, or -1 with errno set. */
int tt_watch_start(double interval, int signals);
/* Restore the signal dispositions, stop the thread. */
void tt_watch_stop(void);
/* Scratch arrays owned by the calling thread, valid until its next call of the same one. */
MPI_Status *tt_scratch_status(int n);
MPI_Fint *tt_scratch_fstatus(int n);
MPI_Request *tt_scratch_request(int n);
/* Handles a pre hook saves for its post hook. */
MPI_Request *tt_saved(int n);
void tt_util_free(void);

/* --- tt_mpilib.c: the MPI library under the tracer ----------------------------------------- */
/* "ompi" or "mpich": the MPI ABI this library was built for (libtirtrace-FLAVOUR.so). */
extern const char tt_flavour[];
/* Stop the program with one message if its MPI library is not of the flavour's ABI; run
 * before the library's MPI_Init, touching no handle. */
void tt_mpilib_check(void);
/* The library's Fortran binding pmpi_NAME_ (or another mangling); exits if absent. */
void *tt_fsym(const char *name);
/* The library's Fortran 2008 binding of NAME (`use mpi_f08`); exits if absent. */
void *tt_f08sym(const char *name);
/* The first index the library's `use mpi_f08` MPI_Waitany & co return: 1 as MPI says,
 * 0 for MPICH 4.0 (its f08 bindings forget the conversion; fixed in 4.1). */
int tt_f08_index_base(void);
/* buf is the Fortran MPI_IN_PLACE of the MPI library (Open MPI or MPICH). */
int tt_f_in_place(const void *buf);

/* The keywords of the trace's actions, from the one keyword table (trace/keywords.h):
 * TT_KW(SEND) is "send", ... */
#define TT_KW_ENUM(op, kw, flags) TT_KW_##op,
enum tt_kw { TRACE_KEYWORDS(TT_KW_ENUM) TT_KW_COUNT };
extern const char *const tt_kw_name[TT_KW_COUNT];
#define TT_KW(op) (tt_kw_name[TT_KW_##op])

/* --- helpers of the hooks ---------------------------------------------------------------- */
/* count x size(datatype) in bytes (0 for MPI_DATATYPE_NULL) */
long long tt_bytes(int count, MPI_Datatype dt);
/* Begin a line "RANK ACTION": flushes the burst first. ext: tir-only action (a comment in
 * --simgrid-compatible mode). */
void tt_ln(struct tt_call *c, const char *action);
void tt_ln_ext(struct tt_call *c, const char *action);

#endif
