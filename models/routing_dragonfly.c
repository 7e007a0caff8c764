/* routing_dragonfly.c - <cluster topology="DRAGONFLY" topo_parameters="G,b;C,k;B,g;N">.
 *
 * As SimGrid's DragonflyZone: G groups of C chassis of B blades (routers) of N nodes;
 * node i has coordinates (group, chassis, blade, node) in that order of significance.
 * Routers of a chassis are all linked by green cables (g parallel cables: one link of
 * bandwidth g x bw), same-blade routers of a group's chassis by black ones (k), and group
 * i is linked to group j by a blue cable (b) between router j of group i and router i of
 * group j (chassis 0, blade = the other group; so G <= B). Link names carry a uid shared
 * by every dragonfly of the platform (a static counter in SimGrid).
 * Minimal routing, reproduced with its quirks: node -> its router; if the groups differ,
 * green to blade <target group>, black to chassis 0, blue; then, if the blades differ,
 * green to the target blade *taking the router of chassis 0 as the new current one*;
 * then, if the chassis differ, black to the target chassis; finally router -> node.
 * Limiters: the sender's, each router's before a green/black hop, the router's after a
 * blue hop, the target router's, the receiver's. */
#include <stdlib.h>

#include "platform_impl.h"
#include "xalloc.h"

typedef struct df_router {
  unsigned group, chassis, blade;
  int limiter; /* link id or -1 */
  int *nodes;  /* [node * per_link + 0/1]: UP (node -> router) and DOWN (router -> node) */
  int *green;  /* to the other blades of the chassis, by blade */
  int *black;  /* to the same blade of the other chassis, by chassis */
  int blue;    /* to the group this router serves, -1 if none */
} df_router;

typedef struct dragonfly_impl {
  unsigned groups, blue, chassis, black, blades, green, nodes; /* topo_parameters */
  unsigned per_link; /* links per cable: 2 if SPLITDUPLEX, else 1 */
  df_router *routers;
  int nrouters, nnodes;
  int *loopback, *limiter; /* per node, -1 if none */
} dragonfly_impl;

static void dragonfly_free(void *impl) {
  dragonfly_impl *d = impl;
  if (!d)
    return;
  for (int i = 0; i < d->nrouters; i++) {
    free(d->routers[i].nodes);
    free(d->routers[i].green);
    free(d->routers[i].black);
  }
  free(d->routers);
  free(d->loopback);
  free(d->limiter);
  free(d);
}

static int df_pair(const char *s, unsigned out[2], const char *what, char *err, size_t errlen) {
  int n = plat_cluster_parse_uints(s, ',', out, 2, what, err, errlen);
  if (n < 0)
    return -1;
  return n == 2 ? 0 : x_err(err, errlen, "invalid %s '%s' (expected two values)", what, s);
}

static int df_parse(const plat_cluster *c, dragonfly_impl *d, char *err, size_t errlen) {
  char *copy = x_strdup(c->topo_parameters), *part[4];
  unsigned v[2];
  int rc = plat_cluster_split(copy, ';', part, 4) != 0
               ? x_err(err, errlen,
                       "invalid dragonfly topo_parameters '%s' (expected "
                       "\"groups,blue;chassis,black;routers,green;nodes\")",
                       c->topo_parameters)
               : 0;
  if (rc == 0 && (rc = df_pair(part[0], v, "dragonfly group description", err, errlen)) == 0)
    d->groups = v[0], d->blue = v[1];
  if (rc == 0 && (rc = df_pair(part[1], v, "dragonfly chassis description", err, errlen)) == 0)
    d->chassis = v[0], d->black = v[1];
  if (rc == 0 && (rc = df_pair(part[2], v, "dragonfly router description", err, errlen)) == 0)
    d->blades = v[0], d->green = v[1];
  if (rc == 0 &&
      plat_cluster_parse_uints(part[3], ',', &d->nodes, 1, "dragonfly node count", err, errlen) < 0)
    rc = -1;
  free(copy);
  if (rc == 0 && d->groups > d->blades)
    rc = x_err(err, errlen,
               "dragonfly '%s': %u groups but %u routers per chassis (SimGrid "
               "links group j to router j: groups must not exceed routers)",
               c->id, d->groups, d->blades);
  return rc;
}

/* ==================================================================== building */
static int df_cable(platform *p, const plat_cluster *c, char *name, unsigned mult, int ends[2],
                    char *err, size_t errlen) {
  int rc = plat_cluster_cable(p, c, name, c->bw * mult, ends, err, errlen);
  free(name);
  if (rc == 0)
    p->dragonfly_uid++;
  return rc;
}

static int df_nodes(platform *p, int zi, const plat_cluster *c, dragonfly_impl *d, char *err,
                    size_t errlen) {
  for (int i = 0; i < d->nnodes; i++) {
    d->loopback[i] = d->limiter[i] = -1;
    if (plat_cluster_host(p, zi, c, i, err, errlen) < 0)
      return -1;
    if ((c->loopback_bw > 0 || c->loopback_lat > 0) &&
        (d->loopback[i] = plat_cluster_loopback(p, c, i, err, errlen)) < 0)
      return -1;
    if (c->limiter > 0 &&
        (d->limiter[i] = plat_cluster_limiter(p, c, (unsigned long)i, err, errlen)) < 0)
      return -1;
  }
  return 0;
}

