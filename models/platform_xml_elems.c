/* platform_xml_elems.c - the platform elements: host, router, link, route, cluster, cabinet.
 *
 * Each handler reads and checks one element's attributes (SimGrid's defaults, units and
 * enumerations, from src/surf/xml/simgrid.dtd and surfxml_sax_cb.cpp), then calls the
 * builders of platform.c / platform_cluster.c; a builder's refusal is reported at the
 * element's position. Numbers that SimGrid reads with std::stoi are read strictly here
 * ("4x" is an error, not 4). Profiles (speed_file, bandwidth_file, ...) are refused:
 * tir does not model availability, and ignoring them would silently change the results. */
#include <ctype.h>
#include <errno.h>
#include <libxml/tree.h>
#include <stdlib.h>
#include <string.h>

#include "platform_impl.h"
#include "xalloc.h"

/* ==================================================================== small values */
/* An int as a whole string; with frac, "3.0"-like values too (SimGrid's stoi on pstate). */
static int parse_int(const char *s, int frac, long *out) {
  char *end;
  errno = 0;
  long v = strtol(s, &end, 10);
  if (end == s || errno || v > 1000000000L || v < -1000000000L)
    return -1;
  if (frac && *end == '.') {
    end++;
    while (isdigit((unsigned char)*end))
      end++;
  }
  if (*end)
    return -1;
  *out = v;
  return 0;
}

static int positive_int(xml_ctx *x, xmlNode *n, const char *s, const char *what, int *out) {
  long v;
  if (parse_int(s, 0, &v) != 0 || v < 1)
    return plat_xml_fail(x, n, "bad %s '%s' (expected a positive integer)", what, s);
  *out = (int)v;
  return 0;
}

/* "1Gf, 500Mf, ..." -> speeds (allocated), as xbt_parse_get_all_speeds (items trimmed). */
static int speed_list(xml_ctx *x, xmlNode *n, const char *s, const char *what, double **out,
                      int *count) {
  double *v = NULL;
  size_t cap = 0;
  int k = 0;
  for (const char *item = s;; k++) {
    size_t len = strcspn(item, ",");
    char *tok = x_asprintf("%.*s", (int)len, item), *t = tok;
    while (isspace((unsigned char)*t))
      t++;
    for (size_t e = strlen(t); e > 0 && isspace((unsigned char)t[e - 1]); e--)
      t[e - 1] = '\0';
    x_grow(&v, &cap, (size_t)k + 1, sizeof *v);
    int rc = plat_xml_unit(x, n, UNITS_SPEED, t, what, &v[k]);
    free(tok);
    if (rc != 0 || v[k] < 0) {
      free(v);
      return rc != 0 ? -1 : plat_xml_fail(x, n, "bad %s: '%s' is negative", what, s);
    }
    if (!item[len])
      break;
    item += len + 1;
  }
  *out = v;
  *count = k + 1;
  return 0;
}

static int no_profiles(xml_ctx *x, xmlNode *n, const xattrs *a, const char *const *names) {
  for (; *names; names++)
    if (*plat_xml_attr(a, *names, ""))
      return plat_xml_fail(x, n,
                           "attribute %s: tir does not model availability profiles (remove it, "
                           "or replay with SimGrid)",
                           *names);
  return 0;
}

/* SHARED, SPLITDUPLEX (or deprecated FULLDUPLEX), FATPIPE: -1 after plat_xml_fail. */
static int policy(xml_ctx *x, xmlNode *n, const char *attr, const char *v, int allow_split,
                  int *split, plat_sharing *pol) {
  *split = 0;
  *pol = PLAT_SHARED;
  if (!strcmp(v, "SHARED"))
    return 0;
  if (!strcmp(v, "FATPIPE")) {
    *pol = PLAT_FATPIPE;
    return 0;
  }
  if (allow_split && (!strcmp(v, "SPLITDUPLEX") || !strcmp(v, "FULLDUPLEX"))) {
    if (v[0] == 'F')
      plat_xml_warn(x, n, "FULLDUPLEX is deprecated: write SPLITDUPLEX");
    *split = 1;
    return 0;
  }
  if (!strcmp(v, "WIFI") && allow_split)
    return plat_xml_fail(x, n, "sharing_policy WIFI is not supported by tir");
  return plat_xml_fail(x, n, "invalid %s '%s' (expected SHARED, %sFATPIPE)", attr, v,
                       allow_split ? "SPLITDUPLEX or " : "");
}

