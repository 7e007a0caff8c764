/* routing_full.c - <zone routing="Full">: every route declared, looked up by (src, dst).
 *
 * As SimGrid's FullZone: a symmetrical route src != dst also stores the reverse (hops
 * backwards, split-duplex sides swapped, gateways swapped); declaring a pair twice is an
 * error. In a leaf zone, a vertex without a declared self-route uses the model loopback
 * "__loopback__" (FullZone::do_seal). Lookup is one hash probe plus the copy.
 * Difference: SimGrid silently returns an empty local route for an undeclared pair
 * (which, in a nested route, just drops that segment); tir reports it. */
#include <stdlib.h>

#include "platform_impl.h"
#include "xalloc.h"

typedef struct full_impl {
  route_table table; /* declared routes and generated reverses */
  int loopback;      /* model loopback link for undeclared self-routes, -1 if none */
} full_impl;

static full_impl *impl_of(plat_zone *z) {
  if (!z->impl) {
    full_impl *f = x_calloc(1, sizeof *f);
    f->loopback = -1;
    z->impl = f;
  }
  return z->impl;
}

static int dup_error(const platform *p, int a, int b, int gw_a, int gw_b, int reverse, char *err,
                     size_t errlen) {
  const char *hint = reverse ? "you should not declare the reverse path as symmetrical"
                             : "routes are symmetrical by default";
  if (gw_a >= 0)
    return x_err(err, errlen, "the route between %s@%s and %s@%s already exists (%s)",
                 p->nps[a].name, p->nps[gw_a].name, p->nps[b].name, p->nps[gw_b].name, hint);
  return x_err(err, errlen, "the route between %s and %s already exists (%s)", p->nps[a].name,
               p->nps[b].name, hint);
}

static int full_add_route(platform *p, plat_zone *z, const plat_route_decl *d, char *err,
                          size_t errlen) {
  if (plat_rtable_check_decl(p, z, d, err, errlen) != 0)
    return -1;
  full_impl *f = impl_of(z);
  if (plat_rtable_add(&f->table, d->src, d->dst, d->gw_src, d->gw_dst, d->hops, d->nhops, 0) < 0)
    return dup_error(p, d->src, d->dst, d->gw_src, d->gw_dst, 0, err, errlen);
  if (d->symmetrical && d->src != d->dst &&
      plat_rtable_add(&f->table, d->dst, d->src, d->gw_dst, d->gw_src, d->hops, d->nhops, 1) < 0)
    return dup_error(p, d->dst, d->src, d->gw_dst, d->gw_src, 1, err, errlen);
  return 0;
}

static int full_seal(platform *p, plat_zone *z, char *err, size_t errlen) {
  (void)err;
  (void)errlen;
  full_impl *f = impl_of(z);
  if (z->nchildren == 0 && z->nvert > 0)
    f->loopback = plat_get_model_loopback(p);
  return 0;
}

static int full_local_route(const platform *p, const plat_zone *z, int src, int dst, plat_route *r,
                            size_t base, int gw[2], char *err, size_t errlen) {
  (void)base;
  const full_impl *f = z->impl;
  const stored_route *s = plat_rtable_get(&f->table, src, dst);
  if (s) {
    gw[0] = s->gw_src;
    gw[1] = s->gw_dst;
    plat_route_append(p, r, s->links, s->n);
    return 0;
  }
  if (src == dst && f->loopback >= 0) {
    plat_route_push(p, r, f->loopback);
    return 0;
  }
  return x_err(err, errlen,
               "no route from '%s' to '%s' in zone '%s' (routing Full: every pair "
               "must be declared by a <%s>)",
               p->nps[src].name, p->nps[dst].name, z->name, z->nchildren ? "zoneRoute" : "route");
}

static void full_free(void *impl) {
  full_impl *f = impl;
  if (f)
    plat_rtable_free(&f->table);
  free(f);
}

const zone_ops plat_zone_full_ops = {"Full", full_add_route, full_seal, full_local_route,
                                     full_free};
