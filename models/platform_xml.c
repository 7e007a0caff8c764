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

/* Line and column (1-based) of the '<' opening element n. */
static void position(const xml_ctx *x, const xmlNode *n, long *line, long *col) {
  uintptr_t stored = n ? (uintptr_t)n->_private : 0;
  size_t off = stored ? (size_t)stored - 1 : 0;
  if (!stored || off > x->len) {
    *line = n ? xmlGetLineNo(n) : 0;
    *col = 1;
    return;
  }
  while (off > 0 && x->text[off] != '<')
    off--;
  *line = 1;
  size_t bol = 0;
  for (size_t i = 0; i < off; i++)
    if (x->text[i] == '\n') {
      (*line)++;
      bol = i + 1;
    }
  *col = (long)(off - bol) + 1;
}

int xml_fail(xml_ctx *x, const xmlNode *n, const char *fmt, ...) {
  char msg[1024];
  long line, col;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  position(x, n, &line, &col);
  return x_err(x->err, x->errlen, "%s:%ld:%ld: %s", x->file, line, col, msg);
}

void xml_warn(xml_ctx *x, const xmlNode *n, const char *fmt, ...) {
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
xmlNode *xml_next(const xmlNode *parent, xmlNode *prev) {
  for (xmlNode *c = prev ? prev->next : parent->children; c; c = c->next)
    if (c->type == XML_ELEMENT_NODE)
      return c;
  return NULL;
}

const char *xml_name(const xmlNode *n) { return (const char *)n->name; }

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

static int check_required(xml_ctx *x, const xmlNode *n, const char *spec, const xattrs *a) {
  for (const char *s = spec; *s;) {
    size_t w = strcspn(s, " ");
    if (w > 0 && s[w - 1] == '*') {
      int found = 0;
      for (int i = 0; i < a->n && !found; i++)
        found = strlen(a->name[i]) == w - 1 && strncmp(a->name[i], s, w - 1) == 0;
      if (!found)
        return xml_fail(x, n, "<%s> needs the attribute '%.*s'", xml_name(n), (int)(w - 1), s);
    }
    s += w;
    s += strspn(s, " ");
  }
  return 0;
}

int xml_attrs(xml_ctx *x, const xmlNode *n, const char *spec, xattrs *a) {
  a->n = 0;
  for (const xmlAttr *at = n->properties; at; at = at->next) {
    int req;
    if (!in_spec(spec, (const char *)at->name, &req)) {
      xml_fail(x, n, "unknown attribute '%s' in <%s> (expected: %s)", (const char *)at->name,
               xml_name(n), *spec ? spec : "none");
      xattrs_free(a);
      return -1;
    }
    xmlChar *v = xmlNodeListGetString(n->doc, at->children, 1);
    a->name[a->n] = (const char *)at->name;
    a->value[a->n++] = x_strdup(v ? (const char *)v : "");
    xmlFree(v);
  }
  if (check_required(x, n, spec, a) != 0) {
    xattrs_free(a);
    return -1;
  }
  return 0;
}

const char *xattr(const xattrs *a, const char *name, const char *dflt) {
  for (int i = 0; i < a->n; i++)
    if (strcmp(a->name[i], name) == 0)
      return a->value[i];
  return dflt;
}

void xattrs_free(xattrs *a) {
  for (int i = 0; i < a->n; i++)
    free(a->value[i]);
  a->n = 0;
}

int xml_unit(xml_ctx *x, const xmlNode *n, units_kind kind, const char *s, const char *what,
             double *out) {
  char msg[512];
  int unitless = 0;
  if (units_parse(kind, s, out, &unitless, msg, sizeof msg) != 0)
    return xml_fail(x, n, "bad %s: %s", what, msg);
  if (unitless && *out != 0)
    xml_warn(x, n, "deprecated unit-less value '%s' for %s (append %s)", s, what,
             kind == UNITS_SPEED ? "'f' for flop/s" : kind == UNITS_BANDWIDTH ? "'Bps'" : "'s'");
  return 0;
}

int xml_prop(xml_ctx *x, xmlNode *n, xattrs *a) {
  if (xml_attrs(x, n, "id* value*", a) != 0)
    return -1;
  if (xml_next(n, NULL)) {
    xattrs_free(a);
    return xml_fail(x, xml_next(n, NULL), "<prop> has no children");
  }
  return 0;
}
