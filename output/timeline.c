/* timeline.c - the timeline dispatcher: observer events -> intervals -> one writer.
 *
 * The replay tells when actions begin and end, when ranks enter and leave code regions
 * and when messages complete (observer.h). This file turns that into clipped intervals
 * (timeline_impl.h) for the writer chosen by format or file extension, and owns the
 * output file: it is opened at once (an unwritable folder fails before the replay) as a
 * temporary file beside the final path and renamed only when everything was written.
 *
 * Regions nest: entering a region pushes it on the rank's stack, region_end pops the
 * innermost one; regions still open at the end of the replay close at its end. Only
 * actions with a category (compute, communication, wait) become states: bookkeeping
 * actions (init, comm_size, region markers, ...) take no time. */
#include "timeline_impl.h"

#include "output.h"
#include "xalloc.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* A code region a rank is in. */
typedef struct tl_open {
  int id;       /* region id (1-based) */
  double start; /* when the rank entered it */
} tl_open;

/* Per-rank dispatcher state. */
struct tl_rank {
  tl_open *stack; /* open regions, innermost last */
  size_t depth, cap;
};

static const tl_format *const formats[] = {&tl_csv, &tl_paje, &tl_prv, &tl_svg};
#define NFORMATS (sizeof formats / sizeof formats[0])

/* ====== opening ====== */

static const tl_format *find_format(const char *path, const char *format, char *err, size_t errlen) {
  size_t n = strlen(path);
  for (size_t i = 0; i < NFORMATS; i++) {
    const tl_format *f = formats[i];
    size_t m = strlen(f->ext);
    if (format ? !strcmp(format, f->name) : n > m && !strcmp(path + n - m, f->ext))
      return f;
  }
  if (format)
    x_err(err, errlen, "unknown timeline format '%s' (valid: csv, paje, prv, svg)", format);
  else
    x_err(err, errlen, "%s: cannot tell the timeline format from the file name (use .csv, .paje, .prv or "
          ".svg, or --timeline-format)", path);
  return NULL;
}

int timeline_check(const char *path, const char *format, char *err, size_t errlen) {
  return find_format(path, format, err, errlen) ? 0 : -1;
}

timeline *timeline_open(const char *path, const char *format, double win_start, double win_end,
                        const platform *p, char *err, size_t errlen) {
  const tl_format *f = find_format(path, format, err, errlen);
  if (!f)
    return NULL;
  timeline *t = x_calloc(1, sizeof *t);
  t->fmt = f;
  t->path = x_strdup(path);
  t->plat = p;
  t->win_start = win_start;
  t->win_end = win_end;
  t->dt_default = 1;
  if (!(t->out = output_open(path, &t->tmp, err, errlen)))
    goto err;
  if (f->sorted && !(t->sort = tl_sort_new(err, errlen)))
    goto err;
  return t;
err:
  if (t->out)
    output_commit(t->out, t->tmp, path, 1, NULL, 0);
  free(t->path);
  free(t);
  return NULL;
}

/* ====== helpers for the writers ====== */

void tl_emit(timeline *t, double key, int order, const char *fmt, ...) {
  char buf[512];
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  if (n < 0)
    return;
  if ((size_t)n < sizeof buf) {
    tl_sort_add(t->sort, key, order, buf, (size_t)n);
    return;
  }
  char *big = x_malloc((size_t)n + 1);
  va_start(ap, fmt);
  vsnprintf(big, (size_t)n + 1, fmt, ap);
  va_end(ap);
  tl_sort_add(t->sort, key, order, big, (size_t)n);
  free(big);
}

const char *tl_host_name(const timeline *t, int r) {
  if (!t->plat || !t->host_of || r < 0 || r >= t->np)
    return "";
  return plat_host_at(t->plat, t->host_of[r])->name;
}

static int windowed(const timeline *t) { return t->win_end > t->win_start; }

/* Clips [*s, *e] to the window. Returns 0 when nothing is left. */
static int clip(const timeline *t, double *s, double *e) {
  if (!windowed(t))
    return 1;
  if (*e < t->win_start || *s > t->win_end)
    return 0;
  if (*s < t->win_start)
    *s = t->win_start;
  if (*e > t->win_end)
    *e = t->win_end;
  return 1;
}

static int region_id(timeline *t, const char *name) {
  for (size_t i = 0; i < t->nregion_names; i++)
    if (!strcmp(t->region_names[i], name))
      return (int)i + 1;
  x_grow(&t->region_names, &t->region_names_cap, t->nregion_names + 1, sizeof *t->region_names);
  t->region_names[t->nregion_names++] = x_strdup(name);
  return (int)t->nregion_names;
}

/* ====== actions -> states ====== */

