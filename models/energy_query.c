/* energy_query.c - read-only queries on the energy model's results: totals per host and
 * per code region, views of hosts and their region slots, the power log.
 *
 * The writers (output/energy_report.c: summary lines, JSON, power CSV) read the model
 * through these alone. A region's energy is the sum, over hosts, of what was attributed
 * to it (static, dynamic, polling); the regions (with "outside any region", id 0) add up
 * to the total, up to rounding. */
#include "energy_impl.h"

#include <string.h>

double energy_total(const energy *en) {
  double t = 0;
  for (int i = 0; i < en->nhosts; i++)
    t += en->hosts[i].energy;
  return t;
}

double energy_host(const energy *en, int i) { return i >= 0 && i < en->nhosts ? en->hosts[i].energy : 0; }

int energy_host_count(const energy *en) { return en->nhosts; }

void energy_host_view(const energy *en, int i, energy_host_info *out) {
  const en_host *h = &en->hosts[i];
  *out = (energy_host_info){h->name, h->energy, h->pstate, h->cores, h->used, h->prof.has, h->nslots};
}

size_t energy_host_slot(const energy *en, int i, size_t k, double parts[3]) {
  const en_slot *s = &en->hosts[i].slots[k];
  parts[0] = s->e_static, parts[1] = s->e_dyn, parts[2] = s->e_poll;
  return (size_t)s->region;
}

size_t energy_region_count(const energy *en) { return en->nregions; }

const char *energy_region_name(const energy *en, size_t id) { return id == EN_OUTSIDE ? NULL : en->regions[id]; }

double energy_region_parts(const energy *en, size_t id, double parts[3]) {
  parts[0] = parts[1] = parts[2] = 0;
  for (int i = 0; i < en->nhosts; i++)
    for (size_t k = 0; k < en->hosts[i].nslots; k++) {
      const en_slot *s = &en->hosts[i].slots[k];
      if ((size_t)s->region == id)
        parts[0] += s->e_static, parts[1] += s->e_dyn, parts[2] += s->e_poll;
    }
  return parts[0] + parts[1] + parts[2];
}

double energy_region(const energy *en, const char *name, double parts[3]) {
  double tmp[3];
  double *out = parts ? parts : tmp;
  out[0] = out[1] = out[2] = 0;
  for (size_t id = 0; id < en->nregions; id++)
    if (name ? id > 0 && !strcmp(en->regions[id], name) : id == EN_OUTSIDE)
      return energy_region_parts(en, id, out);
  return 0;
}

double energy_end(const energy *en) { return en->end; }

int energy_power_log_kept(const energy *en) { return en->keep_log; }

size_t energy_power_log_count(const energy *en) { return en->nlog; }

int energy_power_log_at(const energy *en, size_t i, double *t, const char **host, double *watts) {
  const en_rec *r = &en->log[i];
  if (r->host < 0)
    return 0;
  *t = r->t, *host = en->hosts[r->host].name, *watts = r->w;
  return 1;
}
