/* platform_xml.c - loading a SimGrid v4 XML platform: the document, zones and their content.
 *
 * libxml2 builds the tree (no DTD download, no network); a hook on its SAX2 start-tag
 * callback stores in each element the byte offset where the start tag ends, from which
 * the '<' that opens it, hence its line and column, are found when a message needs them.
 * Syntax errors come from libxml2's structured error (its own line and column).
 * The walk applies SimGrid's DTD by hand (SimGrid's flex parser enforces it): known
 * elements and attributes only, required attributes present, and the content model of
 * <platform> and <zone>: props first, then the zone's elements, then its routes; a zone
 * holds either sub-zones (joined by zoneRoutes) or hosts and routers (joined by routes).
 * Content of a routing="Cluster" zone (<backbone>, <host_link>, <cabinet>) is applied
 * when the zone ends, as SimGrid does (sg_platf_new_zone_seal). Elements tir does not
 * model are refused with a reason, except <trace>/<trace_connect> (skipped with a
 * warning) and deployment (<actor>, <process>: skipped). */
#include <errno.h>
#include <libxml/SAX2.h>
#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "inputs.h"
#include "platform_impl.h"
#include "xalloc.h"

/* ==================================================================== positions */
static void start_element(void *ctx, const xmlChar *localname, const xmlChar *prefix,
                          const xmlChar *uri, int nb_ns, const xmlChar **ns, int nb_attrs,
                          int nb_defaulted, const xmlChar **attrs) {
  xmlParserCtxtPtr c = ctx;
  xmlSAX2StartElementNs(ctx, localname, prefix, uri, nb_ns, ns, nb_attrs, nb_defaulted, attrs);
  long off = xmlByteConsumed(c);
  if (c->node && off >= 0)
    c->node->_private = (void *)(uintptr_t)(off + 1);
}

/* The offsets where lines begin (once: messages may be many, e.g. unit-less values). */
static void line_table(xml_ctx *x) {
  size_t cap = 0;
  x_grow(&x->bol, &cap, 1, sizeof *x->bol);
  x->bol[x->nbol++] = 0;
  for (size_t i = 0; i < x->len; i++)
    if (x->text[i] == '\n') {
      x_grow(&x->bol, &cap, x->nbol + 1, sizeof *x->bol);
      x->bol[x->nbol++] = i + 1;
    }
}

/* Line and column (1-based) of the '<' opening element n. */
static void position(xml_ctx *x, const xmlNode *n, long *line, long *col) {
  uintptr_t stored = n ? (uintptr_t)n->_private : 0;
  size_t off = stored ? (size_t)stored - 1 : 0, lo = 0, hi;
  if (!stored || off >= x->len) {
    *line = n ? xmlGetLineNo(n) : 0;
    *col = 1;
    return;
  }
  while (off > 0 && x->text[off] != '<')
    off--;
  if (!x->bol)
    line_table(x);
  for (hi = x->nbol; hi - lo > 1;) { /* the last line start <= off */
    size_t mid = (lo + hi) / 2;
    if (x->bol[mid] <= off)
      lo = mid;
    else
      hi = mid;
  }
  *line = (long)lo + 1;
  *col = (long)(off - x->bol[lo]) + 1;
}

int plat_xml_fail(xml_ctx *x, const xmlNode *n, const char *fmt, ...) {
  char msg[1024];
  long line, col;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  position(x, n, &line, &col);
  return x_err(x->err, x->errlen, "%s:%ld:%ld: %s", x->file, line, col, msg);
}

void plat_xml_warn(xml_ctx *x, const xmlNode *n, const char *fmt, ...) {
  char msg[1024];
  long line, col;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  position(x, n, &line, &col);
  fprintf(stderr, "%s:%ld:%ld: warning: %s\n", x->file, line, col, msg);
}

/* ==================================================================== nodes, attributes */
xmlNode *plat_xml_next(const xmlNode *parent, xmlNode *prev) {
  for (xmlNode *c = prev ? prev->next : parent->children; c; c = c->next)
    if (c->type == XML_ELEMENT_NODE)
      return c;
  return NULL;
}

const char *plat_xml_name(const xmlNode *n) { return (const char *)n->name; }

