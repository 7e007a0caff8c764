/* tt_life.c - start and stop of the tracer: configuration, the trace directory, the files,
 * and the ends of a trace that does not reach MPI_Finalize.
 *
 * Configuration comes from the environment (tir-trace sets it; see doc/tracer.md):
 * TIR_TRACE_DIR, TIR_LEVEL, TIR_SIMGRID, TIR_RATE, TIR_MIN_BURST, TIR_COUNTER,
 * TIR_CALLSITE_REGIONS, TIR_FLUSH_INTERVAL, TIR_SIGNALS. A bad value stops the job with a
 * message naming the variable: a tracer that silently traces something else misleads. So
 * does a trace directory that cannot be made or written: the job is stopped (MPI_Abort)
 * rather than run untraced, with one message from rank 0 that says so.
 * The directory holds one run: rank 0 removes the rank files of an earlier trace there
 * (more ranks, or the other compression) before any rank opens its own.
 * Ends: MPI_Finalize (tt_stop, collective) closes every file and writes the final
 * trace.meta; MPI_Abort, exit() without MPI_Finalize and the signals that stop a rank
 * (tt_watch.c) close the rank's file with its last complete line (tt_abandon) and rank 0
 * records why in trace.meta; a failed write (a full disk) is reported once per rank and the
 * run goes on untraced on that rank; SIGKILL loses at most the last TIR_FLUSH_INTERVAL
 * seconds. Exactly one of tt_stop and tt_abandon closes the file (`closing`); tt_stop still
 * takes part in the collectives when a signal the program survived closed it, so that the
 * other ranks do not wait forever. */
#include "tt.h"

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "tt_callsite.h"
#include "tt_comm.h"
#include "tt_counter.h"
#include "tt_meta.h"
#include "tt_out.h"
#include "tt_req.h"
#include "tt_win.h"

static int started;          /* tt_start ran (and tt_stop not yet) */
static pid_t owner;          /* the process that started (a forked child must not close) */
static atomic_int closing;   /* the rank's file is being closed or is closed */
static atomic_int write_reported; /* tt_write_failed printed its message */
static double flush_interval = 1.0;

static void fatal(const char *fmt, const char *a, const char *b) {
  fprintf(stderr, "libtirtrace (rank %d): ", tt.rank);
  fprintf(stderr, fmt, a, b);
  fputc('\n', stderr);
  PMPI_Abort(MPI_COMM_WORLD, 1);
  exit(1);
}

static double env_num(const char *name, double dflt, double lo, double hi) {
  const char *s = getenv(name);
  if (!s || !*s)
    return dflt;
  char *end;
  double v = strtod(s, &end);
  if (*end || v < lo || v > hi)
    fatal("%s=%s: expected a number in the documented range (see tir-trace(1))", name, s);
  return v;
}

static int env_flag(const char *name) { return env_num(name, 0, 0, 1) != 0; }

static void read_config(void) {
  const char *dir = getenv("TIR_TRACE_DIR");
  tt.dir = x_strdup(dir && *dir ? dir : "tir-traces");
  tt.level = (int)env_num("TIR_LEVEL", 6, 0, 9);
  tt.simgrid = env_flag("TIR_SIMGRID");
  tt.rate = env_num("TIR_RATE", 1e9, 1e-300, 1e300);
  tt.min_burst = env_num("TIR_MIN_BURST", 0, 0, 1e300);
  tt.callsite_regions = env_flag("TIR_CALLSITE_REGIONS");
  flush_interval = env_num("TIR_FLUSH_INTERVAL", 1, 0, 1e9);
}

/* mkdir -p; 0 or an errno (*where: the component that failed, to free) */
static int mkdir_p(const char *dir, char **where) {
  char *p = x_strdup(dir);
  for (char *s = p + 1;; s++) {
    char c = *s;
    if (c != '/' && c != 0)
      continue;
    *s = 0;
    if (mkdir(p, 0777) != 0 && errno != EEXIST) {
      int err = errno;
      *where = p;
      return err;
    }
    *s = c;
    if (!c)
      break;
  }
  free(p);
  *where = NULL;
  return 0;
}

/* Rank r of file name if it is a rank trace (rank-NNNNN.tit or .tit.gz), else -1; *gz set. */
static long rank_of(const char *name, int *gz) {
  if (strncmp(name, "rank-", 5))
    return -1;
  char *end;
  long r = strtol(name + 5, &end, 10);
  if (end - name < 10 || name[5] < '0' || name[5] > '9' || strncmp(end, ".tit", 4))
    return -1;
  *gz = !strcmp(end + 4, ".gz");
  return *gz || !end[4] ? r : -1;
}

