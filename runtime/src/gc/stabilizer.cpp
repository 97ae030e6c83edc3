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
  StabilizePolicy(Collector &c, size_t page, const void *ref) : c(c), db(c.OwnerOf(page, ref)) {}

  // A new persistent page is scanned as soon as the page being scanned is done (depth first by
  // page: the stabilizer's order before it shared the loop, which OO7's figures were measured
  // with).
  static constexpr bool kScanNewPagesFirst = true;
  Work &work() { return c.stabilize_; }
  BumpRegion &region() { return c.persistent_copy_[db]; }
  size_t TakeCopyPage(size_t bytes) {
    // First the page the last stabilization of this database copied into last, after its
    // objects. Those of a page that was clean refer to persistent objects only (P9): only the
    // new ones are scanned. A modified one is a root of this stabilization, queued already.
    if (!c.open_page_asked_[db]) {
      c.open_page_asked_[db] = true;
      bool was_clean = false;
      const size_t open = c.hooks_->OpenCopyPage(db, bytes, &was_clean);
      if (open != heap::kNoPage) {
        PageInfo &pi = c.table_[open];
        assert(pi.persistent() && pi.db == db && pi.kind == PageKind::kSmall &&
               pi.space == Space::kCurrent && pi.used + bytes <= kPageSize);
        c.outcome_->continued.emplace_back(open, pi.used);
        if (was_clean) pi.scan = pi.used;
        c.result_.bytes_copied -= pi.used;  // counted whole when the region is done: its own
                                            // objects were not copied
        return open;
      }
    }
    size_t i = c.pages_.TakePage(Space::kCurrent, heap::Arena::kPersistent);
    if (i == heap::kNoPage)
      OutOfMemory(
          "out of memory during a commit: the heap's persistent arena (%llu MiB, half of %s) is "
          "full. Set CAIRN_HEAP_RESERVE_MB higher.",
          static_cast<unsigned long long>(c.pages_.reserved_bytes() >> 21),
          c.pages_.DescribeReservation().c_str());
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
  // The objects ambiguous roots point into (marked) must stay where they are: the first
  // database to reach one has it, on a page that becomes persistent in place (shared by the
  // databases that reach its objects, P12). The others are copied like those of the copy space,
  // except on a page already made persistent in place in this database, where they persist
  // where they are (P8).
  void *PinnedPage(size_t i, void *ref) {
    const PageInfo &pi = c.table_[i];
    const uintptr_t header = heap::HeaderOf(ref);
    if (heap::IsForwarded(header)) return Forwarded(heap::ForwardedTo(header));
    if (!c.IsMarked(i, ref)) {
      if (!pi.persistent() || pi.db != db) return c.Evacuate(*this, ref, header);
      c.Mark(i, ref);
      c.claims_.emplace(ref, db);
      return c.Claim(i, ref, db);  // the page's own database: nothing shared
    }
    if (!pi.persistent()) c.MakePersistentInPlace(i, db, true);
    auto [claim, first] = c.claims_.try_emplace(ref, db);
    if (first) return c.Claim(i, ref, db);
    if (claim->second != db) return OwnCopyOrRefuse(i, ref, header);
    return ref;
  }
  void *LargeObject(size_t head, void *ref) {
    if (c.table_[head].space == Space::kPrevious) c.Promote(head, nullptr);
    c.MakePersistentInPlace(head, db, false);
    return ref;
  }
  void *PersistentPage(size_t head, void *ref) {
    const PageInfo &pi = c.table_[head];
    const uint8_t owner = c.OwnerOf(head, ref);
    if (owner == db) return ref;
    if (owner == 0) return c.Adopt(head, ref, db);  // a tenant (P13): it persists now
    // Its header can be read only on a page that is resident and not cold (P9, P11: the
    // collector never faults a page in); on any other page the object is read from the store.
    if (!pi.resident() || (pi.flags & heap::kPageProtNone) != 0) return CopyStoredText(head, ref);
    return OwnCopyOrRefuse(head, ref, heap::HeaderOf(ref));
  }
  // OwnCopyOrRefuse for an object of a page the collector may not read: its stored form is.
  void *CopyStoredText(size_t head, void *ref) {
    auto known = c.text_copies_[db].find(ref);
    if (known != c.text_copies_[db].end()) return known->second;
    const cairn_type *t = c.hooks_->ReadStoredObject(head, ref, &c.stored_page_);
    if (t == nullptr || (t->flags & CAIRN_TYPE_TEXT) == 0) {
      c.RefuseCrossDatabase(db, head, ref, t);
      return ref;
    }
    const size_t offset = size_t(static_cast<char *>(ref) - c.pages_.PageAddress(head));
    void *copy = c.CopyObject(*this, c.stored_page_.data() + offset / kWordSize,
                              reinterpret_cast<uintptr_t>(t));
    c.text_copies_[db][ref] = copy;
    return copy;
  }
  // This database reaches ref, an object of another database (on its persistent page, or on a
  // page pinned for it). A text is immutable and has no identity a program can observe (`==`
  // compares contents), so this database gets a copy of its own: the slot that reached it is
  // given the copy, the original stays where it is (docs/persistence.md, "Limits"). Any other
  // object refuses the commit.
  void *OwnCopyOrRefuse(size_t page, void *ref, uintptr_t header) {
    if ((heap::TypeOfHeader(header)->flags & CAIRN_TYPE_TEXT) != 0 &&
        c.table_[page].kind != PageKind::kLargeHead) {
      void *&copy = c.text_copies_[db][ref];
      if (copy == nullptr) copy = c.CopyObject(*this, ref, header);
      return copy;
    }
    c.RefuseCrossDatabase(db, page, ref, heap::TypeOfHeader(header));
    return ref;
  }
};