/* Is name in spec (space-separated, '*' suffix = required)? Sets *required. */
static int in_spec(const char *spec, const char *name, int *required) {
  size_t len = strlen(name);
  for (const char *s = spec; *s;) {
    size_t w = strcspn(s, " ");
    size_t wl = w > 0 && s[w - 1] == '*' ? w - 1 : w;
    if (wl == len && strncmp(s, name, len) == 0) {
      *required = wl != w;
      return 1;
    }
    s += w;
    s += strspn(s, " ");
  }
  return 0;
}

/* spec as a readable list: "id* speed*" -> "id, speed". */
static void spec_list(const char *spec, char *list, size_t size) {
  size_t k = 0;
  for (const char *s = spec; *s && k + 3 < size; s++)
    if (*s == ' ') {
      list[k++] = ',';
      list[k++] = ' ';
    } else if (*s != '*')
      list[k++] = *s;
  list[k] = '\0';
}

static int check_required(xml_ctx *x, const xmlNode *n, const char *spec, const xattrs *a) {
  for (const char *s = spec; *s;) {
    size_t w = strcspn(s, " ");
    if (w > 0 && s[w - 1] == '*') {
      int found = 0;
      for (int i = 0; i < a->n && !found; i++)
        found = strlen(a->name[i]) == w - 1 && strncmp(a->name[i], s, w - 1) == 0;
      if (!found)
        return plat_xml_fail(x, n, "<%s> needs the attribute '%.*s'", plat_xml_name(n),
                             (int)(w - 1), s);
    }
    s += w;
    s += strspn(s, " ");
  }
  return 0;
}

int plat_xml_attrs(xml_ctx *x, const xmlNode *n, const char *spec, xattrs *a) {
  a->n = 0;
  for (const xmlAttr *at = n->properties; at; at = at->next) {
    int req;
    if (!in_spec(spec, (const char *)at->name, &req)) {
      char list[512];
      spec_list(spec, list, sizeof list);
      plat_xml_fail(x, n, "unknown attribute '%s' in <%s> (expected %s)", (const char *)at->name,
                    plat_xml_name(n), *spec ? list : "none");
      plat_xml_attrs_free(a);
      return -1;
    }
    xmlChar *v = xmlNodeListGetString(n->doc, at->children, 1);
    a->name[a->n] = (const char *)at->name;
    a->value[a->n++] = x_strdup(v ? (const char *)v : "");
    xmlFree(v);
  }
  if (check_required(x, n, spec, a) != 0) {
    plat_xml_attrs_free(a);
    return -1;
  }
  return 0;
}

const char *plat_xml_attr(const xattrs *a, const char *name, const char *dflt) {
  for (int i = 0; i < a->n; i++)
    if (strcmp(a->name[i], name) == 0)
      return a->value[i];
  return dflt;
}

void plat_xml_attrs_free(xattrs *a) {
  for (int i = 0; i < a->n; i++)
    free(a->value[i]);
  a->n = 0;
}

int plat_xml_unit(xml_ctx *x, const xmlNode *n, units_kind kind, const char *s, const char *what,
                  double *out) {
  char msg[512];
  int unitless = 0;
  if (units_parse(kind, s, out, &unitless, msg, sizeof msg) != 0)
    return plat_xml_fail(x, n, "bad %s: %s", what, msg);
  if (unitless && *out != 0)
    plat_xml_warn(x, n, "deprecated unit-less value '%s' for %s (append %s)", s, what,
                  kind == UNITS_SPEED       ? "'f' for flop/s"
                  : kind == UNITS_BANDWIDTH ? "'Bps'"
                                            : "'s'");
  return 0;
}

int plat_xml_prop(xml_ctx *x, xmlNode *n, xattrs *a) {
  if (plat_xml_attrs(x, n, "id* value*", a) != 0)
    return -1;
  if (plat_xml_next(n, NULL)) {
    plat_xml_attrs_free(a);
    return plat_xml_fail(x, plat_xml_next(n, NULL), "<prop> has no children");
  }
  return 0;
}

/* ==================================================================== zones */
typedef struct zone_walk {
  int zi;            /* the zone */
  int is_cluster;    /* routing="Cluster": backbone, host_link and cabinet allowed */
  int phase;         /* 0: props, 1: elements, 2: routes */
  int content;       /* 0: unknown yet, 1: sub-zones, 2: hosts and routers */
  xmlNode *backbone; /* the last <backbone> */
  xmlNode **later;   /* <host_link> and <cabinet> elements, in document order */
  int nlater;
  size_t clater;
} zone_walk;

