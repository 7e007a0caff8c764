/* platform_impl.h - the inside of a platform: netpoints, zones and their routers.
 *
 * This mirrors SimGrid's routing model (src/kernel/routing/ at v3.32), because routes
 * must come out link for link as SimGrid's do:
 *  - a *netpoint* is a host, a router or a zone; all share one name space. Every
 *    netpoint but the root zone's lives in an englobing zone, where it has a *local id*:
 *    its rank among the zone's vertices in creation order (SimGrid's NetPoint::id; Floyd
 *    breaks ties by it, clusters index their nodes by it);
 *  - a *zone* has a routing (zone_ops: Full, Floyd, Dijkstra, Star for clusters, Torus,
 *    FatTree, Dragonfly, None), a parent, and is either a leaf (hosts and routers) or
 *    recursive (sub-zones, joined by zoneRoutes between gateways);
 *  - a zone's local_route adds the links between two of its vertices to a plat_route
 *    (appended; a Dijkstra zone inserts them at the start of the route being built, as
 *    SimGrid does), adds their latencies in SimGrid's order, and names the gateways when
 *    the vertices are sub-zones; platform_route.c turns that into host-to-host routes
 *    (NetZoneImpl::get_global_route).
 * A route declared in XML is a list of hops; a hop knows the link used going forward
 * and the one used in the generated reverse route (the two sides of a split-duplex
 * link swap there; any other link is the same both ways).
 *
 * Invariants once plat_load() returns: every zone is sealed, every host's englobing zone
 * is a leaf, link and netpoint names are unique. Nothing is N x N except Floyd tables
 * (SimGrid's too) and the per-source caches of Dijkstra zones. */
#ifndef TIR_PLATFORM_IMPL_H
#define TIR_PLATFORM_IMPL_H

#include <stdint.h>

#include "platform.h"
#include "units.h"

/* ====================================================================================
 * Hash maps (platform_hash.c): open addressing, keys not owned, values >= 0.
 * ==================================================================================== */
typedef struct strmap {
  const char **keys; /* NULL = empty slot */
  int *vals;         /* value of each slot */
  size_t cap, n;     /* slots (a power of two, or 0), used slots */
} strmap;

int plat_strmap_get(const strmap *m, const char *key); /* value, or -1 if absent */
/* Inserts key -> val unless key is present; returns the existing value, or -1. */
int plat_strmap_put(strmap *m, const char *key, int val);
void plat_strmap_free(strmap *m);

typedef struct u64map {
  uint64_t *keys; /* key + 1 (0 = empty slot) */
  int *vals;      /* value of each slot */
  size_t cap, n;  /* slots (a power of two, or 0), used slots */
} u64map;

int plat_u64map_get(const u64map *m, uint64_t key);
int plat_u64map_put(u64map *m, uint64_t key, int val);
void plat_u64map_free(u64map *m);

/* Key of an ordered pair of netpoints. */
static inline uint64_t np_pair(int a, int b) { return ((uint64_t)(uint32_t)a << 32) | (uint32_t)b; }

/* ====================================================================================
 * Netpoints, hops, declared routes
 * ==================================================================================== */
typedef enum { NP_HOST, NP_ROUTER, NP_ZONE } np_kind;

typedef struct plat_np {
  char *name;   /* owned; plat_host.name and plat_zone.name point here */
  np_kind kind; /* host, router or zone */
  int zone;     /* englobing zone; -1 for the root zone's netpoint */
  int local;    /* rank among the englobing zone's vertices (SimGrid's NetPoint::id) */
  int ref;      /* host index (NP_HOST), zone index (NP_ZONE), -1 (NP_ROUTER) */
} plat_np;

typedef struct plat_hop {
  int fwd;  /* link id used when the route is followed as declared */
  int back; /* link id used in the generated reverse of a symmetrical route */
} plat_hop;

/* A route as <route>/<zoneRoute> declares it, resolved to netpoints and links. */
typedef struct plat_route_decl {
  int src, dst;       /* netpoints of the zone (sub-zones for a zoneRoute) */
  int gw_src, gw_dst; /* gateways of a zoneRoute, -1 for a plain route */
  const plat_hop *hops;
  int nhops;
  int symmetrical; /* also declare the reverse route */
} plat_route_decl;

/* ====================================================================================
 * Zones and their routing backends
 * ==================================================================================== */
typedef struct plat_zone plat_zone;

