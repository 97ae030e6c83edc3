// Collector: one mostly-copying collection (Bartlett; Figure 1 of
// ../shared/papers/mostly-copying-persistence-pm3.txt).
//
//   1. Flip: every page in use moves from current to previous space (P4).
//   2. Promote every page an ambiguous root points into back to current space and pin it (a
//      large object's whole run, which is then scanned like a copy page). On a pinned small
//      page only the object the root points into (interior pointers included) is marked live
//      and pushed on the mark stack. Then update the exact roots.
//   3. Closure: pop objects from the mark stack and pages from the copy stack and scan their
//      reference slots through the descriptors. A referenced object in previous space is copied
//      to the collector's current page (leaving a forwarding word) or, if large, its run is
//      promoted; a referenced object on a pinned page is marked and pushed. Ends when both
//      stacks are empty and the copy page is scanned.
//   4. Turn the unmarked objects of pinned pages into fillers (P8); free every page still in
//      previous space.
//
// After Collect: P5 holds (no reference into previous space, no forwarding word in current
// space); objects referenced by ambiguous roots have not moved and their pages are whole; every
// other reachable object was copied or promoted; the collector's last copy page is handed back
// (the mutator continues allocating in it).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "gc/bump_region.h"
#include "gc/roots.h"
#include "heap/page_heap.h"

namespace cairn::gc {

struct CollectionResult {
  uint64_t bytes_copied = 0;
  uint64_t pages_promoted = 0;  // pinned pages plus large-object pages kept in place
  uint64_t pages_pinned = 0;    // pages pinned by ambiguous roots
  uint64_t live_bytes = 0;      // bytes in current-space pages afterwards
  uint64_t peak_pages = 0;      // the most pages in use at once during the collection
  BumpRegion copy_region;       // where the collector stopped copying
};

class Collector {
 public:
  Collector(heap::PageHeap &pages, const Roots &roots) : pages_(pages), roots_(roots) {}

  // Runs one collection. stack_top is the lowest stack address to scan (the registers have been
  // spilled above it). The mutator's allocation page must have been retired first (P2).
  CollectionResult Collect(const void *stack_top);

 private:
  void Flip();
  void PinAmbiguous(uintptr_t word);
  void PinPage(size_t index);
  void MarkPinned(size_t index, void *ref);
  void FillDeadPinnedObjects();
  void Promote(size_t index);
  inline void *Move(void *ref);
  void *Copy(void *ref, uintptr_t header);
  void PromoteLarge(size_t index);
  char *NewCopyPage(size_t bytes);
  void ScanPage(size_t index);
  void ScanObject(const cairn_type *t, void *ref);
  void Closure();
  void FreePrevious();

  heap::PageHeap &pages_;
  const Roots &roots_;
  // Copies of the page heap's layout for the hot path, taken at the start of a collection.
  // Pages taken during the collection lie beyond `covered_`; they are current, so Move leaves
  // references into them alone either way.
  char *base_ = nullptr;
  uintptr_t covered_ = 0;
  heap::PageInfo *table_ = nullptr;
  std::vector<uint32_t> copy_stack_;  // pages with objects still to scan
  std::vector<void *> mark_stack_;    // marked objects of pinned pages still to scan
  struct PinnedPage {
    size_t index;
    uint64_t marks[heap::kPageSize / heap::kWordSize / 64];  // one bit per word: live object
  };
  std::vector<PinnedPage> pinned_;  // small pages pinned in this collection
  BumpRegion copy_;
  CollectionResult result_;
};

}  // namespace cairn::gc