static int64_t dt_bytes(const timeline *t, int64_t count, int dt) {
  int size = dt == TRACE_DT_DEFAULT ? t->dt_default : trace_dtype_size(dt);
  return count < 0 ? -1 : count * (size < 0 ? 0 : size);
}

static int64_t vec_sum(const trace_action *a, const int64_t *v) {
  int64_t s = 0;
  for (int i = 0; v && i < a->nvec; i++)
    s += v[i];
  return s;
}

/* Fills the peer, tag and bytes of s from the action (tl_state's comments). */
static void describe(const timeline *t, const trace_action *a, tl_state *s) {
  s->peer = s->tag = -1;
  s->bytes = -1;
  switch (a->op) {
  case TRACE_SEND: case TRACE_ISEND: case TRACE_RECV: case TRACE_IRECV:
    s->peer = a->peer, s->tag = a->tag, s->bytes = dt_bytes(t, a->count, a->dtype);
    break;
  case TRACE_WAIT: case TRACE_TEST:
    s->peer = a->peer, s->tag = a->tag;
    break;
  case TRACE_SENDRECV:
    s->peer = a->peer, s->bytes = dt_bytes(t, a->count, a->dtype);
    break;
  case TRACE_BCAST: case TRACE_REDUCE: case TRACE_GATHER: case TRACE_SCATTER:
    s->peer = a->peer, s->bytes = dt_bytes(t, a->count, a->dtype);
    break;
  case TRACE_GATHERV:
    s->peer = a->peer, s->bytes = dt_bytes(t, a->count, a->dtype);
    break;
  case TRACE_SCATTERV:
    s->peer = a->peer, s->bytes = dt_bytes(t, a->count2, a->dtype2);
    break;
  case TRACE_ALLREDUCE: case TRACE_SCAN: case TRACE_EXSCAN: case TRACE_ALLTOALL: case TRACE_ALLGATHER:
  case TRACE_ALLGATHERV:
    s->bytes = dt_bytes(t, a->count, a->dtype);
    break;
  case TRACE_ALLTOALLV: case TRACE_REDUCESCATTER:
    s->bytes = dt_bytes(t, vec_sum(a, a->vec), a->dtype);
    break;
  default:
    break;
  }
}

static void on_action_begin(void *ctx, int rank, const trace_action *a, double now) {
  timeline *t = ctx;
  (void)rank, (void)now;
  if (a->op == TRACE_INIT) /* as the replay does: init sets MPI_DEFAULT_TYPE */
    t->dt_default = a->has_arg ? 8 : 1;
}

static void on_action_end(void *ctx, int rank, const trace_action *a, int category, double start, double now) {
  timeline *t = ctx;
  if (category < 0 || rank < 0 || rank >= t->np || !t->fmt->state)
    return;
  tl_state s = {.rank = rank, .op = a->op, .category = category, .start = start, .end = now, .comm = a->comm};
  if (!clip(t, &s.start, &s.end))
    return;
  const struct tl_rank *r = &t->ranks[rank];
  s.region = r->depth ? t->region_names[r->stack[r->depth - 1].id - 1] : NULL;
  describe(t, a, &s);
  t->fmt->state(t, &s);
}

/* ====== regions, messages, start and finish ====== */

/* Reports the innermost open region of rank as ended at now and pops it. */
static void region_pop(timeline *t, int rank, double now) {
  struct tl_rank *r = &t->ranks[rank];
  if (r->depth == 0)
    return;
  tl_open *o = &r->stack[--r->depth];
  tl_region g = {.rank = rank, .id = o->id, .name = t->region_names[o->id - 1], .depth = (int)r->depth,
                 .parent = r->depth ? r->stack[r->depth - 1].id : 0, .start = o->start, .end = now};
  if (t->fmt->region && clip(t, &g.start, &g.end))
    t->fmt->region(t, &g);
}

static void on_region(void *ctx, int rank, const char *name, double now) {
  timeline *t = ctx;
  if (rank < 0 || rank >= t->np)
    return;
  if (!name) {
    region_pop(t, rank, now);
    return;
  }
  struct tl_rank *r = &t->ranks[rank];
  x_grow(&r->stack, &r->cap, r->depth + 1, sizeof *r->stack);
  r->stack[r->depth++] = (tl_open){.id = region_id(t, name), .start = now};
}

/* Messages are kept whole when their life [posted, end] meets the window. */
static void on_message(void *ctx, int src, int dst, int tag, int64_t bytes, double posted, double start,
                       double end) {
  timeline *t = ctx;
  if (!t->fmt->message || (windowed(t) && (end < t->win_start || posted > t->win_end)))
    return;
  tl_msg m = {.src = src, .dst = dst, .tag = tag, .bytes = bytes, .posted = posted, .start = start, .end = end};
  t->fmt->message(t, &m);
}

