#include "heap/page_heap.h"

#include <sys/mman.h>

#include <algorithm>
#include <cassert>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>

#include "util/fatal.h"
#include "util/memory_info.h"

namespace cairn::heap {

namespace {
constexpr uint64_t kMinReserve = uint64_t{256} << 20;

void *MapNoReserve(size_t bytes) {
  void *p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  return p == MAP_FAILED ? nullptr : p;
}

int ProtFlags(Protection p) {
  switch (p) {
    case Protection::kReadWrite:
      return PROT_READ | PROT_WRITE;
    case Protection::kRead:
      return PROT_READ;
    case Protection::kNone:
      return PROT_NONE;
  }
  return PROT_NONE;
}

uint8_t ProtBits(Protection p) {
  return p == Protection::kRead ? kPageProtRead : p == Protection::kNone ? kPageProtNone : 0;
}
}  // namespace

PageHeap::~PageHeap() {
  if (mapping_) munmap(mapping_, mapping_bytes_);
  if (table_) munmap(table_, table_bytes_);
  if (page_ids_) munmap(page_ids_, ids_bytes_);
}

std::string PageHeap::DescribeReservation() const {
  std::string d = "the heap's reservation of " + std::to_string(reserved_bytes() >> 20) + " MiB";
  if (requested_bytes_ > reserved_bytes())
    d += " (" + std::to_string(requested_bytes_ >> 20) +
         " MiB were asked for: the system would not map more, as a limit on the process's "
         "address space does (ulimit -v, ulimit -d))";
  return d;
}

std::string PageHeap::ReserveAdvice(bool options) const {
  // The machine's memory, not the reservation, bounds new objects: more reservation gives none.
  if (machine_bytes_ != 0)
    return "Keep less alive: new objects get at most " +
           std::to_string(largest_object_bytes() >> 20) +
           " MiB, three quarters of this machine's " + std::to_string(machine_bytes_ >> 20) +
           " MiB of memory and swap (set CAIRN_HEAP_RESERVE_MB to give the heap its own size)";
  std::string advice = "Set CAIRN_HEAP_RESERVE_MB higher";
  if (options) advice += " (or cairn_options.reserve_bytes)";
  // When the reservation is less than was asked for, raising the variable does nothing until
  // the process may map more.
  if (requested_bytes_ > reserved_bytes())
    advice += ", and the limit on the process's address space with it";
  return advice;
}

Status PageHeap::Reserve(uint64_t bytes, bool fit_machine) {
  assert(!base_);
  requested_bytes_ = bytes;
  if (bytes < kMinReserve)
    return Status(CAIRN_INVALID_ARGUMENT,
                  "a heap reservation of " + std::to_string(bytes >> 20) +
                      " MiB is below the minimum of 256 MiB: set CAIRN_HEAP_RESERVE_MB (or "
                      "cairn_options.reserve_bytes) to 256 or more; it is address space, "
                      "not memory used");
  for (uint64_t want = bytes; want >= kMinReserve; want /= 2) {
    size_t pages = want / kPageSize;
    size_t map_bytes = (pages + 1) * kPageSize;  // one spare page to align the base
    void *m = MapNoReserve(map_bytes);
    if (!m) continue;
    void *t = MapNoReserve(pages * sizeof(PageInfo));
    void *ids = MapNoReserve(pages * sizeof(uint64_t));
    if (!t || !ids) {
      munmap(m, map_bytes);
      if (t) munmap(t, pages * sizeof(PageInfo));
      if (ids) munmap(ids, pages * sizeof(uint64_t));
      continue;
    }
    mapping_ = m;
    mapping_bytes_ = map_bytes;
    uintptr_t aligned = (uintptr_t(m) + kPageSize - 1) & ~uintptr_t(kPageSize - 1);
    base_ = reinterpret_cast<char *>(aligned);
    capacity_ = pages;
    table_ = static_cast<PageInfo *>(t);  // zero-filled: every page free (P1, P6)
    table_bytes_ = pages * sizeof(PageInfo);
    page_ids_ = static_cast<uint64_t *>(ids);
    ids_bytes_ = pages * sizeof(uint64_t);
    // The transient arena (new objects, and a collection's copies of them) is the lower half,
    // and, unless the size was chosen (fit_machine false), no more than three quarters of the
    // machine's memory and swap: every page of it may be touched (what is live and its copies),
    // so a heap allowed to grow past the machine would be killed by the kernel before its own
    // out-of-memory error could say what happened.
    size_t transient = pages / 2;
    machine_bytes_ = 0;
    if (const uint64_t machine = fit_machine ? util::MachineMemoryBytes() : 0; machine != 0) {
      const size_t cap = std::max<size_t>(machine / 4 * 3 / kPageSize, kMinReserve / 2 / kPageSize);
      if (cap < transient) {
        transient = cap;
        machine_bytes_ = machine;
      }
    }
    arenas_[0].start = arenas_[0].hwm = 0;
    arenas_[0].end = transient;
    arenas_[1].start = arenas_[1].hwm = pages / 2;
    arenas_[1].end = pages;
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
  if (ProtectionOf(pi) != Protection::kReadWrite) Protect(index, 1, Protection::kReadWrite);
  if (pi.flags & kPageDirty) {
    std::memset(PageAddress(index), 0, kPageSize);  // P7
    if (index < arenas_[1].start) dirty_free_--;
  }
  pi = PageInfo{};
  pi.space = space;
  pi.flags = kPageDirty;
  in_use_++;
  if (index < arenas_[1].start) transient_in_use_++;
}

size_t PageHeap::TakePage(Space space, Arena arena) {
  ArenaState &a = arenas_[size_t(arena)];
  while (!a.free.empty()) {
    size_t i = a.free.back();
    a.free.pop_back();
    if (table_[i].space != Space::kFree) continue;  // taken since by a run
    Claim(i, space);
    if (arena == Arena::kTransient) transient_small_++;
    return i;
  }
  if (a.hwm == a.end) return kNoPage;
  size_t i = a.hwm++;
  Claim(i, space);
  if (arena == Arena::kTransient) transient_small_++;
  return i;
}

size_t PageHeap::FindRun(ArenaState &a, size_t n) {
  size_t start = kNoPage;
  size_t span = a.hwm - a.start;
  if (n < a.smallest_failed_run && span > 0) {
    // Next-fit over the pages below the high water mark, one full turn at most.
    size_t scanned = 0, len = 0;
    size_t i = a.rover >= a.start && a.rover < a.hwm ? a.rover : a.start;
    while (scanned < span + n) {
      if (i == a.hwm) {  // wrap: a run may not cross the end
        i = a.start;
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
    if (start == kNoPage) a.smallest_failed_run = n;
  }
  if (start == kNoPage) {
    if (a.end - a.hwm < n) return kNoPage;
    start = a.hwm;
    a.hwm += n;
  }
  a.rover = start + n;
  return start;
}

size_t PageHeap::Prefault(size_t pages, size_t max_step) {
  const ArenaState &a = arenas_[0];
  size_t from = prefaulted_to_ > a.hwm ? prefaulted_to_ : a.hwm;
  size_t to = a.hwm + pages < a.end ? a.hwm + pages : a.end;
  if (to > from + max_step) to = from + max_step;
  if (to <= from) return 0;
  char *p = PageAddress(from);
  size_t bytes = (to - from) * kPageSize;
  if (madvise(p, bytes, MADV_POPULATE_WRITE) != 0)  // Linux 5.14 and later
    for (size_t off = 0; off < bytes; off += 4096) static_cast<volatile char *>(p)[off] = 0;
  prefaulted_to_ = to;
  return to - from;
}

bool PageHeap::HasRun(size_t n, Arena arena) const {
  const ArenaState &a = arenas_[size_t(arena)];
  if (a.end - a.hwm >= n) return true;
  if (n >= a.smallest_failed_run) return false;  // as FindRun: none below hwm
  size_t len = 0;
  for (size_t i = a.start; i < a.hwm; i++) {
    len = table_[i].space == Space::kFree ? len + 1 : 0;
    if (len == n) return true;
  }
  return false;
}

size_t PageHeap::TakeRun(size_t n, Space space, Arena arena) {
  assert(n >= 1);
  size_t start = FindRun(arenas_[size_t(arena)], n);
  if (start == kNoPage) return kNoPage;
  for (size_t k = 0; k < n; k++) Claim(start + k, space);
  table_[start].kind = PageKind::kLargeHead;
  table_[start].run = uint32_t(n);
  for (size_t k = 1; k < n; k++) {
    table_[start + k].kind = PageKind::kLargeTail;
    table_[start + k].run = uint32_t(k);
  }
  return start;
}

size_t PageHeap::TakeReservedFrames(size_t n, bool large) {
  ArenaState &a = arenas_[size_t(Arena::kPersistent)];
  size_t start = kNoPage;
  if (n == 1) {
    while (!a.free.empty() && start == kNoPage) {
      size_t i = a.free.back();
      a.free.pop_back();
      if (table_[i].space == Space::kFree) start = i;
    }
    if (start == kNoPage) {
      if (a.hwm == a.end) return kNoPage;
      start = a.hwm++;
    }
  } else {
    start = FindRun(a, n);
    if (start == kNoPage) return kNoPage;
  }
  bool all_none = true;
  for (size_t k = 0; k < n; k++) {
    PageInfo &pi = table_[start + k];
    if (ProtectionOf(pi) != Protection::kNone) all_none = false;
    uint8_t prot = pi.flags & kPageProtMask;
    pi = PageInfo{};
    pi.space = Space::kCurrent;
    pi.flags = uint8_t(kPageDirty | prot);
    pi.kind = !large ? PageKind::kSmall : k == 0 ? PageKind::kLargeHead : PageKind::kLargeTail;
    pi.run = !large ? 0 : k == 0 ? uint32_t(n) : uint32_t(k);
    in_use_++;
    if (start + k < arenas_[1].start) transient_in_use_++;
  }
  if (!all_none) Protect(start, n, Protection::kNone);
  return start;
}

void PageHeap::Release(size_t index) {
  PageInfo &pi = table_[index];
  assert(pi.space != Space::kFree && pi.kind != PageKind::kLargeTail);
  size_t n = pi.kind == PageKind::kLargeHead ? pi.run : 1;
  for (size_t k = 0; k < n; k++) {
    uint8_t prot = table_[index + k].flags & kPageProtMask;
    table_[index + k] = PageInfo{};
    table_[index + k].flags = uint8_t(kPageDirty | prot);
    page_ids_[index + k] = 0;
  }
  if (index < arenas_[1].start) dirty_free_ += n;
  in_use_ -= n;
  if (index < arenas_[1].start) transient_in_use_ -= n;  // a run is in one arena
}

void PageHeap::RebuildFreeList(bool transient_only) {
  for (ArenaState &a : arenas_) {
    if (transient_only && &a != &arenas_[0]) continue;
    a.free.clear();
    size_t small = 0, dirty = 0;
    for (size_t i = a.hwm; i-- > a.start;)
      if (table_[i].space == Space::kFree) {
        a.free.push_back(uint32_t(i));
        dirty += (table_[i].flags & kPageDirty) != 0;
      } else {
        small += table_[i].kind == PageKind::kSmall;
      }
    if (&a == &arenas_[0]) {
      transient_small_ = small;
      dirty_free_ = dirty;  // counted again: the counter never drifts for long
    }
    a.smallest_failed_run = SIZE_MAX;
    a.rover = a.start;
  }
}

size_t PageHeap::BoundariesAround(size_t index, size_t n) const {
  size_t lo = index > 0 ? index - 1 : 0;
  size_t hi = index + n < capacity_ ? index + n : capacity_ - 1;
  size_t count = 0;
  for (size_t i = lo; i < hi; i++)
    if ((table_[i].flags & kPageProtMask) != (table_[i + 1].flags & kPageProtMask)) count++;
  return count;
}

void PageHeap::Protect(size_t index, size_t n, Protection prot) {
  size_t before = BoundariesAround(index, n);
  if (batching_) {
    pending_.push_back(PendingProtect{index, n, prot});
  } else if (mprotect(PageAddress(index), n * kPageSize, ProtFlags(prot)) != 0) {
    int e = errno;
    Fatal("could not change the protection of %zu heap page(s) at %p: %s. %s", n,
          static_cast<void *>(PageAddress(index)), std::strerror(e),
          e == ENOMEM ? "The process has reached the kernel's limit on memory mappings "
                        "(vm.max_map_count); see docs/persistence.md"
                      : "");
  }
  for (size_t k = 0; k < n; k++) {
    PageInfo &pi = table_[index + k];
    pi.flags = uint8_t((pi.flags & ~kPageProtMask) | ProtBits(prot));
  }
  boundaries_ = boundaries_ - before + BoundariesAround(index, n);
}

void PageHeap::EndProtectBatch() {
  batching_ = false;
  std::sort(pending_.begin(), pending_.end(),
            [](const PendingProtect &a, const PendingProtect &b) { return a.index < b.index; });
  for (size_t i = 0; i < pending_.size();) {
    size_t j = i + 1, end = pending_[i].index + pending_[i].n;
    while (j < pending_.size() && pending_[j].index == end && pending_[j].prot == pending_[i].prot)
      end += pending_[j++].n;
    if (mprotect(PageAddress(pending_[i].index), (end - pending_[i].index) * kPageSize,
                 ProtFlags(pending_[i].prot)) != 0) {
      int e = errno;
      Fatal("could not change the protection of %zu heap page(s) at %p: %s. %s",
            end - pending_[i].index, static_cast<void *>(PageAddress(pending_[i].index)),
            std::strerror(e),
            e == ENOMEM ? "The process has reached the kernel's limit on memory mappings "
                          "(vm.max_map_count); see docs/persistence.md"
                        : "");
    }
    i = j;
  }
  pending_.clear();
}

bool PageHeap::Discard(size_t index, size_t n) {
  return madvise(PageAddress(index), n * kPageSize, MADV_DONTNEED) == 0;
}

size_t PageHeap::TrimPrefault(size_t keep, size_t min_excess) {
  const ArenaState &a = arenas_[0];
  if (prefaulted_to_ <= a.hwm + keep || prefaulted_to_ - (a.hwm + keep) < min_excess) return 0;
  const size_t from = a.hwm + keep, n = prefaulted_to_ - from;
  if (!Discard(from, n)) return 0;
  prefaulted_to_ = from;
  return n;
}

size_t PageHeap::ReturnFreeMemory(size_t keep, size_t min_excess) {
  const ArenaState &a = arenas_[0];
  auto free_dirty = [&](size_t i) {
    return table_[i].space == Space::kFree && (table_[i].flags & kPageDirty);
  };
  if (dirty_free_ < keep + min_excess) return 0;  // the common case: no page read
  size_t returned = 0, seen = 0, i = a.start;
  // The lowest `keep` free pages, dirty or not, are the next to be taken.
  while (i < a.hwm && seen < keep) seen += table_[i++].space == Space::kFree;
  while (i < a.hwm) {
    if (!free_dirty(i)) {
      i++;
      continue;
    }
    size_t j = i;  // the run of free pages from i (clean ones in it cost the madvise nothing)
    while (j < a.hwm && table_[j].space == Space::kFree) j++;
    if (Discard(i, j - i)) {
      for (size_t k = i; k < j; k++) {
        if (!(table_[k].flags & kPageDirty)) continue;
        table_[k].flags &= uint8_t(~kPageDirty);
        returned++;
        dirty_free_--;
      }
    }
    i = j;
  }
  return returned;
}

}  // namespace cairn::heap