/* Rank 0: remove what an earlier trace left that this run will not overwrite. */
static void clean_dir(void) {
  DIR *d = opendir(tt.dir);
  long removed = 0, lo = -1, hi = -1;
  for (struct dirent *e; d && (e = readdir(d));) {
    int gz = 0;
    long r = rank_of(e->d_name, &gz);
    if (r < 0 || (r < tt.np && gz == (tt.level > 0)))
      continue; /* not a rank file, or one this run rewrites */
    char *path = x_asprintf("%s/%s", tt.dir, e->d_name);
    if (unlink(path) == 0 && r >= tt.np) {
      removed++;
      lo = lo < 0 || r < lo ? r : lo;
      hi = r > hi ? r : hi;
    }
    free(path);
  }
  if (d)
    closedir(d);
  if (removed)
    fprintf(stderr, "libtirtrace: %s held a trace of more ranks: removed its %ld rank files of "
            "ranks %ld-%ld (a trace directory holds one run)\n", tt.dir, removed, lo, hi);
}

/* The directory exists and holds nothing of an earlier run, for every rank; else the job
 * stops here with one message (rank 0). */
static void make_dir(void) {
  char *where = NULL;
  int err = tt.rank == 0 ? mkdir_p(tt.dir, &where) : 0;
  if (tt.rank == 0 && !err)
    clean_dir();
  PMPI_Bcast(&err, 1, MPI_INT, 0, MPI_COMM_WORLD);
  if (err) {
    if (tt.rank == 0)
      fprintf(stderr, "libtirtrace: cannot create the trace directory %s (%s: %s): the tracer "
              "stops the program (MPI_Abort) rather than run it untraced; choose a writable "
              "directory with tir-trace -o DIR (or TIR_TRACE_DIR)\n", tt.dir, where, strerror(err));
    free(where);
    /* No rank aborts before rank 0 has said why: an abort may stop rank 0 first (MPICH's
     * launcher kills the job at the first abort). */
    PMPI_Barrier(MPI_COMM_WORLD);
    PMPI_Abort(MPI_COMM_WORLD, 1);
    exit(1);
  }
  if (tt.rank != 0 && mkdir_p(tt.dir, &where) != 0) /* a node that does not share it */
    fatal("cannot create the trace directory %s: %s; the tracer stops the program", tt.dir, strerror(errno));
}

