/* energy_report.c - the energy model's outputs: summary lines, the JSON part of the
 * report, the power-over-time CSV.
 *
 * Summary lines follow DESIGN.md's contract ("Energy of host H: X J", "Total energy: X J")
 * with SimGrid's 6 decimals; the JSON report carries full precision (%.17g). The numbers
 * come from the model's queries (models/energy.h); this file only writes them. */
#include "output.h"

#include "energy.h"
#include "xalloc.h"

/* ====== summary ====== */

static void print_regions(const energy *en, FILE *out) {
  double p[3];
  for (size_t id = 1; id < energy_region_count(en); id++) {
    double t = energy_region_parts(en, id, p);
    fprintf(out, "Energy of region %s: %.6f J (static %.6f J, dynamic %.6f J, polling %.6f J)\n",
            energy_region_name(en, id), t, p[0], p[1], p[2]);
  }
  double t = energy_region_parts(en, 0, p);
  fprintf(out, "Energy outside any region: %.6f J (static %.6f J, dynamic %.6f J, polling %.6f J)\n", t, p[0], p[1],
          p[2]);
}

static double used_energy(const energy *en) {
  double used = 0;
  energy_host_info h;
  for (int i = 0; i < energy_host_count(en); i++)
    if (energy_host_view(en, i, &h), h.used)
      used += h.energy;
  return used;
}

void output_energy_summary(const energy *en, FILE *out) {
  energy_host_info h;
  for (int i = 0; i < energy_host_count(en); i++) {
    energy_host_view(en, i, &h);
    fprintf(out, "Energy of host %s: %.6f J\n", h.name, h.energy);
  }
  double total = energy_total(en), used = used_energy(en);
  fprintf(out, "Total energy: %.6f J\n", total);
  fprintf(out, "Energy of used hosts: %.6f J, of unused/idle hosts: %.6f J\n", used, total - used);
  if (energy_region_count(en) > 1)
    print_regions(en, out);
}

/* ====== JSON ====== */

static void json_parts(FILE *f, const double p[3]) {
  fprintf(f, "\"energy_J\": %.17g, \"static_J\": %.17g, \"dynamic_J\": %.17g, \"polling_J\": %.17g",
          p[0] + p[1] + p[2], p[0], p[1], p[2]);
}

/* {"region": NAME or null, parts...} */
static void json_region(FILE *f, const energy *en, size_t id, const double p[3]) {
  fprintf(f, "{\"region\": ");
  output_json_string(f, energy_region_name(en, id));
  fprintf(f, ", ");
  json_parts(f, p);
  fprintf(f, "}");
}

static void json_host(const energy *en, int i, FILE *f) {
  energy_host_info h;
  energy_host_view(en, i, &h);
  fprintf(f, "      {\"name\": ");
  output_json_string(f, h.name);
  fprintf(f, ", \"energy_J\": %.17g, \"pstate\": %d, \"cores\": %d, \"used\": %s, \"has_profile\": %s,\n", h.energy,
          h.pstate, h.cores, h.used ? "true" : "false", h.has_profile ? "true" : "false");
  fprintf(f, "       \"regions\": [");
  for (size_t k = 0; k < h.nslots; k++) {
    double p[3];
    size_t id = energy_host_slot(en, i, k, p);
    fprintf(f, "%s", k ? ", " : "");
    json_region(f, en, id, p);
  }
  fprintf(f, "]}");
}

void output_energy_json(const energy *en, FILE *out) {
  double total = energy_total(en), used = used_energy(en), p[3];
  fprintf(out, "{\n    \"total_J\": %.17g, \"used_hosts_J\": %.17g, \"unused_hosts_J\": %.17g, \"end\": %.17g,\n",
          total, used, total - used, energy_end(en));
  fprintf(out, "    \"hosts\": [\n");
  int n = energy_host_count(en);
  for (int i = 0; i < n; i++) {
    json_host(en, i, out);
    fprintf(out, "%s\n", i + 1 < n ? "," : "");
  }
  fprintf(out, "    ],\n    \"regions\": [\n");
  size_t nr = energy_region_count(en);
  for (size_t id = 0; id < nr; id++) {
    energy_region_parts(en, id, p);
    fprintf(out, "      ");
    json_region(out, en, id, p);
    fprintf(out, "%s\n", id + 1 < nr ? "," : "");
  }
  fprintf(out, "    ]\n  }");
}

/* ====== power over time ====== */

int output_power_trace(const energy *en, const char *path, char *err, size_t errlen) {
  if (!energy_power_log_kept(en))
    return x_err(err, errlen, "%s: the power log was not kept (energy_keep_power_trace)", path);
  char *tmp;
  FILE *f = output_open(path, &tmp, err, errlen);
  if (!f)
    return -1;
  fprintf(f, "time,host,watts\n");
  for (size_t i = 0; i < energy_power_log_count(en); i++) {
    double t, w;
    const char *host;
    if (!energy_power_log_at(en, i, &t, &host, &w))
      continue;
    fprintf(f, "%.17g,", t);
    output_csv_field(f, host);
    fprintf(f, ",%.17g\n", w);
  }
  return output_commit(f, tmp, path, 0, err, errlen);
}
