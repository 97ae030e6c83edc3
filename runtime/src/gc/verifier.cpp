#include "gc/verifier.h"

#include <array>
#include <cinttypes>
#include <cstdarg>
#include <cstdio>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "heap/object.h"
#include "types/type_registry.h"

namespace cairn::gc {

using heap::kPageSize;
using heap::kWordSize;
using heap::PageInfo;
using heap::PageKind;
using heap::Space;

namespace {

class Verifier {
 public:
  Verifier(const heap::PageHeap &pages, const Roots &roots, PersistHooks *hooks, size_t max_report)
      : pages_(pages), roots_(roots), hooks_(hooks), max_report_(max_report) {}

  size_t Run() {
    pages_.ForEachTouchedPage([this](size_t i) { CheckPage(i); });
    // The counts C1 of gc/gc_heap.h decides by (kept by PageHeap as pages are taken and freed).
    size_t in_use = 0, small = 0, dirty_free = 0;
    pages_.ForEachTouchedPage(heap::Arena::kTransient, [&](size_t i) {
      const PageInfo &pi = pages_.Info(i);
      in_use += pi.space != Space::kFree;
      small += pi.space != Space::kFree && pi.kind == PageKind::kSmall;
      dirty_free += pi.space == Space::kFree && (pi.flags & heap::kPageDirty);
    });
    if (dirty_free != pages_.dirty_free_transient_pages())
      Report("the transient arena has %zu free dirty pages; its count says %zu (P7)", dirty_free,
             pages_.dirty_free_transient_pages());
    if (in_use != pages_.transient_in_use() || small != pages_.transient_small_pages())
      Report(
          "the transient arena has %zu pages in use, %zu of them small; its counts say %zu and "
          "%zu (C1 of gc/gc_heap.h)",
          in_use, small, pages_.transient_in_use(), pages_.transient_small_pages());
    for (void *ref : objects_) CheckReferences(ref);
    roots_.ForEachExactSlot([this](void **slot) {
      if (*slot && !IsObjectStart(*slot) && !IntoUnloadedFrame(*slot))
        Report("exact root at %p holds %p, which is not a live object", (void *)slot, *slot);
      else if (*slot && IsFillerAt(*slot))
        Report("exact root at %p holds %p, a filler (the place of a dead object, P8)", (void *)slot,
               *slot);
    });
    return problems_;
  }

 private:
  __attribute__((format(printf, 2, 3))) void Report(const char *fmt, ...) {
    problems_++;
    if (max_report_ && problems_ > max_report_) return;
    std::fputs("cairn: heap verifier: ", stderr);
    va_list ap;
    va_start(ap, fmt);
    std::vfprintf(stderr, fmt, ap);
    va_end(ap);
    std::fputc('\n', stderr);
  }

  using PageStarts = std::array<uint64_t, kPageSize / kWordSize / 64>;
  void MarkStart(const void *ref) {
    size_t w = (uintptr_t(ref) % kPageSize) / kWordSize;
    starts_[pages_.IndexOf(ref)][w / 64] |= uint64_t{1} << (w % 64);
  }
  bool IsObjectStart(const void *ref) const {
    if (!pages_.Covers(ref) || uintptr_t(ref) % kWordSize) return false;
    auto it = starts_.find(pages_.IndexOf(ref));
    if (it == starts_.end()) return false;
    size_t w = (uintptr_t(ref) % kPageSize) / kWordSize;
    return it->second[w / 64] >> (w % 64) & 1;
  }
  // Whether the object start `ref` (on a page the verifier walked) is a filler.
  bool IsFillerAt(const void *ref) const {
    return IsObjectStart(ref) &&
           types::TypeRegistry::IsFiller(heap::TypeOfHeader(heap::HeaderOf(ref)));
  }
  // A reference into a persistent page that is not resident, or resident but cold (P11), cannot
  // be checked further: the verifier does not read such pages (P9).
  bool IntoUnloadedFrame(const void *ref) const {
    if (!pages_.Covers(ref)) return false;
    const PageInfo &pi = pages_.Info(pages_.IndexOf(ref));
    return pi.space == Space::kCurrent && pi.persistent() &&
           (!pi.resident() || heap::PageHeap::ProtectionOf(pi) == heap::Protection::kNone);
  }

