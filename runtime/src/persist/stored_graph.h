// A database's committed object graph, walked in its stored form (no program's heap): the objects
// the root reaches, object by object, through the type table's layouts. Used by `cairn db gc`
// (store_gc.cpp) and by the upgrade of a database to a program's types (upgrade.cpp).
//
// Invariants:
//   G1. Only objects something reached are scanned for references: a dead object on a page
//       that holds a live one keeps nothing else alive (db check's reachability).
//   G2. An object is reached once (by page and payload offset), whatever refers to it; a
//       reference must name the payload of an object its page (or run) holds, else the walk
//       stops with CAIRN_CORRUPTION.
//   G3. A page image is the page as stored, walked end to end from offset 0 (a zero header word
//       ends a page's objects; a large object is alone in its run). Images are cached up to
//       kCachedPages and read again when the cache was emptied: callers must not keep an
//       Image pointer across another Read.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "cairn/status.h"
#include "cairn/store.h"
#include "persist/type_layout.h"

namespace cairn::persist {

class StoredGraph {
 public:
  // A stored type as a descriptor the object model can walk (its size, element kind, references).
  struct StoredType {
    uint64_t fingerprint = 0;
    std::string bytes;  // the layout as stored
    StoredLayout layout;
    std::unique_ptr<LayoutImage> image;
  };
  // A page (or run) as read, and where its objects' payloads start.
  struct Image {
    std::vector<char> bytes;
    std::vector<uint32_t> starts;  // payload offsets, ascending
    std::vector<const cairn_type *> types;
    std::vector<uint32_t> indexes;  // the type table index in each object's header
  };
  // A reached run of pages holding one large object.
  struct Run {
    uint64_t page = 0;
    uint64_t pages = 0;
  };

  // `what_is_done`: what the error messages say about a damaged database ("nothing was freed").
  StoredGraph(store::Transaction &txn, const store::DatabaseInfo &info, std::string what_is_done);

  Status LoadTypes();
  // Reaches the object `pref` names (a stored reference; the root has from_page 0) and queues
  // it for scanning.
  Status Reach(uint64_t pref, uint64_t from_page);
  // Scans every queued object, reaching what it refers to.
  Status Drain();
  // The page or run, read and walked (G3).
  Status Read(uint64_t page, uint64_t n, bool large, const Image **out);
  // The type table's index of the filler of `payload` bytes, added to the table if it is not
  // there.
  Status FillerIndex(size_t payload, uint32_t *index);
  // Makes the object of type t at payload offset `start` of the page copy `bytes` a filler of
  // its size (P8 of heap/page_info.h): its header names the filler, its payload is zeros.
  Status Fill(char *bytes, uint32_t start, const cairn_type *t);
  // Frees every page of the database in use that nothing reached, except those `keep` names
  // (pages the caller allocated in this transaction). Counts them in *freed, and the pages
  // found free already in *already_free.
  Status FreeUnreached(const std::function<bool(uint64_t)> &keep, uint64_t *freed,
                       uint64_t *already_free);

  uint64_t pages_reached() const { return pages_reached_; }
  uint64_t objects_reached() const { return objects_; }
  bool reached(uint64_t page) const { return reached_[page]; }
  bool live(uint64_t page, uint32_t offset) const {
    return seen_.count(page * store::kPageSize + offset) != 0;
  }
  // Reached pages that hold small objects (not runs), and the reached runs.
  const std::vector<uint64_t> &small_pages() const { return small_pages_; }
  const std::vector<Run> &runs() const { return runs_; }
  const std::unordered_map<uint32_t, std::unique_ptr<StoredType>> &types() const { return types_; }
  Status Corrupt(const std::string &what) const;

 private:
  struct Pending {
    uint64_t n = 1;
    bool large = false;  // one large object over the run (its references say so: run != 0)
    std::vector<uint32_t> offsets;  // of the objects to scan (their payloads)
    std::vector<uint64_t> from;     // the page of the reference to each (0: the root)
  };
  static constexpr size_t kCachedPages = 4096;

  Status ScanObject(uint64_t page, uint64_t from, const Image &image, uint32_t offset);
  std::string Where(uint64_t page) const {
    return page ? "page " + std::to_string(page) + " " : "the root ";
  }

  store::Transaction &txn_;
  const store::DatabaseInfo &info_;
  std::string what_is_done_;
  std::unordered_map<uint32_t, std::unique_ptr<StoredType>> types_;
  std::vector<bool> reached_;
  std::vector<uint64_t> small_pages_;
  std::vector<Run> runs_;
  std::unordered_set<uint64_t> seen_;  // page * kPageSize + offset of every object reached
  std::unordered_map<uint64_t, Pending> pending_;
  std::vector<uint64_t> work_;  // pages (run heads) with objects to scan
  std::unordered_map<uint64_t, std::unique_ptr<Image>> cache_;
  std::unordered_map<size_t, uint32_t> filler_index_;  // by payload bytes
  size_t cached_pages_ = 0;
  uint64_t pages_reached_ = 0, objects_ = 0;
};

}  // namespace cairn::persist
