// A store transaction: its life cycle (the state machine in cairn/store.h) and its pages.
#include <rocksdb/iterator.h>

#include <cstring>

#include "encoding.h"
#include "keys.h"
#include "page_codec.h"
#include "page_delta.h"
#include "prefix_scan.h"
#include "rocks_status.h"
#include "transaction_impl.h"

namespace cairn::store {

std::string PageName(const TouchedDatabase &db, PageNo page) {
  return "page " + std::to_string(page) + " of " + Quoted(db.name);
}

const char *StateName(Transaction::State state) {
  switch (state) {
    case Transaction::State::kIdle:
      return "idle";
    case Transaction::State::kActive:
      return "active";
    case Transaction::State::kCommitting:
      return "committing";
    case Transaction::State::kFailed:
      return "failed";
  }
  return "unknown";
}

// --- Life cycle ----------------------------------------------------------------------------

Transaction::Impl::Impl(Store::Impl *s, rocksdb::Transaction *t) : store(s), txn(t) {
  if (txn) {
    read_options.snapshot = txn->GetSnapshot();
  } else {
    own_snapshot = store->reader->GetSnapshot();
    read_options.snapshot = own_snapshot;
  }
  store->open_transactions.fetch_add(1);
}

rocksdb::Status Transaction::Impl::Get(const rocksdb::Slice &key, std::string *value) {
  if (txn) return txn->Get(read_options, key, value);
  return store->reader->Get(read_options, key, value);
}

rocksdb::Status Transaction::Impl::Get(const rocksdb::Slice &key, rocksdb::PinnableSlice *value) {
  if (txn) return txn->Get(read_options, key, value);
  return store->reader->Get(read_options, store->reader->DefaultColumnFamily(), key, value);
}

rocksdb::Iterator *Transaction::Impl::NewIterator() { return NewIterator(read_options); }

rocksdb::Iterator *Transaction::Impl::NewIterator(const rocksdb::ReadOptions &options) {
  if (txn) return txn->GetIterator(options);
  return store->reader->NewIterator(options);
}

Status Transaction::Impl::GuardWrite(const char *what) {
  Status s = Guard();
  if (!s.ok()) return s;
  if (txn) return Status::Ok();
  return Fail(
      Status(CAIRN_MISUSE, std::string(what) + ": store " + store->dir + " is open read-only"));
}

rocksdb::Status Transaction::Impl::LockKey(const rocksdb::Slice &key) {
  // X5: a lock taken without validation records the store's latest sequence number, taken
  // after the lock; the write's validation then looks the key up only if that number is past
  // the snapshot (something was committed since), else nothing can have changed the key.
  return txn->GetForUpdate(rocksdb::ReadOptions(), key, static_cast<std::string *>(nullptr),
                           /*exclusive=*/true, /*do_validate=*/false);
}

rocksdb::Status Transaction::Impl::PutPage(DatabaseId id, PageNo page, const void *contents,
                                           uint32_t *checksum) {
  // The value is gathered from the header and the caller's buffer: no copy of our own.
  char header[kPageHeaderSize];
  EncodePageHeader(id, page, contents, header);
  if (checksum != nullptr) *checksum = GetLe32(header);
  PageKey k(KeyKind::kPage, id, page);
  rocksdb::Slice key(k.view().data(), k.view().size());
  rocksdb::Slice parts[2] = {rocksdb::Slice(header, kPageHeaderSize),
                             rocksdb::Slice(static_cast<const char *>(contents), kPageSize)};
  rocksdb::Status rs = LockKey(key);
  if (!rs.ok()) return rs;
  return txn->Put(rocksdb::SliceParts(&key, 1), rocksdb::SliceParts(parts, 2));
}

Transaction::Impl::~Impl() {
  if (store->forked()) {
    (void)txn.release();  // the parent's: touching it in a child could wait forever (F1)
    return;
  }
  if (state != State::kIdle) {
    if (txn) txn->Rollback().PermitUncheckedError();
    End();
  }
}

Status Transaction::Impl::Guard() const {
  if (Status u = store->Usable(); !u.ok()) return u;
  switch (state) {
    case State::kActive:
      return Status::Ok();
    case State::kIdle:
      return Status(CAIRN_MISUSE,
                    "the transaction has ended (committed or aborted); begin a "
                    "new one");
    case State::kFailed:
      return Status(CAIRN_MISUSE, "the transaction failed earlier (" + first_error.ToString() +
                                      "); only abort is allowed now");
    case State::kCommitting:
      return Status(CAIRN_MISUSE,
                    "the transaction is committing (a Transaction is used by one "
                    "thread at a time)");
  }
  return Status(CAIRN_INTERNAL, "transaction in an unknown state");
}

Status Transaction::Impl::Fail(Status s) {
  if (state == State::kActive || state == State::kCommitting) {
    state = State::kFailed;
    first_error = s;
  }
  return s;
}

void Transaction::Impl::End() {
  store->RecycleTransaction(std::move(txn));
  if (own_snapshot) store->reader->ReleaseSnapshot(own_snapshot);
  own_snapshot = nullptr;
  for (auto &db : dbs) store->Release(db->id);
  dbs.clear();
  state = State::kIdle;
  store->open_transactions.fetch_sub(1);
}

Status Transaction::Impl::Enter(DatabaseId id, TouchedDatabase **db) {
  Status s = Guard();
  if (!s.ok()) return s;
  s = Touch(id, db);
  return s.ok() ? s : Fail(s);
}

Status Transaction::Impl::Touch(DatabaseId id, TouchedDatabase **out) {
  for (auto &db : dbs) {
    if (db->id == id) {
      *out = db.get();
      return Status::Ok();
    }
  }
  auto db = std::make_unique<TouchedDatabase>();
  db->id = id;
  Status s = store->Use(id, &db->name);
  if (!s.ok()) return s;
  TouchedDatabase *d = db.get();
  dbs.push_back(std::move(db));  // registered: End() releases it
  std::string value;
  rocksdb::Status rs = Get(DatabaseKey(id), &value);
  if (rs.IsNotFound()) {
    return Status(CAIRN_NOT_FOUND, Quoted(d->name) +
                                       " was created after this transaction "
                                       "began; begin a new transaction to use it");
  }
  if (!rs.ok()) return FromRocks(rs, "reading the record of " + Quoted(d->name));
  std::string problem;
  if (!DecodeDatabaseRecord(value, &d->record, &problem)) {
    return Status(CAIRN_CORRUPTION, "the record of " + Quoted(d->name) + " is damaged: " + problem +
                                        "; " + DamageAdvice(store->dir, d->name));
  }
  *out = d;
  return Status::Ok();
}

Status Transaction::Impl::LockRecord(TouchedDatabase *db) {
  if (db->record_locked) return Status::Ok();
  if (!txn)
    return Status(CAIRN_MISUSE, "changing the catalogue of " + Quoted(db->name) + ": store " +
                                    store->dir + " is open read-only");
  std::string value;
  rocksdb::Status rs = txn->GetForUpdate(read_options, DatabaseKey(db->id), &value);
  if (!rs.ok()) {
    return FromRocks(rs, "locking the catalogue of " + Quoted(db->name),
                     store->options.lock_timeout_ms);
  }
  db->record_locked = true;  // unchanged since the snapshot (X1), so `record` is current
  return Status::Ok();
}

Status Transaction::Impl::CheckPageExists(const TouchedDatabase &db, PageNo page,
                                          const char *verb) {
  if (page >= 1 && page <= db.record.page_count) return Status::Ok();
  return Status(CAIRN_NOT_FOUND, std::string("cannot ") + verb + " " + PageName(db, page) +
                                     ": it has pages 1 to " + std::to_string(db.record.page_count));
}

Status Transaction::Impl::IsFree(const TouchedDatabase &db, PageNo page, bool *free) {
  PageKey fk(KeyKind::kFree, db.id, page);
  rocksdb::PinnableSlice v;
  rocksdb::Status rs = Get(rocksdb::Slice(fk.view().data(), fk.view().size()), &v);
  if (rs.ok()) {
    *free = true;
    return Status::Ok();
  }
  *free = false;
  if (rs.IsNotFound()) return Status::Ok();
  return FromRocks(rs, "reading the free list of " + Quoted(db.name));
}

Transaction::Transaction(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Transaction::~Transaction() = default;
Transaction::State Transaction::state() const { return impl_->state; }

Status Store::BeginTransaction(std::unique_ptr<Transaction> *txn) {
  return BeginTransactionOf(txn, false);
}

Status Store::BeginExclusiveTransaction(std::unique_ptr<Transaction> *txn) {
  return BeginTransactionOf(txn, true);
}

Status Store::BeginTransactionOf(std::unique_ptr<Transaction> *txn, bool exclusive) {
  if (Status u = impl_->Usable(); !u.ok()) return u;
  if (impl_->options.read_only) {  // reads only, from a snapshot of the read-only database
    txn->reset(new Transaction(std::make_unique<Transaction::Impl>(impl_.get(), nullptr)));
    return Status::Ok();
  }
  rocksdb::Transaction *t = impl_->NewRocksTransaction(exclusive);
  if (t == nullptr) return Status(CAIRN_INTERNAL, "RocksDB could not begin a transaction");
  txn->reset(new Transaction(std::make_unique<Transaction::Impl>(impl_.get(), t)));
  return Status::Ok();
}

Status Transaction::Commit() {
  Impl &t = *impl_;
  Status s = t.Guard();
  if (!s.ok()) return s;
  if (!t.txn) {  // read-only: nothing was written
    t.End();
    return Status::Ok();
  }
  t.state = State::kCommitting;
  static const char kZeros[kPageSize] = {};
  for (auto &db : t.dbs) {
    for (PageNo page : db->unwritten) {  // X3
      rocksdb::Status rs = t.PutPage(db->id, page, kZeros);
      if (!rs.ok()) {
        return t.Fail(
            FromRocks(rs, "writing " + PageName(*db, page), t.store->options.lock_timeout_ms));
      }
    }
    db->unwritten.clear();
    if (db->record_dirty) {
      rocksdb::Status rs = t.txn->Put(DatabaseKey(db->id), EncodeDatabaseRecord(db->record));
      if (!rs.ok()) return t.Fail(FromRocks(rs, "writing the record of " + Quoted(db->name)));
    }
  }
  // A transaction that wrote nothing (a read-only one) has nothing to make durable: ending it
  // without a RocksDB commit spares the log record and the sync.
  rocksdb::Status rs = t.txn->GetNumPuts() + t.txn->GetNumDeletes() + t.txn->GetNumMerges() == 0
                           ? t.txn->Rollback()
                           : t.txn->Commit();
  if (!rs.ok()) {
    return t.Fail(FromRocks(rs, "committing a transaction in store " + t.store->dir,
                            t.store->options.lock_timeout_ms));
  }
  t.End();
  return Status::Ok();
}

void Transaction::Abort() {
  Impl &t = *impl_;
  if (t.state == State::kIdle) return;
  if (t.store->forked()) {
    t.state = State::kIdle;  // the parent's transaction: left alone (F1)
    return;
  }
  if (t.txn) t.txn->Rollback().PermitUncheckedError();
  t.End();
}

// --- Pages ---------------------------------------------------------------------------------

uint32_t StoredPageChecksum(DatabaseId db, PageNo page, const void *contents) {
  char header[kPageHeaderSize];
  EncodePageHeader(db, page, contents, header);
  return GetLe32(header);
}

Status Transaction::ReadPage(DatabaseId id, PageNo page, void *buffer, uint32_t *checksum) {
  Impl &t = *impl_;
  TouchedDatabase *db = nullptr;
  Status s = t.Enter(id, &db);
  if (!s.ok()) return s;
  s = t.CheckPageExists(*db, page, "read");
  if (!s.ok()) return t.Fail(s);
  if (db->unwritten.count(page) != 0) {
    std::memset(buffer, 0, kPageSize);
    if (checksum != nullptr) *checksum = StoredPageChecksum(id, page, buffer);
    return Status::Ok();
  }
  PageKey k(KeyKind::kPage, id, page);
  rocksdb::PinnableSlice v;
  rocksdb::Status rs = t.Get(rocksdb::Slice(k.view().data(), k.view().size()), &v);
  if (rs.IsNotFound()) {
    bool free = false;
    s = t.IsFree(*db, page, &free);
    if (!s.ok()) return t.Fail(s);
    if (free) {
      return t.Fail(Status(CAIRN_NOT_FOUND, "cannot read " + PageName(*db, page) +
                                                ": it is free (allocate it before use)"));
    }
    return t.Fail(Status(CAIRN_CORRUPTION, PageName(*db, page) +
                                               " is missing: it is neither stored nor free; " +
                                               DamageAdvice(t.store->dir, db->name)));
  }
  if (!rs.ok()) {
    return t.Fail(
        FromRocks(rs, "reading " + PageName(*db, page), 0, DamageAdvice(t.store->dir, db->name)));
  }
  std::string problem;
  if (!DecodePage(std::string_view(v.data(), v.size()), id, page, buffer, &problem)) {
    return t.Fail(Status(CAIRN_CORRUPTION, PageName(*db, page) + " is damaged: " + problem + "; " +
                                               DamageAdvice(t.store->dir, db->name)));
  }
  if (checksum != nullptr) *checksum = GetLe32(v.data());  // verified by DecodePage (S3)
  return Status::Ok();
}

Status Transaction::WritePage(DatabaseId id, PageNo page, const void *buffer,
                              uint64_t *stored_bytes, const void *base, uint32_t base_checksum,
                              uint32_t *checksum) {
  Impl &t = *impl_;
  if (Status w = t.GuardWrite("writing a page"); !w.ok()) return w;
  TouchedDatabase *db = nullptr;
  Status s = t.Enter(id, &db);
  if (!s.ok()) return s;
  s = t.CheckPageExists(*db, page, "write");
  if (!s.ok()) return t.Fail(s);
  bool allocated_here = db->unwritten.erase(page) != 0;
  if (!allocated_here && (db->record.free_pages > 0 || db->freed_here > 0)) {
    bool free = false;
    s = t.IsFree(*db, page, &free);
    if (!s.ok()) return t.Fail(s);
    if (free) {
      return t.Fail(Status(CAIRN_INVALID_ARGUMENT, "cannot write " + PageName(*db, page) +
                                                       ": it is free (allocate it first)"));
    }
  }
  // A page stored already (PD3) is written as a delta when less than half of it changed: the
  // base is what this transaction reads (its snapshot and its own writes), and the page's lock
  // and the snapshot validation at commit keep any other commit from changing it before this
  // one. A base that cannot be read or decoded gets the whole page, as before deltas.
  std::string delta;
  bool as_delta = false;
  uint32_t crc = 0;  // the written page's checksum
  // A base the caller got wrong is not used: the page is read back instead.
  if (base != nullptr && StoredPageChecksum(id, page, base) != base_checksum) base = nullptr;
  if (!allocated_here && base != nullptr) {
    as_delta = EncodePageDelta(id, page, static_cast<const char *>(base),
                               static_cast<const char *>(buffer), kPageSize / 2, &delta, &crc);
  } else if (!allocated_here) {
    PageKey k(KeyKind::kPage, id, page);
    rocksdb::PinnableSlice v;
    std::string problem;
    if (t.Get(rocksdb::Slice(k.view().data(), k.view().size()), &v).ok() &&
        DecodePage(std::string_view(v.data(), v.size()), id, page, nullptr, &problem))
      as_delta = EncodePageDelta(id, page, v.data() + kPageHeaderSize,
                                 static_cast<const char *>(buffer), kPageSize / 2, &delta, &crc);
  }
  // A page with kMaxSuccessiveDeltas deltas in a row in the memtable is written whole, so a
  // read of it folds at most that many (delta_depth.h).
  if (as_delta && !t.store->delta_depth->AdmitDelta(id, page)) as_delta = false;
  rocksdb::Status rs;
  if (as_delta) {
    PageKey k(KeyKind::kPage, id, page);
    const rocksdb::Slice key(k.view().data(), k.view().size());
    rs = t.LockKey(key);
    if (rs.ok()) rs = t.txn->Merge(key, delta);
  } else {
    rs = t.PutPage(id, page, buffer, &crc);
    if (rs.ok()) t.store->delta_depth->Whole(id, page);
  }
  if (!rs.ok()) {
    return t.Fail(
        FromRocks(rs, "writing " + PageName(*db, page), t.store->options.lock_timeout_ms));
  }
  if (stored_bytes != nullptr) *stored_bytes = as_delta ? delta.size() : kStoredPageSize;
  if (checksum != nullptr) *checksum = crc;
  return Status::Ok();
}

Status Transaction::AllocatePage(DatabaseId id, PageNo *page) {
  Impl &t = *impl_;
  if (Status w = t.GuardWrite("allocating a page"); !w.ok()) return w;
  TouchedDatabase *db = nullptr;
  Status s = t.Enter(id, &db);
  if (!s.ok()) return s;
  s = t.LockRecord(db);
  if (!s.ok()) return t.Fail(s);
  DatabaseRecord &r = db->record;
  if (r.free_pages == 0) {
    *page = ++r.page_count;
  } else {
    // Take the first free page after the cursor (X2); wrap around once.
    PrefixScan it(DatabasePrefix(KeyKind::kFree, id), t.read_options,
                  [&](const rocksdb::ReadOptions &o) { return t.txn->GetIterator(o); });
    PageNo found = 0;
    for (PageNo from : {db->free_cursor + 1, PageNo{1}}) {
      PageKey start(KeyKind::kFree, id, from);
      it.Seek(rocksdb::Slice(start.view().data(), start.view().size()));
      if (it.Valid()) {
        uint64_t n = 0;
        if (ParseKeyNumber(std::string_view(it.key().data(), it.key().size()), &n)) found = n;
        break;
      }
      if (!it.status().ok()) break;
    }
    if (!it.status().ok()) {
      return t.Fail(FromRocks(it.status(), "reading the free list of " + Quoted(db->name)));
    }
    if (found == 0) {
      return t.Fail(Status(CAIRN_CORRUPTION, "the free list of " + Quoted(db->name) +
                                                 " is empty but its record counts " +
                                                 std::to_string(r.free_pages) + " free pages; " +
                                                 DamageAdvice(t.store->dir, db->name)));
    }
    PageKey fk(KeyKind::kFree, id, found);
    rocksdb::Status rs = t.txn->Delete(rocksdb::Slice(fk.view().data(), fk.view().size()));
    if (!rs.ok()) {
      return t.Fail(
          FromRocks(rs, "allocating " + PageName(*db, found), t.store->options.lock_timeout_ms));
    }
    --r.free_pages;
    if (db->freed_here > 0) --db->freed_here;
    db->free_cursor = found;
    *page = found;
  }
  db->unwritten.insert(*page);
  db->record_dirty = true;
  return Status::Ok();
}

Status Transaction::IsFree(DatabaseId id, PageNo page, bool *free) {
  Impl &t = *impl_;
  TouchedDatabase *db = nullptr;
  Status s = t.Enter(id, &db);
  if (!s.ok()) return s;
  s = t.CheckPageExists(*db, page, "look up");
  if (!s.ok()) return t.Fail(s);
  *free = false;
  if (db->unwritten.count(page)) return Status::Ok();
  s = t.IsFree(*db, page, free);
  if (!s.ok()) return t.Fail(s);
  return Status::Ok();
}

Status Transaction::FreePage(DatabaseId id, PageNo page) {
  Impl &t = *impl_;
  if (Status w = t.GuardWrite("freeing a page"); !w.ok()) return w;
  TouchedDatabase *db = nullptr;
  Status s = t.Enter(id, &db);
  if (!s.ok()) return s;
  s = t.CheckPageExists(*db, page, "free");
  if (s.ok()) s = t.LockRecord(db);
  if (!s.ok()) return t.Fail(s);
  if (db->unwritten.erase(page) == 0) {
    bool free = false;
    s = t.IsFree(*db, page, &free);
    if (!s.ok()) return t.Fail(s);
    if (free) {
      return t.Fail(Status(CAIRN_INVALID_ARGUMENT,
                           "cannot free " + PageName(*db, page) + ": it is already free"));
    }
  }
  PageKey pk(KeyKind::kPage, id, page);
  rocksdb::Status rs = t.txn->Delete(rocksdb::Slice(pk.view().data(), pk.view().size()));
  PageKey fk(KeyKind::kFree, id, page);
  if (rs.ok()) rs = t.txn->Put(rocksdb::Slice(fk.view().data(), fk.view().size()), "");
  // A free page has no identity hash entries (S6): a later object at the same place is another.
  if (rs.ok()) {
    PrefixScan it(IdentityHashPagePrefix(id, page), t.read_options,
                  [&](const rocksdb::ReadOptions &o) { return t.txn->GetIterator(o); });
    std::vector<std::string> keys;
    for (; it.Valid(); it.Next()) keys.push_back(it.key().ToString());
    rs = it.status();
    for (size_t i = 0; rs.ok() && i < keys.size(); i++) rs = t.txn->Delete(keys[i]);
  }
  if (!rs.ok()) {
    return t.Fail(
        FromRocks(rs, "freeing " + PageName(*db, page), t.store->options.lock_timeout_ms));
  }
  ++db->record.free_pages;
  ++db->freed_here;
  db->record_dirty = true;
  return Status::Ok();
}

Status Transaction::GetPageCount(DatabaseId id, uint64_t *page_count) {
  Impl &t = *impl_;
  TouchedDatabase *db = nullptr;
  Status s = t.Enter(id, &db);
  if (!s.ok()) return s;
  *page_count = db->record.page_count;
  return Status::Ok();
}

}  // namespace cairn::store
