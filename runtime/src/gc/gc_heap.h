// GcHeap: the heap of this process: pages, roots, the mutator's allocation, the collection
// policy and statistics. One instance, made by cairn_init; the C API in api/ calls into it.
//
// Collection policy (docs/gc.md): a collection runs before an allocation once the bytes
// allocated since the last collection reach
//     trigger = max(min_trigger_bytes, growth_factor * live bytes after the last collection),
// when no page is left for an allocation, on cairn_collect(), and in the stress build before
// every allocation.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "cairn/gc.h"
#include "gc/bump_region.h"
#include "gc/collector.h"
#include "gc/roots.h"
#include "heap/object.h"
#include "heap/page_heap.h"

namespace cairn::gc {

struct HeapOptions {
  uint64_t reserve_bytes = uint64_t{64} << 30;     // address space reserved (bytes)
  uint64_t min_trigger_bytes = uint64_t{8} << 20;  // allocation between collections, at least
  double growth_factor = 1.0;                      // ... and at least this times the live bytes
  bool verify = false;                             // verify the heap after every collection
  bool trace = false;                              // one line per collection on stderr
};

class GcHeap {
 public:
  // nullptr until Init succeeds.
  static GcHeap *Instance() { return instance_; }
  static Status Init(const cairn_options *opts);

  // Allocates `bytes` (header included, a multiple of 8) for an object of type t and writes its
  // header; returns the reference. The memory is zero.
  void *Allocate(const cairn_type *t, size_t bytes) {
#ifdef CAIRN_GC_STRESS
    CollectNow();
#else
    if (since_last_ >= trigger_) [[unlikely]]
      CollectNow();
#endif
    since_last_ += bytes;
    stats_.bytes_allocated += bytes;
    char *p = bytes <= heap::kLargeObjectBytes ? mutator_.TryAlloc(bytes) : nullptr;
    if (!p) [[unlikely]]
      p = AllocateSlow(bytes);
    *reinterpret_cast<uintptr_t *>(p) = reinterpret_cast<uintptr_t>(t);
    return p + heap::kWordSize;
  }

  // A collection now, scanning the caller's stack and registers. Not inlined: it spills the
  // registers into its own frame.
  void CollectNow();
  // A stabilization now (see gc/collector.h), likewise; returns its pause in nanoseconds.
  uint64_t StabilizeNow(std::span<const StabilizeRoot> roots, StabilizeOutcome *outcome);
  void SetPersistHooks(PersistHooks *hooks) {
    persist_hooks_ = hooks;
    collector_.set_hooks(hooks);
  }

  // The identity hash of the object at ref (cairn_identity_hash; gc/identity_hash.h).
  uint64_t IdentityHash(const void *ref);
  IdentityHashes &identity_hashes() { return hashes_; }

  // Writes the mutator's fill level into its page (P2) so the page table can be walked.
  void SyncAllocation() { mutator_.Sync(pages_); }

  size_t Verify(size_t max_report);
  void GetStats(cairn_stats *out);

  heap::PageHeap &pages() { return pages_; }
  bool collecting() const { return collecting_; }
  Roots &roots() { return roots_; }

 private:
  explicit GcHeap(const HeapOptions &o) : options_(o), collector_(pages_, roots_) {
    collector_.set_identity_hashes(&hashes_);
  }
  char *AllocateSlow(size_t bytes);
  char *AllocateLarge(size_t bytes);
  const char *RaiseLimitAdvice() const;  // for out-of-memory messages
  struct Pending;                        // what the entry points pass down to CollectFrom
  void CollectFrom(const void *stack_top, Pending *p);
  void AfterCollection(const CollectionResult &r, uint64_t pause);
  friend void CollectWithStackTop(GcHeap *heap, Pending *p);

  static GcHeap *instance_;
  HeapOptions options_;
  heap::PageHeap pages_;
  Roots roots_;
  Collector collector_;
  IdentityHashes hashes_;
  PersistHooks *persist_hooks_ = nullptr;
  BumpRegion mutator_;
  static constexpr size_t kPrefaultChunk = 64;  // pages allocated between prefault checks
  size_t pages_since_prefault_ = 0;
  uint64_t since_last_ = 0;
  uint64_t trigger_ = 0;
  cairn_stats stats_{};
  bool collecting_ = false;
};

}  // namespace cairn::gc
