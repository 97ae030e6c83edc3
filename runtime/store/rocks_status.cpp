// Converting rocksdb::Status into cairn::Status (table in rocks_status.h).
#include "rocks_status.h"

#include <string>

namespace cairn::store {

Status FromRocks(const rocksdb::Status &s, std::string_view what, uint32_t lock_timeout_ms,
                 std::string_view damage_advice) {
  if (s.ok()) return Status::Ok();
  std::string w(what);
  std::string detail = s.getState() != nullptr ? s.getState() : "";
  if (s.IsDeadlock()) {
    return Status(CAIRN_DEADLOCK, w + ": waiting would deadlock (another transaction waits for "
                                      "one this transaction holds); abort this transaction and "
                                      "retry it");
  }
  if (s.IsTimedOut()) {
    return Status(CAIRN_BUSY, w + ": locked by another transaction and not released within " +
                                  std::to_string(lock_timeout_ms) +
                                  " ms (the store's lock timeout); abort this transaction and "
                                  "retry it");
  }
  if (s.IsBusy()) {
    return Status(CAIRN_BUSY, w + ": another transaction committed a change to it after this "
                                  "one began (write conflict); abort this transaction and retry "
                                  "it");
  }
  if (s.IsNotFound()) return Status(CAIRN_NOT_FOUND, w + ": not found");
  if (s.IsCorruption()) {
    return Status(CAIRN_CORRUPTION,
                  w + ": the store's files are damaged (RocksDB: " + detail + "); " +
                      (damage_advice.empty()
                           ? std::string("run `cairn db check` and restore the store from a copy")
                           : std::string(damage_advice)));
  }
  // A file RocksDB's manifest names (a table file: .sst, tried as .ldb too), or the manifest
  // CURRENT names, is gone: the store is damaged, not the disk or its permissions.
  // The file is the last path in the message before ": No such file or directory" (a folder
  // of the store's path may hold the same words).
  const size_t missing_at = detail.find(": No such file or directory");
  const bool missing = missing_at != std::string::npos;
  const size_t slash = missing ? detail.rfind('/', missing_at) : std::string::npos;
  const std::string file =
      missing ? detail.substr(slash == std::string::npos ? 0 : slash + 1,
                              missing_at - (slash == std::string::npos ? 0 : slash + 1))
              : std::string();
  const bool store_file =
      file.rfind("MANIFEST-", 0) == 0 || file.ends_with(".sst") || file.ends_with(".ldb");
  if (s.IsIOError() && missing && store_file) {
    return Status(
        CAIRN_CORRUPTION,
        w + ": the store's files are damaged: a file it needs is missing (RocksDB: " + detail +
            (detail.find(".ldb") != std::string::npos
                 ? "; a table file NNN.sst is looked for as NNN.ldb too"
                 : "") +
            "); nothing was changed; " +
            (damage_advice.empty() ? std::string("restore the store from a copy")
                                   : std::string(damage_advice)));
  }
  // Out of file descriptors: RocksDB reports it as an I/O error, or wrapped in another status
  // (an open's options check says "Invalid argument: ... Too many open files").
  if (detail.find("Too many open files in system") != std::string::npos) {
    return Status(CAIRN_IO_ERROR, w + ": " + detail +
                                      " (the system has as many files open as it allows: close "
                                      "other programs, or raise fs.file-max, and try again)");
  }
  if (detail.find("Too many open files") != std::string::npos) {
    return Status(CAIRN_IO_ERROR,
                  w + ": " + detail +
                      " (this process may open too few files: raise its limit, as with `ulimit "
                      "-n 4096`, and try again)");
  }
  // A file of the store this process may not read or write: said so, whatever status RocksDB
  // wraps it in (an open's options check says "Invalid argument: ... Permission denied").
  if (detail.find("Permission denied") != std::string::npos)
    return Status(CAIRN_IO_ERROR, w + ": " + detail + PermissionAdvice());
  // RocksDB's own lock of the store (DIR/db/LOCK) held while the store's lock file was free: the
  // two are one file's links in two directories (a copy made with `cp -al`; campaign P).
  if (detail.find("While lock file") != std::string::npos &&
      detail.find("Resource temporarily unavailable") != std::string::npos)
    return Status(CAIRN_BUSY,
                  w + ": " + detail +
                      " (another process holds RocksDB's lock of this store, though not the "
                      "store's own lock: its db/LOCK is probably a hard link shared with another "
                      "store, a copy made with `cp -al`; copy stores with `cp -a`, or, while no "
                      "process uses either, replace the copy's db/LOCK with a file of its own)");
  if (s.IsIOError()) {
    return Status(CAIRN_IO_ERROR, w + ": " + detail +
                                      (s.IsNoSpace() ? " (the disk is full; free some space)"
                                                     : " (check the disk and permissions)"));
  }
  if (s.IsNotSupported()) return Status(CAIRN_UNSUPPORTED, w + ": not supported: " + detail);
  if (s.IsMemoryLimit()) return Status(CAIRN_OUT_OF_MEMORY, w + ": out of memory: " + detail);
  return Status(CAIRN_INTERNAL, w + ": unexpected RocksDB status '" + s.ToString() +
                                    "' (a bug in Cairn: please report it)");
}

std::string PermissionAdvice() {
  return " (this process may not read or write the store's files: run it as the user that owns "
         "them, or give this user permission to the store's directory and everything in it)";
}

}  // namespace cairn::store
