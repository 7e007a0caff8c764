/* units.h - SimGrid's value-with-unit parser (speeds, bandwidths, latencies/times).
 *
 * Follows src/xbt/xbt_parse_units.cpp of SimGrid 3.32:
 *  - speed: f/flops with decimal prefixes (k, M, G, T, P, E, Z, Y; SimGrid 3.32 refuses
 *    binary ones for speeds, and so does tir): "1Gf" = 1e9, "98.095Mf" = 98.095e6 flop/s;
 *  - bandwidth: Bps (bytes/s) or bps (bits/s = 1/8 Bps), decimal or binary prefixes:
 *    "125MBps" = 125e6 B/s, "1Gbps" = 125e6 B/s, "1MiBps" = 1048576 B/s;
 *  - time: s, ms, us, ns, ps, m, h, d, w: "50us" = 5e-5 s.
 * A value without unit is accepted in the default unit (f, Bps, s), as SimGrid does
 * (SimGrid warns; tir too, through the warn flag). */
#ifndef TIR_UNITS_H
#define TIR_UNITS_H

#include <stddef.h>

typedef enum { UNITS_SPEED, UNITS_BANDWIDTH, UNITS_TIME } units_kind;

/* Parses s as a value of the given kind into *out (flop/s, B/s or s).
 * Returns 0, or -1 with a message in err (e.g. "unknown unit 'MHz' in speed '2MHz'
 * (expected f, kf, Mf, Gf, ... or flops)"); *out untouched on error.
 * *unitless (if not NULL) is set to 1 when s carried no unit. */
int units_parse(units_kind kind, const char *s, double *out, int *unitless, char *err,
                size_t errlen);

#endif
