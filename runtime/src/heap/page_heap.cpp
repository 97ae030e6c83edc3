#include "heap/page_heap.h"

#include <sys/mman.h>

#include <cassert>
#include <cstring>
#include <string>

namespace cairn::heap {

namespace {
constexpr uint64_t kMinReserve = uint64_t{256} << 20;

void *MapNoReserve(size_t bytes) {
  void *p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  return p == MAP_FAILED ? nullptr : p;
}
}  // namespace

PageHeap::~PageHeap() {
  if (mapping_) munmap(mapping_, mapping_bytes_);
  if (table_) munmap(table_, table_bytes_);
}

Status PageHeap::Reserve(uint64_t bytes) {
  assert(!base_);
  for (uint64_t want = bytes; want >= kMinReserve; want /= 2) {
    size_t pages = want / kPageSize;
    size_t map_bytes = (pages + 1) * kPageSize;  // one spare page to align the base
    void *m = MapNoReserve(map_bytes);
    if (!m) continue;
    void *t = MapNoReserve(pages * sizeof(PageInfo));
    if (!t) {
      munmap(m, map_bytes);
      continue;
    }
    mapping_ = m;
    mapping_bytes_ = map_bytes;
    uintptr_t aligned = (uintptr_t(m) + kPageSize - 1) & ~uintptr_t(kPageSize - 1);
    base_ = reinterpret_cast<char *>(aligned);
    capacity_ = pages;
    table_ = static_cast<PageInfo *>(t);  // zero-filled: every page free (P1, P6)
    table_bytes_ = pages * sizeof(PageInfo);
    return Status::Ok();
  }
  return Status(CAIRN_OUT_OF_MEMORY,
                "could not reserve " + std::to_string(bytes >> 20) +
                    " MiB of address space for the heap (nor 256 MiB); check `ulimit -v` and "
                    "vm.overcommit_memory, or set CAIRN_HEAP_RESERVE_MB lower");
}

void PageHeap::Claim(size_t index, Space space) {
  PageInfo &pi = table_[index];
  assert(pi.space == Space::kFree);
  if (pi.flags & kPageDirty) std::memset(PageAddress(index), 0, kPageSize);  // P7
  pi = PageInfo{};
  pi.space = space;
  pi.flags = kPageDirty;
  in_use_++;
}

size_t PageHeap::TakePage(Space space) {
  while (!free_.empty()) {
    size_t i = free_.back();
    free_.pop_back();
    if (table_[i].space != Space::kFree) continue;  // taken since by a run
    Claim(i, space);
    return i;
  }
  if (hwm_ == capacity_) return kNoPage;
  size_t i = hwm_++;
  Claim(i, space);
  return i;
}

size_t PageHeap::TakeRun(size_t n, Space space) {
  assert(n >= 1);
  size_t start = kNoPage;
  if (n < smallest_failed_run_ && hwm_ > 0) {
    // Next-fit over the pages below the high water mark, one full turn at most.
    size_t scanned = 0, i = run_rover_ < hwm_ ? run_rover_ : 0, len = 0;
    while (scanned < hwm_ + n) {
      if (i == hwm_) {  // wrap: a run may not cross the end
        i = 0;
        len = 0;
      }
      if (table_[i].space == Space::kFree) {
        if (++len == n) {
          start = i + 1 - n;
          break;
        }
      } else {
        len = 0;
      }
      i++;
      scanned++;
    }
    if (start == kNoPage) smallest_failed_run_ = n;
  }
  if (start == kNoPage) {
    if (capacity_ - hwm_ < n) return kNoPage;
    start = hwm_;
    hwm_ += n;
  }
  run_rover_ = start + n;
  for (size_t k = 0; k < n; k++) Claim(start + k, space);
  table_[start].kind = PageKind::kLargeHead;
  table_[start].run = uint32_t(n);
  for (size_t k = 1; k < n; k++) {
    table_[start + k].kind = PageKind::kLargeTail;
    table_[start + k].run = uint32_t(k);
  }
  return start;
}

void PageHeap::Release(size_t index) {
  PageInfo &pi = table_[index];
  assert(pi.space != Space::kFree && pi.kind != PageKind::kLargeTail);
  size_t n = pi.kind == PageKind::kLargeHead ? pi.run : 1;
  for (size_t k = 0; k < n; k++) {
    table_[index + k] = PageInfo{};
    table_[index + k].flags = kPageDirty;
  }
  in_use_ -= n;
}

void PageHeap::RebuildFreeList() {
  free_.clear();
  for (size_t i = hwm_; i-- > 0;)
    if (table_[i].space == Space::kFree) free_.push_back(uint32_t(i));
  smallest_failed_run_ = SIZE_MAX;
  run_rover_ = 0;
}

}  // namespace cairn::heap