typedef struct zone_ops {
  const char *name; /* routing name, as in <zone routing="..."> */
  /* Adds a declared route; -1 with a message (no position) if the zone refuses it.
   * NULL: the zone accepts no route. */
  int (*add_route)(platform *p, plat_zone *z, const plat_route_decl *d, char *err, size_t errlen);
  /* Called once, after the whole document was read (NULL: nothing to do). */
  int (*seal)(platform *p, plat_zone *z, char *err, size_t errlen);
  /* Adds the route between vertices src and dst (netpoints of z) to r and sets gw[0],
   * gw[1] to the gateways (-1 if none). -1 with a message when there is none. The route
   * being built starts at r->links[base]: most zones append to it, Dijkstra zones insert
   * at its start (SimGrid's insert_link_latency). */
  int (*local_route)(const platform *p, const plat_zone *z, int src, int dst, plat_route *r,
                     size_t base, int gw[2], char *err, size_t errlen);
  void (*free_impl)(void *impl); /* NULL: free() */
} zone_ops;

struct plat_zone {
  char *name;          /* its netpoint's name */
  const zone_ops *ops; /* routing backend */
  int parent;          /* zone index, -1 for the root */
  int np;              /* its netpoint */
  int depth;           /* 0 for the root */
  int *vert;           /* netpoints by local id */
  int nvert;
  size_t cvert;
  int nchildren; /* sub-zones: > 0 means recursive routing (gateways) */
  void *impl;    /* backend data */
};

extern const zone_ops plat_zone_full_ops, plat_zone_floyd_ops, plat_zone_dijkstra_ops,
    plat_zone_star_ops, plat_zone_none_ops, plat_zone_torus_ops, plat_zone_fattree_ops,
    plat_zone_dragonfly_ops;

/* ====================================================================================
 * The platform
 * ==================================================================================== */
typedef struct plat_duplex {
  char *name;   /* the XML id, without _UP/_DOWN */
  int up, down; /* link ids of ID_UP and ID_DOWN */
} plat_duplex;

struct platform {
  char *source;     /* file name, or "<built-in>" */
  plat_host *hosts; /* in creation order */
  int *host_np;     /* netpoint of each host */
  int nhosts;
  size_t chosts, chost_np;
  plat_link *links; /* in creation order */
  int nlinks;
  size_t clinks;
  plat_prop *config; /* <config> props, document order, first value of a key kept */
  int nconfig;
  size_t cconfig;
  plat_np *nps; /* netpoints, in creation order */
  int nnps;
  size_t cnps;
  plat_zone **zones; /* zone 0 is the root */
  int nzones;
  size_t czones;
  plat_duplex *duplex; /* split-duplex links */
  int nduplex;
  size_t cduplex;
  strmap np_by_name;     /* netpoint names -> netpoint */
  strmap link_by_name;   /* link names -> link id */
  strmap duplex_by_name; /* split-duplex names (without _UP/_DOWN) -> duplex index */
  int model_loopback;    /* link id of "__loopback__", -1 until a zone needs it */
  int fattree_position;  /* SimGrid's process-wide counters (static variables of */
  int fattree_link_uid;  /* FatTreeZone.cpp and DragonflyZone.cpp): they continue from */
  int dragonfly_uid;     /* one cluster to the next and end up in link names */
};

/* ---- building (platform.c); every function returns -1 with a message on error ---- */
platform *plat_new(const char *source);
/* A zone named name under parent (-1: root). Returns its index. */
int plat_add_zone(platform *p, const char *name, const zone_ops *ops, int parent, char *err,
                  size_t errlen);
/* Returns the host index. speeds (nspeeds >= 1) are copied. */
int plat_add_host(platform *p, int zone, const char *name, const double *speeds, int nspeeds,
                  int cores, char *err, size_t errlen);
int plat_add_router(platform *p, int zone, const char *name, char *err, size_t errlen);
/* Returns the link id. */
int plat_add_link(platform *p, const char *name, double bw, double lat, plat_sharing policy,
                  char *err, size_t errlen);
