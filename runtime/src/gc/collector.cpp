#include "gc/collector.h"

#include <cassert>
#include <cstring>

#include "heap/object.h"
#include "types/type_registry.h"
#include "util/fatal.h"

namespace cairn::gc {

using heap::kPageSize;
using heap::kWordSize;
using heap::PageInfo;
using heap::PageKind;
using heap::Space;

// --- Both modes --------------------------------------------------------------------------------

void Collector::Begin() {
  result_ = CollectionResult{};
  result_.peak_pages = pages_.pages_in_use();
  copy_ = BumpRegion{};
  copy_stack_.clear();
  mark_stack_.clear();
  pinned_.clear();
  stab_stack_.clear();
  persistent_copy_.clear();
  in_place_.clear();
  base_ = pages_.base();
  covered_pages_ = uint32_t(pages_.capacity());
  table_ = pages_.table();
  Flip();
}

CollectionResult Collector::Finish() {
  // Exact roots after every ambiguous root: a page pinned later must not have lost objects.
  roots_.ForEachExactSlot([this](void **slot) {
    if (*slot) *slot = Move(*slot);
  });
  Closure();
  copy_.Sync(pages_);
  if (copy_.page != heap::kNoPage) result_.bytes_copied += pages_.Info(copy_.page).used;
  for (auto &[db, region] : persistent_copy_) {
    region.Sync(pages_);
    if (region.page != heap::kNoPage) result_.bytes_copied += pages_.Info(region.page).used;
  }
  if (hashes_)
    hashes_->Relocate([this](uintptr_t a) {
      return reinterpret_cast<uintptr_t>(Survivor(reinterpret_cast<void *>(a)));
    });
  FillDeadPinnedObjects();
  FreePrevious();
  pages_.RebuildFreeList();
  result_.copy_region = copy_;
  outcome_ = nullptr;
  return result_;
}

CollectionResult Collector::Collect(const void *stack_top) {
  Begin();
  // Figure 4: modified persistent pages stay, and may reference transient objects.
  pages_.ForEachTouchedPage([this](size_t i) {
    const PageInfo &pi = table_[i];
    if (pi.space == Space::kPrevious && pi.persistent() && pi.modified() &&
        pi.kind != PageKind::kLargeTail)
      Promote(i, true);
  });
  roots_.ForEachAmbiguousWord(stack_top, [this](uintptr_t w) { PinAmbiguous(w); });
  return Finish();
}

void Collector::Flip() {
  pages_.ForEachTouchedPage([this](size_t i) {
    PageInfo &pi = table_[i];
    if (pi.space == Space::kCurrent) {
      pi.space = Space::kPrevious;
      pi.flags &= uint8_t(~heap::kPagePinned);
      pi.scan = 0;
    }
  });
}

void Collector::PinAmbiguous(uintptr_t word) {
  uintptr_t off = word - uintptr_t(base_);
  size_t i = off >> heap::kPageShift;
  // R1: a word at the start of a page may be one past the end of an object that fills the page
  // before it to the end (i - 1 wraps around for i == 0).
  if ((off & (kPageSize - 1)) == 0 && i - 1 < covered_pages_) [[unlikely]]
    PinEndOfPage(i - 1);
  if (i >= covered_pages_) return;
  PageInfo &pi = table_[i];
  if (pi.space == Space::kFree) return;
  if (pi.kind != PageKind::kSmall || pi.persistent()) {
    // A large object's whole run, or a persistent page: kept whole, scanned if resident.
    if (pi.kind == PageKind::kLargeTail) i -= pi.run;
    const PageInfo &head = table_[i];
    if (head.space != Space::kPrevious) return;
    result_.pages_pinned += head.large() ? head.run : 1;
    Promote(i, true);
    return;
  }
  if (pi.space == Space::kPrevious) PinPage(i);
  // Which object does the word point into (its header or payload), or one past the end of (R1)?
  // One past the end of an object is also the header of the next one, if any: both stay.
  char *page = pages_.PageAddress(i);
  uint32_t pos = uint32_t(off & (kPageSize - 1));
  for (uint32_t o = 0; o < pi.used;) {
    void *ref = page + o + kWordSize;
    uint32_t bytes = uint32_t(heap::ObjectBytes(heap::TypeOfHeader(heap::HeaderOf(ref)), ref));
    if (pos <= o + bytes) {
      MarkPinned(i, ref);
      if (pos < o + bytes) return;
    }
    o += bytes;
  }
}

// R1 across a page boundary: if an object ends exactly at the end of page j, a word pointing at
// the start of page j + 1 is one past its end, and pins it as a word inside it would.
void Collector::PinEndOfPage(size_t j) {
  const PageInfo &pi = table_[j];
  if (pi.space == Space::kFree) return;
  size_t head = pi.kind == PageKind::kLargeTail ? j - pi.run : j;
  const PageInfo &h = table_[head];
  bool ends_here;
  if (h.persistent() && !h.resident())
    ends_here = true;  // its objects are not known until it is loaded: keep the frame
  else if (h.kind == PageKind::kLargeHead)
    ends_here = head + h.run == j + 1 && h.used == h.run * kPageSize;
  else
    ends_here = h.used == kPageSize;
  if (ends_here) PinAmbiguous(uintptr_t(pages_.PageAddress(j)) + kPageSize - kWordSize);
}

void Collector::PinPage(size_t index) {
  PageInfo &pi = pages_.Info(index);
  pi.space = Space::kCurrent;
  pi.flags |= heap::kPagePinned;
  pi.scan = uint32_t(pinned_.size());
  pinned_.push_back(PinnedPage{index, {}});
  result_.pages_pinned++;
  result_.pages_promoted++;
}

void Collector::MarkPinned(size_t index, void *ref) {
  PinnedPage &pp = pinned_[pages_.Info(index).scan];
  size_t w = (uintptr_t(ref) & (kPageSize - 1)) / kWordSize;
  uint64_t bit = uint64_t{1} << (w % 64);
  if (pp.marks[w / 64] & bit) return;
  pp.marks[w / 64] |= bit;
  mark_stack_.push_back(ref);
}

bool Collector::IsMarked(size_t index, const void *ref) const {
  const PinnedPage &pp = pinned_[pages_.Info(index).scan];
  size_t w = (uintptr_t(ref) & (kPageSize - 1)) / kWordSize;
  return pp.marks[w / 64] >> (w % 64) & 1;
}

// A reference into a pinned page: its object stays and is marked, unless the stabilizer copied it
// out (it was not pointed into by an ambiguous root), in which case the reference follows it.
void *Collector::MovePinned(size_t index, void *ref) {
  uintptr_t header = heap::HeaderOf(ref);
  if (heap::IsForwarded(header)) return heap::ForwardedTo(header);
  MarkPinned(index, ref);
  return ref;
}

size_t Collector::SlotBytes(void *ref) {
  uintptr_t h = heap::HeaderOf(ref);
  if (heap::IsForwarded(h)) ref = heap::ForwardedTo(h);
  return heap::ObjectBytes(heap::TypeOfHeader(heap::HeaderOf(ref)), ref);
}

// The address after this collection of the object that was at `ref` before it, or null if the
// object died. Called after the closure, before fillers are made and previous space is freed.
void *Collector::Survivor(void *ref) {
  uintptr_t off = uintptr_t(ref) - uintptr_t(base_);
  size_t i = off >> heap::kPageShift;
  if (i >= covered_pages_) return nullptr;
  const PageInfo &pi = table_[i];
  if (pi.space == Space::kFree) return nullptr;
  if (pi.kind != PageKind::kSmall) {  // a large object is promoted whole, or dies whole
    const PageInfo &head = table_[pi.kind == PageKind::kLargeTail ? i - pi.run : i];
    return head.space == Space::kCurrent ? ref : nullptr;
  }
  if (pi.persistent() && !pi.pinned())  // never moved (and maybe not resident: no reading)
    return pi.space == Space::kCurrent ? ref : nullptr;
  uintptr_t header = heap::HeaderOf(ref);
  if (heap::IsForwarded(header)) return heap::ForwardedTo(header);  // copied
  if (pi.space == Space::kPrevious) return nullptr;                 // not reached
  if (!pi.pinned() || pi.persistent()) return ref;  // a pinned page made persistent keeps all
  return IsMarked(i, ref) ? ref : nullptr;
}

void Collector::FillDeadPinnedObjects() {
  auto &registry = types::TypeRegistry::Get();
  for (const PinnedPage &pp : pinned_) {
    PageInfo &pi = pages_.Info(pp.index);
    // A page made persistent in place keeps all its objects (they persist); only the places of
    // objects copied out of it become fillers. A transient one also loses its dead objects.
    const bool keep_unmarked = pi.persistent();
    char *page = pages_.PageAddress(pp.index);
    for (uint32_t o = 0; o < pi.used;) {
      void *ref = page + o + kWordSize;
      uint32_t bytes = uint32_t(SlotBytes(ref));  // an object copied out leaves a forwarding word
      size_t w = (o + kWordSize) / kWordSize;
      bool dead = heap::IsForwarded(heap::HeaderOf(ref)) ||
                  (!keep_unmarked && !(pp.marks[w / 64] >> (w % 64) & 1));
      if (dead)
        heap::HeaderOf(ref) = reinterpret_cast<uintptr_t>(registry.AtomicType(bytes - kWordSize));
      o += bytes;
    }
    pi.scan = pi.used;
  }
}

void Collector::Promote(size_t index, bool scan) {
  PageInfo &pi = pages_.Info(index);
  assert(pi.space == Space::kPrevious && pi.kind != PageKind::kLargeTail);
  size_t n = pi.kind == PageKind::kLargeHead ? pi.run : 1;
  for (size_t k = 0; k < n; k++) pages_.Info(index + k).space = Space::kCurrent;
  result_.pages_promoted += n;
  // A persistent page that is not resident has nothing to scan (and must not be read, P9).
  if (scan && (!pi.persistent() || pi.resident())) copy_stack_.push_back(uint32_t(index));
}

__attribute__((always_inline)) inline void *Collector::Move(void *ref) {
  uintptr_t off = uintptr_t(ref) - uintptr_t(base_);
  size_t i = off >> heap::kPageShift;
  if (i >= covered_pages_) return ref;  // not the heap: the verifier reports it
  PageInfo &pi = table_[i];
  if (pi.space != Space::kPrevious) {
    if (pi.flags & heap::kPagePinned) [[unlikely]]
      return MovePinned(i, ref);
    return ref;
  }
  if (pi.kind != PageKind::kSmall || pi.persistent()) [[unlikely]]
    return MoveSlow(ref, pi, i);
  uintptr_t header = heap::HeaderOf(ref);
  if (heap::IsForwarded(header)) return heap::ForwardedTo(header);
  return Copy(ref, header);
}

void *Collector::MoveSlow(void *ref, PageInfo &pi, size_t index) {
  // A large object or a persistent page: promoted, never copied.
  Promote(pi.kind == PageKind::kLargeTail ? index - pi.run : index, true);
  return ref;
}

__attribute__((always_inline)) inline void *Collector::Copy(void *ref, uintptr_t header) {
  const cairn_type *t = heap::TypeOfHeader(header);
  size_t bytes = heap::ObjectBytes(t, ref);
  char *dst = copy_.TryAlloc(bytes);
  if (!dst) [[unlikely]]
    dst = NewCopyPage(bytes);
  // Objects here are small (at most kLargeObjectBytes), 8-byte multiples of at least 16 bytes (a
  // header and a payload of at least one word).
  const uintptr_t *from = reinterpret_cast<const uintptr_t *>(ref) - 1;
  uintptr_t *to = reinterpret_cast<uintptr_t *>(dst);
  const size_t n = bytes / kWordSize;
  to[0] = header;
  switch (n) {  // straight-line copies for the common small sizes
    default:
      for (size_t w = 6; w < n; w++) to[w] = from[w];
      [[fallthrough]];
    case 6:
      to[5] = from[5];
      [[fallthrough]];
    case 5:
      to[4] = from[4];
      [[fallthrough]];
    case 4:
      to[3] = from[3];
      [[fallthrough]];
    case 3:
      to[2] = from[2];
      [[fallthrough]];
    case 2:
      to[1] = from[1];
  }
  void *moved = dst + kWordSize;
  heap::HeaderOf(ref) = reinterpret_cast<uintptr_t>(moved) | heap::kForwardedBit;
  return moved;
}

__attribute__((noinline)) char *Collector::NewCopyPage(size_t bytes) {
  if (copy_.page != heap::kNoPage) {
    copy_.Sync(pages_);
    const PageInfo &old = pages_.Info(copy_.page);
    result_.bytes_copied += old.used;
    if (old.scan < old.used) copy_stack_.push_back(uint32_t(copy_.page));
  }
  size_t i = pages_.TakePage(Space::kCurrent);
  if (i == heap::kNoPage)
    Fatal(
        "out of memory during a collection: all %llu MiB of the heap's transient arena are in "
        "use. Set CAIRN_HEAP_RESERVE_MB higher (or cairn_options.reserve_bytes).",
        static_cast<unsigned long long>(pages_.reserved_bytes() >> 21));
  if (pages_.pages_in_use() > result_.peak_pages) result_.peak_pages = pages_.pages_in_use();
  copy_.Start(pages_, i);
  char *dst = copy_.TryAlloc(bytes);
  assert(dst);
  return dst;
}

__attribute__((always_inline)) inline void Collector::ScanObject(const cairn_type *t, void *ref) {
  heap::ForEachRefSlot(t, ref, [this](void **slot) {
    void *v = *slot;
    if (!v) return;
    void *moved = Move(v);
    if (moved != v) *slot = moved;  // never write a slot that did not change (P9: clean pages)
  });
}

void Collector::ScanPage(size_t index) {
  PageInfo &pi = pages_.Info(index);
  char *base = pages_.PageAddress(index);
  if (pi.kind == PageKind::kLargeHead) {
    void *ref = base + kWordSize;
    if (pi.scan == 0) ScanObject(heap::TypeOfHeader(heap::HeaderOf(ref)), ref);
    pi.scan = pi.used;
    return;
  }
  for (;;) {
    // The page being copied into grows while it is scanned.
    uint32_t end = index == copy_.page ? uint32_t(copy_.ptr - base) : pi.used;
    if (pi.scan >= end) break;
    uint32_t scan = pi.scan;
    do {
      void *ref = base + scan + kWordSize;
      const cairn_type *t = heap::TypeOfHeader(heap::HeaderOf(ref));
      scan += uint32_t(heap::ObjectBytes(t, ref));
      ScanObject(t, ref);
    } while (scan < end);
    pi.scan = scan;
  }
}

void Collector::Closure() {
  for (;;) {
    if (!mark_stack_.empty()) {
      void *ref = mark_stack_.back();
      mark_stack_.pop_back();
      ScanObject(heap::TypeOfHeader(heap::HeaderOf(ref)), ref);
      continue;
    }
    if (!copy_stack_.empty()) {
      size_t i = copy_stack_.back();
      copy_stack_.pop_back();
      ScanPage(i);
      continue;
    }
    if (copy_.page != heap::kNoPage &&
        pages_.Info(copy_.page).scan < uint32_t(copy_.ptr - pages_.PageAddress(copy_.page))) {
      ScanPage(copy_.page);
      continue;
    }
    break;
  }
}

void Collector::FreePrevious() {
  pages_.ForEachTouchedPage([this](size_t i) {
    PageInfo &pi = pages_.Info(i);
    if (pi.kind == PageKind::kLargeTail) return;
    if (pi.space == Space::kPrevious) {
      if (pi.persistent()) {
        // Figure 4: a clean persistent page nothing reached gives up its frame.
        assert(!pi.modified());
        size_t n = pi.kind == PageKind::kLargeHead ? pi.run : 1;
        if (hooks_) hooks_->ForgetFrame(i);
        if (pi.resident()) pages_.Discard(i, n);
        if (heap::PageHeap::ProtectionOf(pi) != heap::Protection::kNone)
          pages_.Protect(i, n, heap::Protection::kNone);
        result_.frames_released += n;
      }
      pages_.Release(i);
    } else if (pi.space == Space::kCurrent && (!pi.persistent() || pi.resident())) {
      result_.live_bytes += pi.used;
    }
  });
}

}  // namespace cairn::gc
