// The tracing loop: one closure, scan and copy for every policy (collector.h has the table of
// what each policy does in each space). Included by the files that define the policies
// (collector.cpp, stabilizer.cpp); nothing else.
//
// A policy P is a small struct made for the objects of one page, P(Collector &, const PageInfo
// &from), or for one object, P(Collector &, size_t page, const void *ref) (on a shared page,
// P12, its objects are of different databases), with:
//   static constexpr bool kScanNewPagesFirst  queue a new copy page at once (depth first by
//                                             page) rather than scan it when nothing else is
//                                             left (Cheney)
//   Work &work()                              its work list
//   BumpRegion &region()                      where it copies to
//   size_t TakeCopyPage(size_t bytes)         a page for region() with room for `bytes` (a new
//                                             one, or the stabilizer's open page); never fails
//                                             (or Fatal)
//   void Copied(const cairn_type *, size_t)   an object was copied (statistics)
//   void *Forwarded(void *to)                 a reference to an object copied already
//   void *CopySpace(void *ref, uintptr_t h)   ... to an object of the copy space (h: its header)
//   void *PinnedPage(size_t i, void *ref)     ... into a small page an ambiguous root pinned
//   void *LargeObject(size_t head, void *ref) ... into a transient large object's run
//   void *PersistentPage(size_t head, void *ref) ... into a persistent page (or run) not pinned
// each returning the reference's new value.
#pragma once

#include <cassert>

#include "gc/collector.h"
#include "heap/object.h"

