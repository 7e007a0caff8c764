/* tt_callsite.c - call-site names for TIR_CALLSITE_REGIONS (see tt_callsite.h).
 *
 * The cache is a small open-addressing table keyed by address. Resolving a new address
 * runs addr2line through popen: a fork per distinct call site (programs have tens), only
 * when callsite regions are asked for. A persistent addr2line coprocess per module would
 * be cheaper for programs with thousands of call sites. */
#define _GNU_SOURCE 1 /* dladdr */
#include "tt_callsite.h"

#include <dlfcn.h>
#include <elf.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/xalloc.h"

struct site {
  void *addr; /* return address, NULL = empty slot */
  char *name; /* its name */
};

static struct site *tab; /* cache, cap entries */
static size_t cap, used;

static const char *base_name(const char *path) {
  const char *s = strrchr(path, '/');
  return s ? s + 1 : path;
}

/* file:line of off in module, from addr2line; 0 if unknown */
static int addr2line(const char *module, uintptr_t off, char *out, size_t len) {
  if (strchr(module, '\''))
    return 0;
  char cmd[4096];
  snprintf(cmd, sizeof cmd, "addr2line -e '%s' 0x%lx 2>/dev/null", module, (unsigned long)off);
  FILE *p = popen(cmd, "r");
  if (!p)
    return 0;
  char line[1024] = "";
  char *ok = fgets(line, sizeof line, p);
  pclose(p);
  line[strcspn(line, "\n (")] = 0;
  if (!ok || line[0] == '?' || !strchr(line, ':') || strstr(line, ":?") || strstr(line, ":0"))
    return 0;
  snprintf(out, len, "%s", base_name(line));
  return 1;
}

static char *resolve(void *addr) {
  Dl_info info;
  char name[TT_CALLSITE_MAX + 1];
  if (!dladdr(addr, &info) || !info.dli_fname || !info.dli_fbase)
    return x_asprintf("%p", addr);
  uintptr_t pc = (uintptr_t)addr - 1; /* inside the call instruction */
  const Elf64_Ehdr *eh = info.dli_fbase;
  uintptr_t off = eh->e_type == ET_EXEC ? pc : pc - (uintptr_t)info.dli_fbase;
  const char *module = info.dli_fname[0] ? info.dli_fname : "/proc/self/exe";
  if (addr2line(module, off, name, sizeof name))
    return x_strdup(name);
  return x_asprintf("%.60s+0x%lx", base_name(module), (unsigned long)off);
}

const char *tt_callsite_name(void *addr) {
  if (!addr)
    return "start";
  if (2 * (used + 1) > cap) {
    struct site *old = tab;
    size_t ocap = cap;
    cap = cap ? 2 * cap : 64;
    tab = x_calloc(cap, sizeof *tab);
    used = 0;
    for (size_t i = 0; i < ocap; i++)
      if (old[i].addr) {
        size_t j = ((uintptr_t)old[i].addr >> 2) & (cap - 1);
        while (tab[j].addr)
          j = (j + 1) & (cap - 1);
        tab[j] = old[i];
        used++;
      }
    free(old);
  }
  size_t j = ((uintptr_t)addr >> 2) & (cap - 1);
  for (; tab[j].addr; j = (j + 1) & (cap - 1))
    if (tab[j].addr == addr)
      return tab[j].name;
  tab[j].addr = addr;
  tab[j].name = resolve(addr);
  used++;
  return tab[j].name;
}

void tt_callsite_clear(void) {
  for (size_t i = 0; i < cap; i++)
    free(tab[i].name);
  free(tab);
  tab = NULL;
  cap = used = 0;
}