/* ==================================================================== hosts, routers */
/* <prop> and <disk> children of a host (disks are not modelled: read and skipped). */
static int host_children(xml_ctx *x, xmlNode *n, int h) {
  xattrs a;
  for (xmlNode *c = plat_xml_next(n, NULL); c; c = plat_xml_next(n, c)) {
    const char *e = plat_xml_name(c);
    if (!strcmp(e, "prop")) {
      if (plat_xml_prop(x, c, &a) != 0)
        return -1;
      plat_host_set_prop(x->p, h, plat_xml_attr(&a, "id", ""), plat_xml_attr(&a, "value", ""));
    } else if (!strcmp(e, "disk")) {
      if (plat_xml_attrs(x, c, "id read_bw* write_bw*", &a) != 0)
        return -1;
    } else
      return plat_xml_fail(x, c, "unexpected <%s> in <host> (expected prop or disk)", e);
    plat_xml_attrs_free(&a);
  }
  return 0;
}

static int host_pstate(xml_ctx *x, xmlNode *n, const char *s, int npstates, int *out) {
  long v;
  if (parse_int(s, 1, &v) != 0 || v < 0 || v >= npstates)
    return plat_xml_fail(x, n,
                         "bad pstate '%s' (expected an integer from 0 to %d: the host has %d "
                         "speeds)",
                         s, npstates - 1, npstates);
  *out = (int)v;
  return 0;
}

int plat_xml_host(xml_ctx *x, xmlNode *n, int zone) {
  static const char *const files[] = {"speed_file", "availability_file", "state_file", NULL};
  xattrs a;
  double *speeds = NULL;
  int nspeeds = 0, cores = 1, pstate = 0, h = -1;
  char msg[512];
  if (plat_xml_attrs(x, n,
                     "id* speed* core speed_file availability_file state_file coordinates "
                     "pstate",
                     &a) != 0)
    return -1;
  char *what = x_asprintf("speed of host %s", plat_xml_attr(&a, "id", ""));
  if (no_profiles(x, n, &a, files) == 0 &&
      speed_list(x, n, plat_xml_attr(&a, "speed", ""), what, &speeds, &nspeeds) == 0 &&
      positive_int(x, n, plat_xml_attr(&a, "core", "1"), "core count", &cores) == 0 &&
      host_pstate(x, n, plat_xml_attr(&a, "pstate", "0.0"), nspeeds, &pstate) == 0) {
    h = plat_add_host(x->p, zone, plat_xml_attr(&a, "id", ""), speeds, nspeeds, cores, msg,
                      sizeof msg);
    if (h < 0)
      plat_xml_fail(x, n, "%s", msg);
  }
  free(what);
  free(speeds);
  plat_xml_attrs_free(&a);
  if (h < 0)
    return -1;
  x->p->hosts[h].pstate = pstate;
  return host_children(x, n, h);
}

int plat_xml_router(xml_ctx *x, xmlNode *n, int zone) {
  xattrs a;
  char msg[512];
  if (plat_xml_attrs(x, n, "id* coordinates", &a) != 0)
    return -1;
  int rc = plat_add_router(x->p, zone, plat_xml_attr(&a, "id", ""), msg, sizeof msg) < 0
               ? plat_xml_fail(x, n, "%s", msg)
               : 0;
  plat_xml_attrs_free(&a);
  if (rc == 0 && plat_xml_next(n, NULL))
    return plat_xml_fail(x, plat_xml_next(n, NULL), "<router> has no children");
  return rc;
}

