/* net.c - the table of network model backends. */
#include "net.h"

#include <string.h>

static const net_model *models[] = {&net_hybrid, &net_fluid, &net_loggps};

const net_model *net_model_find(const char *name) {
  for (size_t i = 0; i < sizeof models / sizeof models[0]; i++)
    if (!strcmp(models[i]->name, name))
      return models[i];
  return NULL;
}

const char *net_model_names(void) { return "hybrid, fluid, loggps"; }
