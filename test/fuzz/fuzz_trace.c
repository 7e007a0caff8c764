/* fuzz_trace.c - libFuzzer harness: the trace reader, the validator and a full replay.
 *
 * The input is one trace shared by all ranks (plain or gzip: the reader tells by the
 * first bytes); the first byte gives the run: 1 + (byte % 4) ranks, bit 2 tir/polling:simgrid
 * (every poll charged, else polling runs replayed as waits), bit 3 tir/simgrid-compat, bit 4
 * --allow-truncated; the rest of the input is the trace. It is validated (validate_traces)
 * and replayed on the built-in cluster of that many hosts (replay_run): whatever the bytes,
 * both must return (no crash, no hang, no leak, no undefined behaviour); any exit code is
 * fine. Seeds: the traces of examples/ and
 * test/data (test/fuzz/run). */
#include "fuzz_common.h"

#include "coll.h"
#include "replay.h"
#include "validate.h"

static FILE *devnull;

int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc, (void)argv;
  coll_settings_register();
  devnull = fopen("/dev/null", "w");
  return 0;
}

static void validate(const char *path, int np) {
  char err[1024];
  trace_opts to = {0};
  trace_set *t = trace_open(path, &to, err, sizeof err);
  if (t) {
    validate_traces(t, np, NULL, err, sizeof err);
    trace_close(t);
  }
}

static void replay(const char *path, int np, unsigned mode) {
  char err[2048];
  platform *p = plat_default_cluster(np);
  replay_opts o = {.trace = path, .plat = p, .np = np, .warn = devnull, .model = net_model_find("hybrid"),
                   .allow_truncated = (mode & 16) != 0};
  cfg_init(&o.cfg);
  if (mode & 4)
    cfg_set(&o.cfg, "tir/polling", "simgrid", err, sizeof err);
  if (mode & 8)
    cfg_set(&o.cfg, "tir/simgrid-compat", "yes", err, sizeof err);
  replay_result res;
  replay_run(&o, &res, err, sizeof err);
  replay_result_free(&res);
  cfg_free(&o.cfg);
  plat_free(p);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 1 || size > 65536)
    return 0;
  int np = 1 + data[0] % 4;
  const char *path = fuzz_file(".tit", data + 1, size - 1);
  validate(path, np);
  replay(path, np, data[0]);
  return 0;
}