/* Pick the counter: the same source on every rank (hardware only if all ranks have it). */
static const char *choose_counter(void) {
  const char *want = getenv("TIR_COUNTER"), *why = "TIR_COUNTER=cputime";
  if (want && *want && strcmp(want, "auto") && strcmp(want, "instructions") && strcmp(want, "cputime"))
    fatal("TIR_COUNTER=%s: expected auto, instructions or cputime%s", want, "");
  int hw = !(want && !strcmp(want, "cputime")) && tt_counter_try_hw(&why), all = 0;
  PMPI_Allreduce(&hw, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  if (hw && !all)
    why = "another rank has no instruction counter";
  if (!all && want && !strcmp(want, "instructions"))
    fatal("TIR_COUNTER=instructions, but %s%s", why, "");
  tt_counter_use(all, tt.rate);
  tt.bias = tt_counter_bias();
  tt.source = all ? TT_SRC_INSTRUCTIONS : TT_SRC_CPUTIME;
  return all ? "hardware instruction counter (perf_event_open)" : why;
}

static void on_exit_path(void) { tt_abandon("aborted", "reason = exit without MPI_Finalize"); }

static void start_date(void) {
  char date[32];
  time_t t = time(NULL);
  strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", gmtime(&t));
  tt.started = x_strdup(date);
}

/* This rank's trace file (with its `init` line, synced: a rank killed before the first
 * periodic sync still leaves a readable file), then index and trace.meta (rank 0). */
static void open_files(const char *why, int thread_level) {
  char *path = x_asprintf("%s/%s", tt.dir, tt_meta_rank_file(tt.rank));
  if (tt_out_open(path, tt.level, flush_interval) != 0)
    fatal("cannot write the trace file %s: %s; the tracer stops the program", path, strerror(errno));
  free(path);
  tt_out_begin(tt.rank, TT_KW(INIT), 0);
  tt_out_end();
  tt_out_sync();
  if (tt_meta_start(why, thread_level) != 0)
    fatal("cannot write %s/trace.meta%s; the tracer stops the program", tt.dir, "");
}

void tt_start(int thread_level) {
  if (started)
    return;
  started = 1;
  owner = getpid();
  closing = write_reported = 0;
  PMPI_Comm_rank(MPI_COMM_WORLD, &tt.rank);
  PMPI_Comm_size(MPI_COMM_WORLD, &tt.np);
  read_config();
  start_date();
  const char *why = choose_counter();
  make_dir();
  open_files(why, thread_level);
  tt.next_comm_id = tt.next_win_id = 1;
  tt.f08_base = tt_f08_index_base();
  atexit(on_exit_path);
  const char *sig = getenv("TIR_SIGNALS");
  if (tt_watch_start(flush_interval, !(sig && !strcmp(sig, "0"))) != 0)
    fatal("cannot start the tracer's helper thread: %s%s", strerror(errno), "");
  PMPI_Barrier(MPI_COMM_WORLD); /* no rank runs before trace.meta says `running` */
  tt.active = 1;
  tt.last = tt_counter_read();
}

static void release(void) {
  tt_req_clear();
  tt_comm_clear();
  tt_win_clear();
  tt_callsite_clear();
  tt_counter_close();
  tt_util_free();
  free(tt.dir);
  free(tt.started);
  tt.dir = tt.started = NULL;
}

static int end_code(int err) {
  return !err ? TT_END_OK : err == ENOSPC || err == EDQUOT ? TT_END_DISK_FULL : TT_END_WRITE_ERROR;
}

/* This rank's last lines and the close of its file; its end code. */
static int close_mine(void) {
  tt_out_begin(tt.rank, TT_KW(FINALIZE), 0);
  tt_out_end();
  if (tt_out_close() != 0)
    tt_write_failed(tt_out_error());
  return end_code(tt_out_error());
}

void tt_stop(void) {
  if (!started || getpid() != owner)
    return;
  struct tt_call c = {.fn = TT_FN_Finalize, .mode = TT_EV, .site = __builtin_return_address(0)};
  int mine = !atomic_exchange(&closing, 1); /* else a signal the program survived closed it */
  if (mine) {
    tt.pending += tt_counter_read() - tt.last;
    tt.active = 0;
    tt_burst_flush(&c, 1);
  }
  tt_meta_finalizing();
  int end = mine ? close_mine() : TT_END_STOPPED;
  char *path = x_asprintf("%s/%s", tt.dir, tt_meta_rank_file(tt.rank));
  struct stat st;
  long long bytes = stat(path, &st) == 0 ? (long long)st.st_size : 0;
  free(path);
  tt_meta_finish(end, bytes);
  tt_watch_stop();
  release();
  started = 0;
}

void tt_abandon(const char *status, const char *detail) {
  if (!started || getpid() != owner)
    return;
  if (!atomic_exchange(&closing, 1)) {
    tt.active = 0;
    tt_out_emergency_close(2.0);
  }
  tt_meta_abandon(status, detail);
}

static const char *signal_name(int sig) {
  static const struct { int sig; const char *name; } names[] = {
      {SIGSEGV, "SIGSEGV"}, {SIGBUS, "SIGBUS"}, {SIGFPE, "SIGFPE"}, {SIGILL, "SIGILL"},
      {SIGABRT, "SIGABRT"}, {SIGTERM, "SIGTERM"}, {SIGINT, "SIGINT"}, {SIGQUIT, "SIGQUIT"},
      {SIGHUP, "SIGHUP"}, {SIGXCPU, "SIGXCPU"}};
  for (size_t i = 0; i < sizeof names / sizeof *names; i++)
    if (names[i].sig == sig)
      return names[i].name;
  return "a signal";
}

void tt_stopped_by(int sig) {
  char detail[64];
  snprintf(detail, sizeof detail, "signal = %s", signal_name(sig));
  tt_abandon("killed", detail);
  if (tt.rank == 0)
    fprintf(stderr, "libtirtrace: rank 0 stopped by %s: the trace in %s ends here (trace.meta: "
            "status = killed)\n", signal_name(sig), tt.dir);
}

void tt_write_failed(int err) {
  if (!err || atomic_exchange(&write_reported, 1))
    return;
  fprintf(stderr, "libtirtrace (rank %d): cannot write its trace %s/%s: %s; the trace of this rank "
          "stops there, the program goes on (trace.meta will say %s)\n", tt.rank, tt.dir,
          tt_meta_rank_file(tt.rank), strerror(err), end_code(err) == TT_END_DISK_FULL ? "disk-full" : "write-error");
  char detail[160];
  snprintf(detail, sizeof detail, "write_error = rank 0: %s", strerror(err));
  tt_meta_abandon(end_code(err) == TT_END_DISK_FULL ? "disk-full" : "write-error", detail);
}
