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
  const std::filesystem::path path(dir);
  if (!std::filesystem::exists(path, ec)) return static_cast<bool>(ec);
  // An empty folder holds nothing; any other (a store, one that lost its db/, a folder that is
  // no store at all) is for the open to judge and name. An error other than absence (a folder
  // that may not be read) is not "no store" either: the open says what it is.
  const bool empty = std::filesystem::is_directory(path, ec) && std::filesystem::is_empty(path, ec);
  return !empty || static_cast<bool>(ec);
}

}  // namespace cairn::store
