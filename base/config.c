/* config.c - the table of model settings (SimGrid key names), their defaults and parsers.
 *
 * Every key tir knows is in `keys` below, with its type, default and help; --help-cfg
 * prints the table, an unknown key is an error listing it. Defaults are those of
 * SimGrid 3.32 as smpirun sets them (SMPI_MODEL.md: surf/precision 1e-9, network/model
 * SMPI with weight-S 8775, the SMPI factor tables). Keys that only matter to SimGrid's
 * online simulation (privatization, host-speed, ...) are accepted and ignored, so that
 * existing command lines carry over; they are marked so in the table. */
#include "config.h"

#include "units.h"
#include "xalloc.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define BW_FACTOR_DEFAULT                                                                          \
  "65472:0.940694;15424:0.697866;9376:0.58729;5776:1.08739;3484:0.77493;1426:0.608902;"          \
  "732:0.341987;257:0.338112;0:0.812084"
#define LAT_FACTOR_DEFAULT                                                                         \
  "65472:11.6436;15424:3.48845;9376:2.59299;5776:2.18796;3484:1.88101;1426:1.61075;732:1.9503;"  \
  "257:1.95341;0:2.01467"

typedef enum { K_DOUBLE, K_TIME, K_BW, K_LONG, K_BOOL, K_FACTOR, K_AFFINE, K_STRING, K_IGNORED } kind;

typedef struct key {
  const char *name;
  kind type;
  const char *def;
  size_t off; /* offset of the field in config (unused for K_IGNORED and collectives) */
  const char *help;
} key;

