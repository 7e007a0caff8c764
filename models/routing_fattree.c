/* routing_fattree.c - <cluster topology="FAT_TREE" topo_parameters="L;c1,..;p1,..;n1,..">.
 *
 * As SimGrid's FatTreeZone (k-ary n-tree generalised): level 0 holds the prod(c_i)
 * compute nodes, level l the switches; a node of level l has c_{l+1} children (times n
 * parallel cables) and p_{l+1} parents. Every node gets a label (one digit per level,
 * digit 0 fastest); parent and child are related when their labels agree on every digit
 * but the parent's level-1. Cables are named "link_from_<child id>_<parent id>_<uid>",
 * where switch ids count down from 2N-1 and uid is a counter shared by every fat tree of
 * the platform (a static variable in SimGrid), like the nodes' "position".
 * Routing: go up, choosing the parent d-mod-k (d = destination position divided by the
 * parents of each lower level, modulo parents x cables of this level), until the
 * destination is in the current switch's subtree; then go down, scanning the children
 * for the destination's label digit. The down scan is reproduced literally, including
 * SimGrid's quirk that the scan index runs on after a step down. Limiters: the limiter
 * of each node left going up, of each switch left going down (after its cable), and of
 * the destination at the end. Memory O(nodes x ports); a route costs O(levels x ports). */
#include <stdlib.h>
#include <string.h>

#include "platform_impl.h"
#include "xalloc.h"

#define FT_MAX_LEVELS 16

typedef struct ft_node {
  long id;         /* compute node: position in the zone; switch: 2N-1, 2N-2, ... */
  unsigned level;  /* 0 for compute nodes */
  int position;    /* compute node: SimGrid's global counter; switch: rank in level */
  unsigned *label; /* one digit per level */
  int *parents;    /* ft_link indices (-1: unset), p x n of them */
  int *children;   /* ft_link indices (-1: unset), c x n of them */
  unsigned nparents, nchildren;
  int limiter, loopback; /* link ids, -1 if none */
} ft_node;

typedef struct ft_link {
  int up_node, down_node; /* parent and child */
  int up_link, down_link; /* link ids used going up and going down */
} ft_link;

typedef struct fattree_impl {
  unsigned levels;
  unsigned nc[FT_MAX_LEVELS], np[FT_MAX_LEVELS], nport[FT_MAX_LEVELS];
  unsigned by_level[FT_MAX_LEVELS + 1]; /* nodes per level */
  ft_node *nodes;                       /* compute nodes, then switches level by level */
  int nnodes, ncompute;
  ft_link *links;
  int nlinks;
  size_t clinks;
} fattree_impl;

static void fattree_free(void *impl) {
  fattree_impl *f = impl;
  if (!f)
    return;
  for (int i = 0; i < f->nnodes; i++) {
    free(f->nodes[i].label);
    free(f->nodes[i].parents);
    free(f->nodes[i].children);
  }
  free(f->nodes);
  free(f->links);
  free(f);
}

/* ==================================================================== parameters */
static int ft_vector(const char *s, unsigned levels, unsigned *out, const char *what, char *err,
                     size_t errlen) {
  int n = plat_cluster_parse_uints(s, ',', out, FT_MAX_LEVELS, what, err, errlen);
  if (n < 0)
    return -1;
  if ((unsigned)n != levels)
    return x_err(err, errlen, "fat tree: %u levels but the %s has %d values", levels, what, n);
  return 0;
}

static int ft_parse(const char *params, fattree_impl *f, char *err, size_t errlen) {
  char *copy = x_strdup(params), *part[4];
  int rc = 0;
  if (plat_cluster_split(copy, ';', part, 4) != 0)
    rc = x_err(err, errlen,
               "invalid fat tree topo_parameters '%s' (expected "
               "\"levels;children,..;parents,..;cables,..\")",
               params);
  else if (plat_cluster_parse_uints(part[0], ',', &f->levels, 1, "fat tree level count", err,
                                    errlen) < 0 ||
           ft_vector(part[1], f->levels, f->nc, "child count vector", err, errlen) ||
           ft_vector(part[2], f->levels, f->np, "parent count vector", err, errlen) ||
           ft_vector(part[3], f->levels, f->nport, "cable count vector", err, errlen))
    rc = -1;
  free(copy);
  return rc;
}

/* ==================================================================== building */
static ft_node *new_node(fattree_impl *f, long id, unsigned level, int position, unsigned nparents,
                         unsigned nchildren, int limiter, int loopback) {
  ft_node *n = &f->nodes[f->nnodes++];
  n->id = id;
  n->level = level;
  n->position = position;
  n->label = x_calloc(f->levels, sizeof *n->label);
  n->nparents = nparents;
  n->nchildren = nchildren;
  n->parents = x_malloc((nparents ? nparents : 1) * sizeof *n->parents);
  n->children = x_malloc((nchildren ? nchildren : 1) * sizeof *n->children);
  for (unsigned i = 0; i < nparents; i++)
    n->parents[i] = -1;
  for (unsigned i = 0; i < nchildren; i++)
    n->children[i] = -1;
  n->limiter = limiter;
  n->loopback = loopback;
  return n;
}

