// Collector: what both plans share (flip, ambiguous roots, pinned pages, finishing), Collect, and
// the collection's policy. The tracing loop is gc/trace_loop.h; stabilization, stabilizer.cpp.
#include "gc/collector.h"

#include <cassert>
#include <cstring>

#include "gc/trace_loop.h"
#include "heap/object.h"
#include "types/type_registry.h"
#include "util/fatal.h"

namespace cairn::gc {

using heap::kPageSize;
using heap::kWordSize;
using heap::PageInfo;
using heap::PageKind;
using heap::Space;

// --- The collection's policy (collector.h's table) ------------------------------------------

struct Collector::CollectPolicy {
  Collector &c;
  explicit CollectPolicy(Collector &c) : c(c) {}
  CollectPolicy(Collector &c, const PageInfo &) : c(c) {}
  CollectPolicy(Collector &c, size_t, const void *) : c(c) {}

  static constexpr bool kScanNewPagesFirst = false;  // Cheney: copy pages scanned last
  Work &work() { return c.collect_; }
  BumpRegion &region() { return c.copy_; }
  size_t TakeCopyPage(size_t /*bytes*/) {
    size_t i = c.pages_.TakePage(Space::kCurrent);
    if (i == heap::kNoPage)
      OutOfMemory(
          "out of memory during a collection: all %llu MiB of the heap's transient arena (of "
          "%s) are in use. %s.",
          static_cast<unsigned long long>(c.pages_.largest_object_bytes() >> 20),
          c.pages_.DescribeReservation().c_str(), c.pages_.ReserveAdvice(true).c_str());
    return i;
  }
  void Copied(const cairn_type *, size_t) {}

