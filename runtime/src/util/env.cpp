#include "util/env.h"

#include <cstdlib>
#include <cstring>

#include "util/fatal.h"

namespace cairn {

int EnvFlag(const char *name, int fallback) {
  const char *v = std::getenv(name);
  if (!v) return fallback;
  if (std::strcmp(v, "1") == 0) return 1;
  if (std::strcmp(v, "0") == 0) return 0;
  return fallback;
}

uint64_t EnvMegabytes(const char *name, uint64_t fallback) {
  const char *v = std::getenv(name);
  if (!v || !*v) return fallback;
  char *end = nullptr;
  unsigned long long mb = std::strtoull(v, &end, 10);
  if (*end || mb == 0) Fatal("%s=%s is not a positive number of MiB", name, v);
  return uint64_t(mb) << 20;
}

}  // namespace cairn
