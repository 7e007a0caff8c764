/* energy_report.c - what the energy model reports: summary lines, the JSON part of the
 * report, the power-over-time CSV, and queries.
 *
 * Summary lines follow DESIGN.md's contract ("Energy of host H: X J", "Total energy: X J")
 * with SimGrid's 6 decimals; the JSON report carries full precision (%.17g). A region's
 * energy is the sum, over hosts, of what was attributed to it (static, dynamic, polling);
 * the regions (with "outside any region") add up to the total, up to rounding. */
#include "energy_impl.h"

#include "output.h"
#include "xalloc.h"

#include <string.h>

/* ====== queries ====== */

double energy_total(const energy *en) {
  double t = 0;
  for (int i = 0; i < en->nhosts; i++)
    t += en->hosts[i].energy;
  return t;
}

double energy_host(const energy *en, int i) { return i >= 0 && i < en->nhosts ? en->hosts[i].energy : 0; }

/* Sums the parts of region id over all hosts into parts[3]; returns their total. */
static double region_sum(const energy *en, int id, double parts[3]) {
  parts[0] = parts[1] = parts[2] = 0;
  for (int i = 0; i < en->nhosts; i++)
    for (size_t k = 0; k < en->hosts[i].nslots; k++) {
      const en_slot *s = &en->hosts[i].slots[k];
      if (s->region == id)
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
      return region_sum(en, (int)id, out);
  return 0;
}

/* ====== summary ====== */

static void print_regions(const energy *en, FILE *out) {
  double p[3];
  for (size_t id = 1; id < en->nregions; id++) {
    double t = region_sum(en, (int)id, p);
    fprintf(out, "Energy of region %s: %.6f J (static %.6f J, dynamic %.6f J, polling %.6f J)\n", en->regions[id],
            t, p[0], p[1], p[2]);
  }
  double t = region_sum(en, EN_OUTSIDE, p);
  fprintf(out, "Energy outside any region: %.6f J (static %.6f J, dynamic %.6f J, polling %.6f J)\n", t, p[0], p[1],
          p[2]);
}

void energy_print(const energy *en, FILE *out) {
  double used = 0;
  for (int i = 0; i < en->nhosts; i++) {
    fprintf(out, "Energy of host %s: %.6f J\n", en->hosts[i].name, en->hosts[i].energy);
    if (en->hosts[i].used)
      used += en->hosts[i].energy;
  }
  double total = energy_total(en);
  fprintf(out, "Total energy: %.6f J\n", total);
  fprintf(out, "Energy of used hosts: %.6f J, of unused/idle hosts: %.6f J\n", used, total - used);
  if (en->nregions > 1)
    print_regions(en, out);
}

/* ====== JSON ====== */

static void json_str(FILE *f, const char *s) {
  fputc('"', f);
  for (; *s; s++) {
    if (*s == '"' || *s == '\\')
      fprintf(f, "\\%c", *s);
    else if ((unsigned char)*s < 0x20)
      fprintf(f, "\\u%04x", (unsigned)*s);
    else
      fputc(*s, f);
  }
  fputc('"', f);
}

static void json_parts(FILE *f, const double p[3]) {
  fprintf(f, "\"energy_J\": %.17g, \"static_J\": %.17g, \"dynamic_J\": %.17g, \"polling_J\": %.17g",
          p[0] + p[1] + p[2], p[0], p[1], p[2]);
}

static void json_host(const energy *en, const en_host *h, FILE *f) {
  fprintf(f, "      {\"name\": ");
  json_str(f, h->name);
  fprintf(f, ", \"energy_J\": %.17g, \"pstate\": %d, \"cores\": %d, \"used\": %s, \"has_profile\": %s,\n", h->energy,
          h->pstate, h->cores, h->used ? "true" : "false", h->prof.has ? "true" : "false");
  fprintf(f, "       \"regions\": [");
  for (size_t k = 0; k < h->nslots; k++) {
    const en_slot *s = &h->slots[k];
    double p[3] = {s->e_static, s->e_dyn, s->e_poll};
    fprintf(f, "%s{\"region\": ", k ? ", " : "");
    if (s->region == EN_OUTSIDE)
      fprintf(f, "null, ");
    else
      json_str(f, en->regions[s->region]), fprintf(f, ", ");
    json_parts(f, p);
    fprintf(f, "}");
  }
  fprintf(f, "]}");
}

void energy_report_json(const energy *en, FILE *out) {
  double used = 0, p[3];
  for (int i = 0; i < en->nhosts; i++)
    used += en->hosts[i].used ? en->hosts[i].energy : 0;
  double total = energy_total(en);
  fprintf(out, "{\n    \"total_J\": %.17g, \"used_hosts_J\": %.17g, \"unused_hosts_J\": %.17g, \"end\": %.17g,\n",
          total, used, total - used, en->end);
  fprintf(out, "    \"hosts\": [\n");
  for (int i = 0; i < en->nhosts; i++) {
    json_host(en, &en->hosts[i], out);
    fprintf(out, "%s\n", i + 1 < en->nhosts ? "," : "");
  }
  fprintf(out, "    ],\n    \"regions\": [\n");
  for (size_t id = 0; id < en->nregions; id++) {
    region_sum(en, (int)id, p);
    fprintf(out, "      {\"region\": ");
    if (id == EN_OUTSIDE)
      fprintf(out, "null, ");
    else
      json_str(out, en->regions[id]), fprintf(out, ", ");
    json_parts(out, p);
    fprintf(out, "}%s\n", id + 1 < en->nregions ? "," : "");
  }
  fprintf(out, "    ]\n  }");
}

/* ====== power over time ====== */


int energy_write_power_trace(const energy *en, const char *path, char *err, size_t errlen) {
  if (!en->keep_log)
    return x_err(err, errlen, "%s: the power log was not kept (energy_keep_power_trace)", path);
  char *tmp;
  FILE *f = output_open(path, &tmp, err, errlen);
  if (!f)
    return -1;
  fprintf(f, "time,host,watts\n");
  for (size_t i = 0; i < en->nlog; i++) {
    const en_rec *r = &en->log[i];
    if (r->host < 0)
      continue;
    fprintf(f, "%.17g,", r->t);
    output_csv_field(f, en->hosts[r->host].name);
    fprintf(f, ",%.17g\n", r->w);
  }
  return output_commit(f, tmp, path, 0, err, errlen);
}
