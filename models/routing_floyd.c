/* routing_floyd.c - <zone routing="Floyd">: shortest paths (in links) between declared routes.
 *
 * As SimGrid's FloydZone: each declared route is an edge of cost = its number of links;
 * at seal, Floyd-Warshall runs over the vertices in local-id order with a strict "<", so
 * ties keep the first path found; this order is what makes tir pick the same path as
 * SimGrid. A route is rebuilt by walking the predecessor table back from dst. In a leaf
 * zone a vertex without a self-route gets the model loopback (cost 1). In a recursive
 * zone, consecutive zone hops whose gateways differ are joined by a global route
 * between them (FloydZone::get_local_route). Unlike Full, a symmetrical self-route is a
 * duplicate (SimGrid adds its reverse without checking src != dst).
 * Cost: V x V tables (8 + 4 bytes per pair), O(V^3) at seal, as in SimGrid. */
#include <stdint.h>
#include <stdlib.h>

#include "platform_impl.h"
#include "xalloc.h"

#define NO_PATH UINT64_MAX

typedef struct floyd_impl {
  route_table table; /* declared routes (and loopbacks) */
  int n;             /* vertices at seal */
  uint64_t *cost;    /* n x n: links on the best path, NO_PATH if none */
  int *pred;         /* n x n: predecessor of b on the best path from a, -1 if none */
} floyd_impl;

static floyd_impl *impl_of(plat_zone *z) {
  if (!z->impl)
    z->impl = x_calloc(1, sizeof(floyd_impl));
  return z->impl;
}

static int floyd_add_route(platform *p, plat_zone *z, const plat_route_decl *d, char *err,
                           size_t errlen) {
  if (plat_rtable_check_decl(p, z, d, err, errlen) != 0)
    return -1;
  floyd_impl *f = impl_of(z);
  const char *a = p->nps[d->src].name, *b = p->nps[d->dst].name;
  if (plat_rtable_add(&f->table, d->src, d->dst, d->gw_src, d->gw_dst, d->hops, d->nhops, 0) < 0)
    return x_err(err, errlen,
                 "the route between %s and %s already exists (routes are "
                 "symmetrical by default)",
                 a, b);
  if (d->symmetrical &&
      plat_rtable_add(&f->table, d->dst, d->src, d->gw_dst, d->gw_src, d->hops, d->nhops, 1) < 0)
    return x_err(
        err, errlen,
        "the route between %s and %s already exists (you should not "
        "declare the reverse path as symmetrical%s)",
        b, a, d->src == d->dst ? "; in a Floyd zone a self-route must say symmetrical=\"NO\"" : "");
  return 0;
}

/* Loopbacks for undeclared self-routes of a leaf zone, then the initial tables. */
static void floyd_init(platform *p, plat_zone *z, floyd_impl *f) {
  int n = f->n = z->nvert;
  if (z->nchildren == 0 && n > 0) {
    plat_hop lb = {plat_get_model_loopback(p), plat_get_model_loopback(p)};
    for (int i = 0; i < n; i++)
      plat_rtable_add(&f->table, z->vert[i], z->vert[i], -1, -1, &lb, 1, 0);
  }
  f->cost = x_malloc((size_t)n * (size_t)n * sizeof *f->cost);
  f->pred = x_malloc((size_t)n * (size_t)n * sizeof *f->pred);
  for (size_t i = 0; i < (size_t)n * (size_t)n; i++) {
    f->cost[i] = NO_PATH;
    f->pred[i] = -1;
  }
  for (int a = 0; a < n; a++)
    for (int b = 0; b < n; b++) {
      const stored_route *s = plat_rtable_get(&f->table, z->vert[a], z->vert[b]);
      if (s) {
        f->pred[(size_t)a * n + b] = a;
        f->cost[(size_t)a * n + b] = (uint64_t)s->n;
      }
    }
}

static int floyd_seal(platform *p, plat_zone *z, char *err, size_t errlen) {
  (void)err;
  (void)errlen;
  floyd_impl *f = impl_of(z);
  floyd_init(p, z, f);
  size_t n = (size_t)f->n;
  uint64_t *cost = f->cost;
  for (size_t c = 0; c < n; c++)
    for (size_t a = 0; a < n; a++)
      for (size_t b = 0; b < n; b++)
        if (cost[a * n + c] != NO_PATH && cost[c * n + b] != NO_PATH &&
            (cost[a * n + b] == NO_PATH || cost[a * n + c] + cost[c * n + b] < cost[a * n + b])) {
          cost[a * n + b] = cost[a * n + c] + cost[c * n + b];
          f->pred[a * n + b] = f->pred[c * n + b];
        }
  return 0;
}

/* The hops of the best path src -> dst, first hop first, into *hops (resized). */
static int floyd_path(const platform *p, const plat_zone *z, int src, int dst,
                      const stored_route ***hops, int *nhops, char *err, size_t errlen) {
  const floyd_impl *f = z->impl;
  int a = p->nps[src].local, cur = p->nps[dst].local, k = 0;
  const stored_route **h = x_malloc((size_t)(f->n + 1) * sizeof *h);
  do {
    int pred = f->pred[(size_t)a * f->n + cur];
    if (pred < 0 || k > f->n) {
      free(h);
      return x_err(err, errlen, "no route from '%s' to '%s' in zone '%s' (routing Floyd)",
                   p->nps[src].name, p->nps[dst].name, z->name);
    }
    h[k++] = plat_rtable_get(&f->table, z->vert[pred], z->vert[cur]);
    cur = pred;
  } while (cur != a);
  for (int i = 0; i < k / 2; i++) {
    const stored_route *t = h[i];
    h[i] = h[k - 1 - i];
    h[k - 1 - i] = t;
  }
  *hops = h;
  *nhops = k;
  return 0;
}

static int floyd_local_route(const platform *p, const plat_zone *z, int src, int dst, plat_route *r,
                             size_t base, int gw[2], char *err, size_t errlen) {
  const stored_route **h = NULL;
  int k = 0, prev_gw = -1, rc = 0;
  if (floyd_path(p, z, src, dst, &h, &k, err, errlen) != 0)
    return -1;
  if (z->nchildren > 0) {
    gw[0] = h[0]->gw_src;
    gw[1] = h[k - 1]->gw_dst;
  }
  for (int i = 0; i < k && rc == 0; i++) {
    if (z->nchildren > 0 && prev_gw >= 0 && prev_gw != h[i]->gw_src)
      rc = plat_route_np(p, prev_gw, h[i]->gw_src, r, base, err, errlen);
    plat_route_append(p, r, h[i]->links, h[i]->n);
    prev_gw = h[i]->gw_dst;
  }
  free(h);
  return rc;
}

static void floyd_free(void *impl) {
  floyd_impl *f = impl;
  if (f) {
    plat_rtable_free(&f->table);
    free(f->cost);
    free(f->pred);
  }
  free(f);
}

const zone_ops plat_zone_floyd_ops = {"Floyd", floyd_add_route, floyd_seal, floyd_local_route,
                                      floyd_free};
