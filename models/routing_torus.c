/* routing_torus.c - <cluster topology="TORUS" topo_parameters="d1,d2,...">.
 *
 * As SimGrid's TorusZone: node i (its position, also its local id) has coordinates
 * c_j = (i / (d_0 ... d_{j-1})) mod d_j and owns, in each dimension j, one cable to its
 * +1 neighbour (with wrap-around) named "<id>_link_from_<i>_to_<neighbour>". Routing is
 * dimension-ordered (dimension 0 first). In dimension j the direction is fixed from the
 * *source's* coordinate m and the target's t: go right (+1) if m < t <= m + d/2, or if
 * m > d/2 and (m + d/2) mod d >= t; otherwise left. Going right uses the UP side of the
 * current node's cable, going left the DOWN side of the next node's cable. With limiters,
 * each hop is preceded by the limiter of the node it leaves, and the destination's
 * limiter ends the route. A self-route is the node's loopback if any, else just its
 * limiter (or nothing: "no route").
 * Memory O(nodes x dims); a route costs O(its length x dims). */
#include <stdlib.h>

#include "platform_impl.h"
#include "xalloc.h"

#define TORUS_MAX_DIMS 16

typedef struct torus_impl {
  unsigned dims[TORUS_MAX_DIMS]; /* d_0 .. d_{n-1} */
  int ndims, nnodes;
  int *cable;    /* [node][dim][2]: UP and DOWN of the cable to the +1 neighbour */
  int *loopback; /* per node, -1 if none */
  int *limiter;  /* per node, -1 if none */
} torus_impl;

static void torus_free(void *impl) {
  torus_impl *t = impl;
  if (t) {
    free(t->cable);
    free(t->loopback);
    free(t->limiter);
  }
  free(t);
}

/* The node's host, loopback, limiter and cables, in SimGrid's creation order. */
static int torus_node(platform *p, int zi, const plat_cluster *c, torus_impl *t, int i, char *err,
                      size_t errlen) {
  if (plat_cluster_host(p, zi, c, i, err, errlen) < 0)
    return -1;
  t->loopback[i] = t->limiter[i] = -1;
  if ((c->loopback_bw > 0 || c->loopback_lat > 0) &&
      (t->loopback[i] = plat_cluster_loopback(p, c, i, err, errlen)) < 0)
    return -1;
  if (c->limiter > 0 &&
      (t->limiter[i] = plat_cluster_limiter(p, c, (unsigned long)i, err, errlen)) < 0)
    return -1;
  unsigned long prod = 1;
  for (int j = 0; j < t->ndims; j++) {
    unsigned long d = t->dims[j], rank = (unsigned long)i;
    unsigned long next = (rank / prod) % d == d - 1 ? rank - (d - 1) * prod : rank + prod;
    char *name = x_asprintf("%s_link_from_%d_to_%lu", c->id, i, next);
    int rc = plat_cluster_cable(p, c, name, c->bw, &t->cable[((size_t)i * t->ndims + j) * 2], err,
                                errlen);
    free(name);
    if (rc != 0)
      return -1;
    prod *= d;
  }
  return 0;
}

static int torus_parse(const plat_cluster *c, torus_impl *t, char *err, size_t errlen) {
  t->ndims = plat_cluster_parse_uints(c->topo_parameters, ',', t->dims, TORUS_MAX_DIMS,
                                      "torus topo_parameters (expected d1,d2,...)", err, errlen);
  if (t->ndims < 0)
    return -1;
  unsigned long n = 1;
  for (int j = 0; j < t->ndims; j++)
    if ((n *= t->dims[j]) > 10000000UL)
      return x_err(err, errlen, "torus '%s' is too large (%s)", c->id, c->topo_parameters);
  t->nnodes = (int)n;
  if (c->bw <= 0 || c->lat < 0)
    return x_err(err, errlen, "torus '%s': the bandwidth must be > 0 and the latency >= 0", c->id);
  return 0;
}

int plat_torus_build(platform *p, int parent, const plat_cluster *c, char *err, size_t errlen) {
  torus_impl *t = x_calloc(1, sizeof *t);
  if (torus_parse(c, t, err, errlen) != 0) {
    free(t);
    return -1;
  }
  int zi = plat_add_zone(p, c->id, &plat_zone_torus_ops, parent, err, errlen);
  if (zi < 0) {
    free(t);
    return -1;
  }
  p->zones[zi]->impl = t;
  t->cable = x_malloc((size_t)t->nnodes * (size_t)t->ndims * 2 * sizeof *t->cable);
  t->loopback = x_malloc((size_t)t->nnodes * sizeof *t->loopback);
  t->limiter = x_malloc((size_t)t->nnodes * sizeof *t->limiter);
  for (int i = 0; i < t->nnodes; i++)
    if (torus_node(p, zi, c, t, i, err, errlen) != 0)
      return -1;
  return zi;
}

/* One hop from cur toward dst: the next node and the link used. */
static int torus_hop(const torus_impl *t, unsigned long cur, unsigned long src, unsigned long dst,
                     int *link) {
  unsigned long prod = 1;
  for (int j = 0; j < t->ndims; j++) {
    unsigned long d = t->dims[j], pos = (cur / prod) % d;
    unsigned long m = (src / prod) % d, tg = (dst / prod) % d;
    if (pos != tg) {
      if ((tg > m && tg <= m + d / 2) || (m > d / 2 && (m + d / 2) % d >= tg)) {
        unsigned long next = pos == d - 1 ? cur + prod - prod * d : cur + prod;
        *link = t->cable[(cur * (size_t)t->ndims + (size_t)j) * 2];
        return (int)next;
      }
      unsigned long next = pos == 0 ? cur - prod + prod * d : cur - prod;
      *link = t->cable[(next * (size_t)t->ndims + (size_t)j) * 2 + 1];
      return (int)next;
    }
    prod *= d;
  }
  return (int)cur;
}

static int torus_local_route(const platform *p, const plat_zone *z, int src, int dst, plat_route *r,
                             size_t base, int gw[2], char *err, size_t errlen) {
  (void)base;
  (void)gw;
  const torus_impl *t = z->impl;
  int s = p->nps[src].local, d = p->nps[dst].local, cur = s, steps = 0, link = -1;
  if (s == d && t->loopback[s] >= 0) {
    plat_route_push(p, r, t->loopback[s]);
    return 0;
  }
  while (cur != d) {
    if (++steps > t->nnodes)
      return x_err(err, errlen, "torus '%s': no route from '%s' to '%s'", z->name, p->nps[src].name,
                   p->nps[dst].name);
    int next = torus_hop(t, (unsigned long)cur, (unsigned long)s, (unsigned long)d, &link);
    if (t->limiter[cur] >= 0)
      plat_route_push(p, r, t->limiter[cur]);
    plat_route_push(p, r, link);
    cur = next;
  }
  if (t->limiter[d] >= 0)
    plat_route_push(p, r, t->limiter[d]);
  return 0;
}

const zone_ops plat_zone_torus_ops = {"Torus", NULL, NULL, torus_local_route, torus_free};
