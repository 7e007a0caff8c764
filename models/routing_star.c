/* routing_star.c - star zones: flat <cluster>s and <zone routing="Cluster">.
 *
 * As SimGrid's StarZone: each vertex v has an UP list (links from v to the centre), a
 * DOWN list (from the centre to v), an optional loopback list and a gateway. The route
 * a -> b (a != b, or a == b without loopback) is UP(a) + DOWN(b), a link already in the
 * route being skipped: for a flat cluster that is
 *     [limiter_a] link_a_UP [backbone] link_b_DOWN [limiter_b]
 * and a -> a without loopback is [limiter_a] link_a_UP [backbone] link_a_DOWN.
 * A symmetrical "from v to everyone" route sets UP(v) to the hops and DOWN(v) to their
 * reverse (split-duplex sides swapped). Memory is O(vertices x hops), and a route costs
 * O(k^2) for its k <= 6 links (the duplicate check). */
#include <stdlib.h>
#include <string.h>

#include "platform_impl.h"
#include "xalloc.h"

typedef struct star_list {
  int *l; /* link ids */
  int n;
  int set; /* given (an empty list may be given) */
} star_list;

typedef struct star_entry {
  star_list up, down, loop; /* to the centre, from the centre, to itself */
  int gateway;              /* netpoint, -1 unless the vertex is a sub-zone */
  int present;              /* SimGrid's routes_ has an entry for this vertex */
} star_entry;

typedef struct star_impl {
  star_entry *e; /* by local id */
  size_t n, cap;
} star_impl;

static star_entry *entry(plat_zone *z, int local) {
  if (!z->impl)
    z->impl = x_calloc(1, sizeof(star_impl));
  star_impl *s = z->impl;
  if ((size_t)local >= s->n) {
    x_grow(&s->e, &s->cap, (size_t)local + 1, sizeof *s->e);
    memset(s->e + s->n, 0, ((size_t)local + 1 - s->n) * sizeof *s->e);
    for (size_t i = s->n; i <= (size_t)local; i++)
      s->e[i].gateway = -1;
    s->n = (size_t)local + 1;
  }
  s->e[local].present = 1;
  return &s->e[local];
}

static void set_list(star_list *dst, const plat_hop *hops, int n, int back, int reversed) {
  free(dst->l);
  dst->l = x_malloc((size_t)(n ? n : 1) * sizeof *dst->l);
  for (int i = 0; i < n; i++) {
    const plat_hop *h = &hops[reversed ? n - 1 - i : i];
    dst->l[i] = back ? h->back : h->fwd;
  }
  dst->n = n;
  dst->set = 1;
}

static int check_gw(const platform *p, int v, int gw, const char *which, char *err, size_t errlen) {
  if (v < 0 || p->nps[v].kind != NP_ZONE)
    return 0;
  if (gw < 0)
    return x_err(err, errlen, "'%s' is a zone but %s isn't configured", p->nps[v].name, which);
  if (p->nps[gw].kind == NP_ZONE || !plat_np_in_zone(p, gw, p->nps[v].ref))
    return x_err(err, errlen, "%s '%s' must be a host or router inside zone '%s'", which,
                 p->nps[gw].name, p->nps[v].name);
  return 0;
}

/* StarZone::add_route: src -> everyone (dst < 0), everyone -> dst (src < 0) or loopback. */
static int star_add(platform *p, plat_zone *z, int src, int dst, int gw_src, int gw_dst,
                    const plat_hop *hops, int n, int symmetrical, char *err, size_t errlen) {
  if ((src < 0 && dst < 0) || (src >= 0 && dst >= 0 && src != dst))
    return x_err(err, errlen,
                 "cannot add a route from %s to %s in zone '%s': in a star zone "
                 "(routing Cluster), a route goes from one node to everyone, from "
                 "everyone to one node, or from a node to itself",
                 src >= 0 ? p->nps[src].name : "everyone", dst >= 0 ? p->nps[dst].name : "everyone",
                 z->name);
  if (check_gw(p, src, gw_src, "gw_src", err, errlen) ||
      check_gw(p, dst, gw_dst, "gw_dst", err, errlen))
    return -1;
  if (src == dst) {
    set_list(&entry(z, p->nps[src].local)->loop, hops, n, 0, 0);
    return 0;
  }
  if (src >= 0) {
    star_entry *e = entry(z, p->nps[src].local);
    set_list(&e->up, hops, n, 0, 0);
    e->gateway = gw_src;
    if (symmetrical)
      set_list(&e->down, hops, n, 1, 1);
  }
  if (dst >= 0) {
    star_entry *e = entry(z, p->nps[dst].local);
    set_list(&e->down, hops, n, 0, 0);
    e->gateway = gw_dst;
  }
  return 0;
}

