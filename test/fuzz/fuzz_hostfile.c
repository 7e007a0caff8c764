/* fuzz_hostfile.c - libFuzzer harness: the hostfile parser (replay_read_hostfile).
 *
 * The input is a hostfile read against a small fixed platform (hosts Tremblay, Jupiter,
 * Fafard, Ginette), once without a limit and once with a limit of 3 entries. Whatever the
 * bytes: no crash, no leak, no undefined behaviour, and the entries are host indices of
 * the platform, at most the limit. Seeds: the hostfiles of examples/ and test/data. */
#include "fuzz_common.h"

#include "replay.h"

static platform *plat;

static const char xml[] =
    "<?xml version='1.0'?>\n<platform version=\"4.1\"><zone id=\"z\" routing=\"Full\">\n"
    "<host id=\"Tremblay\" speed=\"1Gf\"/><host id=\"Jupiter\" speed=\"1Gf\"/>\n"
    "<host id=\"Fafard\" speed=\"1Gf\"/><host id=\"Ginette\" speed=\"1Gf\"/>\n"
    "</zone></platform>\n";

int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc, (void)argv;
  char err[1024];
  plat = plat_load(fuzz_file(".xml", (const uint8_t *)xml, sizeof xml - 1), err, sizeof err);
  if (!plat)
    abort();
  return 0;
}

static void read_with(const char *path, int limit) {
  char err[1024];
  int *hosts = NULL;
  int n = replay_read_hostfile(path, plat, limit, &hosts, err, sizeof err);
  if (n > 0 && ((limit > 0 && n > limit) || n > REPLAY_MAX_RANKS))
    abort();
  for (int i = 0; i < n; i++)
    if (hosts[i] < 0 || hosts[i] >= plat_host_count(plat))
      abort();
  free(hosts);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size > 65536)
    return 0;
  const char *path = fuzz_file(".hosts", data, size);
  read_with(path, 3);
  read_with(path, 0);
  return 0;
}
