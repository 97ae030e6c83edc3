// PageHeap: the reserved range of heap pages, its page table, and the pages' free lists.
//
// Mechanism only: which page is free, taken or released, and each page's protection. What a
// collection does with the pages (the policy) lives in gc/. The range is reserved once (readable
// and writable, MAP_NORESERVE: untouched pages cost no memory) and never moves, so a page's
// number is (address - base) >> 13. It is cut in two arenas (P10): transient pages grow from the
// bottom of the lower half, persistent frames from the bottom of the upper half, so that the
// protections of persistent frames (none, read, read-write) do not interleave with transient
// pages and split the kernel's mapping into more pieces than needed. The transient arena may end
// below the half (Reserve's fit_machine: no more than the machine can back); the pages between
// its end and the persistent arena are never taken.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "cairn/status.h"
#include "heap/page_info.h"

namespace cairn::heap {

inline constexpr size_t kNoPage = SIZE_MAX;

enum class Arena : uint8_t { kTransient = 0, kPersistent = 1 };
enum class Protection : uint8_t { kReadWrite, kRead, kNone };

class PageHeap {
 public:
  PageHeap() = default;
  PageHeap(const PageHeap &) = delete;
  PageHeap &operator=(const PageHeap &) = delete;
  ~PageHeap();

  // Reserves `bytes` of address space (rounded down to whole pages), halving the request down to
  // 256 MiB if the system refuses. Returns what it got in reserved_bytes(). With `fit_machine`
  // (the default size, not one chosen), the transient arena is cut to three quarters of the
  // machine's memory and swap when that is less than half the reservation (machine_bytes()).
  Status Reserve(uint64_t bytes, bool fit_machine = false);

  char *base() const { return base_; }
  size_t capacity() const { return capacity_; }  // pages reserved
  // Frames of the persistent arena (the upper part of the reservation), in use or not.
  size_t persistent_frames() const { return arenas_[1].end - arenas_[1].start; }
  uint64_t reserved_bytes() const { return uint64_t(capacity_) * kPageSize; }
  uint64_t requested_bytes() const { return requested_bytes_; }  // what Reserve was asked for
  // The most bytes one object can take: the transient arena's pages, all of them (half the
  // reservation, or three quarters of the machine's memory and swap when that is less:
  // machine_bytes()).
  uint64_t largest_object_bytes() const {
    return uint64_t(arenas_[0].end - arenas_[0].start) * kPageSize;
  }
  // The machine's memory and swap (or its control group's limit) when three quarters of it, not
  // half the reservation, sets the transient arena's size; else 0.
  uint64_t machine_bytes() const { return machine_bytes_; }
  // For out-of-memory messages: "the heap's reservation of N MiB", and when Reserve got less
  // than it was asked for, how much and why.
  std::string DescribeReservation() const;
  // The sentence that ends an out-of-memory message of the transient arena: what would give it
  // more ("Set CAIRN_HEAP_RESERVE_MB higher" and, with `options`, "(or
  // cairn_options.reserve_bytes)"; or, when the machine's memory bounds it, to keep less alive).
  std::string ReserveAdvice(bool options) const;

  // True if p points into the reservation (the page may be free).
  bool Covers(const void *p) const {
    return uintptr_t(p) - uintptr_t(base_) < uintptr_t(capacity_) * kPageSize;
  }
  size_t IndexOf(const void *p) const { return (uintptr_t(p) - uintptr_t(base_)) >> kPageShift; }
  char *PageAddress(size_t index) const { return base_ + (index << kPageShift); }
  PageInfo &Info(size_t index) { return table_[index]; }
  const PageInfo &Info(size_t index) const { return table_[index]; }
  PageInfo *table() { return table_; }
  Arena ArenaOf(size_t index) const {
    return index < arenas_[1].start ? Arena::kTransient : Arena::kPersistent;
  }

  // Calls f(index) for every page that has ever been used (P6), in order.
  template <class F>
  void ForEachTouchedPage(F &&f) const {
    for (const ArenaState &a : arenas_)
      for (size_t i = a.start; i < a.hwm; i++) f(i);
  }
  // ... of one arena only.
  template <class F>
  void ForEachTouchedPage(Arena arena, F &&f) const {
    const ArenaState &a = arenas_[size_t(arena)];
    for (size_t i = a.start; i < a.hwm; i++) f(i);
  }

  // Takes one free page into `space` as an empty small page, zero-filled and read-write.
  // kNoPage when the arena is full.
  size_t TakePage(Space space, Arena arena = Arena::kTransient);
  // Takes a run of n free pages for a large object (P3), zero-filled and read-write.
  size_t TakeRun(size_t n, Space space, Arena arena = Arena::kTransient);
  // Whether TakeRun(n) would find a run now (it changes nothing): the language's runtime asks
  // before a large allocation, so that a full heap is a runtime error there, not a fatal one.
  bool HasRun(size_t n, Arena arena = Arena::kTransient) const;
  // Takes a frame for a persistent page that is not loaded yet (or, if `large`, a run of n for a
  // large object, n >= 1): protection none, contents undefined. kNoPage when the arena is full.
  size_t TakeReservedFrames(size_t n, bool large);
  // Frees a page or, given a large head, its whole run (P1). Contents and protection are left
  // (P7); pages of the persistent arena keep protection none while free.
  void Release(size_t index);
  // Faults in (zero-filled, writable) the never-used transient pages up to `pages` beyond the
  // high water mark, so that the next collection copies into memory that is already there
  // instead of taking the kernel's page faults inside its pause; at most `max_step` pages per
  // call beyond those prefaulted already, so the cost is spread over the allocation that needs
  // it. Returns the pages prefaulted.
  size_t Prefault(size_t pages, size_t max_step);
  // Rebuilds the free lists from the page table, lowest pages first; called after a collection
  // (of the transient arena only, after one that freed no persistent frame).
  void RebuildFreeList(bool transient_only = false);

