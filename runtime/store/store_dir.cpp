// Which store directory to use: --store DIR, else $CAIRN_STORE, else ./cairn.store; and whether
// a store's files are there.
#include <cstdlib>
#include <filesystem>

#include "cairn/store.h"

namespace cairn::store {

std::string ResolveStoreDir(std::string_view flag_value) {
  if (!flag_value.empty()) return std::string(flag_value);
  const char *env = std::getenv("CAIRN_STORE");
  if (env != nullptr && env[0] != '\0') return env;
  return "./cairn.store";
}

bool StoreFilesAt(std::string_view dir) {
  std::error_code ec;
  // An error other than absence (a folder that may not be read) is not "no store": the open
  // that follows says what it is.
  const bool there = std::filesystem::exists(std::filesystem::path(dir) / "db", ec);
  return there || ec;
}

}  // namespace cairn::store
