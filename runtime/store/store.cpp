// Opening a store, and defining, dropping and listing its databases.
#include <rocksdb/iterator.h>
#include <rocksdb/write_batch.h>
#include <unistd.h>

#include <cassert>
#include <chrono>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <set>
#include <system_error>
#include <thread>

#include "catalogue.h"
#include "encoding.h"
#include "fork_guard.h"
#include "keys.h"
#include "prefix_scan.h"
#include "rocks_options.h"
#include "rocks_status.h"
#include "store_files.h"
#include "store_impl.h"
#include "store_logger.h"
#include "wal_scan.h"

namespace cairn::store {
namespace fs = std::filesystem;

namespace {

bool IsStore(const std::string &dir) {
  std::error_code ec;
  return fs::exists(fs::path(dir) / kRocksSubdir / "CURRENT", ec);
}

// DIR/db without CURRENT: a creation that stopped before RocksDB wrote CURRENT leaves at most
// IDENTITY, LOCK, LOG, OPTIONS, MANIFEST-000001 and an empty log. Anything more (a table file, a
// log with records, a later MANIFEST) is a store whose CURRENT was lost: creating a new store
// there would make RocksDB delete the old one's files. Returns what was found, or "".
std::string DataWithoutCurrent(const std::string &dir) {
  std::error_code ec;
  int tables = 0, logs = 0, manifests = 0;
  for (const auto &e : fs::directory_iterator(fs::path(dir) / kRocksSubdir, ec)) {
    const std::string ext = e.path().extension().string();
    const std::string n = e.path().filename().string();
    if (ext == ".sst" || ext == ".ldb" || ext == ".blob") {
      ++tables;
    } else if (ext == ".log") {
      std::error_code size_ec;
      if (fs::file_size(e.path(), size_ec) > 0 || size_ec) ++logs;
    } else if (n.starts_with("MANIFEST-") && n != "MANIFEST-000001") {
      ++manifests;
    }
  }
  std::string found;
  auto add = [&found](int count, const char *one, const char *many) {
    if (count == 0) return;
    if (!found.empty()) found += ", ";
    found += std::to_string(count) + " " + (count == 1 ? one : many);
  };
  add(tables, "table file", "table files");
  add(logs, "write-ahead log", "write-ahead logs");
  add(manifests, "MANIFEST", "MANIFESTs");
  return found;
}

uint64_t NowUnix() { return static_cast<uint64_t>(std::time(nullptr)); }

// A directory with DIR/db/CURRENT but no lock file was never opened by Cairn: it may be another
// program's RocksDB database. Before anything is written to it (the lock file, RocksDB's own
// files), make sure it holds a Cairn store header, or nothing at all.
Status ProbeNeverOpened(const std::string &dir) {
  std::error_code ec;
  if (fs::exists(fs::path(dir) / kLockFileName, ec)) return Status::Ok();
  rocksdb::Options o;
  o.info_log = MakeStoreLogger("");  // nothing written there
  rocksdb::DB *raw = nullptr;
  rocksdb::Status s = rocksdb::DB::OpenForReadOnly(o, dir + "/" + kRocksSubdir, &raw);
  if (!s.ok()) {
    return Status(CAIRN_INVALID_ARGUMENT,
                  "directory " + dir + " is not a Cairn store: its " + kRocksSubdir +
                      "/ cannot be opened as one (RocksDB: " + s.ToString() +
                      "); nothing was changed. Give the right store with --store DIR");
  }
  std::unique_ptr<rocksdb::DB> db(raw);
  std::string value;
  rocksdb::Status h = db->Get(rocksdb::ReadOptions(), StoreHeaderKey(), &value);
  std::unique_ptr<rocksdb::Iterator> it(db->NewIterator(rocksdb::ReadOptions()));
  it->SeekToFirst();
  const bool empty = !it->Valid();
  it.reset();
  db->Close().PermitUncheckedError();
  if (h.ok() || empty) return Status::Ok();
  return Status(CAIRN_INVALID_ARGUMENT,
                "directory " + dir + " is not a Cairn store: its " + kRocksSubdir +
                    "/ holds a RocksDB database without a Cairn store header (another "
                    "program's?); nothing was changed. Give the right store with --store DIR");
}

}  // namespace

std::string Quoted(std::string_view name) { return "database '" + std::string(name) + "'"; }

bool Store::Impl::forked() const { return reader && ProcessGeneration() != generation; }

Status Store::Impl::Writable(const std::string &what) const {
  if (Status u = Usable(); !u.ok()) return u;
  if (!options.read_only) return Status::Ok();
  return Status(CAIRN_MISUSE, what + ": store " + dir + " is open read-only");
}

Status Store::Impl::Usable() const {
  if (!forked()) return Status::Ok();
  return Status(CAIRN_MISUSE, "store " + dir + " was opened by process " + std::to_string(opener) +
                                  ", and this process (" + std::to_string(getpid()) +
                                  ") is a child it made with fork(): a child may not use its "
                                  "parent's store (its commits would overwrite the parent's). "
                                  "Use the store in the parent, or exec() a program that opens "
                                  "it once the parent has closed it");
}

Store::Impl::~Impl() {
  if (forked()) {
    // RocksDB's threads are the parent's: closing would wait for them forever (F1).
    for (auto &t : spare) (void)t.release();
    (void)db.release();
    (void)read_only_db.release();
    return;
  }
  assert(open_transactions.load() == 0 && "destroy every Transaction before its Store");
  spare.clear();
  if (db) {
    // The databases dropped while this process had them open (DetachDatabase); a failure
    // leaves their 'X' keys, and the next writing open deletes them.
    PurgeDetached(false).IgnoreError();
    // What the log holds goes into a table file now, not at the next open: a log deleted or
    // cut after a clean close then loses nothing (a deleted log lost every commit since the
    // last flush, silently: `cairn db check` had nothing to see). The next open, with nothing
    // to recover, writes no table file: the flush only moves. Nothing to flush, nothing written.
    if (options.flush_at_close) {
      rocksdb::FlushOptions flush;
      flush.wait = true;
      db->Flush(flush).PermitUncheckedError();  // a failure (a full disk) leaves it in the log
    }
    FinishCompactions();
    db->Close().PermitUncheckedError();
    db.reset();
  }
  if (read_only_db) {
    read_only_db->Close().PermitUncheckedError();
    read_only_db.reset();
  }
}

rocksdb::Transaction *Store::Impl::NewRocksTransaction(bool exclusive) {
  if (exclusive) {
    rocksdb::TransactionOptions o = txn_options;
    o.skip_concurrency_control = true;
    return db->BeginTransaction(write_options, o);
  }
  std::unique_ptr<rocksdb::Transaction> old;
  {
    std::lock_guard<std::mutex> g(mu);
    if (!spare.empty()) {
      old = std::move(spare.back());
      spare.pop_back();
    }
  }
  rocksdb::Transaction *t = db->BeginTransaction(write_options, txn_options, old.get());
  if (t == old.get()) old.release();  // reused: now owned by the caller
  return t;
}

void Store::Impl::RecycleTransaction(std::unique_ptr<rocksdb::Transaction> txn) {
  if (!txn) return;
  std::lock_guard<std::mutex> g(mu);
  if (spare.size() < 4) spare.push_back(std::move(txn));
}

std::string Store::Impl::rocks_dir() const { return dir + "/" + kRocksSubdir; }

Status Store::Impl::OpenRocks(bool create, bool accept_wal_loss) {
  rocksdb::Options o = MakeRocksOptions(create);
  // store_logger.h: a full disk must not kill the process (L1); a read-only open writes nothing.
  o.info_log = MakeStoreLogger(options.read_only ? std::string() : rocks_dir());
  // The log was scanned (wal_scan.h): without damage, only an incomplete last record may be
  // dropped, and RocksDB's tolerant mode must agree. Recovery accepts the loss after damage.
  o.wal_recovery_mode = accept_wal_loss ? rocksdb::WALRecoveryMode::kPointInTimeRecovery
                                        : rocksdb::WALRecoveryMode::kTolerateCorruptedTailRecords;
  if (options.read_only) {
    rocksdb::DB *raw = nullptr;
    rocksdb::Status s = rocksdb::DB::OpenForReadOnly(o, rocks_dir(), &raw);
    if (!s.ok()) return OpenError(s);
    read_only_db.reset(raw);
    reader = raw;
    return Status::Ok();
  }
  delta_depth = std::make_shared<DeltaDepth>(kMaxSuccessiveDeltas);
  o.listeners.push_back(DeltaDepth::SealListener(delta_depth));
  rocksdb::TransactionDB *raw = nullptr;
  rocksdb::Status s =
      rocksdb::TransactionDB::Open(o, MakeTransactionDBOptions(options), rocks_dir(), &raw);
  if (!s.ok()) return OpenError(s);
  db.reset(raw);
  reader = raw;
  write_options = MakeWriteOptions(options.durability);
  txn_options = MakeTransactionOptions(options);
  return Status::Ok();
}

Status Store::Impl::ReadOrWriteHeader() {
  std::string value;
  rocksdb::Status s = reader->Get(rocksdb::ReadOptions(), StoreHeaderKey(), &value);
  if (s.IsNotFound()) {
    // A new store, or one whose creation was interrupted before its first write: then it is
    // empty. Anything else without a header is not ours to touch.
    std::unique_ptr<rocksdb::Iterator> it(reader->NewIterator(rocksdb::ReadOptions()));
    it->SeekToFirst();
    if (it->Valid()) {
      return Status(CAIRN_CORRUPTION, "store " + dir +
                                          " holds data but no Cairn store header: it is another "
                                          "program's database, or damaged");
    }
    format_version = kStoreFormatVersion;        // what a header written now will say
    if (options.read_only) return Status::Ok();  // empty: nothing to read, nothing written
    StoreHeader h;
    h.page_size = kPageSize;
    h.created_unix = NowUnix();
    rocksdb::WriteOptions w = MakeWriteOptions(Durability::kSync);
    return FromRocks(db->Put(w, StoreHeaderKey(), EncodeStoreHeader(h)),
                     "writing the header of store " + dir);
  }
  if (!s.ok()) return FromRocks(s, "reading the header of store " + dir);
  StoreHeader h;
  std::string problem;
  if (!DecodeStoreHeader(value, &h, &problem)) {
    return Status(CAIRN_CORRUPTION, "the header of store " + dir + " is damaged: " + problem +
                                        "; restore the store from a copy");
  }
  if (h.format_version < kOldestStoreFormatVersion || h.format_version > kStoreFormatVersion) {
    return Status(CAIRN_UNSUPPORTED,
                  "store " + dir + " has format version " + std::to_string(h.format_version) +
                      "; this build of Cairn reads versions " +
                      std::to_string(kOldestStoreFormatVersion) + " to " +
                      std::to_string(kStoreFormatVersion) + " (use the Cairn that made it)");
  }
  if (h.page_size != kPageSize) {
    return Status(CAIRN_UNSUPPORTED,
                  "store " + dir + " has pages of " + std::to_string(h.page_size) +
                      " bytes; this build of Cairn uses " + std::to_string(kPageSize));
  }
  format_version = h.format_version;
  if (h.format_version < kStoreFormatVersion && !options.read_only) {
    // Version 1 has no page deltas, version 2 none with moves, version 3 no filler[N] types;
    // once this process may write some, an older reader must refuse the store, so the header
    // says the current version before any commit (durably: sync).
    h.format_version = kStoreFormatVersion;
    format_version = kStoreFormatVersion;
    return FromRocks(
        db->Put(MakeWriteOptions(Durability::kSync), StoreHeaderKey(), EncodeStoreHeader(h)),
        "upgrading the header of store " + dir + " to format version " +
            std::to_string(kStoreFormatVersion));
  }
  return Status::Ok();
}

// RocksDB's TransactionDB (7.8) keeps the write-ahead logs it recovered at open until a flush
// that follows a write, and reads them all again at every open. A store used by short-lived
// processes (each exits, or is killed, before its memtable fills) would keep every log it ever
// wrote. So when more than one log is left after recovery (or after `cairn db recover`, always),
// rewrite the (unchanged) store header and flush: the old logs are deleted. The flush does not
// wait for a write stall to clear (allow_write_stall): the open never waits for a compaction.
// After a session that committed nothing there is only the new log (the empty ones were deleted
// before RocksDB opened, CountLogs), so such an open writes nothing here.
Status Store::Impl::ReleaseOldLogs(bool always) {
  std::error_code ec;
  int logs = 0;
  for (const auto &e : fs::directory_iterator(fs::path(dir) / kRocksSubdir, ec)) {
    if (e.path().extension() == ".log") ++logs;
  }
  if ((logs <= 1 && !always) || options.read_only) return Status::Ok();
  std::string value;
  rocksdb::Status s = db->Get(rocksdb::ReadOptions(), StoreHeaderKey(), &value);
  if (s.ok()) s = db->Put(MakeWriteOptions(Durability::kSync), StoreHeaderKey(), value);
  rocksdb::FlushOptions f;
  f.allow_write_stall = true;
  if (s.ok()) s = db->Flush(f);
  return FromRocks(s, "flushing the recovered log of store " + dir);
}

// RocksDB starts a compaction when level 0 has 4 table files, but a close cancels it, and so
// does a kill: processes that each live less than a compaction never finish one. Waiting for it
// at a clean close once level 0 is crowded keeps level 0 below the write stall. Bounded (a
// compaction that cannot run must not hang the exit): after a minute it is cancelled as usual.
void Store::Impl::FinishCompactions() {
  std::string level0;  // a string property: GetIntProperty does not know it
  if (!db->GetProperty("rocksdb.num-files-at-level0", &level0) ||
      std::strtoull(level0.c_str(), nullptr, 10) < kLevel0CompactAtClose)
    return;
  const auto give_up = std::chrono::steady_clock::now() + std::chrono::minutes(1);
  while (std::chrono::steady_clock::now() < give_up) {
    uint64_t pending = 0, running = 0, flushes = 0;
    db->GetIntProperty("rocksdb.compaction-pending", &pending);
    db->GetIntProperty("rocksdb.num-running-compactions", &running);
    db->GetIntProperty("rocksdb.num-running-flushes", &flushes);
    if (pending == 0 && running == 0 && flushes == 0) return;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
}

Status Store::Impl::LoadRegistry() {
  PrefixScan it(DatabasePrefix(KeyKind::kName, 0), rocksdb::ReadOptions(),
                [&](const rocksdb::ReadOptions &o) { return reader->NewIterator(o); });
  for (; it.Valid(); it.Next()) {
    std::string name = it.key().ToString().substr(1);
    uint64_t id = 0;
    std::string problem;
    if (!DecodeNameEntry(std::string_view(it.value().data(), it.value().size()), &id, &problem)) {
      return Status(CAIRN_CORRUPTION, "the catalogue entry of " + Quoted(name) + " in store " +
                                          dir + " is damaged: " + problem +
                                          "; restore the store from a copy");
    }
    by_name[name] = id;
    by_id[id].name = name;
  }
  return FromRocks(it.status(), "reading the catalogue of store " + dir);
}

Status Store::Impl::Use(DatabaseId id, std::string *name) {
  std::lock_guard<std::mutex> g(mu);
  auto e = by_id.find(id);
  if (e == by_id.end()) {
    return Status(CAIRN_NOT_FOUND, "there is no database #" + std::to_string(id) + " in store " +
                                       dir + " (it was dropped, or the id is wrong)");
  }
  ++e->second.users;
  *name = e->second.name;
  return Status::Ok();
}

void Store::Impl::Release(DatabaseId id) {
  std::lock_guard<std::mutex> g(mu);
  auto e = by_id.find(id);
  if (e != by_id.end()) --e->second.users;
}

Store::Store(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Store::~Store() = default;
const std::string &Store::dir() const { return impl_->dir; }
const StoreOptions &Store::options() const { return impl_->options; }

Status Store::Open(const std::string &dir, const StoreOptions &options,
                   std::unique_ptr<Store> *store) {
  return OpenStore(dir, options, nullptr, store);
}

// Open, and Recover when `recovery` is not null.
Status Store::OpenStore(const std::string &dir, const StoreOptions &options,
                        RecoveryReport *recovery, std::unique_ptr<Store> *store) {
  std::error_code ec;
  bool exists = fs::exists(dir, ec);
  // A store this process may not look into is not "no store" (campaign P: a db/ of mode 000 was
  // called no store, and a program offered to make one).
  std::error_code cur;
  if (exists) (void)fs::exists(fs::path(dir) / kRocksSubdir / "CURRENT", cur);
  if (cur == std::errc::permission_denied) {
    return Status(CAIRN_IO_ERROR, "store " + dir + " cannot be read: " + dir + "/" + kRocksSubdir +
                                      ": " + cur.message() + PermissionAdvice());
  }
  bool is_store = exists && IsStore(dir);
  if (exists && !fs::is_directory(dir, ec)) {
    return Status(CAIRN_INVALID_ARGUMENT, dir + " is not a directory, so not a Cairn store");
  }
  if (exists && !is_store) {
    const std::string found = DataWithoutCurrent(dir);
    if (!found.empty()) {
      return Status(CAIRN_CORRUPTION,
                    "store " + dir + " is damaged: its file " + kRocksSubdir +
                        "/CURRENT is missing, but " + kRocksSubdir + "/ holds a store's data (" +
                        found +
                        "). Nothing was changed. Restore the store from a copy (`cairn db "
                        "recover` cannot help)");
    }
  }
  if (!is_store && (!options.create_if_missing || recovery != nullptr)) {
    if (!exists) {
      return Status(CAIRN_NOT_FOUND, "store " + dir +
                                         " does not exist (`cairn db create NAME` makes it; or "
                                         "give another with --store DIR or $CAIRN_STORE)");
    }
    return Status(CAIRN_NOT_FOUND, "directory " + dir + " holds no Cairn store (no " +
                                       kRocksSubdir +
                                       "/CURRENT in it); give the right one with --store DIR");
  }
  if (!is_store) {
    if (!exists && !fs::create_directories(dir, ec)) {
      return Status(CAIRN_IO_ERROR, "cannot create store directory " + dir + ": " + ec.message());
    }
    if (!HoldsNoStoreFiles(dir)) {
      // (Also what a program that only asks, Database.exists or an empty atomic, is told: the
      // folder named is not a store, whatever it wanted of it.)
      return Status(CAIRN_INVALID_ARGUMENT,
                    "directory " + dir + " is not empty and is not a Cairn store (it holds other " +
                        "files, and no " + kRocksSubdir +
                        "/CURRENT): is --store or $CAIRN_STORE right? A new store needs an empty "
                        "or new directory");
    }
  }
  if (is_store && !options.read_only) {
    Status p = ProbeNeverOpened(dir);
    if (!p.ok()) return p;
  }
  auto impl = std::make_unique<Impl>();
  impl->dir = dir;
  impl->options = options;
  impl->opener = getpid();
  Status s = options.read_only ? StoreLock::AcquireShared(dir, &impl->lock)
                               : StoreLock::Acquire(dir, &impl->lock);
  if (!s.ok()) return s;
  impl->generation = impl->lock ? impl->lock->generation() : NoteStoreOpened(-1);
  WalScan scan;
  if (is_store) {
    // Empty logs hold nothing: a writing open deletes them (CountLogs says why).
    uint64_t with_records = 0;
    s = CountLogs(impl->rocks_dir(), !options.read_only, &with_records);
    if (!s.ok()) return s;
    // Before RocksDB reads the log (and, in point-in-time recovery, would drop everything after
    // damage in it and then delete it): damage is refused here, with nothing written. Only the
    // logs RocksDB will replay: damage in an obsolete one loses nothing. Which those are is asked
    // of RocksDB (a read-only open of its own) only when it can matter: with more than one log
    // that holds records, or damage in the only one; one intact log is scanned as it is.
    uint64_t first_live = 0;
    bool asked = false;
    auto ask = [&] {
      asked = true;
      if (!FirstLiveLog(impl->rocks_dir(), &first_live)) first_live = 0;
    };
    if (with_records > 1) ask();
    s = ScanWal(impl->rocks_dir(), &scan, first_live);
    if (!s.ok()) return s;
    if (scan.FirstDamaged() != nullptr && !asked) {
      ask();
      s = ScanWal(impl->rocks_dir(), &scan, first_live);
      if (!s.ok()) return s;
    }
    if (scan.FirstDamaged() != nullptr && recovery == nullptr) return WalDamageError(dir, scan);
    // TransactionDB reads the obsolete logs too, and fails on damage in one: a writing open
    // deletes them (a read-only one, a plain RocksDB, skips them).
    if (scan.skipped > 0 && !options.read_only) {
      uint64_t removed = 0;
      s = RemoveObsoleteLogs(impl->rocks_dir(), first_live, &removed);
      if (!s.ok()) return s;
      if (recovery != nullptr) recovery->obsolete_logs_removed = removed;
    }
  }
  bool recovering = recovery != nullptr && scan.FirstDamaged() != nullptr;
  if (recovering) {
    s = impl->KeepLogs(scan, recovery);
    if (!s.ok()) return s;
    s = CutAtDamage(scan);
    if (!s.ok()) return s;
  }
  s = impl->OpenRocks(!is_store, recovering);
  if (!s.ok()) return s;
  s = impl->ReadOrWriteHeader();
  if (!s.ok()) return s;
  s = impl->ReleaseOldLogs(recovering);
  if (!s.ok()) return s;
  s = impl->LoadRegistry();
  if (!s.ok()) return s;
  if (!options.read_only) {
    s = impl->PurgeDetached(true);  // left by a process that ended without deleting them
    if (!s.ok()) return s;
  }
  if (recovering) impl->DescribeLoss(scan, recovery);
  store->reset(new Store(std::move(impl)));
  return Status::Ok();
}

Status Store::Recover(const std::string &dir, const StoreOptions &options, RecoveryReport *report) {
  *report = RecoveryReport();
  std::unique_ptr<Store> store;
  return OpenStore(dir, options, report, &store);
}

Status Store::CreateDatabase(std::string_view name, DatabaseId *id_out) {
  if (Status u = impl_->Usable(); !u.ok()) return u;
  // A bad name and a name taken are said before a read-only store's refusal: they are wrong
  // whatever the store.
  Status v = ValidateDatabaseName(name);
  if (!v.ok()) return v;
  Impl &im = *impl_;
  std::lock_guard<std::mutex> ddl(im.ddl_mu);
  {
    std::lock_guard<std::mutex> g(im.mu);
    if (im.by_name.count(name) != 0) {
      return Status(CAIRN_ALREADY_EXISTS, Quoted(name) + " already exists in store " + im.dir +
                                              " (drop it first, or choose another name)");
    }
  }
  if (Status u = impl_->Writable("creating " + Quoted(name)); !u.ok()) return u;
  std::string value;
  rocksdb::Status rs = im.db->Get(rocksdb::ReadOptions(), StoreHeaderKey(), &value);
  if (!rs.ok()) return FromRocks(rs, "reading the header of store " + im.dir);
  StoreHeader h;
  std::string problem;
  if (!DecodeStoreHeader(value, &h, &problem)) {
    return Status(CAIRN_CORRUPTION, "the header of store " + im.dir + " is damaged: " + problem +
                                        "; restore the store from a copy");
  }
  DatabaseRecord r;
  r.id = h.next_database_id++;
  r.created_unix = NowUnix();
  r.name = std::string(name);
  rocksdb::WriteBatch batch;
  rs = batch.Put(StoreHeaderKey(), EncodeStoreHeader(h));
  if (rs.ok()) rs = batch.Put(NameKey(name), EncodeNameEntry(r.id));
  if (rs.ok()) rs = batch.Put(DatabaseKey(r.id), EncodeDatabaseRecord(r));
  if (rs.ok()) rs = im.db->Write(im.write_options, &batch);
  if (!rs.ok()) return FromRocks(rs, "creating " + Quoted(name) + " in store " + im.dir);
  {
    std::lock_guard<std::mutex> g(im.mu);
    im.by_name[r.name] = r.id;
    im.by_id[r.id].name = r.name;
  }
  if (id_out != nullptr) *id_out = r.id;
  return Status::Ok();
}

rocksdb::Status Store::Impl::DeleteDatabaseKeys(DatabaseId id, rocksdb::WriteBatch *batch) {
  rocksdb::Status rs;
  for (KeyKind kind : {KeyKind::kPage, KeyKind::kFree, KeyKind::kType, KeyKind::kTypeIndex,
                       KeyKind::kIdentityHash}) {
    PrefixScan it(DatabasePrefix(kind, id), rocksdb::ReadOptions(),
                  [&](const rocksdb::ReadOptions &o) { return db->NewIterator(o); });
    for (; rs.ok() && it.Valid(); it.Next()) rs = batch->Delete(it.key());
    if (rs.ok()) rs = it.status();
  }
  if (rs.ok()) rs = batch->Delete(DatabaseKey(id));
  if (rs.ok()) rs = batch->Delete(DatabasePrefix(KeyKind::kDropped, id));
  return rs;
}

Status Store::Impl::PurgeDetached(bool all_marked) {
  std::vector<DatabaseId> ids;
  {
    std::lock_guard<std::mutex> g(mu);
    ids.swap(detached);
  }
  if (all_marked) {
    std::set<DatabaseId> named;
    {
      std::lock_guard<std::mutex> g(mu);
      for (const auto &[name, id] : by_name) named.insert(id);
    }
    PrefixScan it(std::string(1, static_cast<char>(KeyKind::kDropped)), rocksdb::ReadOptions(),
                  [&](const rocksdb::ReadOptions &o) { return db->NewIterator(o); });
    for (; it.Valid(); it.Next()) {
      // A mark on a database a name leads to is damage (`db check` says so), not a drop.
      if (it.key().size() != 9) continue;
      const DatabaseId id = GetBe64(it.key().data() + 1);
      if (named.count(id) == 0) ids.push_back(id);
    }
    if (!it.status().ok()) return FromRocks(it.status(), "reading store " + dir);
  }
  for (DatabaseId id : ids) {
    rocksdb::WriteBatch batch;
    rocksdb::Status rs = DeleteDatabaseKeys(id, &batch);
    if (rs.ok()) rs = db->GetBaseDB()->Write(write_options, &batch);
    if (!rs.ok()) return FromRocks(rs, "deleting a dropped database in store " + dir);
    std::lock_guard<std::mutex> g(mu);
    by_id.erase(id);
  }
  return Status::Ok();
}

Status Store::Impl::FindToDrop(std::string_view name, DatabaseId *id) {
  auto n = by_name.find(name);
  if (n == by_name.end()) {
    // As FindDatabase: a name no database can have says so. Both before a read-only store's
    // refusal, as in CreateDatabase.
    if (Status v = ValidateDatabaseName(name); !v.ok()) return v;
    return Status(CAIRN_NOT_FOUND, "there is no " + Quoted(name) + " in store " + dir +
                                       " (`cairn db list` shows what there is)");
  }
  if (Status u = Writable("dropping " + Quoted(name)); !u.ok()) return u;
  *id = n->second;
  return Status::Ok();
}

Status Store::DetachDatabase(std::string_view name, DatabaseId *id_out) {
  if (Status u = impl_->Usable(); !u.ok()) return u;
  Impl &im = *impl_;
  std::lock_guard<std::mutex> ddl(im.ddl_mu);
  DatabaseId id = 0;
  {
    std::lock_guard<std::mutex> g(im.mu);
    if (Status f = im.FindToDrop(name, &id); !f.ok()) return f;
  }
  // The name and the mark in one write: the database is either named or marked for deletion.
  rocksdb::WriteBatch batch;
  rocksdb::Status rs = batch.Delete(NameKey(name));
  if (rs.ok()) rs = batch.Put(DatabasePrefix(KeyKind::kDropped, id), rocksdb::Slice());
  if (rs.ok()) rs = im.db->GetBaseDB()->Write(MakeWriteOptions(Durability::kSync), &batch);
  if (!rs.ok()) return FromRocks(rs, "dropping " + Quoted(name) + " in store " + im.dir);
  std::lock_guard<std::mutex> g(im.mu);
  im.by_name.erase(std::string(name));
  im.detached.push_back(id);
  if (id_out) *id_out = id;
  return Status::Ok();
}

Status Store::DropDatabase(std::string_view name) {
  if (Status u = impl_->Usable(); !u.ok()) return u;
  Impl &im = *impl_;
  std::lock_guard<std::mutex> ddl(im.ddl_mu);
  DatabaseId id = 0;
  {
    std::lock_guard<std::mutex> g(im.mu);
    if (Status f = im.FindToDrop(name, &id); !f.ok()) return f;
    auto n = im.by_name.find(name);
    auto &e = im.by_id[id];
    if (e.users > 0) {
      return Status(CAIRN_BUSY, Quoted(name) + " is in use by " + std::to_string(e.users) +
                                    " open transaction(s) of this process; end them first");
    }
    // Taken out of the registry now, so no transaction can start using it (R2); put back if
    // the write fails.
    im.by_name.erase(n);
    im.by_id.erase(id);
  }
  // Nothing else can touch this database's keys now, so the deletes go straight to the base
  // database, without taking a lock per key.
  rocksdb::WriteBatch batch;
  rocksdb::Status rs = im.DeleteDatabaseKeys(id, &batch);
  if (rs.ok()) rs = batch.Delete(NameKey(name));
  if (rs.ok()) rs = im.db->GetBaseDB()->Write(im.write_options, &batch);
  if (!rs.ok()) {
    std::lock_guard<std::mutex> g(im.mu);
    im.by_name[std::string(name)] = id;
    im.by_id[id].name = std::string(name);
    return FromRocks(rs, "dropping " + Quoted(name) + " in store " + im.dir);
  }
  return Status::Ok();
}

Status Store::ListDatabases(std::vector<std::string> *names) {
  if (Status u = impl_->Usable(); !u.ok()) return u;
  std::lock_guard<std::mutex> g(impl_->mu);
  names->clear();
  for (const auto &[name, id] : impl_->by_name) names->push_back(name);
  return Status::Ok();
}

Status Store::FindDatabase(std::string_view name, DatabaseId *id) {
  if (Status u = impl_->Usable(); !u.ok()) return u;
  std::lock_guard<std::mutex> g(impl_->mu);
  auto n = impl_->by_name.find(name);
  if (n == impl_->by_name.end()) {
    Status v = ValidateDatabaseName(name);
    if (!v.ok()) return v;
    return Status(CAIRN_NOT_FOUND, "there is no " + Quoted(name) + " in store " + impl_->dir +
                                       " (`cairn db list` shows what there is; `cairn db create " +
                                       std::string(name) + "` makes it)");
  }
  *id = n->second;
  return Status::Ok();
}

Status Store::GetDatabaseInfo(std::string_view name, DatabaseInfo *info) {
  DatabaseId id = 0;
  Status s = FindDatabase(name, &id);
  if (!s.ok()) return s;
  std::string value;
  rocksdb::Status rs = impl_->reader->Get(rocksdb::ReadOptions(), DatabaseKey(id), &value);
  if (!rs.ok()) return FromRocks(rs, "reading the record of " + Quoted(name));
  DatabaseRecord r;
  std::string problem;
  if (!DecodeDatabaseRecord(value, &r, &problem)) {
    return Status(CAIRN_CORRUPTION, "the record of " + Quoted(name) + " is damaged: " + problem +
                                        "; " + DamageAdvice(impl_->dir, name));
  }
  info->name = r.name;
  info->id = r.id;
  info->root = r.root;
  info->page_count = r.page_count;
  info->free_pages = r.free_pages;
  info->type_count = r.type_count;
  info->format_version = impl_->format_version;
  return Status::Ok();
}

Status Store::Check(std::string_view name, CheckReport *report) {
  if (Status u = impl_->Usable(); !u.ok()) return u;
  return impl_->Check(name, report);
}

}  // namespace cairn::store
