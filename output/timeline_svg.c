/* timeline_svg.c - the SVG timeline: a Gantt chart drawn by tir.
 *
 * One lane per rank (beyond 256 ranks, 256 lanes each holding a run of consecutive
 * ranks), a bar per action coloured by kind (compute, sleep, each MPI call), message
 * arrows when there are few enough to read (at most MAX_ARROWS, and one rank per lane),
 * a time axis with units and a legend. The chart aggregates: time is cut into nbins
 * bins per lane and each bin keeps the time spent in each action kind. A bin is drawn in
 * its main MPI call (the non-compute kind with the most time) when MPI took at least
 * MPI_SHOW (1/8) of its lane's time, else in its main action when the lane was busy at
 * least half of it, else blank. So the file stays small whatever the run's length, and
 * short MPI states stay visible: at 2,048 ranks a bin is about 1/1000 of the run and
 * holds 8 ranks, and a halo exchange of 3% of each iteration vanished under a plain
 * majority rule (the chart was solid compute; test/timeline_svg.sh measures the rendered
 * image). The rule enlarges MPI (a bin 1/8 MPI is drawn all MPI: about 3x the ink of the
 * true share in that case), so the legend states it, with the true MPI share of the
 * ranks' busy time.
 *
 * Without a window the span is not known in advance: bins cover [0, span) and span
 * doubles (bins merge pairwise, exactly) whenever an interval ends beyond it, so the
 * run's end always lies in the second half of the bins. With --timeline-window the bins
 * cover the window exactly.
 * Memory: lanes x nbins x NKINDS floats, at most 2^18 x 25 x 4 bytes = 26 MB. */
#include "timeline_impl.h"

#include "xalloc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MAX_LANES 256
#define MAX_ARROWS 1000
#define FIRST_KIND TRACE_COMPUTE /* kinds are the ops FIRST_KIND..TRACE_EXSCAN */
#define NKINDS (TRACE_EXSCAN - FIRST_KIND + 1)
#define MPI_SHOW 0.125 /* share of a bin's lane time in MPI that draws the bin in its MPI call */

/* Kinds that are no MPI call: compute and sleep. */
static int cpu_kind(int k) { return k + FIRST_KIND == TRACE_COMPUTE || k + FIRST_KIND == TRACE_SLEEP; }

typedef struct arrow {
  int src, dst;      /* ranks */
  double start, end; /* transfer (s) */
} arrow;

typedef struct svg {
  int lanes;              /* number of lanes */
  int nbins;              /* bins per lane */
  double t0, span;        /* bins cover [t0, t0 + span) */
  int fixed;              /* span fixed by the window */
  float *bins;            /* [lane][bin][kind]: seconds */
  int used[NKINDS];       /* kinds seen */
  arrow *arrows;          /* messages to draw */
  size_t narrows, arrows_cap;
  int no_arrows;          /* too many messages, or lanes hold several ranks */
  uint64_t nmessages;     /* messages seen */
} svg;

static int lane_of(const timeline *t, const svg *g, int rank) {
  return (int)((int64_t)rank * g->lanes / (t->np > 0 ? t->np : 1));
}

/* Ranks in lane l: [first, last]. */
static void lane_ranks(const timeline *t, const svg *g, int l, int *first, int *last) {
  int np = t->np;
  *first = (int)(((int64_t)l * np + g->lanes - 1) / g->lanes);
  *last = (int)(((int64_t)(l + 1) * np + g->lanes - 1) / g->lanes) - 1;
}

static void start(timeline *t) {
  svg *g = x_calloc(1, sizeof *g);
  g->lanes = t->np < MAX_LANES ? t->np : MAX_LANES;
  if (g->lanes < 1)
    g->lanes = 1;
  g->nbins = (1 << 18) / g->lanes;
  if (g->nbins > 2048)
    g->nbins = 2048;
  g->fixed = t->win_end > t->win_start;
  g->t0 = g->fixed ? t->win_start : 0;
  g->span = g->fixed ? t->win_end - t->win_start : 1e-6;
  g->bins = x_calloc((size_t)g->lanes * (size_t)g->nbins * NKINDS, sizeof *g->bins);
  t->priv = g;
}