/* DragonflyZone::generate_routers */
static int df_routers(platform *p, const plat_cluster *c, dragonfly_impl *d, char *err,
                      size_t errlen) {
  unsigned long id = 2UL * (unsigned long)d->nnodes;
  d->nrouters = (int)(d->groups * d->chassis * d->blades);
  d->routers = x_calloc((size_t)d->nrouters, sizeof *d->routers);
  for (int r = 0; r < d->nrouters; r++) {
    df_router *ro = &d->routers[r];
    ro->group = (unsigned)r / (d->chassis * d->blades);
    ro->chassis = (unsigned)r / d->blades % d->chassis;
    ro->blade = (unsigned)r % d->blades;
    ro->limiter = ro->blue = -1;
    ro->nodes = x_malloc((size_t)d->per_link * d->nodes * sizeof *ro->nodes);
    ro->green = x_malloc(d->blades * sizeof *ro->green);
    ro->black = x_malloc(d->chassis * sizeof *ro->black);
    for (unsigned k = 0; k < d->blades; k++)
      ro->green[k] = -1;
    for (unsigned k = 0; k < d->chassis; k++)
      ro->black[k] = -1;
    if (c->limiter > 0 && (ro->limiter = plat_cluster_limiter(p, c, --id, err, errlen)) < 0)
      return -1;
  }
  return 0;
}

static int df_local_links(platform *p, const plat_cluster *c, dragonfly_impl *d, char *err,
                          size_t errlen) {
  int ends[2];
  for (int i = 0; i < d->nrouters; i++)
    for (unsigned j = 0; j < d->nodes; j++) {
      char *name = x_asprintf("local_link_from_router_%d_to_node_%u_%d", i, j, p->dragonfly_uid);
      if (df_cable(p, c, name, 1, ends, err, errlen) != 0)
        return -1;
      d->routers[i].nodes[j * d->per_link] = ends[0];
      if (d->per_link == 2)
        d->routers[i].nodes[j * 2 + 1] = ends[1];
    }
  return 0;
}

static int df_green_links(platform *p, const plat_cluster *c, dragonfly_impl *d, char *err,
                          size_t errlen) {
  int ends[2];
  for (unsigned i = 0; i < d->groups * d->chassis; i++)
    for (unsigned j = 0; j < d->blades; j++)
      for (unsigned k = j + 1; k < d->blades; k++) {
        char *name = x_asprintf("green_link_in_chassis_%u_between_routers_%u_and_%u_%d",
                                i % d->chassis, j, k, p->dragonfly_uid);
        if (df_cable(p, c, name, d->green, ends, err, errlen) != 0)
          return -1;
        d->routers[i * d->blades + j].green[k] = ends[0];
        d->routers[i * d->blades + k].green[j] = ends[1];
      }
  return 0;
}

static int df_black_links(platform *p, const plat_cluster *c, dragonfly_impl *d, char *err,
                          size_t errlen) {
  int ends[2];
  unsigned cb = d->chassis * d->blades;
  for (unsigned i = 0; i < d->groups; i++)
    for (unsigned j = 0; j < d->chassis; j++)
      for (unsigned k = j + 1; k < d->chassis; k++)
        for (unsigned l = 0; l < d->blades; l++) {
          char *name = x_asprintf("black_link_in_group_%u_between_chassis_%u_and_%u_blade_%u_%d", i,
                                  j, k, l, p->dragonfly_uid);
          if (df_cable(p, c, name, d->black, ends, err, errlen) != 0)
            return -1;
          d->routers[i * cb + j * d->blades + l].black[k] = ends[0];
          d->routers[i * cb + k * d->blades + l].black[j] = ends[1];
        }
  return 0;
}

static int df_blue_links(platform *p, const plat_cluster *c, dragonfly_impl *d, char *err,
                         size_t errlen) {
  int ends[2];
  unsigned cb = d->chassis * d->blades;
  for (unsigned i = 0; i < d->groups; i++)
    for (unsigned j = i + 1; j < d->groups; j++) {
      unsigned ri = i * cb + j, rj = j * cb + i;
      char *name = x_asprintf("blue_link_between_group_%u_and_%u_routers_%u_and_%u_%d", i, j, ri,
                              rj, p->dragonfly_uid);
      if (df_cable(p, c, name, d->blue, ends, err, errlen) != 0)
        return -1;
      d->routers[ri].blue = ends[0];
      d->routers[rj].blue = ends[1];
    }
  return 0;
}

