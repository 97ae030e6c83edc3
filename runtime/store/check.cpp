// The store audit behind `cairn db check`: reads every page and catalogue entry of a database
// from one snapshot and verifies invariants S1-S4 of cairn/store.h.
#include <rocksdb/iterator.h>

#include <cstdio>
#include <map>
#include <vector>

#include "catalogue.h"
#include "keys.h"
#include "page_codec.h"
#include "rocks_status.h"
#include "store_impl.h"

namespace cairn::store {
namespace {

constexpr size_t kMaxProblemsKept = 100;

class Auditor {
 public:
  explicit Auditor(CheckReport *report) : report_(report) {}
  void Problem(const std::string &what) {
    ++report_->problem_count;
    if (report_->problems.size() < kMaxProblemsKept) report_->problems.push_back(what);
  }

 private:
  CheckReport *report_;
};

// A snapshot released on scope exit.
class SnapshotGuard {
 public:
  explicit SnapshotGuard(rocksdb::DB *db) : db_(db), snap_(db->GetSnapshot()) {}
  ~SnapshotGuard() { db_->ReleaseSnapshot(snap_); }
  const rocksdb::Snapshot *get() const { return snap_; }

 private:
  rocksdb::DB *db_;
  const rocksdb::Snapshot *snap_;
};

std::string_view View(const rocksdb::Slice &s) { return std::string_view(s.data(), s.size()); }

}  // namespace

Status Store::Impl::Check(std::string_view name, CheckReport *report) {
  *report = CheckReport();
  report->database = std::string(name);
  Auditor audit(report);
  SnapshotGuard snap(db.get());
  rocksdb::ReadOptions ro;
  ro.snapshot = snap.get();
  ro.verify_checksums = true;
  ro.fill_cache = false;

  std::string value, problem;
  rocksdb::Status rs = db->Get(ro, NameKey(name), &value);
  if (rs.IsNotFound()) {
    Status v = ValidateDatabaseName(name);
    if (!v.ok()) return v;
    return Status(CAIRN_NOT_FOUND, "there is no " + Quoted(name) + " in store " + dir +
                                       " (`cairn db list` shows what there is)");
  }
  if (!rs.ok()) return FromRocks(rs, "reading the catalogue entry of " + Quoted(name));
  uint64_t id = 0;
  if (!DecodeNameEntry(value, &id, &problem)) {
    audit.Problem("catalogue: the name entry is damaged: " + problem);
    return Status::Ok();
  }
  rs = db->Get(ro, DatabaseKey(id), &value);
  DatabaseRecord r;
  if (!rs.ok() && !rs.IsNotFound()) return FromRocks(rs, "reading the record of " + Quoted(name));
  if (rs.IsNotFound()) {
    audit.Problem("catalogue: the name entry points to database #" + std::to_string(id) +
                  ", which has no record");
    return Status::Ok();
  }
  if (!DecodeDatabaseRecord(value, &r, &problem)) {
    audit.Problem("catalogue: the database record is damaged: " + problem);
    return Status::Ok();
  }
  if (r.id != id || r.name != name) {
    audit.Problem("catalogue: the record of #" + std::to_string(id) + " names '" + r.name +
                  "' #" + std::to_string(r.id));
  }
  report->page_count = r.page_count;

  // S1, S2, S3: every page 1..page_count is stored (and verifies) or free, not both.
  enum : uint8_t { kUnseen = 0, kStored = 1, kFree = 2 };
  std::vector<uint8_t> seen(static_cast<size_t>(r.page_count) + 1, kUnseen);
  std::unique_ptr<rocksdb::Iterator> it(db->NewIterator(ro));
  auto scan = [&](KeyKind kind, auto &&visit) -> Status {
    std::string prefix = DatabasePrefix(kind, id);
    for (it->Seek(prefix); it->Valid() && it->key().starts_with(prefix); it->Next()) {
      uint64_t n = 0;
      if (!ParseKeyNumber(View(it->key()), &n)) {
        audit.Problem("a key of kind '" + std::string(1, static_cast<char>(kind)) +
                      "' has a bad length (" + std::to_string(it->key().size()) + " bytes)");
        continue;
      }
      visit(n, View(it->value()));
    }
    if (!it->status().ok()) {
      // RocksDB's own block checksums failed: name the key being read when we can.
      uint64_t n = 0;
      std::string where = it->Valid() && ParseKeyNumber(View(it->key()), &n)
                              ? " near page " + std::to_string(n)
                              : std::string();
      audit.Problem("reading " + Quoted(name) + where + ": " +
                    FromRocks(it->status(), "the store's files").message());
    }
    return Status::Ok();
  };
  Status s = scan(KeyKind::kPage, [&](uint64_t page, std::string_view v) {
    ++report->pages_read;
    if (page == 0 || page > r.page_count) {
      audit.Problem("page " + std::to_string(page) + " is stored but outside 1.." +
                    std::to_string(r.page_count) + " (S1)");
      return;
    }
    seen[page] = kStored;
    std::string why;
    if (!DecodePage(v, id, page, nullptr, &why)) {
      audit.Problem("page " + std::to_string(page) + " is damaged: " + why + " (S3)");
    }
  });
  if (!s.ok()) return s;
  s = scan(KeyKind::kFree, [&](uint64_t page, std::string_view) {
    ++report->free_pages;
    if (page == 0 || page > r.page_count) {
      audit.Problem("page " + std::to_string(page) + " is on the free list but outside 1.." +
                    std::to_string(r.page_count) + " (S1)");
      return;
    }
    if (seen[page] == kStored) {
      audit.Problem("page " + std::to_string(page) + " is both stored and free (S2)");
    }
    seen[page] = kFree;
  });
  if (!s.ok()) return s;
  for (uint64_t p = 1; p <= r.page_count; ++p) {
    if (seen[p] == kUnseen) {
      audit.Problem("page " + std::to_string(p) + " is missing: neither stored nor free (S2)");
    }
  }
  if (report->free_pages != r.free_pages) {
    audit.Problem("the record counts " + std::to_string(r.free_pages) +
                  " free pages, the free list holds " + std::to_string(report->free_pages) +
                  " (S2)");
  }

  // S4: fingerprint -> index and index -> fingerprint agree, indexes are 1..type_count.
  std::map<uint32_t, uint64_t> by_index;
  s = scan(KeyKind::kType, [&](uint64_t fingerprint, std::string_view v) {
    ++report->types;
    uint32_t index = 0;
    std::string layout, why;
    char fp[24];
    std::snprintf(fp, sizeof fp, "0x%016llx", static_cast<unsigned long long>(fingerprint));
    if (!DecodeTypeEntry(v, &index, &layout, &why)) {
      audit.Problem(std::string("type ") + fp + " is damaged: " + why + " (S4)");
      return;
    }
    if (index == 0 || index > r.type_count || by_index.count(index) != 0) {
      audit.Problem(std::string("type ") + fp + " has index " + std::to_string(index) +
                    ", outside 1.." + std::to_string(r.type_count) + " or taken twice (S4)");
      return;
    }
    by_index[index] = fingerprint;
  });
  if (!s.ok()) return s;
  uint64_t index_entries = 0;
  s = scan(KeyKind::kTypeIndex, [&](uint64_t index, std::string_view v) {
    ++index_entries;
    uint64_t fingerprint = 0;
    std::string why;
    if (!DecodeTypeIndexEntry(v, &fingerprint, &why)) {
      audit.Problem("type index " + std::to_string(index) + " is damaged: " + why + " (S4)");
      return;
    }
    auto e = by_index.find(static_cast<uint32_t>(index));
    if (e == by_index.end() || e->second != fingerprint) {
      audit.Problem("type index " + std::to_string(index) +
                    " does not match the fingerprint entry (S4)");
    }
  });
  if (!s.ok()) return s;
  if (by_index.size() != r.type_count || index_entries != r.type_count) {
    audit.Problem("the record counts " + std::to_string(r.type_count) + " types; the table has " +
                  std::to_string(by_index.size()) + " entries and " +
                  std::to_string(index_entries) + " index entries (S4)");
  }
  return Status::Ok();
}

}  // namespace cairn::store
