// Stabilization: the tracing loop run from the database roots and the modified persistent pages
// with the stabilizer's policy, which makes whatever they reach persistent (Figure 2 of
// ../shared/papers/mostly-copying-persistence-pm3.txt). See collector.h.
#include <cassert>

#include "gc/collector.h"
#include "gc/trace_loop.h"
#include "heap/object.h"
#include "util/fatal.h"

namespace cairn::gc {

using heap::kPageSize;
using heap::kWordSize;
using heap::PageInfo;
using heap::PageKind;
using heap::Space;

// --- The stabilizer's policy (collector.h's table), for the objects of database `db` ----------

struct Collector::StabilizePolicy {
  Collector &c;
  const uint8_t db;
  StabilizePolicy(Collector &c, uint8_t db) : c(c), db(db) {}
  StabilizePolicy(Collector &c, const PageInfo &from) : c(c), db(from.db) {}

  // A new persistent page is scanned as soon as the page being scanned is done (depth first by
  // page: the stabilizer's order before it shared the loop, which OO7's figures were measured
  // with).
  static constexpr bool kScanNewPagesFirst = true;
  Work &work() { return c.stabilize_; }
  BumpRegion &region() { return c.persistent_copy_[db]; }
  size_t TakeCopyPage() {
    size_t i = c.pages_.TakePage(Space::kCurrent, heap::Arena::kPersistent);
    if (i == heap::kNoPage)
      OutOfMemory(
          "out of memory during a commit: the heap's persistent arena (%llu MiB) is full. Set "
          "CAIRN_HEAP_RESERVE_MB higher.",
          static_cast<unsigned long long>(c.pages_.reserved_bytes() >> 21));
    Status s = c.hooks_->MakePersistent(db, i, 1);
    if (!s.ok() && c.outcome_->status.ok()) c.outcome_->status = s;
    c.outcome_->made_persistent.push_back(i);
    c.outcome_->pages_accurate++;
    return i;
  }
  void Copied(const cairn_type *t, size_t bytes) { c.CountPersistent(t, bytes, false); }

