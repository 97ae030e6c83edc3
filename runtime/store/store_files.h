// The names in a store directory DIR (docs/store-format.md, "Files"): the RocksDB instance in
// DIR/db, and the process lock DIR/cairn.lock (store_lock.h).
#ifndef CAIRN_STORE_STORE_FILES_H
#define CAIRN_STORE_STORE_FILES_H

#include <string>

#include "cairn/status.h"

namespace cairn::store {

inline constexpr char kRocksSubdir[] = "db";
inline constexpr char kLockFileName[] = "cairn.lock";

// Whether the existing directory `dir` holds no store's files: it is empty, or holds only what a
// store's creation writes before RocksDB's db/CURRENT (the lock file; a db/ with at most
// IDENTITY, LOCK, LOG files, OPTIONS files, MANIFEST-000001, *.dbtmp and empty *.log files).
// That is also what is left of a store whose db/ was deleted (the lock file): either way it
// holds no databases, so a question about them must not make a store there, and a creation may.
// Anything else (a file of the user's beside the lock file, or in db/) makes it not a store's
// beginning: a create there is refused. False when the directory cannot be read.
bool HoldsNoStoreFiles(const std::string &dir);

// Makes what `path` names durable: an fsync of the file, or of the directory (its entries: files
// created, renamed or removed in it). What `db recover` writes goes through it before it is
// relied on (the copy of the logs before the cut, the cut before the open that replays).
Status SyncToDisk(const std::string &path);

}  // namespace cairn::store

#endif  // CAIRN_STORE_STORE_FILES_H