/* ==================================================================== links */
static int link_props(xml_ctx *x, xmlNode *n) {
  xattrs a;
  for (xmlNode *c = plat_xml_next(n, NULL); c; c = plat_xml_next(n, c)) {
    if (strcmp(plat_xml_name(c), "prop") != 0)
      return plat_xml_fail(x, c, "unexpected <%s> in <%s> (expected prop)", plat_xml_name(c),
                           plat_xml_name(n));
    if (plat_xml_prop(x, c, &a) != 0)
      return -1;
    plat_xml_attrs_free(&a);
  }
  return 0;
}

/* The characteristics of a <link>: one bandwidth (no WIFI lists), latency, policy. */
static int link_values(xml_ctx *x, xmlNode *n, const xattrs *a, double *bw, double *lat, int *split,
                       plat_sharing *pol) {
  const char *id = plat_xml_attr(a, "id", ""), *b = plat_xml_attr(a, "bandwidth", "");
  char *what = x_asprintf("bandwidth of link %s", id);
  int rc = strpbrk(b, ";,") ? plat_xml_fail(x, n,
                                            "several bandwidths '%s' for link %s: only WIFI "
                                            "links have several",
                                            b, id)
                            : plat_xml_unit(x, n, UNITS_BANDWIDTH, b, what, bw);
  free(what);
  what = x_asprintf("latency of link %s", id);
  if (rc == 0 && !plat_xml_attr(a, "latency", NULL))
    plat_xml_warn(x, n,
                  "link %s has no latency: tir takes 0 (the DTD's default), SimGrid 3.32 "
                  "refuses the file",
                  id);
  if (rc == 0)
    rc = plat_xml_unit(x, n, UNITS_TIME, plat_xml_attr(a, "latency", "0"), what, lat);
  free(what);
  if (rc == 0 && (*bw <= 0 || *lat < 0))
    rc = plat_xml_fail(x, n, "link %s: the bandwidth must be > 0 and the latency >= 0", id);
  if (rc == 0)
    rc =
        policy(x, n, "sharing_policy", plat_xml_attr(a, "sharing_policy", "SHARED"), 1, split, pol);
  return rc;
}

int plat_xml_link(xml_ctx *x, xmlNode *n) {
  static const char *const files[] = {"bandwidth_file", "latency_file", "state_file", NULL};
  xattrs a;
  double bw = 0, lat = 0;
  int split = 0, rc;
  plat_sharing pol;
  char msg[512];
  if (plat_xml_attrs(x, n,
                     "id* bandwidth* bandwidth_file latency latency_file state_file "
                     "sharing_policy",
                     &a) != 0)
    return -1;
  rc = no_profiles(x, n, &a, files);
  if (rc == 0)
    rc = link_values(x, n, &a, &bw, &lat, &split, &pol);
  if (rc == 0) {
    const char *id = plat_xml_attr(&a, "id", "");
    int l = split ? plat_add_duplex(x->p, id, bw, lat, msg, sizeof msg)
                  : plat_add_link(x->p, id, bw, lat, pol, msg, sizeof msg);
    rc = l < 0 ? plat_xml_fail(x, n, "%s", msg) : 0;
  }
  plat_xml_attrs_free(&a);
  return rc == 0 ? link_props(x, n) : -1;
}

int plat_xml_backbone(xml_ctx *x, xmlNode *n, int *link) {
  xattrs a;
  double bw = 0, lat = 0;
  char msg[512];
  if (plat_xml_attrs(x, n, "id* bandwidth* latency*", &a) != 0)
    return -1;
  char *bw_what = x_asprintf("bandwidth of backbone %s", plat_xml_attr(&a, "id", ""));
  char *lat_what = x_asprintf("latency of backbone %s", plat_xml_attr(&a, "id", ""));
  int rc = plat_xml_unit(x, n, UNITS_BANDWIDTH, plat_xml_attr(&a, "bandwidth", ""), bw_what, &bw);
  if (rc == 0)
    rc = plat_xml_unit(x, n, UNITS_TIME, plat_xml_attr(&a, "latency", ""), lat_what, &lat);
  if (rc == 0 && (bw <= 0 || lat < 0))
    rc = plat_xml_fail(x, n, "backbone: the bandwidth must be > 0 and the latency >= 0");
  if (rc == 0 && (*link = plat_add_link(x->p, plat_xml_attr(&a, "id", ""), bw, lat, PLAT_SHARED,
                                        msg, sizeof msg)) < 0)
    rc = plat_xml_fail(x, n, "%s", msg);
  free(bw_what);
  free(lat_what);
  plat_xml_attrs_free(&a);
  return rc;
}

