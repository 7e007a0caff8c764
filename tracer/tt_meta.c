/* tt_meta.c - DIR/index and DIR/trace.meta (see tt_meta.h).
 *
 * trace.meta is rewritten in place (pwrite then ftruncate) through one descriptor that rank
 * 0 keeps open, with room reserved beyond its end at start (fallocate KEEP_SIZE): the file
 * that tells a disk-full run from a complete one can still be written when the disk is
 * full. A reader may see a half-written file only while rank 0 rewrites it, which happens
 * at MPI_Init, at MPI_Finalize and when the trace ends early. The part that never changes
 * (the command, the MPI library, the counter, the hosts...) is formatted once at start, so
 * a rewrite from the helper thread calls no MPI function. Host names are gathered once at
 * start (MPI_Get_processor_name of every rank) and written run-length encoded in rank
 * order, `hosts = node1:2 node2:2`, the syntax of SimGrid's hostfiles.
 * Statuses: running (from MPI_Init on), complete, killed (a signal stopped rank 0),
 * aborted (MPI_Abort, or exit without MPI_Finalize, on rank 0), disk-full or write-error (a
 * rank could not write its trace). The first early end is kept: a later one (the SIGTERM a
 * launcher sends after MPI_Abort) does not overwrite it; the final status of a run that
 * reached MPI_Finalize overwrites a `running` or an early end that the job survived. */
#define _GNU_SOURCE 1 /* fallocate */
#include "tt_meta.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "tt.h"
#include "tt_out.h"

#ifndef TIR_VERSION /* given by tracer.am from configure's version */
#define TIR_VERSION "unknown"
#endif

static char *hosts;           /* rank-ordered host list, run-length encoded (rank 0) */
static char *header;          /* the lines that never change (rank 0) */
static int meta_fd = -1;      /* trace.meta, open for rewrites (rank 0) */
static int ended;             /* an early end or the final status is written */
static int finalizing;        /* every rank reached MPI_Finalize (the tracer's collective) */
static pthread_mutex_t meta_mu = PTHREAD_MUTEX_INITIALIZER;

const char *tt_meta_rank_file(int r) {
  static char name[64];
  snprintf(name, sizeof name, "rank-%05d.tit%s", r, tt.level > 0 ? ".gz" : "");
  return name;
}

/* The command line: TIR_COMMAND (set by tir-trace), else /proc/self/cmdline. */
static char *command(void) {
  const char *env = getenv("TIR_COMMAND");
  if (env)
    return x_strdup(env);
  FILE *f = fopen("/proc/self/cmdline", "r");
  char buf[4096];
  size_t n = f ? fread(buf, 1, sizeof buf - 1, f) : 0;
  if (f)
    fclose(f);
  for (size_t i = 0; i + 1 < n; i++)
    if (buf[i] == 0)
      buf[i] = ' ';
  buf[n] = 0;
  return x_strdup(buf);
}

/* Gather processor names to rank 0 and encode them as "h1:n1 h2:n2". */
static void gather_hosts(void) {
  char me[MPI_MAX_PROCESSOR_NAME] = "";
  int len = 0;
  PMPI_Get_processor_name(me, &len);
  char *all = tt.rank == 0 ? x_malloc((size_t)tt.np * MPI_MAX_PROCESSOR_NAME) : NULL;
  PMPI_Gather(me, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, all, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, 0,
              MPI_COMM_WORLD);
  if (tt.rank != 0)
    return;
  size_t cap = 0, n = 0;
  for (int r = 0, run = 1; r < tt.np; r++, run++) {
    const char *h = all + (size_t)r * MPI_MAX_PROCESSOR_NAME;
    if (r + 1 < tt.np && !strcmp(h, h + MPI_MAX_PROCESSOR_NAME))
      continue;
    char *item = x_asprintf("%s%s:%d", n ? " " : "", h, run);
    x_grow(&hosts, &cap, n + strlen(item) + 1, 1);
    memcpy(hosts + n, item, strlen(item) + 1);
    n += strlen(item);
    free(item);
    run = 0;
  }
  free(all);
}

static char *path_in_dir(const char *name) { return x_asprintf("%s/%s", tt.dir, name); }

static int write_index(void) {
  char *path = path_in_dir("index");
  FILE *f = fopen(path, "w");
  if (f) {
    for (int r = 0; r < tt.np; r++)
      fprintf(f, "%s\n", tt_meta_rank_file(r));
  }
  int bad = !f || fclose(f) != 0;
  if (bad)
    perror(path);
  free(path);
  return bad ? -1 : 0;
}