#define OFF(f) offsetof(config, f)
static const key keys[] = {
    {"smpi/bw-factor", K_FACTOR, BW_FACTOR_DEFAULT, OFF(bw_factor), "bandwidth factor per payload size"},
    {"smpi/lat-factor", K_FACTOR, LAT_FACTOR_DEFAULT, OFF(lat_factor), "latency factor per payload size"},
    {"smpi/os", K_AFFINE, "0:0:0:0:0", OFF(os), "sender overhead of detached sends (o + b*size)"},
    {"smpi/ois", K_AFFINE, "0:0:0:0:0", OFF(ois), "sender overhead of isends"},
    {"smpi/or", K_AFFINE, "0:0:0:0:0", OFF(orecv), "receiver overhead after a detached message"},
    {"network/TCP-gamma", K_DOUBLE, "4194304", OFF(tcp_gamma), "TCP window (bytes): bound gamma/(2L)"},
    {"network/weight-S", K_DOUBLE, "8775", OFF(weight_s), "sharing penalty: L + sum weight-S/bw"},
    {"network/crosstraffic", K_BOOL, "yes", OFF(crosstraffic), "0.05 load on the reverse route"},
    {"network/loopback-bw", K_BW, "10000000000", OFF(loopback_bw), "bandwidth of the model loopback"},
    {"network/loopback-lat", K_TIME, "0", OFF(loopback_lat), "latency of the model loopback"},
    {"smpi/async-small-thresh", K_LONG, "0", OFF(async_small_thresh), "eager mailbox below (bytes)"},
    {"smpi/send-is-detached-thresh", K_LONG, "65536", OFF(detached_thresh), "detached sends below (bytes)"},
    {"smpi/test", K_TIME, "0.0001", OFF(test_sleep), "sleep injected in MPI_Test (x nsleeps)"},
    {"smpi/iprobe", K_TIME, "0.0001", OFF(iprobe_sleep), "time injected in MPI_Iprobe (x nsleeps)"},
    {"smpi/iprobe-cpu-usage", K_DOUBLE, "1", OFF(iprobe_cpu_usage), "CPU usage of iprobe loops"},
    {"smpi/grow-injected-times", K_BOOL, "yes", OFF(grow_injected), "failed tests/iprobes sleep longer"},
    {"smpi/simulate-computation", K_BOOL, "yes", OFF(simulate_computation), "replay compute actions"},
    {"smpi/finalization-barrier", K_BOOL, "no", OFF(finalization_barrier), "barrier at the end of replay"},
    {"smpi/barrier-finalization", K_BOOL, "no", OFF(finalization_barrier), "newer name of the above"},
    {"smpi/init", K_TIME, "0", OFF(init_sleep), "time injected at replay start"},
    {"surf/precision", K_DOUBLE, "1e-9", OFF(surf_precision), "time precision (s)"},
    {"maxmin/precision", K_DOUBLE, "1e-5", OFF(maxmin_precision), "solver relative precision"},
    {"tir/simgrid-marking", K_BOOL, "no", OFF(simgrid_marking),
     "mark only a flow's first link on enabling, as SimGrid 3.32 (doc/model.md)"},
    {"tir/local-solve", K_STRING, "auto", 0,
     "yes: re-solve only the flows a change can move; no: whole components; class: flows sharing "
     "a level solved as one; auto (doc/model.md)"},
    {"tir/rate-tolerance", K_DOUBLE, "0", OFF(rate_tol),
     "class solves: flow ends left unsolved up to this share of a link's flows (0: exact; an "
     "approximation, doc/model.md)"},
    {"tir/bundles", K_BOOL, "yes", OFF(bundles),
     "local solves: flows sharing a bottleneck solved as one (doc/model.md)"},
    {"tir/class-restarts", K_BOOL, "yes", OFF(class_restarts),
     "class solves after flow ends: fill again from the first iteration they reach (no: from "
     "the start; the same shares, doc/model.md)"},
    {"tir/twin-flows", K_BOOL, "yes", OFF(twin_flows),
     "flows alike (one route, size and start) share one solver variable (doc/model.md)"},
    {"tir/riders", K_BOOL, "yes", OFF(riders),
     "class mode: flows alike on one route share one solver variable whenever they start "
     "(doc/model.md)"},
    {"tir/lifo-ties", K_BOOL, "no", OFF(lifo_ties), "equal completion dates: last created first"},
    {"tir/polling", K_STRING, "wait", 0,
     "wait: a run of failed polls (iprobe, test) then its message replays as waiting for it; "
     "simgrid: every poll charged as SMPI does (doc/model.md)"},
    {"tir/simgrid-compat", K_BOOL, "no", OFF(simgrid_compat),
     "reproduce SimGrid 3.32 exactly: its selective update, ties, actor scheduling and collective bugs (doc/model.md)"},
    {"host/pstate", K_LONG, "-1", OFF(pstate), "pstate of every host (-1: each host's own)"},
    {"plugin", K_STRING, "", 0, "plugins: host_energy"},
    {"network/model", K_STRING, "SMPI", 0, "network model (SMPI only; see --network-model)"},
    {"cpu/model", K_STRING, "Cas01", 0, "CPU model (Cas01 only)"},
    {"host/model", K_IGNORED, "compound", 0, "(accepted, ignored)"},
    {"network/optim", K_IGNORED, "Lazy", 0, "(accepted, ignored: results equal)"},
    {"cpu/optim", K_IGNORED, "Lazy", 0, "(accepted, ignored: results equal)"},
    {"smpi/privatization", K_IGNORED, "no", 0, "(accepted, ignored: replay has no code)"},
    {"smpi/host-speed", K_IGNORED, "20000f", 0, "(accepted, ignored: only for benchmarked code)"},
    {"smpi/cpu-threshold", K_IGNORED, "1e-6", 0, "(accepted, ignored: only for benchmarked code)"},
    {"smpi/display-timing", K_IGNORED, "no", 0, "(accepted, ignored)"},
    {"smpi/keep-temps", K_IGNORED, "no", 0, "(accepted, ignored)"},
    {"smpi/shared-malloc", K_IGNORED, "global", 0, "(accepted, ignored)"},
    {"precision/timing", K_IGNORED, "1e-9", 0, "(accepted, ignored)"},
    {"contexts/factory", K_IGNORED, "", 0, "(accepted, ignored: tir has no contexts)"},
    {"contexts/stack-size", K_IGNORED, "", 0, "(accepted, ignored)"},
    {"tracing", K_IGNORED, "no", 0, "(accepted, ignored: see --timeline)"},
};
#define NKEYS (sizeof keys / sizeof keys[0])

