/* timeline_impl.h - what the timeline dispatcher (timeline.c) shares with its writers.
 *
 * The dispatcher turns the replay's observer events into three kinds of intervals,
 * already clipped to the window: a rank's action (a state), a rank's stay in a code
 * region, and a message. Each writer (timeline_csv.c, timeline_paje.c, timeline_prv.c,
 * timeline_svg.c) is a table of callbacks receiving them. A writer that can stream
 * (CSV) writes to t->out as intervals come; a writer whose format needs records sorted
 * by time (Paje, Paraver) hands each record to tl_emit() with its sort key, and the
 * dispatcher writes them sorted between the writer's header and footer (timeline_sort.c).
 * Intervals arrive when they end, so their start times are not in order. */
#ifndef TIR_TIMELINE_IMPL_H
#define TIR_TIMELINE_IMPL_H

#include "timeline.h"

#include <stdint.h>
#include <stdio.h>

/* One action of one rank, [start, end] clipped to the window. */
typedef struct tl_state {
  int rank;
  trace_op op;        /* the action (its name: trace_op_name) */
  int category;       /* 0 compute/sleep, 1 communication, 2 wait (observer.h) */
  double start, end;  /* seconds */
  const char *region; /* innermost code region, or NULL */
  int peer;           /* destination/source/root, -1 when the action has none */
  int tag;            /* -1 when the action has none */
  int64_t bytes;      /* payload, -1 when the action has none */
  int comm;           /* a collective's communicator (trace id), 0: MPI_COMM_WORLD or none */
} tl_state;

/* One stay of a rank in a code region, clipped to the window. */
typedef struct tl_region {
  int rank;
  const char *name;
  int id;            /* 1-based id of name, in order of first appearance */
  int depth;         /* 0 for an outermost region */
  int parent;        /* id of the enclosing region, 0 when outermost */
  double start, end; /* seconds */
} tl_region;

/* One point-to-point message (collectives' included). */
typedef struct tl_msg {
  int src, dst, tag;
  int64_t bytes;
  double posted, start, end; /* send posted, transfer start, transfer end (s) */
} tl_msg;

typedef struct tl_sort tl_sort;

/* The timeline: dispatcher state plus the writer's own (priv). */
struct timeline {
  const struct tl_format *fmt; /* the writer */
  char *path;                  /* final path */
  char *tmp;                   /* its temporary file (output_open) */
  FILE *out;                   /* the temporary file being written */
  double win_start, win_end;   /* window; win_end <= win_start: everything */
  const platform *plat;        /* borrowed */
  int np;                      /* ranks (0 before start) */
  int *host_of;                /* host index of each rank */
  double end_time;             /* simulated time at finish */
  tl_sort *sort;               /* records waiting to be sorted (sorted formats) */
  char **region_names;         /* region names by id - 1 */
  size_t nregion_names, region_names_cap;
  struct tl_rank *ranks;       /* per-rank dispatcher state (timeline.c) */
  int dt_default;              /* size of the default datatype (set by init) */
  void *priv;                  /* the writer's state */
};

/* A writer. Callbacks may be NULL. */
typedef struct tl_format {
  const char *name; /* "csv", ... (--timeline-format) */
  const char *ext;  /* ".csv", ... (chosen by file name) */
  int sorted;       /* records go through tl_emit and are sorted at the end */
  /* ranks are known (t->np, t->host_of): write a streaming header, set up priv */
  void (*start)(timeline *t);
  void (*state)(timeline *t, const tl_state *s);
  void (*region)(timeline *t, const tl_region *r);
  void (*message)(timeline *t, const tl_msg *m);
  /* sorted formats: what precedes the sorted records (t->end_time is known) */
  void (*header)(timeline *t);
  /* after the records: footer, side files. Returns 0 or -1 with err. */
  int (*finish)(timeline *t, char *err, size_t errlen);
  void (*free)(timeline *t); /* frees priv */
} tl_format;

extern const tl_format tl_csv, tl_paje, tl_prv, tl_svg;

/* Sorted formats: queues one record (printf-style text) to be written in the order
 * of (key, order, call order). */
void tl_emit(timeline *t, double key, int order, const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* Colour of an action in every format ("#rrggbb"), and of region id (1-based). */
const char *tl_color(trace_op op);
const char *tl_region_color(int id);

/* Host name of rank r. */
const char *tl_host_name(const timeline *t, int r);

/* ---- timeline_sort.c: a spill file of records and their sort keys ---- */
/* Returns NULL with err when no temporary file can be made. */
tl_sort *tl_sort_new(char *err, size_t errlen);
void tl_sort_add(tl_sort *s, double key, int order, const char *text, size_t len);
/* Writes every record to out sorted by (key, order, order of tl_sort_add). Returns 0 or -1
 * (read or write error: errno set). */
int tl_sort_write(tl_sort *s, FILE *out);
size_t tl_sort_count(const tl_sort *s);
void tl_sort_free(tl_sort *s);

#endif
