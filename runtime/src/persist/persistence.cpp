// Persistence: the store, databases, roots, and the hooks the collector calls.
#include "persist/persistence.h"

#include <algorithm>
#include <cstdlib>

#include "heap/object.h"
#include "persist/fault_signal.h"
#include "persist/type_layout.h"
#include "persist/upgrade.h"
#include "util/fatal.h"

namespace cairn::persist {

Persistence *Persistence::instance_ = nullptr;

Status Persistence::Open(const cairn_persist_options *opts) {
  if (instance_)
    return Status(CAIRN_MISUSE, "a store is already open in this process (" + instance_->dir() +
                                    "); one store per process");
  if (!cairn_is_initialized()) {
    cairn_status s = cairn_init(nullptr);
    if (s != CAIRN_OK) return Status(s, cairn_last_error());
  }
  auto p = std::unique_ptr<Persistence>(new Persistence());
  if (opts)
    p->options_ = *opts;
  else
    p->options_.read_only = store::ReadOnlyRequested();
  p->options_.store_dir = nullptr;  // not kept: the caller's string
  store::StoreOptions so;
  so.durability =
      p->options_.durability == 1 ? store::Durability::kAsync : store::Durability::kSync;
  if (p->options_.lock_timeout_ms) so.lock_timeout_ms = p->options_.lock_timeout_ms;
  so.create_if_missing = !p->options_.no_create;
  so.read_only = p->options_.read_only == 1;
  if (so.read_only) so.create_if_missing = false;  // a store opened to be read is not made
  std::string dir = store::ResolveStoreDir(opts && opts->store_dir ? opts->store_dir : "");
  if (so.read_only)
    p->read_only_why_ =
        opts == nullptr ? "CAIRN_STORE_READ_ONLY is set" : "it was opened read-only";
  if (!so.read_only) {
    // A store this process may only read is opened read-only rather than refused: a program
    // that only reads it runs (as SQLite opens a file it cannot write). Decided before the
    // open: a writing open would take the store's lock exclusively on the way to failing,
    // keeping other such readers out; and a store not there is not made.
    p->read_only_why_ = store::WhyUnwritable(dir);
    if (!p->read_only_why_.empty()) {
      so.read_only = true;
      so.create_if_missing = false;
    }
  }
  Status s = store::Store::Open(dir, so, &p->store_);
  if (s.code() == CAIRN_NOT_FOUND && !p->options_.read_only && so.read_only) {
    // Not there, and this process could not make it (a writing open would have).
    return Status(CAIRN_IO_ERROR, "there is no store in " + dir +
                                      ", and none can be made: " + p->read_only_why_ +
                                      "; get write permission to it, or set CAIRN_STORE to "
                                      "another directory");
  }
  if (!s.ok()) return s;
  p->options_.read_only = so.read_only ? 1 : 0;
  p->heap_ = gc::GcHeap::Instance();
  if (!p->checks_.Reserve(p->heap_->pages().capacity()))
    return Status(CAIRN_OUT_OF_MEMORY, "no address space for the persistent pages' checks");
  p->heap_->roots().CheckMutator("cairn_store_open");
  if (!p->options_.max_resident_pages)
    p->options_.max_resident_pages = p->heap_->pages().capacity() / 4;
  if (!p->options_.max_protection_runs) p->options_.max_protection_runs = 30000;
  const uint64_t arena = p->heap_->pages().persistent_frames();
  if (!p->options_.max_frames || p->options_.max_frames > arena) p->options_.max_frames = arena;
  s = InstallFaultHandler();
  if (!s.ok()) return s;
  p->heap_->SetPersistHooks(p.get());
  instance_ = p.release();
  // Close the store before the process's static objects go (RocksDB's threads must not outlive
  // them). An open transaction is aborted: nothing of it is written.
  std::atexit([] {
    Persistence *q = instance_;
    if (!q) return;
    instance_ = nullptr;
    if (q->txn_) q->txn_->Abort();
    q->txn_.reset();
    q->store_.reset();
  });
  return Status::Ok();
}

Status Persistence::Ensure() {
  if (instance_) return Status::Ok();
  return Open(nullptr);  // reads CAIRN_STORE_READ_ONLY (store::ReadOnlyRequested)
}

Status Persistence::ReadOnlyRefusal(const Status &s, const std::string &what) const {
  if (!options_.read_only || s.code() != CAIRN_MISUSE ||
      s.message().find(" is open read-only") == std::string::npos)
    return s;
  return Status(CAIRN_MISUSE,
                what + ": store " + dir() + " is open read-only (" + read_only_why_ +
                    "), so nothing was written. Reading works; to change the store, run with "
                    "write access to it" +
                    (read_only_why_.rfind("CAIRN_STORE_READ_ONLY", 0) == 0
                         ? std::string(" and without CAIRN_STORE_READ_ONLY")
                         : std::string()));
}

Status Persistence::Reader(std::unique_ptr<store::Transaction> *temp, store::Transaction **t) {
  if (open_ && !failed_ && txn_) {
    *t = txn_.get();
    return Status::Ok();
  }
  Status s = store_->BeginTransaction(temp);
  *t = temp->get();
  return s;
}

Status Persistence::Misuse(const std::string &what) const { return Status(CAIRN_MISUSE, what); }

Status Persistence::NeedTransaction(const char *what, const cairn_db *db) const {
  if (!open_)
    return Misuse(std::string(what) + " of database '" + db->name +
                  "' outside a transaction: begin one first");
  if (failed_)
    return Misuse(std::string(what) + " of database '" + db->name + "' in a failed transaction (" +
                  failure_.message() + "): abort it first");
  return Status::Ok();
}

Status Persistence::TooManyOpen(const std::string &name) const {
  return Status(CAIRN_BUSY, "database '" + name + "' was not opened or created: " +
                                std::to_string(kMaxOpenDatabases) +
                                " databases are open in this process (counting those it dropped "
                                "while they were open, whose objects it may still hold), the most "
                                "one process can have");
}

Status Persistence::AddDatabase(const std::string &name, cairn_db **out) {
  for (auto &d : dbs_)
    if (d && !d->dropped && d->name == name) {
      *out = d.get();
      return Status::Ok();
    }
  store::DatabaseInfo info;
  Status s = store_->GetDatabaseInfo(name, &info);
  if (!s.ok()) return s;
  size_t slot = 0;
  while (slot < dbs_.size() && dbs_[slot]) slot++;
  if (slot >= kMaxOpenDatabases) return TooManyOpen(name);
  auto db = std::make_unique<cairn_db>();
  db->index = uint8_t(slot + 1);
  db->name = name;
  db->id = info.id;
  db->root_pref = info.root;
  checks_.known_pages(db->index) = info.page_count;
  if (slot == dbs_.size()) dbs_.emplace_back();
  dbs_[slot] = std::move(db);
  dbs_[slot]->opened = ++open_clock_;       // D18
  cairn_add_exact_root(&dbs_[slot]->root);  // D2
  *out = dbs_[slot].get();
  return Status::Ok();
}

Status Persistence::BeginStoreTransactionAgain() {
  txn_->Abort();
  txn_.reset();
  Status s = store_->BeginTransaction(&txn_);
  if (!s.ok()) {
    failed_ = true;
    failure_ = s;
  }
  return s;
}

Status Persistence::CreateDb(const char *name, cairn_db **out) {
  if (!name) return Status(CAIRN_INVALID_ARGUMENT, "cairn_db_create was given no name");
  if (open_ && failed_)
    return Misuse("creating database '" + std::string(name) + "' in a failed transaction (" +
                  failure_.message() + "): abort it first");
  // Refused before anything is written: a database made and then not opened would be a surprise.
  size_t open = 0;
  for (auto &d : dbs_) open += d != nullptr;
  if (open >= kMaxOpenDatabases) return TooManyOpen(name);
  Status s = store_->CreateDatabase(name);
  if (!s.ok()) return ReadOnlyRefusal(s, "database '" + std::string(name) + "' was not created");
  // Created at once, also inside a transaction (an abort does not undo it). The open store
  // transaction's snapshot predates the database; it has only read (a transaction writes at its
  // commit, D3), so it is begun again, and sees it.
  if (open_) {
    s = BeginStoreTransactionAgain();
    if (!s.ok()) return s;
  }
  return AddDatabase(name, out);
}

Status Persistence::OpenDb(const char *name, cairn_db **out) {
  if (!name) return Status(CAIRN_INVALID_ARGUMENT, "cairn_db_open was given no name");
  Status s = store::ValidateDatabaseName(name);
  if (!s.ok()) return s;
  for (auto &d : dbs_)
    if (d && !d->dropped && d->name == name) {
      d->opened = ++open_clock_;  // D18
      *out = d.get();             // open already: checked then
      return Status::Ok();
    }
  cairn_db *db = nullptr;
  s = AddDatabase(name, &db);
  if (!s.ok()) return s;
  s = CheckTypes(*db);  // type_check.cpp
  if (!s.ok()) {
    cairn_remove_exact_root(&db->root);
    dbs_[db->index - 1].reset();
    return s;
  }
  *out = db;
  return Status::Ok();
}

Status Persistence::UpgradeDb(const char *name, cairn_db **out, cairn_upgrade_report *report) {
  cairn_upgrade_report ignored;
  if (!report) report = &ignored;
  *report = cairn_upgrade_report{};
  upgrade_summary_.clear();
  report->summary = upgrade_summary_.c_str();
  if (!name) return Status(CAIRN_INVALID_ARGUMENT, "cairn_db_upgrade was given no name");
  Status s = store::ValidateDatabaseName(name);
  if (!s.ok()) return s;
  for (auto &d : dbs_)
    if (d && !d->dropped && d->name == name) return OpenDb(name, out);  // checked when opened
  if (open_ && failed_)
    return Misuse("upgrading database '" + std::string(name) + "' in a failed transaction (" +
                  failure_.message() + "): abort it first");
  s = UpgradeDatabase(*store_, name, report, &upgrade_summary_);
  report->summary = upgrade_summary_.c_str();
  if (!s.ok() && options_.read_only && s.code() == CAIRN_MISUSE &&
      s.message().find(" is open read-only") != std::string::npos)
    // (Not ReadOnlyRefusal's "reading works": this program cannot read the database unless it
    // is upgraded.)
    return Status(CAIRN_MISUSE, "database '" + std::string(name) +
                                    "' holds classes this program defines differently, and "
                                    "store " +
                                    dir() + " is open read-only (" + read_only_why_ +
                                    "), so it was not upgraded and nothing was written: run "
                                    "with write access to the store" +
                                    (read_only_why_.rfind("CAIRN_STORE_READ_ONLY", 0) == 0
                                         ? std::string(" and without CAIRN_STORE_READ_ONLY")
                                         : std::string()) +
                                    " to upgrade it");
  if (!s.ok()) return s;
  // Committed at once, also inside a transaction (as CreateDb): the open store transaction has
  // only read (D3), so it is begun again, and sees the upgraded pages.
  if (open_ && report->types_converted) {
    s = BeginStoreTransactionAgain();
    if (!s.ok()) return s;
  }
  return OpenDb(name, out);
}

Status Persistence::Exists(const char *name, int *exists) {
  store::DatabaseId id;
  Status s = store_->FindDatabase(name ? name : "", &id);
  *exists = s.ok();
  if (s.ok() || s.code() == CAIRN_NOT_FOUND) return Status::Ok();
  return s;
}

Status Persistence::Drop(const char *name) {
  if (!name) return Status(CAIRN_INVALID_ARGUMENT, "cairn_db_drop was given no name");
  // Dropped at once, also inside a transaction (an abort does not undo it): a database this
  // process has not opened is one the transaction has not touched. One it has opened is
  // detached (D20): its name goes now, its pages when the store closes.
  for (auto &d : dbs_) {
    if (!d || d->dropped || d->name != name) continue;
    Status s = store_->DetachDatabase(name);
    if (!s.ok()) return ReadOnlyRefusal(s, "database '" + std::string(name) + "' was not dropped");
    d->dropped = true;
    d->root = nullptr;  // no longer a root of anything
    d->root_loaded = true;
    d->root_dirty = false;
    return Status::Ok();
  }
  return ReadOnlyRefusal(store_->DropDatabase(name),
                         "database '" + std::string(name) + "' was not dropped");
}

Status Persistence::List(std::vector<std::string> *names) { return store_->ListDatabases(names); }

void Persistence::ForEachOpen(void (*fn)(cairn_db *db, void *ctx), void *ctx) {
  std::vector<cairn_db *> open;  // D18: in the order of their last opening
  for (auto &d : dbs_)
    if (d && !d->dropped) open.push_back(d.get());  // D20
  std::sort(open.begin(), open.end(),
            [](const cairn_db *a, const cairn_db *b) { return a->opened < b->opened; });
  for (cairn_db *d : open) fn(d, ctx);
}

Status Persistence::StoredTypes(cairn_db *db, void (*fn)(const cairn_type *stored, void *ctx),
                                void *ctx) {
  std::vector<store::TypeEntry> entries;
  std::unique_ptr<store::Transaction> temp;
  store::Transaction *t = nullptr;
  Status s = Reader(&temp, &t);
  if (s.ok()) s = t->ListTypes(db->id, &entries);
  if (temp) temp->Abort();
  if (!s.ok()) return s;
  for (const store::TypeEntry &e : entries) {
    StoredLayout layout;
    s = DecodeLayout(e.layout, &layout);
    if (!s.ok())
      return Status(s.code(), "database '" + db->name + "', type table entry " +
                                  std::to_string(e.index) + ": " + s.message());
    LayoutImage image(layout, e.fingerprint);
    fn(image.type(), ctx);
  }
  return Status::Ok();
}

Status Persistence::Dropped(const char *what, const cairn_db *db) const {
  return Misuse(std::string(what) + " of database '" + db->name +
                "', which this program dropped: open or create it again for a root");
}

Status Persistence::GetRoot(cairn_db *db, void **root) {
  if (db->dropped) return Dropped("reading the root", db);  // D20
  Status s = NeedTransaction("reading the root", db);
  if (!s.ok()) return s;
  if (!db->root_loaded) {
    void *r = nullptr;
    if (db->root_pref) {
      s = Swizzle(*db, db->root_pref, SIZE_MAX, &r);
      if (!s.ok()) return s;
    }
    db->root = r;
    db->root_loaded = true;
  }
  *root = db->root;
  return Status::Ok();
}

Status Persistence::SetRoot(cairn_db *db, void *root) {
  if (db->dropped) return Dropped("setting the root", db);  // D20
  Status s = NeedTransaction("setting the root", db);
  if (!s.ok()) return s;
  if (root && !cairn_in_heap(root))
    return Status(CAIRN_INVALID_ARGUMENT,
                  "the root of database '" + db->name + "' must be a heap object (or nil)");
  if (root) {
    // An address inside an object would be stored as the root and read back as an object.
    std::string why = NotAnObject(root);
    if (!why.empty())
      return Status(CAIRN_INVALID_ARGUMENT, "the root of database '" + db->name +
                                                "' must be an object, not a place inside one: " +
                                                why + " (pass the object itself)");
  }
  db->root = root;
  db->root_loaded = true;
  db->root_dirty = true;
  return Status::Ok();
}

std::string Persistence::NotAnObject(void *p) {
  heap::PageHeap &pages = heap_->pages();
  size_t i = pages.IndexOf(p);
  const heap::PageInfo &pi = pages.Info(i);
  if (pi.space == heap::Space::kFree) return "the address is in free memory";
  if (pi.persistent() &&
      !pages.Info(pi.kind == heap::PageKind::kLargeTail ? i - pi.run : i).resident()) {
    if (HandleFault(p, 0) == FaultResult::kFailed) return fault_error_.message();
  }
  size_t head = pi.kind == heap::PageKind::kLargeTail ? i - pi.run : i;
  const char *base = pages.PageAddress(head);
  const size_t at = size_t(static_cast<const char *>(p) - base);
  if (pages.Info(head).kind == heap::PageKind::kLargeHead) {
    if (at == heap::kWordSize) return "";
    if (at < heap::kWordSize) return "the address points at the header of a large object";
    const cairn_type *t = heap::TypeOfHeader(*reinterpret_cast<const uintptr_t *>(base));
    return "the address points " + std::to_string(at - heap::kWordSize) +
           " bytes into an object of type '" + t->name + "'";
  }
  heap_->SyncAllocation();
  const uint32_t used = pages.Info(head).used;
  for (size_t off = 0; off + 2 * heap::kWordSize <= used;) {
    uintptr_t word = *reinterpret_cast<const uintptr_t *>(base + off);
    if (word == 0) break;
    const cairn_type *t = heap::TypeOfHeader(word);
    const size_t bytes = heap::ObjectBytes(t, base + off + heap::kWordSize);
    if (at == off + heap::kWordSize) return "";
    if (at < off + heap::kWordSize)
      return std::string("the address points at the header of an object of type '") + t->name + "'";
    if (at < off + bytes)
      return "the address points " + std::to_string(at - off - heap::kWordSize) +
             " bytes into an object of type '" + t->name + "'";
    off += bytes;
  }
  return "no object is there";
}

void Persistence::MakeResidentForRead(const void *p, size_t n) {
  if (!LoadForRead(p, n).ok()) ReportFaultError();
}

Status Persistence::LoadForRead(const void *p, size_t n) {
  heap::PageHeap &pages = heap_->pages();
  const uintptr_t end = uintptr_t(p) + n;
  for (uintptr_t a = uintptr_t(p) & ~uintptr_t(heap::kPageSize - 1); n && a < end;
       a += heap::kPageSize) {
    void *addr = reinterpret_cast<void *>(a);
    if (!pages.Covers(addr)) continue;
    size_t i = pages.IndexOf(addr);
    const heap::PageInfo &pi = pages.Info(i);
    if (pi.space == heap::Space::kFree || !pi.persistent()) continue;
    size_t head = pi.kind == heap::PageKind::kLargeTail ? i - pi.run : i;
    // Loading leaves the page read-only and clean: readable by the kernel, not written at
    // commit. (A write trap would make it modified; cairn_make_resident does that.)
    const heap::PageInfo &h = pages.Info(head);
    bool readable = h.resident() && heap::PageHeap::ProtectionOf(h) != heap::Protection::kNone;
    if (!readable && HandleFault(addr, 0) == FaultResult::kFailed) return fault_error_;
  }
  return Status::Ok();
}

std::string Persistence::DatabaseName(uint8_t db) {
  if (db < 1 || db > dbs_.size() || !dbs_[db - 1]) return "database '?'";
  const auto &d = *dbs_[db - 1];
  return (d.dropped ? "the dropped database '" : "database '") + d.name + "'";
}

void Persistence::GetStats(cairn_persist_stats *out) const {
  *out = totals_;
  out->resident_pages =
      in_state_[size_t(heap::FrameState::kClean)] + in_state_[size_t(heap::FrameState::kModified)];
  out->reserved_frames = in_state_[size_t(heap::FrameState::kReserved)];
}

size_t Persistence::LastCommitTypes(cairn_type_count *out, size_t max) const {
  for (size_t i = 0; i < last_types_.size() && i < max; i++) out[i] = last_types_[i];
  return last_types_.size();
}

}  // namespace cairn::persist
