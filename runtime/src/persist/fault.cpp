// Faulting and swizzling at page-fault time.
//
// A reference to a persistent page that is not loaded gets a frame reserved for it, with no
// access (Swizzle). The first touch traps; HandleFault reads the page from the store (checksum
// verified by the store), swizzles every reference on it (reserving frames for the pages they
// name: a wave-front one step ahead of the program), turns each object's type index back into
// this program's descriptor, and makes the page readable. The first write to a clean page traps
// again and marks it modified (read-write until the transaction ends).
//
// An error found while loading a page (a type this program lacks or defines otherwise, a damaged
// page, a store error) is a Status all the way up to HandleFault, which leaves the heap as it was
// before the touch (the frame reserved again, no access; frames reserved for the pages the failed
// page names stay reserved, unreferenced, and go at a collection that releases frames), marks
// the open transaction failed and records the error. Only then does the caller (the signal handler,
// cairn_handle_fault, cairn_make_resident) call ReportFaultError, which runs the embedder's hook
// or stops the program: no frame between it and the hook owns anything.
#include <unistd.h>

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <cstring>

#include "heap/object.h"
#include "persist/persistence.h"
#include "persist/type_layout.h"
#include "types/type_registry.h"
#include "util/clock.h"
#include "util/fatal.h"