/* ==================================================================== routes */
/* <link_ctn id direction>: the hop (link forward, link in the generated reverse). */
static int link_ctn(xml_ctx *x, xmlNode *n, plat_hop *hop) {
  xattrs a;
  if (plat_xml_attrs(x, n, "id* direction", &a) != 0)
    return -1;
  const char *id = plat_xml_attr(&a, "id", ""), *dir = plat_xml_attr(&a, "direction", "NONE");
  int rc = 0, l, d;
  if (strcmp(dir, "NONE") == 0) {
    l = strcmp(id, "__loopback__") == 0 ? plat_get_model_loopback(x->p)
                                        : plat_strmap_get(&x->p->link_by_name, id);
    if (l >= 0)
      *hop = (plat_hop){l, l};
    else if (plat_strmap_get(&x->p->duplex_by_name, id) >= 0)
      rc = plat_xml_fail(x, n, "link '%s' is SPLITDUPLEX: give direction=\"UP\" or \"DOWN\"", id);
    else
      rc = plat_xml_fail(x, n, "no such link: '%s'", id);
  } else if (strcmp(dir, "UP") == 0 || strcmp(dir, "DOWN") == 0) {
    if ((d = plat_strmap_get(&x->p->duplex_by_name, id)) >= 0)
      *hop = dir[0] == 'U' ? (plat_hop){x->p->duplex[d].up, x->p->duplex[d].down}
                           : (plat_hop){x->p->duplex[d].down, x->p->duplex[d].up};
    else
      rc = plat_xml_fail(x, n, "no such SPLITDUPLEX link: '%s' (%s)%s", id,
                         dir[0] == 'U' ? "upward" : "downward",
                         plat_strmap_get(&x->p->link_by_name, id) >= 0
                             ? "; a direction is only for SPLITDUPLEX links"
                             : "");
  } else
    rc = plat_xml_fail(x, n, "invalid direction '%s' (expected UP, DOWN or NONE)", dir);
  plat_xml_attrs_free(&a);
  return rc;
}

static int route_hops(xml_ctx *x, xmlNode *n, plat_hop **hops, int *nhops) {
  size_t cap = 0;
  *hops = NULL;
  *nhops = 0;
  for (xmlNode *c = plat_xml_next(n, NULL); c; c = plat_xml_next(n, c)) {
    if (strcmp(plat_xml_name(c), "link_ctn") != 0)
      return plat_xml_fail(x, c, "unexpected <%s> in <%s> (expected link_ctn)", plat_xml_name(c),
                           plat_xml_name(n));
    x_grow(hops, &cap, (size_t)*nhops + 1, sizeof **hops);
    if (link_ctn(x, c, &(*hops)[*nhops]) != 0)
      return -1;
    (*nhops)++;
  }
  return 0;
}

static int netpoint(xml_ctx *x, xmlNode *n, const xattrs *a, const char *attr, int *np) {
  const char *name = plat_xml_attr(a, attr, "");
  if ((*np = plat_np_find(x->p, name)) < 0)
    return plat_xml_fail(x, n, "%s '%s' does not name a host, router or zone", attr, name);
  return 0;
}

static int symmetrical(xml_ctx *x, xmlNode *n, const char *v, int *out) {
  if (!strcmp(v, "YES") || !strcmp(v, "yes"))
    *out = 1;
  else if (!strcmp(v, "NO") || !strcmp(v, "no"))
    *out = 0;
  else
    return plat_xml_fail(x, n, "invalid symmetrical '%s' (expected YES or NO)", v);
  return 0;
}

static int route_decl(xml_ctx *x, xmlNode *n, const xattrs *a, int gateways, plat_route_decl *d) {
  d->gw_src = d->gw_dst = -1;
  if (netpoint(x, n, a, "src", &d->src) || netpoint(x, n, a, "dst", &d->dst))
    return -1;
  if (gateways &&
      (netpoint(x, n, a, "gw_src", &d->gw_src) || netpoint(x, n, a, "gw_dst", &d->gw_dst)))
    return -1;
  return symmetrical(x, n, plat_xml_attr(a, "symmetrical", "YES"), &d->symmetrical);
}