  bool TypeOk(const cairn_type *t) {
    if (known_.count(t)) return true;
    if (types::TypeRegistry::Get().Canonical(t) != t) return false;  // T7
    known_.insert(t);
    return true;
  }

  // Checks the header of the object at ref; returns its size in bytes, 0 if it is broken.
  size_t CheckHeader(size_t page, void *ref) {
    uintptr_t h = heap::HeaderOf(ref);
    if (heap::IsForwarded(h)) {
      Report("page %zu: object %p holds a forwarding word outside a collection (P5)", page, ref);
      return 0;
    }
    const cairn_type *t = heap::TypeOfHeader(h);
    if (!t || uintptr_t(t) % 8 || !TypeOk(t)) {
      Report("page %zu: object %p has header %#" PRIxPTR
             ", not the registered canonical descriptor of a type (T1, T7)",
             page, ref, h);
      return 0;
    }
    return heap::ObjectBytes(t, ref);
  }

  void CheckPage(size_t i) {
    const PageInfo &pi = pages_.Info(i);
    char *base = pages_.PageAddress(i);
    switch (pi.space) {
      case Space::kFree:
        if (pi.kind != PageKind::kSmall || pi.used || pi.run || pi.pinned())
          Report("page %zu is free but has kind %d, used %u, run %u (P1)", i, int(pi.kind), pi.used,
                 pi.run);
        return;
      case Space::kPrevious:
        Report("page %zu is in previous space outside a collection (P4)", i);
        return;
      case Space::kCurrent:
        break;
      default:
        Report("page %zu has an unknown space %d", i, int(pi.space));
        return;
    }
    if (pi.persistent()) {
      heap::Protection prot = heap::PageHeap::ProtectionOf(pi);
      heap::Protection want = !pi.resident()  ? heap::Protection::kNone
                              : pi.modified() ? heap::Protection::kReadWrite
                                              : heap::Protection::kRead;
      const bool cold = pi.resident() && !pi.modified() && prot == heap::Protection::kNone;
      // A page of a modified run not written in the transaction stays read-only (P9, D16).
      bool unwritten_run_page = false;
      if (pi.modified() && pi.large() && prot == heap::Protection::kRead && hooks_ != nullptr) {
        const size_t head = pi.kind == PageKind::kLargeTail ? i - pi.run : i;
        const std::vector<bool> *written = hooks_->WrittenRunPages(head);
        unwritten_run_page =
            written != nullptr && i - head < written->size() && !(*written)[i - head];
      }
      if ((prot != want && !cold && !unwritten_run_page) || (pi.modified() && !pi.resident()))
        Report(
            "persistent page %zu (database %u, page id %llu) is %s%s but its protection is "
            "%d (P9)",
            i, pi.db,
            static_cast<unsigned long long>(const_cast<heap::PageHeap &>(pages_).PageId(i)),
            pi.resident() ? "resident" : "not resident", pi.modified() ? ", modified" : "",
            int(prot));
      if (!pi.resident() || cold) return;  // never read a page that is not loaded, or is cold
    } else if (heap::PageHeap::ProtectionOf(pi) != heap::Protection::kReadWrite) {
      Report("transient page %zu is not read-write", i);
    }
    if (pi.kind == PageKind::kLargeTail) {
      size_t head = i - pi.run;
      if (pi.run == 0 || pi.run > i || pages_.Info(head).kind != PageKind::kLargeHead ||
          pages_.Info(head).run <= pi.run || pages_.Info(head).space != pi.space)
        Report("page %zu is a large-object tail whose head (%u back) does not own it (P3)", i,
               pi.run);
      return;
    }
    if (pi.kind == PageKind::kLargeHead) {
      if (pi.run == 0 || i + pi.run > pages_.capacity()) {
        Report("page %zu is a large-object head with a bad run of %u pages (P3)", i, pi.run);
        return;
      }
      void *ref = base + kWordSize;
      size_t bytes = CheckHeader(i, ref);
      if (!bytes) return;
      if (bytes != pi.used || bytes <= heap::kLargeObjectBytes ||
          bytes > size_t(pi.run) * kPageSize || bytes <= size_t(pi.run - 1) * kPageSize)
        Report("page %zu: large object of %zu bytes recorded as %u bytes in %u pages (P3)", i,
               bytes, pi.used, pi.run);
      MarkStart(ref);
      objects_.push_back(ref);
      return;
    }
    if (pi.used > kPageSize) {
      Report("page %zu: used %u exceeds the page (P2)", i, pi.used);
      return;
    }
    size_t off = 0;
    while (off < pi.used) {
      if (pi.used - off < 2 * kWordSize) {
        Report("page %zu: %u bytes used, but an object at offset %zu has no room (P2)", i, pi.used,
               off);
        return;
      }
      void *ref = base + off + kWordSize;
      size_t bytes = CheckHeader(i, ref);
      if (!bytes) return;
      if (bytes > heap::kLargeObjectBytes || off + bytes > pi.used) {
        Report("page %zu: object at offset %zu of %zu bytes overruns the page's %u bytes (P2)", i,
               off, bytes, pi.used);
        return;
      }
      MarkStart(ref);
      objects_.push_back(ref);
      off += bytes;
    }
  }