/* Creates name_UP and name_DOWN (SHARED); returns the duplex index. */
int plat_add_duplex(platform *p, const char *name, double bw, double lat, char *err, size_t errlen);
/* Adds key=value to host h unless h already has key (SimGrid keeps the first). */
void plat_host_set_prop(platform *p, int h, const char *key, const char *value);
void plat_add_config(platform *p, const char *key, const char *value);
int plat_get_model_loopback(platform *p);              /* creates "__loopback__" on first use */
int plat_np_find(const platform *p, const char *name); /* -1 if none */
/* 1 if netpoint np is zone z or lies (recursively) inside it. */
int plat_np_in_zone(const platform *p, int np, int z);
int plat_seal(platform *p, char *err, size_t errlen);

/* ---- routes (platform_route.c) ---- */
void plat_route_push(const platform *p, plat_route *r, int link);
/* Appends links[0..n) (n may be 0). */
void plat_route_append(const platform *p, plat_route *r, const int *links, int n);
/* Moves r->links[from..n) to position base (rotation of r->links[base..n)). */
void plat_route_move_front(plat_route *r, size_t base, size_t from);
/* SimGrid's get_global_route between two netpoints, into the route that starts at
 * r->links[base] (0 for a host-to-host route). */
int plat_route_np(const platform *p, int src, int dst, plat_route *r, size_t base, char *err,
                  size_t errlen);

/* ---- stored routes of Full/Floyd/Dijkstra zones (routing_table.c) ---- */
typedef struct stored_route {
  int *links; /* owned */
  int n;
  int gw_src, gw_dst; /* -1 unless recursive */
} stored_route;

typedef struct route_table {
  stored_route *routes;
  int n;
  size_t cap;
  u64map by_pair; /* np_pair(src, dst) -> index in routes */
} route_table;

/* Stores the route src->dst: links in hop order (fwd) or, for the generated reverse,
 * reversed back links. Returns its index, or -1 if the pair already has one. */
int plat_rtable_add(route_table *t, int src, int dst, int gw_src, int gw_dst, const plat_hop *hops,
                    int nhops, int reverse);
const stored_route *plat_rtable_get(const route_table *t, int src, int dst); /* NULL if none */
void plat_rtable_free(route_table *t);
/* Checks a declared route as RoutedZone::add_route_check_params does. */
int plat_rtable_check_decl(const platform *p, const plat_zone *z, const plat_route_decl *d,
                           char *err, size_t errlen);

/* ---- clusters (platform_cluster.c and the routing_* files) ---- */
typedef enum { TOPO_FLAT, TOPO_TORUS, TOPO_FAT_TREE, TOPO_DRAGONFLY } plat_topology;

typedef struct plat_cluster {
  const char *id, *prefix, *suffix;
  const char *router_id; /* "" for the default name */
  const int *radicals;   /* host i is prefix radicals[i] suffix */
  int nradicals;
  const double *speeds; /* per pstate */
  int nspeeds, cores;
  double bw, lat; /* private links and cables */
  int split;      /* sharing_policy SPLITDUPLEX (else policy) */
  plat_sharing policy;
  double bb_bw, bb_lat; /* backbone iff bb_bw > 0 or bb_lat > 0 (flat only) */
  plat_sharing bb_policy;
  double limiter;                   /* limiter_link bandwidth, 0 = none */
  double loopback_bw, loopback_lat; /* loopback iff either > 0 */
  plat_topology topology;
  const char *topo_parameters;
  const plat_prop *props; /* copied to every host */
  int nprops;
} plat_cluster;

/* Builds the cluster as a zone under parent (-1: root). Returns the zone index. */
int plat_cluster_build(platform *p, int parent, const plat_cluster *c, char *err, size_t errlen);
/* Helpers for the topology builders. */
int plat_cluster_host(platform *p, int zone, const plat_cluster *c, int position, char *err,
                      size_t errlen);
int plat_cluster_loopback(platform *p, const plat_cluster *c, int position, char *err,
                          size_t errlen);
int plat_cluster_limiter(platform *p, const plat_cluster *c, unsigned long id, char *err,
                         size_t errlen);
/* A cable of the topology: name_UP/name_DOWN when split, else one link both ways. */
int plat_cluster_cable(platform *p, const plat_cluster *c, const char *name, double bw, int ends[2],
                       char *err, size_t errlen);
/* Parses "a<sep>b<sep>..." into at most max unsigned values (> 0 if positive). Returns the
 * count, or -1 with a message naming what. */
int plat_cluster_parse_uints(const char *s, char sep, unsigned *out, int max, const char *what,
                             char *err, size_t errlen);
/* Cuts s in place at each sep into exactly n parts; -1 if there are not exactly n. */
int plat_cluster_split(char *s, char sep, char **parts, int n);