int plat_xml_route(xml_ctx *x, xmlNode *n, int zone, int gateways) {
  xattrs a;
  plat_route_decl d;
  plat_hop *hops = NULL;
  char msg[768];
  if (plat_xml_attrs(x, n,
                     gateways ? "src* dst* gw_src* gw_dst* symmetrical" : "src* dst* symmetrical",
                     &a) != 0)
    return -1;
  int rc = route_decl(x, n, &a, gateways, &d);
  plat_xml_attrs_free(&a);
  if (rc == 0)
    rc = route_hops(x, n, &hops, &d.nhops);
  d.hops = hops;
  plat_zone *z = x->p->zones[zone];
  if (rc == 0 && !z->ops->add_route)
    rc = plat_xml_fail(x, n, "zone '%s' (routing %s) accepts no route", z->name, z->ops->name);
  else if (rc == 0 && z->ops->add_route(x->p, z, &d, msg, sizeof msg) != 0)
    rc = plat_xml_fail(x, n, "%s", msg);
  free(hops);
  return rc;
}

/* ==================================================================== clusters */
/* "0-3,7,9-10" -> radicals (allocated), as SimGrid's explodesRadical. */
static int radicals(xml_ctx *x, xmlNode *n, const char *s, int **out, int *count) {
  size_t cap = 0;
  *out = NULL;
  *count = 0;
  for (const char *g = s;;) {
    size_t len = strcspn(g, ",");
    char *group = x_asprintf("%.*s", (int)len, g), *dash = strchr(group, '-');
    long lo, hi;
    if (dash)
      *dash = '\0';
    int bad = parse_int(group, 0, &lo) != 0 || (dash && parse_int(dash + 1, 0, &hi) != 0) ||
              (dash && strchr(dash + 1, '-'));
    if (!dash)
      hi = lo;
    free(group);
    if (bad || lo < 0 || hi - lo > 10000000L)
      return plat_xml_fail(x, n,
                           "malformed radical '%.*s' in '%s' (expected e.g. 0-99 or 0-3,7,9-10)",
                           (int)len, g, s);
    if (hi < lo)
      return plat_xml_fail(x, n, "radical '%.*s' in '%s' ends before it starts (expected LOW-HIGH with "
                           "LOW <= HIGH)", (int)len, g, s);
    if (*count + (hi - lo) >= 10000000L)
      return plat_xml_fail(x, n, "radical '%s' names more than 10000000 nodes", s);
    for (long i = lo; i <= hi; i++) {
      x_grow(out, &cap, (size_t)*count + 1, sizeof **out);
      (*out)[(*count)++] = (int)i;
    }
    if (!g[len])
      return 0;
    g += len + 1;
  }
}

static int topology(xml_ctx *x, xmlNode *n, const char *v, plat_topology *t) {
  static const char *const names[] = {"FLAT", "TORUS", "FAT_TREE", "DRAGONFLY"};
  for (int i = 0; i < 4; i++)
    if (strcmp(v, names[i]) == 0) {
      *t = (plat_topology)i;
      return 0;
    }
  return plat_xml_fail(x, n, "invalid topology '%s' (expected FLAT, TORUS, FAT_TREE or DRAGONFLY)",
                       v);
}

/* An optional value with unit: "" leaves *out at 0. */
static int opt_unit(xml_ctx *x, xmlNode *n, const xattrs *a, const char *attr, units_kind kind,
                    double *out) {
  const char *v = plat_xml_attr(a, attr, "");
  *out = 0;
  if (!*v)
    return 0;
  char *what = x_asprintf("%s of cluster %s", attr, plat_xml_attr(a, "id", ""));
  int rc = plat_xml_unit(x, n, kind, v, what, out);
  free(what);
  if (rc == 0 && *out < 0)
    rc = plat_xml_fail(x, n, "%s of cluster %s must not be negative", attr,
                       plat_xml_attr(a, "id", ""));
  return rc;
}

