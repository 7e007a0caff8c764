/* coll_settings.c - the configuration keys the collectives own: smpi/coll-selector and
 * smpi/<collective> (one forced algorithm per kind, e.g. smpi/bcast:binomial_tree).
 *
 * The base layer's config knows nothing of collectives but two fields of config
 * (coll_selector, coll_algo[kind]); this file validates the names against the registry
 * and stores them there. Registered with coll_settings_register() by the front end. */
#include "coll.h"

#include "config.h"
#include "xalloc.h"

#include <stdio.h>
#include <string.h>

static int set_selector(config *c, const char *value, char *err, size_t errlen) {
  if (coll_selector_find(value) < 0)
    return x_err(err, errlen, "smpi/coll-selector: unknown selector '%s' (valid: %s)", value,
                 coll_selector_names());
  snprintf(c->coll_selector, sizeof c->coll_selector, "%s", value);
  return 1;
}

static int set_algo(config *c, int kind, const char *value, char *err, size_t errlen) {
  if (coll_algo_find(kind, value) < 0) {
    char list[1024];
    coll_algo_names(kind, list, sizeof list);
    return x_err(err, errlen, "smpi/%s: unknown algorithm '%s'. Valid algorithms: %s", coll_kind_name(kind), value,
                 list);
  }
  snprintf(c->coll_algo[kind], sizeof c->coll_algo[kind], "%s", value);
  return 1;
}

static int set(config *c, const char *key, const char *value, char *err, size_t errlen) {
  if (!strcmp(key, "smpi/coll-selector"))
    return set_selector(c, value, err, errlen);
  int kind = strncmp(key, "smpi/", 5) ? -1 : coll_kind_find(key + 5);
  return kind < 0 ? 0 : set_algo(c, kind, value, err, errlen);
}

static void help(FILE *out) {
  fprintf(out, "  %-30s %s (default: %s)\n", "smpi/coll-selector", "collective selector", "default");
  fprintf(out, "  %-30s force one algorithm (see --list-algorithms)\n", "smpi/<collective>");
}

static const cfg_owner owner = {set, help, "smpi/coll-selector, smpi/<collective>"};

void coll_settings_register(void) { cfg_add_owner(&owner); }
