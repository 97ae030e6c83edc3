// Store-level garbage collection of a database (cairn/store_gc.h): mark the objects the committed
// root reaches, object by object, reading their pages through the type table's layouts, and so
// the pages that hold them; then free every other page in use, all in one store transaction.
#include "cairn/store_gc.h"

#include <algorithm>
#include <cstring>
#include <memory>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "heap/object.h"
#include "persist/ref_codec.h"
#include "persist/type_layout.h"
#include "types/type_registry.h"

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

  // Marks the object `pref` (a stored reference, or the root) names, and its page or run, and
  // queues the object for scanning. Only objects something reached are scanned: a dead object
  // on a page that is kept for a live one keeps nothing alive (db check's reachability).
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
    if (!seen_.insert(r.page * kPageSize + r.offset).second) return Status::Ok();
    if (!reached_[r.page]) {
      for (uint64_t k = 0; k < n; k++) reached_[r.page + k] = true;
      pages_reached_ += n;
      if (r.run == 0) small_pages_.push_back(r.page);
    }
    Pending &p = pending_[r.page];
    if (p.offsets.empty()) work_.push_back(r.page);
    p.n = n;
    p.large = r.run != 0;
    p.offsets.push_back(r.offset);
    p.from.push_back(from_page);
    return Status::Ok();
  }

  // Scans every queued object, reaching what it refers to.
  Status Drain() {
    while (!work_.empty()) {
      const uint64_t page = work_.back();
      work_.pop_back();
      auto it = pending_.find(page);
      if (it == pending_.end() || it->second.offsets.empty()) continue;
      Pending p = std::move(it->second);
      it->second = Pending{};
      const Image *image = nullptr;
      Status s = Read(page, p.n, p.large, &image);
      for (size_t i = 0; s.ok() && i < p.offsets.size(); i++)
        s = ScanObject(page, p.from[i], *image, p.offsets[i]);
      if (!s.ok()) return s;
    }
    return Status::Ok();
  }

  uint64_t pages_reached() const { return pages_reached_; }
  uint64_t objects_reached() const { return objects_; }
  bool reached(uint64_t page) const { return reached_[page]; }

  // A dead object on a page that stays (it shares the page with a live one) becomes a filler of
  // its size (P8 of heap/page_info.h, as the collector makes of dead objects on pinned pages):
  //   - it may refer to a page about to be freed, which a later allocation may reuse: a program
  //     that loads the page would take that reference for the new page's (its frame map would
  //     hold the page twice);
  //   - its type may be one no program defines any more (a class deleted, or renamed by a
  //     migration that copied its objects): a program would be refused the whole page, live
  //     objects and all, for a type it cannot define (campaign J).
  // Nothing reads a dead object; the page's other objects stay where they are. Written in the
  // same store transaction as the frees.
  Status FillDeadObjects(uint64_t *pages_rewritten, uint64_t *objects_filled) {
    for (uint64_t page : small_pages_) {
      const Image *image = nullptr;
      Status s = Read(page, 1, false, &image);
      if (!s.ok()) return s;
      std::vector<char> bytes;
      for (size_t i = 0; i < image->starts.size(); i++) {
        if (seen_.count(page * kPageSize + image->starts[i])) continue;
        const cairn_type *t = image->types[i];
        if (types::TypeRegistry::IsFiller(t)) continue;
        const char *src = image->bytes.data();
        const size_t object_bytes =
            heap::ObjectBytes(t, const_cast<char *>(src) + image->starts[i]);
        uint32_t filler = 0;
        s = FillerIndex(object_bytes - heap::kWordSize, &filler);
        if (!s.ok()) return s;
        if (bytes.empty()) bytes = image->bytes;
        char *header = bytes.data() + image->starts[i] - heap::kWordSize;
        const uint64_t word = filler;
        std::memcpy(header, &word, sizeof word);
        std::memset(header + heap::kWordSize, 0, object_bytes - heap::kWordSize);
        ++*objects_filled;
      }
      if (bytes.empty()) continue;
      s = txn_.WritePage(info_.id, page, bytes.data());
      if (!s.ok()) return s;
      ++*pages_rewritten;
    }
    return Status::Ok();
  }

 private:
  // The type table's index of the filler of `payload` bytes, added to the table if it is not
  // there (an object's header holds its type's index).
  Status FillerIndex(size_t payload, uint32_t *index) {
    if (auto it = filler_index_.find(payload); it != filler_index_.end()) {
      *index = it->second;
      return Status::Ok();
    }
    const cairn_type *t = types::TypeRegistry::Get().FillerType(payload);
    Status s = txn_.PutType(info_.id, t->fingerprint, persist::EncodeLayout(t), index);
    if (!s.ok()) return s;
    filler_index_[payload] = *index;
    return Status::Ok();
  }

  struct Pending {
    uint64_t n = 1;
    bool large = false;  // one large object over the run (its references say so: run != 0)
    std::vector<uint32_t> offsets;  // of the objects to scan (their payloads)
    std::vector<uint64_t> from;     // the page of the reference to each (0: the root)
  };
  // A page (or run) as read, and where its objects' payloads start (found by walking the
  // objects end to end from offset 0): a reference must name one of them.
  struct Image {
    std::vector<char> bytes;
    std::vector<uint32_t> starts;
    std::vector<const cairn_type *> types;
  };

  // The page or run, read and walked once while it stays in the cache (pages read are kept up
  // to kCachedPages; past that the cache is emptied and pages are read again when needed).
  static constexpr size_t kCachedPages = 4096;
  Status Read(uint64_t page, uint64_t n, bool large, const Image **out) {
    auto hit = cache_.find(page);
    if (hit != cache_.end()) {
      *out = hit->second.get();
      return Status::Ok();
    }
    if (cached_pages_ + n > kCachedPages) {
      cache_.clear();
      cached_pages_ = 0;
    }
    auto image = std::make_unique<Image>();
    image->bytes.resize(n * kPageSize);
    for (uint64_t k = 0; k < n; k++) {
      Status s = txn_.ReadPage(info_.id, page + k, image->bytes.data() + k * kPageSize);
      if (s.code() == CAIRN_NOT_FOUND)
        return Corrupt("page " + std::to_string(page + k) +
                       " is reached from the root but is free");
      if (!s.ok()) return s;
    }
    char *base = image->bytes.data();
    const size_t limit = n * kPageSize;
    for (size_t off = 0; off + 2 * heap::kWordSize <= limit;) {
      uint64_t header = *reinterpret_cast<uint64_t *>(base + off);
      if (header == 0) break;
      auto it = header <= UINT32_MAX ? types_.find(uint32_t(header)) : types_.end();
      if (it == types_.end())
        return Corrupt(Where(page) + "holds an object whose header (" + std::to_string(header) +
                       ") names no type of the type table");
      const cairn_type *t = it->second->image->type();
      void *ref = base + off + heap::kWordSize;
      size_t bytes = heap::ObjectBytes(t, ref);
      if (off + bytes > limit)
        return Corrupt(Where(page) + "holds an object of type '" + it->second->layout.name +
                       "' that does not fit its page");
      image->starts.push_back(uint32_t(off + heap::kWordSize));
      image->types.push_back(t);
      off += bytes;
      if (large) break;  // a large object is alone in its run
    }
    cached_pages_ += n;
    *out = (cache_[page] = std::move(image)).get();
    return Status::Ok();
  }

  Status ScanObject(uint64_t page, uint64_t from, const Image &image, uint32_t offset) {
    auto at = std::lower_bound(image.starts.begin(), image.starts.end(), offset);
    if (at == image.starts.end() || *at != offset)
      return Corrupt(Where(from) + "refers to offset " + std::to_string(offset) + " of page " +
                     std::to_string(page) + ", where no object starts");
    const cairn_type *t = image.types[size_t(at - image.starts.begin())];
    // The image is not written: ForEachRefSlot only reads the slots.
    void *ref = const_cast<char *>(image.bytes.data()) + offset;
    objects_++;
    Status s;
    heap::ForEachRefSlot(t, ref, [&](void **slot) {
      if (s.ok()) s = Reach(reinterpret_cast<uint64_t>(*slot), page);
    });
    return s;
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
  std::vector<uint64_t> small_pages_;  // reached pages that hold small objects (not runs)
  std::unordered_set<uint64_t> seen_;  // page * kPageSize + offset of every object reached
  std::unordered_map<uint64_t, Pending> pending_;
  std::vector<uint64_t> work_;  // pages (run heads) with objects to scan
  std::unordered_map<uint64_t, std::unique_ptr<Image>> cache_;
  std::unordered_map<size_t, uint32_t> filler_index_;  // by payload bytes
  size_t cached_pages_ = 0;
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
  uint64_t rewritten = 0, filled = 0;
  if (s.ok()) s = marker.FillDeadObjects(&rewritten, &filled);
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
  report->pages_rewritten = rewritten;
  report->objects_filled = filled;
  report->pages_freed = freed;
  report->free_pages = already_free + freed;
  return Status::Ok();
}

}  // namespace cairn::store