  void *Forwarded(void *to) { return to; }
  void *CopySpace(void *ref, uintptr_t header) { return c.Evacuate(*this, ref, header); }
  // A pinned page's object stays and is marked, unless the stabilizer copied it out (it was
  // not pointed into by an ambiguous root), in which case the reference follows it. On a page
  // the stabilizer made persistent in place, only the marked objects (those ambiguous roots
  // point into, and those the stabilizer reached) persist (P8): one that only transient objects
  // reach is copied out like any transient object, so that the page keeps nothing it would have
  // to write with transient references.
  void *PinnedPage(size_t i, void *ref) {
    const uintptr_t header = heap::HeaderOf(ref);
    if (heap::IsForwarded(header)) return heap::ForwardedTo(header);
    if (c.table_[i].persistent() && !c.IsMarked(i, ref)) return c.Evacuate(*this, ref, header);
    if (c.Mark(i, ref)) c.collect_.objects.push_back(ref);
    return ref;
  }
  // Large objects and persistent pages are promoted, never copied.
  void *LargeObject(size_t head, void *ref) {
    if (c.table_[head].space == Space::kPrevious) c.Promote(head, &c.collect_);
    return ref;
  }
  // A tenant of a persistent page (P13) is live, and scanned, when something reaches it.
  void *PersistentPage(size_t head, void *ref) {
    if (c.table_[head].flags & heap::kPageShared) [[unlikely]]
      c.MarkTenant(head, ref);
    return LargeObject(head, ref);
  }
};

// --- Both plans --------------------------------------------------------------------------------

void Collector::Work::Clear() {
  objects.clear();
  pages.clear();
  clean.clear();
  regions.clear();
}

void Collector::Begin(bool release_frames) {
  release_ = release_frames && hooks_;
  result_ = CollectionResult{};
  result_.peak_pages = pages_.pages_in_use();
  for (BumpRegion *r : stabilize_.regions) *r = BumpRegion{};  // the others are unused
  copy_ = BumpRegion{};
  collect_.Clear();
  stabilize_.Clear();
  pinned_.clear();
  tenants_live_.clear();
  base_ = pages_.base();
  covered_pages_ = uint32_t(pages_.capacity());
  table_ = pages_.table();
  Flip();
}

CollectionResult Collector::Finish() {
  // Exact roots after every ambiguous root: a page pinned later must not have lost objects.
  CollectPolicy p(*this);
  roots_.ForEachExactSlot([&](void **slot) {
    if (*slot) *slot = Trace(p, *slot);
  });
  Closure<CollectPolicy>(collect_);
  for (Work *w : {&stabilize_, &collect_})
    for (BumpRegion *r : w->regions) {
      r->Sync(pages_);
      result_.bytes_copied += pages_.Info(r->page).used;
    }
  if (hashes_)
    hashes_->Relocate([this](uintptr_t a) {
      return reinterpret_cast<uintptr_t>(Survivor(reinterpret_cast<void *>(a)));
    });
  // Tenants (P13) nothing reached die; the pages opened to update tenants are protected again.
  if (hooks_)
    hooks_->SweepTenants([this](const void *ref) { return tenants_live_.count(ref) != 0; });
  FillDeadPinnedObjects();
  bool strays = FreePrevious();
  pages_.RebuildFreeList(!release_ && !strays);
  if (release_) hooks_->FramesReleased();
  result_.released_frames = release_;
  result_.copy_region = copy_;
  outcome_ = nullptr;
  return result_;
}

CollectionResult Collector::Collect(const void *stack_top, bool release_frames) {
  Begin(release_frames);
  // Figure 4: modified persistent pages stay, and may reference transient objects.
  if (hooks_) {
    for (uint32_t i : hooks_->ModifiedPages()) {
      if (table_[i].space == Space::kPrevious) {
        Promote(i, &collect_);
      } else {
        table_[i].scan = 0;
        collect_.pages.push_back(i);
      }
    }
  }
  roots_.ForEachAmbiguousWord(stack_top, [this](uintptr_t w) { PinAmbiguous(w); });
  return Finish();
}

// Every page in use goes to previous space; persistent pages only in a collection that releases
// frames (the others leave them in current space, where nothing moves them).
void Collector::Flip() {
  auto flip = [this](size_t i) {
    PageInfo &pi = table_[i];
    if (pi.space == Space::kCurrent && (release_ || !pi.persistent())) {
      pi.space = Space::kPrevious;
      pi.flags &= uint8_t(~heap::kPagePinned);
      pi.scan = 0;
    }
  };
  if (release_) {
    pages_.ForEachTouchedPage(flip);
  } else {
    pages_.ForEachTouchedPage(heap::Arena::kTransient, flip);  // P10: persistent frames above,
    if (hooks_)                                                // and a failed commit's pages
      for (uint32_t i : hooks_->StrayPages()) flip(i);
  }
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
    // A large object's whole run, or a persistent page: kept whole, scanned if resident. A
    // tenant (P13) the word points into is live.
    if (pi.flags & heap::kPageShared) [[unlikely]]
      PinTenant(i, uint32_t(off & (kPageSize - 1)));
    if (pi.kind == PageKind::kLargeTail) i -= pi.run;
    const PageInfo &head = table_[i];
    if (head.space != Space::kPrevious) return;
    result_.pages_pinned += head.large() ? head.run : 1;
    Promote(i, &collect_);
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
      if (Mark(i, ref)) collect_.objects.push_back(ref);
      if (pos < o + bytes) return;
    }
    o += bytes;
  }
}

// R1 on a shared persistent page (P12): the tenant (P13) the word at `pos` points into, or one
// past the end of, is live. Its page is resident and not cold (tenant pages are never evicted
// or cooled), so it can be read.
void Collector::PinTenant(size_t i, uint32_t pos) {
  const PageInfo &pi = table_[i];
  if (!pi.resident() || (pi.flags & heap::kPageProtNone) != 0) return;
  char *page = pages_.PageAddress(i);
  for (uint32_t o = 0; o < pi.used;) {
    void *ref = page + o + kWordSize;
    uint32_t bytes = uint32_t(heap::ObjectBytes(heap::TypeOfHeader(heap::HeaderOf(ref)), ref));
    if (pos <= o + bytes) {
      MarkTenant(i, ref);
      if (pos < o + bytes) return;
    }
    o += bytes;
  }
}