enum zone_kind {
  Z_PROP,
  Z_HOST,
  Z_ROUTER,
  Z_CLUSTER_ONLY,
  Z_ZONE,
  Z_CLUSTER,
  Z_LINK,
  Z_ROUTE,
  Z_ZONE_ROUTE
};

/* Element, the phase it belongs to, the content it implies (0: either), its handler. */
static const struct {
  const char *name;
  int phase, content;
  enum zone_kind kind;
} zone_elems[] = {{"prop", 0, 0, Z_PROP},
                  {"host", 1, 2, Z_HOST},
                  {"router", 1, 2, Z_ROUTER},
                  {"cabinet", 1, 2, Z_CLUSTER_ONLY},
                  {"host_link", 1, 2, Z_CLUSTER_ONLY},
                  {"zone", 1, 1, Z_ZONE},
                  {"AS", 1, 1, Z_ZONE},
                  {"cluster", 1, 1, Z_CLUSTER},
                  {"link", 1, 0, Z_LINK},
                  {"backbone", 1, 0, Z_CLUSTER_ONLY},
                  {"route", 2, 2, Z_ROUTE},
                  {"zoneRoute", 2, 1, Z_ZONE_ROUTE},
                  {"ASroute", 2, 1, Z_ZONE_ROUTE}};
#define NZONE_ELEMS (sizeof zone_elems / sizeof zone_elems[0])

static int refused(xml_ctx *x, xmlNode *n) {
  const char *e = plat_xml_name(n);
  if (strcmp(e, "peer") == 0)
    return plat_xml_fail(x, n, "<peer> needs Vivaldi routing, which tir does not support");
  if (strncmp(e, "bypass", 6) == 0)
    return plat_xml_fail(x, n, "<%s> is not supported by tir", e);
  if (!strcmp(e, "storage") || !strcmp(e, "storage_type") || !strcmp(e, "mount") ||
      !strcmp(e, "include"))
    return plat_xml_fail(x, n, "<%s> was removed from SimGrid's platforms", e);
  return plat_xml_fail(x, n,
                       "unknown element <%s> in a zone (expected prop, host, router, link, "
                       "backbone, cabinet, host_link, zone, cluster, route, zoneRoute, trace "
                       "or trace_connect)",
                       e);
}

/* Checks that n may come now in the zone (SimGrid's DTD order). */
static int place(xml_ctx *x, zone_walk *w, xmlNode *n, int phase, int content) {
  const char *zn = x->p->zones[w->zi]->name;
  if (phase < w->phase)
    return phase == 0 ? plat_xml_fail(x, n, "<prop> must come first in zone '%s'", zn)
                      : plat_xml_fail(x, n,
                                      "<%s> after a route in zone '%s': declare hosts, "
                                      "routers, links and sub-zones before the routes",
                                      plat_xml_name(n), zn);
  if (content && w->content && content != w->content)
    return plat_xml_fail(x, n,
                         "<%s> in zone '%s', which already has %s (a zone holds either "
                         "sub-zones joined by zoneRoutes, or hosts and routers joined by routes)",
                         plat_xml_name(n), zn, w->content == 1 ? "sub-zones" : "hosts or routers");
  w->phase = phase;
  if (content)
    w->content = content;
  return 0;
}

static int zone_elem(xml_ctx *x, xmlNode *n, int parent);

static int cluster_only(xml_ctx *x, zone_walk *w, xmlNode *c) {
  if (!w->is_cluster)
    return plat_xml_fail(x, c, "<%s> is only allowed in a zone with routing=\"Cluster\"",
                         plat_xml_name(c));
  if (strcmp(plat_xml_name(c), "backbone") == 0) {
    w->backbone = c;
    return 0;
  }
  x_grow(&w->later, &w->clater, (size_t)w->nlater + 1, sizeof *w->later);
  w->later[w->nlater++] = c;
  return 0;
}

