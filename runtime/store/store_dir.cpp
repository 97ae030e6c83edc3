// Which store directory to use: --store DIR, else $CAIRN_STORE, else ./cairn.store; whether a
// store's files are there, and whether this process may write them.
#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>

#include "cairn/store.h"
#include "store_lock.h"

namespace cairn::store {

std::string ResolveStoreDir(std::string_view flag_value) {
  std::string dir;
  if (!flag_value.empty()) {
    dir = std::string(flag_value);
  } else if (const char *env = std::getenv("CAIRN_STORE"); env != nullptr && env[0] != '\0') {
    dir = env;
  } else {
    return "./cairn.store";
  }
  // `st/` and `st` are one store, named one way in messages and paths ("st//db" was written).
  while (dir.size() > 1 && dir.back() == '/') dir.pop_back();
  return dir;
}

bool ReadOnlyRequested() {
  const char *v = std::getenv("CAIRN_STORE_READ_ONLY");
  return v != nullptr && v[0] != '\0' && std::strcmp(v, "0") != 0;
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

std::string WhyUnwritable(const std::string &dir) {
  // The paths a writing open writes (the RocksDB folder's name is store.cpp's kRocksSubdir);
  // one that is not there is judged by its directory, checked first.
  for (const std::string &path : {dir, dir + "/db", dir + "/" + kLockFileName}) {
    if (faccessat(AT_FDCWD, path.c_str(), W_OK, AT_EACCESS) == 0) continue;
    const int err = errno;
    if (err == EACCES || err == EROFS || err == EPERM)
      return "this process cannot write " + path + " (" + std::strerror(err) + ")";
  }
  return std::string();
}

}  // namespace cairn::store