static void write_common(FILE *f, const char *counter_note, int thread_level) {
  char lib[MPI_MAX_LIBRARY_VERSION_STRING] = "";
  int len = 0, v = 0, sv = 0;
  PMPI_Get_library_version(lib, &len);
  lib[strcspn(lib, "\n")] = 0;
  PMPI_Get_version(&v, &sv);
  char *cmd = command();
  fprintf(f, "# trace.meta - how this time-independent trace was taken (libtirtrace)\n");
  fprintf(f, "tir_version = %s\nformat = %s\n", TIR_VERSION,
          tt.simgrid ? "simgrid-ti (SimGrid 3.32 actions only)" : "tir-ti (SimGrid TI + tir extensions)");
  fprintf(f, "simgrid_compatible = %s\ncommand = %s\nnp = %d\n", tt.simgrid ? "yes" : "no", cmd, tt.np);
  fprintf(f, "mpi_library = %s\nmpi_version = %d.%d\ntracer = libtirtrace-%s\n", lib, v, sv, tt_flavour);
  fprintf(f, "thread_level = %d\n", thread_level);
  fprintf(f, "counter_source = %s\n", tt.source == TT_SRC_INSTRUCTIONS ? "instructions" : "thread_cputime");
  if (tt.source == TT_SRC_CPUTIME)
    fprintf(f, "counter_rate = %.17g\ncompute_unit = 1/%.17g s of thread CPU time\n", tt.rate, tt.rate);
  else
    fprintf(f, "counter_rate = none\ncompute_unit = 1 user-space instruction\n");
  fprintf(f, "counter_note = %s\n", counter_note ? counter_note : "");
  fprintf(f, "counter_bias = %.6g (units subtracted from each burst on rank 0: the cost of one read)\n", tt.bias);
  fprintf(f, "min_burst = %.17g\n", tt.min_burst);
  fprintf(f, "callsite_regions = %s\n", tt.callsite_regions ? "yes" : "no");
  fprintf(f, "compression = %s%.0d\n", tt.level > 0 ? "gzip level " : "none", tt.level);
  fprintf(f, "index = index\nhosts = %s\nstart_date = %s\n", hosts ? hosts : "", tt.started);
  free(cmd);
}

static void date_line(FILE *f, const char *key) {
  char date[32];
  time_t t = time(NULL);
  strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", gmtime(&t));
  fprintf(f, "%s = %s\n", key, date);
}

/* Rewrite trace.meta: the header, what body adds, `status = status` (caller holds meta_mu).
 * Returns 0, or -1 (message printed). */
static int rewrite(const char *status, void (*body)(FILE *, const void *), const void *arg) {
  char *text = NULL;
  size_t len = 0;
  FILE *m = open_memstream(&text, &len);
  if (!m)
    return -1;
  fputs(header, m);
  if (body)
    body(m, arg);
  fprintf(m, "status = %s\n", status);
  fclose(m);
  size_t done = 0;
  while (done < len) {
    ssize_t k = pwrite(meta_fd, text + done, len - done, (off_t)done);
    if (k <= 0 && errno != EINTR)
      break;
    done += k > 0 ? (size_t)k : 0;
  }
  int rc = done == len && ftruncate(meta_fd, (off_t)len) == 0 ? 0 : -1;
  if (rc)
    fprintf(stderr, "libtirtrace: cannot write %s/trace.meta: %s\n", tt.dir, strerror(errno));
  free(text);
  return rc;
}

/* Rank 0: open trace.meta, write it with `status = running`, reserve room for its rewrites. */
static int open_meta(const char *counter_note, int thread_level) {
  char *path = path_in_dir("trace.meta");
  meta_fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
  if (meta_fd < 0)
    perror(path);
  free(path);
  if (meta_fd < 0)
    return -1;
  size_t len = 0;
  FILE *m = open_memstream(&header, &len);
  if (!m)
    return -1;
  write_common(m, counter_note, thread_level);
  fclose(m);
  /* the final file adds counters per MPI call (3 keys x up to TT_FN_COUNT calls) */
  (void)fallocate(meta_fd, FALLOC_FL_KEEP_SIZE, 0, (off_t)(2 * len + 96 * 3 * TT_FN_COUNT + 4096));
  pthread_mutex_lock(&meta_mu);
  int rc = rewrite("running", NULL, NULL);
  pthread_mutex_unlock(&meta_mu);
  return rc;
}

int tt_meta_start(const char *counter_why, int thread_level) {
  gather_hosts();
  if (tt.rank != 0)
    return 0;
  if (write_index() != 0)
    return -1;
  return open_meta(counter_why, thread_level);
}

/* ---- early end ----------------------------------------------------------------------- */
static void end_body(FILE *f, const void *arg) {
  date_line(f, "end_date");
  if (arg)
    fprintf(f, "%s\n", (const char *)arg);
  fprintf(f, "ranks_finished = %d\n", finalizing ? tt.np : 0);
}

