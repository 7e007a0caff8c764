/* routing_dijkstra.c - <zone routing="Dijkstra|DijkstraCache">: shortest paths on demand.
 *
 * As SimGrid's DijkstraZone: the graph's nodes are the netpoints named by declared
 * routes, numbered in order of first mention (source before destination); each route is
 * an edge of cost = its number of links; a leaf zone adds a model-loopback self-edge to
 * every node lacking one. Shortest paths come from a heap ordered by (cost, node) with a
 * strict "<" relaxation, which fixes the tie-breaking; the predecessor array of a source
 * is computed on first use and kept (DijkstraCache and Dijkstra give the same routes).
 * SimGrid's quirk, reproduced: it prepends each edge's links *reversed*
 * (insert_link_latency), so a path e1 e2 gives reversed(e1) + reversed(e2), and the
 * latency is summed from the last edge to the first.
 * Differences: tir reports "no route" where SimGrid 3.32 misbehaves: a netpoint named by
 * no route (SimGrid dereferences NULL), an unreachable destination (it follows stale
 * predecessors), and zone hops whose gateways differ (it calls get_global_route on NULL).
 * The route cache makes plat_route() not thread-safe on such zones. */
#include <stdint.h>
#include <stdlib.h>

#include "platform_impl.h"
#include "xalloc.h"

typedef struct dnode {
  int np;      /* netpoint */
  int *out;    /* out-edges: indices in the route table, creation order */
  int *out_to; /* their target nodes */
  int nout;
  size_t cout, cout_to;
} dnode;

typedef struct dijkstra_impl {
  route_table table; /* edges */
  dnode *nodes;
  int nnodes;
  size_t cnodes;
  int *node_of; /* local id -> node, -1 if none (size nnode_of) */
  size_t nnode_of;
  int **pred; /* per source node: predecessor of each node, -1 unreachable (lazy) */
} dijkstra_impl;

static dijkstra_impl *impl_of(plat_zone *z) {
  if (!z->impl)
    z->impl = x_calloc(1, sizeof(dijkstra_impl));
  return z->impl;
}

static int node_of(const dijkstra_impl *d, const platform *p, int np) {
  size_t local = (size_t)p->nps[np].local;
  return local < d->nnode_of ? d->node_of[local] : -1;
}

static int get_node(dijkstra_impl *d, const platform *p, int np) {
  int n = node_of(d, p, np);
  if (n >= 0)
    return n;
  size_t local = (size_t)p->nps[np].local, old = d->nnode_of;
  x_grow(&d->node_of, &d->nnode_of, local + 1, sizeof *d->node_of);
  for (size_t i = old; i < d->nnode_of; i++)
    d->node_of[i] = -1;
  x_grow(&d->nodes, &d->cnodes, (size_t)d->nnodes + 1, sizeof *d->nodes);
  d->nodes[d->nnodes] = (dnode){np, NULL, NULL, 0, 0, 0};
  d->node_of[local] = d->nnodes;
  return d->nnodes++;
}

/* Adds the edge a -> b (nodes) carrying route index ri. */
static void add_edge(dijkstra_impl *d, int a, int b, int ri) {
  dnode *n = &d->nodes[a];
  x_grow(&n->out, &n->cout, (size_t)n->nout + 1, sizeof *n->out);
  x_grow(&n->out_to, &n->cout_to, (size_t)n->nout + 1, sizeof *n->out_to);
  n->out[n->nout] = ri;
  n->out_to[n->nout++] = b;
}

static int new_edge(const platform *p, dijkstra_impl *d, int src, int dst, int gw_src, int gw_dst,
                    const plat_route_decl *decl, int reverse, char *err, size_t errlen) {
  int a = get_node(d, p, src), b = get_node(d, p, dst);
  int ri = plat_rtable_add(&d->table, src, dst, gw_src, gw_dst, decl->hops, decl->nhops, reverse);
  if (ri < 0)
    return x_err(err, errlen, "route from %s to %s already exists", p->nps[src].name,
                 p->nps[dst].name);
  add_edge(d, a, b, ri);
  return 0;
}

