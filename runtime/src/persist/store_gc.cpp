// Store-level garbage collection of a database (cairn/store_gc.h): mark the pages the committed
// root reaches, reading them through the type table's layouts, then free every other page in use,
// all in one store transaction.
#include "cairn/store_gc.h"

#include <memory>
#include <unordered_map>
#include <vector>

#include "heap/object.h"
#include "persist/ref_codec.h"
#include "persist/type_layout.h"

namespace cairn::store {

namespace {

// A stored type as a descriptor the object model can walk (its size, element kind, references).
struct StoredType {
  persist::StoredLayout layout;
  std::unique_ptr<persist::LayoutImage> image;
};

class Marker {
 public:
  Marker(Transaction &txn, const DatabaseInfo &info) : txn_(txn), info_(info) {
    reached_.assign(info.page_count + 1, false);
  }

  Status LoadTypes() {
    std::vector<TypeEntry> entries;
    Status s = txn_.ListTypes(info_.id, &entries);
    if (!s.ok()) return s;
    for (const TypeEntry &e : entries) {
      auto t = std::make_unique<StoredType>();
      s = persist::DecodeLayout(e.layout, &t->layout);
      if (!s.ok())
        return Corrupt("type table entry " + std::to_string(e.index) + ": " + s.message());
      t->image = std::make_unique<persist::LayoutImage>(t->layout);
      types_[e.index] = std::move(t);
    }
    return Status::Ok();
  }

  // Marks what `pref` (a stored reference, or the root) names and queues it for reading.
  Status Reach(uint64_t pref, uint64_t from_page) {
    if (pref == 0) return Status::Ok();
    persist::PersistentRef r = persist::DecodeRef(pref);
    uint64_t n = r.run ? r.run : 1;
    if (!persist::WellFormed(r))
      return Corrupt(Where(from_page) + "holds a malformed reference (" + std::to_string(pref) +
                     ")");
    if (r.page + n - 1 > info_.page_count)
      return Corrupt(Where(from_page) + "refers to page " + std::to_string(r.page) +
                     (r.run ? " (a run of " + std::to_string(n) + ")" : std::string()) +
                     ", which is not in the database");
    if (reached_[r.page]) return Status::Ok();
    for (uint64_t k = 0; k < n; k++) reached_[r.page + k] = true;
    pages_reached_ += n;
    queue_.push_back(Pending{r.page, n, r.run != 0});
    return Status::Ok();
  }

  // Reads every queued page, reaching what its objects refer to.
  Status Drain() {
    std::vector<char> buffer;
    while (!queue_.empty()) {
      Pending p = queue_.back();
      queue_.pop_back();
      buffer.resize(p.n * kPageSize);
      for (uint64_t k = 0; k < p.n; k++) {
        Status s = txn_.ReadPage(info_.id, p.page + k, buffer.data() + k * kPageSize);
        if (s.code() == CAIRN_NOT_FOUND)
          return Corrupt("page " + std::to_string(p.page + k) +
                         " is reached from the root but is free");
        if (!s.ok()) return s;
      }
      Status s = Scan(p, buffer.data());
      if (!s.ok()) return s;
    }
    return Status::Ok();
  }

  uint64_t pages_reached() const { return pages_reached_; }
  uint64_t objects_reached() const { return objects_; }
  bool reached(uint64_t page) const { return reached_[page]; }

 private:
  struct Pending {
    uint64_t page, n;
    bool large;  // one large object over the run (its references say so: run != 0)
  };

  Status Scan(const Pending &p, char *base) {
    const size_t limit = p.n * kPageSize;
    for (size_t off = 0; off + 2 * heap::kWordSize <= limit;) {
      uint64_t header = *reinterpret_cast<uint64_t *>(base + off);
      if (header == 0) break;
      auto it = header <= UINT32_MAX ? types_.find(uint32_t(header)) : types_.end();
      if (it == types_.end())
        return Corrupt(Where(p.page) + "holds an object whose header (" + std::to_string(header) +
                       ") names no type of the type table");
      const cairn_type *t = it->second->image->type();
      void *ref = base + off + heap::kWordSize;
      size_t bytes = heap::ObjectBytes(t, ref);
      if (off + bytes > limit)
        return Corrupt(Where(p.page) + "holds an object of type '" + it->second->layout.name +
                       "' that does not fit its page");
      objects_++;
      Status s;
      heap::ForEachRefSlot(t, ref, [&](void **slot) {
        if (s.ok()) s = Reach(reinterpret_cast<uint64_t>(*slot), p.page);
      });
      if (!s.ok()) return s;
      off += bytes;
      if (p.large) break;  // a large object is alone in its run
    }
    return Status::Ok();
  }

  std::string Where(uint64_t page) const {
    return page ? "page " + std::to_string(page) + " " : "the root ";
  }
  Status Corrupt(const std::string &what) const {
    return Status(CAIRN_CORRUPTION, "database '" + info_.name + "': " + what +
                                        "; nothing was freed (run `cairn db check " + info_.name +
                                        "`)");
  }

  Transaction &txn_;
  const DatabaseInfo &info_;
  std::unordered_map<uint32_t, std::unique_ptr<StoredType>> types_;
  std::vector<bool> reached_;
  std::vector<Pending> queue_;
  uint64_t pages_reached_ = 0, objects_ = 0;
};

}  // namespace

Status CollectGarbage(Store &store, std::string_view name, GcReport *report) {
  *report = GcReport{};
  report->database = std::string(name);
  DatabaseInfo info;
  Status s = store.GetDatabaseInfo(name, &info);
  if (!s.ok()) return s;
  std::unique_ptr<Transaction> txn;
  s = store.BeginTransaction(&txn);
  if (!s.ok()) return s;
  // The root and page count as of this transaction's snapshot.
  s = txn->GetRoot(info.id, &info.root);
  if (s.ok()) s = txn->GetPageCount(info.id, &info.page_count);
  Marker marker(*txn, info);
  if (s.ok()) s = marker.LoadTypes();
  if (s.ok()) s = marker.Reach(info.root, 0);
  if (s.ok()) s = marker.Drain();
  // Sweep: every page in use that nothing reached is freed (FreePage drops its identity hashes).
  uint64_t freed = 0, already_free = 0;
  for (PageNo p = 1; s.ok() && p <= info.page_count; p++) {
    if (marker.reached(p)) continue;
    bool free = false;
    s = txn->IsFree(info.id, p, &free);
    if (s.ok() && free) {
      already_free++;
      continue;
    }
    if (s.ok()) s = txn->FreePage(info.id, p);
    if (s.ok()) freed++;
  }
  if (s.ok()) s = txn->Commit();
  if (!s.ok()) {
    txn->Abort();
    return s;
  }
  report->page_count = info.page_count;
  report->pages_reached = marker.pages_reached();
  report->objects_reached = marker.objects_reached();
  report->pages_freed = freed;
  report->free_pages = already_free + freed;
  return Status::Ok();
}

}  // namespace cairn::store