/* Host, loopback and limiter of compute node i (FatTreeZone::add_processing_node). */
static int ft_compute_node(platform *p, int zi, const plat_cluster *c, fattree_impl *f, int i,
                           char *err, size_t errlen) {
  int lb = -1, lim = -1;
  if (plat_cluster_host(p, zi, c, i, err, errlen) < 0)
    return -1;
  if ((c->loopback_bw > 0 || c->loopback_lat > 0) &&
      (lb = plat_cluster_loopback(p, c, i, err, errlen)) < 0)
    return -1;
  if (c->limiter > 0 && (lim = plat_cluster_limiter(p, c, (unsigned long)i, err, errlen)) < 0)
    return -1;
  new_node(f, i, 0, p->fattree_position++, f->np[0] * f->nport[0], 0, lim, lb);
  return 0;
}

/* FatTreeZone::generate_switches */
static int ft_switches(platform *p, const plat_cluster *c, fattree_impl *f, char *err,
                       size_t errlen) {
  unsigned long k = 2UL * (unsigned long)f->ncompute;
  for (unsigned i = 0; i < f->levels; i++)
    for (unsigned j = 0; j < f->by_level[i + 1]; j++) {
      k--;
      int lim = -1;
      if (c->limiter > 0 && (lim = plat_cluster_limiter(p, c, k, err, errlen)) < 0)
        return -1;
      unsigned nparents = i + 1 < f->levels ? f->np[i + 1] * f->nport[i + 1] : 0;
      new_node(f, (long)k, i + 1, (int)j, nparents, f->nc[i] * f->nport[i], lim, -1);
    }
  return 0;
}

static int ft_count(fattree_impl *f, char *err, size_t errlen) {
  unsigned long total = 1, all;
  for (unsigned i = 0; i < f->levels; i++)
    total *= f->nc[i];
  all = f->by_level[0] = (unsigned)total;
  for (unsigned i = 0; i < f->levels; i++) {
    unsigned long n = 1;
    for (unsigned j = 0; j <= i; j++)
      n *= f->np[j];
    for (unsigned j = i + 1; j < f->levels; j++)
      n *= f->nc[j];
    f->by_level[i + 1] = (unsigned)n;
    all += n;
    if (n > 10000000UL || total > 10000000UL || all > 10000000UL)
      return x_err(err, errlen, "fat tree too large");
  }
  f->ncompute = (int)total;
  f->nodes = x_calloc(all, sizeof *f->nodes);
  return 0;
}

/* FatTreeZone::generate_labels */
static void ft_labels(fattree_impl *f) {
  unsigned maxl[FT_MAX_LEVELS], cur[FT_MAX_LEVELS];
  int k = 0;
  for (unsigned i = 0; i <= f->levels; i++) {
    for (unsigned j = 0; j < f->levels; j++) {
      cur[j] = 0;
      maxl[j] = j + 1 > i ? f->nc[j] : f->np[j];
    }
    for (unsigned j = 0; j < f->by_level[i]; j++, k++) {
      memcpy(f->nodes[k].label, cur, f->levels * sizeof *cur);
      for (unsigned pos = 0; pos < f->levels; pos++) {
        if (++cur[pos] < maxl[pos])
          break;
        cur[pos] = 0;
      }
    }
  }
}

static int ft_related(const fattree_impl *f, const ft_node *parent, const ft_node *child) {
  if (parent->level != child->level + 1)
    return 0;
  for (unsigned i = 0; i < f->levels; i++)
    if (parent->label[i] != child->label[i] && i + 1 != parent->level)
      return 0;
  return 1;
}

/* FatTreeZone::add_link */
static int ft_add_link(platform *p, const plat_cluster *c, fattree_impl *f, int parent,
                       unsigned parent_port, int child, unsigned child_port, char *err,
                       size_t errlen) {
  int ends[2];
  char *name = x_asprintf("link_from_%ld_%ld_%d", f->nodes[child].id, f->nodes[parent].id,
                          p->fattree_link_uid);
  int rc = plat_cluster_cable(p, c, name, c->bw, ends, err, errlen);
  free(name);
  if (rc != 0)
    return -1;
  p->fattree_link_uid++;
  x_grow(&f->links, &f->clinks, (size_t)f->nlinks + 1, sizeof *f->links);
  f->links[f->nlinks] = (ft_link){parent, child, ends[0], ends[1]};
  f->nodes[parent].children[parent_port] = f->nlinks;
  f->nodes[child].parents[child_port] = f->nlinks++;
  return 0;
}

/* FatTreeZone::connect_node_to_parents */
static int ft_connect(platform *p, const plat_cluster *c, fattree_impl *f, int node, char *err,
                      size_t errlen) {
  unsigned level = f->nodes[node].level, first = 0;
  for (unsigned i = 0; i <= level; i++)
    first += f->by_level[i];
  for (unsigned i = 0; i < f->by_level[level + 1]; i++) {
    int parent = (int)(first + i);
    if (!ft_related(f, &f->nodes[parent], &f->nodes[node]))
      continue;
    for (unsigned j = 0; j < f->nport[level]; j++)
      if (ft_add_link(p, c, f, parent, f->nodes[node].label[level] + j * f->nc[level], node,
                      f->nodes[parent].label[level] + j * f->np[level], err, errlen) != 0)
        return -1;
  }
  return 0;
}

