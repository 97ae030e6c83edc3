// PageHeap: the reserved range of heap pages, its page table, and the pages' free list.
//
// Mechanism only: which page is free, taken or released. What a collection does with the pages
// (the policy) lives in gc/. The range is reserved once (readable and writable, MAP_NORESERVE:
// untouched pages cost no memory) and never moves, so a page's number is (address - base) >> 13.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "cairn/status.h"
#include "heap/page_info.h"

namespace cairn::heap {

inline constexpr size_t kNoPage = SIZE_MAX;

class PageHeap {
 public:
  PageHeap() = default;
  PageHeap(const PageHeap &) = delete;
  PageHeap &operator=(const PageHeap &) = delete;
  ~PageHeap();

  // Reserves `bytes` of address space (rounded down to whole pages), halving the request down to
  // 256 MiB if the system refuses. Returns what it got in reserved_bytes().
  Status Reserve(uint64_t bytes);

  char *base() const { return base_; }
  size_t capacity() const { return capacity_; }  // pages reserved
  size_t high_water() const { return hwm_; }      // pages ever used (P6)
  uint64_t reserved_bytes() const { return uint64_t(capacity_) * kPageSize; }

  // True if p points into a page below the high water mark (used now or before).
  bool Covers(const void *p) const {
    return uintptr_t(p) - uintptr_t(base_) < uintptr_t(hwm_) * kPageSize;
  }
  size_t IndexOf(const void *p) const { return (uintptr_t(p) - uintptr_t(base_)) >> kPageShift; }
  char *PageAddress(size_t index) const { return base_ + (index << kPageShift); }
  PageInfo &Info(size_t index) { return table_[index]; }
  const PageInfo &Info(size_t index) const { return table_[index]; }

  // Takes one free page into `space` as an empty small page, zero-filled. kNoPage when full.
  size_t TakePage(Space space);
  // Takes a run of n free pages for a large object (P3), zero-filled. kNoPage when no run fits.
  size_t TakeRun(size_t n, Space space);
  // Frees a page or, given a large head, its whole run (P1). Contents are left (P7).
  void Release(size_t index);
  // Rebuilds the free list from the page table, lowest pages first; called after a collection.
  void RebuildFreeList();

  size_t pages_in_use() const { return in_use_; }
  size_t free_pages_below_high_water() const { return hwm_ - in_use_; }

 private:
  void Claim(size_t index, Space space);

  char *base_ = nullptr;
  size_t capacity_ = 0;
  size_t hwm_ = 0;
  size_t in_use_ = 0;
  PageInfo *table_ = nullptr;
  size_t table_bytes_ = 0;
  void *mapping_ = nullptr;
  size_t mapping_bytes_ = 0;
  std::vector<uint32_t> free_;   // free pages below hwm, popped from the back (lowest first)
  size_t run_rover_ = 0;         // next-fit position for runs
  size_t smallest_failed_run_ = SIZE_MAX;  // no free run this long exists below hwm
};

}  // namespace cairn::heap