void tt_meta_abandon(const char *status, const char *detail) {
  if (tt.rank != 0)
    return;
  pthread_mutex_lock(&meta_mu);
  if (meta_fd >= 0 && !ended) {
    rewrite(status, end_body, detail);
    ended = 1;
  }
  pthread_mutex_unlock(&meta_mu);
}

/* ---- end of run ---------------------------------------------------------------------- */
enum { IO_LINES, IO_BYTES, IO_DISK, IO_N };
struct totals {
  long long calls[TT_FN_COUNT], unexp[TT_FN_COUNT], approx[TT_FN_COUNT];
  long long io[IO_N];       /* trace lines, uncompressed bytes, bytes on disk */
  long long ends[TT_END_N]; /* ranks per end code */
};

void tt_meta_finalizing(void) {
  int one = 1, all = 0;
  PMPI_Allreduce(&one, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  finalizing = 1; /* no rank gets here before every rank has entered the allreduce */
}

static void print_counts(FILE *f, const char *key, const long long *v) {
  long long total = 0;
  for (int i = 0; i < TT_FN_COUNT; i++)
    total += v[i];
  fprintf(f, "%s = %lld\n", key, total);
  for (int i = 0; i < TT_FN_COUNT; i++)
    if (v[i])
      fprintf(f, "%s.%s = %lld\n", key, tt_fn_name[i], v[i]);
}

static void final_body(FILE *f, const void *arg) {
  const struct totals *t = arg;
  date_line(f, "end_date");
  fprintf(f, "trace_lines = %lld\ntrace_bytes_uncompressed = %lld\n", t->io[IO_LINES], t->io[IO_BYTES]);
  fprintf(f, "trace_bytes = %lld\n", t->io[IO_DISK]);
  print_counts(f, "calls", t->calls);
  print_counts(f, "unexpressed", t->unexp);
  print_counts(f, "approximated", t->approx);
  fprintf(f, "ranks_finished = %lld\n", t->ends[TT_END_OK]);
  if (t->ends[TT_END_DISK_FULL] + t->ends[TT_END_WRITE_ERROR])
    fprintf(f, "ranks_write_failed = %lld\n", t->ends[TT_END_DISK_FULL] + t->ends[TT_END_WRITE_ERROR]);
  if (t->ends[TT_END_STOPPED])
    fprintf(f, "ranks_stopped = %lld\n", t->ends[TT_END_STOPPED]);
}

static const char *final_status(const struct totals *t) {
  if (t->ends[TT_END_DISK_FULL])
    return "disk-full";
  if (t->ends[TT_END_WRITE_ERROR])
    return "write-error";
  return t->ends[TT_END_STOPPED] ? "killed" : "complete";
}

static void report(const char *what, const long long *v) {
  long long total = 0;
  for (int i = 0; i < TT_FN_COUNT; i++)
    total += v[i];
  if (!total)
    return;
  fprintf(stderr, "libtirtrace: %lld MPI call%s %s (all ranks):", total, total > 1 ? "s" : "", what);
  for (int i = 0; i < TT_FN_COUNT; i++)
    if (v[i])
      fprintf(stderr, " %s x%lld", tt_fn_name[i], v[i]);
  fprintf(stderr, " (see %s/trace.meta and doc/tracer.md)\n", tt.dir);
}

static void finish_rank0(const struct totals *t) {
  const char *status = final_status(t);
  pthread_mutex_lock(&meta_mu);
  rewrite(status, final_body, t);
  ended = 1;
  pthread_mutex_unlock(&meta_mu);
  close(meta_fd);
  meta_fd = -1;
  report("could not be expressed in the trace", t->unexp);
  report("were approximated", t->approx);
  if (strcmp(status, "complete"))
    fprintf(stderr, "libtirtrace: the trace in %s is INCOMPLETE (status = %s): %lld of %d ranks have "
            "their whole trace; see trace.meta and the messages above\n", tt.dir, status,
            t->ends[TT_END_OK], tt.np);
}

void tt_meta_finish(int end, long long file_bytes) {
  static struct totals mine, all; /* static: TT_FN_COUNT x 3 long longs */
  memcpy(mine.calls, tt.calls, sizeof mine.calls);
  memcpy(mine.unexp, tt.unexpressed, sizeof mine.unexp);
  memcpy(mine.approx, tt.approximated, sizeof mine.approx);
  mine.io[IO_LINES] = (long long)tt_out_lines();
  mine.io[IO_BYTES] = (long long)tt_out_written();
  mine.io[IO_DISK] = file_bytes;
  memset(mine.ends, 0, sizeof mine.ends);
  mine.ends[end] = 1;
  PMPI_Reduce(&mine, &all, (int)(sizeof mine / sizeof(long long)), MPI_LONG_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
  if (tt.rank == 0)
    finish_rank0(&all);
  free(hosts);
  free(header);
  hosts = header = NULL;
  finalizing = ended = 0;
}
