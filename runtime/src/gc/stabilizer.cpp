// Collector::Stabilize: the closure from the persistent pages that makes whatever they reach
// persistent (Figure 2 of ../shared/papers/mostly-copying-persistence-pm3.txt). See collector.h.
#include <cassert>

#include "gc/collector.h"
#include "heap/object.h"
#include "types/type_registry.h"
#include "util/fatal.h"

namespace cairn::gc {

using heap::kPageSize;
using heap::kWordSize;
using heap::PageInfo;
using heap::PageKind;
using heap::Space;

CollectionResult Collector::Stabilize(const void *stack_top, std::span<const StabilizeRoot> roots,
                                      StabilizeOutcome *outcome) {
  outcome_ = outcome;
  Begin();
  // Figure 2, lines 18-21: every persistent page stays. The modified ones (the only ones that may
  // reference transient objects, P9) are where the closure starts.
  pages_.ForEachTouchedPage([this](size_t i) {
    const PageInfo &pi = table_[i];
    if (pi.space != Space::kPrevious || !pi.persistent() || pi.kind == PageKind::kLargeTail) return;
    Promote(i, false);
    if (pi.modified()) stab_stack_.push_back(uint32_t(i));
  });
  roots_.ForEachAmbiguousWord(stack_top, [this](uintptr_t w) { PinAmbiguous(w); });
  for (const StabilizeRoot &r : roots)
    if (*r.slot) *r.slot = StabilizeRef(*r.slot, r.db);
  StabilizerClosure();
  return Finish();
}

void *Collector::StabilizeRef(void *ref, uint8_t db) {
  uintptr_t off = uintptr_t(ref) - uintptr_t(base_);
  size_t i = off >> heap::kPageShift;
  if (i >= covered_pages_) return ref;
  PageInfo &pi = table_[i];
  if (pi.space == Space::kFree) return ref;  // not an object: the verifier reports it
  size_t head = pi.kind == PageKind::kLargeTail ? i - pi.run : i;
  if (pi.kind == PageKind::kSmall && (pi.flags & heap::kPagePinned)) {
    // A page pinned by an ambiguous root (perhaps made persistent in place already). An object
    // copied out of it left a forwarding word, followed until the collection ends.
    uintptr_t header = heap::HeaderOf(ref);
    if (heap::IsForwarded(header)) return StabilizeRef(heap::ForwardedTo(header), db);
    if (pi.persistent()) {
      if (pi.db != db && outcome_->status.ok())
        outcome_->status = Status(
            CAIRN_INVALID_ARGUMENT,
            "database '" + hooks_->DatabaseName(db) + "' reaches an object of type '" +
                heap::TypeOfHeader(header)->name +
                "' that lies on the same heap page as an "
                "object of database '" +
                hooks_->DatabaseName(pi.db) +
                "', and a local variable "
                "or register holds both (or words on the stack that look like their addresses). "
                "Objects that the stack holds cannot move, and a page belongs to one database, "
                "so the commit is refused and nothing of it was written. Abort the transaction; "
                "then commit with fewer objects of different databases held in variables, or "
                "create each database's objects in a separate phase (docs/persistence.md)");
      return ref;
    }
    // Only the objects ambiguous roots point into must stay where they are; any other object
    // on the page is copied like one in previous space.
    if (!IsMarked(head, ref)) return PersistentCopy(ref, header, db);
    MakePersistentInPlace(head, db, true);
    return ref;
  }
  if (pi.persistent()) {
    if (pi.db != db && outcome_->status.ok())
      outcome_->status = Status(
          CAIRN_INVALID_ARGUMENT,
          "an object of database '" + hooks_->DatabaseName(db) +
              "' refers to an object of "
              "database '" +
              hooks_->DatabaseName(pi.db) +
              "'; references between databases are "
              "not supported: the commit is refused and nothing of it was written (abort the "
              "transaction, then keep each database's objects apart)");
    return ref;
  }
  if (pi.space == Space::kPrevious) {
    if (pi.kind != PageKind::kSmall) {
      Promote(head, false);
      MakePersistentInPlace(head, db, false);
      return ref;
    }
    uintptr_t header = heap::HeaderOf(ref);
    if (heap::IsForwarded(header)) {
      // Already copied into some database's page by this stabilization.
      return StabilizeRef(heap::ForwardedTo(header), db);
    }
    return PersistentCopy(ref, header, db);
  }
  // A large object an ambiguous root promoted: it becomes persistent where it is.
  MakePersistentInPlace(head, db, false);
  return ref;
}

void Collector::MakePersistentInPlace(size_t head, uint8_t db, bool ambiguous) {
  PageInfo &h = table_[head];
  size_t n = h.kind == PageKind::kLargeHead ? h.run : 1;
  Status s = hooks_->AssignPageIds(db, head, n);
  if (!s.ok()) {
    if (outcome_->status.ok()) outcome_->status = s;
    return;
  }
  for (size_t k = 0; k < n; k++) {
    // A pinned page stays pinned until the collection ends: its mark table and forwarding
    // words are still in use (FillDeadPinnedObjects turns the latter into fillers).
    table_[head + k].db = db;
    table_[head + k].flags |= heap::kPageResident | heap::kPageModified;
  }
  outcome_->made_persistent.push_back(head);
  if (ambiguous) {
    outcome_->pages_ambiguous++;
    in_place_[head] = db;
  } else {
    outcome_->pages_large += n;
  }
  // Everything on the page persists now, whatever was marked (objects copied out of it already
  // are counted where they went).
  char *page = pages_.PageAddress(head);
  uint32_t end = h.kind == PageKind::kLargeHead ? kWordSize : h.used;
  for (uint32_t o = 0; o < end;) {
    void *ref = page + o + kWordSize;
    size_t bytes = SlotBytes(ref);
    if (!heap::IsForwarded(heap::HeaderOf(ref)))
      CountPersistent(heap::TypeOfHeader(heap::HeaderOf(ref)), bytes, ambiguous);
    o += uint32_t(bytes);
  }
  if (!ambiguous) h.scan = 0;  // a pinned page keeps its mark-table slot in `scan`
  stab_stack_.push_back(uint32_t(head));
}

void *Collector::PersistentCopy(void *ref, uintptr_t header, uint8_t db) {
  const cairn_type *t = heap::TypeOfHeader(header);
  size_t bytes = heap::ObjectBytes(t, ref);
  BumpRegion &region = persistent_copy_[db];
  char *dst = region.TryAlloc(bytes);
  if (!dst) {
    if (region.page != heap::kNoPage) {
      // Objects copied into the full page since it was last scanned still need scanning.
      size_t full = region.page;
      region.Retire(pages_);
      result_.bytes_copied += table_[full].used;
      if (table_[full].scan < table_[full].used) stab_stack_.push_back(uint32_t(full));
    }
    size_t i = pages_.TakePage(Space::kCurrent, heap::Arena::kPersistent);
    if (i == heap::kNoPage)
      Fatal(
          "out of memory during a commit: the heap's persistent arena (%llu MiB) is full. Set "
          "CAIRN_HEAP_RESERVE_MB higher.",
          static_cast<unsigned long long>(pages_.reserved_bytes() >> 21));
    Status s = hooks_->AssignPageIds(db, i, 1);
    if (!s.ok() && outcome_->status.ok()) outcome_->status = s;
    PageInfo &pi = table_[i];
    pi.db = db;
    pi.flags |= heap::kPageResident | heap::kPageModified;
    outcome_->made_persistent.push_back(i);
    outcome_->pages_accurate++;
    if (pages_.pages_in_use() > result_.peak_pages) result_.peak_pages = pages_.pages_in_use();
    region.Start(pages_, i);
    stab_stack_.push_back(uint32_t(i));
    dst = region.TryAlloc(bytes);
    assert(dst);
  }
  const uintptr_t *from = reinterpret_cast<const uintptr_t *>(ref) - 1;
  uintptr_t *to = reinterpret_cast<uintptr_t *>(dst);
  to[0] = header;
  for (size_t w = 1, n = bytes / kWordSize; w < n; w++) to[w] = from[w];
  void *moved = dst + kWordSize;
  heap::HeaderOf(ref) = reinterpret_cast<uintptr_t>(moved) | heap::kForwardedBit;
  CountPersistent(t, bytes, false);
  return moved;
}

void Collector::CountPersistent(const cairn_type *t, size_t bytes, bool ambiguous) {
  StabilizeOutcome::TypeCount &c = outcome_->per_type[t];
  c.objects++;
  c.bytes += bytes;
  if (ambiguous) {
    c.objects_ambiguous++;
    c.bytes_ambiguous += bytes;
  }
}

void Collector::StabilizeScanPage(size_t index) {
  PageInfo &pi = table_[index];
  const uint8_t db = pi.db;
  char *base = pages_.PageAddress(index);
  auto stabilize_slots = [&](const cairn_type *t, void *ref) {
    heap::ForEachRefSlot(t, ref, [&](void **slot) {
      void *v = *slot;
      if (!v) return;
      void *moved = StabilizeRef(v, db);
      if (moved != v) *slot = moved;
    });
  };
  if (pi.kind == PageKind::kLargeHead) {
    void *ref = base + kWordSize;
    if (pi.scan == 0) stabilize_slots(heap::TypeOfHeader(heap::HeaderOf(ref)), ref);
    pi.scan = pi.used;
    return;
  }
  if (pi.flags & heap::kPagePinned) {  // made persistent in place: scanned whole, once
    for (uint32_t o = 0; o < pi.used;) {
      void *ref = base + o + kWordSize;
      size_t bytes = SlotBytes(ref);
      if (!heap::IsForwarded(heap::HeaderOf(ref)))
        stabilize_slots(heap::TypeOfHeader(heap::HeaderOf(ref)), ref);
      o += uint32_t(bytes);
    }
    return;
  }
  auto it = persistent_copy_.find(db);
  for (;;) {
    // A page being copied into grows while it is scanned.
    const BumpRegion *region = it != persistent_copy_.end() ? &it->second : nullptr;
    uint32_t end = region && region->page == index ? uint32_t(region->ptr - base) : pi.used;
    if (pi.scan >= end) break;
    void *ref = base + pi.scan + kWordSize;
    const cairn_type *t = heap::TypeOfHeader(heap::HeaderOf(ref));
    pi.scan += uint32_t(heap::ObjectBytes(t, ref));
    stabilize_slots(t, ref);
    it = persistent_copy_.find(db);  // the map may have grown
  }
}

void Collector::StabilizerClosure() {
  for (;;) {
    if (!stab_stack_.empty()) {
      size_t i = stab_stack_.back();
      stab_stack_.pop_back();
      StabilizeScanPage(i);
      continue;
    }
    bool more = false;
    for (auto &[db, region] : persistent_copy_) {
      if (region.page == heap::kNoPage) continue;
      if (table_[region.page].scan < uint32_t(region.ptr - pages_.PageAddress(region.page))) {
        stab_stack_.push_back(uint32_t(region.page));
        more = true;
      }
    }
    if (!more) break;
  }
}

}  // namespace cairn::gc
