// The RocksDB options of a store (see rocks_options.h).
#include "rocks_options.h"

#include "page_delta.h"

namespace cairn::store {

rocksdb::Options MakeRocksOptions(bool create_if_missing) {
  rocksdb::Options o;
  o.create_if_missing = create_if_missing;
  o.max_background_jobs = 2;
  o.keep_log_file_num = 4;
  o.max_log_file_size = 1 << 20;
  o.paranoid_checks = true;
  o.wal_recovery_mode = rocksdb::WALRecoveryMode::kPointInTimeRecovery;
  o.merge_operator = NewPageDeltaMergeOperator();  // folds page deltas (store format 2, 3)
  // A page written as a delta at every commit would otherwise pile up one operand per commit
  // in the memtable until it is flushed, and every read of the page (a fault, or a write
  // given no base) would apply them all: reads cost in proportion to the commits since the
  // last flush. From this many on, the memtable gets the folded page instead (the log still
  // gets the delta).
  o.max_successive_merges = kMaxSuccessiveDeltas;
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
