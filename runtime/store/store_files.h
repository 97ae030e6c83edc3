// The names in a store directory DIR (docs/store-format.md, "Files"): the RocksDB instance in
// DIR/db, and the process lock DIR/cairn.lock (store_lock.h).
#ifndef CAIRN_STORE_STORE_FILES_H
#define CAIRN_STORE_STORE_FILES_H

namespace cairn::store {

inline constexpr char kRocksSubdir[] = "db";
inline constexpr char kLockFileName[] = "cairn.lock";

}  // namespace cairn::store

#endif  // CAIRN_STORE_STORE_FILES_H