  void CheckReferences(void *ref) {
    const cairn_type *t = heap::TypeOfHeader(heap::HeaderOf(ref));
    const PageInfo &from = pages_.Info(pages_.IndexOf(ref));
    heap::ForEachRefSlot(t, ref, [&](void **slot) {
      void *v = *slot;
      if (!v) return;
      if (!IsObjectStart(v) && !IntoUnloadedFrame(v)) {
        Report("object %p (type '%s') slot +%td holds %p, which is not a live object (P5)", ref,
               t->name, reinterpret_cast<char *>(slot) - static_cast<char *>(ref), v);
        return;
      }
      if (IsFillerAt(v)) {
        Report(
            "object %p (type '%s') slot +%td holds %p, a filler (the place of a dead object, "
            "P8)",
            ref, t->name, reinterpret_cast<char *>(slot) - static_cast<char *>(ref), v);
        return;
      }
      if (from.persistent() && !from.modified()) {
        const PageInfo &to = pages_.Info(pages_.IndexOf(v));
        // A shared page's objects are of different databases (P12): the frame verifier
        // (persist/frames.cpp) checks the references from its objects; one to its object is
        // checked against that object's database.
        if (from.flags & heap::kPageShared) return;
        uint8_t to_db = to.db;
        if ((to.flags & heap::kPageShared) && hooks_ != nullptr)
          to_db = hooks_->SharedOwner(pages_.IndexOf(v), v);
        if (to_db != from.db)
          Report("clean persistent object %p (type '%s', database %u) refers to %p in %s (P9)", ref,
                 t->name, from.db, v, to.db ? "another database" : "a transient page");
      }
    });
  }

  const heap::PageHeap &pages_;
  const Roots &roots_;
  PersistHooks *hooks_;
  size_t max_report_;
  size_t problems_ = 0;
  std::unordered_map<size_t, PageStarts> starts_;  // per page, one bit per word: a payload start
  std::vector<void *> objects_;
  std::unordered_set<const cairn_type *> known_;
};

}  // namespace

size_t VerifyHeap(const heap::PageHeap &pages, const Roots &roots, PersistHooks *hooks,
                  size_t max_report) {
  return Verifier(pages, roots, hooks, max_report).Run();
}

}  // namespace cairn::gc
