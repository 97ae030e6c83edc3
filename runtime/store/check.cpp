// The store audit behind `cairn db check`: reads every page and catalogue entry of a database
// from one snapshot and verifies invariants S1-S4 of cairn/store.h.
#include <rocksdb/iterator.h>

#include <algorithm>
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

// A read that failed, in a problem line (the report is what the user reads: no advice to run
// the check they are running).
std::string Failed(const rocksdb::Status &s) {
  if (s.IsCorruption())
    return std::string("the store's files are damaged there (RocksDB: ") +
           (s.getState() ? s.getState() : "corruption") + ")";
  return s.ToString();
}

}  // namespace

Status Store::Impl::Check(std::string_view name, CheckReport *report) {
  *report = CheckReport();
  report->database = std::string(name);
  Auditor audit(report);
  rocksdb::DB *const rdb = reader;  // the transaction DB, or the read-only one
  SnapshotGuard snap(rdb);
  rocksdb::ReadOptions ro;
  ro.snapshot = snap.get();
  ro.verify_checksums = true;
  ro.fill_cache = false;

  std::string value, problem;
  rocksdb::Status rs = rdb->Get(ro, NameKey(name), &value);
  if (rs.IsNotFound()) {
    Status v = ValidateDatabaseName(name);
    if (!v.ok()) return v;
    return Status(CAIRN_NOT_FOUND, "there is no " + Quoted(name) + " in store " + dir +
                                       " (`cairn db list` shows what there is)");
  }
  if (rs.IsCorruption()) {
    audit.Problem("catalogue: the name entry cannot be read: " + Failed(rs));
    return Status::Ok();
  }
  if (!rs.ok()) return FromRocks(rs, "reading the catalogue entry of " + Quoted(name));
  uint64_t id = 0;
  if (!DecodeNameEntry(value, &id, &problem)) {
    audit.Problem("catalogue: the name entry is damaged: " + problem);
    return Status::Ok();
  }
  rs = rdb->Get(ro, DatabaseKey(id), &value);
  DatabaseRecord r;
  if (rs.IsCorruption()) {
    audit.Problem("catalogue: the database record cannot be read: " + Failed(rs));
    return Status::Ok();
  }
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
    audit.Problem("catalogue: the record of #" + std::to_string(id) + " names '" + r.name + "' #" +
                  std::to_string(r.id));
  }
  report->page_count = r.page_count;

  // S1, S2, S3: every page 1..page_count is stored (and verifies) or free, not both. The 'P'
  // and 'F' keys are both in page order, so one merged walk finds gaps and overlaps without
  // memory per page.
  std::unique_ptr<rocksdb::Iterator> pages(rdb->NewIterator(ro)), frees(rdb->NewIterator(ro));
  const std::string page_prefix = DatabasePrefix(KeyKind::kPage, id);
  const std::string free_prefix = DatabasePrefix(KeyKind::kFree, id);
  pages->Seek(page_prefix);
  frees->Seek(free_prefix);
  constexpr uint64_t kEnd = ~uint64_t{0};
  auto current = [&](rocksdb::Iterator *it, const std::string &prefix) -> uint64_t {
    while (it->Valid() && it->key().starts_with(prefix)) {
      uint64_t n = 0;
      if (ParseKeyNumber(View(it->key()), &n)) return n;
      audit.Problem("a key of kind '" + prefix.substr(0, 1) + "' has a bad length (" +
                    std::to_string(it->key().size()) + " bytes)");
      it->Next();
    }
    return kEnd;
  };
  auto missing = [&](uint64_t from, uint64_t to) {
    if (from == to) {
      audit.Problem("page " + std::to_string(from) + " is missing: neither stored nor free (S2)");
    } else if (from < to) {
      audit.Problem("pages " + std::to_string(from) + " to " + std::to_string(to) +
                    " are missing: neither stored nor free (S2)");
    }
  };
  uint64_t expect = 1;
  for (;;) {
    uint64_t p = current(pages.get(), page_prefix), f = current(frees.get(), free_prefix);
    // An iterator stopped by a failed block checksum ends the merged walk: the other one would
    // go on alone, and the pages between would be called missing (campaign L). The rest is read
    // key by key, below.
    if ((p == kEnd && !pages->status().ok()) || (f == kEnd && !frees->status().ok())) break;
    uint64_t next = std::min(p, f);
    if (next == kEnd) break;
    if (next == 0 || next > r.page_count) {
      audit.Problem("page " + std::to_string(next) + " is " +
                    (p == next ? "stored" : "on the free list") + " but outside 1.." +
                    std::to_string(r.page_count) + " (S1)");
    } else if (next >= expect) {
      missing(expect, next - 1);
      expect = next + 1;
    }
    if (p == next && f == next) {
      audit.Problem("page " + std::to_string(next) + " is both stored and free (S2)");
    }
    if (p == next) {
      ++report->pages_read;
      std::string why;
      if (!DecodePage(View(pages->value()), id, next, nullptr, &why)) {
        audit.Problem("page " + std::to_string(next) + " is damaged: " + why + " (S3)");
      }
      pages->Next();
    }
    if (f == next) {
      ++report->free_pages;
      frees->Next();
    }
  }
  if (!pages->status().ok() || !frees->status().ok()) {
    // RocksDB's own block checksums failed and the walk stopped there. What follows is read key
    // by key: a damaged block fails only the reads of the keys in it, so every page that can be
    // read is still checked and every one that cannot is reported.
    for (uint64_t p = expect; p <= r.page_count; ++p) {
      PageKey pk(KeyKind::kPage, id, p), fk(KeyKind::kFree, id, p);
      rocksdb::PinnableSlice v;
      rocksdb::Status ps = rdb->Get(ro, rdb->DefaultColumnFamily(),
                                    rocksdb::Slice(pk.view().data(), pk.view().size()), &v);
      if (ps.ok()) {
        ++report->pages_read;
        std::string why;
        if (!DecodePage(std::string_view(v.data(), v.size()), id, p, nullptr, &why))
          audit.Problem("page " + std::to_string(p) + " is damaged: " + why + " (S3)");
        continue;
      }
      if (!ps.IsNotFound()) {
        audit.Problem("page " + std::to_string(p) + " cannot be read: " + Failed(ps));
        continue;
      }
      std::string ignored;
      rocksdb::Status fs =
          rdb->Get(ro, rocksdb::Slice(fk.view().data(), fk.view().size()), &ignored);
      if (fs.ok()) {
        ++report->free_pages;
      } else if (fs.IsNotFound()) {
        missing(p, p);
      } else {
        audit.Problem("page " + std::to_string(p) + " cannot be read: " + Failed(fs));
      }
    }
    expect = kEnd;
  }
  if (expect != kEnd) missing(expect, r.page_count);
  if (report->free_pages != r.free_pages) {
    audit.Problem("the record counts " + std::to_string(r.free_pages) +
                  " free pages, the free list holds " + std::to_string(report->free_pages) +
                  " (S2)");
  }

  std::unique_ptr<rocksdb::Iterator> it(rdb->NewIterator(ro));
  auto scan = [&](KeyKind kind, auto &&visit) {
    std::string prefix = DatabasePrefix(kind, id);
    for (it->Seek(prefix); it->Valid() && it->key().starts_with(prefix); it->Next()) {
      uint64_t n = 0;
      if (!ParseKeyNumber(View(it->key()), &n)) {
        audit.Problem("a key of kind '" + prefix.substr(0, 1) + "' has a bad length (" +
                      std::to_string(it->key().size()) + " bytes)");
        continue;
      }
      visit(n, View(it->value()));
    }
    if (!it->status().ok()) {
      audit.Problem("the type table of " + Quoted(name) +
                    " cannot all be read: " + Failed(it->status()));
    }
  };

  // S4: fingerprint -> index and index -> fingerprint agree, indexes are 1..type_count.
  std::map<uint32_t, uint64_t> by_index;
  scan(KeyKind::kType, [&](uint64_t fingerprint, std::string_view v) {
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
  uint64_t index_entries = 0;
  scan(KeyKind::kTypeIndex, [&](uint64_t index, std::string_view v) {
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
  if (by_index.size() != r.type_count || index_entries != r.type_count) {
    audit.Problem("the record counts " + std::to_string(r.type_count) + " types; the table has " +
                  std::to_string(by_index.size()) + " entries and " +
                  std::to_string(index_entries) + " index entries (S4)");
  }

  // S6: identity hash entries name pages that exist, at offsets within a page.
  const std::string hash_prefix = DatabasePrefix(KeyKind::kIdentityHash, id);
  for (it->Seek(hash_prefix); it->Valid() && it->key().starts_with(hash_prefix); it->Next()) {
    uint64_t page = 0, hash = 0;
    uint32_t offset = 0;
    std::string why;
    if (!ParseIdentityHashKey(View(it->key()), &page, &offset)) {
      audit.Problem("an identity hash key has a bad length (" + std::to_string(it->key().size()) +
                    " bytes) (S6)");
    } else if (!DecodeIdentityHashEntry(View(it->value()), &hash, &why)) {
      audit.Problem("the identity hash of page " + std::to_string(page) + ", offset " +
                    std::to_string(offset) + " is damaged: " + why + " (S6)");
    } else if (page < 1 || page > r.page_count || offset >= kPageSize) {
      audit.Problem("an identity hash names page " + std::to_string(page) + ", offset " +
                    std::to_string(offset) + ", which does not exist (S6)");
    } else {
      PageKey fk(KeyKind::kFree, id, page);
      std::string unused;
      rocksdb::Status fs =
          rdb->Get(ro, rocksdb::Slice(fk.view().data(), fk.view().size()), &unused);
      if (fs.ok())
        audit.Problem("an identity hash names page " + std::to_string(page) + ", offset " +
                      std::to_string(offset) + ", which is free (S6)");
    }
  }
  if (!it->status().ok()) {
    audit.Problem("the identity hashes of " + Quoted(name) +
                  " cannot all be read: " + Failed(it->status()));
  }
  return Status::Ok();
}

}  // namespace cairn::store
