/* fuzz_platform.c - libFuzzer harness: the platform loader (libxml2 and SimGrid's DTD by
 * hand, zones, clusters, routing), then a small replay on the platform loaded.
 *
 * The input is a platform file. When it loads, its <config> is applied and a ring of
 * messages and an allreduce among its first (up to 4) hosts are replayed, which asks the
 * routing for routes between them. Whatever the bytes: no crash, no hang, no leak, no
 * undefined behaviour. Seeds: the platforms of examples/, test/data and platforms/. */
#include "fuzz_common.h"

#include "coll.h"
#include "replay.h"

static FILE *devnull;

static const char ring[] =
    "0 init\n1 init\n2 init\n3 init\n"
    "0 send 1 0 1000\n1 recv 0 0 1000\n1 send 2 0 100000\n2 recv 1 0 100000\n"
    "2 send 3 0 10\n3 recv 2 0 10\n3 send 0 0 1e6\n0 recv 3 0 1e6\n"
    "0 allreduce 1000 10\n1 allreduce 1000 10\n2 allreduce 1000 10\n3 allreduce 1000 10\n"
    "0 compute 1e6\n1 compute 1e6\n2 compute 1e6\n3 compute 1e6\n";

int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc, (void)argv;
  coll_settings_register();
  devnull = fopen("/dev/null", "w");
  return 0;
}

/* The platform's <config> settings; -1 when one is refused. */
static int settings(platform *p, config *c) {
  char err[1024];
  cfg_init(c);
  for (int i = 0; i < plat_config_count(p); i++) {
    const char *k, *v;
    plat_config_at(p, i, &k, &v);
    if (cfg_set(c, k, v, err, sizeof err) < 0)
      return -1;
  }
  return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size > 65536)
    return 0;
  char err[2048];
  platform *p = plat_load(fuzz_file(".xml", data, size), err, sizeof err);
  if (!p)
    return 0;
  int np = plat_host_count(p) < 4 ? plat_host_count(p) : 4;
  replay_opts o = {.trace = fuzz_file(".tit", (const uint8_t *)ring, sizeof ring - 1), .plat = p, .np = np,
                   .warn = devnull, .model = net_model_find("hybrid")};
  if (np >= 1 && settings(p, &o.cfg) == 0) {
    replay_result res;
    replay_run(&o, &res, err, sizeof err);
    replay_result_free(&res);
  }
  cfg_free(&o.cfg);
  plat_free(p);
  return 0;
}
