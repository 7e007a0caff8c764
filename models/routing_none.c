/* routing_none.c - <zone routing="None">: a zone without routes (SimGrid's EmptyZone).
 *
 * It may hold hosts, but nothing can be routed inside it: SimGrid dies with "There can't
 * be route in an Empty zone", tir reports the same as an error. Routes through it from
 * the outside (as a sub-zone with gateways) are the parent's business. */
#include "platform_impl.h"
#include "xalloc.h"

static int none_local_route(const platform *p, const plat_zone *z, int src, int dst, plat_route *r,
                            size_t base, int gw[2], char *err, size_t errlen) {
  (void)base;
  (void)r;
  (void)gw;
  return x_err(err, errlen, "no route from '%s' to '%s': zone '%s' has routing None",
               p->nps[src].name, p->nps[dst].name, z->name);
}

const zone_ops plat_zone_none_ops = {"None", NULL, NULL, none_local_route, NULL};
