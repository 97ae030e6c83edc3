// The RocksDB options of a store, in one place so that the store and the baseline of
// cairn-storebench (plain RocksDB WriteBatch writes) use the same ones.
#ifndef CAIRN_STORE_ROCKS_OPTIONS_H
#define CAIRN_STORE_ROCKS_OPTIONS_H

#include <rocksdb/options.h>
#include <rocksdb/utilities/transaction_db.h>

#include "cairn/store.h"

namespace cairn::store {

// Database options: create when asked, default compression and compaction, two background
// jobs (the machines we target are small). Point-in-time WAL recovery (the
// default): after a crash, the store is as of the last complete commit in the log. The page
// delta merge operator (page_delta.h): every open of a store must have it.
// (avoid_flush_during_recovery cannot be had: TransactionDB turns it off, so every open that
// recovers writes from the log flushes them into a level-0 table file.) The store's opens add
// their own info log (store_logger.h).
rocksdb::Options MakeRocksOptions(bool create_if_missing);

// At a clean close with at least this many level-0 table files, wait for RocksDB's compactions
// to finish. Each open adds one or two level-0 files, and a close (or a kill) cancels the
// compaction that would merge them: a store used by short-lived processes, none of which lived
// as long as a compaction, piled them up until RocksDB stalled writes at 20 and the next open
// waited for a compaction of the whole store (docs/store-format.md, "Recovery and its cost").
inline constexpr uint64_t kLevel0CompactAtClose = 16;

// At most this many page deltas of one page stand in the memtable one after another, as this
// process wrote them; the next write of the page is whole (DeltaDepth, delta_depth.h), so a read
// of a page written at every commit applies at most this many deltas, however many commits ran
// since the memtable's last flush.
inline constexpr size_t kMaxSuccessiveDeltas = 16;

// sync = (durability == kSync); the WAL is always written.
rocksdb::WriteOptions MakeWriteOptions(Durability durability);

// Lock timeout from the store options (also the default for writes outside transactions).
rocksdb::TransactionDBOptions MakeTransactionDBOptions(const StoreOptions &options);

// Every store transaction: a snapshot at begin (reads are consistent, writes are checked for
// conflicts against it), deadlock detection, the store's lock timeout.
rocksdb::TransactionOptions MakeTransactionOptions(const StoreOptions &options);

}  // namespace cairn::store

#endif  // CAIRN_STORE_ROCKS_OPTIONS_H