  // Copied already, into this database's pages or another's: the copy says which.
  void *Forwarded(void *to) { return c.Trace(*this, to); }
  void *CopySpace(void *ref, uintptr_t header) { return c.Evacuate(*this, ref, header); }
  // Only the objects ambiguous roots point into (marked) must stay where they are; the others
  // are copied like those of the copy space, except on a page already made persistent in place
  // in this database, where they persist where they are (P8).
  void *PinnedPage(size_t i, void *ref) {
    const PageInfo &pi = c.table_[i];
    const uintptr_t header = heap::HeaderOf(ref);
    if (heap::IsForwarded(header)) return Forwarded(heap::ForwardedTo(header));
    if (!c.IsMarked(i, ref)) {
      if (!pi.persistent() || pi.db != db) return c.Evacuate(*this, ref, header);
      c.Mark(i, ref);
      c.CountPersistent(heap::TypeOfHeader(header),
                        heap::ObjectBytes(heap::TypeOfHeader(header), ref), true);
      c.stabilize_.objects.push_back(ref);
      return ref;
    }
    if (!pi.persistent())
      c.MakePersistentInPlace(i, db, true);
    else if (pi.db != db)
      return OwnCopyOrRefuse(i, ref, header, true);
    return ref;
  }
  void *LargeObject(size_t head, void *ref) {
    if (c.table_[head].space == Space::kPrevious) c.Promote(head, nullptr);
    c.MakePersistentInPlace(head, db, false);
    return ref;
  }
  void *PersistentPage(size_t head, void *ref) {
    const PageInfo &pi = c.table_[head];
    if (pi.db == db) return ref;
    // Its header can be read only on a page that is resident and not cold (P9, P11: the
    // collector never faults a page in); a reference to any other is refused unread.
    if (!pi.resident() || (pi.flags & heap::kPageProtNone) != 0) {
      c.RefuseCrossDatabase(db, head, ref, false);
      return ref;
    }
    return OwnCopyOrRefuse(head, ref, heap::HeaderOf(ref), false);
  }
  // This database reaches ref, an object of another database (on its persistent page, or on a
  // page pinned for it). A text is immutable and has no identity a program can observe (`==`
  // compares contents), so this database gets a copy of its own: the slot that reached it is
  // given the copy, the original stays where it is (docs/persistence.md, "Limits"). Any other
  // object refuses the commit.
  void *OwnCopyOrRefuse(size_t page, void *ref, uintptr_t header, bool same_page) {
    if ((heap::TypeOfHeader(header)->flags & CAIRN_TYPE_TEXT) != 0 &&
        c.table_[page].kind != PageKind::kLargeHead) {
      void *&copy = c.text_copies_[db][ref];
      if (copy == nullptr) copy = c.CopyObject(*this, ref, header);
      return copy;
    }
    c.RefuseCrossDatabase(db, page, ref, same_page);
    return ref;
  }
};

CollectionResult Collector::Stabilize(const void *stack_top, std::span<const StabilizeRoot> roots,
                                      StabilizeOutcome *outcome) {
  outcome_ = outcome;
  for (auto &copies : text_copies_) copies.clear();
  // Figure 2, lines 18-21: every persistent page stays (a stabilization flips transient pages
  // only). The modified ones (the only ones that may reference transient objects, P9) are where
  // the closure starts.
  Begin(false);
  for (uint32_t i : hooks_->ModifiedPages()) {
    table_[i].scan = 0;
    stabilize_.pages.push_back(i);
  }
  roots_.ForEachAmbiguousWord(stack_top, [this](uintptr_t w) { PinAmbiguous(w); });
  for (const StabilizeRoot &r : roots) {
    StabilizePolicy p(*this, r.db);
    if (*r.slot) *r.slot = Trace(p, *r.slot);
  }
  Closure<StabilizePolicy>(stabilize_);
  return Finish();
}

// A large object's run, or a pinned page holding objects an ambiguous root points into, becomes
// persistent where it is, in database db, and what persists on it is queued to be scanned.
void Collector::MakePersistentInPlace(size_t head, uint8_t db, bool ambiguous) {
  PageInfo &h = table_[head];
  size_t n = h.kind == PageKind::kLargeHead ? h.run : 1;
  Status s = hooks_->MakePersistent(db, head, n);
  if (!s.ok() && outcome_->status.ok()) outcome_->status = s;
  outcome_->made_persistent.push_back(head);
  char *page = pages_.PageAddress(head);
  if (!ambiguous) {
    outcome_->pages_large += n;
    void *ref = page + kWordSize;
    CountPersistent(heap::TypeOfHeader(heap::HeaderOf(ref)), SlotBytes(ref), false);
    h.scan = 0;
    stabilize_.pages.push_back(uint32_t(head));
    return;
  }
  // A pinned page stays pinned until the collection ends: its mark table and forwarding words
  // are still in use (FillDeadPinnedObjects turns the latter into fillers). What persists on it
  // is the objects ambiguous roots point into (marked), which cannot move, and those its
  // database reaches from now on; its other objects are copied out if something reaches them,
  // and become fillers otherwise (P8): a dead neighbour persists nothing.
  outcome_->pages_ambiguous++;
  result_.persistent_pages_scanned++;
  for (uint32_t o = 0; o < h.used;) {
    void *ref = page + o + kWordSize;
    size_t bytes = SlotBytes(ref);
    if (!heap::IsForwarded(heap::HeaderOf(ref)) && IsMarked(head, ref)) {
      CountPersistent(heap::TypeOfHeader(heap::HeaderOf(ref)), bytes, true);
      stabilize_.objects.push_back(ref);
    }
    o += uint32_t(bytes);
  }
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

// Database db reaches the object at ref, on page `index` of another database: the commit is
// refused (the first such error is kept). same_page: the two share a page pinned by the stack.
void Collector::RefuseCrossDatabase(uint8_t db, size_t index, const void *ref, bool same_page) {
  if (!outcome_->status.ok()) return;
  const std::string here = hooks_->DatabaseName(db), there = hooks_->DatabaseName(table_[index].db);
  if (same_page) {
    outcome_->status = Status(
        CAIRN_INVALID_ARGUMENT,
        "database '" + here + "' reaches an object of type '" +
            heap::TypeOfHeader(heap::HeaderOf(ref))->name +
            "' that lies on the same heap page as an object of database '" + there +
            "', and a local variable or register holds both (or words on the stack that look "
            "like their addresses). Objects that the stack holds cannot move, and a page belongs "
            "to one database, so the commit is refused and nothing of it was written. Abort the "
            "transaction; then commit with fewer objects of different databases held in "
            "variables, or create each database's objects in a separate phase "
            "(docs/persistence.md)");
    return;
  }
  outcome_->status =
      Status(CAIRN_INVALID_ARGUMENT,
             "an object of database '" + here + "' refers to an object of database '" + there +
                 "'; references between databases are not supported: the commit is refused and "
                 "nothing of it was written (abort the transaction, then keep each database's "
                 "objects apart). An object that variables held when a commit of '" +
                 there + "' made its heap page persistent is in '" + there +
                 "' even if nothing of it refers to the object: make each database's objects "
                 "in a function of its own. A text of another database is copied instead when "
                 "it is smaller than a heap page and this process has read it since it was "
                 "last written out (docs/persistence.md)");
}

}  // namespace cairn::gc