CollectionResult Collector::Stabilize(const void *stack_top, std::span<const StabilizeRoot> roots,
                                      StabilizeOutcome *outcome) {
  outcome_ = outcome;
  for (bool &asked : open_page_asked_) asked = false;
  for (auto &copies : text_copies_) copies.clear();
  in_place_.clear();
  claims_.clear();
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
    tracing_root_ = true;  // a refusal now is of the root itself
    if (*r.slot) *r.slot = Trace(p, *r.slot);
    tracing_root_ = false;
  }
  Closure<StabilizePolicy>(stabilize_);
  LodgeTheRest();
  for (const BumpRegion *r : stabilize_.regions)
    if (r->page != heap::kNoPage) outcome_->last_copy_pages.push_back(r->page);
  return Finish();
}

void *Collector::Claim(size_t page, void *ref, uint8_t db) {
  if (db != table_[page].db) {
    Status s = hooks_->ShareObject(db, page, ref);  // P12
    if (!s.ok() && outcome_->status.ok()) outcome_->status = s;
  }
  const cairn_type *t = heap::TypeOfHeader(heap::HeaderOf(ref));
  CountPersistent(t, heap::ObjectBytes(t, ref), true);
  stabilize_.objects.push_back(ref);
  return ref;
}

void Collector::LodgeTheRest() {
  // Figure 2 would make them persistent with their page; the language says only what a
  // database reaches persists (docs/persistence.md). The collection's closure (Finish) scans
  // them: PinAmbiguous queued them.
  for (size_t head : in_place_) {
    if (table_[head].kind != PageKind::kSmall) continue;
    char *page = pages_.PageAddress(head);
    for (uint32_t o = 0; o < table_[head].used;) {
      void *ref = page + o + kWordSize;
      const size_t bytes = SlotBytes(ref);
      if (!heap::IsForwarded(heap::HeaderOf(ref)) && IsMarked(head, ref) &&
          claims_.count(ref) == 0) {
        claims_.emplace(ref, 0);
        hooks_->LodgeTenant(head, ref);
        tenants_live_.insert(ref);
      }
      o += uint32_t(bytes);
    }
  }
}

void *Collector::Adopt(size_t head, void *ref, uint8_t db) {
  Status s = hooks_->AdoptTenant(db, head, ref);
  if (!s.ok() && outcome_->status.ok()) outcome_->status = s;
  outcome_->adopted.push_back(head);
  const cairn_type *t = heap::TypeOfHeader(heap::HeaderOf(ref));
  CountPersistent(t, heap::ObjectBytes(t, ref), true);
  stabilize_.objects.push_back(ref);
  return ref;
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
  // is the objects ambiguous roots point into (marked), which cannot move, each in the database
  // that reaches it first (P12), and those its database reaches from now on. The marked ones no
  // database reaches stay transient where they are (tenants, P13: LodgeTheRest); its other
  // objects are copied out if something reaches them, and become fillers otherwise (P8): a dead
  // neighbour persists nothing.
  outcome_->pages_ambiguous++;
  result_.persistent_pages_scanned++;
  in_place_.push_back(head);
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

// Database db reaches the object at ref, on page `index`, of another database: the commit is
// refused (the first such error is kept). The object is not read (its page may not be): `t` is
// its type when the caller knows it, else null.
void Collector::RefuseCrossDatabase(uint8_t db, size_t index, const void *ref,
                                    const cairn_type *t) {
  if (!outcome_->status.ok()) return;
  const std::string here = hooks_->DatabaseName(db),
                    there = hooks_->DatabaseName(OwnerOf(index, ref));
  // The object may be new: reached from both databases in this commit, it is the one's that
  // reached it first (which the program did not choose), and the message says so.
  const std::string what =
      "an object " + (t != nullptr ? "of type '" + std::string(t->name) + "' " : "") + "of " +
      there + " (stored there, or new and reached from " + there + " first in this commit)";
  // A text is copied unless it is longer than a page's room, so a text refused is a long one;
  // an object whose type is not known (its page not read) may be one.
  const bool text = t != nullptr && (t->flags & CAIRN_TYPE_TEXT) != 0;
  const std::string builder =
      "copy such a text first, with std.text's Builder (b.add(t), then b.text(); slice(t, 0, "
      "len(t)) and t + \"\" are t itself)";
  const std::string apart =
      tracing_root_ ? "give " + here + " a root of its own, or a copy made field by field"
                    : "keep each database's objects apart: give " + here +
                          " a copy of its own, made field by field";
  const std::string advice =
      text ? "a text of another database is copied, unless it is longer than 4,080 bytes, as "
             "this one is: " +
                 builder
      : t != nullptr ? apart
                     : apart +
                           "; a text of another database is copied instead, unless it is "
                           "longer than 4,080 bytes: " +
                           builder;
  outcome_->status = Status(
      CAIRN_INVALID_ARGUMENT,
      (tracing_root_ ? "the root of " + here + " is " : "an object of " + here + " refers to ") +
          what +
          "; references between databases are not supported: the commit is refused and "
          "nothing of it was written (" +
          advice + ")");
}

}  // namespace cairn::gc
