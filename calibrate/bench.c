/* bench.c - tir-calibrate-bench: the point-to-point measurements behind `tir-calibrate fit`.
 *
 * Two ranks measure, for every message size given, four durations (doc/calibration.md
 * explains which model parameter each one gives):
 *   send      MPI_Send on rank 0, rank 1 already waiting in MPI_Recv;
 *   recv      MPI_Recv on rank 1 once the message has arrived (MPI_Iprobe saw it, then a
 *             short extra wait for its last bytes);
 *   isend     MPI_Isend on rank 0 (its MPI_Wait is not timed), rank 1 waiting;
 *   pingpong  a full round trip MPI_Send + MPI_Recv on rank 0, rank 1 echoing.
 * Every (operation, size) pair is measured --reps times; the whole list of measurements is
 * shuffled with --seed (both ranks draw the same order from the same generator) so that
 * slow drifts of the machine spread over all sizes instead of biasing some. A barrier
 * precedes each measurement; one untimed round trip per size warms buffers and
 * connections first. Durations come from clock_gettime(CLOCK_MONOTONIC).
 *
 * Rank 0 writes DIR/pingpong.csv (`op,bytes,seconds`, one row per measurement, in the
 * order measured) and DIR/meta (`key = value`: MPI library, hosts, date, settings), each
 * to a temporary file renamed into place; an existing non-regular file is never replaced.
 * Exit status: 0, 2 bad arguments (both ranks see them), 4 cannot write. */
#define _GNU_SOURCE
#include <mpi.h>

#include <errno.h>
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#ifndef TIR_VERSION
#define TIR_VERSION "unknown"
#endif

enum { OP_SEND, OP_RECV, OP_ISEND, OP_PINGPONG, NOPS };
static const char *const op_names[NOPS] = {"send", "recv", "isend", "pingpong"};

enum { EXIT_USAGE = 2, EXIT_IO = 4 };

/* The settle time before timing a send (the receiver posts its receive meanwhile) and the
 * extra wait after MPI_Iprobe saw a message (its last fragments land): base + bytes x per_byte. */
#define SETTLE_S 20e-6
#define ARRIVE_PER_BYTE_S 1e-9

typedef struct item {
  int op;
  long bytes;
} item;

typedef struct opts {
  const char *dir;
  int reps;
  unsigned long long seed;
  long *sizes;
  int nsizes;
  int ops[NOPS]; /* measured or not */
} opts;

/* ====== small helpers ====== */

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static void spin(double seconds) {
  double end = now() + seconds;
  while (now() < end)
    ;
}