static const key *find_key(const char *name) {
  for (size_t i = 0; i < NKEYS; i++)
    if (!strcmp(keys[i].name, name))
      return &keys[i];
  return NULL;
}

/* ====== value parsers ====== */

static int parse_double(const char *s, double *out) {
  char *end;
  errno = 0;
  double v = strtod(s, &end);
  if (end == s || *end || errno || !isfinite(v))
    return -1;
  *out = v;
  return 0;
}

static int parse_bool(const char *s, int *out) {
  static const char *yes[] = {"yes", "on", "true", "1"}, *no[] = {"no", "off", "false", "0"};
  for (int i = 0; i < 4; i++) {
    if (!strcasecmp(s, yes[i]))
      return *out = 1, 0;
    if (!strcasecmp(s, no[i]))
      return *out = 0, 0;
  }
  return -1;
}

static int cmp_piece(const void *a, const void *b) {
  double x = ((const cfg_piece *)a)->thresh, y = ((const cfg_piece *)b)->thresh;
  return (x > y) - (x < y);
}

/* One "T:v[:w]" chunk: T a leading integer, values SimGrid times (units allowed). */
static int parse_chunk(const char *chunk, cfg_piece *p, int affine, char *err, size_t errlen) {
  char buf[256];
  snprintf(buf, sizeof buf, "%s", chunk);
  char *save = NULL, *tok = strtok_r(buf, ":", &save);
  char *end;
  if (!tok || (p->thresh = strtol(tok, &end, 10), end == tok))
    return x_err(err, errlen, "bad threshold in chunk '%s' (expected SIZE:VALUE%s)", chunk,
                 affine ? ":PER_BYTE" : "");
  double v[2] = {0, 0};
  int n = 0;
  while ((tok = strtok_r(NULL, ":", &save)) && n < 2) {
    char uerr[160];
    if (units_parse(UNITS_TIME, tok, &v[n], NULL, uerr, sizeof uerr) < 0)
      return x_err(err, errlen, "bad value '%s' in chunk '%s': %s", tok, chunk, uerr);
    n++;
  }
  if (n == 0)
    return x_err(err, errlen, "chunk '%s' has no value (expected SIZE:VALUE)", chunk);
  p->a = v[0];
  p->b = affine ? v[1] : 0;
  return 0;
}

int cfg_parse_table(cfg_table *t, const char *s, int affine, char *err, size_t errlen) {
  cfg_table nt = {NULL, 0};
  size_t cap = 0;
  char *copy = x_strdup(s), *save = NULL;
  for (char *c = strtok_r(copy, ";", &save); c; c = strtok_r(NULL, ";", &save)) {
    x_grow(&nt.v, &cap, (size_t)nt.n + 1, sizeof *nt.v);
    if (parse_chunk(c, &nt.v[nt.n], affine, err, errlen) < 0) {
      free(copy);
      free(nt.v);
      return -1;
    }
    nt.n++;
  }
  free(copy);
  if (nt.n == 0) {
    free(nt.v);
    return x_err(err, errlen, "empty table '%s'", s);
  }
  qsort(nt.v, (size_t)nt.n, sizeof *nt.v, cmp_piece);
  free(t->v);
  *t = nt;
  return 0;
}

double cfg_factor(const cfg_table *t, double size) {
  double cur = 1.0;
  for (int i = 0; i < t->n; i++) {
    if (size <= t->v[i].thresh)
      return cur;
    cur = t->v[i].a;
  }
  return cur;
}