static int dijkstra_add_route(platform *p, plat_zone *z, const plat_route_decl *decl, char *err,
                              size_t errlen) {
  if (plat_rtable_check_decl(p, z, decl, err, errlen) != 0)
    return -1;
  dijkstra_impl *d = impl_of(z);
  if (new_edge(p, d, decl->src, decl->dst, decl->gw_src, decl->gw_dst, decl, 0, err, errlen))
    return -1;
  if (decl->symmetrical)
    return new_edge(p, d, decl->dst, decl->src, decl->gw_dst, decl->gw_src, decl, 1, err, errlen);
  return 0;
}

static int dijkstra_seal(platform *p, plat_zone *z, char *err, size_t errlen) {
  (void)err;
  (void)errlen;
  dijkstra_impl *d = impl_of(z);
  if (z->nchildren == 0 && d->nnodes > 0) {
    plat_hop lb = {plat_get_model_loopback(p), plat_get_model_loopback(p)};
    for (int i = 0; i < d->nnodes; i++) {
      int ri = plat_rtable_add(&d->table, d->nodes[i].np, d->nodes[i].np, -1, -1, &lb, 1, 0);
      if (ri >= 0)
        add_edge(d, i, i, ri);
    }
  }
  d->pred = x_calloc((size_t)(d->nnodes ? d->nnodes : 1), sizeof *d->pred);
  return 0;
}

/* ------------------------------------------------------------ shortest paths */
typedef struct qelt {
  uint64_t cost;
  int node;
} qelt;

static int qless(qelt a, qelt b) {
  return a.cost < b.cost || (a.cost == b.cost && a.node < b.node);
}

static void qpush(qelt *h, int *n, qelt e) {
  int i = (*n)++;
  for (; i > 0 && qless(e, h[(i - 1) / 2]); i = (i - 1) / 2)
    h[i] = h[(i - 1) / 2];
  h[i] = e;
}

static qelt qpop(qelt *h, int *n) {
  qelt top = h[0], last = h[--*n];
  int i = 0;
  for (int c; (c = 2 * i + 1) < *n; i = c) {
    if (c + 1 < *n && qless(h[c + 1], h[c]))
      c++;
    if (!qless(h[c], last))
      break;
    h[i] = h[c];
  }
  h[i] = last;
  return top;
}

/* Predecessors from node s (Dijkstra, SimGrid's tie-breaking). */
static int *shortest_from(const dijkstra_impl *d, int s) {
  int n = d->nnodes, qn = 0;
  uint64_t *cost = x_malloc((size_t)n * sizeof *cost);
  int *pred = x_malloc((size_t)n * sizeof *pred);
  size_t qcap = (size_t)n + 1;
  for (int i = 0; i < n; i++) {
    cost[i] = UINT64_MAX;
    pred[i] = -1;
    qcap += (size_t)d->nodes[i].nout;
  }
  qelt *q = x_malloc(qcap * sizeof *q);
  cost[s] = 0;
  qpush(q, &qn, (qelt){0, s});
  while (qn > 0) {
    qelt e = qpop(q, &qn);
    if (e.cost != cost[e.node])
      continue; /* stale entry */
    const dnode *v = &d->nodes[e.node];
    for (int k = 0; k < v->nout; k++) {
      int u = v->out_to[k];
      uint64_t c = cost[e.node] + (uint64_t)d->table.routes[v->out[k]].n;
      if (c < cost[u]) {
        cost[u] = c;
        pred[u] = e.node;
        qpush(q, &qn, (qelt){c, u});
      }
    }
  }
  free(cost);
  free(q);
  return pred;
}

/* ------------------------------------------------------------ routes */
/* Inserts the edges' links at r->links[base] as SimGrid does: e[0] is the last edge of
 * the path; each edge's links go reversed, the first edge first; latency summed last edge
 * first. */