/* splitmix64: a small generator whose sequence is the same on every rank and machine. */
static uint64_t next_random(uint64_t *s) {
  uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

static void shuffle(item *v, size_t n, unsigned long long seed) {
  uint64_t s = seed;
  for (size_t i = n; i > 1; i--) {
    size_t j = (size_t)(next_random(&s) % i);
    item t = v[i - 1];
    v[i - 1] = v[j];
    v[j] = t;
  }
}

/* ====== command line ====== */

static void usage(FILE *f) {
  fprintf(f, "Usage: mpirun -np 2 tir-calibrate-bench -o DIR --sizes N[,N...] [--reps R] [--seed S]\n"
             "       [--ops send,recv,isend,pingpong]\n"
             "Normally run through `tir-calibrate bench`, which chooses the sizes.\n");
}

static int parse_sizes(const char *s, opts *o) {
  o->nsizes = 0;
  o->sizes = malloc((strlen(s) / 2 + 2) * sizeof *o->sizes);
  if (!o->sizes)
    return -1;
  for (const char *p = s; *p;) {
    char *end;
    errno = 0;
    long v = strtol(p, &end, 10);
    if (end == p || errno || v < 0 || v > (1L << 30) || (*end && *end != ','))
      return -1;
    o->sizes[o->nsizes++] = v;
    p = *end ? end + 1 : end;
  }
  return o->nsizes ? 0 : -1;
}

static int parse_ops(const char *s, opts *o) {
  memset(o->ops, 0, sizeof o->ops);
  char buf[256];
  snprintf(buf, sizeof buf, "%s", s);
  char *save = NULL;
  for (char *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
    int k = 0;
    while (k < NOPS && strcmp(t, op_names[k]) != 0)
      k++;
    if (k == NOPS)
      return -1;
    o->ops[k] = 1;
  }
  return 0;
}

/* Returns 0, or prints (rank 0) what is wrong and returns -1. */
static int parse_opts(int argc, char **argv, opts *o, int me) {
  static const struct option lo[] = {{"output", 1, 0, 'o'}, {"sizes", 1, 0, 's'}, {"reps", 1, 0, 'r'},
                                     {"seed", 1, 0, 'S'},   {"ops", 1, 0, 'O'},   {"help", 0, 0, 'h'},
                                     {0, 0, 0, 0}};
  *o = (opts){.reps = 10, .seed = 1, .ops = {1, 1, 1, 1}};
  const char *bad = NULL;
  for (int c; !bad && (c = getopt_long(argc, argv, "o:h", lo, NULL)) != -1;) {
    char *end = NULL;
    if (c == 'o')
      o->dir = optarg;
    else if (c == 's' && parse_sizes(optarg, o) < 0)
      bad = "--sizes: expected a comma list of sizes in bytes (0 .. 2^30)";
    else if (c == 'r' && ((o->reps = (int)strtol(optarg, &end, 10)) < 1 || *end))
      bad = "--reps: expected a positive integer";
    else if (c == 'S' && (o->seed = strtoull(optarg, &end, 10), *end || !*optarg))
      bad = "--seed: expected a non-negative integer";
    else if (c == 'O' && parse_ops(optarg, o) < 0)
      bad = "--ops: expected a comma list of send, recv, isend, pingpong";
    else if (c == 'h' || c == '?')
      bad = "";
  }
  if (!bad && (!o->dir || !o->sizes))
    bad = "-o DIR and --sizes are required";
  if (bad && me == 0) {
    if (*bad)
      fprintf(stderr, "tir-calibrate-bench: %s\n", bad);
    usage(stderr);
  }
  return bad ? -1 : 0;
}

/* ====== the four measurements ====== */

/* MPI_Send duration, the receiver already in MPI_Recv. */
static double m_send(int me, char *buf, long n) {
  if (me == 1) {
    MPI_Recv(buf, (int)n, MPI_BYTE, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    return -1;
  }
  spin(SETTLE_S);
  double t = now();
  MPI_Send(buf, (int)n, MPI_BYTE, 1, 1, MPI_COMM_WORLD);
  return now() - t;
}

/* MPI_Recv duration of a message that already arrived. */
static double m_recv(int me, char *buf, long n) {
  if (me == 0) {
    MPI_Send(buf, (int)n, MPI_BYTE, 1, 2, MPI_COMM_WORLD);
    return -1;
  }
  for (int flag = 0; !flag;)
    MPI_Iprobe(0, 2, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
  spin(SETTLE_S + ARRIVE_PER_BYTE_S * (double)n);
  double t = now();
  MPI_Recv(buf, (int)n, MPI_BYTE, 0, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  return now() - t;
}

/* MPI_Isend duration (the wait that follows is not timed). */
static double m_isend(int me, char *buf, long n) {
  if (me == 1) {
    MPI_Recv(buf, (int)n, MPI_BYTE, 0, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    return -1;
  }
  spin(SETTLE_S);
  MPI_Request r;
  double t = now();
  MPI_Isend(buf, (int)n, MPI_BYTE, 1, 3, MPI_COMM_WORLD, &r);
  double d = now() - t;
  MPI_Wait(&r, MPI_STATUS_IGNORE);
  return d;
}

/* One round trip seen from rank 0. */
static double m_pingpong(int me, char *buf, long n) {
  if (me == 1) {
    MPI_Recv(buf, (int)n, MPI_BYTE, 0, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Send(buf, (int)n, MPI_BYTE, 0, 4, MPI_COMM_WORLD);
    return -1;
  }
  double t = now();
  MPI_Send(buf, (int)n, MPI_BYTE, 1, 4, MPI_COMM_WORLD);
  MPI_Recv(buf, (int)n, MPI_BYTE, 1, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  return now() - t;
}

static double measure(const item *it, int me, char *buf) {
  static double (*const fn[NOPS])(int, char *, long) = {m_send, m_recv, m_isend, m_pingpong};
  MPI_Barrier(MPI_COMM_WORLD);
  return fn[it->op](me, buf, it->bytes);
}

/* The shuffled list of every measurement: reps x sizes x chosen operations. */
static item *plan(const opts *o, size_t *n) {
  size_t cap = (size_t)o->reps * (size_t)o->nsizes * NOPS, k = 0;
  item *v = malloc(cap * sizeof *v);
  if (!v)
    return NULL;
  for (int r = 0; r < o->reps; r++)
    for (int s = 0; s < o->nsizes; s++)
      for (int op = 0; op < NOPS; op++)
        if (o->ops[op])
          v[k++] = (item){op, o->sizes[s]};
  shuffle(v, k, o->seed);
  *n = k;
  return v;
}

/* Runs every measurement; on rank 0, t[i] = the duration of item i (rank 1's receive
 * durations are sent to rank 0 at the end). */
static void run(const opts *o, const item *v, size_t n, double *t, int me, char *buf) {
  for (int s = 0; s < o->nsizes; s++) /* warm-up: one untimed round trip per size */
    m_pingpong(me, buf, o->sizes[s]);
  for (size_t i = 0; i < n; i++)
    t[i] = measure(&v[i], me, buf);
  if (me == 1)
    MPI_Send(t, (int)n, MPI_DOUBLE, 0, 5, MPI_COMM_WORLD);
  else {
    double *u = malloc(n * sizeof *u);
    MPI_Recv(u, (int)n, MPI_DOUBLE, 1, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    for (size_t i = 0; i < n; i++)
      if (v[i].op == OP_RECV)
        t[i] = u[i];
    free(u);
  }
}

/* ====== output (rank 0) ====== */

/* Opens a temporary file next to DIR/name; *tmp receives its path. NULL on error. */
static FILE *open_tmp(const char *dir, const char *name, char *tmp, size_t len) {
  char final[4096];
  struct stat st;
  snprintf(final, sizeof final, "%s/%s", dir, name);
  if (lstat(final, &st) == 0 && !S_ISREG(st.st_mode)) {
    fprintf(stderr, "tir-calibrate-bench: %s exists and is not a regular file: not replaced\n", final);
    return NULL;
  }
  snprintf(tmp, len, "%s/.%s.XXXXXX", dir, name);
  int fd = mkstemp(tmp);
  FILE *f = fd < 0 ? NULL : fdopen(fd, "w");
  if (!f)
    fprintf(stderr, "tir-calibrate-bench: %s: cannot write: %s\n", final, strerror(errno));
  return f;
}

/* Closes f and renames tmp to DIR/name. Returns 0 or -1 (reported, tmp removed). */
static int commit(FILE *f, const char *tmp, const char *dir, const char *name) {
  char final[4096];
  snprintf(final, sizeof final, "%s/%s", dir, name);
  int bad = ferror(f) | (fclose(f) != 0);
  if (!bad && chmod(tmp, 0644) == 0 && rename(tmp, final) == 0)
    return 0;
  fprintf(stderr, "tir-calibrate-bench: %s: cannot write: %s\n", final, strerror(errno));
  unlink(tmp);
  return -1;
}

static int write_csv(const opts *o, const item *v, size_t n, const double *t) {
  char tmp[4200];
  FILE *f = open_tmp(o->dir, "pingpong.csv", tmp, sizeof tmp);
  if (!f)
    return -1;
  fprintf(f, "op,bytes,seconds\n");
  for (size_t i = 0; i < n; i++)
    fprintf(f, "%s,%ld,%.9e\n", op_names[v[i].op], v[i].bytes, t[i]);
  return commit(f, tmp, o->dir, "pingpong.csv");
}

/* The settings and the machine, as `key = value` lines. */
static void meta_lines(FILE *f, const opts *o, size_t n, const char *h0, const char *h1, double wall) {
  char lib[MPI_MAX_LIBRARY_VERSION_STRING] = "";
  int len = 0;
  MPI_Get_library_version(lib, &len);
  lib[strcspn(lib, "\n")] = 0;
  char date[32];
  time_t tt = time(NULL);
  strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", gmtime(&tt));
  long lo = o->sizes[0], hi = o->sizes[0];
  for (int i = 1; i < o->nsizes; i++)
    lo = o->sizes[i] < lo ? o->sizes[i] : lo, hi = o->sizes[i] > hi ? o->sizes[i] : hi;
  fprintf(f, "tool = tir-calibrate-bench\ntir_version = %s\nmpi_library = %s\nnp = 2\n", TIR_VERSION, lib);
  fprintf(f, "host_0 = %s\nhost_1 = %s\nsame_host = %s\n", h0, h1, strcmp(h0, h1) ? "no" : "yes");
  fprintf(f, "date = %s\nreps = %d\nseed = %llu\nsizes = %d\nmin_bytes = %ld\nmax_bytes = %ld\nops =", date,
          o->reps, o->seed, o->nsizes, lo, hi);
  for (int k = 0, first = 1; k < NOPS; k++)
    if (o->ops[k])
      fprintf(f, "%s%s", first ? " " : ",", op_names[k]), first = 0;
  fprintf(f, "\nmeasurements = %zu\ntimer = clock_gettime(CLOCK_MONOTONIC)\nwall_seconds = %.3f\n", n, wall);
}

static int write_meta(const opts *o, size_t n, const char *h0, const char *h1, double wall) {
  char tmp[4200];
  FILE *f = open_tmp(o->dir, "meta", tmp, sizeof tmp);
  if (!f)
    return -1;
  meta_lines(f, o, n, h0, h1, wall);
  return commit(f, tmp, o->dir, "meta");
}

/* Creates DIR if it does not exist. Returns 0 or -1 (reported). */
static int make_dir(const char *dir) {
  struct stat st;
  if (mkdir(dir, 0755) == 0 || (errno == EEXIST && stat(dir, &st) == 0 && S_ISDIR(st.st_mode)))
    return 0;
  fprintf(stderr, "tir-calibrate-bench: %s: cannot create the directory: %s\n", dir,
          errno == EEXIST ? "not a directory" : strerror(errno));
  return -1;
}

/* ====== main ====== */

/* Both ranks agree on whether the run can go on (rank 0 checks the output directory). */
static int agree(int ok) {
  MPI_Bcast(&ok, 1, MPI_INT, 0, MPI_COMM_WORLD);
  return ok;
}

static int bench(const opts *o, int me) {
  char mine[MPI_MAX_PROCESSOR_NAME] = "", host[2][MPI_MAX_PROCESSOR_NAME] = {"", ""};
  int len;
  MPI_Get_processor_name(mine, &len);
  MPI_Gather(mine, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, host, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, 0, MPI_COMM_WORLD);
  if (!agree(me != 0 || make_dir(o->dir) == 0))
    return EXIT_IO;
  long max = 1;
  for (int i = 0; i < o->nsizes; i++)
    max = o->sizes[i] > max ? o->sizes[i] : max;
  char *buf = malloc((size_t)max);
  size_t n = 0;
  item *v = plan(o, &n);
  double *t = malloc((n + 1) * sizeof *t);
  if (!buf || !v || !t) {
    fprintf(stderr, "tir-calibrate-bench: out of memory\n");
    MPI_Abort(MPI_COMM_WORLD, 5);
  }
  memset(buf, 1, (size_t)max);
  double t0 = now();
  run(o, v, n, t, me, buf);
  int rc = me == 0 && (write_csv(o, v, n, t) < 0 || write_meta(o, n, host[0], host[1], now() - t0) < 0);
  free(buf);
  free(v);
  free(t);
  return agree(!rc) ? 0 : EXIT_IO;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int me, np;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &np);
  opts o;
  int rc = parse_opts(argc, argv, &o, me) < 0 ? EXIT_USAGE : 0;
  if (!rc && np != 2) {
    if (me == 0)
      fprintf(stderr, "tir-calibrate-bench: needs exactly 2 ranks (mpirun -np 2), not %d\n", np);
    rc = EXIT_USAGE;
  }
  if (!rc)
    rc = bench(&o, me);
  free(o.sizes);
  MPI_Finalize();
  return rc;
}