static int star_add_route(platform *p, plat_zone *z, const plat_route_decl *d, char *err,
                          size_t errlen) {
  int zi = p->nps[z->np].ref;
  if (p->nps[d->src].zone != zi || p->nps[d->dst].zone != zi)
    return x_err(err, errlen, "route between '%s' and '%s': both must be directly in zone '%s'",
                 p->nps[d->src].name, p->nps[d->dst].name, z->name);
  return star_add(p, z, d->src, d->dst, d->gw_src, d->gw_dst, d->hops, d->nhops, d->symmetrical,
                  err, errlen);
}

static int star_seal(platform *p, plat_zone *z, char *err, size_t errlen) {
  (void)p;
  (void)err;
  (void)errlen;
  for (int v = 0; v < z->nvert; v++) {
    star_impl *s = z->impl;
    if (s && (size_t)v < s->n && s->e[v].present)
      continue;
    star_entry *e = entry(z, v);
    e->up.set = e->down.set = 1;
  }
  return 0;
}

/* Appends links not yet in r since position start. */
static void add_unique(const platform *p, plat_route *r, size_t start, const star_list *l) {
  for (int i = 0; i < l->n; i++) {
    size_t k = start;
    while (k < r->n && r->links[k] != l->l[i])
      k++;
    if (k == r->n)
      plat_route_push(p, r, l->l[i]);
  }
}

static int star_local_route(const platform *p, const plat_zone *z, int src, int dst, plat_route *r,
                            size_t base, int gw[2], char *err, size_t errlen) {
  (void)base;
  const star_impl *s = z->impl;
  const star_entry *a = &s->e[p->nps[src].local], *b = &s->e[p->nps[dst].local];
  size_t start = r->n;
  if (src == dst && a->loop.n > 0) {
    add_unique(p, r, start, &a->loop);
    return 0;
  }
  if (!a->up.set || !b->down.set)
    return x_err(err, errlen, "zone '%s' (star routing) from '%s' to '%s': no link %s", z->name,
                 p->nps[src].name, p->nps[dst].name,
                 !a->up.set ? "UP from the source node" : "DOWN to the destination node");
  add_unique(p, r, start, &a->up);
  add_unique(p, r, start, &b->down);
  gw[0] = a->gateway;
  gw[1] = b->gateway;
  return 0;
}

static void star_free(void *impl) {
  star_impl *s = impl;
  if (!s)
    return;
  for (size_t i = 0; i < s->n; i++) {
    free(s->e[i].up.l);
    free(s->e[i].down.l);
    free(s->e[i].loop.l);
  }
  free(s->e);
  free(s);
}

const zone_ops plat_zone_star_ops = {"Cluster", star_add_route, star_seal, star_local_route,
                                     star_free};

/* ==================================================================== builders */
/* One node of a flat cluster (sg_platf_new_cluster_flat): host, loopback, limiter,
 * private link, and its "from this node to everyone" route. */
