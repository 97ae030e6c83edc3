// DeltaDepth: how many page deltas in a row this process has put in the current memtable, per
// page, so that a page rewritten at every commit is written whole now and then. Internal to
// runtime/store/.
//
// Why: a read of a page (a fault, or a write given no base) folds every delta stacked on it in
// the memtable since the page was last stored whole; without a bound, a page written as a delta
// at every commit reads slower at every commit until the memtable is flushed. RocksDB's
// max_successive_merges bounds it too, but pays a memtable lookup for every delta written (and a
// read and fold for every 17th), about a sixth of a small commit; counting here costs a hash
// probe, and the whole page is at hand when the count is reached.
//
// Invariants (guarded by `mu_`):
//   DD1. count_[(db, page)] >= the deltas of that page that stand one after another at the top
//        of the current memtable, as written by this process. It is raised when a delta is
//        written (before the commit: an aborted one only overcounts, which costs an early whole
//        write), and set to 0 when the page is written whole. Every open starts with an empty
//        memtable (the recovered log is flushed at open: docs/store-format.md), so 0 is right
//        for a page not in the map.
//   DD2. When RocksDB seals a memtable (a new one takes the writes), the map is cleared: the new
//        memtable holds no deltas. A delta counted just before the seal but committed after it
//        leaves the count one low for that page: the bound is kMaxSuccessiveDeltas plus the
//        transactions in flight at a seal, and the map holds at most the pages of one memtable.
#ifndef CAIRN_STORE_DELTA_DEPTH_H
#define CAIRN_STORE_DELTA_DEPTH_H

#include <rocksdb/listener.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <unordered_map>

#include "cairn/store.h"

namespace cairn::store {

class DeltaDepth {
 public:
  explicit DeltaDepth(size_t max_deltas) : max_(max_deltas) {}
  // Whether the next write of the page may be a delta; counts it if so (DD1). False when
  // max_deltas are in a row already: write the page whole (and call Whole).
  bool AdmitDelta(DatabaseId db, PageNo page);
  // The page was written whole (DD1).
  void Whole(DatabaseId db, PageNo page);
  // A memtable was sealed (DD2).
  void Reset();
  size_t tracked() const;  // pages in the map, for tests

  // A RocksDB listener that calls Reset when a memtable is sealed.
  static std::shared_ptr<rocksdb::EventListener> SealListener(std::shared_ptr<DeltaDepth> depth);

 private:
  struct Key {
    DatabaseId db;
    PageNo page;
    bool operator==(const Key &o) const { return db == o.db && page == o.page; }
  };
  struct KeyHash {
    size_t operator()(const Key &k) const {
      return std::hash<uint64_t>()(k.page * 0x9E3779B97F4A7C15ull ^ k.db);
    }
  };
  const size_t max_;
  mutable std::mutex mu_;
  std::unordered_map<Key, uint32_t, KeyHash> count_;  // DD1, DD2
};

}  // namespace cairn::store

#endif  // CAIRN_STORE_DELTA_DEPTH_H