static int zone_child(xml_ctx *x, zone_walk *w, xmlNode *c) {
  const char *e = plat_xml_name(c);
  xattrs a;
  if (!strcmp(e, "trace") || !strcmp(e, "trace_connect")) {
    plat_xml_warn(x, c, "<%s> ignored: tir does not model availability profiles", e);
    return 0;
  }
  size_t k = 0;
  while (k < NZONE_ELEMS && strcmp(zone_elems[k].name, e) != 0)
    k++;
  if (k == NZONE_ELEMS)
    return refused(x, c);
  if (place(x, w, c, zone_elems[k].phase, zone_elems[k].content) != 0)
    return -1;
  switch (zone_elems[k].kind) {
  case Z_PROP: /* zone properties: not used by the model */
    if (plat_xml_prop(x, c, &a) != 0)
      return -1;
    plat_xml_attrs_free(&a);
    return 0;
  case Z_HOST:
    return plat_xml_host(x, c, w->zi);
  case Z_ROUTER:
    return plat_xml_router(x, c, w->zi);
  case Z_CLUSTER_ONLY:
    return cluster_only(x, w, c);
  case Z_ZONE:
    return zone_elem(x, c, w->zi);
  case Z_CLUSTER:
    return plat_xml_cluster(x, c, w->zi);
  case Z_LINK:
    return plat_xml_link(x, c);
  case Z_ROUTE:
    return plat_xml_route(x, c, w->zi, 0);
  default:
    return plat_xml_route(x, c, w->zi, 1);
  }
}

/* The routing="Cluster" content, once the zone's elements are all read. */
static int cluster_content(xml_ctx *x, zone_walk *w) {
  int bb = -1;
  if (w->backbone && plat_xml_backbone(x, w->backbone, &bb) != 0)
    return -1;
  for (int i = 0; i < w->nlater; i++) {
    xmlNode *c = w->later[i];
    int rc = strcmp(plat_xml_name(c), "cabinet") == 0 ? plat_xml_cabinet(x, c, w->zi, bb)
                                                      : plat_xml_host_link(x, c, w->zi, bb);
    if (rc != 0)
      return -1;
  }
  return 0;
}

static const zone_ops *routing_ops(xml_ctx *x, xmlNode *n, const char *routing) {
  static const struct {
    const char *name;
    const zone_ops *ops;
  } table[] = {{"Full", &plat_zone_full_ops},         {"Floyd", &plat_zone_floyd_ops},
               {"Dijkstra", &plat_zone_dijkstra_ops}, {"DijkstraCache", &plat_zone_dijkstra_ops},
               {"Cluster", &plat_zone_star_ops},      {"None", &plat_zone_none_ops}};
  for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
    if (strcasecmp(routing, table[i].name) == 0)
      return table[i].ops;
  if (strcasecmp(routing, "Vivaldi") == 0 || strcasecmp(routing, "Wifi") == 0)
    plat_xml_fail(x, n, "routing \"%s\" is not supported by tir", routing);
  else
    plat_xml_fail(x, n,
                  "unknown routing \"%s\" (expected Full, Floyd, Dijkstra, DijkstraCache, "
                  "Cluster or None)",
                  routing);
  return NULL;
}

static int zone_elem(xml_ctx *x, xmlNode *n, int parent) {
  xattrs a;
  char msg[512];
  if (plat_xml_attrs(x, n, "id* routing*", &a) != 0)
    return -1;
  const zone_ops *ops = routing_ops(x, n, plat_xml_attr(&a, "routing", ""));
  int zi =
      ops ? plat_add_zone(x->p, plat_xml_attr(&a, "id", ""), ops, parent, msg, sizeof msg) : -1;
  if (ops && zi < 0)
    plat_xml_fail(x, n, "%s", msg);
  plat_xml_attrs_free(&a);
  if (zi < 0)
    return -1;
  zone_walk w = {zi, ops == &plat_zone_star_ops, 0, 0, NULL, NULL, 0, 0};
  int rc = 0;
  for (xmlNode *c = plat_xml_next(n, NULL); c && rc == 0; c = plat_xml_next(n, c))
    rc = zone_child(x, &w, c);
  if (rc == 0 && w.is_cluster)
    rc = cluster_content(x, &w);
  free(w.later);
  return rc;
}

/* ==================================================================== the document */
static int config_elem(xml_ctx *x, xmlNode *n) {
  xattrs a;
  if (plat_xml_attrs(x, n, "id", &a) != 0)
    return -1;
  plat_xml_attrs_free(&a);
  for (xmlNode *c = plat_xml_next(n, NULL); c; c = plat_xml_next(n, c)) {
    if (strcmp(plat_xml_name(c), "prop") != 0)
      return plat_xml_fail(x, c, "unexpected <%s> in <config> (expected <prop>)", plat_xml_name(c));
    if (plat_xml_prop(x, c, &a) != 0)
      return -1;
    plat_add_config(x->p, plat_xml_attr(&a, "id", ""), plat_xml_attr(&a, "value", ""));
    plat_xml_attrs_free(&a);
  }
  return 0;
}

