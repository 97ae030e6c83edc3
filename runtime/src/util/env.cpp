#include "util/env.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>

namespace cairn {

int EnvFlag(const char *name, int fallback) {
  const char *v = std::getenv(name);
  if (!v) return fallback;
  if (std::strcmp(v, "1") == 0) return 1;
  if (std::strcmp(v, "0") == 0) return 0;
  return fallback;
}

bool EnvMegabytes(const char *name, uint64_t fallback, uint64_t *bytes, std::string *problem) {
  const char *v = std::getenv(name);
  *bytes = fallback;
  if (!v || !*v) return true;
  char *end = nullptr;
  errno = 0;
  const unsigned long long mb = v[0] >= '0' && v[0] <= '9' ? std::strtoull(v, &end, 10) : 0;
  if (mb == 0 || *end || errno == ERANGE || mb > (uint64_t{1} << 43)) {
    *problem = std::string(name) + "=" + v + " is not a positive whole number of MiB";
    return false;
  }
  *bytes = uint64_t(mb) << 20;
  return true;
}

}  // namespace cairn