static int flat_node(platform *p, int zi, const plat_cluster *c, int k, int bb, char *err,
                     size_t errlen) {
  int h = plat_cluster_host(p, zi, c, k, err, errlen);
  if (h < 0)
    return -1;
  int np = p->host_np[h], n = 0, rc = 0;
  plat_hop hops[3];
  char *link_id = x_asprintf("%s_link_%d", c->id, c->radicals[k]);
  char *name = NULL;
  if (c->loopback_bw > 0 || c->loopback_lat > 0) {
    name = x_asprintf("%s_loopback", link_id);
    int lb = plat_add_link(p, name, c->loopback_bw, c->loopback_lat, PLAT_FATPIPE, err, errlen);
    plat_hop hop = {lb, lb};
    rc = lb < 0 ? -1 : star_add(p, p->zones[zi], np, np, -1, -1, &hop, 1, 1, err, errlen);
    free(name);
  }
  if (rc == 0 && c->limiter > 0) {
    name = x_asprintf("%s_limiter", link_id);
    int lim = plat_add_link(p, name, c->limiter, 0.0, PLAT_SHARED, err, errlen);
    hops[n++] = (plat_hop){lim, lim};
    rc = lim < 0 ? -1 : 0;
    free(name);
  }
  if (rc == 0 && c->split) {
    int d = plat_add_duplex(p, link_id, c->bw, c->lat, err, errlen);
    rc = d < 0 ? -1 : 0;
    if (d >= 0)
      hops[n++] = (plat_hop){p->duplex[d].up, p->duplex[d].down};
  } else if (rc == 0) {
    /* SimGrid creates it without its sharing policy: always SHARED */
    int l = plat_add_link(p, link_id, c->bw, c->lat, PLAT_SHARED, err, errlen);
    rc = l < 0 ? -1 : 0;
    hops[n++] = (plat_hop){l, l};
  }
  free(link_id);
  if (rc != 0)
    return -1;
  if (bb >= 0)
    hops[n++] = (plat_hop){bb, bb};
  return star_add(p, p->zones[zi], np, -1, -1, -1, hops, n, 1, err, errlen);
}

int plat_star_build_flat(platform *p, int parent, const plat_cluster *c, char *err, size_t errlen) {
  int zi = plat_add_zone(p, c->id, &plat_zone_star_ops, parent, err, errlen), bb = -1;
  if (zi < 0)
    return -1;
  if (c->bb_bw > 0 || c->bb_lat > 0) {
    char *name = x_asprintf("%s_backbone", c->id);
    bb = plat_add_link(p, name, c->bb_bw, c->bb_lat, c->bb_policy, err, errlen);
    free(name);
    if (bb < 0)
      return -1;
  }
  for (int k = 0; k < c->nradicals; k++)
    if (flat_node(p, zi, c, k, bb, err, errlen) != 0)
      return -1;
  char *rname = c->router_id && *c->router_id
                    ? x_strdup(c->router_id)
                    : x_asprintf("%s%s_router%s", c->prefix, c->id, c->suffix);
  int router = plat_add_router(p, zi, rname, err, errlen);
  free(rname);
  if (router < 0)
    return -1;
  return star_add(p, p->zones[zi], router, -1, -1, -1, NULL, 0, 1, err, errlen) ? -1 : zi;
}

int plat_star_host_link(platform *p, plat_zone *z, int host_np, int up, int down, int backbone,
                        char *err, size_t errlen) {
  if (p->nps[host_np].zone != p->nps[z->np].ref)
    return x_err(err, errlen, "host '%s' is not in zone '%s'", p->nps[host_np].name, z->name);
  plat_hop to[2] = {{up, up}, {backbone, backbone}};
  plat_hop from[2] = {{backbone, backbone}, {down, down}};
  int n = backbone >= 0 ? 2 : 1;
  if (star_add(p, z, host_np, -1, -1, -1, to, n, 0, err, errlen) != 0)
    return -1;
  return star_add(p, z, -1, host_np, -1, -1, backbone >= 0 ? from : from + 1, n, 0, err, errlen);
}

int plat_star_cabinet_host(platform *p, int zi, const char *name, double speed, double bw,
                           double lat, int backbone, char *err, size_t errlen) {
  int h = plat_add_host(p, zi, name, &speed, 1, 1, err, errlen);
  if (h < 0)
    return -1;
  char *up_name = x_asprintf("link_%s_UP", name), *down_name = x_asprintf("link_%s_DOWN", name);
  int up = plat_add_link(p, up_name, bw, lat, PLAT_SHARED, err, errlen);
  int down = up < 0 ? -1 : plat_add_link(p, down_name, bw, lat, PLAT_SHARED, err, errlen);
  free(up_name);
  free(down_name);
  if (down < 0)
    return -1;
  return plat_star_host_link(p, p->zones[zi], p->host_np[h], up, down, backbone, err, errlen);
}
