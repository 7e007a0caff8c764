/* platform_route.c - host-to-host routes across nested zones (SimGrid's get_global_route).
 *
 * When both ends lie in the same zone, that zone's local_route is the answer. Otherwise
 * let C be their lowest common zone and A, B the children of C on the way to src and
 * dst: the route is  route(src -> gw_src) + local_route_C(A, B) + route(gw_dst -> dst),
 * where gw_src, gw_dst are the gateways C's routing gives for A -> B, and the two outer
 * parts are computed the same way, recursively (a gateway equal to the end is skipped).
 * Two details of SimGrid are kept because they decide the link order and the latency
 * sum bit for bit: the middle part is computed (and its latency added) first, into a
 * fresh list; and the outer parts are built in the caller's list, at whose start a
 * Dijkstra zone inserts its links (so a Dijkstra segment may land before links found
 * earlier). Cost: O(route length + zone depth); no allocation once r is large enough,
 * unless a zone-level segment exceeds 32 links. */
#include <stdlib.h>
#include <string.h>

#include "platform_impl.h"
#include "xalloc.h"

void plat_route_push(const platform *p, plat_route *r, int link) {
  x_grow(&r->links, &r->cap, r->n + 1, sizeof *r->links);
  r->links[r->n++] = link;
  r->latency += p->links[link].latency;
}

void plat_route_append(const platform *p, plat_route *r, const int *links, int n) {
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

void plat_route_move_front(plat_route *r, size_t base, size_t from) {
  reverse(r->links, base, from);
  reverse(r->links, from, r->n);
  reverse(r->links, base, r->n);
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

static int local(const platform *p, int z, int src, int dst, plat_route *r, size_t base, int gw[2],
                 char *err, size_t errlen) {
  gw[0] = gw[1] = -1;
  return p->zones[z]->ops->local_route(p, p->zones[z], src, dst, r, base, gw, err, errlen);
}

/* The route between sub-zones ca and cb of common, with its gateways: computed at the end
 * of r (as a fresh list), then cut out of r into seg (*seg_buf or allocated). */
static int zone_segment(const platform *p, int common, int ca, int cb, plat_route *r, int gw[2],
                        int **seg, size_t *k, char *err, size_t errlen) {
  size_t start = r->n;
  if (local(p, common, p->zones[ca]->np, p->zones[cb]->np, r, start, gw, err, errlen) != 0)
    return -1;
  if (gw[0] < 0 || gw[1] < 0)
    return x_err(err, errlen, "no gateways from zone '%s' to zone '%s' in zone '%s'",
                 p->zones[ca]->name, p->zones[cb]->name, p->zones[common]->name);
  *k = r->n - start;
  if (*k > 32)
    *seg = x_malloc(*k * sizeof **seg);
  memcpy(*seg, r->links + start, *k * sizeof **seg);
  r->n = start;
  return 0;
}

int plat_route_np(const platform *p, int src, int dst, plat_route *r, size_t base, char *err,
                  size_t errlen) {
  int zs = p->nps[src].zone, zd = p->nps[dst].zone, gw[2], ca, cb, buf[32], *seg = buf;
  if (zs == zd)
    return local(p, zs, src, dst, r, base, gw, err, errlen);
  int common = split_zones(p, zs, zd, &ca, &cb);
  if (ca < 0 || cb < 0)
    return x_err(err, errlen, "cannot route from '%s' to '%s': one's zone contains the other's",
                 p->nps[src].name, p->nps[dst].name);
  size_t k = 0;
  int rc = zone_segment(p, common, ca, cb, r, gw, &seg, &k, err, errlen);
  if (rc == 0 && src != gw[0])
    rc = plat_route_np(p, src, gw[0], r, base, err, errlen);
  if (rc == 0) { /* the segment's latency is already counted */
    x_grow(&r->links, &r->cap, r->n + k, sizeof *r->links);
    memcpy(r->links + r->n, seg, k * sizeof *seg);
    r->n += k;
  }
  if (rc == 0 && gw[1] != dst)
    rc = plat_route_np(p, gw[1], dst, r, base, err, errlen);
  if (seg != buf)
    free(seg);
  return rc;
}

int plat_get_route(const platform *p, int src, int dst, plat_route *r, char *err, size_t errlen) {
  if (src < 0 || src >= p->nhosts || dst < 0 || dst >= p->nhosts)
    return x_err(err, errlen, "no host #%d or #%d (the platform has %d hosts)", src, dst,
                 p->nhosts);
  r->n = 0;
  r->latency = 0.0;
  if (plat_route_np(p, p->host_np[src], p->host_np[dst], r, 0, err, errlen) != 0)
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
