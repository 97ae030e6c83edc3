// GcHeap: the heap of this process: pages, roots, the mutator's allocation, the collection
// policy and statistics. One instance, made by cairn_init; the C API in api/ calls into it.
//
// Collection policy (docs/gc.md): a collection runs before an allocation once the bytes
// allocated since the last collection reach
//     trigger = max(min_trigger_bytes, growth_factor * live bytes after the last collection),
// when no page is left for an allocation, on cairn_collect(), and in the stress build before
// every allocation.
//
// Invariant:
//   A1. The tail. After a stabilization that made the mutator's allocation page persistent in
//       place (an ambiguous root pointed into an object the commit made persistent: the object
//       made just before the commit, still in a register or a slot), the mutator allocates its
//       next small objects at the end of that page (tail_), after its objects, instead of in the
//       collector's last copy page: each a tenant of the page (P13 of heap/page_info.h), lodged
//       as it is allocated (PersistHooks::LodgeTenant), so that the page table and the
//       persistence layer know every object on the page at all times. A later commit whose
//       database reaches one adopts it in place, and a program that commits an object it has
//       just made, one per transaction, fills pages instead of taking one per commit
//       (docs/persistence.md, "Limits"). While tail_ is open the mutator's bump region is empty,
//       so every allocation takes the slow path (the tail holds a page's worth at most).
//       tail_ stays open across collections while it names the same persistent page (tail_db_,
//       tail_id_) and that page is loaded, and across a stabilization only if the stabilization
//       adopted something from it; it closes when the page has no room for an allocation.
//   C1. Room to copy. A collection copies the live objects of the transient arena's small pages
//       into its free pages, and cannot stop halfway: so the mutator takes a page (or a run for a
//       large object, which is never copied) only while that leaves free at least as many pages
//       as the small pages in use, and an eighth more (an object that does not fit at the end of
//       a copy page leaves room unused), plus one (CopyRoomFor). When it would not, it collects
//       first; if a collection leaves no such room, the heap is full: the out-of-memory hook
//       (cairn_set_out_of_memory_hook) is called with the heap consistent, and if it returns, the
//       process ends as for any out-of-memory error (cairn_set_out_of_memory_exit).
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

  // Whether an object of `bytes` can be allocated now without running out of memory, after a
  // collection if one is needed (only large objects are looked at: a small one is always
  // taken as possible). For the language's runtime errors (cairn_has_room_for).
  bool HasRoomFor(size_t bytes);
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
  // C1: whether `pages` more pages may be taken for the mutator.
  bool CopyRoomFor(size_t pages) const;
  // C1: the heap is full after a collection: the hook, then the process ends.
  [[noreturn]] void HeapFull(const char *fmt, ...) __attribute__((format(printf, 2, 3)));
  // HeapFull's messages, built out of line: the allocation paths keep small frames with no
  // temporaries of the message's (stale words of a bigger frame can pin pages ambiguously).
  [[noreturn, gnu::noinline, gnu::cold]] void HeapFullOfSmall();
  [[noreturn, gnu::noinline, gnu::cold]] void HeapFullForLarge(size_t bytes, size_t pages);
  char *AllocateInTail(size_t bytes);  // A1: null if the tail is closed or closes now
  // A1: after a collection (`outcome` for a stabilization) whose mutator page was `was`: keeps,
  // opens or closes the tail; the mutator continues in the tail or in r's copy region.
  void ChooseAllocationPage(CollectionResult &r, size_t was, const StabilizeOutcome *outcome);
  char *AllocateLarge(size_t bytes);
  struct Pending;  // what the entry points pass down to CollectFrom
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
  size_t tail_ = heap::kNoPage;  // A1: the persistent page the mutator allocates at the end of
  uint8_t tail_db_ = 0;          // ... its database and page id when the tail was opened
  uint64_t tail_id_ = 0;
  static constexpr size_t kPrefaultChunk = 64;  // pages allocated between prefault checks
  size_t pages_since_prefault_ = 0;
  uint64_t since_last_ = 0;
  uint64_t trigger_ = 0;
  cairn_stats stats_{};
  bool collecting_ = false;
};

}  // namespace cairn::gc
