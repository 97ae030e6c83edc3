// The one owner of a persistent frame's state (P9, P11, D1, D7). A frame's state
// (heap::FrameState: reserved, clean, modified; transient before stabilization makes a page
// persistent and after a failed commit makes it transient again) changes only in SetState, which
// derives from the new state, together:
//   - the flags: resident (clean, modified), modified, referenced (clean and not cold, P11);
//   - the protection (ProtectionFor): reserved none; clean read-only, none while cold (P11);
//     modified and transient read-write, except the pages of a modified run not written in
//     the transaction, read-only until DirtyRunPage (D16). Two exceptions: a reserved frame is
//     read-write while the store reads a page into it (BeginLoad, then Loaded or LoadFailed),
//     inside the fault handler, with the mutator stopped; and a clean frame with tenants (D14) is
//     read-write while a collection updates a tenant's references (OpenTenantPage, until
//     SweepTenants at the collection's end) or an abort puts the tenants' bytes back
//     (DiscardKeepingTenants): its stored forms have fillers there, so nothing stored changes;
//   - the contents: a loaded page that becomes reserved gives its memory back (read again at
//     the next touch);
//   - the counters (in_state_: the pages of the page table in each state) and the sets (clock_
//     holds each clean page, modified_ each modified one; refs_ and run_page_refs_ have entries
//     for clean pages only, recorded whenever a page becomes clean: D10).
// The named transitions below add what belongs to each: the frame map and page ids, statistics,
// the recent pages. VerifyFrames checks all of it against the page table.
//
//   (no frame) --ReserveFrames--> kReserved --Loaded--> kClean --Touched(write)--> kModified
//                                                     (cold <-> Warm: P11)
//        ^                          |   ^                 |  ^                         |
//        +------ReleaseFrame--------+   +----Evict--------+  +-------Written-----------+
//        |     (Figure 4: not reached)  +----Discard (abort: changes dropped)----------+
//                                                     kModified --Kept (written, stays
//                                                                  writable: D15)--> kModified
//   transient page --MakePersistent (stabilization)--> kModified --MakeTransient (commit
//                                                                   failed)--> transient page
#include <sys/mman.h>

#include <algorithm>
#include <cassert>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <set>

#include "heap/object.h"
#include "persist/persistence.h"
#include "types/type_registry.h"
#include "util/fatal.h"