/* version="4" or "4.1" (SimGrid 3.32 reads 4.0 to 4.1, refuses the rest). */
static int check_version(xml_ctx *x, xmlNode *n, const char *v) {
  char *end;
  double d = strtod(v, &end);
  if (end == v || *end || d != d)
    return plat_xml_fail(x, n, "platform version '%s' is not a number (expected version=\"4.1\")",
                         v);
  d = d > 1e6 ? 1e6 : d < -1e6 ? -1e6 : d; /* a long holds 100 d (4e82 did not) */
  long version = (long)(100.0 * d + (d >= 0 ? 0.5 : -0.5));
  if (version < 400)
    return plat_xml_fail(x, n,
                         "platform version %s is too old (expected 4 or 4.1; SimGrid's "
                         "simgrid_update_xml converts old files)",
                         v);
  if (version > 410)
    return plat_xml_fail(x, n, "platform version %s comes from the future (expected 4 or 4.1)", v);
  return 0;
}

/* A child of <platform>; phase as in zone_walk (config first, deployment last). */
static int platform_child(xml_ctx *x, xmlNode *c, int *phase) {
  const char *e = plat_xml_name(c);
  int ph = !strcmp(e, "config") || !strcmp(e, "random")   ? 0
           : !strcmp(e, "actor") || !strcmp(e, "process") ? 2
                                                          : 1;
  if (ph < *phase)
    return plat_xml_fail(x, c, "<%s> must come before the zones in <platform>", e);
  *phase = ph;
  if (!strcmp(e, "config"))
    return config_elem(x, c);
  if (!strcmp(e, "zone") || !strcmp(e, "AS"))
    return zone_elem(x, c, -1);
  if (!strcmp(e, "cluster"))
    return plat_xml_cluster(x, c, -1);
  if (!strcmp(e, "trace") || !strcmp(e, "trace_connect"))
    plat_xml_warn(x, c, "<%s> ignored: tir does not model availability profiles", e);
  else if (!strcmp(e, "random") || ph == 2)
    return 0; /* deprecated, or deployment: nothing for the model */
  else if (!strcmp(e, "cabinet"))
    return plat_xml_fail(x, c, "<cabinet> is only allowed in a zone with routing=\"Cluster\"");
  else if (!strcmp(e, "peer") || !strcmp(e, "include"))
    return refused(x, c);
  else
    return plat_xml_fail(x, c,
                         "unknown element <%s> in <platform> (expected config, zone, cluster, "
                         "trace or trace_connect)",
                         e);
  return 0;
}

static int platform_elem(xml_ctx *x, xmlNode *root) {
  xattrs a;
  int phase = 0, rc = 0;
  if (strcmp(plat_xml_name(root), "platform") != 0)
    return plat_xml_fail(x, root, "the root element is <%s> (expected <platform version=\"4.1\">)",
                         plat_xml_name(root));
  if (plat_xml_attrs(x, root, "version", &a) != 0)
    return -1;
  rc = check_version(x, root, plat_xml_attr(&a, "version", "0.0"));
  plat_xml_attrs_free(&a);
  for (xmlNode *c = plat_xml_next(root, NULL); c && rc == 0; c = plat_xml_next(root, c))
    rc = platform_child(x, c, &phase);
  if (rc == 0 && x->p->nzones == 0)
    return plat_xml_fail(x, root, "the platform has no zone (expected a <zone> or a <cluster>)");
  return rc;
}

/* ==================================================================== loading */
static char *read_file(const char *path, size_t *len, char *err, size_t errlen) {
  const char *why;
  FILE *f = inputs_fopen(path, &why);
  if (!f) {
    x_err(err, errlen, "%s: cannot open the platform file: %s", path, why);
    return NULL;
  }
  size_t cap = 1 << 16, n = 0, got;
  char *text = x_malloc(cap);
  while ((got = fread(text + n, 1, cap - n, f)) > 0)
    if ((n += got) == cap)
      text = x_realloc(text, cap *= 2);
  int bad = ferror(f);
  fclose(f);
  if (bad || n > (size_t)INT32_MAX) {
    free(text);
    x_err(err, errlen, "%s: cannot read the platform file", path);
    return NULL;
  }
  *len = n;
  return text;
}