double cfg_affine(const cfg_table *t, double size) {
  if (t->n == 0)
    return 0;
  double cur = t->v[0].a + t->v[0].b * size;
  for (int i = 0; i < t->n; i++) {
    if (size <= t->v[i].thresh)
      return cur;
    cur = t->v[i].a + t->v[i].b * size;
  }
  return cur;
}

int cfg_affine_zero(const cfg_table *t) {
  for (int i = 0; i < t->n; i++)
    if (t->v[i].a != 0 || t->v[i].b != 0)
      return 0;
  return 1;
}

/* ====== ranges ====== */

/* The values a key accepts, beyond being a finite number: every setting below has a range
 * outside which the model means nothing, or spins (surf/precision 0 and maxmin/precision
 * <= 0 never converge; a bandwidth or a CPU usage of 0 never ends a transfer or a probe's
 * poll), or gives nonsense silently (a negative time or overhead, maxmin/precision >= 1
 * reports a false deadlock). Keys not listed accept any value of their type. */
typedef struct range {
  const char *name;
  double lo, hi;  /* bounds */
  int lo_open;    /* 1: lo itself excluded */
  int hi_open;    /* 1: hi itself excluded (hi = INFINITY: none) */
  const char *what;
} range;

static const range ranges[] = {
    {"smpi/bw-factor", 0, INFINITY, 1, 1, "factors must be > 0"},
    {"smpi/lat-factor", 0, INFINITY, 0, 1, "factors must be >= 0"},
    {"smpi/os", 0, INFINITY, 0, 1, "overheads must be >= 0"},
    {"smpi/ois", 0, INFINITY, 0, 1, "overheads must be >= 0"},
    {"smpi/or", 0, INFINITY, 0, 1, "overheads must be >= 0"},
    {"network/TCP-gamma", 0, INFINITY, 0, 1, "must be >= 0"},
    {"network/weight-S", 0, INFINITY, 0, 1, "must be >= 0"},
    {"network/loopback-bw", 0, INFINITY, 1, 1, "must be > 0"},
    {"network/loopback-lat", 0, INFINITY, 0, 1, "must be >= 0"},
    {"smpi/test", 0, INFINITY, 0, 1, "must be >= 0"},
    {"smpi/iprobe", 0, INFINITY, 0, 1, "must be >= 0"},
    {"smpi/iprobe-cpu-usage", 0, INFINITY, 1, 1, "must be > 0"},
    {"smpi/init", 0, INFINITY, 0, 1, "must be >= 0"},
    {"surf/precision", 0, 1, 1, 1, "must be > 0 and < 1"},
    {"maxmin/precision", 0, 1, 1, 1, "must be > 0 and < 1"},
};

static int in_range(const range *r, double v) {
  return (r->lo_open ? v > r->lo : v >= r->lo) && (r->hi_open ? v < r->hi : v <= r->hi);
}

/* Checks the value just set for key k (a number, or every value of a table). */
static int check_range(const config *c, const key *k, const char *value, char *err, size_t errlen) {
  const range *r = NULL;
  for (size_t i = 0; i < sizeof ranges / sizeof ranges[0]; i++)
    if (!strcmp(ranges[i].name, k->name))
      r = &ranges[i];
  if (!r)
    return 0;
  const void *f = (const char *)c + k->off;
  int ok = 1;
  if (k->type == K_FACTOR || k->type == K_AFFINE) {
    const cfg_table *t = f;
    for (int i = 0; i < t->n; i++)
      ok &= in_range(r, t->v[i].a) && (k->type == K_FACTOR || in_range(r, t->v[i].b));
  } else
    ok = in_range(r, *(const double *)f);
  return ok ? 0 : x_err(err, errlen, "%s: '%s': %s", k->name, value, r->what);
}

/* ====== setting ====== */

