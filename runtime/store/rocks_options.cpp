// The RocksDB options of a store (see rocks_options.h).
#include "rocks_options.h"

#include "page_delta.h"

namespace cairn::store {

rocksdb::Options MakeRocksOptions(bool create_if_missing) {
  rocksdb::Options o;
  o.create_if_missing = create_if_missing;
  o.max_background_jobs = 2;
  o.paranoid_checks = true;
  o.wal_recovery_mode = rocksdb::WALRecoveryMode::kPointInTimeRecovery;
  o.merge_operator = NewPageDeltaMergeOperator();  // folds page deltas (store format 2, 3)
  // TransactionDB keeps flushed memtables in memory, up to two memtables' worth (128 MiB), as a
  // history for its write-conflict checks: a process that commits often grew to about 250 MiB
  // however little it kept. One transaction writes at a time (X5 skips the check then), and a
  // check without the history reads the table files instead: a quarter of a memtable is kept.
  o.max_write_buffer_size_to_maintain = static_cast<int64_t>(o.write_buffer_size / 4);
  // max_successive_merges stays 0: the store bounds the deltas of a page in a row itself
  // (delta_depth.h), without the memtable lookup RocksDB's bound pays for every delta.
  return o;
}

rocksdb::WriteOptions MakeWriteOptions(Durability durability) {
  rocksdb::WriteOptions w;
  w.sync = durability == Durability::kSync;
  w.disableWAL = false;
  return w;
}

rocksdb::TransactionDBOptions MakeTransactionDBOptions(const StoreOptions &options) {
  rocksdb::TransactionDBOptions t;
  t.transaction_lock_timeout = options.lock_timeout_ms;
  t.default_lock_timeout = options.lock_timeout_ms;
  return t;
}

rocksdb::TransactionOptions MakeTransactionOptions(const StoreOptions &options) {
  rocksdb::TransactionOptions t;
  t.set_snapshot = true;
  t.deadlock_detect = true;
  t.lock_timeout = options.lock_timeout_ms;
  return t;
}

}  // namespace cairn::store