/* libxml2's structured error: keep the first error, with its line and column. */
static void on_error(void *user, xmlErrorPtr e) {
  xmlParserCtxtPtr c = user;
  xml_ctx *x = c ? c->_private : NULL;
  if (e->code == XML_ERR_NO_MEMORY)
    x_oom();
  if (!x || e->level < XML_ERR_ERROR || x->syntax_error)
    return;
  x->syntax_error = 1;
  size_t n = e->message ? strlen(e->message) : 0;
  while (n > 0 && (e->message[n - 1] == '\n' || e->message[n - 1] == ' '))
    n--;
  x_err(x->err, x->errlen, "%s:%d:%d: XML error: %.*s", x->file, e->line, e->int2, (int)n,
        e->message ? e->message : "");
}

/* External entities (SYSTEM or PUBLIC) are never loaded: a platform is one file. */
static xmlParserInputPtr no_external(const char *url, const char *id, xmlParserCtxtPtr c) {
  (void)id;
  xml_ctx *x = c ? c->_private : NULL;
  if (x && !x->syntax_error) {
    x->syntax_error = 1;
    x_err(x->err, x->errlen, "%s: external entity '%s' refused (a platform is one self-contained file)",
          x->file, url ? url : "?");
  }
  return NULL;
}

/* Entities are substituted while parsing (XML_PARSE_NOENT), where libxml2 bounds their
 * amplification; left as references, an attribute's value would be expanded when read,
 * unchecked and in quadratic time. External entities are refused (no_external). */
/* libxml2's messages outside a parser context (its generic error function): out of memory
 * ends the run as tir's own allocations do; anything else is reported by on_error. */
static void global_error(void *user, xmlErrorPtr e) {
  (void)user;
  if (e && e->code == XML_ERR_NO_MEMORY)
    x_oom();
}

static void quiet(void *user, const char *msg, ...) { (void)user, (void)msg; }

static xmlDoc *parse(xml_ctx *x) {
  xmlSetExternalEntityLoader(no_external);
  xmlSetStructuredErrorFunc(NULL, global_error);
  xmlSetGenericErrorFunc(NULL, quiet);
  xmlParserCtxtPtr c = xmlNewParserCtxt();
  if (!c)
    x_oom();
  c->_private = x;
  c->sax->startElementNs = start_element;
  c->sax->serror = on_error;
  xmlDoc *doc = xmlCtxtReadMemory(c, x->text, (int)x->len, x->file, NULL,
                                  XML_PARSE_NONET | XML_PARSE_NOENT | XML_PARSE_BIG_LINES);
  if (doc && (!c->wellFormed || x->syntax_error)) {
    xmlFreeDoc(doc);
    doc = NULL;
  }
  if (!doc && !x->syntax_error)
    x_err(x->err, x->errlen, "%s:1:1: XML error: cannot parse the document", x->file);
  xmlFreeParserCtxt(c);
  return doc;
}

platform *plat_load(const char *path, char *err, size_t errlen) {
  size_t len = 0;
  char *text = read_file(path, &len, err, errlen);
  if (!text)
    return NULL;
  xml_ctx x = {path, text, len, plat_new(path), err, errlen, 0, NULL, 0};
  xmlDoc *doc = parse(&x);
  xmlNode *root = doc ? xmlDocGetRootElement(doc) : NULL;
  int rc = -1;
  if (doc && !root)
    x_err(err, errlen, "%s:1:1: the document has no element (expected <platform>)", path);
  else if (root && platform_elem(&x, root) == 0) {
    char msg[768];
    rc = plat_seal(x.p, msg, sizeof msg);
    if (rc != 0)
      x_err(err, errlen, "%s: %s", path, msg);
    else if (plat_host_count(x.p) == 0) /* nothing to place a rank on */
      rc = x_err(err, errlen, "%s: the platform has no host (an empty zone, or a cluster whose radical "
                 "names no node?)", path);
  }
  xmlFreeDoc(doc);
  free(text);
  free(x.bol);
  if (rc != 0) {
    plat_free(x.p);
    return NULL;
  }
  return x.p;
}