namespace cairn::persist {

using heap::FrameState;
using heap::PageInfo;
using heap::PageKind;
using heap::Protection;

namespace {

size_t RunOf(const PageInfo &h) { return h.kind == PageKind::kLargeHead ? h.run : 1; }

bool IsLoaded(FrameState s) { return s == FrameState::kClean || s == FrameState::kModified; }

// The protection of a frame in state s (D7); `referenced`: a clean page that is not cold (P11).
Protection ProtectionFor(FrameState s, bool referenced) {
  switch (s) {
    case FrameState::kReserved:
      return Protection::kNone;
    case FrameState::kClean:
      return referenced ? Protection::kRead : Protection::kNone;  // cold (P11)
    case FrameState::kModified:
    case FrameState::kTransient:
      break;
  }
  return Protection::kReadWrite;
}

}  // namespace

void Persistence::SetFlags(size_t head, size_t n, uint8_t set, uint8_t clear) {
  heap::PageHeap &pages = heap_->pages();
  for (size_t k = 0; k < n; k++) {
    PageInfo &pi = pages.Info(head + k);
    pi.flags = uint8_t((pi.flags & ~clear) | set);
  }
}

void Persistence::SetState(size_t head, FrameState to, bool referenced) {
  heap::PageHeap &pages = heap_->pages();
  const PageInfo &h = pages.Info(head);
  const size_t n = RunOf(h);
  const FrameState from = h.frame_state();
  // D16: a run of more than one page, unshared, written for the first time in the transaction:
  // its pages become writable one by one, as they are written (DirtyRunPage).
  const bool by_page = from == FrameState::kClean && to == FrameState::kModified && n > 1 &&
                       !(h.flags & heap::kPageShared);
  std::vector<std::vector<uint32_t>> page_refs;  // a run's, kept with its image (D10, D16)
  RunImage image;                                // a run's image as it leaves the modified state
  bool had_image = false;
  if (from != to) {
    if (from != FrameState::kTransient) in_state_[size_t(from)] -= n;
    if (to != FrameState::kTransient) in_state_[size_t(to)] += n;
    if (from == FrameState::kClean) {
      clock_.Remove(head);
      refs_.erase(uint32_t(head));
      if (auto it = run_page_refs_.find(uint32_t(head)); it != run_page_refs_.end()) {
        page_refs = std::move(it->second);
        run_page_refs_.erase(it);
      }
    }
    if (from == FrameState::kModified) {
      modified_.Remove(head);
      clean_images_.erase(uint32_t(head));                                          // D12
      if (auto run = run_images_.find(uint32_t(head)); run != run_images_.end()) {  // D16
        run_image_pages_ -= run->second.pages;
        image = std::move(run->second);
        had_image = true;
        run_images_.erase(run);
      }
    }
    if (to == FrameState::kClean) clock_.Add(head);
    if (to == FrameState::kModified) modified_.Add(head);
  }
  if (to == FrameState::kReserved && IsLoaded(from)) {
    pages.Discard(head, n);
    // D11: the object starts walked while it was loaded may include objects past its stored
    // ones (tenants, A1 of gc/gc_heap.h, and D17): a reference to one was checked when it was
    // swizzled; the next load checks only what is swizzled into it while it is reserved.
    checks_.Reset(head);
  }
  if (to == FrameState::kReserved)
    for (size_t k = 0; k < n; k++) stored_crc_.erase(uint32_t(head + k));  // D12, D16
  if (to == FrameState::kReserved || to == FrameState::kTransient)
    tail_unstored_.erase(uint32_t(head));  // D17: its memory is gone, or no page's
  const bool ref_bit = to == FrameState::kClean && referenced;
  SetFlags(head, n,
           uint8_t((IsLoaded(to) ? heap::kPageResident : 0) |
                   (to == FrameState::kModified ? heap::kPageModified : 0) |
                   (ref_bit ? heap::kPageReferenced : 0)),
           heap::kPageResident | heap::kPageModified | heap::kPageReferenced);
  const Protection prot = by_page ? Protection::kRead : ProtectionFor(to, ref_bit);
  if (n > 1)
    ProtectEach(head, n, prot);  // a modified run's pages may differ (D16)
  else if (heap::PageHeap::ProtectionOf(h) != prot)
    pages.Protect(head, n, prot);
  if (to == FrameState::kClean && from != FrameState::kClean) {
    // D10: a run whose changed pages this commit knows adds only what they refer to.
    if (had_image && image.changed_commit == commit_serial_ && image.changed.size() == n &&
        image.page_refs.size() == n)
      RecordRunReferences(head, image);
    else
      RecordReferences(head);
  }
  if (from == FrameState::kClean && to == FrameState::kModified && n == 1) {
    // D12: the page as stored, swizzled (read after the protection change: a cold clean page
    // has none).
    CleanImage &c = clean_images_[uint32_t(head)];
    c.words.reset(new uint64_t[heap::kPageSize / sizeof(uint64_t)]);
    std::memcpy(c.words.get(), pages.PageAddress(head), heap::kPageSize);
    c.releases = totals_.frames_released;
    c.used = pages.Info(head).used;  // D17
    if (auto it = tail_unstored_.find(uint32_t(head)); it != tail_unstored_.end()) {
      // D17: past its stored objects the memory holds tenants (or their fillers) the stored
      // form has as zeros: the image has what the stored form has.
      c.used = it->second;
      std::memset(reinterpret_cast<char *>(c.words.get()) + c.used, 0, heap::kPageSize - c.used);
    }
  }
  if (by_page) {
    // D16: no page written yet; each is copied as stored (swizzled) at its first write.
    RunImage &r = run_images_[uint32_t(head)];
    r.dirty.assign(n, false);
    r.copies.resize(n);
    r.copy_releases.assign(n, 0);
    r.page_refs = std::move(page_refs);
  }
}

void Persistence::ProtectEach(size_t head, size_t n, Protection prot) {
  heap::PageHeap &pages = heap_->pages();
  for (size_t k = 0; k < n;) {
    if (heap::PageHeap::ProtectionOf(pages.Info(head + k)) == prot) {
      k++;
      continue;
    }
    size_t e = k + 1;
    while (e < n && heap::PageHeap::ProtectionOf(pages.Info(head + e)) != prot) e++;
    pages.Protect(head + k, e - k, prot);
    k = e;
  }
}

void Persistence::DirtyRunPage(size_t head, size_t k) {
  heap::PageHeap &pages = heap_->pages();
  RunImage &r = run_images_.at(uint32_t(head));
  const size_t n = r.dirty.size();
  // Pages written one by one split the mapping: past half the budget of pieces (the kernel's
  // vm.max_map_count), the run is made writable whole, every page copied (budget permitting)
  // as at its first write.
  const bool whole = pages.protection_boundaries() + 2 > options_.max_protection_runs / 2;
  for (size_t p = whole ? 0 : k; p < (whole ? n : k + 1); p++) {
    if (r.dirty[p]) continue;
    r.dirty[p] = true;
    if (run_image_pages_ < kMaxRunImagePages) {
      r.copies[p].reset(new uint64_t[heap::kPageSize / sizeof(uint64_t)]);
      std::memcpy(r.copies[p].get(), pages.PageAddress(head + p), heap::kPageSize);
      r.copy_releases[p] = totals_.frames_released;
      r.pages++;
      run_image_pages_++;
    }
  }
  if (whole)
    ProtectEach(head, n, Protection::kReadWrite);
  else
    pages.Protect(head + k, 1, Protection::kReadWrite);
}

Status Persistence::ReserveFrames(cairn_db &db, uint64_t first, size_t n, bool large,
                                  size_t *frame) {
  heap::PageHeap &pages = heap_->pages();
  // Counted as ReleaseFramesNow and PrepareRelease count: reserved and clean frames.
  const uint64_t in_use =
      in_state_[size_t(FrameState::kReserved)] + in_state_[size_t(FrameState::kClean)];
  // A cap below the arena's size (cairn_persist_options.max_frames) is kept by counting; the
  // arena's own end by TakeReservedFrames (protection none, as kReserved has).
  const bool capped =
      options_.max_frames < pages.persistent_frames() && in_use + n > options_.max_frames;
  size_t f = capped ? heap::kNoPage : pages.TakeReservedFrames(n, large);
  if (f == heap::kNoPage) {
    const std::string where = capped ? "among the " + std::to_string(options_.max_frames) +
                                           " frames cairn_persist_options.max_frames allows"
                                     : "in the heap's persistent arena (" +
                                           std::to_string(pages.persistent_frames()) +
                                           " frames, half the reservation)";
    return PageError(db, first, CAIRN_OUT_OF_MEMORY,
                     "no room for " + std::to_string(n) + " more frame(s) " + where +
                         ": the frames hold the pages loaded and those they refer to, and only "
                         "the collection at the end of a commit gives up those the program is "
                         "done with. Commit (or checkpoint) now and then as it reads, or " +
                         (capped ? std::string("raise max_frames")
                                 : std::string("set CAIRN_HEAP_RESERVE_MB higher")));
  }
  for (size_t k = 0; k < n; k++) {
    pages.Info(f + k).db = db.index;
    pages.PageId(f + k) = first + k;
  }
  frames_[Key(db.index, first)] = uint32_t(f);
  in_state_[size_t(FrameState::kReserved)] += n;
  *frame = f;
  return Status::Ok();
}

void Persistence::BeginLoad(size_t head) {
  heap::PageHeap &pages = heap_->pages();
  assert(pages.Info(head).frame_state() == FrameState::kReserved);
  // The store copies into the frame, so it must be writable first (a system call handed a
  // protected page fails with EFAULT instead of faulting).
  pages.Protect(head, RunOf(pages.Info(head)), Protection::kReadWrite);
}

void Persistence::LoadFailed(size_t head) {
  heap::PageHeap &pages = heap_->pages();
  PageInfo &h = pages.Info(head);
  assert(h.frame_state() == FrameState::kReserved);
  // Reserved as before the touch (D5): contents dropped, no access; the next touch reads it again.
  pages.Discard(head, RunOf(h));
  h.used = 0;
  SetState(head, FrameState::kReserved);
}

void Persistence::Loaded(size_t head) {
  assert(heap_->pages().Info(head).frame_state() == FrameState::kReserved);
  SetState(head, FrameState::kClean);
  NoteRecent(head);
}

void Persistence::Warm(size_t head) {
  const PageInfo &h = heap_->pages().Info(head);
  assert(h.frame_state() == FrameState::kClean);
  SetState(head, FrameState::kClean);
  NoteRecent(head);
  totals_.pages_rereferenced += RunOf(h);
}

void Persistence::Cool(size_t head) {
  assert(heap_->pages().Info(head).frame_state() == FrameState::kClean);
  SetState(head, FrameState::kClean, false);
}

void Persistence::Touched(size_t head) {
  assert(heap_->pages().Info(head).frame_state() == FrameState::kClean);
  SetState(head, FrameState::kModified);
  NoteRecent(head);
}

void Persistence::Written(size_t head) {
  assert(heap_->pages().Info(head).frame_state() == FrameState::kModified);
  tail_unstored_.erase(uint32_t(head));  // D17: as stored now
  SetState(head, FrameState::kClean);
}

void Persistence::Kept(size_t head) {
  heap::PageHeap &pages = heap_->pages();
  assert(pages.Info(head).frame_state() == FrameState::kModified &&
         pages.Info(head).kind == PageKind::kSmall &&
         !(pages.Info(head).flags & heap::kPageShared));
  // D15: the image becomes the page as written (its stored form, swizzled).
  CleanImage &c = clean_images_.at(uint32_t(head));
  c.used = pages.Info(head).used;  // D17: the layout recorded is of this many bytes
  tail_unstored_.erase(uint32_t(head));
  std::memcpy(c.words.get(), pages.PageAddress(head), heap::kPageSize);
  c.releases = totals_.frames_released;
  // Its stored form: the one the commit wrote (with the page's layout, recorded when it was
  // unswizzled), if it made one (Flush's `pending`).
  c.stored.swap(c.pending);
  c.pending.clear();
  if (c.stored.size() != heap::kPageSize) c.stored.clear();
  kept_.push_back(uint32_t(head));
}

void Persistence::NoteStoredChecksum(size_t frame, uint32_t crc) {
  stored_crc_[uint32_t(frame)] = crc;
}

bool Persistence::UnchangedSinceClean(size_t head) const {
  auto image = clean_images_.find(uint32_t(head));
  return image != clean_images_.end() && image->second.releases == totals_.frames_released &&
         std::memcmp(image->second.words.get(), heap_->pages().PageAddress(head),
                     heap::kPageSize) == 0;
}

bool Persistence::TenantsOnlySinceClean(size_t head) const {
  // Only a page with tenants can qualify (one without and unchanged is UnchangedSinceClean's),
  // and not one another database has objects on, nor one a tenant of which this commit adopted
  // (an adoption changes no byte of the page, and its stored form gets the object where it had
  // a filler).
  const PageInfo &pi = heap_->pages().Info(head);
  if (pi.kind != PageKind::kSmall || !(pi.flags & heap::kPageShared)) return false;
  auto shared = shared_.find(uint32_t(head));
  if (shared == shared_.end() || shared->second.tenants == 0 || !shared->second.homes.empty())
    return false;
  for (const Adoption &a : adopted_)
    if (a.frame == uint32_t(head)) return false;
  auto image = clean_images_.find(uint32_t(head));
  if (image == clean_images_.end() || image->second.releases != totals_.frames_released ||
      pi.used < image->second.used)
    return false;
  // After the image's objects: live tenants only (a page with a dead one's filler there is
  // written, as a page with any other object there is; now that fillers have a type of their
  // own, filler[N], it could be told from a new pointer-free object, and such a page need not
  // be written: not done).
  char *page = heap_->pages().PageAddress(head);
  for (uint32_t off = image->second.used; off < pi.used;) {
    void *ref = page + off + heap::kWordSize;
    if (OwnerAt(head, off + uint32_t(heap::kWordSize)) != 0) return false;
    off += uint32_t(heap::ObjectBytes(heap::TypeOfHeader(heap::HeaderOf(ref)), ref));
  }
  return std::memcmp(image->second.words.get(), page, image->second.used) == 0;
}

bool Persistence::RestoreCleanImage(size_t head) {
  heap::PageHeap &pages = heap_->pages();
  PageInfo &pi = pages.Info(head);
  if (pi.kind != PageKind::kSmall || (pi.flags & heap::kPageShared)) return false;
  auto image = clean_images_.find(uint32_t(head));
  if (image == clean_images_.end() || image->second.releases != totals_.frames_released)
    return false;
  // The objects are those of the image (a small persistent page's layout does not change, P8,
  // and what was allocated after them would be a tenant), their words as they were clean.
  std::memcpy(pages.PageAddress(head), image->second.words.get(), heap::kPageSize);
  pi.used = image->second.used;
  return true;
}

size_t Persistence::kept_limit() const {
  return std::min<uint64_t>(kMaxKept, options_.max_resident_pages / 8);
}

void Persistence::Evict(size_t head) {
  const PageInfo &h = heap_->pages().Info(head);
  assert(h.frame_state() == FrameState::kClean);
  SetState(head, FrameState::kReserved);
  totals_.pages_evicted += RunOf(h);
}

void Persistence::Discard(size_t head) {
  assert(heap_->pages().Info(head).frame_state() == FrameState::kModified);
  SetState(head, FrameState::kReserved);
}

void Persistence::ReleaseFrame(size_t head) {
  heap::PageHeap &pages = heap_->pages();
  const PageInfo &h = pages.Info(head);
  const size_t n = RunOf(h);
  switch (h.frame_state()) {
    case FrameState::kReserved:
      break;
    case FrameState::kClean:
      SetState(head, FrameState::kReserved);
      break;
    default:
      Fatal("internal error: releasing the frame of a %s persistent page",
            h.modified() ? "modified" : "transient");
  }
  // The frame leaves persistence reserved (protection none, as free frames of the persistent
  // arena keep); the collector frees its page next, which ends its database and page id.
  in_state_[size_t(FrameState::kReserved)] -= n;
  frames_.erase(Key(h.db, pages.PageId(head)));
  Unshare(head);
  totals_.frames_released += n;
}

Status Persistence::MakePersistent(uint8_t dbi, size_t frame, size_t n) {
  heap::PageHeap &pages = heap_->pages();
  cairn_db &db = *dbs_[dbi - 1];
  assert(pages.Info(frame).frame_state() == FrameState::kTransient &&
         RunOf(pages.Info(frame)) == n);
  // The page is persistent from here on, whatever the store says: the closure goes on with it,
  // and a failed commit makes it transient again (MakeTransient).
  SetState(frame, FrameState::kModified);
  for (size_t k = 0; k < n; k++) {
    pages.Info(frame + k).db = dbi;
    pages.PageId(frame + k) = 0;
  }
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
  checks_.Reset(frame);  // D11: a new page, filled by stabilization
  checks_.known_pages(dbi) = std::max(checks_.known_pages(dbi), first + n - 1);
  return Status::Ok();
}

Status Persistence::ShareObject(uint8_t dbi, size_t frame, const void *ref) {
  heap::PageHeap &pages = heap_->pages();
  PageInfo &pi = pages.Info(frame);
  assert(pi.kind == PageKind::kSmall && pi.frame_state() == FrameState::kModified && dbi != pi.db);
  SharedFrame &shared = shared_[uint32_t(frame)];
  if (!(pi.flags & heap::kPageShared)) std::erase(kept_, uint32_t(frame));  // D15: kept: unshared
  pi.flags |= heap::kPageShared;
  shared.owners[uint32_t(static_cast<const char *>(ref) - pages.PageAddress(frame))] = dbi;
  for (const auto &[d, page] : shared.homes)
    if (d == dbi) return Status::Ok();
  cairn_db &db = *dbs_[dbi - 1];
  if (!txn_ || failed_) return Status(CAIRN_INTERNAL, "stabilization outside an open transaction");
  store::PageNo page = 0;
  Status s = txn_->AllocatePage(db.id, &page);
  if (!s.ok()) return s;
  if (page > kMaxPageId)
    return Status(CAIRN_UNSUPPORTED,
                  "database '" + db.name + "' has more pages than Cairn can address (2^31 - 1)");
  shared.homes.emplace_back(dbi, page);
  frames_[Key(dbi, page)] = uint32_t(frame);
  checks_.known_pages(dbi) = std::max(checks_.known_pages(dbi), page);
  return Status::Ok();
}

uint8_t Persistence::SharedOwner(size_t frame, const void *ref) {
  return OwnerAt(frame,
                 uint32_t(static_cast<const char *>(ref) - heap_->pages().PageAddress(frame)));
}

uint8_t Persistence::OwnerAt(size_t head, uint32_t offset) const {
  const PageInfo &pi = heap_->pages().Info(head);
  if (!(pi.flags & heap::kPageShared)) return pi.db;
  const SharedFrame &shared = shared_.at(uint32_t(head));
  auto it = shared.owners.find(offset);
  return it == shared.owners.end() ? pi.db : it->second;
}

uint64_t Persistence::PageIdIn(size_t head, uint8_t db) const {
  const PageInfo &pi = heap_->pages().Info(head);
  if (db == pi.db || !(pi.flags & heap::kPageShared)) return heap_->pages().PageId(head);
  for (const auto &[d, page] : shared_.at(uint32_t(head)).homes)
    if (d == db) return page;
  return 0;
}

void Persistence::Unshare(size_t head) {
  PageInfo &pi = heap_->pages().Info(head);
  if (!(pi.flags & heap::kPageShared)) return;
  auto it = shared_.find(uint32_t(head));
  if (it != shared_.end()) {
    for (const auto &[d, page] : it->second.homes) frames_.erase(Key(d, page));
    shared_.erase(it);
  }
  pi.flags &= uint8_t(~heap::kPageShared);
  clean_images_.erase(uint32_t(head));  // D12, as in UnshareIfPlain
}

bool Persistence::HasTenants(size_t head) const {
  if (!(heap_->pages().Info(head).flags & heap::kPageShared)) return false;
  auto it = shared_.find(uint32_t(head));
  return it != shared_.end() && it->second.tenants > 0;
}

void Persistence::UnshareIfPlain(size_t head) {
  auto it = shared_.find(uint32_t(head));
  if (it == shared_.end() || !it->second.owners.empty() || !it->second.homes.empty()) return;
  shared_.erase(it);
  heap_->pages().Info(head).flags &= uint8_t(~heap::kPageShared);
  // D12: its clean image has the bytes of objects its stored form has as fillers; a delta from
  // it would leave those fillers' words out and damage the page.
  clean_images_.erase(uint32_t(head));
}

size_t Persistence::OpenCopyPage(uint8_t db, size_t bytes, bool *was_clean) {
  // D17: the frame must still be this database's small page, loaded, unshared, with room.
  *was_clean = false;
  const uint32_t f = open_page_[db];
  open_page_[db] = kNoFrame;
  heap::PageHeap &pages = heap_->pages();
  if (f == kNoFrame || f >= pages.capacity()) return heap::kNoPage;
  const PageInfo &pi = pages.Info(f);
  const FrameState state = pi.frame_state();
  if (pi.db != db || pi.kind != PageKind::kSmall || (pi.flags & heap::kPageShared) ||
      pi.space != heap::Space::kCurrent ||
      (state != FrameState::kClean && state != FrameState::kModified) ||
      pi.used + bytes > heap::kPageSize)
    return heap::kNoPage;
  auto it = frames_.find(Key(db, pages.PageId(f)));
  if (it == frames_.end() || it->second != f) return heap::kNoPage;
  if (state == FrameState::kClean) {
    Touched(f);  // as at a first write: its image is taken, it is writable and written at commit
    *was_clean = true;
  }
  return f;
}

void Persistence::LodgeTenant(size_t frame, const void *ref) {
  heap::PageHeap &pages = heap_->pages();
  PageInfo &pi = pages.Info(frame);
  assert(pi.kind == PageKind::kSmall && pi.frame_state() == FrameState::kModified);
  SharedFrame &shared = shared_[uint32_t(frame)];
  if (!(pi.flags & heap::kPageShared)) std::erase(kept_, uint32_t(frame));  // D15: kept: unshared
  pi.flags |= heap::kPageShared;
  auto [it, added] = shared.owners.try_emplace(
      uint32_t(static_cast<const char *>(ref) - pages.PageAddress(frame)), uint8_t{0});
  if (added) shared.tenants++;
}

bool Persistence::OpenTail(size_t frame) {
  const PageInfo &pi = heap_->pages().Info(frame);
  switch (pi.frame_state()) {
    case FrameState::kModified:
      return true;  // a small modified page is writable (D7)
    case FrameState::kClean:
      // As a first write would: it is written at commit (with fillers where its tenants are).
      // No EnforceBudgets: neither changes how many pages are resident, and an allocation
      // must not evict a page the program made resident for the kernel to read.
      if (!(pi.flags & heap::kPageReferenced)) Warm(frame);
      Touched(frame);
      return true;
    default:
      return false;  // not loaded: nothing is read for an allocation
  }
}

Status Persistence::AdoptTenant(uint8_t dbi, size_t frame, const void *ref) {
  heap::PageHeap &pages = heap_->pages();
  const PageInfo &pi = pages.Info(frame);
  const uint32_t offset = uint32_t(static_cast<const char *>(ref) - pages.PageAddress(frame));
  // Its page is written by this commit: the object is in its database's stored form now.
  if (pi.frame_state() == FrameState::kClean) Touched(frame);
  SharedFrame &shared = shared_.at(uint32_t(frame));
  shared.owners.erase(offset);
  shared.tenants--;
  Adoption a{uint32_t(frame), offset, 0};
  Status s;
  if (dbi != pi.db) {
    const size_t homes = shared.homes.size();
    s = ShareObject(dbi, frame, ref);  // P12: the page is stored in dbi too
    if (shared_.at(uint32_t(frame)).homes.size() != homes) a.home_db = dbi;
  } else {
    UnshareIfPlain(frame);
  }
  adopted_.push_back(a);
  return s;
}

void Persistence::RevertAdoptions() {
  heap::PageHeap &pages = heap_->pages();
  for (auto a = adopted_.rbegin(); a != adopted_.rend(); ++a) {
    PageInfo &pi = pages.Info(a->frame);
    SharedFrame &shared = shared_[a->frame];
    pi.flags |= heap::kPageShared;
    if (a->home_db != 0) {
      for (auto h = shared.homes.begin(); h != shared.homes.end(); ++h)
        if (h->first == a->home_db) {
          frames_.erase(Key(h->first, h->second));
          shared.homes.erase(h);
          break;
        }
    }
    shared.owners[a->offset] = 0;
    shared.tenants++;
  }
  adopted_.clear();
}

void Persistence::OpenTenantPage(size_t frame) {
  heap::PageHeap &pages = heap_->pages();
  const PageInfo &h = pages.Info(frame);
  if (heap::PageHeap::ProtectionOf(h) == Protection::kReadWrite) return;
  pages.Protect(frame, 1, Protection::kReadWrite);
  opened_.push_back(uint32_t(frame));
}

void Persistence::SweepTenants(const std::function<bool(const void *)> &live) {
  heap::PageHeap &pages = heap_->pages();
  auto &registry = types::TypeRegistry::Get();
  std::vector<uint32_t> plain;
  for (auto &[frame, shared] : shared_) {
    if (shared.tenants == 0 || pages.Info(frame).space != heap::Space::kCurrent) continue;
    char *base = pages.PageAddress(frame);
    for (auto it = shared.owners.begin(); it != shared.owners.end();) {
      void *ref = base + it->first;
      if (it->second != 0 || live(ref)) {
        ++it;
        continue;
      }
      // Dead: a filler of its size, in memory as in the stored forms (P8): its payload zero as
      // well, as the stored forms have it (D14), so that the page in memory is its stored form
      // swizzled once it stops being shared, and a clean image of it is a right base (D12).
      OpenTenantPage(frame);
      const size_t bytes = heap::ObjectBytes(heap::TypeOfHeader(heap::HeaderOf(ref)), ref);
      heap::HeaderOf(ref) =
          reinterpret_cast<uintptr_t>(registry.FillerType(bytes - heap::kWordSize));
      std::memset(ref, 0, bytes - heap::kWordSize);
      it = shared.owners.erase(it);
      shared.tenants--;
    }
    if (shared.owners.empty() && shared.homes.empty()) plain.push_back(frame);
  }
  for (uint32_t f : plain) UnshareIfPlain(f);
  for (uint32_t f : opened_) {
    const PageInfo &h = pages.Info(f);
    const Protection want = h.persistent()
                                ? ProtectionFor(h.frame_state(), h.flags & heap::kPageReferenced)
                                : Protection::kReadWrite;
    if (heap::PageHeap::ProtectionOf(h) != want) pages.Protect(f, 1, want);
  }
  opened_.clear();
}

void Persistence::MakeTransient(size_t head) {
  heap::PageHeap &pages = heap_->pages();
  PageInfo &h = pages.Info(head);
  const size_t n = RunOf(h);
  assert(h.frame_state() == FrameState::kModified);
  if (pages.PageId(head)) frames_.erase(Key(h.db, pages.PageId(head)));
  Unshare(head);
  SetState(head, FrameState::kTransient);
  for (size_t k = 0; k < n; k++) {
    pages.Info(head + k).db = 0;
    pages.PageId(head + k) = 0;
  }
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

namespace {

class FrameReport {
 public:
  explicit FrameReport(size_t max_report) : max_report_(max_report) {}
  __attribute__((format(printf, 2, 3))) void operator()(const char *fmt, ...) {
    problems_++;
    if (max_report_ && problems_ > max_report_) return;
    std::fputs("cairn: frame verifier: ", stderr);
    va_list ap;
    va_start(ap, fmt);
    std::vfprintf(stderr, fmt, ap);
    va_end(ap);
    std::fputc('\n', stderr);
  }
  size_t problems() const { return problems_; }

 private:
  size_t max_report_, problems_ = 0;
};

const char *StateName(FrameState s) {
  switch (s) {
    case FrameState::kReserved:
      return "reserved";
    case FrameState::kClean:
      return "clean";
    case FrameState::kModified:
      return "modified";
    case FrameState::kTransient:
      break;
  }
  return "transient";
}

}  // namespace

size_t Persistence::VerifyFrames(size_t max_report) {
  heap::PageHeap &pages = heap_->pages();
  FrameReport report(max_report);
  uint64_t counted[4] = {};
  size_t heads = 0, clean_heads = 0, modified_heads = 0, unnumbered = 0, homes = 0;
  // P9 on a clean shared frame (P12), object by object: a reference lands on an object of the
  // referring object's database.
  auto check_shared = [&](size_t i) {
    const PageInfo &h = pages.Info(i);
    char *base = pages.PageAddress(i);
    for (uint32_t o = 0; o < h.used;) {
      void *ref = base + o + heap::kWordSize;
      const cairn_type *t = heap::TypeOfHeader(heap::HeaderOf(ref));
      const uint8_t own = OwnerAt(i, uint32_t(o + heap::kWordSize));
      if (own == 0) {  // a tenant (P13): transient, its references are the heap verifier's
        o += uint32_t(heap::ObjectBytes(t, ref));
        continue;
      }
      heap::ForEachRefSlot(t, ref, [&](void **slot) {
        if (!*slot || !pages.Covers(*slot)) return;
        size_t j = pages.IndexOf(*slot);
        const PageInfo &to = pages.Info(j);
        if (to.kind == PageKind::kLargeTail) j -= to.run;
        const bool wrong =
            !to.persistent() ||
            OwnerAt(j, uint32_t(static_cast<char *>(*slot) - pages.PageAddress(j))) != own;
        if (wrong)
          report(
              "an object of type '%s' of database %u on shared frame %zu refers to %p, %s "
              "(P9, P12)",
              t->name, unsigned(own), i, *slot,
              to.persistent() ? "an object of another database" : "a transient object");
      });
      o += uint32_t(heap::ObjectBytes(t, ref));
    }
  };
  pages.ForEachTouchedPage([&](size_t i) {
    const PageInfo &h = pages.Info(i);
    if (h.space == heap::Space::kFree || !h.persistent() || h.kind == PageKind::kLargeTail) return;
    const FrameState s = h.frame_state();
    const size_t n = RunOf(h);
    const unsigned long long id = pages.PageId(i);
    counted[size_t(s)] += n;
    heads++;
    clean_heads += s == FrameState::kClean;
    modified_heads += s == FrameState::kModified;
    const bool referenced = h.flags & heap::kPageReferenced;
    if (referenced && s != FrameState::kClean)
      report("frame %zu (database %u, page %llu) is %s but marked referenced (P11)", i, h.db, id,
             StateName(s));
    auto run = s == FrameState::kModified ? run_images_.find(uint32_t(i)) : run_images_.end();
    if (run != run_images_.end() && run->second.dirty.size() != n) run = run_images_.end();
    for (size_t k = 0; k < n; k++) {
      // D16: a modified run's page written in the transaction is writable, the others not.
      const Protection want =
          run == run_images_.end()
              ? ProtectionFor(s, referenced)
              : (run->second.dirty.at(k) ? Protection::kReadWrite : Protection::kRead);
      const PageInfo &pi = pages.Info(i + k);
      if (pi.frame_state() != s ||
          (pi.flags & heap::kPageReferenced) != (h.flags & heap::kPageReferenced))
        report("page %zu of the run at frame %zu has flags %#x, its head %#x (D7)", k, i, pi.flags,
               h.flags);
      if (heap::PageHeap::ProtectionOf(pi) != want)
        report("frame %zu (database %u, page %llu) is %s%s but its protection is %d, not %d (D7)",
               i + k, h.db, id, StateName(s), referenced ? "" : ", not referenced",
               int(heap::PageHeap::ProtectionOf(pi)), int(want));
    }
    if (clock_.Contains(i) != (s == FrameState::kClean))
      report("frame %zu (database %u, page %llu) is %s but %s the CLOCK ring (D7)", i, h.db, id,
             StateName(s), clock_.Contains(i) ? "in" : "not in");
    if (modified_.Contains(i) != (s == FrameState::kModified))
      report("frame %zu (database %u, page %llu) is %s but %s the modified set (D7)", i, h.db, id,
             StateName(s), modified_.Contains(i) ? "in" : "not in");
    if (s != FrameState::kClean && (refs_.count(uint32_t(i)) || run_page_refs_.count(uint32_t(i))))
      report("frame %zu (database %u, page %llu) is %s but has recorded references (D10)", i, h.db,
             id, StateName(s));
    if (s == FrameState::kClean && referenced && h.kind == PageKind::kLargeHead &&
        !(h.flags & heap::kPageShared)) {
      // (A cold run (P11) is not read: that would warm it.)
      // D10 for a run: the page lists are what its pages refer to now, refs_ their union.
      auto pr = run_page_refs_.find(uint32_t(i));
      bool right = pr != run_page_refs_.end() && pr->second.size() == RunOf(h);
      std::set<uint32_t> all;
      for (size_t k = 0; right && k < RunOf(h); k++) {
        std::vector<uint32_t> now = RunPageReferences(i, k), was = pr->second[k];
        std::sort(now.begin(), now.end());
        std::sort(was.begin(), was.end());
        right = now == was;
        all.insert(now.begin(), now.end());
      }
      // refs_, if made (References), is their union, each frame once.
      auto rec = refs_.find(uint32_t(i));
      const std::set<uint32_t> listed =
          rec == refs_.end() ? all : std::set<uint32_t>(rec->second.begin(), rec->second.end());
      if (!right || listed != all || (rec != refs_.end() && listed.size() != rec->second.size()))
        report(
            "frame %zu (database %u, page %llu), a clean run, has recorded references that are "
            "not what its pages refer to (D10)",
            i, h.db, id);
    }
    if (id == 0 && s == FrameState::kModified) {
      unnumbered++;  // made persistent by a commit that is failing: transient again (D9)
      return;
    }
    auto it = frames_.find(Key(h.db, id));
    if (it == frames_.end() || it->second != i)
      report("frame %zu (database %u, page %llu) is not the frame map's entry for its page (D1)", i,
             h.db, id);
    if (h.flags & heap::kPageShared) {
      auto sh = shared_.find(uint32_t(i));
      if (sh == shared_.end() || (sh->second.homes.empty() && sh->second.tenants == 0) ||
          h.kind != PageKind::kSmall) {
        report(
            "frame %zu (database %u, page %llu) is marked shared but has no homes and no "
            "tenants (D13, D14)",
            i, h.db, id);
        return;
      }
      uint32_t tenants = 0;
      for (const auto &[offset, owner] : sh->second.owners) tenants += owner == 0;
      if (tenants != sh->second.tenants)
        report("frame %zu (database %u, page %llu) has %u tenants, its count says %u (D14)", i,
               h.db, id, tenants, sh->second.tenants);
      if (tenants && (s == FrameState::kReserved || (s == FrameState::kClean && !referenced)))
        report("frame %zu (database %u, page %llu) has tenants but is %s%s (D14)", i, h.db, id,
               StateName(s), s == FrameState::kClean ? " and cold" : "");
      for (const auto &[d, page] : sh->second.homes) {
        homes++;
        auto home = frames_.find(Key(d, page));
        if (home == frames_.end() || home->second != i)
          report(
              "frame %zu is shared with database %u, page %llu, which the frame map does not "
              "give it (D13)",
              i, unsigned(d), static_cast<unsigned long long>(page));
      }
      // P9 per object (P12), on a clean page that is readable (not cold).
      if (s == FrameState::kClean && referenced) check_shared(i);
    }
  });
  for (uint32_t f : kept_) {  // D15
    const PageInfo &pi = pages.Info(f);
    if (pi.space == heap::Space::kFree || !pi.persistent() ||
        pi.frame_state() != FrameState::kModified || pi.kind != PageKind::kSmall ||
        (pi.flags & heap::kPageShared) || !clean_images_.count(f))
      report(
          "frame %u was kept writable by the last commit but is not a modified, unshared small "
          "page with a clean image (D15)",
          unsigned(f));
  }
  for (const auto &[f, sh] : clean_images_)
    if (!modified_.Contains(f))
      report("frame %u has a clean image but is not modified (D12)", unsigned(f));
  size_t image_pages = 0;
  for (const auto &[f, image] : run_images_) {
    image_pages += image.pages;
    size_t copies = 0;
    bool copies_dirty = image.copies.size() == image.dirty.size();
    for (size_t k = 0; copies_dirty && k < image.copies.size(); k++) {
      copies += image.copies[k] != nullptr;
      copies_dirty = !image.copies[k] || image.dirty[k];
    }
    if (!modified_.Contains(f) || pages.Info(f).kind != PageKind::kLargeHead ||
        pages.Info(f).run != image.dirty.size() || copies != image.pages || !copies_dirty)
      report(
          "frame %u has a run image but is not a modified large object's run of its size, or "
          "has copies of pages not written (D16)",
          unsigned(f));
  }
  if (image_pages != run_image_pages_ || image_pages > kMaxRunImagePages)
    report("the run images hold %zu pages, the counter says %zu, at most %zu (D16)", image_pages,
           run_image_pages_, kMaxRunImagePages);
  for (const auto &[f, sh] : shared_)
    if (!(pages.Info(f).flags & heap::kPageShared))
      report("frame %u has shared-page entries but is not marked shared (D13)", unsigned(f));
  for (FrameState s : {FrameState::kReserved, FrameState::kClean, FrameState::kModified})
    if (counted[size_t(s)] != in_state_[size_t(s)])
      report("the page table has %llu %s persistent pages, the counter says %llu (D7)",
             static_cast<unsigned long long>(counted[size_t(s)]), StateName(s),
             static_cast<unsigned long long>(in_state_[size_t(s)]));
  if (clock_.size() != clean_heads || modified_.size() != modified_heads)
    report(
        "the CLOCK ring holds %zu frames and the modified set %zu; the page table has %zu clean "
        "and %zu modified pages or runs (D7)",
        clock_.size(), modified_.size(), clean_heads, modified_heads);
  if (frames_.size() != heads - unnumbered + homes)
    report(
        "the frame map has %zu entries for %zu persistent frames and %zu homes of shared "
        "frames (D1, D13)",
        frames_.size(), heads - unnumbered, homes);
  return report.problems();
}

// --- The CLOCK ring of clean pages (P11) -----------------------------------------------------

void Persistence::NewReferencePass() {
  const size_t capacity = heap_->pages().capacity();
  if (ref_seen_size_ < capacity) {
    if (ref_seen_) munmap(ref_seen_, ref_seen_size_ * sizeof(uint32_t));
    void *p = mmap(nullptr, capacity * sizeof(uint32_t), PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED)
      Fatal("no address space for the references' scratch of %zu pages", capacity);
    ref_seen_ = static_cast<uint32_t *>(p);
    ref_seen_size_ = capacity;
    ref_pass_ = 0;
  }
  if (++ref_pass_ == 0) {  // wrapped: no stale mark may equal the new pass
    // (Zero again, and not resident: the pages of a private anonymous mapping read as zeros.)
    if (madvise(ref_seen_, ref_seen_size_ * sizeof(uint32_t), MADV_DONTNEED) != 0)
      std::memset(ref_seen_, 0, ref_seen_size_ * sizeof(uint32_t));
    ref_pass_ = 1;
  }
}

void Persistence::NoteReference(const void *target, size_t head, std::vector<uint32_t> *out) {
  heap::PageHeap &pages = heap_->pages();
  if (target == nullptr || !pages.Covers(target)) return;
  size_t i = pages.IndexOf(target);
  const PageInfo &pi = pages.Info(i);
  if (pi.kind == PageKind::kLargeTail) i -= pi.run;
  if (i != head && ref_seen_[i] != ref_pass_) {
    ref_seen_[i] = ref_pass_;
    out->push_back(uint32_t(i));
  }
}

void Persistence::RecordReferences(size_t head) {
  heap::PageHeap &pages = heap_->pages();
  const PageInfo &h = pages.Info(head);
  if (h.kind == PageKind::kLargeHead && !(h.flags & heap::kPageShared)) {
    const size_t n = RunOf(h);
    std::vector<std::vector<uint32_t>> page_refs(n);
    for (size_t k = 0; k < n; k++) page_refs[k] = RunPageReferences(head, k);
    SetRunReferences(head, std::move(page_refs));
    return;
  }
  NewReferencePass();
  std::vector<uint32_t> out;
  char *base = pages.PageAddress(head);
  const uint32_t end = h.kind == PageKind::kLargeHead ? uint32_t(heap::kWordSize) : h.used;
  const bool shared = (h.flags & heap::kPageShared) != 0;
  for (uint32_t o = 0; o < end;) {
    void *ref = base + o + heap::kWordSize;
    const cairn_type *t = heap::TypeOfHeader(heap::HeaderOf(ref));
    // A tenant's references are the collection's to follow (D14).
    if (shared && OwnerAt(head, o + uint32_t(heap::kWordSize)) == 0) t = nullptr;
    if (t) heap::ForEachRefSlot(t, ref, [&](void **slot) { NoteReference(*slot, head, &out); });
    o += uint32_t(heap::ObjectBytes(heap::TypeOfHeader(heap::HeaderOf(ref)), ref));
  }
  if (out.empty())
    refs_.erase(uint32_t(head));
  else
    refs_[uint32_t(head)] = std::move(out);
}

std::vector<uint32_t> Persistence::RunPageReferences(size_t head, size_t k) {
  heap::PageHeap &pages = heap_->pages();
  NewReferencePass();
  std::vector<uint32_t> out;
  char *base = pages.PageAddress(head);
  void *ref = base + heap::kWordSize;  // the run's one object
  const cairn_type *t = heap::TypeOfHeader(heap::HeaderOf(ref));
  const char *lo = base + k * heap::kPageSize;
  heap::ForEachRefSlotIn(t, ref, lo, lo + heap::kPageSize,
                         [&](void **slot) { NoteReference(*slot, head, &out); });
  return out;
}

void Persistence::SetRunReferences(size_t head, std::vector<std::vector<uint32_t>> page_refs) {
  refs_.erase(uint32_t(head));  // their union is made when a collection asks for it (D10)
  run_page_refs_[uint32_t(head)] = std::move(page_refs);
}

const std::vector<uint32_t> *Persistence::References(size_t head) {
  if (auto it = refs_.find(uint32_t(head)); it != refs_.end()) return &it->second;
  auto pr = run_page_refs_.find(uint32_t(head));
  if (pr == run_page_refs_.end()) return nullptr;
  NewReferencePass();
  std::vector<uint32_t> all;
  for (const std::vector<uint32_t> &list : pr->second)
    for (uint32_t f : list)
      if (ref_seen_[f] != ref_pass_) {
        ref_seen_[f] = ref_pass_;
        all.push_back(f);
      }
  if (all.empty()) return nullptr;
  return &(refs_[uint32_t(head)] = std::move(all));
}

void Persistence::RecordRunReferences(size_t head, RunImage &image) {
  for (size_t k = 0; k < image.changed.size(); k++)
    if (image.changed[k]) image.page_refs[k] = RunPageReferences(head, k);
  SetRunReferences(head, std::move(image.page_refs));
}

bool Persistence::ReleaseFramesNow() {
  uint64_t in_use =
      in_state_[size_t(FrameState::kReserved)] + in_state_[size_t(FrameState::kClean)];
  // Past half the arena, again only once more frames are in use than after the last one (one
  // that released nothing would otherwise run again at every commit): by a sixteenth of the
  // arena at most.
  const uint64_t step =
      std::max<uint64_t>(1, std::min<uint64_t>(kReleaseGrowth / 8, options_.max_frames / 16));
  return in_use >= next_release_ ||
         (in_use > options_.max_frames / 2 && in_use >= in_use_at_release_ + step);
}

void Persistence::FramesReleased() {
  uint64_t in_use =
      in_state_[size_t(FrameState::kReserved)] + in_state_[size_t(FrameState::kClean)];
  next_release_ = std::max(2 * in_use, in_use + kReleaseGrowth);
  in_use_at_release_ = in_use;
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

void Persistence::PrepareRelease() {
  const uint64_t clean = in_state_[size_t(FrameState::kClean)];
  const uint64_t in_use = in_state_[size_t(FrameState::kReserved)] + clean;
  // D10's pressure rule: past three quarters of the persistent arena, the frames the clean
  // pages refer to may be most of what is reserved (a page of B-tree nodes refers to hundreds
  // of pages), and a release frees only frames nothing refers to: a reader that keeps to the
  // residency budget would fill the arena all the same. Half the clean pages go first; only at
  // the end of a commit (relieve_), never in a collection an allocation starts, which must not
  // evict a page the program made resident for the kernel to read (OpenTail).
  if (!relieve_ || in_use <= options_.max_frames / 4 * 3) return;
  const uint64_t target = clean / 2;
  EvictWhile([&] { return in_state_[size_t(FrameState::kClean)] > target; });
}

template <class Over>
void Persistence::EvictWhile(const Over &over) {
  heap::PageHeap &pages = heap_->pages();
  // Two turns of the hand clear every bit and then find it clear; pages touched by the current
  // instruction (the most recent few) are never taken.
  size_t steps = 2 * clock_.size() + 1;
  while (over() && steps-- > 0 && !clock_.empty()) {
    if (hand_ >= clock_.size()) hand_ = 0;
    size_t f = clock_[hand_];
    PageInfo &pi = pages.Info(f);
    if (IsRecent(f) || HasTenants(f)) {  // D14: a tenant's page stays resident and warm
      hand_++;
    } else if (pi.flags & heap::kPageReferenced) {
      Cool(f);  // the next touch traps and sets the bit again (Warm)
      hand_++;
    } else {
      Evict(f);  // its place in the ring now holds another page: the hand stays
    }
  }
}

void Persistence::EnforceBudgets() {
  heap::PageHeap &pages = heap_->pages();
  EvictWhile([&] {
    return in_state_[size_t(FrameState::kClean)] + kept_.size() > options_.max_resident_pages ||
           pages.protection_boundaries() > options_.max_protection_runs;
  });
  if (pages.protection_boundaries() > options_.max_protection_runs + 1000)
    Fatal(
        "the heap's memory mapping is split in %zu pieces, over the budget of %llu "
        "(max_protection_runs; the kernel allows vm.max_map_count, usually 65530), and no clean "
        "persistent page is left to unload: %llu persistent pages are modified in scattered "
        "places. Commit more often, or raise the budget and vm.max_map_count. Nothing was "
        "written.",
        pages.protection_boundaries(),
        static_cast<unsigned long long>(options_.max_protection_runs),
        static_cast<unsigned long long>(in_state_[size_t(FrameState::kModified)]));
}

}  // namespace cairn::persist
