/* platform_default.c - the built-in platform used when no platform file is given.
 *
 * A flat cluster "tir-default" of n hosts "node-0" .. "node-<n-1>" built through the
 * same code as <cluster>: 1 core at 1 Gf, private SPLITDUPLEX links of 125 MBps and
 * 50 us, a SHARED backbone of 2.25 GBps and 500 us, a per-node loopback of 10 GBps and
 * 0 s. The equivalent XML (which SimGrid loads to the same routes) is
 *   <cluster id="tir-default" prefix="node-" suffix="" radical="0-<n-1>" speed="1Gf"
 *            bw="125MBps" lat="50us" bb_bw="2.25GBps" bb_lat="500us"
 *            loopback_bw="10GBps" loopback_lat="0s"/> */
#include <stdlib.h>

#include "platform_impl.h"
#include "units.h"
#include "xalloc.h"

/* The value of an XML attribute, so that the numbers are bit-identical to the XML's. */
static double unit(units_kind kind, const char *s) {
  double v = 0;
  units_parse(kind, s, &v, NULL, NULL, 0);
  return v;
}

platform *plat_default_cluster(int n) {
  if (n < 1)
    return NULL;
  int *radicals = x_malloc((size_t)n * sizeof *radicals);
  for (int i = 0; i < n; i++)
    radicals[i] = i;
  double speed = unit(UNITS_SPEED, "1Gf");
  plat_cluster c = {.id = "tir-default",
                    .prefix = "node-",
                    .suffix = "",
                    .router_id = "",
                    .radicals = radicals,
                    .nradicals = n,
                    .speeds = &speed,
                    .nspeeds = 1,
                    .cores = 1,
                    .bw = unit(UNITS_BANDWIDTH, "125MBps"),
                    .lat = unit(UNITS_TIME, "50us"),
                    .split = 1,
                    .policy = PLAT_SHARED,
                    .bb_bw = unit(UNITS_BANDWIDTH, "2.25GBps"),
                    .bb_lat = unit(UNITS_TIME, "500us"),
                    .bb_policy = PLAT_SHARED,
                    .loopback_bw = unit(UNITS_BANDWIDTH, "10GBps"),
                    .loopback_lat = 0.0,
                    .topology = TOPO_FLAT,
                    .topo_parameters = ""};
  platform *p = plat_new("<built-in>");
  char err[256];
  if (plat_cluster_build(p, -1, &c, err, sizeof err) < 0 || plat_seal(p, err, sizeof err) != 0) {
    plat_free(p); /* cannot happen: the names are unique and the values valid */
    p = NULL;
  }
  free(radicals);
  return p;
}
