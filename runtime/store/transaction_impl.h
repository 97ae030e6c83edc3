// Transaction::Impl: one RocksDB pessimistic transaction plus what this transaction knows of
// each database it touched. Internal to runtime/store/.
//
// Invariants (per transaction):
//   X1. `record` of a touched database is its catalogue record as of the snapshot, plus this
//       transaction's own changes; once `record_locked`, no other transaction can change it
//       before this one ends (an exclusive RocksDB lock on its 'D' key, taken by GetForUpdate,
//       which also fails if the record changed after the snapshot).
//   X2. The free list ('F' keys) of a database is changed only under the lock of X1, so the
//       holder may scan it from `free_cursor` without missing pages freed by others.
//   X3. A page in `unwritten` was allocated by this transaction and not written since: it reads
//       as zeros, and Commit() stores a zero page for it (S2: every page in use is stored).
//   X4. Page writes lock the page's 'P' key (RocksDB Put) until the transaction ends.
//   X5. A page's key is locked before it is written (LockKey), and its write then checks the
//       snapshot as RocksDB does (a write conflict is CAIRN_BUSY); RocksDB skips the check's
//       lookup when nothing was written to the store between the snapshot and the lock, as is
//       the rule when one transaction writes at a time, so only then.
#ifndef CAIRN_STORE_TRANSACTION_IMPL_H
#define CAIRN_STORE_TRANSACTION_IMPL_H

#include <rocksdb/utilities/transaction.h>

#include <memory>
#include <set>
#include <string>
#include <vector>

#include "cairn/store.h"
#include "catalogue.h"
#include "store_impl.h"

namespace cairn::store {

struct TouchedDatabase {
  DatabaseId id = 0;
  std::string name;
  DatabaseRecord record;  // X1
  bool record_locked = false;
  bool record_dirty = false;
  std::set<PageNo> unwritten;  // X3
  PageNo free_cursor = 0;      // X2
  uint64_t freed_here = 0;     // pages this transaction put on the free list
};

class Transaction::Impl {
 public:
  Impl(Store::Impl *store, rocksdb::Transaction *txn);
  ~Impl();

  Status Guard() const;  // OK only when ACTIVE
  // Guard, and refuses writes in a store opened read-only (failing the transaction).
  Status GuardWrite(const char *what);
  // Reads at the transaction's snapshot: through the RocksDB transaction (which adds its own
  // writes), or from the read-only database.
  rocksdb::Status Get(const rocksdb::Slice &key, std::string *value);
  rocksdb::Status Get(const rocksdb::Slice &key, rocksdb::PinnableSlice *value);
  rocksdb::Iterator *NewIterator();
  rocksdb::Iterator *NewIterator(const rocksdb::ReadOptions &options);  // read_options, amended
  Status Fail(Status s);  // ACTIVE -> FAILED, returns s
  Status Touch(DatabaseId id, TouchedDatabase **db);
  // How every call on a database starts: Guard, then Touch; a Touch error fails the transaction.
  Status Enter(DatabaseId id, TouchedDatabase **db);
  Status LockRecord(TouchedDatabase *db);
  Status CheckPageExists(const TouchedDatabase &db, PageNo page, const char *verb);
  Status IsFree(const TouchedDatabase &db, PageNo page, bool *free);
  void End();  // releases the RocksDB transaction and the registry; state IDLE
  // Locks `key` exclusively without validating it (X5): the write that follows validates.
  rocksdb::Status LockKey(const rocksdb::Slice &key);
  // Puts page `page`'s header and `contents` (X4, X5: locks its key).
  // *checksum, if given, gets the stored page's checksum.
  rocksdb::Status PutPage(DatabaseId id, PageNo page, const void *contents,
                          uint32_t *checksum = nullptr);

  Store::Impl *store;
  std::unique_ptr<rocksdb::Transaction> txn;        // null in a read-only store
  const rocksdb::Snapshot *own_snapshot = nullptr;  // read-only: released at End
  rocksdb::ReadOptions read_options;                // reads at the transaction's snapshot
  State state = State::kActive;
  Status first_error;
  std::vector<std::unique_ptr<TouchedDatabase>> dbs;
};

// "page 5 of database 'oo7'"
std::string PageName(const TouchedDatabase &db, PageNo page);

}  // namespace cairn::store

#endif  // CAIRN_STORE_TRANSACTION_IMPL_H
