// A store transaction's catalogue operations: the root and the type table.
#include <rocksdb/iterator.h>

#include <algorithm>
#include <cstdio>

#include "keys.h"
#include "prefix_scan.h"
#include "rocks_status.h"
#include "transaction_impl.h"

namespace cairn::store {
namespace {

std::string TypeName(uint64_t fingerprint) {
  char b[32];
  std::snprintf(b, sizeof b, "type 0x%016llx", static_cast<unsigned long long>(fingerprint));
  return b;
}

}  // namespace

Status Transaction::GetRoot(DatabaseId id, uint64_t *root) {
  Impl &t = *impl_;
  TouchedDatabase *db = nullptr;
  Status s = t.Enter(id, &db);
  if (!s.ok()) return s;
  *root = db->record.root;
  return Status::Ok();
}

Status Transaction::SetRoot(DatabaseId id, uint64_t root) {
  Impl &t = *impl_;
  if (Status w = t.GuardWrite("setting a root"); !w.ok()) return w;
  TouchedDatabase *db = nullptr;
  Status s = t.Enter(id, &db);
  if (!s.ok()) return s;
  s = t.LockRecord(db);
  if (!s.ok()) return t.Fail(s);
  db->record.root = root;
  db->record_dirty = true;
  return Status::Ok();
}

Status Transaction::PutType(DatabaseId id, uint64_t fingerprint, std::string_view layout,
                            uint32_t *index) {
  Impl &t = *impl_;
  TouchedDatabase *db = nullptr;
  Status s = t.Enter(id, &db);
  if (!s.ok()) return s;
  std::string key = TypeKey(id, fingerprint);
  std::string value;
  rocksdb::Status rs = t.Get(key, &value);
  if (rs.ok()) {
    std::string stored_layout, problem;
    if (!DecodeTypeEntry(value, index, &stored_layout, &problem)) {
      return t.Fail(Status(CAIRN_CORRUPTION, "the entry of " + TypeName(fingerprint) + " in " +
                                                 Quoted(db->name) + " is damaged: " + problem +
                                                 "; " + DamageAdvice(t.store->dir, db->name)));
    }
    if (stored_layout != layout) {
      return t.Fail(Status(CAIRN_TYPE_MISMATCH,
                           TypeName(fingerprint) + " is stored in " + Quoted(db->name) +
                               " with a different layout (" + std::to_string(stored_layout.size()) +
                               " bytes, not " + std::to_string(layout.size()) +
                               " or different contents); the program and the database "
                               "disagree on this type"));
    }
    return Status::Ok();
  }
  if (!rs.IsNotFound()) {
    return t.Fail(FromRocks(rs, "reading " + TypeName(fingerprint) + " in " + Quoted(db->name)));
  }
  s = t.LockRecord(db);
  if (!s.ok()) return t.Fail(s);
  uint32_t next = db->record.type_count + 1;
  rs = t.txn->Put(key, EncodeTypeEntry(next, layout));
  if (rs.ok()) rs = t.txn->Put(TypeIndexKey(id, next), EncodeTypeIndexEntry(fingerprint));
  if (!rs.ok()) {
    return t.Fail(FromRocks(rs, "adding " + TypeName(fingerprint) + " to " + Quoted(db->name),
                            t.store->options.lock_timeout_ms));
  }
  db->record.type_count = next;
  db->record_dirty = true;
  *index = next;
  return Status::Ok();
}

Status Transaction::ReplaceTypeLayout(DatabaseId id, uint64_t fingerprint,
                                      std::string_view layout) {
  Impl &t = *impl_;
  if (Status w = t.GuardWrite("replacing a type's layout"); !w.ok()) return w;
  TypeEntry entry;
  Status s = GetType(id, fingerprint, &entry);
  if (!s.ok()) return s;
  rocksdb::Status rs = t.txn->Put(TypeKey(id, fingerprint), EncodeTypeEntry(entry.index, layout));
  if (!rs.ok()) {
    TouchedDatabase *db = nullptr;
    s = t.Enter(id, &db);
    return t.Fail(FromRocks(
        rs,
        "replacing " + TypeName(fingerprint) + (s.ok() ? " in " + Quoted(db->name) : std::string()),
        t.store->options.lock_timeout_ms));
  }
  return Status::Ok();
}

Status Transaction::GetType(DatabaseId id, uint64_t fingerprint, TypeEntry *entry) {
  Impl &t = *impl_;
  TouchedDatabase *db = nullptr;
  Status s = t.Enter(id, &db);
  if (!s.ok()) return s;
  std::string value, problem;
  rocksdb::Status rs = t.Get(TypeKey(id, fingerprint), &value);
  if (rs.IsNotFound()) {
    return t.Fail(Status(CAIRN_NOT_FOUND, TypeName(fingerprint) + " is not in the type table of " +
                                              Quoted(db->name)));
  }
  if (!rs.ok()) {
    return t.Fail(FromRocks(rs, "reading " + TypeName(fingerprint) + " in " + Quoted(db->name)));
  }
  if (!DecodeTypeEntry(value, &entry->index, &entry->layout, &problem)) {
    return t.Fail(Status(CAIRN_CORRUPTION, "the entry of " + TypeName(fingerprint) + " in " +
                                               Quoted(db->name) + " is damaged: " + problem + "; " +
                                               DamageAdvice(t.store->dir, db->name)));
  }
  entry->fingerprint = fingerprint;
  return Status::Ok();
}

Status Transaction::GetTypeByIndex(DatabaseId id, uint32_t index, TypeEntry *entry) {
  Impl &t = *impl_;
  TouchedDatabase *db = nullptr;
  Status s = t.Enter(id, &db);
  if (!s.ok()) return s;
  std::string value, problem;
  rocksdb::Status rs = t.Get(TypeIndexKey(id, index), &value);
  if (rs.IsNotFound()) {
    return t.Fail(Status(CAIRN_NOT_FOUND, "type index " + std::to_string(index) +
                                              " is not in the type table of " + Quoted(db->name) +
                                              " (it has " + std::to_string(db->record.type_count) +
                                              " types)"));
  }
  if (!rs.ok()) return t.Fail(FromRocks(rs, "reading the type table of " + Quoted(db->name)));
  uint64_t fingerprint = 0;
  if (!DecodeTypeIndexEntry(value, &fingerprint, &problem)) {
    return t.Fail(Status(CAIRN_CORRUPTION, "type index " + std::to_string(index) + " of " +
                                               Quoted(db->name) + " is damaged: " + problem + "; " +
                                               DamageAdvice(t.store->dir, db->name)));
  }
  s = GetType(id, fingerprint, entry);
  if (s.ok() && entry->index != index) {
    return t.Fail(Status(CAIRN_CORRUPTION,
                         "the type table of " + Quoted(db->name) + " is inconsistent at index " +
                             std::to_string(index) + "; " + DamageAdvice(t.store->dir, db->name)));
  }
  return s;
}

Status Transaction::ListTypes(DatabaseId id, std::vector<TypeEntry> *entries) {
  Impl &t = *impl_;
  TouchedDatabase *db = nullptr;
  Status s = t.Enter(id, &db);
  if (!s.ok()) return s;
  entries->clear();
  PrefixScan it(DatabasePrefix(KeyKind::kType, id), t.read_options,
                [&](const rocksdb::ReadOptions &o) { return t.NewIterator(o); });
  for (; it.Valid(); it.Next()) {
    TypeEntry e;
    std::string problem;
    std::string_view key(it.key().data(), it.key().size());
    if (!ParseKeyNumber(key, &e.fingerprint) ||
        !DecodeTypeEntry(std::string_view(it.value().data(), it.value().size()), &e.index,
                         &e.layout, &problem)) {
      return t.Fail(Status(CAIRN_CORRUPTION, "the type table of " + Quoted(db->name) +
                                                 " is damaged: " + problem + "; " +
                                                 DamageAdvice(t.store->dir, db->name)));
    }
    entries->push_back(std::move(e));
  }
  if (!it.status().ok()) {
    return t.Fail(FromRocks(it.status(), "reading the type table of " + Quoted(db->name)));
  }
  std::sort(entries->begin(), entries->end(),
            [](const TypeEntry &a, const TypeEntry &b) { return a.index < b.index; });
  return Status::Ok();
}

}  // namespace cairn::store
