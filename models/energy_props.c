/* energy_props.c - a host's power profile, read from its <prop> elements.
 *
 * SimGrid's properties, read as src/plugins/host_energy.cpp reads them:
 *   wattage_per_state  "Idle:Epsilon:AllCores, ..." one entry per pstate (comma list, the
 *                      count must equal the host's pstates); "Idle:AllCores" means
 *                      Epsilon = Idle;
 *   wattage_off        watts when the host is off (default 0).
 * tir's extensions (ignored by SimGrid, so a platform using them still loads there):
 *   wattage_polling    "W0, W1, ..." all-cores wattage while every core polls inside MPI,
 *                      one per pstate;
 *   wattage_region:NAME "W0, W1, ..." all-cores wattage while every core computes in code
 *                      region NAME, one per pstate (regions without one use AllCores).
 * Every entry is validated (all pstates, not only the active one): a malformed platform
 * is reported at start, never half-used. Watts must be finite and >= 0. */
#include "energy_impl.h"

#include "xalloc.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define REGION_PREFIX "wattage_region:"

/* Parses the whole of s[0..n) (blanks around allowed) as watts. Returns 0 or -1. */
static int parse_watts(const char *s, size_t n, double *out) {
  char buf[64];
  while (n > 0 && isspace((unsigned char)*s))
    s++, n--;
  while (n > 0 && isspace((unsigned char)s[n - 1]))
    n--;
  if (n == 0 || n >= sizeof buf)
    return -1;
  memcpy(buf, s, n);
  buf[n] = '\0';
  char *end;
  double v = strtod(buf, &end);
  if (*end != '\0' || !isfinite(v) || v < 0)
    return -1;
  *out = v;
  return 0;
}

/* Number of fields of s separated by sep. */
static int count_fields(const char *s, char sep) {
  int n = 1;
  for (; *s; s++)
    n += *s == sep;
  return n;
}

/* Field k (0-based) of s separated by sep: start and length. */
static const char *field(const char *s, char sep, int k, size_t *len) {
  for (; k > 0; k--)
    s = strchr(s, sep) + 1;
  const char *e = strchr(s, sep);
  *len = e ? (size_t)(e - s) : strlen(s);
  return s;
}

typedef struct prop_ctx {
  const platform *p;
  const plat_host *ph;
  char *err;
  size_t errlen;
} prop_ctx;

static int bad(const prop_ctx *c, const char *key, const char *value, const char *expected) {
  return x_err(c->err, c->errlen, "%s: host %s: property %s=\"%s\": %s", plat_source(c->p), c->ph->name, key,
               value, expected);
}

/* One "Idle:Epsilon:AllCores" or "Idle:AllCores" entry into v[0..3). */
static int parse_triple(const char *s, size_t n, double v[3]) {
  char buf[256];
  if (n >= sizeof buf)
    return -1;
  memcpy(buf, s, n);
  buf[n] = '\0';
  int k = count_fields(buf, ':');
  if (k != 2 && k != 3)
    return -1;
  for (int i = 0; i < k; i++) {
    size_t len;
    const char *f = field(buf, ':', i, &len);
    if (parse_watts(f, len, &v[k == 2 && i == 1 ? 2 : i]) < 0)
      return -1;
  }
  if (k == 2)
    v[1] = v[0];
  return 0;
}

static int read_per_state(const prop_ctx *c, const char *value, int ps, en_profile *pr) {
  int n = count_fields(value, ',');
  if (n != c->ph->npstates) {
    char what[128];
    snprintf(what, sizeof what, "%d entries for %d pstate%s (expected one Idle:Epsilon:AllCores per pstate)", n,
             c->ph->npstates, c->ph->npstates > 1 ? "s" : "");
    return bad(c, "wattage_per_state", value, what);
  }
  for (int k = 0; k < n; k++) {
    size_t len;
    const char *f = field(value, ',', k, &len);
    double v[3];
    if (parse_triple(f, len, v) < 0) {
      char what[128];
      snprintf(what, sizeof what, "entry %d: expected Idle:Epsilon:AllCores or Idle:AllCores (watts >= 0)", k + 1);
      return bad(c, "wattage_per_state", value, what);
    }
    if (k == ps)
      pr->idle = v[0], pr->eps = v[1], pr->max = v[2];
  }
  pr->has = 1;
  return 0;
}

/* A list of one wattage per pstate; the active pstate's into *out. */
static int read_list(const prop_ctx *c, const char *key, const char *value, int ps, double *out) {
  int n = count_fields(value, ',');
  int ok = n == c->ph->npstates;
  for (int k = 0; ok && k < n; k++) {
    size_t len;
    const char *f = field(value, ',', k, &len);
    double v;
    ok = parse_watts(f, len, &v) == 0;
    if (ok && k == ps)
      *out = v;
  }
  if (ok)
    return 0;
  char what[128];
  snprintf(what, sizeof what, "expected %d wattage%s (watts >= 0, comma-separated), one per pstate",
           c->ph->npstates, c->ph->npstates > 1 ? "s" : "");
  return bad(c, key, value, what);
}

static int read_region(const prop_ctx *c, const plat_prop *pp, int ps, en_profile *pr) {
  const char *name = pp->key + strlen(REGION_PREFIX);
  if (!*name)
    return bad(c, pp->key, pp->value, "expected a region name after 'wattage_region:'");
  double w = 0;
  if (read_list(c, pp->key, pp->value, ps, &w) < 0)
    return -1;
  pr->reg_name = x_realloc(pr->reg_name, (size_t)(pr->nreg + 1) * sizeof *pr->reg_name);
  pr->reg_watt = x_realloc(pr->reg_watt, (size_t)(pr->nreg + 1) * sizeof *pr->reg_watt);
  pr->reg_name[pr->nreg] = x_strdup(name);
  pr->reg_watt[pr->nreg++] = w;
  return 0;
}

static int read_one(const prop_ctx *c, const plat_prop *pp, int ps, en_profile *pr) {
  if (!strcmp(pp->key, "wattage_per_state"))
    return read_per_state(c, pp->value, ps, pr);
  if (!strcmp(pp->key, "wattage_off")) {
    if (parse_watts(pp->value, strlen(pp->value), &pr->off) < 0)
      return bad(c, pp->key, pp->value, "expected watts (a number >= 0)");
    return 0;
  }
  if (!strcmp(pp->key, "wattage_polling"))
    return read_list(c, pp->key, pp->value, ps, &pr->poll);
  if (!strncmp(pp->key, REGION_PREFIX, strlen(REGION_PREFIX)))
    return read_region(c, pp, ps, pr);
  return 0;
}

int en_profile_read(const platform *p, int h, int ps, en_profile *pr, char *err, size_t errlen) {
  const plat_host *ph = plat_host_at(p, h);
  prop_ctx c = {p, ph, err, errlen};
  memset(pr, 0, sizeof *pr);
  pr->poll = -1;
  for (int i = 0; i < ph->nprops; i++)
    if (read_one(&c, &ph->props[i], ps, pr) < 0) {
      en_profile_free(pr);
      return -1;
    }
  return pr->has ? 0 : 1;
}

void en_profile_free(en_profile *pr) {
  for (int i = 0; i < pr->nreg; i++)
    free(pr->reg_name[i]);
  free(pr->reg_name);
  free(pr->reg_watt);
  pr->reg_name = NULL;
  pr->reg_watt = NULL;
  pr->nreg = 0;
}

double en_profile_region(const en_profile *pr, const char *name) {
  for (int i = 0; name && i < pr->nreg; i++)
    if (!strcmp(pr->reg_name[i], name))
      return pr->reg_watt[i];
  return pr->max;
}