static int cluster_values(xml_ctx *x, xmlNode *n, const xattrs *a, plat_cluster *c) {
  int bbsplit;
  if (opt_unit(x, n, a, "bw", UNITS_BANDWIDTH, &c->bw) ||
      opt_unit(x, n, a, "lat", UNITS_TIME, &c->lat) ||
      opt_unit(x, n, a, "bb_bw", UNITS_BANDWIDTH, &c->bb_bw) ||
      opt_unit(x, n, a, "bb_lat", UNITS_TIME, &c->bb_lat) ||
      opt_unit(x, n, a, "limiter_link", UNITS_BANDWIDTH, &c->limiter) ||
      opt_unit(x, n, a, "loopback_bw", UNITS_BANDWIDTH, &c->loopback_bw) ||
      opt_unit(x, n, a, "loopback_lat", UNITS_TIME, &c->loopback_lat))
    return -1;
  if (policy(x, n, "sharing_policy", plat_xml_attr(a, "sharing_policy", "SPLITDUPLEX"), 1,
             &c->split, &c->policy) ||
      policy(x, n, "bb_sharing_policy", plat_xml_attr(a, "bb_sharing_policy", "SHARED"), 0,
             &bbsplit, &c->bb_policy) ||
      topology(x, n, plat_xml_attr(a, "topology", "FLAT"), &c->topology))
    return -1;
  if (c->bw <= 0)
    return plat_xml_fail(x, n, "the bw of cluster %s must be > 0", c->id);
  return positive_int(x, n, plat_xml_attr(a, "core", "1"), "core count", &c->cores);
}

/* The cluster's <prop> children, in document order (first value of a key kept). */
static int cluster_props(xml_ctx *x, xmlNode *n, plat_prop **props, int *nprops) {
  xattrs a;
  *props = NULL;
  *nprops = 0;
  for (xmlNode *c = plat_xml_next(n, NULL); c; c = plat_xml_next(n, c)) {
    if (strcmp(plat_xml_name(c), "prop") != 0)
      return plat_xml_fail(x, c, "unexpected <%s> in <cluster> (expected prop)", plat_xml_name(c));
    if (plat_xml_prop(x, c, &a) != 0)
      return -1;
    *props = x_realloc(*props, (size_t)(*nprops + 1) * sizeof **props);
    (*props)[(*nprops)++] = (plat_prop){x_strdup(plat_xml_attr(&a, "id", "")),
                                        x_strdup(plat_xml_attr(&a, "value", ""))};
    plat_xml_attrs_free(&a);
  }
  return 0;
}

static void free_cluster(plat_cluster *c) {
  for (int i = 0; i < c->nprops; i++) {
    free(c->props[i].key);
    free(c->props[i].value);
  }
  free((void *)c->props);
  free((void *)c->radicals);
  free((void *)c->speeds);
}

#define CLUSTER_ATTRS                                                                              \
  "id* prefix* suffix* radical* speed* core bw* lat* sharing_policy topology topo_parameters "     \
  "bb_bw bb_lat bb_sharing_policy router_id limiter_link loopback_bw loopback_lat"

int plat_xml_cluster(xml_ctx *x, xmlNode *n, int parent) {
  xattrs a;
  plat_cluster c = {0};
  plat_prop *props = NULL;
  int *rad = NULL, rc;
  double *speeds = NULL;
  char msg[768];
  if (plat_xml_attrs(x, n, CLUSTER_ATTRS, &a) != 0)
    return -1;
  c.id = plat_xml_attr(&a, "id", "");
  c.prefix = plat_xml_attr(&a, "prefix", "");
  c.suffix = plat_xml_attr(&a, "suffix", "");
  c.router_id = plat_xml_attr(&a, "router_id", "");
  c.topo_parameters = plat_xml_attr(&a, "topo_parameters", "");
  char *what = x_asprintf("speed of cluster %s", c.id);
  rc = radicals(x, n, plat_xml_attr(&a, "radical", ""), &rad, &c.nradicals);
  c.radicals = rad;
  if (rc == 0 &&
      (rc = speed_list(x, n, plat_xml_attr(&a, "speed", ""), what, &speeds, &c.nspeeds)) == 0)
    c.speeds = speeds;
  if (rc == 0 && (rc = cluster_values(x, n, &a, &c)) == 0)
    rc = cluster_props(x, n, &props, &c.nprops);
  c.props = props;
  if (rc == 0 && plat_cluster_build(x->p, parent, &c, msg, sizeof msg) < 0)
    rc = plat_xml_fail(x, n, "%s", msg);
  free(what);
  free_cluster(&c);
  plat_xml_attrs_free(&a);
  return rc;
}

