// Collector: one mostly-copying collection (Bartlett; Figure 1 of
// ../shared/papers/mostly-copying-persistence-pm3.txt).
//
//   1. Flip: every page in use moves from current to previous space (P4).
//   2. Promote every page an ambiguous root points into (a large object's whole run) back to
//      current space, pinned, and push it on the copy stack. Then update the exact roots.
//   3. Closure: pop pages from the copy stack and scan their objects' reference slots through the
//      descriptors; a referenced object in previous space is copied to the collector's current
//      page (leaving a forwarding word) or, if large, its run is promoted; copy pages are pushed
//      too. Ends when no page has unscanned objects.
//   4. Free every page still in previous space.
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
  void Promote(size_t index);
  void *Move(void *ref);
  void *Copy(void *ref, uintptr_t header);
  char *NewCopyPage(size_t bytes);
  void ScanPage(size_t index);
  void ScanObject(void *ref);
  void Closure();
  void FreePrevious();

  heap::PageHeap &pages_;
  const Roots &roots_;
  std::vector<uint32_t> copy_stack_;  // pages with objects still to scan
  BumpRegion copy_;
  CollectionResult result_;
};

}  // namespace cairn::gc
