// BumpRegion: the free tail of one small page, allocated from by moving a pointer. The mutator
// allocates new objects through one, the collector copies objects through another.
#pragma once

#include <cstddef>

#include "heap/page_heap.h"

namespace cairn::gc {

struct BumpRegion {
  char *ptr = nullptr;
  char *limit = nullptr;
  size_t page = heap::kNoPage;

  char *TryAlloc(size_t bytes) {
    if (size_t(limit - ptr) < bytes) return nullptr;
    char *p = ptr;
    ptr += bytes;
    return p;
  }
  void Start(heap::PageHeap &pages, size_t index) {
    page = index;
    ptr = pages.PageAddress(index) + pages.Info(index).used;
    limit = pages.PageAddress(index) + heap::kPageSize;
  }
  // Writes the region's fill level back into its page's `used` (P2) and forgets the page.
  void Retire(heap::PageHeap &pages) {
    if (page != heap::kNoPage) Sync(pages);
    *this = BumpRegion{};
  }
  void Sync(heap::PageHeap &pages) const {
    if (page != heap::kNoPage) pages.Info(page).used = uint32_t(ptr - pages.PageAddress(page));
  }
};

}  // namespace cairn::gc
