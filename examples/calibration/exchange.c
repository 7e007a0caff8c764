/* exchange.c - a 2-rank MPI program to check a calibration against (doc/calibration.md).
 *
 * Each of ITERS iterations does, for every size of SIZES (64 B to 1 MiB by default), a
 * blocking ping-pong and a bidirectional MPI_Isend/MPI_Irecv exchange, then, when
 * --work W > 0, W passes of two code regions marked with MPI_Pcontrol (the tracer's
 * regions): "axpy" streams y += a x over two 8 MiB arrays (memory-bound) and "poly"
 * evaluates a degree-16 polynomial over a 4 KiB array (compute-bound). Rank 0 prints
 *   measured_s T          wall time from the return of MPI_Init to MPI_Finalize (what a
 *                         replay of the trace predicts)
 *   region_s NAME T       time inside region NAME, summed over the ranks (what
 *                         tir-calibrate cpu --region-time takes)
 * and the same without the machine's disturbances (a shared machine preempts the ranks
 * now and then, and a rank spinning in MPI waits for the other): the median iteration
 * (and median time in each region per iteration) times the iterations, plus the set-up:
 *   quiet_s T             set-up + iterations x median iteration
 *   best_s T              set-up + iterations x fastest iteration
 *   region_quiet_s NAME T iterations x median time per iteration in NAME, summed over ranks
 * usage: mpirun -np 2 exchange [--iters N] [--work W] [--sizes a,b,...] */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define AXPY_N (1 << 20)
#define POLY_N 512

static double axpy_x[AXPY_N], axpy_y[AXPY_N], poly_v[POLY_N];

static void axpy(void) {
  for (int i = 0; i < AXPY_N; i++)
    axpy_y[i] += 1.000001 * axpy_x[i];
}

static void poly(void) {
  for (int r = 0; r < 64; r++)
    for (int i = 0; i < POLY_N; i++) {
      double x = poly_v[i], p = 0;
      for (int k = 16; k >= 0; k--)
        p = p * x + 1.0 / (k + 1);
      poly_v[i] = 0.5 + 0.25 * p / (1 + p);
    }
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static double median(double *v, int n) {
  qsort(v, (size_t)n, sizeof *v, cmp_double);
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* One region: its time is added to *t. */
static void region(const char *name, void (*fn)(void), double *t) {
  double t0 = MPI_Wtime();
  MPI_Pcontrol(1, name);
  fn();
  MPI_Pcontrol(0);
  *t += MPI_Wtime() - t0;
}

static void pingpong(int me, char *buf, int n) {
  if (me == 0) {
    MPI_Send(buf, n, MPI_BYTE, 1, 1, MPI_COMM_WORLD);
    MPI_Recv(buf, n, MPI_BYTE, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  } else {
    MPI_Recv(buf, n, MPI_BYTE, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Send(buf, n, MPI_BYTE, 0, 1, MPI_COMM_WORLD);
  }
}

static void exchange(int me, char *sbuf, char *rbuf, int n) {
  MPI_Request r[2];
  MPI_Irecv(rbuf, n, MPI_BYTE, 1 - me, 2, MPI_COMM_WORLD, &r[0]);
  MPI_Isend(sbuf, n, MPI_BYTE, 1 - me, 2, MPI_COMM_WORLD, &r[1]);
  MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
}

static int parse_sizes(const char *s, int *sizes) {
  int n = 0;
  for (const char *p = s; *p && n < 64;) {
    char *end;
    long v = strtol(p, &end, 10);
    if (end == p || v < 0 || v > (1 << 26))
      return -1;
    sizes[n++] = (int)v;
    p = *end == ',' ? end + 1 : end;
  }
  return n;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  double t0 = MPI_Wtime();
  int me, np, iters = 200, work = 0, sizes[64] = {64, 1024, 8192, 65536, 1048576}, nsizes = 5, maxs = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &np);
  for (int i = 1; i + 1 < argc; i += 2)
    if (!strcmp(argv[i], "--iters"))
      iters = atoi(argv[i + 1]);
    else if (!strcmp(argv[i], "--work"))
      work = atoi(argv[i + 1]);
    else if (!strcmp(argv[i], "--sizes"))
      nsizes = parse_sizes(argv[i + 1], sizes);
  if (np != 2 || nsizes < 0) {
    if (me == 0)
      fprintf(stderr, "usage: mpirun -np 2 exchange [--iters N] [--work W] [--sizes a,b,...]\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  for (int i = 0; i < nsizes; i++)
    maxs = sizes[i] > maxs ? sizes[i] : maxs;
  char *sbuf = calloc((size_t)maxs + 1, 1), *rbuf = calloc((size_t)maxs + 1, 1);
  for (int i = 0; i < AXPY_N; i++)
    axpy_x[i] = i % 7;
  double t[2] = {0, 0}, sum[4], setup = MPI_Wtime() - t0;
  double *per = malloc(3 * (size_t)iters * sizeof *per); /* iteration, axpy, poly */
  for (int it = 0; it < iters; it++) {
    double i0 = MPI_Wtime(), r0 = t[0], r1 = t[1];
    for (int s = 0; s < nsizes; s++) {
      pingpong(me, sbuf, sizes[s]);
      exchange(me, sbuf, rbuf, sizes[s]);
    }
    for (int w = 0; w < work; w++) {
      region("axpy", axpy, &t[0]);
      region("poly", poly, &t[1]);
    }
    per[it] = MPI_Wtime() - i0;
    per[iters + it] = t[0] - r0;
    per[2 * iters + it] = t[1] - r1;
  }
  double quiet[4] = {t[0], t[1], iters * median(per + iters, iters), iters * median(per + 2 * iters, iters)};
  MPI_Reduce(quiet, sum, 4, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  MPI_Barrier(MPI_COMM_WORLD);
  if (me == 0) {
    double med = median(per, iters); /* sorts per[0 .. iters) */
    printf("measured_s %.6f\nquiet_s %.6f\nbest_s %.6f\n", MPI_Wtime() - t0, setup + iters * med,
           setup + iters * per[0]);
    if (work > 0)
      printf("region_s axpy %.6f\nregion_s poly %.6f\nregion_quiet_s axpy %.6f\nregion_quiet_s poly %.6f\n",
             sum[0], sum[1], sum[2], sum[3]);
    printf("check %g\n", axpy_y[AXPY_N / 2] + poly_v[POLY_N / 2]);
  }
  free(per);
  free(sbuf);
  free(rbuf);
  MPI_Finalize();
  return 0;
}
