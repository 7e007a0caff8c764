/* platform.c - the platform object: building it, querying it, freeing it.
 *
 * Builders (plat_add_*) are used by the XML loader and the cluster generators; they
 * enforce what SimGrid enforces at creation time: one name space for hosts, routers and
 * zones, unique link names, one root zone. Every netpoint gets its local id in its
 * englobing zone at creation (SimGrid assigns NetPoint::id the same way), which is why
 * zones are created before their content. Once plat_seal() has run the platform is
 * read-only, except for the model loopback's characteristics and the route caches of
 * Dijkstra zones. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "platform_impl.h"
#include "xalloc.h"

static const char *np_kind_name(np_kind k) {
  return k == NP_HOST ? "host" : k == NP_ROUTER ? "router" : "zone";
}

platform *plat_new(const char *source) {
  platform *p = x_calloc(1, sizeof *p);
  p->source = x_strdup(source);
  p->model_loopback = -1;
  return p;
}

/* ==================================================================== netpoints */
/* Registers a netpoint in zone (-1: none); returns its index or -1 if the name is taken. */
static int add_np(platform *p, const char *name, np_kind kind, int zone, int ref, char *err,
                  size_t errlen) {
  int old = plat_strmap_get(&p->np_by_name, name);
  if (old >= 0)
    return x_err(err, errlen, "duplicate name '%s': a %s of that name already exists", name,
                 np_kind_name(p->nps[old].kind));
  x_grow(&p->nps, &p->cnps, (size_t)p->nnps + 1, sizeof *p->nps);
  plat_np *np = &p->nps[p->nnps];
  *np = (plat_np){x_strdup(name), kind, zone, -1, ref};
  if (zone >= 0) {
    plat_zone *z = p->zones[zone];
    x_grow(&z->vert, &z->cvert, (size_t)z->nvert + 1, sizeof *z->vert);
    np->local = z->nvert;
    z->vert[z->nvert++] = p->nnps;
  }
  plat_strmap_put(&p->np_by_name, np->name, p->nnps);
  return p->nnps++;
}

int plat_np_find(const platform *p, const char *name) {
  return plat_strmap_get(&p->np_by_name, name);
}

int plat_np_in_zone(const platform *p, int np, int z) {
  if (p->nps[np].kind == NP_ZONE && p->nps[np].ref == z)
    return 1;
  for (int zz = p->nps[np].zone; zz >= 0; zz = p->zones[zz]->parent)
    if (zz == z)
      return 1;
  return 0;
}

/* ==================================================================== zones */
int plat_add_zone(platform *p, const char *name, const zone_ops *ops, int parent, char *err,
                  size_t errlen) {
  if (parent < 0 && p->nzones > 0)
    return x_err(err, errlen,
                 "a second top-level zone '%s': a platform has one root zone "
                 "(put the others inside it)",
                 name);
  int np = add_np(p, name, NP_ZONE, parent, p->nzones, err, errlen);
  if (np < 0)
    return -1;
  plat_zone *z = x_calloc(1, sizeof *z);
  z->name = p->nps[np].name;
  z->ops = ops;
  z->parent = parent;
  z->np = np;
  if (parent >= 0) {
    z->depth = p->zones[parent]->depth + 1;
    p->zones[parent]->nchildren++;
  }
  x_grow(&p->zones, &p->czones, (size_t)p->nzones + 1, sizeof *p->zones);
  p->zones[p->nzones] = z;
  return p->nzones++;
}

int plat_seal(platform *p, char *err, size_t errlen) {
  if (p->nzones == 0)
    return x_err(err, errlen, "the platform has no zone (expected a <zone> or <cluster>)");
  for (int i = 0; i < p->nzones; i++)
    if (p->zones[i]->ops->seal && p->zones[i]->ops->seal(p, p->zones[i], err, errlen) != 0)
      return -1;
  return 0;
}

/* ==================================================================== hosts, routers */
int plat_add_host(platform *p, int zone, const char *name, const double *speeds, int nspeeds,
                  int cores, char *err, size_t errlen) {
  int np = add_np(p, name, NP_HOST, zone, p->nhosts, err, errlen);
  if (np < 0)
    return -1;
  x_grow(&p->hosts, &p->chosts, (size_t)p->nhosts + 1, sizeof *p->hosts);
  x_grow(&p->host_np, &p->chost_np, (size_t)p->nhosts + 1, sizeof *p->host_np);
  plat_host *h = &p->hosts[p->nhosts];
  memset(h, 0, sizeof *h);
  h->name = p->nps[np].name;
  h->speeds = x_malloc((size_t)nspeeds * sizeof *h->speeds);
  memcpy(h->speeds, speeds, (size_t)nspeeds * sizeof *h->speeds);
  h->npstates = nspeeds;
  h->cores = cores;
  p->host_np[p->nhosts] = np;
  return p->nhosts++;
}

int plat_add_router(platform *p, int zone, const char *name, char *err, size_t errlen) {
  return add_np(p, name, NP_ROUTER, zone, -1, err, errlen);
}

void plat_host_set_prop(platform *p, int h, const char *key, const char *value) {
  plat_host *host = &p->hosts[h];
  for (int i = 0; i < host->nprops; i++)
    if (strcmp(host->props[i].key, key) == 0)
      return;
  host->props = x_realloc(host->props, (size_t)(host->nprops + 1) * sizeof *host->props);
  host->props[host->nprops++] = (plat_prop){x_strdup(key), x_strdup(value)};
}