int plat_dragonfly_build(platform *p, int parent, const plat_cluster *c, char *err, size_t errlen) {
  dragonfly_impl *d = x_calloc(1, sizeof *d);
  unsigned long n = 0;
  if (df_parse(c, d, err, errlen) == 0)
    n = (unsigned long)d->groups * d->chassis * d->blades * d->nodes;
  if (n == 0 || n > 10000000UL || c->bw <= 0 || c->lat < 0) {
    if (n > 0)
      x_err(err, errlen, "dragonfly '%s': %s", c->id,
            n > 10000000UL ? "too large" : "the bandwidth must be > 0 and the latency >= 0");
    dragonfly_free(d);
    return -1;
  }
  int zi = plat_add_zone(p, c->id, &plat_zone_dragonfly_ops, parent, err, errlen);
  if (zi < 0) {
    dragonfly_free(d);
    return -1;
  }
  p->zones[zi]->impl = d;
  d->nnodes = (int)n;
  d->per_link = c->split ? 2 : 1;
  d->loopback = x_malloc(n * sizeof *d->loopback);
  d->limiter = x_malloc(n * sizeof *d->limiter);
  if (df_nodes(p, zi, c, d, err, errlen) || df_routers(p, c, d, err, errlen) ||
      df_local_links(p, c, d, err, errlen) || df_green_links(p, c, d, err, errlen) ||
      df_black_links(p, c, d, err, errlen) || df_blue_links(p, c, d, err, errlen))
    return -1;
  return zi;
}

/* ==================================================================== routing */
typedef struct df_walk {
  const platform *p;
  const dragonfly_impl *d;
  plat_route *r;
  int bad; /* a link was missing */
} df_walk;

static void hop(df_walk *w, int link) {
  if (link < 0)
    w->bad = 1;
  else
    plat_route_push(w->p, w->r, link);
}

static void limiter(df_walk *w, int router) {
  if (w->d->routers[router].limiter >= 0)
    plat_route_push(w->p, w->r, w->d->routers[router].limiter);
}

static int router_of(const dragonfly_impl *d, unsigned g, unsigned c, unsigned b) {
  return (int)(g * d->chassis * d->blades + c * d->blades + b);
}

/* The router-to-router part, from the source's router cur to the target's tr. */
static void df_between(df_walk *w, unsigned mg, unsigned mc, int cur, int tr, unsigned tnode_g,
                       unsigned tb, unsigned tc) {
  const dragonfly_impl *d = w->d;
  if (d->routers[tr].group != d->routers[cur].group) {
    if (d->routers[cur].blade != tnode_g) {
      limiter(w, cur);
      hop(w, d->routers[cur].green[tnode_g]);
      cur = router_of(d, mg, mc, tnode_g);
    }
    if (d->routers[cur].chassis != 0) {
      limiter(w, cur);
      hop(w, d->routers[cur].black[0]);
      cur = router_of(d, mg, 0, tnode_g);
    }
    hop(w, d->routers[cur].blue);
    limiter(w, cur);
    cur = router_of(d, tnode_g, 0, mg);
  }
  if (d->routers[tr].blade != d->routers[cur].blade) {
    limiter(w, cur);
    hop(w, d->routers[cur].green[tb]);
    cur = router_of(d, tnode_g, 0, tb);
  }
  if (d->routers[tr].chassis != d->routers[cur].chassis) {
    limiter(w, cur);
    hop(w, d->routers[cur].black[tc]);
  }
}

static void coords(const dragonfly_impl *d, unsigned i, unsigned c[4]) {
  c[3] = i % d->nodes;
  i /= d->nodes;
  c[2] = i % d->blades;
  i /= d->blades;
  c[1] = i % d->chassis;
  c[0] = i / d->chassis;
}

static int dragonfly_local_route(const platform *p, const plat_zone *z, int src, int dst,
                                 plat_route *r, size_t base, int gw[2], char *err, size_t errlen) {
  (void)base;
  (void)gw;
  const dragonfly_impl *d = z->impl;
  int s = p->nps[src].local, t = p->nps[dst].local;
  if (s == t && d->loopback[s] >= 0) {
    plat_route_push(p, r, d->loopback[s]);
    return 0;
  }
  unsigned m[4], tg[4];
  coords(d, (unsigned)s, m);
  coords(d, (unsigned)t, tg);
  int mr = router_of(d, m[0], m[1], m[2]), tr = router_of(d, tg[0], tg[1], tg[2]);
  df_walk w = {p, d, r, 0};
  if (d->limiter[s] >= 0)
    plat_route_push(p, r, d->limiter[s]);
  hop(&w, d->routers[mr].nodes[m[3] * d->per_link]);
  if (tr != mr)
    df_between(&w, m[0], m[1], mr, tr, tg[0], tg[2], tg[1]);
  limiter(&w, tr);
  hop(&w, d->routers[tr].nodes[tg[3] * d->per_link + d->per_link - 1]);
  if (d->limiter[t] >= 0)
    plat_route_push(p, r, d->limiter[t]);
  if (w.bad)
    return x_err(err, errlen, "dragonfly '%s': no route from '%s' to '%s'", z->name,
                 p->nps[src].name, p->nps[dst].name);
  return 0;
}

const zone_ops plat_zone_dragonfly_ops = {"Dragonfly", NULL, NULL, dragonfly_local_route,
                                          dragonfly_free};