namespace cairn::persist {

using heap::kPageSize;
using heap::kWordSize;
using heap::PageInfo;
using heap::PageKind;

namespace {

cairn_fault_error_hook fault_error_hook = nullptr;
void *fault_error_hook_ctx = nullptr;

// What the user can do about a page whose contents are wrong.
std::string Damaged(const std::string &store_dir, const cairn_db &db) {
  return "; the database is damaged: " + store::DamageAdvice(store_dir, db.name);
}

}  // namespace

void Persistence::SetFaultErrorHook(cairn_fault_error_hook hook, void *ctx) {
  fault_error_hook = hook;
  fault_error_hook_ctx = ctx;
}

Status Persistence::PageError(const cairn_db &db, uint64_t page, cairn_status code,
                              const std::string &what) {
  fault_database_ = db.name;
  fault_page_ = page;
  return Status(code, "database '" + db.name + "'" +
                          (page ? ", page " + std::to_string(page) : std::string()) + ": " + what);
}

Status Persistence::PageFault(const cairn_db &db, uint64_t page, const Status &s) {
  fault_database_ = db.name;
  fault_page_ = page;
  return s;
}

void Persistence::ReportFaultError(void *pc) {
  cairn_fault_error e{};
  e.code = fault_error_.code();
  e.message = fault_error_.message().c_str();
  e.database = fault_database_.c_str();
  e.page = fault_page_;
  e.address = fault_address_;
  e.pc = pc;
  e.transaction_failed = open_ && failed_;
  SetLastError(fault_error_);
  if (fault_error_hook) fault_error_hook(&e, fault_error_hook_ctx);
  // No hook, or it returned: the touching instruction cannot be given an error. Stop the program
  // with the whole story; nothing of the open transaction has been written.
  std::fflush(stdout);
  std::string msg =
      "cairn: error: " + fault_error_.message() + "\n" +
      (open_ ? "cairn: the open transaction is aborted: nothing of it was written\n" : "");
  ssize_t ignored = write(2, msg.data(), msg.size());
  (void)ignored;
  _exit(1);
}

Status Persistence::ReadTransaction(std::unique_ptr<store::Transaction> *temp,
                                    store::Transaction **out) {
  if (open_ && !failed_ && txn_) {
    *out = txn_.get();
    return Status::Ok();
  }
  Status s = store_->BeginTransaction(temp);
  if (!s.ok())
    return Status(s.code(), "could not begin a read transaction on the store: " + s.message());
  *out = temp->get();
  return Status::Ok();
}

bool Persistence::IsPersistentPage(const void *addr) const {
  const heap::PageHeap &pages = heap_->pages();
  if (!pages.Covers(addr)) return false;
  const PageInfo &pi = pages.Info(pages.IndexOf(addr));
  return pi.space != heap::Space::kFree && pi.persistent();
}

FaultResult Persistence::HandleFault(void *addr, int is_write) {
  heap::PageHeap &pages = heap_->pages();
  if (!pages.Covers(addr)) return FaultResult::kNotOurs;
  // The collector never touches a page that is not loaded (P9); if it did, loading one in the
  // middle of a collection would corrupt it: let the fault crash the program instead.
  if (heap_->collecting()) return FaultResult::kNotOurs;
  size_t i = pages.IndexOf(addr);
  const PageInfo &pi = pages.Info(i);
  if (pi.space == heap::Space::kFree || !pi.persistent()) return FaultResult::kNotOurs;
  size_t head = pi.kind == PageKind::kLargeTail ? i - pi.run : i;
  const PageInfo &h = pages.Info(head);
  // What the fault means follows from the page's state (D7), whose protection is derived from it.
  const heap::FrameState state = h.frame_state();
  if (state == heap::FrameState::kReserved) {
    Status s = Load(head);
    if (!s.ok()) {
      // The heap is as it was before the touch (Load undid its work). The transaction cannot
      // go on as if the page had been read: only abort is allowed now (D3).
      if (open_ && !failed_) {
        failed_ = true;
        failure_ = s;
      }
      fault_error_ = s;
      fault_address_ = addr;
      return FaultResult::kFailed;
    }
    // A write that found the page not loaded would trap again at once: make it writable now.
    if (is_write != 1) return FaultResult::kHandled;
  } else if (state == heap::FrameState::kModified) {
    // D16: a page of a modified run not written yet in the transaction is read-only: this is
    // its first write. Any other modified page is writable: the fault is not about it.
    if (!run_images_.count(uint32_t(head)) ||
        heap::PageHeap::ProtectionOf(pi) == heap::Protection::kReadWrite)
      return FaultResult::kNotOurs;
    DirtyRunPage(head, i - head);
    totals_.write_faults++;
    EnforceBudgets();
    return FaultResult::kHandled;
  } else if (!(h.flags & heap::kPageReferenced)) {
    Warm(head);  // a cold clean page touched again (P11): readable, its contents are there
    if (is_write != 1) return FaultResult::kHandled;
  } else if (is_write == 0) {
    return FaultResult::kHandled;  // a read of a loaded page can proceed as it is
  }
  // The first write to a clean page: from now on it is modified and written at commit.
  Touched(head);
  if (run_images_.count(uint32_t(head))) DirtyRunPage(head, i - head);  // D16
  totals_.write_faults++;
  EnforceBudgets();
  return FaultResult::kHandled;
}

Status Persistence::Load(size_t head) {
  uint64_t t0 = NowNs();
  heap::PageHeap &pages = heap_->pages();
  const PageInfo &h = pages.Info(head);
  const size_t n = h.kind == PageKind::kLargeHead ? h.run : 1;
  BeginLoad(head);
  Status s = ReadAndSwizzle(head);
  if (!s.ok()) {
    LoadFailed(head);  // reserved again: the next touch reads the page again
    return s;
  }
  Loaded(head);
  totals_.pages_faulted += n;
  totals_.fault_ns += NowNs() - t0;
  EnforceBudgets();
  return Status::Ok();
}

Status Persistence::ReadAndSwizzle(size_t head) {
  heap::PageHeap &pages = heap_->pages();
  PageInfo &h = pages.Info(head);
  cairn_db &db = *dbs_[h.db - 1];
  const bool large = h.kind == PageKind::kLargeHead;  // a run of n >= 1 pages, one object
  const size_t n = large ? h.run : 1;
  const uint64_t first = pages.PageId(head);
  {
    std::unique_ptr<store::Transaction> temp;
    store::Transaction *t = nullptr;
    Status s = ReadTransaction(&temp, &t);
    if (!s.ok()) return PageError(db, first, s.code(), s.message());
    for (size_t k = 0; k < n; k++) {
      uint32_t crc = 0;
      s = t->ReadPage(db.id, first + k, pages.PageAddress(head + k), &crc);
      if (s.ok()) NoteStoredChecksum(head + k, crc);  // D12, D16: each page's frame
      if (!s.ok()) {
        if (temp) temp->Abort();
        // A free page: something refers to it, and that is the damage (D11).
        if (s.code() == CAIRN_NOT_FOUND)
          return BadTarget(db, head, 0, "a page that is free or does not exist");
        return PageFault(db, first + k, s);  // the store's message names the page
      }
    }
    if (temp) temp->Abort();
  }
  // Swizzle: type indexes to descriptors, persistent references to addresses.
  char *base = pages.PageAddress(head);
  const size_t limit = n * kPageSize;
  // Objects lie end to end from offset 0; a zero header word ends them. A large object is alone
  // in its run.
  size_t off = 0;
  PageChecks::Starts starts;  // D11: where this page's objects start
  while (off + 2 * kWordSize <= (large ? 2 * kWordSize : kPageSize)) {
    uint64_t &word = *reinterpret_cast<uint64_t *>(base + off);
    if (word == 0) break;
    if (word > UINT32_MAX)
      return PageError(db, first, CAIRN_CORRUPTION,
                       "the object header at offset " + std::to_string(off) +
                           " is not a type index" + Damaged(store_->dir(), db));
    const cairn_type *t = nullptr;
    Status s = TypeForIndex(db, uint32_t(word), first, &t);
    if (!s.ok()) return s;
    word = reinterpret_cast<uintptr_t>(t);
    void *ref = base + off + kWordSize;
    // An array's length is checked against the room left before its size is computed (a huge
    // length would overflow it).
    const size_t room = limit - off;
    const bool too_long = heap::IsArrayType(t) &&
                          heap::ArrayLength(ref) > (room - 2 * kWordSize) / (t->size ? t->size : 1);
    size_t bytes = too_long ? SIZE_MAX : heap::ObjectBytes(t, ref);
    // A run that holds no object of its length: the reference that named the run is wrong.
    if (large && (bytes > room || bytes <= heap::kLargeObjectBytes || bytes <= (n - 1) * kPageSize))
      return BadTarget(db, head, uint32_t(kWordSize),
                       "as a large object of " + std::to_string(n) +
                           " page(s), but its object of type '" + t->name + "' is " +
                           (too_long ? "longer" : std::to_string(bytes) + " bytes"));
    if (bytes > room || (!large && bytes > heap::kLargeObjectBytes) ||
        (large && (bytes <= heap::kLargeObjectBytes || bytes <= (n - 1) * kPageSize)))
      return PageError(
          db, first, CAIRN_CORRUPTION,
          "an object of type '" + std::string(t->name) + "' at offset " + std::to_string(off) +
              " does not fit its " + (large ? "run of " + std::to_string(n) + " page(s)" : "page") +
              (too_long ? " (an array of " + std::to_string(heap::ArrayLength(ref)) + " elements)"
                        : " (" + std::to_string(bytes) + " bytes)") +
              Damaged(store_->dir(), db));
    starts.Set(uint32_t(off + kWordSize));
    heap::ForEachRefSlot(t, ref, [&](void **slot) {
      uint64_t v = reinterpret_cast<uint64_t>(*slot);
      if (v && s.ok()) s = Swizzle(db, v, head, slot);
    });
    if (!s.ok()) return s;
    off += bytes;
  }
  if (large && off == 0)
    return PageError(
        db, first, CAIRN_CORRUPTION,
        "the first page of a large object holds no object" + Damaged(store_->dir(), db));
  // D11: every reference into this page that was swizzled before it was read lands on an object.
  if (!large) {
    if (uint32_t stray = checks_.Loaded(head, starts, uint32_t(off)))
      return BadTarget(db, head, stray, "where no object starts");
  }
  h.used = uint32_t(off);
  if (h.flags & heap::kPageShared) return LoadSharedObjects(head);
  return Status::Ok();
}

const cairn_type *Persistence::ReadStoredObject(size_t head, const void *ref,
                                                std::vector<uint64_t> *words) {
  heap::PageHeap &pages = heap_->pages();
  const PageInfo &h = pages.Info(head);
  const size_t offset = size_t(static_cast<const char *>(ref) - pages.PageAddress(head));
  if (h.kind != PageKind::kSmall || offset < kWordSize || offset >= kPageSize ||
      offset % kWordSize != 0)
    return nullptr;
  const uint8_t dbi = OwnerAt(head, uint32_t(offset));
  if (dbi == 0) return nullptr;  // a tenant (D14): not stored
  cairn_db &db = *dbs_[dbi - 1];
  const uint64_t page = PageIdIn(head, dbi);
  words->assign(kPageSize / kWordSize, 0);
  {
    std::unique_ptr<store::Transaction> temp;
    store::Transaction *t = nullptr;
    Status s = ReadTransaction(&temp, &t);
    if (s.ok()) s = t->ReadPage(db.id, page, words->data());
    if (temp) temp->Abort();
    if (!s.ok()) return nullptr;
  }
  const uint64_t index = (*words)[offset / kWordSize - 1];
  const cairn_type *t = nullptr;
  if (index == 0 || index > UINT32_MAX || !TypeForIndex(db, uint32_t(index), page, &t).ok())
    return nullptr;
  const void *payload = words->data() + offset / kWordSize;
  if (heap::IsArrayType(t) && heap::ArrayLength(payload) > kPageSize) return nullptr;
  const size_t bytes = heap::ObjectBytes(t, payload);
  if (bytes > heap::kLargeObjectBytes || offset - kWordSize + bytes > kPageSize) return nullptr;
  return t;
}

Status Persistence::LoadSharedObjects(size_t head) {
  heap::PageHeap &pages = heap_->pages();
  const SharedFrame &shared = shared_.at(uint32_t(head));
  char *base = pages.PageAddress(head);
  std::unique_ptr<uint64_t[]> words(new uint64_t[kPageSize / kWordSize]);
  char *image = reinterpret_cast<char *>(words.get());
  for (const auto &[dbi, page] : shared.homes) {
    cairn_db &db = *dbs_[dbi - 1];
    {
      std::unique_ptr<store::Transaction> temp;
      store::Transaction *t = nullptr;
      Status s = ReadTransaction(&temp, &t);
      if (s.ok()) s = t->ReadPage(db.id, page, image);
      if (temp) temp->Abort();
      if (!s.ok()) return PageFault(db, page, s);
    }
    // Its objects, in their places: each database's page has the frame's layout (D13).
    for (const auto &[offset, owner] : shared.owners) {
      if (owner != dbi) continue;
      const size_t off = offset - kWordSize;
      const uint64_t word = *reinterpret_cast<const uint64_t *>(image + off);
      if (word == 0 || word > UINT32_MAX)
        return PageError(db, page, CAIRN_CORRUPTION,
                         "the object header at offset " + std::to_string(off) +
                             " is not a type index" + Damaged(store_->dir(), db));
      const cairn_type *t = nullptr;
      Status s = TypeForIndex(db, uint32_t(word), page, &t);
      if (!s.ok()) return s;
      void *there = image + offset;
      void *here = base + offset;
      const size_t place = heap::ObjectBytes(heap::TypeOfHeader(heap::HeaderOf(here)), here);
      const bool fits = !(heap::IsArrayType(t) && heap::ArrayLength(there) > kPageSize) &&
                        heap::ObjectBytes(t, there) == place;
      if (!fits)
        return PageError(
            db, page, CAIRN_CORRUPTION,
            "the object of type '" + std::string(t->name) + "' at offset " + std::to_string(off) +
                " does not fit its place on the heap page it shares with database '" +
                dbs_[pages.Info(head).db - 1]->name + "'" + Damaged(store_->dir(), db));
      std::memcpy(base + off, image + off, place);
      heap::HeaderOf(here) = reinterpret_cast<uintptr_t>(t);
      heap::ForEachRefSlot(t, here, [&](void **slot) {
        uint64_t v = reinterpret_cast<uint64_t>(*slot);
        if (v && s.ok()) s = Swizzle(db, v, head, slot);
      });
      if (!s.ok()) return s;
    }
  }
  return Status::Ok();
}

Status Persistence::Swizzle(cairn_db &db, uint64_t pref, size_t from_frame, void **out) {
  const PersistentRef r = DecodeRef(pref);
  heap::PageHeap &pages = heap_->pages();
  const uint64_t last = r.page + (r.run ? r.run : 1) - 1;
  if (!WellFormed(r) || last > checks_.known_pages(db.index)) [[unlikely]] {
    if (!WellFormed(r)) return BadReference(db, pref, from_frame, out, "is malformed");
    Status s = KnowPageCount(db);
    if (!s.ok()) return s;
    if (last > checks_.known_pages(db.index))
      return BadReference(db, pref, from_frame, out,
                          "points to page " + std::to_string(last) +
                              ", past the database's last page (" +
                              std::to_string(checks_.known_pages(db.index)) + ")");
  }
  auto it = frames_.find(Key(db.index, r.page));
  size_t frame;
  if (it != frames_.end()) {
    frame = it->second;
    // D11: the reference must agree with what is known of its target.
    const PageInfo &fi = pages.Info(frame);
    if (r.run == 0 && fi.kind == PageKind::kSmall) [[likely]] {
      if (!fi.resident()) {
        checks_.Expect(frame, r.offset);
      } else {
        // A cold clean page has no access (P11), and IsStart may walk a page stabilization
        // filled: it is touched, as a use would.
        if (fi.frame_state() == heap::FrameState::kClean && !(fi.flags & heap::kPageReferenced))
          Warm(frame);
        if (!checks_.IsStart(frame, r.offset, pages.PageAddress(frame), fi.used)) [[unlikely]]
          return BadReference(db, pref, from_frame, out,
                              "points to page " + std::to_string(r.page) + ", offset " +
                                  std::to_string(r.offset) + ", where no object starts");
      }
    } else if (r.run == 0) {
      return BadReference(db, pref, from_frame, out,
                          "points inside the large object at page " + std::to_string(r.page));
    } else if (fi.kind != PageKind::kLargeHead || fi.run != r.run) {
      return BadReference(db, pref, from_frame, out,
                          "names page " + std::to_string(r.page) + " as a large object of " +
                              std::to_string(r.run) + " page(s), which it is not");
    }
  } else {
    Status s = ReserveFrames(db, r.page, r.run ? r.run : 1, r.run != 0, &frame);
    if (!s.ok()) return s;
    checks_.Reset(frame);
    if (r.run == 0) checks_.Expect(frame, r.offset);
  }
  *out = pages.PageAddress(frame) + r.offset;
  return Status::Ok();
}

Status Persistence::BadReference(const cairn_db &db, uint64_t pref, size_t from_frame, void **slot,
                                 const std::string &what) {
  char hex[32];
  std::snprintf(hex, sizeof hex, "%#" PRIx64, pref);
  if (from_frame == SIZE_MAX)
    return PageError(db, 0, CAIRN_CORRUPTION,
                     std::string("its root (") + hex + ") " + what + Damaged(store_->dir(), db));
  heap::PageHeap &pages = heap_->pages();
  size_t at = size_t(reinterpret_cast<char *>(slot) - pages.PageAddress(from_frame));
  // (A shared frame's page in this database: D13.)
  return PageError(db, PageIdIn(from_frame, db.index), CAIRN_CORRUPTION,
                   "the reference at offset " + std::to_string(at) + " (" + hex + ") " + what +
                       Damaged(store_->dir(), db));
}

Status Persistence::KnowPageCount(cairn_db &db) {
  std::unique_ptr<store::Transaction> temp;
  store::Transaction *t = nullptr;
  uint64_t count = 0;
  Status s = ReadTransaction(&temp, &t);
  if (s.ok()) s = t->GetPageCount(db.id, &count);
  if (temp) temp->Abort();
  if (!s.ok()) return PageError(db, 0, s.code(), "reading its page count: " + s.message());
  checks_.known_pages(db.index) = std::max(checks_.known_pages(db.index), count);
  return Status::Ok();
}

Status Persistence::BadTarget(cairn_db &db, size_t frame, uint32_t offset,
                              const std::string &what) {
  // The damage is in whatever holds the reference, which was swizzled earlier: look for it among
  // the resident pages of the database (this is the error path; it may take a while).
  heap::PageHeap &pages = heap_->pages();
  const uint64_t target_page = pages.PageId(frame);
  const char *lo = pages.PageAddress(frame);
  const char *hi = lo + kPageSize;
  auto hits = [&](const void *p) {
    const char *c = static_cast<const char *>(p);
    return c >= lo && c < hi && (offset == 0 || c == lo + offset);
  };
  const std::string target = "page " + std::to_string(target_page) +
                             (offset ? ", offset " + std::to_string(offset) : "") + ", " + what;
  if (db.root_loaded && db.root && hits(db.root))
    return PageError(db, 0, CAIRN_CORRUPTION,
                     "its root points to " + target + Damaged(store_->dir(), db));
  for (const auto &[key, f] : frames_) {
    const PageInfo &pi = pages.Info(f);
    // (A shared frame holds objects of this database if it has a page in it: D13.)
    if ((pi.db != db.index && PageIdIn(f, db.index) == 0) || !pi.resident() || f == frame) continue;
    const char *base = pages.PageAddress(f);
    const size_t end = pi.kind == PageKind::kLargeHead ? kWordSize : pi.used;
    for (size_t off = 0; off < end;) {
      uintptr_t word = *reinterpret_cast<const uintptr_t *>(base + off);
      if (word == 0) break;
      const cairn_type *t = heap::TypeOfHeader(word);
      void *ref = const_cast<char *>(base) + off + kWordSize;
      const void *slot_found = nullptr;
      heap::ForEachRefSlot(t, ref, [&](void **slot) {
        if (!slot_found && hits(*slot)) slot_found = slot;
      });
      if (slot_found) {
        size_t at = size_t(static_cast<const char *>(slot_found) - base);
        return PageError(db, PageIdIn(f, db.index), CAIRN_CORRUPTION,
                         "the reference at offset " + std::to_string(at) +
                             " (in an object of type '" + t->name + "') points to " + target +
                             Damaged(store_->dir(), db));
      }
      off += heap::ObjectBytes(t, ref);
    }
  }
  return PageError(
      db, target_page, CAIRN_CORRUPTION,
      "a reference from another page points to " + target + Damaged(store_->dir(), db));
}

Status Persistence::LoadTypes(cairn_db &db) {
  std::vector<store::TypeEntry> entries;
  {
    std::unique_ptr<store::Transaction> temp;
    store::Transaction *t = nullptr;
    Status s = ReadTransaction(&temp, &t);
    if (s.ok()) s = t->ListTypes(db.id, &entries);
    if (temp) temp->Abort();
    if (!s.ok()) return PageError(db, 0, s.code(), "reading its type table: " + s.message());
  }
  for (const store::TypeEntry &e : entries) {
    if (db.type_by_index.size() <= e.index) db.type_by_index.resize(e.index + 1, nullptr);
    if (db.type_by_index[e.index]) continue;  // checked already
    StoredLayout layout;
    Status s = DecodeLayout(e.layout, &layout);
    if (!s.ok())
      return PageError(db, 0, CAIRN_CORRUPTION,
                       "type table entry " + std::to_string(e.index) + ": " + s.message() +
                           Damaged(store_->dir(), db));
    const cairn_type *local = cairn_find_type(e.fingerprint);
    using types::TypeRegistry;
    if (const TypeRegistry::PlainKind plain = TypeRegistry::PlainKindOf(layout.name);
        !local && layout.refs.empty() && plain != TypeRegistry::kNotPlain) {
      // Pointer-free blocks and the fillers of dead objects have run-time descriptors (a store
      // written before fillers had their own holds them as atomic[N]).
      TypeRegistry &registry = TypeRegistry::Get();
      local = plain == TypeRegistry::kAtomic ? registry.AtomicType(layout.size)
                                             : registry.FillerType(layout.size);
      if (local->fingerprint != e.fingerprint) local = nullptr;
    }
    if (!local && (layout.flags & CAIRN_TYPE_ARRAY) && !(layout.flags & CAIRN_TYPE_TEXT) &&
        layout.fields.empty() && layout.elem_kind != CAIRN_KIND_STRUCT &&
        layout.elem_kind != CAIRN_KIND_NONE) {
      // An array type the program never mentions ([Shape], [[int]]): its layout is its element
      // kind, so the runtime has a descriptor for it (the program reads it as `any`).
      local = types::TypeRegistry::Get().ArrayType(layout.name, cairn_kind(layout.elem_kind));
      // The entry's fingerprint is the one its name and kind give (else the entry is not the
      // array it says), and its layout is checked below as any type's.
      if (local->fingerprint != e.fingerprint) local = nullptr;
    }
    if (!local) continue;  // an error only if an object of it is met (TypeForIndex)
    s = CheckLayout(layout, local, db.name);
    if (!s.ok()) continue;
    db.type_by_index[e.index] = local;
    db.index_of[local] = e.index;
  }
  db.types_loaded = true;
  return Status::Ok();
}

Status Persistence::TypeForIndex(cairn_db &db, uint32_t index, uint64_t page,
                                 const cairn_type **out) {
  if (index < db.type_by_index.size() && db.type_by_index[index]) {
    *out = db.type_by_index[index];
    return Status::Ok();
  }
  Status s = LoadTypes(db);
  if (!s.ok()) return s;
  if (index < db.type_by_index.size() && db.type_by_index[index]) {
    *out = db.type_by_index[index];
    return Status::Ok();
  }
  // Say exactly what is wrong with it.
  store::TypeEntry e;
  {
    std::unique_ptr<store::Transaction> temp;
    store::Transaction *t = nullptr;
    s = ReadTransaction(&temp, &t);
    if (s.ok()) s = t->GetTypeByIndex(db.id, index, &e);
    if (temp) temp->Abort();
  }
  if (!s.ok())
    return PageError(db, page, s.code() == CAIRN_NOT_FOUND ? CAIRN_CORRUPTION : s.code(),
                     "an object names type index " + std::to_string(index) +
                         ", which its type table lacks" + Damaged(store_->dir(), db));
  StoredLayout layout;
  s = DecodeLayout(e.layout, &layout);
  if (!s.ok())
    return PageError(db, page, CAIRN_CORRUPTION,
                     "type table entry " + std::to_string(index) + ": " + s.message() +
                         Damaged(store_->dir(), db));
  const cairn_type *local = cairn_find_type(e.fingerprint);
  char fp[24];
  std::snprintf(fp, sizeof fp, "%016" PRIx64, e.fingerprint);
  if (!local) {
    // Maybe the program defines a type by that name, differently. An instance of a generic
    // class (a name with brackets) exists in a program only where the program uses it.
    const size_t bracket = layout.name.find('[');
    const bool instance = bracket != std::string::npos;
    // A library class stored by a program that declares a class of the same name is named with
    // its module there (`std.list.List[text]`): no type can name it in another program.
    const size_t dot = layout.name.rfind('.', bracket);
    const bool qualified = dot != std::string::npos;
    const std::string short_name =
        qualified ? layout.name.substr(dot + 1, (instance ? bracket : layout.name.size()) - dot - 1)
                  : "";
    // The classes an instance's type arguments name (`Person` of `Box[Person]`) that this
    // program does not have: it cannot mention the instance until it declares them.
    std::string missing_args;
    if (instance && !qualified) {
      const std::string inner = layout.name.substr(bracket + 1, layout.name.size() - bracket - 2);
      size_t depth = 0, start = 0;
      for (size_t i = 0; i <= inner.size(); i++) {
        const char c = i < inner.size() ? inner[i] : ',';
        if (c == '[') depth++;
        if (c == ']') depth--;
        if (c != ',' || depth != 0) continue;
        std::string arg = inner.substr(start, i - start);
        start = i + 1;
        while (!arg.empty() && arg.front() == ' ') arg.erase(0, 1);
        while (!arg.empty() && arg.front() == '[') arg.erase(0, 1);  // [[T]]: T
        while (!arg.empty() && arg.back() == ']' && arg.find('[') == std::string::npos)
          arg.pop_back();
        if (arg.empty() || arg == "int" || arg == "float" || arg == "bool" || arg == "text" ||
            arg == "any" || arg.find('[') != std::string::npos)
          continue;
        if (types::TypeRegistry::Get().FindByName(arg).empty())
          missing_args += (missing_args.empty() ? "'" : ", '") + arg + "'";
      }
    }
    std::string hint;
    if (qualified)
      hint = "; '" + layout.name + "' is a class named with its module, as a program names " +
             "the class '" + short_name + "' of one of its modules (or of the library) when " +
             "another of its modules declares a class '" + short_name +
             "' too: only a program with the same classes reads it";
    else if (!types::TypeRegistry::Get().FindByName(layout.name).empty())
      hint = "; this program defines '" + layout.name +
             "' with other fields: open the database with Database.upgrade(\"" + db.name +
             "\") to convert its objects to this program's definition";
    else if (instance && !missing_args.empty())
      hint = "; its type arguments name " + missing_args +
             ", which this program does not define: define them as the program that stored "
             "the objects did, and mention '" +
             layout.name + "' (e.g. in a type)";
    else if (instance)
      hint =
          "; an instance of a generic class is defined only by a program that uses it: "
          "mention '" +
          layout.name +
          "' in this program (e.g. in a type); if this program declares its own class of "
          "that name, the library's is named with its module here and this program cannot "
          "read it";
    return PageError(db, page, CAIRN_TYPE_MISMATCH,
                     "it holds objects of type '" + layout.name + "' (fingerprint " + fp +
                         "), which this program does not define, or defines with other fields (a "
                         "type's fingerprint covers its name and its fields' names, kinds and "
                         "order); build the program with the definition the database was "
                         "written with" +
                         hint +
                         ". If no object of that type is reachable any more (its class was "
                         "deleted or renamed), `cairn db gc " +
                         db.name + "` makes the dead ones fillers, and then the page is read");
  }
  s = CheckLayout(layout, local, "");  // PageError names the database
  if (s.ok())
    return PageError(db, page, CAIRN_INTERNAL,
                     "type '" + layout.name + "' was refused by the type table and accepted now");
  return PageError(db, page, s.code(), s.message());
}

void Persistence::MakeResident(void *p, size_t n) {
  if (n == 0) return;
  uintptr_t lo = uintptr_t(p) & ~uintptr_t(kPageSize - 1);
  for (uintptr_t a = lo; a < uintptr_t(p) + n; a += kPageSize) {
    void *addr = reinterpret_cast<void *>(a);
    // Load it and make it writable (as a write would).
    if (HandleFault(addr, 1) == FaultResult::kFailed) ReportFaultError();
  }
}

}  // namespace cairn::persist