void Collector::MarkTenant(size_t head, void *ref) {
  if (OwnerOf(head, ref) != 0 || !tenants_live_.insert(ref).second) return;
  collect_.objects.push_back(ref);  // its references are updated in place (Closure)
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

bool Collector::Mark(size_t index, const void *ref) {
  PinnedPage &pp = pinned_[table_[index].scan];
  size_t w = (uintptr_t(ref) & (kPageSize - 1)) / kWordSize;
  uint64_t bit = uint64_t{1} << (w % 64);
  if (pp.marks[w / 64] & bit) return false;
  pp.marks[w / 64] |= bit;
  return true;
}

bool Collector::IsMarked(size_t index, const void *ref) const {
  const PinnedPage &pp = pinned_[table_[index].scan];
  size_t w = (uintptr_t(ref) & (kPageSize - 1)) / kWordSize;
  return pp.marks[w / 64] >> (w % 64) & 1;
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
  if (pi.persistent() && !pi.pinned()) {  // never moved (and maybe not resident: no reading)
    if (pi.space != Space::kCurrent) return nullptr;
    if ((pi.flags & heap::kPageShared) && OwnerOf(i, ref) == 0 && !tenants_live_.count(ref))
      return nullptr;  // a tenant nothing reached (P13)
    return ref;
  }
  uintptr_t header = heap::HeaderOf(ref);
  if (heap::IsForwarded(header)) return heap::ForwardedTo(header);  // copied
  if (pi.space == Space::kPrevious) return nullptr;                 // not reached
  if (!pi.pinned()) return ref;
  return IsMarked(i, ref) ? ref : nullptr;
}

void Collector::FillDeadPinnedObjects() {
  auto &registry = types::TypeRegistry::Get();
  for (const PinnedPage &pp : pinned_) {
    PageInfo &pi = pages_.Info(pp.index);
    // Marked objects stay; the places of objects copied out of the page and its dead objects
    // become fillers, on a page made persistent in place as on a transient one (P8).
    char *page = pages_.PageAddress(pp.index);
    for (uint32_t o = 0; o < pi.used;) {
      void *ref = page + o + kWordSize;
      uint32_t bytes = uint32_t(SlotBytes(ref));  // an object copied out leaves a forwarding word
      size_t w = (o + kWordSize) / kWordSize;
      bool dead = heap::IsForwarded(heap::HeaderOf(ref)) || !(pp.marks[w / 64] >> (w % 64) & 1);
      if (dead) {
        // Its bytes are zeroed too: the page may be written to a database (made persistent in
        // place now or by a later commit), and nothing of an object the database does not
        // reach may be in the store's files (a password read and dropped, an object only a
        // module variable holds, which was copied out).
        heap::HeaderOf(ref) = reinterpret_cast<uintptr_t>(registry.FillerType(bytes - kWordSize));
        std::memset(ref, 0, bytes - kWordSize);
      }
      o += bytes;
    }
    pi.scan = pi.used;
    // A persistent page is not flipped by the next collection unless it releases frames: it
    // must not look pinned to it.
    if (pi.persistent()) pi.flags &= uint8_t(~heap::kPagePinned);
  }
}

void Collector::Promote(size_t index, Work *w) {
  PageInfo &pi = table_[index];
  assert(pi.space == Space::kPrevious && pi.kind != PageKind::kLargeTail);
  size_t n = pi.kind == PageKind::kLargeHead ? pi.run : 1;
  for (size_t k = 0; k < n; k++) table_[index + k].space = Space::kCurrent;
  result_.pages_promoted += n;
  // A persistent page that is not resident has nothing to scan (and must not be read, P9); a
  // clean one is not read either: the references recorded for it are followed (D10).
  if (!w || (pi.persistent() && !pi.resident())) return;
  if (pi.persistent() && !pi.modified())
    w->clean.push_back(uint32_t(index));
  else
    w->pages.push_back(uint32_t(index));
}

bool Collector::FreePrevious() {
  auto free = [this](size_t i) {
    PageInfo &pi = pages_.Info(i);
    if (pi.kind == PageKind::kLargeTail) return;
    if (pi.space == Space::kPrevious) {
      if (pi.persistent()) {
        // Figure 4: a clean persistent page nothing reached gives up its frame.
        assert(!pi.modified());
        size_t n = pi.kind == PageKind::kLargeHead ? pi.run : 1;
        if (hooks_) hooks_->ReleaseFrame(i);
        result_.frames_released += n;
      }
      pages_.Release(i);
    } else if (pi.space == Space::kCurrent && !pi.persistent()) {
      result_.live_bytes += pi.used;
    }
  };
  bool strays = false;
  if (release_) {
    pages_.ForEachTouchedPage(free);
  } else {
    pages_.ForEachTouchedPage(heap::Arena::kTransient, free);
    if (hooks_)
      for (uint32_t i : hooks_->StrayPages()) {
        free(i);
        strays = true;
      }
  }
  if (hooks_) hooks_->PruneStrayPages();
  return strays;
}

}  // namespace cairn::gc