static int parse_value(config *c, const key *k, const char *value, char *err, size_t errlen) {
  void *f = (char *)c + k->off;
  char uerr[200];
  switch (k->type) {
  case K_DOUBLE:
    if (parse_double(value, f) < 0)
      return x_err(err, errlen, "%s: '%s' is not a number", k->name, value);
    if (!strcmp(k->name, "tir/rate-tolerance") && !(*(double *)f >= 0 && *(double *)f < 1))
      return x_err(err, errlen, "%s: '%s' is not in [0, 1)", k->name, value);
    return 0;
  case K_TIME:
  case K_BW:
    if (units_parse(k->type == K_TIME ? UNITS_TIME : UNITS_BANDWIDTH, value, f, NULL, uerr, sizeof uerr) < 0)
      return x_err(err, errlen, "%s: %s", k->name, uerr);
    return 0;
  case K_LONG: {
    char *end;
    errno = 0;
    long v = strtol(value, &end, 10);
    if (end == value || *end)
      return x_err(err, errlen, "%s: '%s' is not an integer", k->name, value);
    if (errno == ERANGE)
      return x_err(err, errlen, "%s: '%s' is out of range", k->name, value);
    if (v < 0 && strcmp(k->name, "host/pstate")) /* the byte thresholds */
      return x_err(err, errlen, "%s: '%s' is negative (bytes)", k->name, value);
    *(long *)f = v;
    return 0;
  }
  case K_BOOL:
    if (parse_bool(value, f) < 0)
      return x_err(err, errlen, "%s: '%s' is not a boolean (yes/no)", k->name, value);
    return 0;
  case K_FACTOR:
  case K_AFFINE:
    if (cfg_parse_table(f, value, k->type == K_AFFINE, uerr, sizeof uerr) < 0)
      return x_err(err, errlen, "%s: %s", k->name, uerr);
    return 0;
  default:
    return 0;
  }
}

/* Sets key k. A refused value may stay set: the caller stops on the error. */
static int set_known(config *c, const key *k, const char *value, char *err, size_t errlen) {
  if (parse_value(c, k, value, err, errlen) < 0)
    return -1;
  return check_range(c, k, value, err, errlen);
}

static int set_string(config *c, const key *k, const char *value, char *err, size_t errlen) {
  if (!strcmp(k->name, "plugin")) {
    if (!strcmp(value, "host_energy") || !strcmp(value, "host_energy,"))
      c->host_energy = 1;
    else if (*value)
      return x_err(err, errlen, "plugin: unknown plugin '%s' (known: host_energy)", value);
    return 0;
  }
  if (!strcmp(k->name, "network/model"))
    return strcmp(value, "SMPI") ? x_err(err, errlen,
                                          "network/model: only SMPI is supported here; use "
                                          "--network-model hybrid|loggps|fluid")
                                 : 0;
  if (!strcmp(k->name, "tir/polling")) {
    if (strcmp(value, "wait") && strcmp(value, "simgrid"))
      return x_err(err, errlen, "tir/polling: '%s' is not wait or simgrid", value);
    c->polling_simgrid = !strcmp(value, "simgrid");
    return 0;
  }
  if (!strcmp(k->name, "tir/local-solve")) {
    if (!strcmp(value, "auto"))
      c->local_solve = 2;
    else if (!strcmp(value, "class"))
      c->local_solve = 3;
    else if (parse_bool(value, &c->local_solve) < 0)
      return x_err(err, errlen, "tir/local-solve: '%s' is not yes, no, class or auto", value);
    return 0;
  }
  /* cpu/model */
  return strcmp(value, "Cas01") ? x_err(err, errlen, "cpu/model: only Cas01 is supported") : 0;
}

/* ====== keys owned by other modules ====== */

/* The modules that own a family of keys (the collectives: smpi/coll-selector and
 * smpi/<collective>), in registration order; registering one twice is a no-op. */
static const cfg_owner *owners[8];
static int nowners;

