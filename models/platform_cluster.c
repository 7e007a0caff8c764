/* platform_cluster.c - <cluster>: dispatch on the topology, and the parts all topologies share.
 *
 * SimGrid builds a cluster as a zone of its own (sg_platf_new_tag_cluster): FLAT gives a
 * star zone (routing_star.c), TORUS, FAT_TREE and DRAGONFLY their own routing
 * (routing_torus.c, routing_fattree.c, routing_dragonfly.c). Shared conventions, from
 * src/surf/sg_platf.cpp: host i is prefix + radicals[i] + suffix and gets the cluster's
 * speeds, cores and props; a per-node loopback is "<id>_link_<radical>_loopback"
 * (FATPIPE), a limiter "<id>_link_<n>_limiter" (SHARED, latency 0) where n is the node's
 * position (or a switch/router number); the cables of a topology are plain links named by
 * the topology, "_UP"/"_DOWN" pairs when the policy is SPLITDUPLEX and otherwise a single
 * SHARED link (SimGrid never applies FATPIPE to them). */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "platform_impl.h"
#include "xalloc.h"

int plat_cluster_build(platform *p, int parent, const plat_cluster *c, char *err, size_t errlen) {
  switch (c->topology) {
  case TOPO_TORUS:
    return plat_torus_build(p, parent, c, err, errlen);
  case TOPO_FAT_TREE:
    return plat_fattree_build(p, parent, c, err, errlen);
  case TOPO_DRAGONFLY:
    return plat_dragonfly_build(p, parent, c, err, errlen);
  default:
    return plat_star_build_flat(p, parent, c, err, errlen);
  }
}

int plat_cluster_host(platform *p, int zone, const plat_cluster *c, int position, char *err,
                      size_t errlen) {
  if (position >= c->nradicals)
    return x_err(err, errlen,
                 "cluster '%s': cannot create host number %d, the radical gives "
                 "only %d (check the 'radical' attribute)",
                 c->id, position, c->nradicals);
  char *name = x_asprintf("%s%d%s", c->prefix, c->radicals[position], c->suffix);
  int h = plat_add_host(p, zone, name, c->speeds, c->nspeeds, c->cores, err, errlen);
  free(name);
  for (int i = 0; h >= 0 && i < c->nprops; i++)
    plat_host_set_prop(p, h, c->props[i].key, c->props[i].value);
  return h;
}

int plat_cluster_loopback(platform *p, const plat_cluster *c, int position, char *err,
                          size_t errlen) {
  char *name = x_asprintf("%s_link_%d_loopback", c->id, c->radicals[position]);
  int l = plat_add_link(p, name, c->loopback_bw, c->loopback_lat, PLAT_FATPIPE, err, errlen);
  free(name);
  return l;
}

int plat_cluster_limiter(platform *p, const plat_cluster *c, unsigned long id, char *err,
                         size_t errlen) {
  char *name = x_asprintf("%s_link_%lu_limiter", c->id, id);
  int l = plat_add_link(p, name, c->limiter, 0.0, PLAT_SHARED, err, errlen);
  free(name);
  return l;
}

int plat_cluster_cable(platform *p, const plat_cluster *c, const char *name, double bw, int ends[2],
                       char *err, size_t errlen) {
  if (!c->split) {
    ends[0] = ends[1] = plat_add_link(p, name, bw, c->lat, PLAT_SHARED, err, errlen);
    return ends[0] < 0 ? -1 : 0;
  }
  char *up = x_asprintf("%s_UP", name), *down = x_asprintf("%s_DOWN", name);
  ends[0] = plat_add_link(p, up, bw, c->lat, PLAT_SHARED, err, errlen);
  ends[1] = ends[0] < 0 ? -1 : plat_add_link(p, down, bw, c->lat, PLAT_SHARED, err, errlen);
  free(up);
  free(down);
  return ends[1] < 0 ? -1 : 0;
}

/* One positive integer of a topology description, whole token. */
static int parse_uint(const char *s, size_t len, unsigned *out) {
  char buf[32];
  while (len > 0 && isspace((unsigned char)*s)) {
    s++;
    len--;
  }
  if (len == 0 || len >= sizeof buf || !isdigit((unsigned char)*s))
    return -1;
  memcpy(buf, s, len);
  buf[len] = '\0';
  char *end;
  errno = 0;
  unsigned long v = strtoul(buf, &end, 10);
  if (*end || errno || v == 0 || v > 1000000UL)
    return -1;
  *out = (unsigned)v;
  return 0;
}

int plat_cluster_parse_uints(const char *s, char sep, unsigned *out, int max, const char *what,
                             char *err, size_t errlen) {
  int n = 0;
  for (const char *tok = s;; n++) {
    const char *end = strchr(tok, sep);
    size_t len = end ? (size_t)(end - tok) : strlen(tok);
    if (n >= max)
      return x_err(err, errlen, "too many values in %s '%s' (at most %d)", what, s, max);
    if (parse_uint(tok, len, &out[n]) != 0)
      return x_err(err, errlen, "invalid %s '%s': '%.*s' is not a positive integer", what, s,
                   (int)len, tok);
    if (!end)
      return n + 1;
    tok = end + 1;
  }
}

int plat_cluster_split(char *s, char sep, char **parts, int n) {
  int k = 0;
  parts[k++] = s;
  for (char *c = s; *c; c++)
    if (*c == sep) {
      if (k == n)
        return -1;
      *c = '\0';
      parts[k++] = c + 1;
    }
  return k == n ? 0 : -1;
}
