// The one owner of a persistent frame's state (P9, P11, D1, D7): every change of state goes
// through the functions here, which change the flags, the protection, the counters, the frame
// map and the CLOCK ring together.
//
//   (no frame) --ReserveFrames--> kReserved --Loaded--> kClean --Touched(write)--> kModified
//                                                     (cold <-> Warm: P11)
//        ^                          |   ^                 |  ^                         |
//        +------ReleaseFrame--------+   +----Evict--------+  +-------Written-----------+
//        |     (Figure 4: not reached)  +----Discard (abort: changes dropped)----------+
//   transient page --MakePersistent (stabilization)--> kModified --MakeTransient (commit
//                                                                   failed)--> transient page
#include <algorithm>
#include <cassert>

#include "heap/object.h"
#include "persist/persistence.h"
#include "util/fatal.h"

namespace cairn::persist {

using heap::FrameState;
using heap::PageInfo;
using heap::PageKind;
using heap::Protection;

namespace {

size_t RunOf(const PageInfo &h) { return h.kind == PageKind::kLargeHead ? h.run : 1; }

}  // namespace

void Persistence::SetFlags(size_t head, size_t n, uint8_t set, uint8_t clear) {
  heap::PageHeap &pages = heap_->pages();
  for (size_t k = 0; k < n; k++) {
    PageInfo &pi = pages.Info(head + k);
    pi.flags = uint8_t((pi.flags & ~clear) | set);
  }
}

Status Persistence::ReserveFrames(cairn_db &db, uint64_t first, size_t n, bool large,
                                  size_t *frame) {
  heap::PageHeap &pages = heap_->pages();
  size_t f = pages.TakeReservedFrames(n, large);
  if (f == heap::kNoPage)
    return PageError(db, first, CAIRN_OUT_OF_MEMORY,
                     "the heap's persistent arena has no room for " + std::to_string(n) +
                         " more frame(s); set CAIRN_HEAP_RESERVE_MB higher");
  for (size_t k = 0; k < n; k++) {
    pages.Info(f + k).db = db.index;
    pages.PageId(f + k) = first + k;
  }
  frames_[Key(db.index, first)] = uint32_t(f);
  reserved_frames_ += n;
  *frame = f;
  return Status::Ok();
}

void Persistence::Loaded(size_t head) {
  heap::PageHeap &pages = heap_->pages();
  const size_t n = RunOf(pages.Info(head));
  assert(pages.Info(head).frame_state() == FrameState::kReserved);
  SetFlags(head, n, heap::kPageResident | heap::kPageReferenced, 0);
  pages.Protect(head, n, Protection::kRead);
  reserved_frames_ -= n;
  clean_pages_ += n;
  clock_.Add(head);
  RecordReferences(head);
  NoteRecent(head);
}

void Persistence::Warm(size_t head) {
  heap::PageHeap &pages = heap_->pages();
  const size_t n = RunOf(pages.Info(head));
  assert(pages.Info(head).frame_state() == FrameState::kClean);
  pages.Protect(head, n, Protection::kRead);
  SetFlags(head, n, heap::kPageReferenced, 0);
  NoteRecent(head);
  totals_.pages_rereferenced += n;
}

void Persistence::Touched(size_t head) {
  heap::PageHeap &pages = heap_->pages();
  const size_t n = RunOf(pages.Info(head));
  assert(pages.Info(head).frame_state() == FrameState::kClean);
  pages.Protect(head, n, Protection::kReadWrite);
  SetFlags(head, n, heap::kPageModified, heap::kPageReferenced);
  clean_pages_ -= n;
  modified_pages_ += n;
  clock_.Remove(head);
  refs_.erase(uint32_t(head));
  modified_.Add(head);
  NoteRecent(head);
}

void Persistence::Written(size_t head) {
  heap::PageHeap &pages = heap_->pages();
  const size_t n = RunOf(pages.Info(head));
  assert(pages.Info(head).frame_state() == FrameState::kModified);
  SetFlags(head, n, heap::kPageReferenced, heap::kPageModified);
  pages.Protect(head, n, Protection::kRead);
  modified_pages_ -= n;
  modified_.Remove(head);
  clean_pages_ += n;
  clock_.Add(head);
  RecordReferences(head);
}

void Persistence::Evict(size_t head) {
  heap::PageHeap &pages = heap_->pages();
  const size_t n = RunOf(pages.Info(head));
  assert(pages.Info(head).frame_state() == FrameState::kClean);
  pages.Discard(head, n);
  pages.Protect(head, n, Protection::kNone);
  SetFlags(head, n, 0, heap::kPageResident | heap::kPageReferenced);
  clean_pages_ -= n;
  reserved_frames_ += n;
  clock_.Remove(head);
  refs_.erase(uint32_t(head));
  totals_.pages_evicted += n;
}

void Persistence::Discard(size_t head) {
  heap::PageHeap &pages = heap_->pages();
  const size_t n = RunOf(pages.Info(head));
  assert(pages.Info(head).frame_state() == FrameState::kModified);
  pages.Discard(head, n);
  pages.Protect(head, n, Protection::kNone);
  SetFlags(head, n, 0, heap::kPageResident | heap::kPageModified | heap::kPageReferenced);
  modified_pages_ -= n;
  modified_.Remove(head);
  reserved_frames_ += n;
}

void Persistence::ReleaseFrame(size_t head) {
  heap::PageHeap &pages = heap_->pages();
  const PageInfo &h = pages.Info(head);
  const size_t n = RunOf(h);
  switch (h.frame_state()) {
    case FrameState::kReserved:
      reserved_frames_ -= n;
      break;
    case FrameState::kClean:
      clean_pages_ -= n;
      clock_.Remove(head);
      refs_.erase(uint32_t(head));
      pages.Discard(head, n);
      break;
    default:
      Fatal("internal error: releasing the frame of a %s persistent page",
            h.modified() ? "modified" : "transient");
  }
  frames_.erase(Key(h.db, pages.PageId(head)));
  if (heap::PageHeap::ProtectionOf(h) != Protection::kNone)
    pages.Protect(head, n, Protection::kNone);
  SetFlags(head, n, 0, heap::kPageResident | heap::kPageReferenced);
  totals_.frames_released += n;
}

Status Persistence::MakePersistent(uint8_t dbi, size_t frame, size_t n) {
  heap::PageHeap &pages = heap_->pages();
  cairn_db &db = *dbs_[dbi - 1];
  assert(pages.Info(frame).frame_state() == FrameState::kTransient);
  // The page is persistent from here on, whatever the store says: the closure goes on with it,
  // and a failed commit makes it transient again (MakeTransient).
  for (size_t k = 0; k < n; k++) {
    pages.Info(frame + k).db = dbi;
    pages.PageId(frame + k) = 0;
  }
  SetFlags(frame, n, heap::kPageResident | heap::kPageModified, heap::kPageReferenced);
  modified_pages_ += n;
  modified_.Add(frame);
  stray_.Remove(frame);
  if (!txn_ || failed_) return Status(CAIRN_INTERNAL, "stabilization outside an open transaction");
  store::PageNo first = 0;
  Status s = n == 1 ? txn_->AllocatePage(db.id, &first) : txn_->AllocatePageRun(db.id, n, &first);
  if (!s.ok()) return s;
  if (first + n - 1 > kMaxPageId)
    return Status(CAIRN_UNSUPPORTED, "database '" + db.name +
                                         "' has more pages than Cairn can "
                                         "address (2^31 - 1)");
  for (size_t k = 0; k < n; k++) pages.PageId(frame + k) = first + k;
  frames_[Key(dbi, first)] = uint32_t(frame);
  return Status::Ok();
}

void Persistence::MakeTransient(size_t head) {
  heap::PageHeap &pages = heap_->pages();
  PageInfo &h = pages.Info(head);
  const size_t n = RunOf(h);
  assert(h.frame_state() == FrameState::kModified);
  if (pages.PageId(head)) frames_.erase(Key(h.db, pages.PageId(head)));
  for (size_t k = 0; k < n; k++) {
    pages.Info(head + k).db = 0;
    pages.PageId(head + k) = 0;
  }
  SetFlags(head, n, 0, heap::kPageResident | heap::kPageModified | heap::kPageReferenced);
  modified_pages_ -= n;
  modified_.Remove(head);
  // A page the stabilizer took from the persistent arena is a transient page there now: the
  // collections that walk the transient arena only must know it (P10).
  if (pages.ArenaOf(head) == heap::Arena::kPersistent) stray_.Add(head);
}

void Persistence::PruneStrayPages() {
  heap::PageHeap &pages = heap_->pages();
  std::vector<uint32_t> gone;
  for (uint32_t i : stray_.members()) {
    const PageInfo &pi = pages.Info(i);
    if (pi.space == heap::Space::kFree || pi.persistent()) gone.push_back(i);
  }
  for (uint32_t i : gone) stray_.Remove(i);
}

// --- The CLOCK ring of clean pages (P11) -----------------------------------------------------

void Persistence::RecordReferences(size_t head) {
  heap::PageHeap &pages = heap_->pages();
  const PageInfo &h = pages.Info(head);
  std::vector<uint32_t> out;
  char *base = pages.PageAddress(head);
  const uint32_t end = h.kind == PageKind::kLargeHead ? uint32_t(heap::kWordSize) : h.used;
  for (uint32_t o = 0; o < end;) {
    void *ref = base + o + heap::kWordSize;
    const cairn_type *t = heap::TypeOfHeader(heap::HeaderOf(ref));
    heap::ForEachRefSlot(t, ref, [&](void **slot) {
      if (!*slot || !pages.Covers(*slot)) return;
      size_t i = pages.IndexOf(*slot);
      const PageInfo &pi = pages.Info(i);
      if (pi.kind == PageKind::kLargeTail) i -= pi.run;
      if (i != head && (out.empty() || out.back() != i)) out.push_back(uint32_t(i));
    });
    o += uint32_t(heap::ObjectBytes(t, ref));
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  if (out.empty())
    refs_.erase(uint32_t(head));
  else
    refs_[uint32_t(head)] = std::move(out);
}

bool Persistence::ReleaseFramesNow() {
  uint64_t in_use = reserved_frames_ + clean_pages_;
  return in_use >= next_release_ || in_use > heap_->pages().capacity() / 4;
}

void Persistence::FramesReleased() {
  uint64_t in_use = reserved_frames_ + clean_pages_;
  next_release_ = std::max(2 * in_use, in_use + kReleaseGrowth);
}

void Persistence::NoteRecent(size_t head) {
  recent_[recent_next_] = uint32_t(head);
  recent_next_ = (recent_next_ + 1) % kRecent;
}

bool Persistence::IsRecent(size_t head) const {
  for (uint32_t r : recent_)
    if (r == head) return true;
  return false;
}

void Persistence::EnforceBudgets() {
  heap::PageHeap &pages = heap_->pages();
  auto over = [&] {
    return clean_pages_ > options_.max_resident_pages ||
           pages.protection_boundaries() > options_.max_protection_runs;
  };
  // Two turns of the hand clear every bit and then find it clear; pages touched by the current
  // instruction (the most recent few) are never taken.
  size_t steps = 2 * clock_.size() + 1;
  while (over() && steps-- > 0 && !clock_.empty()) {
    if (hand_ >= clock_.size()) hand_ = 0;
    size_t f = clock_[hand_];
    PageInfo &pi = pages.Info(f);
    if (IsRecent(f)) {
      hand_++;
    } else if (pi.flags & heap::kPageReferenced) {
      // Cold: the next touch traps and sets the bit again (Warm).
      SetFlags(f, RunOf(pi), 0, heap::kPageReferenced);
      if (heap::PageHeap::ProtectionOf(pi) != Protection::kNone)
        pages.Protect(f, RunOf(pi), Protection::kNone);
      hand_++;
    } else {
      Evict(f);  // its place in the ring now holds another page: the hand stays
    }
  }
  if (pages.protection_boundaries() > options_.max_protection_runs + 1000)
    Fatal(
        "the heap's memory mapping is split in %zu pieces, over the budget of %llu "
        "(max_protection_runs; the kernel allows vm.max_map_count, usually 65530), and no clean "
        "persistent page is left to unload: %llu persistent pages are modified in scattered "
        "places. Commit more often, or raise the budget and vm.max_map_count. Nothing was "
        "written.",
        pages.protection_boundaries(),
        static_cast<unsigned long long>(options_.max_protection_runs),
        static_cast<unsigned long long>(modified_pages_));
}

}  // namespace cairn::persist
