// The info log of a store's RocksDB (`db/LOG`), written by the store rather than by RocksDB's
// own file logger.
//
// RocksDB's logger writes through a file writer that, once a write has failed (a full disk),
// fails an assertion at its next write in a build with assertions, as Debian's librocksdb is:
// every later open of the store (the log's header is written at each) died by SIGABRT with no
// message, before the store could say the disk is full. This one writes with stdio and ignores
// what it cannot write: the log is for people reading it, nothing of the store depends on it.
//
//   L1. A line that cannot be written is dropped; the logger never fails and never stops RocksDB.
//   L2. The file is opened at the first line (the directory may not exist before RocksDB makes
//       it) and again at a later line if it could not be; a log past kMaxLogBytes, when opened
//       or once a line takes it past, is kept as LOG.old (one only), so the log of a store
//       stays bounded, in a long-lived process too.
#ifndef CAIRN_STORE_STORE_LOGGER_H
#define CAIRN_STORE_STORE_LOGGER_H

#include <rocksdb/env.h>

#include <memory>
#include <string>

namespace cairn::store {

inline constexpr long kMaxLogBytes = 1 << 20;

// The logger for the RocksDB directory `rocks_dir` (Options::info_log); with "", one that writes
// nothing (a look into a directory that may not be a store's writes nothing there).
std::shared_ptr<rocksdb::Logger> MakeStoreLogger(const std::string &rocks_dir);

}  // namespace cairn::store

#endif  // CAIRN_STORE_STORE_LOGGER_H