namespace cairn::gc {

template <class P>
__attribute__((always_inline)) inline void *Collector::Trace(P &p, void *ref) {
  const size_t i = (uintptr_t(ref) - uintptr_t(base_)) >> heap::kPageShift;
  if (i >= covered_pages_) return ref;  // not the heap: the verifier reports it
  const heap::PageInfo &pi = table_[i];
  if (pi.space == heap::Space::kPrevious && pi.kind == heap::PageKind::kSmall && !pi.persistent())
      [[likely]] {
    // The copy space (a pinned page is in current space).
    const uintptr_t header = heap::HeaderOf(ref);
    if (heap::IsForwarded(header)) return p.Forwarded(heap::ForwardedTo(header));
    return p.CopySpace(ref, header);
  }
  if (pi.pinned()) return p.PinnedPage(i, ref);
  if (pi.space == heap::Space::kFree) return ref;  // not an object: the verifier reports it
  const size_t head = pi.kind == heap::PageKind::kLargeTail ? i - pi.run : i;
  if (pi.persistent()) return p.PersistentPage(head, ref);
  if (pi.large()) return p.LargeObject(head, ref);
  return ref;  // a page this collection copied into: kept already
}

template <class P>
__attribute__((always_inline)) inline void Collector::ScanObject(P &p, const cairn_type *t,
                                                                 void *ref) {
  heap::ForEachRefSlot(t, ref, [&](void **slot) { ScanSlot(p, slot); });
}

template <class P>
__attribute__((always_inline)) inline void Collector::ScanSlot(P &p, void **slot) {
  void *v = *slot;
  if (!v) return;
  void *moved = Trace(p, v);
  if (moved != v) *slot = moved;  // C2
}

template <class P>
void Collector::ScanPage(size_t index) {
  heap::PageInfo &pi = table_[index];
  char *base = pages_.PageAddress(index);
  if (pi.flags & heap::kPageShared) [[unlikely]] {
    // P12: each object is scanned for its own database (a shared page is never copied into).
    // A tenant (P13) is scanned only if something reaches it (MarkTenant): it is transient.
    if (pi.scan == 0) result_.persistent_pages_scanned++;
    for (uint32_t scan = pi.scan; scan < pi.used;) {
      void *ref = base + scan + heap::kWordSize;
      const cairn_type *t = heap::TypeOfHeader(heap::HeaderOf(ref));
      scan += uint32_t(heap::ObjectBytes(t, ref));
      if (pi.persistent() && OwnerOf(index, ref) == 0) continue;
      P p(*this, index, ref);
      ScanObject(p, t, ref);
    }
    pi.scan = pi.used;
    return;
  }
  P p(*this, pi);
  if (pi.kind == heap::PageKind::kLargeHead) {
    if (pi.scan == 0) {
      if (pi.persistent()) result_.persistent_pages_scanned++;
      void *ref = base + heap::kWordSize;
      const cairn_type *t = heap::TypeOfHeader(heap::HeaderOf(ref));
      // A modified run's pages not written in the transaction refer only to persistent objects
      // of its database, which this collection neither moves nor, unless it releases frames,
      // needs to reach: only the written ones are read.
      const std::vector<bool> *written = hooks_ && pi.persistent() && pi.modified() && !release_
                                             ? hooks_->WrittenRunPages(index)
                                             : nullptr;
      if (written == nullptr) {
        ScanObject(p, t, ref);
      } else {
        for (size_t k = 0; k < written->size(); k++) {
          if (!(*written)[k]) continue;
          const char *lo = base + k * heap::kPageSize;
          heap::ForEachRefSlotIn(t, ref, lo, lo + heap::kPageSize,
                                 [&](void **slot) { ScanSlot(p, slot); });
        }
      }
    }
    pi.scan = pi.used;
    return;
  }
  const BumpRegion &region = p.region();
  for (;;) {
    // The page being copied into grows while it is scanned.
    const uint32_t end = index == region.page ? uint32_t(region.ptr - base) : pi.used;
    if (pi.scan >= end) break;
    if (pi.scan == 0 && pi.persistent()) result_.persistent_pages_scanned++;
    uint32_t scan = pi.scan;
    do {
      void *ref = base + scan + heap::kWordSize;
      const cairn_type *t = heap::TypeOfHeader(heap::HeaderOf(ref));
      scan += uint32_t(heap::ObjectBytes(t, ref));
      ScanObject(p, t, ref);
    } while (scan < end);
    pi.scan = scan;
  }
}

template <class P>
void Collector::Closure(Work &w) {
  for (;;) {
    if (!w.objects.empty()) {
      void *ref = w.objects.back();
      w.objects.pop_back();
      const size_t i = pages_.IndexOf(ref);
      P p(*this, i, ref);
      if (table_[i].persistent() && !table_[i].modified()) [[unlikely]] {
        // A tenant of a clean page (P13): the page is opened only if a reference changes.
        bool open = false;
        heap::ForEachRefSlot(heap::TypeOfHeader(heap::HeaderOf(ref)), ref, [&](void **slot) {
          void *v = *slot;
          if (!v) return;
          void *moved = Trace(p, v);
          if (moved == v) return;
          if (!open) hooks_->OpenTenantPage(i);
          open = true;
          *slot = moved;
        });
        continue;
      }
      ScanObject(p, heap::TypeOfHeader(heap::HeaderOf(ref)), ref);
      continue;
    }
    if (!w.pages.empty()) {
      size_t i = w.pages.back();
      w.pages.pop_back();
      ScanPage<P>(i);
      continue;
    }
    if (!w.clean.empty()) {
      // A clean persistent page is never read here (P9, D10): the frames its objects refer to
      // were recorded when it was loaded or written, and are kept.
      size_t i = w.clean.back();
      w.clean.pop_back();
      if (const std::vector<uint32_t> *refs = hooks_->References(i))
        for (uint32_t f : *refs)
          if (table_[f].space == heap::Space::kPrevious) Promote(f, &w);
      continue;
    }
    bool more = false;  // the regions' pages, scanned as they fill (Cheney)
    for (const BumpRegion *r : w.regions)
      if (r->page != heap::kNoPage &&
          table_[r->page].scan < uint32_t(r->ptr - pages_.PageAddress(r->page))) {
        w.pages.push_back(uint32_t(r->page));
        more = true;
      }
    if (!more) break;
  }
}

template <class P>
__attribute__((always_inline)) inline void *Collector::Evacuate(P &p, void *ref, uintptr_t header) {
  void *moved = CopyObject(p, ref, header);
  heap::HeaderOf(ref) = reinterpret_cast<uintptr_t>(moved) | heap::kForwardedBit;  // C3
  return moved;
}

template <class P>
__attribute__((always_inline)) inline void *Collector::CopyObject(P &p, void *ref,
                                                                  uintptr_t header) {
  const cairn_type *t = heap::TypeOfHeader(header);
  const size_t bytes = heap::ObjectBytes(t, ref);
  char *dst = p.region().TryAlloc(bytes);
  if (!dst) [[unlikely]]
    dst = NewCopyPage(p, bytes);
  // Objects here are small (at most kLargeObjectBytes), 8-byte multiples of at least 16 bytes (a
  // header and a payload of at least one word).
  const uintptr_t *from = reinterpret_cast<const uintptr_t *>(ref) - 1;
  uintptr_t *to = reinterpret_cast<uintptr_t *>(dst);
  const size_t n = bytes / heap::kWordSize;
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
  p.Copied(t, bytes);
  return dst + heap::kWordSize;
}

template <class P>
__attribute__((noinline)) char *Collector::NewCopyPage(P &p, size_t bytes) {
  BumpRegion &region = p.region();
  Work &w = p.work();
  if (region.page != heap::kNoPage) {
    region.Sync(pages_);
    const heap::PageInfo &old = table_[region.page];
    result_.bytes_copied += old.used;
    if (old.scan < old.used) w.pages.push_back(uint32_t(region.page));  // C1
  } else {
    w.regions.push_back(&region);  // its first page in this collection
  }
  const size_t i = p.TakeCopyPage(bytes);
  if (pages_.pages_in_use() > result_.peak_pages) result_.peak_pages = pages_.pages_in_use();
  region.Start(pages_, i);
  if (P::kScanNewPagesFirst) w.pages.push_back(uint32_t(i));
  char *dst = region.TryAlloc(bytes);
  assert(dst);
  return dst;
}

}  // namespace cairn::gc
