/* trace_meta.h - trace.meta, the `key = value` file tir-trace writes beside a trace's index.
 *
 * It tells how the trace was taken; the replayer reads the few keys that change what the
 * numbers mean: the counter source and rate (what a compute unit is) and the rank count,
 * and how the traced run ended (status, ranks_finished: a killed job's trace is cut short).
 * The file is optional (SimGrid's traces have none): every field then says "unknown". */
#ifndef TIR_TRACE_META_H
#define TIR_TRACE_META_H

typedef struct trace_meta {
  char *file;           /* the trace.meta read, NULL when there is none */
  char *counter_source; /* "instructions", "thread_cputime", ... or NULL */
  char *counter_rate;   /* compute units per CPU second as written ("none" for counters), or NULL */
  char *compute_unit;   /* what one unit is, in words, or NULL */
  int np;               /* the `np` key: ranks traced, 0 when absent or not a positive integer */
  char *status;         /* the status's first word: "complete", "killed", "disk-full",
                           "running" ("incomplete" from older tracers), or NULL */
  int complete;         /* 1 when status is "complete" or absent (nothing says otherwise) */
  int ranks_finished;   /* ranks that reached MPI_Finalize, -1 when absent */
} trace_meta;

/* Reads the trace.meta of trace (in trace when it is a folder, else beside it). Returns 1
 * when a file was read, 0 when there is none (m is then all empty). */
int trace_meta_read(const char *trace, trace_meta *m);
/* The counter rate as a number (units per second), or 0 when absent or not a number. */
double trace_meta_rate(const trace_meta *m);
void trace_meta_free(trace_meta *m);

#endif
