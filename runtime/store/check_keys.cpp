// Store::CheckKeys: every key of the store belongs to the header or to a database a name leads
// to (cairn/store.h). Check(name) reads what a name leads to; keys that no name leads to (a
// name entry lost or rewritten, a page written under another database's id) are found only here.
#include <rocksdb/iterator.h>

#include <cstdio>
#include <map>
#include <memory>

#include "catalogue.h"
#include "encoding.h"
#include "keys.h"
#include "rocks_status.h"
#include "store_impl.h"

namespace cairn::store {
namespace {

constexpr size_t kMaxProblemsKept = 100;

// The keys of one database id that no name leads to, by kind.
struct Unnamed {
  bool record = false;
  std::string recorded_name;  // from its record, when that decodes
  uint64_t pages = 0, frees = 0, types = 0, hashes = 0;
};

std::string Count(uint64_t n, const char *one, const char *many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

std::string Printable(char c) {
  if (c >= 0x21 && c < 0x7f) return std::string("'") + c + "'";
  char buf[8];
  std::snprintf(buf, sizeof buf, "0x%02x", static_cast<unsigned char>(c));
  return buf;
}

}  // namespace

Status Store::CheckKeys(std::vector<std::string> *problems, uint64_t *keys) {
  if (Status u = impl_->Usable(); !u.ok()) return u;
  problems->clear();
  *keys = 0;
  uint64_t problem_count = 0;
  auto problem = [&](std::string what) {
    ++problem_count;
    if (problems->size() < kMaxProblemsKept) problems->push_back(std::move(what));
  };
  rocksdb::DB *const rdb = impl_->reader;
  const rocksdb::Snapshot *snap = rdb->GetSnapshot();
  rocksdb::ReadOptions ro;
  ro.snapshot = snap;
  ro.verify_checksums = true;
  ro.fill_cache = false;

  // The ids the names lead to (and which name first), from the 'N' keys.
  std::map<uint64_t, std::string> named;
  std::unique_ptr<rocksdb::Iterator> it(rdb->NewIterator(ro));
  const std::string name_prefix = DatabasePrefix(KeyKind::kName, 0);
  for (it->Seek(name_prefix); it->Valid() && it->key().starts_with(name_prefix); it->Next()) {
    const std::string name(it->key().data() + 1, it->key().size() - 1);
    uint64_t id = 0;
    std::string why;
    if (!DecodeNameEntry(std::string_view(it->value().data(), it->value().size()), &id, &why)) {
      continue;  // Check(name) says so
    }
    auto [at, fresh] = named.emplace(id, name);
    if (!fresh) {
      problem("the names '" + at->second + "' and '" + name + "' both lead to database #" +
              std::to_string(id));
    }
  }
  rocksdb::Status rs = it->status();
  // The databases dropped while a process had them open (DetachDatabase): theirs until it ends.
  std::map<uint64_t, bool> dropped;
  const std::string dropped_prefix(1, static_cast<char>(KeyKind::kDropped));
  for (it->Seek(dropped_prefix); rs.ok() && it->Valid() && it->key().starts_with(dropped_prefix);
       it->Next())
    if (it->key().size() == 9) dropped[GetBe64(it->key().data() + 1)] = true;
  if (rs.ok()) rs = it->status();
  for (const auto &[id, marked] : dropped) {
    if (auto n = named.find(id); n != named.end()) {
      problem("database '" + n->second + "' (#" + std::to_string(id) +
              ") is marked dropped (an 'X' key): the next writing open would delete it");
    }
  }

  // Every key, in order.
  std::map<uint64_t, Unnamed> unnamed;
  for (it->SeekToFirst(); rs.ok() && it->Valid(); it->Next()) {
    ++*keys;
    const rocksdb::Slice k = it->key();
    if (k.size() == 0) {
      problem("an empty key");
      continue;
    }
    const KeyKind kind = static_cast<KeyKind>(k[0]);
    switch (kind) {
      case KeyKind::kStoreHeader:
        if (k.size() != 1) problem("a store header key of " + Count(k.size(), "byte", "bytes"));
        continue;
      case KeyKind::kName:
        continue;
      case KeyKind::kDatabase:
      case KeyKind::kPage:
      case KeyKind::kFree:
      case KeyKind::kType:
      case KeyKind::kTypeIndex:
      case KeyKind::kIdentityHash:
        break;
      case KeyKind::kDropped:
        if (k.size() != 9) problem("a dropped-database key of " + Count(k.size(), "byte", "bytes"));
        continue;
      default:
        problem("a key of unknown kind " + Printable(k[0]) + " (" +
                Count(k.size(), "byte", "bytes") + ")");
        continue;
    }
    if (k.size() < 9) {
      problem("a key of kind " + Printable(k[0]) + " too short to name a database (" +
              Count(k.size(), "byte", "bytes") + ")");
      continue;
    }
    uint64_t id = GetBe64(k.data() + 1);
    if (named.count(id) != 0 || dropped.count(id) != 0) continue;
    Unnamed &u = unnamed[id];
    switch (kind) {
      case KeyKind::kDatabase: {
        u.record = true;
        DatabaseRecord r;
        std::string why;
        if (DecodeDatabaseRecord(std::string_view(it->value().data(), it->value().size()), &r,
                                 &why))
          u.recorded_name = r.name;
        break;
      }
      case KeyKind::kPage:
        ++u.pages;
        break;
      case KeyKind::kFree:
        ++u.frees;
        break;
      case KeyKind::kType:  // its 'I' key only numbers it
        ++u.types;
        break;
      case KeyKind::kTypeIndex:
        break;
      default:
        ++u.hashes;
        break;
    }
  }
  if (rs.ok()) rs = it->status();
  it.reset();
  rdb->ReleaseSnapshot(snap);
  if (!rs.ok()) {
    if (rs.IsCorruption()) {
      problem(std::string("the keys cannot all be read: the store's files are damaged (RocksDB: ") +
              (rs.getState() ? rs.getState() : "corruption") + ")");
      return Status::Ok();
    }
    return FromRocks(rs, "reading the keys of store " + impl_->dir);
  }
  for (const auto &[id, u] : unnamed) {
    std::string what;
    auto add = [&](const std::string &part) { what += (what.empty() ? "" : ", ") + part; };
    if (u.record) add("its record");
    if (u.pages) add(Count(u.pages, "page", "pages"));
    if (u.frees) add(Count(u.frees, "free-page entry", "free-page entries"));
    if (u.types) add(Count(u.types, "type entry", "type entries"));
    if (u.hashes) add(Count(u.hashes, "identity hash", "identity hashes"));
    std::string who = "database #" + std::to_string(id);
    if (!u.recorded_name.empty()) who += " (its record names it '" + u.recorded_name + "')";
    problem(who + ": no name leads to it, but the store holds " + what +
            " (a name entry lost or rewritten, or data written under a wrong database id)");
  }
  if (problem_count > problems->size()) {
    problems->push_back("... and " + std::to_string(problem_count - problems->size()) + " more");
  }
  return Status::Ok();
}

}  // namespace cairn::store