static void insert_edges(const platform *p, const dijkstra_impl *d, const int *e, int k,
                         plat_route *r, size_t base) {
  size_t from = r->n;
  double lat = r->latency;
  for (int i = 0; i < k; i++) {
    const stored_route *s = &d->table.routes[e[i]];
    for (int j = 0; j < s->n; j++)
      lat += p->links[s->links[j]].latency;
  }
  for (int i = k - 1; i >= 0; i--) {
    const stored_route *s = &d->table.routes[e[i]];
    for (int j = s->n - 1; j >= 0; j--)
      plat_route_push(p, r, s->links[j]);
  }
  r->latency = lat;
  plat_route_move_front(r, base, from);
}

static int no_route(const platform *p, const plat_zone *z, int src, int dst, char *err,
                    size_t errlen) {
  return x_err(err, errlen, "no route from '%s' to '%s' in zone '%s' (routing Dijkstra)",
               p->nps[src].name, p->nps[dst].name, z->name);
}

/* The route indices of the edges of the path, last edge first, into e; returns k. */
static int path_edges(const dijkstra_impl *d, int gs, int gd, const int *pred, int *e) {
  int k = 0;
  for (int v = gd; v != gs; v = pred[v]) {
    if (pred[v] < 0 || k >= d->nnodes)
      return -1;
    e[k++] =
        (int)(plat_rtable_get(&d->table, d->nodes[pred[v]].np, d->nodes[v].np) - d->table.routes);
  }
  return k;
}

static int check_gateways(const platform *p, const plat_zone *z, const dijkstra_impl *d, int src,
                          int dst, const int *e, int k, int gw[2], char *err, size_t errlen) {
  for (int i = 1; i < k; i++) /* e[i] comes before e[i - 1] on the path */
    if (d->table.routes[e[i]].gw_dst != d->table.routes[e[i - 1]].gw_src)
      return x_err(err, errlen,
                   "zone '%s' (routing Dijkstra): the path from '%s' to '%s' "
                   "enters and leaves a sub-zone by different gateways, which "
                   "SimGrid 3.32 cannot route (use Floyd or Full)",
                   z->name, p->nps[src].name, p->nps[dst].name);
  gw[0] = d->table.routes[e[k - 1]].gw_src;
  gw[1] = d->table.routes[e[0]].gw_dst;
  return 0;
}

static int dijkstra_local_route(const platform *p, const plat_zone *z, int src, int dst,
                                plat_route *r, size_t base, int gw[2], char *err, size_t errlen) {
  const dijkstra_impl *d = z->impl;
  int gs = node_of(d, p, src), gd = node_of(d, p, dst);
  if (gs < 0 || gd < 0)
    return no_route(p, z, src, dst, err, errlen);
  if (gs == gd) {
    const stored_route *s = plat_rtable_get(&d->table, src, dst);
    if (!s)
      return no_route(p, z, src, dst, err, errlen);
    int e = (int)(s - d->table.routes);
    insert_edges(p, d, &e, 1, r, base);
    return 0;
  }
  if (!d->pred[gs])
    d->pred[gs] = shortest_from(d, gs);
  int *e = x_malloc((size_t)d->nnodes * sizeof *e);
  int k = path_edges(d, gs, gd, d->pred[gs], e), rc = 0;
  if (k < 0)
    rc = no_route(p, z, src, dst, err, errlen);
  else if (z->nchildren > 0)
    rc = check_gateways(p, z, d, src, dst, e, k, gw, err, errlen);
  if (rc == 0)
    insert_edges(p, d, e, k, r, base);
  free(e);
  return rc;
}

static void dijkstra_free(void *impl) {
  dijkstra_impl *d = impl;
  if (!d)
    return;
  for (int i = 0; i < d->nnodes; i++) {
    free(d->nodes[i].out);
    free(d->nodes[i].out_to);
    if (d->pred)
      free(d->pred[i]);
  }
  free(d->pred);
  free(d->nodes);
  free(d->node_of);
  plat_rtable_free(&d->table);
  free(d);
}

const zone_ops plat_zone_dijkstra_ops = {"Dijkstra", dijkstra_add_route, dijkstra_seal,
                                         dijkstra_local_route, dijkstra_free};