/* Doubles the span: bin i takes bins 2i and 2i+1. */
static void grow(svg *g) {
  size_t lane = (size_t)g->nbins * NKINDS;
  for (int l = 0; l < g->lanes; l++) {
    float *b = g->bins + (size_t)l * lane;
    for (int i = 0; i < g->nbins / 2; i++)
      for (int k = 0; k < NKINDS; k++)
        b[(size_t)i * NKINDS + k] = b[(size_t)2 * i * NKINDS + k] + b[(size_t)(2 * i + 1) * NKINDS + k];
    memset(b + (size_t)(g->nbins / 2) * NKINDS, 0, (size_t)(g->nbins - g->nbins / 2) * NKINDS * sizeof *b);
  }
  g->span *= 2;
}

static void state(timeline *t, const tl_state *s) {
  svg *g = t->priv;
  int k = (int)s->op - FIRST_KIND;
  if (!(s->end > s->start) || k < 0 || k >= NKINDS)
    return;
  while (!g->fixed && s->end > g->t0 + g->span)
    grow(g);
  g->used[k] = 1;
  double w = g->span / g->nbins;
  int i0 = (int)floor((s->start - g->t0) / w), i1 = (int)floor((s->end - g->t0) / w);
  float *b = g->bins + (size_t)lane_of(t, g, s->rank) * (size_t)g->nbins * NKINDS;
  for (int i = i0 < 0 ? 0 : i0; i <= i1 && i < g->nbins; i++) {
    double a = fmax(s->start, g->t0 + i * w), e = fmin(s->end, g->t0 + (i + 1) * w);
    if (e > a)
      b[(size_t)i * NKINDS + k] += (float)(e - a);
  }
}

static void message(timeline *t, const tl_msg *m) {
  svg *g = t->priv;
  g->nmessages++;
  if (g->no_arrows)
    return;
  if (g->narrows == MAX_ARROWS || g->lanes != t->np) {
    g->no_arrows = 1;
    return;
  }
  x_grow(&g->arrows, &g->arrows_cap, g->narrows + 1, sizeof *g->arrows);
  g->arrows[g->narrows++] = (arrow){m->src, m->dst, m->start, m->end};
}

/* ====== drawing ====== */

enum { LEFT = 90, WIDTH = 1000, TOP = 48, AXIS = 46, LEGEND_COLS = 6, LEGEND_W = 165, LEGEND_ROW = 18 };

/* Geometry of the drawing. */
typedef struct frame {
  double t0, tspan; /* time shown: [t0, t0 + tspan] */
  double lane_h;    /* pixels per lane */
  double plot_h;    /* pixels of all lanes */
} frame;

static double xpos(const frame *f, double t) { return LEFT + (t - f->t0) / f->tspan * WIDTH; }

/* 1, 2 or 5 times a power of ten, near x. */
static double nice_step(double x) {
  double p = pow(10, floor(log10(x))), m = x / p;
  return (m < 1.5 ? 1 : m < 3.5 ? 2 : m < 7.5 ? 5 : 10) * p;
}

/* The largest of s, ms, us, ns not above span. */
static void unit_of(double span, double *u, const char **name) {
  static const double us[] = {1, 1e-3, 1e-6, 1e-9};
  static const char *const names[] = {"s", "ms", "\xc2\xb5s", "ns"};
  int i = 0;
  while (i < 3 && span < us[i] * 0.999)
    i++;
  *u = us[i];
  *name = names[i];
}

