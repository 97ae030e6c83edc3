// Which store directory to use: --store DIR, else $CAIRN_STORE, else ./cairn.store.
#include <cstdlib>

#include "cairn/store.h"

namespace cairn::store {

std::string ResolveStoreDir(std::string_view flag_value) {
  if (!flag_value.empty()) return std::string(flag_value);
  const char *env = std::getenv("CAIRN_STORE");
  if (env != nullptr && env[0] != '\0') return env;
  return "./cairn.store";
}

}  // namespace cairn::store