/* ==================================================================== Cluster zones */
int plat_xml_host_link(xml_ctx *x, xmlNode *n, int zone, int backbone) {
  xattrs a;
  char msg[512];
  if (plat_xml_attrs(x, n, "id* up* down*", &a) != 0)
    return -1;
  int h = plat_host_find(x->p, plat_xml_attr(&a, "id", ""));
  int up = plat_strmap_get(&x->p->link_by_name, plat_xml_attr(&a, "up", ""));
  int down = plat_strmap_get(&x->p->link_by_name, plat_xml_attr(&a, "down", ""));
  int rc = h < 0      ? plat_xml_fail(x, n, "host '%s' not found", plat_xml_attr(&a, "id", ""))
           : up < 0   ? plat_xml_fail(x, n, "link '%s' not found", plat_xml_attr(&a, "up", ""))
           : down < 0 ? plat_xml_fail(x, n, "link '%s' not found", plat_xml_attr(&a, "down", ""))
                      : 0;
  if (rc == 0 && plat_star_host_link(x->p, x->p->zones[zone], x->p->host_np[h], up, down, backbone,
                                     msg, sizeof msg) != 0)
    rc = plat_xml_fail(x, n, "%s", msg);
  plat_xml_attrs_free(&a);
  return rc;
}

static int cabinet_values(xml_ctx *x, xmlNode *n, const xattrs *a, double v[3]) {
  const char *id = plat_xml_attr(a, "id", "");
  char *w[3] = {x_asprintf("speed of cabinet %s", id), x_asprintf("bw of cabinet %s", id),
                x_asprintf("lat of cabinet %s", id)};
  int rc = plat_xml_unit(x, n, UNITS_SPEED, plat_xml_attr(a, "speed", ""), w[0], &v[0]) ||
           plat_xml_unit(x, n, UNITS_BANDWIDTH, plat_xml_attr(a, "bw", ""), w[1], &v[1]) ||
           plat_xml_unit(x, n, UNITS_TIME, plat_xml_attr(a, "lat", ""), w[2], &v[2]);
  for (int i = 0; i < 3; i++)
    free(w[i]);
  if (rc == 0 && (v[0] < 0 || v[1] <= 0 || v[2] < 0))
    return plat_xml_fail(x, n, "cabinet %s: the speed must be >= 0, the bw > 0, the lat >= 0", id);
  return rc ? -1 : 0;
}

int plat_xml_cabinet(xml_ctx *x, xmlNode *n, int zone, int backbone) {
  xattrs a;
  double v[3];
  int *rad = NULL, nrad = 0, rc;
  char msg[512];
  if (plat_xml_attrs(x, n, "id* prefix* suffix* radical* speed* bw* lat*", &a) != 0)
    return -1;
  rc = cabinet_values(x, n, &a, v);
  if (rc == 0)
    rc = radicals(x, n, plat_xml_attr(&a, "radical", ""), &rad, &nrad);
  for (int i = 0; rc == 0 && i < nrad; i++) {
    char *name = x_asprintf("%s%d%s", plat_xml_attr(&a, "prefix", ""), rad[i],
                            plat_xml_attr(&a, "suffix", ""));
    if (plat_star_cabinet_host(x->p, zone, name, v[0], v[1], v[2], backbone, msg, sizeof msg) != 0)
      rc = plat_xml_fail(x, n, "%s", msg);
    free(name);
  }
  free(rad);
  plat_xml_attrs_free(&a);
  return rc;
}