void cfg_add_owner(const cfg_owner *o) {
  for (int i = 0; i < nowners; i++)
    if (owners[i] == o)
      return;
  if (nowners == (int)(sizeof owners / sizeof owners[0])) {
    fprintf(stderr, "tir: internal error: too many configuration key owners\n");
    abort();
  }
  owners[nowners++] = o;
}

static void list_keys(char *buf, size_t len) {
  size_t used = 0;
  buf[0] = 0;
  for (size_t i = 0; i < NKEYS && used + 40 < len; i++)
    used += (size_t)snprintf(buf + used, len - used, "%s%s", i ? ", " : "", keys[i].name);
  for (int i = 0; i < nowners && used + 80 < len; i++)
    used += (size_t)snprintf(buf + used, len - used, ", %s", owners[i]->keys);
}

int cfg_set(config *c, const char *name, const char *value, char *err, size_t errlen) {
  const key *k = find_key(name);
  if (k) {
    if (k->type == K_IGNORED)
      return 0;
    if (k->type == K_STRING)
      return set_string(c, k, value, err, errlen);
    int rc = set_known(c, k, value, err, errlen);
    if (rc == 0 && k->off == OFF(simgrid_compat) && c->simgrid_compat) {
      c->simgrid_marking = 1; /* the compat mode takes SimGrid's marking and tie order, */
      c->polling_simgrid = 1; /* and charges every poll as SMPI does */
    }
    return rc;
  }
  for (int i = 0; i < nowners; i++) {
    int r = owners[i]->set(c, name, value, err, errlen);
    if (r != 0)
      return r < 0 ? -1 : 0;
  }
  char list[2048];
  list_keys(list, sizeof list);
  return x_err(err, errlen, "unknown configuration key '%s' (known keys: %s)", name, list);
}

int cfg_set_kv(config *c, const char *kv, char *err, size_t errlen) {
  const char *colon = strchr(kv, ':');
  if (!colon || colon == kv)
    return x_err(err, errlen, "bad setting '%s' (expected KEY:VALUE)", kv);
  char name[128];
  size_t n = (size_t)(colon - kv);
  if (n >= sizeof name)
    return x_err(err, errlen, "bad setting '%s' (key too long)", kv);
  memcpy(name, kv, n);
  name[n] = 0;
  return cfg_set(c, name, colon + 1, err, errlen);
}

void cfg_init(config *c) {
  memset(c, 0, sizeof *c);
  char err[256];
  for (size_t i = 0; i < NKEYS; i++) {
    if (keys[i].type == K_IGNORED || keys[i].type == K_STRING || !strcmp(keys[i].name, "smpi/barrier-finalization"))
      continue;
    if (set_known(c, &keys[i], keys[i].def, err, sizeof err) < 0) {
      fprintf(stderr, "tir: internal error in default of %s: %s\n", keys[i].name, err);
      abort();
    }
  }
  snprintf(c->coll_selector, sizeof c->coll_selector, "default");
  c->local_solve = 2; /* tir/local-solve:auto */
}

void cfg_free(config *c) {
  free(c->bw_factor.v);
  free(c->lat_factor.v);
  free(c->os.v);
  free(c->ois.v);
  free(c->orecv.v);
  memset(c, 0, sizeof *c);
}

void cfg_print_keys(FILE *out) {
  for (size_t i = 0; i < NKEYS; i++)
    fprintf(out, "  %-30s %s (default: %s)\n", keys[i].name, keys[i].help,
            *keys[i].def ? keys[i].def : "none");
  for (int i = 0; i < nowners; i++)
    owners[i]->help(out);
}

void cfg_print(const config *c, FILE *out) {
  fprintf(out, "coll-selector=%s crosstraffic=%s detached-thresh=%ld TCP-gamma=%g weight-S=%g\n",
          c->coll_selector, c->crosstraffic ? "yes" : "no", c->detached_thresh, c->tcp_gamma,
          c->weight_s);
}
