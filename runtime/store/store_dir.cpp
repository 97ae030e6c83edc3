// Which store directory to use: --store DIR, else $CAIRN_STORE, else ./cairn.store; whether a
// store's files are there, and whether this process may write them.
#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>

#include "cairn/store.h"
#include "store_files.h"

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

namespace {

// A file RocksDB writes into db/ while it creates a database, before CURRENT.
bool CreationFile(const std::filesystem::directory_entry &e) {
  const std::string n = e.path().filename().string();
  std::error_code ec;
  if (!e.is_regular_file(ec)) return false;
  if (n == "IDENTITY" || n == "LOCK" || n == "LOG" || n == "MANIFEST-000001") return true;
  // LOG.old: what Cairn's logger (store_logger.cpp) keeps of the log before.
  if (n == "LOG.old" || n.starts_with("LOG.old.") || n.starts_with("OPTIONS-") ||
      n.ends_with(".dbtmp"))
    return true;
  if (n.ends_with(".log")) return e.file_size(ec) == 0 && !ec;
  return false;
}

}  // namespace

bool HoldsNoStoreFiles(const std::string &dir) {
  namespace fs = std::filesystem;
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string n = it->path().filename().string();
    if (n == kLockFileName && it->is_regular_file(ec)) continue;
    if (n != kRocksSubdir || !it->is_directory(ec)) return false;
    std::error_code sub_ec;
    for (fs::directory_iterator f(it->path(), sub_ec), fend; !sub_ec && f != fend;
         f.increment(sub_ec)) {
      if (!CreationFile(*f)) return false;
    }
    if (sub_ec) return false;
  }
  return !ec;
}

bool StoreFilesAt(std::string_view dir) {
  std::error_code ec;
  const std::filesystem::path path(dir);
  if (!std::filesystem::exists(path, ec)) return static_cast<bool>(ec);
  // A folder holding no store's files (empty, or a creation's beginning) holds nothing; any
  // other (a store, one that lost its db/CURRENT but not its data, a folder that is no store at
  // all) is for the open to judge and name. An error other than absence (a folder that may not
  // be read) is not "no store" either: the open says what it is.
  if (!std::filesystem::is_directory(path, ec)) return true;
  return !HoldsNoStoreFiles(path.string());
}

std::string WhyUnwritable(const std::string &dir) {
  // What a writing open writes into: the RocksDB folder (whose LOCK file RocksDB opens for
  // writing) and the lock file; the directory itself only to make one of those that is not
  // there yet. (A directory that cannot be written whose contents can be, as a service user's
  // store in a root-owned folder, is written as usual.)
  auto denied = [](const std::string &path, int *err) {
    if (faccessat(AT_FDCWD, path.c_str(), W_OK, AT_EACCESS) == 0) return false;
    *err = errno;
    return *err == EACCES || *err == EROFS || *err == EPERM;
  };
  auto missing = [](const std::string &path) {
    return faccessat(AT_FDCWD, path.c_str(), F_OK, 0) != 0 && errno == ENOENT;
  };
  auto why = [](const std::string &path, int err) {
    return "this process cannot write " + path + " (" + std::strerror(err) + ")";
  };
  if (missing(dir)) return std::string();
  int dir_err = 0;
  const bool dir_denied = denied(dir, &dir_err);
  std::string first;  // the first of the folder's paths it cannot write
  bool make = false;  // a path to be made in the directory
  const std::string rocks = dir + "/" + kRocksSubdir;
  for (const std::string &path : {rocks, rocks + "/LOCK", dir + "/" + kLockFileName}) {
    if (missing(path)) {
      make = make || path != rocks + "/LOCK";  // RocksDB makes its LOCK in its folder
      continue;
    }
    int err = 0;
    if (first.empty() && denied(path, &err)) first = why(path, err);
  }
  // Nothing of the store writable: the directory is named, as the store.
  if (dir_denied && (make || !first.empty())) return why(dir, dir_err);
  return first;
}

Status SyncToDisk(const std::string &path) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    return Status(CAIRN_IO_ERROR, "cannot open " + path + " to sync it: " + std::strerror(errno));
  }
  int rc = ::fsync(fd);
  int err = errno;
  ::close(fd);
  if (rc != 0) {
    return Status(CAIRN_IO_ERROR, "cannot sync " + path + " to disk: " + std::strerror(err));
  }
  return Status::Ok();
}

}  // namespace cairn::store
