// Store::Impl: an open store's RocksDB instance, its process lock, and the registry of its
// databases. Internal to runtime/store/.
//
// Invariants of the registry (guarded by `mu`):
//   R1. by_name holds exactly the databases committed in the catalogue ('N' keys), and by_id
//       those and the ones this Store detached (`detached`: no 'N' key, an 'X' key, their 'D'
//       and page keys kept until PurgeDetached), as of the last create, drop or detach, which
//       update them under `mu` after their write.
//   R2. users counts the ACTIVE, COMMITTING or FAILED transactions that have touched a
//       database; a database with users is never dropped (DropDatabase returns CAIRN_BUSY);
//       detaching one keeps its keys, so its transactions go on.
//   R3. Create and drop are serialized by `ddl_mu`; user transactions never write 'S' or 'N'
//       keys, so catalogue definition never conflicts with page transactions.
#ifndef CAIRN_STORE_STORE_IMPL_H
#define CAIRN_STORE_STORE_IMPL_H

#include <rocksdb/utilities/transaction_db.h>

#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "cairn/store.h"
#include "delta_depth.h"
#include "store_lock.h"
#include "wal_scan.h"

namespace cairn::store {

class Store::Impl {
 public:
  ~Impl();

  std::string dir;
  uint32_t format_version = 0;  // the header's, once read (after any upgrade)
  StoreOptions options;
  long opener = 0;                  // the pid that opened it
  std::unique_ptr<StoreLock> lock;  // declared before db: destroyed after it (null: read-only
                                    // without a lock file to take)
  std::unique_ptr<rocksdb::TransactionDB> db;  // null when read-only
  std::unique_ptr<rocksdb::DB> read_only_db;   // when read-only
  rocksdb::DB *reader = nullptr;               // db or read_only_db: every plain read
  uint64_t generation = 0;                     // the process generation it was opened in
  rocksdb::WriteOptions write_options;
  rocksdb::TransactionOptions txn_options;
  std::atomic<int> open_transactions{0};
  std::shared_ptr<DeltaDepth> delta_depth;  // when writable: which page writes may be deltas

  std::mutex ddl_mu;  // R3
  std::mutex mu;      // R1, R2, and `spare`
  struct Entry {
    std::string name;
    int users = 0;
  };
  std::map<std::string, DatabaseId, std::less<>> by_name;
  std::vector<std::unique_ptr<rocksdb::Transaction>> spare;  // ended, for reuse (at most 4)
  std::unordered_map<DatabaseId, Entry> by_id;

  // OK unless this process is a child made by fork() after the store was opened (F1 in
  // fork_guard.h): then CAIRN_MISUSE saying so.
  Status Usable() const;
  bool forked() const;
  // Usable, and not read-only: else CAIRN_MISUSE saying so (`what`: "creating database 'x'").
  Status Writable(const std::string &what) const;

  // Deletes every key of database `id` (its pages, free list, types, identity hashes, record)
  // into `batch`, and its 'X' key.
  rocksdb::Status DeleteDatabaseKeys(DatabaseId id, rocksdb::WriteBatch *batch);
  // Deletes the databases detached by this Store, or (`all_marked`) every one an 'X' key names
  // (a process that detached them ended without deleting them).
  Status PurgeDetached(bool all_marked);
  std::vector<DatabaseId> detached;  // by DetachDatabase, under `mu`
  // The id of database `name` for a drop (`mu` held): CAIRN_NOT_FOUND (or the name's own
  // fault) if there is none, CAIRN_MISUSE if the store is read-only.
  Status FindToDrop(std::string_view name, DatabaseId *id);

  // Registers a transaction's use of database `id` (R2); `*name` gets its name.
  Status Use(DatabaseId id, std::string *name);
  void Release(DatabaseId id);

  // A RocksDB transaction, begun now, reusing an ended one when there is one (RocksDB lets an
  // ended transaction object be begun again, which saves its allocations).
  rocksdb::Transaction *NewRocksTransaction(bool exclusive = false);
  // Takes back an ended (committed or rolled back) RocksDB transaction for reuse.
  void RecycleTransaction(std::unique_ptr<rocksdb::Transaction> txn);

  std::string rocks_dir() const;  // DIR/db
  // Opens RocksDB; `accept_wal_loss`: point-in-time recovery (drops what follows damage in the
  // log) instead of refusing damage.
  Status OpenRocks(bool create, bool accept_wal_loss);
  // A failed RocksDB open as a Status that says what to do (recovery.cpp).
  Status OpenError(const rocksdb::Status &s) const;
  Status ReadOrWriteHeader();
  // Flushes the recovered log into a table file when more than one log is left (or `always`).
  Status ReleaseOldLogs(bool always);
  void FinishCompactions();  // at close, when level 0 is crowded
  // Recovery (recovery.cpp): copies the logs aside before RocksDB drops the damaged part, and
  // describes what is lost once the registry is loaded.
  Status KeepLogs(const WalScan &scan, RecoveryReport *report);
  void DescribeLoss(const WalScan &scan, RecoveryReport *report);
  Status LoadRegistry();
  Status Check(std::string_view name, CheckReport *report);
};

// "database 'name'", for messages.
std::string Quoted(std::string_view name);

// The error for a store whose write-ahead log is damaged (recovery.cpp).
Status WalDamageError(const std::string &dir, const WalScan &scan);

}  // namespace cairn::store

#endif  // CAIRN_STORE_STORE_IMPL_H