static void draw_axis(FILE *o, const frame *f) {
  double step = nice_step(f->tspan / 8), u, y = TOP + f->plot_h;
  const char *un;
  unit_of(f->tspan, &u, &un);
  int nd = (int)fmax(0, -floor(log10(step / u) + 1e-9));
  double origin = f->t0 > 0 ? f->t0 : 0;
  fprintf(o, "<g class=\"axis\" font-size=\"11\" text-anchor=\"middle\">\n");
  fprintf(o, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#000\"/>\n", LEFT, y, LEFT + WIDTH, y);
  for (double v = ceil(f->t0 / step - 1e-9) * step; v <= f->t0 + f->tspan * (1 + 1e-9); v += step) {
    double x = xpos(f, v);
    fprintf(o, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#000\"/>", x, y, x, y + 5);
    double label = (v - origin) / u;
    fprintf(o, "<text x=\"%.1f\" y=\"%.1f\">%.*f</text>\n", x, y + 17, nd, fabs(label) < 1e-9 ? 0.0 : label);
  }
  if (origin > 0)
    fprintf(o, "<text x=\"%.1f\" y=\"%.1f\">time since %.9g s (%s)</text>\n", LEFT + WIDTH / 2.0, y + 34,
            origin, un);
  else
    fprintf(o, "<text x=\"%.1f\" y=\"%.1f\">time (%s)</text>\n", LEFT + WIDTH / 2.0, y + 34, un);
  fprintf(o, "</g>\n");
}

/* The kind a bin is drawn in (see the top of the file), or -1 for blank; cap: the lane's
 * time in the bin (its ranks x the bin's width). */
static int shown_kind(const float *bin, double cap) {
  double busy = 0, mpi = 0, best = 0, best_mpi = 0;
  int k = -1, k_mpi = -1;
  for (int i = 0; i < NKINDS; i++) {
    busy += bin[i];
    if (bin[i] > best)
      best = bin[i], k = i;
    if (!cpu_kind(i) && bin[i] > best_mpi)
      best_mpi = bin[i], k_mpi = i;
    mpi += cpu_kind(i) ? 0 : bin[i];
  }
  if (!(cap > 0))
    return -1;
  if (mpi >= MPI_SHOW * cap)
    return k_mpi;
  return busy >= 0.5 * cap ? k : -1;
}

/* Share of the ranks' busy time spent in MPI (every bin). */
static double mpi_share(const svg *g) {
  double busy = 0, mpi = 0;
  for (size_t i = 0; i < (size_t)g->lanes * (size_t)g->nbins * NKINDS; i++) {
    busy += g->bins[i];
    mpi += cpu_kind((int)(i % NKINDS)) ? 0 : g->bins[i];
  }
  return busy > 0 ? mpi / busy : 0;
}

static void draw_lane(FILE *o, const timeline *t, const svg *g, const frame *f, int l) {
  int first, last;
  lane_ranks(t, g, l, &first, &last);
  double w = g->span / g->nbins, y = TOP + l * f->lane_h, tend = f->t0 + f->tspan;
  const float *b = g->bins + (size_t)l * (size_t)g->nbins * NKINDS;
  int run = -1, from = 0;
  for (int i = 0; i <= g->nbins; i++) {
    double bs = g->t0 + i * w;
    int k = -1;
    if (i < g->nbins && bs < tend)
      k = shown_kind(b + (size_t)i * NKINDS, (last - first + 1) * (fmin(bs + w, tend) - bs));
    if (k == run)
      continue;
    if (run >= 0) {
      double x0 = xpos(f, g->t0 + from * w), x1 = xpos(f, fmin(g->t0 + i * w, tend));
      fprintf(o, "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" fill=\"%s\"/>\n", x0, y,
              x1 - x0, f->lane_h * 0.85, tl_color((trace_op)(run + FIRST_KIND)));
    }
    run = k, from = i;
  }
}

static void draw_labels(FILE *o, const timeline *t, const svg *g, const frame *f) {
  int every = (int)ceil(10.0 / f->lane_h); /* at least 10 px between labels */
  double fs = fmin(11, fmax(7, f->lane_h * 0.8));
  fprintf(o, "<g font-size=\"%.0f\" text-anchor=\"end\">\n", fs);
  for (int l = 0; l < g->lanes; l += every) {
    int a, b;
    lane_ranks(t, g, l, &a, &b);
    double y = TOP + (l + 0.5) * f->lane_h + fs * 0.35;
    if (a == b)
      fprintf(o, "<text x=\"%d\" y=\"%.1f\">rank %d</text>\n", LEFT - 6, y, a);
    else
      fprintf(o, "<text x=\"%d\" y=\"%.1f\">ranks %d-%d</text>\n", LEFT - 6, y, a, b);
  }
  fprintf(o, "</g>\n");
}

static void draw_arrows(FILE *o, const svg *g, const frame *f) {
  if (g->no_arrows || g->narrows == 0)
    return;
  fprintf(o, "<g stroke=\"#000\" stroke-opacity=\"0.55\" stroke-width=\"0.8\" marker-end=\"url(#head)\">\n");
  for (size_t i = 0; i < g->narrows; i++) {
    const arrow *a = &g->arrows[i];
    double ys = TOP + (a->src + 0.42) * f->lane_h, yd = TOP + (a->dst + 0.42) * f->lane_h;
    fprintf(o, "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\"/>\n", xpos(f, a->start), ys,
            xpos(f, a->end), yd);
  }
  fprintf(o, "</g>\n");
}

static void draw_legend(FILE *o, const timeline *t, const svg *g, const frame *f, double y) {
  fprintf(o, "<g font-size=\"11\">\n");
  int n = 0;
  for (int k = 0; k < NKINDS; k++) {
    if (!g->used[k])
      continue;
    double x = LEFT + (n % LEGEND_COLS) * LEGEND_W, yy = y + (n / LEGEND_COLS) * LEGEND_ROW;
    fprintf(o, "<rect x=\"%.1f\" y=\"%.1f\" width=\"14\" height=\"11\" fill=\"%s\"/>", x, yy,
            tl_color((trace_op)(k + FIRST_KIND)));
    fprintf(o, "<text x=\"%.1f\" y=\"%.1f\">%s</text>\n", x + 19, yy + 10, trace_op_name((trace_op)(k + FIRST_KIND)));
    n++;
  }
  y += ((n + LEGEND_COLS - 1) / LEGEND_COLS) * LEGEND_ROW + 6;
  double bin = g->span / g->nbins;
  fprintf(o, "<text x=\"%d\" y=\"%.1f\" fill=\"#555\">Per %.3g s, a lane shows its main MPI call when MPI took "
             "1/8 of its time or more, else its main action when busy half of it, else blank.", LEFT, y + 10, bin);
  fprintf(o, "</text>\n<text x=\"%d\" y=\"%.1f\" fill=\"#555\">MPI: %.1f%% of the ranks' busy time.", LEFT,
          y + 10 + LEGEND_ROW, 100 * mpi_share(g));
  if (g->no_arrows)
    fprintf(o, " %llu messages: too many to draw (or lanes hold several ranks).",
            (unsigned long long)g->nmessages);
  else if (g->narrows)
    fprintf(o, " Arrows: %zu messages (transfer start to end).", g->narrows);
  fprintf(o, "</text>\n</g>\n");
  (void)t, (void)f;
}

/* Rows of the legend: its colour rows and the two lines of text. */
static int legend_rows(const svg *g) {
  int n = 0;
  for (int k = 0; k < NKINDS; k++)
    n += g->used[k];
  return (n + LEGEND_COLS - 1) / LEGEND_COLS + 1;
}

static void draw(timeline *t, svg *g) {
  FILE *o = t->out;
  frame f = {.t0 = g->t0, .tspan = g->fixed ? g->span : t->end_time};
  if (!(f.tspan > 0))
    f.tspan = g->span;
  f.lane_h = fmin(24, fmax(2, 640.0 / g->lanes));
  f.plot_h = f.lane_h * g->lanes;
  double legend_y = TOP + f.plot_h + AXIS + 8;
  double h = legend_y + legend_rows(g) * LEGEND_ROW + 28;
  fprintf(o, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" "
             "width=\"%d\" height=\"%.0f\" viewBox=\"0 0 %d %.0f\" font-family=\"sans-serif\">\n",
          LEFT + WIDTH + 20, h, LEFT + WIDTH + 20, h);
  fprintf(o, "<defs><clipPath id=\"plot\"><rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%.1f\"/></clipPath>"
             "<marker id=\"head\" viewBox=\"0 0 6 6\" refX=\"6\" refY=\"3\" markerWidth=\"5\" markerHeight=\"5\" "
             "orient=\"auto\"><path d=\"M0,0 L6,3 L0,6 z\" fill=\"#000\"/></marker></defs>\n",
          LEFT, TOP, WIDTH, f.plot_h);
  fprintf(o, "<rect width=\"100%%\" height=\"100%%\" fill=\"#fff\"/>\n");
  fprintf(o, "<text x=\"%d\" y=\"28\" font-size=\"15\">tir-replay: %d ranks, simulated time %.9g s%s</text>\n",
          LEFT, t->np, t->end_time, g->fixed ? " (window)" : "");
  for (int l = 1; l < g->lanes && f.lane_h >= 4; l += 2)
    fprintf(o, "<rect x=\"%d\" y=\"%.2f\" width=\"%d\" height=\"%.2f\" fill=\"#f3f3f3\"/>\n", LEFT,
            TOP + l * f.lane_h, WIDTH, f.lane_h);
  fprintf(o, "<g clip-path=\"url(#plot)\">\n");
  for (int l = 0; l < g->lanes; l++)
    draw_lane(o, t, g, &f, l);
  draw_arrows(o, g, &f);
  fprintf(o, "</g>\n");
  draw_labels(o, t, g, &f);
  draw_axis(o, &f);
  draw_legend(o, t, g, &f, legend_y);
  fprintf(o, "</svg>\n");
}

static int finish(timeline *t, char *err, size_t errlen) {
  (void)err, (void)errlen;
  draw(t, t->priv);
  return 0;
}

static void sfree(timeline *t) {
  svg *g = t->priv;
  if (!g)
    return;
  free(g->bins);
  free(g->arrows);
  free(g);
}

const tl_format tl_svg = {.name = "svg", .ext = ".svg", .start = start, .state = state, .message = message,
                          .finish = finish, .free = sfree};