int plat_star_build_flat(platform *p, int parent, const plat_cluster *c, char *err, size_t errlen);
int plat_torus_build(platform *p, int parent, const plat_cluster *c, char *err, size_t errlen);
int plat_fattree_build(platform *p, int parent, const plat_cluster *c, char *err, size_t errlen);
int plat_dragonfly_build(platform *p, int parent, const plat_cluster *c, char *err, size_t errlen);

/* ---- <zone routing="Cluster"> content (routing_star.c), built when the zone ends ---- */
/* <host_link id up down>: UP = [up, backbone], DOWN = [backbone, down] (backbone -1: none). */
int plat_star_host_link(platform *p, plat_zone *z, int host_np, int up, int down, int backbone,
                        char *err, size_t errlen);
/* One host of a <cabinet>: the host, links link_NAME_UP and link_NAME_DOWN, its host_link. */
int plat_star_cabinet_host(platform *p, int zi, const char *name, double speed, double bw,
                           double lat, int backbone, char *err, size_t errlen);

/* ====================================================================================
 * The XML loader's internals (platform_xml.c: document, zones, positions, attributes;
 * platform_xml_elems.c: hosts, links, routes, clusters). libxml2's xmlNode is
 * struct _xmlNode; only those two files include libxml2.
 * ==================================================================================== */
struct _xmlNode;

typedef struct xml_ctx {
  const char *file; /* as given to plat_load, for messages */
  const char *text; /* the file's bytes, to turn offsets into line:column */
  size_t len;
  platform *p;
  char *err; /* the caller's buffer */
  size_t errlen;
  int syntax_error; /* libxml2 reported an error (the first one is in err) */
  size_t *bol;      /* offsets where the lines begin, built on the first message */
  size_t nbol;
} xml_ctx;

#define XATTRS_MAX 24
typedef struct xattrs {
  const char *name[XATTRS_MAX]; /* attribute names (owned by the document) */
  char *value[XATTRS_MAX];      /* their values (owned, freed by plat_xml_attrs_free) */
  int n;
} xattrs;

/* "FILE:LINE:COL: message" into the caller's buffer; returns -1. */
int plat_xml_fail(xml_ctx *x, const struct _xmlNode *n, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* "FILE:LINE:COL: warning: message" on stderr. */
void plat_xml_warn(xml_ctx *x, const struct _xmlNode *n, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Reads the attributes of n, checking them against spec ("id* speed* core ...": a '*'
 * marks a required one). -1 (after plat_xml_fail) on an unknown or missing attribute. */
int plat_xml_attrs(xml_ctx *x, const struct _xmlNode *n, const char *spec, xattrs *a);
const char *plat_xml_attr(const xattrs *a, const char *name, const char *dflt);
void plat_xml_attrs_free(xattrs *a);
/* The element children of n, one after the other: first with NULL. */
struct _xmlNode *plat_xml_next(const struct _xmlNode *parent, struct _xmlNode *prev);
const char *plat_xml_name(const struct _xmlNode *n);
/* A value with unit (warning if unit-less and not 0). what names it in messages. */
int plat_xml_unit(xml_ctx *x, const struct _xmlNode *n, units_kind kind, const char *s,
                  const char *what, double *out);

int plat_xml_host(xml_ctx *x, struct _xmlNode *n, int zone);
int plat_xml_router(xml_ctx *x, struct _xmlNode *n, int zone);
int plat_xml_link(xml_ctx *x, struct _xmlNode *n);
/* <route> (gateways 0) or <zoneRoute>/<ASroute> (gateways 1) in zone. */
int plat_xml_route(xml_ctx *x, struct _xmlNode *n, int zone, int gateways);
int plat_xml_cluster(xml_ctx *x, struct _xmlNode *n, int parent);
/* Content of a routing="Cluster" zone, applied when the zone ends. */
int plat_xml_backbone(xml_ctx *x, struct _xmlNode *n, int *link);
int plat_xml_host_link(xml_ctx *x, struct _xmlNode *n, int zone, int backbone);
int plat_xml_cabinet(xml_ctx *x, struct _xmlNode *n, int zone, int backbone);
/* <prop id value>: checks it and returns its key and value in a (free with plat_xml_attrs_free). */
int plat_xml_prop(xml_ctx *x, struct _xmlNode *n, xattrs *a);

#endif
