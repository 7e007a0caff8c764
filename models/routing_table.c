/* routing_table.c - routes stored as declared, keyed by (src, dst): Full, Floyd, Dijkstra.
 *
 * A stored route is the link list of one <route>/<zoneRoute> (or of its generated
 * reverse: the hops backwards, each split-duplex link on its other side, which is
 * SimGrid's get_link_list_impl(..., backroute=true) reversed) and its gateways. The
 * (src, dst) -> route map is a hash map, so a lookup is O(1) and memory is
 * O(declared routes), never N x N. plat_rtable_check_decl() holds the checks SimGrid's
 * RoutedZone applies to every declared route. */
#include <stdlib.h>
#include <string.h>

#include "platform_impl.h"
#include "xalloc.h"

int plat_rtable_add(route_table *t, int src, int dst, int gw_src, int gw_dst, const plat_hop *hops,
                    int nhops, int reverse) {
  if (plat_u64map_get(&t->by_pair, np_pair(src, dst)) >= 0)
    return -1;
  x_grow(&t->routes, &t->cap, (size_t)t->n + 1, sizeof *t->routes);
  stored_route *s = &t->routes[t->n];
  s->links = x_malloc((size_t)(nhops ? nhops : 1) * sizeof *s->links);
  for (int i = 0; i < nhops; i++)
    s->links[i] = reverse ? hops[nhops - 1 - i].back : hops[i].fwd;
  s->n = nhops;
  s->gw_src = gw_src;
  s->gw_dst = gw_dst;
  plat_u64map_put(&t->by_pair, np_pair(src, dst), t->n);
  return t->n++;
}

const stored_route *plat_rtable_get(const route_table *t, int src, int dst) {
  int i = plat_u64map_get(&t->by_pair, np_pair(src, dst));
  return i >= 0 ? &t->routes[i] : NULL;
}

void plat_rtable_free(route_table *t) {
  for (int i = 0; i < t->n; i++)
    free(t->routes[i].links);
  free(t->routes);
  plat_u64map_free(&t->by_pair);
  memset(t, 0, sizeof *t);
}

static int check_plain(const platform *p, const plat_route_decl *d, char *err, size_t errlen) {
  const char *s = p->nps[d->src].name, *t = p->nps[d->dst].name;
  if (d->nhops == 0)
    return x_err(err, errlen, "empty route (between %s and %s) forbidden", s, t);
  if (p->nps[d->src].kind == NP_ZONE || p->nps[d->dst].kind == NP_ZONE)
    return x_err(err, errlen,
                 "a <route> connects hosts or routers, but '%s' is a zone (did you "
                 "mean a <zoneRoute>?)",
                 p->nps[d->src].kind == NP_ZONE ? s : t);
  return 0;
}

static int check_gateway(const platform *p, int zone_np, int gw, const char *which, char *err,
                         size_t errlen) {
  if (p->nps[gw].kind == NP_ZONE)
    return x_err(err, errlen, "%s '%s' must be a host or a router, not a zone", which,
                 p->nps[gw].name);
  if (!plat_np_in_zone(p, gw, p->nps[zone_np].ref))
    return x_err(err, errlen, "%s '%s' is not inside zone '%s'", which, p->nps[gw].name,
                 p->nps[zone_np].name);
  return 0;
}

static int check_zone_route(const platform *p, const plat_route_decl *d, char *err, size_t errlen) {
  const char *s = p->nps[d->src].name, *t = p->nps[d->dst].name;
  if (p->nps[d->src].kind != NP_ZONE || p->nps[d->dst].kind != NP_ZONE)
    return x_err(err, errlen,
                 "a <zoneRoute> connects zones, but '%s' is not a zone (did you "
                 "mean a <route>?)",
                 p->nps[d->src].kind != NP_ZONE ? s : t);
  if (d->gw_src == d->gw_dst)
    return x_err(err, errlen, "cannot define a zoneRoute from '%s' to itself",
                 p->nps[d->gw_src].name);
  if (d->nhops == 0)
    return x_err(err, errlen, "empty zoneRoute (between %s and %s) forbidden", s, t);
  if (check_gateway(p, d->src, d->gw_src, "gw_src", err, errlen) != 0)
    return -1;
  return check_gateway(p, d->dst, d->gw_dst, "gw_dst", err, errlen);
}

int plat_rtable_check_decl(const platform *p, const plat_zone *z, const plat_route_decl *d,
                           char *err, size_t errlen) {
  int zi = p->nps[z->np].ref;
  for (int k = 0; k < 2; k++) {
    int np = k ? d->dst : d->src;
    if (p->nps[np].zone != zi)
      return x_err(err, errlen,
                   "route %s '%s' is not directly in zone '%s' (a route joins "
                   "members of the zone where it is declared)",
                   k ? "dst" : "src", p->nps[np].name, z->name);
  }
  if (d->gw_src < 0 || d->gw_dst < 0)
    return check_plain(p, d, err, errlen);
  return check_zone_route(p, d, err, errlen);
}
