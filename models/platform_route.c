/* platform_route.c - host-to-host routes across nested zones (SimGrid's get_global_route).
 *
 * When both ends lie in the same zone, that zone's local_route is the answer. Otherwise
 * let C be their lowest common zone and A, B the children of C on the way to src and
 * dst: the route is  route(src -> gw_src) + local_route_C(A, B) + route(gw_dst -> dst),
 * where gw_src, gw_dst are the gateways C's routing gives for A -> B, and the two outer
 * parts are computed the same way, recursively (a gateway equal to the end is skipped).
 * SimGrid computes the middle part first and adds its latency first; tir does the same
 * (so the latency sum is bit-identical) and then rotates the links in place into route
 * order. Cost: O(route length + zone depth), no allocation once r is large enough. */
#include <stdlib.h>

#include "platform_impl.h"
#include "xalloc.h"

void route_push(const platform *p, plat_route *r, int link) {
  x_grow(&r->links, &r->cap, r->n + 1, sizeof *r->links);
  r->links[r->n++] = link;
  r->latency += p->links[link].latency;
}

void route_append(const platform *p, plat_route *r, const int *links, int n) {
  x_grow(&r->links, &r->cap, r->n + (size_t)n, sizeof *r->links);
  for (int i = 0; i < n; i++) {
    r->links[r->n++] = links[i];
    r->latency += p->links[links[i]].latency;
  }
}

static void reverse(int *a, size_t from, size_t to) {
  while (from + 1 < to) {
    int t = a[from];
    a[from++] = a[--to];
    a[to] = t;
  }
}

/* Moves r->links[mid..n) in front of r->links[start..mid). */
static void rotate(plat_route *r, size_t start, size_t mid) {
  reverse(r->links, start, mid);
  reverse(r->links, mid, r->n);
  reverse(r->links, start, r->n);
}

/* The children of the lowest common zone of za != zb on the way to za and zb. */
static int split_zones(const platform *p, int za, int zb, int *ca, int *cb) {
  int a = za, b = zb;
  *ca = *cb = -1;
  while (p->zones[a]->depth > p->zones[b]->depth) {
    *ca = a;
    a = p->zones[a]->parent;
  }
  while (p->zones[b]->depth > p->zones[a]->depth) {
    *cb = b;
    b = p->zones[b]->parent;
  }
  while (a != b) {
    *ca = a;
    a = p->zones[a]->parent;
    *cb = b;
    b = p->zones[b]->parent;
  }
  return a;
}

static int local(const platform *p, int z, int src, int dst, plat_route *r, int gw[2], char *err,
                 size_t errlen) {
  gw[0] = gw[1] = -1;
  return p->zones[z]->ops->local_route(p, p->zones[z], src, dst, r, gw, err, errlen);
}

int plat_route_np(const platform *p, int src, int dst, plat_route *r, char *err, size_t errlen) {
  int zs = p->nps[src].zone, zd = p->nps[dst].zone, gw[2], ca, cb;
  if (zs == zd)
    return local(p, zs, src, dst, r, gw, err, errlen);
  int common = split_zones(p, zs, zd, &ca, &cb);
  if (ca < 0 || cb < 0)
    return x_err(err, errlen, "cannot route from '%s' to '%s': one's zone contains the other's",
                 p->nps[src].name, p->nps[dst].name);
  size_t start = r->n;
  if (local(p, common, p->zones[ca]->np, p->zones[cb]->np, r, gw, err, errlen) != 0)
    return -1;
  if (gw[0] < 0 || gw[1] < 0)
    return x_err(err, errlen, "no gateways from zone '%s' to zone '%s' in zone '%s' (route from "
                              "'%s' to '%s')", p->zones[ca]->name, p->zones[cb]->name,
                 p->zones[common]->name, p->nps[src].name, p->nps[dst].name);
  size_t mid = r->n;
  if (src != gw[0]) {
    if (plat_route_np(p, src, gw[0], r, err, errlen) != 0)
      return -1;
    rotate(r, start, mid);
  }
  if (gw[1] != dst)
    return plat_route_np(p, gw[1], dst, r, err, errlen);
  return 0;
}

int plat_get_route(const platform *p, int src, int dst, plat_route *r, char *err,
                   size_t errlen) {
  if (src < 0 || src >= p->nhosts || dst < 0 || dst >= p->nhosts)
    return x_err(err, errlen, "no host #%d or #%d (the platform has %d hosts)", src, dst,
                 p->nhosts);
  r->n = 0;
  r->latency = 0.0;
  if (plat_route_np(p, p->host_np[src], p->host_np[dst], r, err, errlen) != 0)
    return -1;
  if (r->n == 0)
    return x_err(err, errlen, "no route from host %s to host %s (no connecting path)",
                 p->hosts[src].name, p->hosts[dst].name);
  return 0;
}

void plat_route_free(plat_route *r) {
  free(r->links);
  r->links = NULL;
  r->n = r->cap = 0;
}