static void on_start(void *ctx, int np, const int *host_of) {
  timeline *t = ctx;
  if (t->ranks)
    return;
  t->np = np;
  t->host_of = x_malloc((size_t)(np > 0 ? np : 1) * sizeof *t->host_of);
  memcpy(t->host_of, host_of, (size_t)np * sizeof *host_of);
  t->ranks = x_calloc((size_t)(np > 0 ? np : 1), sizeof *t->ranks);
  if (t->fmt->start)
    t->fmt->start(t);
}

static void on_finish(void *ctx, double now) {
  timeline *t = ctx;
  t->end_time = now;
  for (int i = 0; i < t->np; i++)
    while (t->ranks[i].depth)
      region_pop(t, i, now);
}

void timeline_observer(timeline *t, replay_observer *o) {
  memset(o, 0, sizeof *o);
  o->ctx = t;
  o->start = on_start;
  o->action_begin = on_action_begin;
  o->action_end = on_action_end;
  o->region = on_region;
  o->message = on_message;
  o->finish = on_finish;
}

/* ====== closing ====== */

static int write_all(timeline *t, char *err, size_t errlen) {
  if (!t->ranks)
    on_start(t, 0, NULL);
  if (t->fmt->header)
    t->fmt->header(t);
  errno = 0;
  if ((t->sort && tl_sort_write(t->sort, t->out) < 0) || fflush(t->out) != 0 || ferror(t->out))
    return x_err(err, errlen, "%s: cannot write: %s", t->path, strerror(errno ? errno : EIO));
  /* side files (Paraver's) only once the main file is known to be written */
  return t->fmt->finish ? t->fmt->finish(t, err, errlen) : 0;
}

static void free_timeline(timeline *t) {
  if (t->fmt->free)
    t->fmt->free(t);
  for (int i = 0; i < t->np; i++)
    free(t->ranks[i].stack);
  free(t->ranks);
  free(t->host_of);
  for (size_t i = 0; i < t->nregion_names; i++)
    free(t->region_names[i]);
  free(t->region_names);
  tl_sort_free(t->sort);
  free(t->path);
  free(t);
}

int timeline_close(timeline *t, int failed, char *err, size_t errlen) {
  if (!t)
    return 0;
  char e1[1024] = "";
  int bad = failed || write_all(t, e1, sizeof e1) < 0;
  int rc = output_commit(t->out, t->tmp, t->path, bad, err, errlen);
  if (!failed && *e1)
    x_err(err, errlen, "%s", e1);
  free_timeline(t);
  return failed ? 0 : rc;
}

/* ====== colours shared by the writers ====== */

static const char *const op_colors[TRACE_NOPS] = {
    [TRACE_COMPUTE] = "#3a7d44",   [TRACE_SLEEP] = "#bdbdbd",      [TRACE_SEND] = "#1f77b4",
    [TRACE_ISEND] = "#6baed6",     [TRACE_RECV] = "#d62728",       [TRACE_IRECV] = "#ff9896",
    [TRACE_SENDRECV] = "#9467bd",  [TRACE_WAIT] = "#ff7f0e",       [TRACE_WAITALL] = "#ffbb78",
    [TRACE_TEST] = "#e7ba52",      [TRACE_BARRIER] = "#8c564b",    [TRACE_BCAST] = "#e377c2",
    [TRACE_REDUCE] = "#17becf",    [TRACE_ALLREDUCE] = "#bcbd22",  [TRACE_ALLTOALL] = "#393b79",
    [TRACE_ALLTOALLV] = "#5254a3", [TRACE_GATHER] = "#637939",     [TRACE_GATHERV] = "#8ca252",
    [TRACE_ALLGATHER] = "#843c39", [TRACE_ALLGATHERV] = "#ad494a", [TRACE_SCATTER] = "#7b4173",
    [TRACE_SCATTERV] = "#a55194",  [TRACE_REDUCESCATTER] = "#ce6dbd", [TRACE_SCAN] = "#de9ed6",
    [TRACE_EXSCAN] = "#9c9ede"};

const char *tl_color(trace_op op) {
  return (unsigned)op < TRACE_NOPS && op_colors[op] ? op_colors[op] : "#444444";
}

const char *tl_region_color(int id) {
  static const char *const pastel[] = {"#fbb4ae", "#b3cde3", "#ccebc5", "#decbe4", "#fed9a6",
                                       "#ffffcc", "#e5d8bd", "#fddaec", "#f2f2f2"};
  return pastel[(id > 0 ? id - 1 : 0) % (int)(sizeof pastel / sizeof pastel[0])];
}