  // Changes the protection of pages [index, index + n) (one mprotect) and records it in their
  // flags. Fatal if the system refuses (beyond the mapping limit, see docs/persistence.md).
  // Between BeginProtectBatch and EndProtectBatch the flags change at once but the mprotects
  // wait for EndProtectBatch, which makes one per run of adjacent pages given the same
  // protection (a commit cleans its written pages so: a system call each cost about 10 us).
  // Nothing may touch the pages in between.
  void Protect(size_t index, size_t n, Protection prot);
  void BeginProtectBatch() { batching_ = true; }
  void EndProtectBatch();
  // Gives the memory of pages [index, index + n) back to the system (they read as zero after);
  // false if the system refused (locked memory: mlockall): then they keep what they held.
  bool Discard(size_t index, size_t n);
  // Gives back to the system the memory of the transient arena's free pages that hold some (are
  // dirty, P7) beyond its lowest `keep` free pages (free pages are taken lowest first, so those
  // are the next to be used), when at least `keep + min_excess` free pages are dirty (a counter:
  // no page is read otherwise); the pages given back are no longer dirty (zero when taken
  // again, without a memset). One madvise per run of free pages; a run the system refuses
  // stays dirty. Returns the pages given back (0 when it did nothing).
  size_t ReturnFreeMemory(size_t keep, size_t min_excess);
  // Gives back the memory Prefault touched beyond the high water mark past its first `keep`
  // pages, when that is at least `min_excess` pages (P6 holds: the pages were never used, and
  // read as zero after). Returns the pages given back.
  size_t TrimPrefault(size_t keep, size_t min_excess);
  static Protection ProtectionOf(const PageInfo &pi) {
    return pi.flags & kPageProtNone   ? Protection::kNone
           : pi.flags & kPageProtRead ? Protection::kRead
                                      : Protection::kReadWrite;
  }
  // Places where the protection changes from one page to the next: about the number of pieces
  // the kernel keeps for the heap's mapping, minus one.
  size_t protection_boundaries() const { return boundaries_; }

  // The page id of a persistent frame in its database (meaningful when Info(i).db != 0).
  uint64_t &PageId(size_t index) { return page_ids_[index]; }

  size_t pages_in_use() const { return in_use_; }
  // Pages of the transient arena in use (small and large, transient and persistent).
  size_t transient_in_use() const { return transient_in_use_; }
  // Free pages of the transient arena, below and above its high water mark.
  size_t transient_free_pages() const {
    return arenas_[0].end - arenas_[0].start - transient_in_use_;
  }
  // Small pages of the transient arena in use: counted by the last RebuildFreeList, plus every
  // TakePage of the transient arena since (what a collection may have to copy, gc/gc_heap.h C1).
  size_t transient_small_pages() const { return transient_small_; }
  // Free pages of the transient arena below its high water mark (as of the last rebuild).
  size_t free_transient_pages() const { return arenas_[0].free.size(); }
  // Free pages of the transient arena that are dirty (P7): what ReturnFreeMemory could give back.
  size_t dirty_free_transient_pages() const { return dirty_free_; }
  size_t free_pages_below_high_water() const {
    return arenas_[0].hwm - arenas_[0].start + arenas_[1].hwm - arenas_[1].start - in_use_;
  }

 private:
  struct ArenaState {
    size_t start = 0, end = 0, hwm = 0;
    std::vector<uint32_t> free;             // free pages below hwm, lowest at the back
    size_t rover = 0;                       // next-fit position for runs
    size_t smallest_failed_run = SIZE_MAX;  // no free run this long exists below hwm
  };
  void Claim(size_t index, Space space);
  size_t FindRun(ArenaState &a, size_t n);
  size_t BoundariesAround(size_t index, size_t n) const;

  char *base_ = nullptr;
  size_t capacity_ = 0;
  uint64_t requested_bytes_ = 0;
  uint64_t machine_bytes_ = 0;  // machine_bytes()
  size_t in_use_ = 0;
  size_t transient_in_use_ = 0;  // the pages of in_use_ in the transient arena
  size_t dirty_free_ = 0;        // free dirty pages of the transient arena (counted, P7)
  size_t transient_small_ = 0;   // transient_small_pages()
  size_t boundaries_ = 0;
  size_t prefaulted_to_ = 0;  // transient pages below this index have been touched
  struct PendingProtect {
    size_t index, n;
    Protection prot;
  };
  bool batching_ = false;
  std::vector<PendingProtect> pending_;  // while batching_: protections not applied yet
  ArenaState arenas_[2];
  PageInfo *table_ = nullptr;
  uint64_t *page_ids_ = nullptr;
  size_t table_bytes_ = 0, ids_bytes_ = 0;
  void *mapping_ = nullptr;
  size_t mapping_bytes_ = 0;
};

}  // namespace cairn::heap
