/* units.c - SimGrid's value-with-unit parser: speeds, bandwidths and times.
 *
 * A value is a C number (strtod) immediately followed by a unit; the unit is a prefix
 * and a base unit, and its scale is computed exactly as src/xbt/xbt_parse_units.cpp of
 * SimGrid 3.32 computes it: the base value multiplied by 1000 (or 1024) once per prefix
 * rank, so "1Gbps" is 0.125 * 1000 * 1000 * 1000 bit for bit. The accepted units are
 * SimGrid's and no others:
 *   speed      f and flops, decimal prefixes only: kf..Yf, kiloflops..yottaflops;
 *   bandwidth  Bps and bps, decimal (k, M, G, T, P, E, Z, Y) or binary (Ki .. Yi);
 *   time       w d h m s ms us ns ps, no prefixes.
 * A value without unit is taken in the default unit (f, Bps, s) and reported through
 * *unitless (SimGrid warns unless the value is 0). Values that are not finite (inf,
 * nan) are refused, where SimGrid would accept them. */
#include "units.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "xalloc.h"

static const char *const dec_short[] = {"k", "M", "G", "T", "P", "E", "Z", "Y"};
static const char *const bin_short[] = {"Ki", "Mi", "Gi", "Ti", "Pi", "Ei", "Zi", "Yi"};
static const char *const dec_long[] = {"kilo", "mega", "giga", "tera",
                                       "peta", "exa",  "zeta", "yotta"};
#define NPREFIX 8

/* Scale of prefix+base when prefix (of length plen, at the start of unit) is one of
 * list: base * mult^(rank+1), computed by repeated multiplication as SimGrid does.
 * Returns 0 and sets *scale, or -1 when the prefix is not in the list. */
static int prefix_scale(const char *unit, size_t plen, const char *const *list, double mult,
                        double base, double *scale) {
  double value = base;
  for (int i = 0; i < NPREFIX; i++) {
    value *= mult;
    if (strlen(list[i]) == plen && strncmp(unit, list[i], plen) == 0) {
      *scale = value;
      return 0;
    }
  }
  return -1;
}

/* If unit ends with base_name, the length of what precedes it; else -1. */
static long prefix_len(const char *unit, const char *base_name) {
  size_t n = strlen(unit), b = strlen(base_name);
  if (n < b || strcmp(unit + n - b, base_name) != 0)
    return -1;
  return (long)(n - b);
}

static int speed_scale(const char *unit, double *scale) {
  long p = prefix_len(unit, "flops");
  if (p == 0 || (p < 0 && strcmp(unit, "f") == 0)) {
    *scale = 1.0;
    return 0;
  }
  if (p > 0 && prefix_scale(unit, (size_t)p, dec_long, 1000.0, 1.0, scale) == 0)
    return 0;
  p = prefix_len(unit, "f");
  if (p > 0 && prefix_scale(unit, (size_t)p, dec_short, 1000.0, 1.0, scale) == 0)
    return 0;
  return -1;
}

static int bandwidth_scale(const char *unit, double *scale) {
  double base = 1.0;
  long p = prefix_len(unit, "Bps");
  if (p < 0) {
    base = 0.125;
    p = prefix_len(unit, "bps");
  }
  if (p < 0)
    return -1;
  if (p == 0) {
    *scale = base;
    return 0;
  }
  if (prefix_scale(unit, (size_t)p, bin_short, 1024.0, base, scale) == 0)
    return 0;
  return prefix_scale(unit, (size_t)p, dec_short, 1000.0, base, scale);
}

static int time_scale(const char *unit, double *scale) {
  static const struct {
    const char *name;
    double scale;
  } units[] = {{"w", 7 * 24 * 60 * 60},
               {"d", 24 * 60 * 60},
               {"h", 60 * 60},
               {"m", 60},
               {"s", 1.0},
               {"ms", 1e-3},
               {"us", 1e-6},
               {"ns", 1e-9},
               {"ps", 1e-12}};
  for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
    if (strcmp(unit, units[i].name) == 0) {
      *scale = units[i].scale;
      return 0;
    }
  return -1;
}

static const char *kind_name(units_kind kind) {
  return kind == UNITS_SPEED ? "speed" : kind == UNITS_BANDWIDTH ? "bandwidth" : "time";
}

static const char *kind_expected(units_kind kind) {
  switch (kind) {
  case UNITS_SPEED:
    return "f, kf, Mf, Gf, ... or flops, kiloflops, ...";
  case UNITS_BANDWIDTH:
    return "Bps, kBps, MBps, GBps, ..., KiBps, MiBps, ... or the same in bits: bps, Mbps, ...";
  default:
    return "s, ms, us, ns, ps, m, h, d or w";
  }
}

int units_parse(units_kind kind, const char *s, double *out, int *unitless, char *err,
                size_t errlen) {
  char *end;
  errno = 0;
  double v = strtod(s, &end);
  if (end == s)
    return x_err(err, errlen, "cannot parse the number in %s '%s' (expected e.g. %s)",
                 kind_name(kind), s,
                 kind == UNITS_SPEED       ? "1Gf"
                 : kind == UNITS_BANDWIDTH ? "125MBps"
                                           : "50us");
  if (errno == ERANGE || !isfinite(v))
    return x_err(err, errlen, "value out of range in %s '%s'", kind_name(kind), s);
  const char *unit = *end ? end : kind == UNITS_SPEED ? "f" : kind == UNITS_BANDWIDTH ? "Bps" : "s";
  double scale = 0;
  int rc = kind == UNITS_SPEED       ? speed_scale(unit, &scale)
           : kind == UNITS_BANDWIDTH ? bandwidth_scale(unit, &scale)
                                     : time_scale(unit, &scale);
  if (rc != 0)
    return x_err(err, errlen, "unknown unit '%s' in %s '%s' (expected %s)", unit, kind_name(kind),
                 s, kind_expected(kind));
  if (unitless)
    *unitless = *end == '\0';
  *out = v * scale;
  return 0;
}
