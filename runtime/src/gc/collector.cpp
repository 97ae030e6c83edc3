#include "gc/collector.h"

#include <cassert>
#include <cstring>

#include "heap/object.h"
#include "util/fatal.h"

namespace cairn::gc {

using heap::kPageSize;
using heap::kWordSize;
using heap::PageInfo;
using heap::PageKind;
using heap::Space;

CollectionResult Collector::Collect(const void *stack_top) {
  result_ = CollectionResult{};
  result_.peak_pages = pages_.pages_in_use();
  copy_ = BumpRegion{};
  copy_stack_.clear();

  Flip();
  roots_.ForEachAmbiguousWord(stack_top, [this](uintptr_t w) { PinAmbiguous(w); });
  // Exact roots after every ambiguous root: a page pinned later must not have lost objects.
  roots_.ForEachExactSlot([this](void **slot) {
    if (*slot) *slot = Move(*slot);
  });
  Closure();
  copy_.Sync(pages_);
  FreePrevious();
  pages_.RebuildFreeList();
  result_.copy_region = copy_;
  return result_;
}

void Collector::Flip() {
  const size_t hwm = pages_.high_water();
  for (size_t i = 0; i < hwm; i++) {
    PageInfo &pi = pages_.Info(i);
    if (pi.space == Space::kCurrent) {
      pi.space = Space::kPrevious;
      pi.flags &= uint8_t(~heap::kPagePinned);
      pi.scan = 0;
    }
  }
}

void Collector::PinAmbiguous(uintptr_t word) {
  const void *p = reinterpret_cast<const void *>(word);
  if (!pages_.Covers(p)) return;
  size_t i = pages_.IndexOf(p);
  PageInfo &pi = pages_.Info(i);
  if (pi.space != Space::kPrevious) return;  // free, or already promoted
  if (pi.kind == PageKind::kLargeTail) i -= pi.run;
  pages_.Info(i).flags |= heap::kPagePinned;
  result_.pages_pinned += pages_.Info(i).large() ? pages_.Info(i).run : 1;
  Promote(i);
}

void Collector::Promote(size_t index) {
  PageInfo &pi = pages_.Info(index);
  assert(pi.space == Space::kPrevious && pi.kind != PageKind::kLargeTail);
  size_t n = pi.kind == PageKind::kLargeHead ? pi.run : 1;
  for (size_t k = 0; k < n; k++) pages_.Info(index + k).space = Space::kCurrent;
  result_.pages_promoted += n;
  copy_stack_.push_back(uint32_t(index));
}

void *Collector::Move(void *ref) {
  if (!pages_.Covers(ref)) return ref;  // not a heap reference: the verifier reports it
  size_t i = pages_.IndexOf(ref);
  PageInfo &pi = pages_.Info(i);
  if (pi.space != Space::kPrevious) return ref;
  if (pi.large()) {
    Promote(pi.kind == PageKind::kLargeTail ? i - pi.run : i);
    return ref;
  }
  uintptr_t header = heap::HeaderOf(ref);
  if (heap::IsForwarded(header)) return heap::ForwardedTo(header);
  return Copy(ref, header);
}

void *Collector::Copy(void *ref, uintptr_t header) {
  const cairn_type *t = heap::TypeOfHeader(header);
  size_t bytes = heap::ObjectBytes(t, ref);
  char *dst = copy_.TryAlloc(bytes);
  if (!dst) dst = NewCopyPage(bytes);
  std::memcpy(dst, static_cast<char *>(ref) - kWordSize, bytes);
  void *moved = dst + kWordSize;
  heap::HeaderOf(ref) = reinterpret_cast<uintptr_t>(moved) | heap::kForwardedBit;
  result_.bytes_copied += bytes;
  return moved;
}

char *Collector::NewCopyPage(size_t bytes) {
  if (copy_.page != heap::kNoPage) {
    copy_.Sync(pages_);
    const PageInfo &old = pages_.Info(copy_.page);
    if (old.scan < old.used) copy_stack_.push_back(uint32_t(copy_.page));
  }
  size_t i = pages_.TakePage(Space::kCurrent);
  if (i == heap::kNoPage)
    Fatal("out of memory during a collection: all %llu MiB of the heap's reservation are in use. "
          "Set CAIRN_HEAP_RESERVE_MB higher (or cairn_options.reserve_bytes).",
          static_cast<unsigned long long>(pages_.reserved_bytes() >> 20));
  if (pages_.pages_in_use() > result_.peak_pages) result_.peak_pages = pages_.pages_in_use();
  copy_.Start(pages_, i);
  char *dst = copy_.TryAlloc(bytes);
  assert(dst);
  return dst;
}

void Collector::ScanObject(void *ref) {
  const cairn_type *t = heap::TypeOfHeader(heap::HeaderOf(ref));
  heap::ForEachRefSlot(t, ref, [this](void **slot) {
    void *v = *slot;
    if (!v) return;
    void *moved = Move(v);
    if (moved != v) *slot = moved;  // never write a slot that did not change
  });
}

void Collector::ScanPage(size_t index) {
  PageInfo &pi = pages_.Info(index);
  char *base = pages_.PageAddress(index);
  if (pi.kind == PageKind::kLargeHead) {
    if (pi.scan == 0) ScanObject(base + kWordSize);
    pi.scan = pi.used;
    return;
  }
  for (;;) {
    // The page being copied into grows while it is scanned.
    uint32_t end = index == copy_.page ? uint32_t(copy_.ptr - base) : pi.used;
    if (pi.scan >= end) break;
    void *ref = base + pi.scan + kWordSize;
    const cairn_type *t = heap::TypeOfHeader(heap::HeaderOf(ref));
    uint32_t bytes = uint32_t(heap::ObjectBytes(t, ref));
    ScanObject(ref);
    pi.scan += bytes;
  }
}

void Collector::Closure() {
  for (;;) {
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
  const size_t hwm = pages_.high_water();
  for (size_t i = 0; i < hwm; i++) {
    PageInfo &pi = pages_.Info(i);
    if (pi.space == Space::kPrevious) {
      if (pi.kind != PageKind::kLargeTail) pages_.Release(i);
    } else if (pi.space == Space::kCurrent && pi.kind != PageKind::kLargeTail) {
      result_.live_bytes += pi.used;
    }
  }
}

}  // namespace cairn::gc
