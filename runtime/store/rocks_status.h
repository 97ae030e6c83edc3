// The one place where RocksDB's status becomes Cairn's (errors as values, never leaked).
#ifndef CAIRN_STORE_ROCKS_STATUS_H
#define CAIRN_STORE_ROCKS_STATUS_H

#include <rocksdb/status.h>

#include <cstdint>
#include <string>
#include <string_view>

#include "cairn/status.h"

namespace cairn::store {

// Converts a failed RocksDB status into a cairn::Status whose message starts with `what` (for
// example "writing page 5 of database 'oo7'") and ends with what to do. `lock_timeout_ms` is
// quoted when the failure is a lock timeout. After damage (Corruption) the message ends with
// `damage_advice` when given (DamageAdvice, when the database is known), else "run `cairn db
// check` and restore the store from a copy". An OK status converts to OK.
//
//   RocksDB                      Cairn
//   Busy (deadlock)              CAIRN_DEADLOCK
//   TimedOut (lock timeout)      CAIRN_BUSY
//   Busy (write conflict)        CAIRN_BUSY
//   NotFound                     CAIRN_NOT_FOUND
//   Corruption                   CAIRN_CORRUPTION
//   IOError                      CAIRN_IO_ERROR
//   any, of too many open files  CAIRN_IO_ERROR, saying to raise `ulimit -n`
//   any, of "Permission denied"  CAIRN_IO_ERROR, with PermissionAdvice()
//   IOError of RocksDB's LOCK    CAIRN_BUSY, saying db/LOCK may be a hard link of a copy's
//   NotSupported                 CAIRN_UNSUPPORTED
//   Aborted (memory limit)       CAIRN_OUT_OF_MEMORY
//   anything else                CAIRN_INTERNAL
Status FromRocks(const rocksdb::Status &s, std::string_view what, uint32_t lock_timeout_ms = 0,
                 std::string_view damage_advice = {});

// What to do about a file of the store this process may not read or write (starts with a space).
std::string PermissionAdvice();

}  // namespace cairn::store

#endif  // CAIRN_STORE_ROCKS_STATUS_H