void plat_add_config(platform *p, const char *key, const char *value) {
  for (int i = 0; i < p->nconfig; i++)
    if (strcmp(p->config[i].key, key) == 0)
      return;
  x_grow(&p->config, &p->cconfig, (size_t)p->nconfig + 1, sizeof *p->config);
  p->config[p->nconfig++] = (plat_prop){x_strdup(key), x_strdup(value)};
}

/* ==================================================================== links */
static int new_link(platform *p, const char *name, double bw, double lat, plat_sharing policy,
                    int model_loopback, char *err, size_t errlen) {
  if (plat_strmap_get(&p->link_by_name, name) >= 0)
    return x_err(err, errlen, "duplicate link id '%s'", name);
  x_grow(&p->links, &p->clinks, (size_t)p->nlinks + 1, sizeof *p->links);
  p->links[p->nlinks] = (plat_link){x_strdup(name), bw, lat, policy, model_loopback};
  plat_strmap_put(&p->link_by_name, p->links[p->nlinks].name, p->nlinks);
  return p->nlinks++;
}

int plat_add_link(platform *p, const char *name, double bw, double lat, plat_sharing policy,
                  char *err, size_t errlen) {
  if (strcmp(name, "__loopback__") == 0)
    return x_err(err, errlen, "the link id '__loopback__' is reserved for the model loopback");
  return new_link(p, name, bw, lat, policy, 0, err, errlen);
}

int plat_add_duplex(platform *p, const char *name, double bw, double lat, char *err,
                    size_t errlen) {
  if (plat_strmap_get(&p->duplex_by_name, name) >= 0)
    return x_err(err, errlen, "duplicate link id '%s'", name);
  char *up = x_asprintf("%s_UP", name), *down = x_asprintf("%s_DOWN", name);
  int u = plat_add_link(p, up, bw, lat, PLAT_SHARED, err, errlen);
  int d = u < 0 ? -1 : plat_add_link(p, down, bw, lat, PLAT_SHARED, err, errlen);
  free(up);
  free(down);
  if (d < 0)
    return -1;
  x_grow(&p->duplex, &p->cduplex, (size_t)p->nduplex + 1, sizeof *p->duplex);
  p->duplex[p->nduplex] = (plat_duplex){x_strdup(name), u, d};
  plat_strmap_put(&p->duplex_by_name, p->duplex[p->nduplex].name, p->nduplex);
  return p->nduplex++;
}

int plat_get_model_loopback(platform *p) {
  if (p->model_loopback < 0)
    p->model_loopback = new_link(p, "__loopback__", 10e9, 0.0, PLAT_FATPIPE, 1, NULL, 0);
  return p->model_loopback;
}

/* ==================================================================== queries */
int plat_host_count(const platform *p) { return p->nhosts; }

const plat_host *plat_host_at(const platform *p, int i) {
  return i >= 0 && i < p->nhosts ? &p->hosts[i] : NULL;
}

int plat_host_find(const platform *p, const char *name) {
  int np = plat_strmap_get(&p->np_by_name, name);
  return np >= 0 && p->nps[np].kind == NP_HOST ? p->nps[np].ref : -1;
}

const char *plat_host_prop(const platform *p, int i, const char *key) {
  if (i < 0 || i >= p->nhosts)
    return NULL;
  for (int k = 0; k < p->hosts[i].nprops; k++)
    if (strcmp(p->hosts[i].props[k].key, key) == 0)
      return p->hosts[i].props[k].value;
  return NULL;
}

int plat_link_count(const platform *p) { return p->nlinks; }

const plat_link *plat_link_at(const platform *p, int i) {
  return i >= 0 && i < p->nlinks ? &p->links[i] : NULL;
}

void plat_set_model_loopback(platform *p, double bandwidth, double latency) {
  for (int i = 0; i < p->nlinks; i++)
    if (p->links[i].model_loopback) {
      p->links[i].bandwidth = bandwidth;
      p->links[i].latency = latency;
    }
}

int plat_config_count(const platform *p) { return p->nconfig; }

void plat_config_at(const platform *p, int i, const char **key, const char **value) {
  *key = i >= 0 && i < p->nconfig ? p->config[i].key : NULL;
  *value = i >= 0 && i < p->nconfig ? p->config[i].value : NULL;
}

const char *plat_source(const platform *p) { return p->source; }

/* ==================================================================== freeing */
static void free_props(plat_prop *props, int n) {
  for (int i = 0; i < n; i++) {
    free(props[i].key);
    free(props[i].value);
  }
  free(props);
}

static void free_zones(platform *p) {
  for (int i = 0; i < p->nzones; i++) {
    plat_zone *z = p->zones[i];
    if (z->ops->free_impl)
      z->ops->free_impl(z->impl);
    else
      free(z->impl);
    free(z->vert);
    free(z);
  }
  free(p->zones);
}

void plat_free(platform *p) {
  if (!p)
    return;
  free_zones(p);
  for (int i = 0; i < p->nhosts; i++) {
    free(p->hosts[i].speeds);
    free_props(p->hosts[i].props, p->hosts[i].nprops);
  }
  for (int i = 0; i < p->nlinks; i++)
    free(p->links[i].name);
  for (int i = 0; i < p->nnps; i++)
    free(p->nps[i].name);
  for (int i = 0; i < p->nduplex; i++)
    free(p->duplex[i].name);
  free_props(p->config, p->nconfig);
  plat_strmap_free(&p->np_by_name);
  plat_strmap_free(&p->link_by_name);
  plat_strmap_free(&p->duplex_by_name);
  free(p->hosts);
  free(p->host_np);
  free(p->links);
  free(p->nps);
  free(p->duplex);
  free(p->source);
  free(p);
}
