// The walk of a database's stored object graph (stored_graph.h).
#include "persist/stored_graph.h"

#include <algorithm>
#include <cstring>

#include "heap/object.h"
#include "persist/ref_codec.h"
#include "types/type_registry.h"

namespace cairn::persist {

using store::kPageSize;

StoredGraph::StoredGraph(store::Transaction &txn, const store::DatabaseInfo &info,
                         std::string what_is_done)
    : txn_(txn), info_(info), what_is_done_(std::move(what_is_done)) {
  reached_.assign(info.page_count + 1, false);
}

Status StoredGraph::LoadTypes() {
  std::vector<store::TypeEntry> entries;
  Status s = txn_.ListTypes(info_.id, &entries);
  if (!s.ok()) return s;
  for (const store::TypeEntry &e : entries) {
    auto t = std::make_unique<StoredType>();
    t->fingerprint = e.fingerprint;
    t->bytes = e.layout;
    s = DecodeLayout(e.layout, &t->layout);
    if (!s.ok()) return Corrupt("type table entry " + std::to_string(e.index) + ": " + s.message());
    // G3: a layout's references and fields lie within its size, and the size within a run (a
    // damaged entry would have the walks read, and the upgrade write, outside an image).
    const uint64_t kMaxBytes = uint64_t(kMaxRun) * kPageSize;
    bool inside = t->layout.size > 0 && t->layout.size <= kMaxBytes;
    for (uint32_t r : t->layout.refs) inside = inside && uint64_t(r) + 8 <= t->layout.size;
    for (const StoredLayout::Field &f : t->layout.fields)
      inside = inside && f.offset < t->layout.size;
    const bool array = t->layout.flags & CAIRN_TYPE_ARRAY;
    if ((!inside && !(t->layout.size == 0 && t->layout.refs.empty() && !array)) ||
        (array && t->layout.size == 0))
      return Corrupt("type table entry " + std::to_string(e.index) + " ('" + t->layout.name +
                     "') has references or fields outside its size (" +
                     std::to_string(t->layout.size) + " bytes)");
    t->image = std::make_unique<LayoutImage>(t->layout);
    types_[e.index] = std::move(t);
  }
  return Status::Ok();
}

Status StoredGraph::Reach(uint64_t pref, uint64_t from_page) {
  if (pref == 0) return Status::Ok();
  PersistentRef r = DecodeRef(pref);
  uint64_t n = r.run ? r.run : 1;
  if (!WellFormed(r))
    return Corrupt(Where(from_page) + "holds a malformed reference (" + std::to_string(pref) + ")");
  if (r.page + n - 1 > info_.page_count)
    return Corrupt(Where(from_page) + "refers to page " + std::to_string(r.page) +
                   (r.run ? " (a run of " + std::to_string(n) + ")" : std::string()) +
                   ", which is not in the database");
  if (!seen_.insert(r.page * kPageSize + r.offset).second) return Status::Ok();
  if (!reached_[r.page]) {
    for (uint64_t k = 0; k < n; k++) reached_[r.page + k] = true;
    pages_reached_ += n;
    if (r.run == 0)
      small_pages_.push_back(r.page);
    else
      runs_.push_back(Run{r.page, n});
  }
  Pending &p = pending_[r.page];
  if (p.offsets.empty()) work_.push_back(r.page);
  p.n = n;
  p.large = r.run != 0;
  p.offsets.push_back(r.offset);
  p.from.push_back(from_page);
  return Status::Ok();
}

Status StoredGraph::Drain() {
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

Status StoredGraph::FillerIndex(size_t payload, uint32_t *index) {
  if (auto it = filler_index_.find(payload); it != filler_index_.end()) {
    *index = it->second;
    return Status::Ok();
  }
  const cairn_type *t = types::TypeRegistry::Get().FillerType(payload);
  Status s = txn_.PutType(info_.id, t->fingerprint, EncodeLayout(t), index);
  if (!s.ok()) return s;
  filler_index_[payload] = *index;
  return Status::Ok();
}

Status StoredGraph::Fill(char *bytes, uint32_t start, const cairn_type *t) {
  const size_t object_bytes = heap::ObjectBytes(t, bytes + start);
  uint32_t filler = 0;
  // (FillerIndex may add a type; it reads no page, so the caller's images stay valid: G3.)
  Status s = FillerIndex(object_bytes - heap::kWordSize, &filler);
  if (!s.ok()) return s;
  const uint64_t word = filler;
  std::memcpy(bytes + start - heap::kWordSize, &word, sizeof word);
  std::memset(bytes + start, 0, object_bytes - heap::kWordSize);
  return Status::Ok();
}

Status StoredGraph::FreeUnreached(const std::function<bool(uint64_t)> &keep, uint64_t *freed,
                                  uint64_t *already_free) {
  // (FreePage drops a page's identity hash entries.)
  for (store::PageNo p = 1; p <= info_.page_count; p++) {
    if (reached_[p] || keep(p)) continue;
    bool free = false;
    Status s = txn_.IsFree(info_.id, p, &free);
    if (s.ok() && free) {
      ++*already_free;
      continue;
    }
    if (s.ok()) s = txn_.FreePage(info_.id, p);
    if (!s.ok()) return s;
    ++*freed;
  }
  return Status::Ok();
}

Status StoredGraph::Read(uint64_t page, uint64_t n, bool large, const Image **out) {
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
      return Corrupt("page " + std::to_string(page + k) + " is reached from the root but is free");
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
    // G3: an array's length is checked before its size is computed (a damaged length would
    // overflow it, and the walk of its slots would leave the image).
    if (heap::IsArrayType(t) &&
        heap::ArrayLength(ref) > (limit - off - 2 * heap::kWordSize) / t->size)
      return Corrupt(Where(page) + "holds an array of type '" + it->second->layout.name +
                     "' whose length (" + std::to_string(heap::ArrayLength(ref)) +
                     ") does not fit its page");
    size_t bytes = heap::ObjectBytes(t, ref);
    if (bytes < 2 * heap::kWordSize || off + bytes > limit)
      return Corrupt(Where(page) + "holds an object of type '" + it->second->layout.name +
                     "' that does not fit its page");
    image->starts.push_back(uint32_t(off + heap::kWordSize));
    image->types.push_back(t);
    image->indexes.push_back(uint32_t(header));
    off += bytes;
    if (large) break;  // a large object is alone in its run
  }
  cached_pages_ += n;
  *out = (cache_[page] = std::move(image)).get();
  return Status::Ok();
}

Status StoredGraph::ScanObject(uint64_t page, uint64_t from, const Image &image, uint32_t offset) {
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

Status StoredGraph::Corrupt(const std::string &what) const {
  return Status(CAIRN_CORRUPTION, "database '" + info_.name + "': " + what + "; " + what_is_done_ +
                                      " (run `cairn db check " + info_.name + "`)");
}

}  // namespace cairn::persist