int plat_fattree_build(platform *p, int parent, const plat_cluster *c, char *err, size_t errlen) {
  fattree_impl *f = x_calloc(1, sizeof *f);
  if (ft_parse(c->topo_parameters, f, err, errlen) != 0 || ft_count(f, err, errlen) != 0) {
    fattree_free(f);
    return -1;
  }
  if (c->bw <= 0 || c->lat < 0) {
    fattree_free(f);
    return x_err(err, errlen, "fat tree '%s': the bandwidth must be > 0 and the latency >= 0",
                 c->id);
  }
  int zi = plat_add_zone(p, c->id, &plat_zone_fattree_ops, parent, err, errlen);
  if (zi < 0) {
    fattree_free(f);
    return -1;
  }
  p->zones[zi]->impl = f;
  for (int i = 0; i < f->ncompute; i++)
    if (ft_compute_node(p, zi, c, f, i, err, errlen) != 0)
      return -1;
  if (ft_switches(p, c, f, err, errlen) != 0)
    return -1;
  ft_labels(f);
  for (int k = 0; k < f->nnodes; k++)
    if (f->nodes[k].level < f->levels && ft_connect(p, c, f, k, err, errlen) != 0)
      return -1;
  return zi;
}

/* ==================================================================== routing */
/* FatTreeZone::is_in_sub_tree */
static int in_subtree(const fattree_impl *f, const ft_node *root, const ft_node *node) {
  if (root->level <= node->level)
    return 0;
  for (unsigned i = 0; i < node->level; i++)
    if (root->label[i] != node->label[i])
      return 0;
  for (unsigned i = root->level; i < f->levels; i++)
    if (root->label[i] != node->label[i])
      return 0;
  return 1;
}

static int ft_broken(const plat_zone *z, char *err, size_t errlen) {
  return x_err(err, errlen, "fat tree '%s': inconsistent topology (a cable is missing)", z->name);
}

/* Up part: from the source to the first switch above the destination. */
static int ft_up(const platform *p, const plat_zone *z, const fattree_impl *f, int *cur,
                 const ft_node *dst, plat_route *r, char *err, size_t errlen) {
  while (!in_subtree(f, &f->nodes[*cur], dst)) {
    const ft_node *n = &f->nodes[*cur];
    if (n->level >= f->levels)
      return ft_broken(z, err, errlen);
    unsigned long d = (unsigned long)dst->position;
    for (unsigned i = 0; i < n->level; i++)
      d /= f->np[i];
    d %= (unsigned long)f->np[n->level] * f->nport[n->level];
    if (n->parents[d] < 0)
      return ft_broken(z, err, errlen);
    if (n->limiter >= 0)
      plat_route_push(p, r, n->limiter);
    plat_route_push(p, r, f->links[n->parents[d]].up_link);
    *cur = f->links[n->parents[d]].up_node;
  }
  return 0;
}

/* Down part, SimGrid's loop as is: the scan goes on in the new node after a step. */
static int ft_down(const platform *p, const plat_zone *z, const fattree_impl *f, int *cur,
                   const ft_node *src, const ft_node *dst, plat_route *r, char *err,
                   size_t errlen) {
  while (&f->nodes[*cur] != dst) {
    int before = *cur;
    unsigned d = (unsigned)src->position % f->nport[f->nodes[*cur].level - 1];
    for (unsigned i = d * f->nc[f->nodes[*cur].level - 1]; i < f->nodes[*cur].nchildren; i++) {
      const ft_node *n = &f->nodes[*cur];
      if (i % f->nc[n->level - 1] != dst->label[n->level - 1])
        continue;
      if (n->children[i] < 0)
        return ft_broken(z, err, errlen);
      plat_route_push(p, r, f->links[n->children[i]].down_link);
      if (n->limiter >= 0)
        plat_route_push(p, r, n->limiter);
      *cur = f->links[n->children[i]].down_node;
    }
    if (*cur == before)
      return ft_broken(z, err, errlen);
  }
  return 0;
}

static int fattree_local_route(const platform *p, const plat_zone *z, int src, int dst,
                               plat_route *r, size_t base, int gw[2], char *err, size_t errlen) {
  (void)base;
  (void)gw;
  const fattree_impl *f = z->impl;
  const ft_node *s = &f->nodes[p->nps[src].local], *d = &f->nodes[p->nps[dst].local];
  int cur = p->nps[src].local;
  if (s == d && s->loopback >= 0) {
    plat_route_push(p, r, s->loopback);
    return 0;
  }
  if (ft_up(p, z, f, &cur, d, r, err, errlen) != 0 ||
      ft_down(p, z, f, &cur, s, d, r, err, errlen) != 0)
    return -1;
  if (d->limiter >= 0)
    plat_route_push(p, r, d->limiter);
  return 0;
}

const zone_ops plat_zone_fattree_ops = {"FatTree", NULL, NULL, fattree_local_route, fattree_free};
