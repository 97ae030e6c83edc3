// Transactions: begin, commit (stabilize, unswizzle, write in one store transaction, with the
// identity hashes of the objects made persistent), abort, chain, checkpoint.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "heap/object.h"
#include "persist/persistence.h"
#include "persist/type_layout.h"
#include "types/type_registry.h"
#include "util/clock.h"
#include "util/env.h"
#include "util/fatal.h"
#include "util/memory_info.h"

namespace cairn::persist {

using heap::kPageSize;
using heap::kWordSize;
using heap::PageInfo;
using heap::PageKind;
using heap::Protection;

// Calls f(head, pages) for every modified persistent page, or large object's run, in page order
// (f may change their state: it walks a copy of the set).
template <class F>
void Persistence::ForEachModified(F &&f) {
  heap::PageHeap &pages = heap_->pages();
  std::vector<uint32_t> heads = modified_.members();
  std::sort(heads.begin(), heads.end());
  for (uint32_t i : heads) {
    const PageInfo &pi = pages.Info(i);
    f(size_t(i), size_t(pi.kind == PageKind::kLargeHead ? pi.run : 1));
  }
}

bool Persistence::ChangesPending() {
  if (open_) return false;
  bool changed = false;
  ForEachModified([&](size_t i, size_t) {
    if (changed) return;
    if (heap_->pages().Info(i).kind == PageKind::kLargeHead) {
      const RunImage *r = ChangedRunPages(i);
      changed =
          r == nullptr || std::find(r->changed.begin(), r->changed.end(), true) != r->changed.end();
    } else {
      changed = StoredObjectsChangedSinceClean(i);
    }
  });
  return changed;
}

bool Persistence::StoredObjectsChangedSinceClean(size_t head) const {
  const heap::PageHeap &pages = heap_->pages();
  // Without an image (dropped when tenants made the page shared: D13) the stored objects cannot
  // be told from what was allocated on the page since: not counted, so that the note at the end
  // of main is never wrong (it may be missing for such a page).
  auto image = clean_images_.find(uint32_t(head));
  if (image == clean_images_.end()) return false;
  const char *page = pages.PageAddress(head);
  const char *clean = reinterpret_cast<const char *>(image->second.words.get());
  // The objects the image has, at the same places (a persistent small page's layout does not
  // change, P8); past them only objects made since, which are tenants (transient) or fillers.
  for (uint32_t off = 0; off < image->second.used;) {
    const void *ref = page + off + kWordSize;
    const cairn_type *t = heap::TypeOfHeader(heap::HeaderOf(ref));
    const size_t bytes = heap::ObjectBytes(t, ref);
    const bool transient = types::TypeRegistry::IsFiller(t) ||
                           OwnerAt(head, uint32_t(off + kWordSize)) == 0;  // a dead one, a tenant
    if (!transient && std::memcmp(page + off, clean + off, bytes) != 0) return true;
    off += uint32_t(bytes);
  }
  return false;
}

Status Persistence::Begin() {
  if (open_)
    return Misuse("a transaction is already open: commit or abort it before beginning another");
  Status s = store_->BeginTransaction(&txn_);
  if (!s.ok()) return s;
  open_ = true;
  failed_ = false;
  failure_ = Status::Ok();
  return Status::Ok();
}

Status Persistence::Commit() {
  if (!open_) return Misuse("commit with no transaction open: begin one first");
  if (failed_)
    return Misuse("commit of a failed transaction (" + failure_.message() + "): abort it");
  Status s = WriteCommit(false);
  if (!s.ok()) return s;
  txn_.reset();
  open_ = false;
  return Status::Ok();
}

Status Persistence::Checkpoint() {
  if (!open_) return Misuse("checkpoint with no transaction open: begin one first");
  if (failed_)
    return Misuse("checkpoint of a failed transaction (" + failure_.message() + "): abort it");
  return WriteCommit(true);
}

Status Persistence::Chain() {
  if (!open_) return Misuse("chain with no transaction open: begin one first");
  Status s = Commit();
  if (!s.ok()) return s;
  return Begin();
}

Status Persistence::Abort() {
  if (!open_) return Misuse("abort with no transaction open");
  if (txn_) txn_->Abort();
  txn_.reset();
  DiscardModified();
  EnforceBudgets();  // pages made clean again (D15, D16) count against the residency budget
  for (auto &d : dbs_) {
    if (!d) continue;
    d->root = nullptr;  // read again from root_pref when next asked for (D2)
    d->root_loaded = false;
    d->root_dirty = false;
  }
  open_ = false;
  failed_ = false;
  totals_.aborts++;
  return Status::Ok();
}

void Persistence::DiscardModified() {
  kept_.clear();
  ForEachModified([&](size_t i, size_t) {
    if (UnchangedSinceClean(i) || RestoreRunPages(i)) {
      Written(i);  // D15, D16: as stored; nothing to drop, nothing to read again
    } else if (TenantsOnlySinceClean(i)) {
      // A1: the stored objects as stored, tenants (transient) after them: nothing to drop.
      const uint32_t stored_used = clean_images_.at(uint32_t(i)).used;
      const bool past = heap_->pages().Info(i).used > stored_used;
      Written(i);
      if (past) tail_unstored_[uint32_t(i)] = stored_used;  // D17
    } else if (HasTenants(i)) {
      DiscardKeepingTenants(i);
    } else if (RestoreCleanImage(i)) {
      Written(i);  // D15: as stored again, from its image
    } else {
      Discard(i);
    }
  });
}

bool Persistence::RestoreRunPages(size_t head) {
  auto it = run_images_.find(uint32_t(head));
  if (it == run_images_.end()) return false;
  RunImage &r = it->second;
  // A copy taken before a frame was released may refer to it: the run is read again instead.
  for (size_t k = 0; k < r.dirty.size(); k++)
    if (r.dirty[k] && (!r.copies[k] || r.copy_releases[k] != totals_.frames_released)) return false;
  heap::PageHeap &pages = heap_->pages();
  for (size_t k = 0; k < r.dirty.size(); k++)
    if (r.dirty[k]) std::memcpy(pages.PageAddress(head + k), r.copies[k].get(), heap::kPageSize);
  // As clean as before: every page's references are those recorded then (D10).
  r.changed.assign(r.dirty.size(), false);
  r.changed_commit = commit_serial_;
  return true;
}

void Persistence::DiscardKeepingTenants(size_t head) {
  // D14: transient objects keep their state. Their bytes are kept aside, the page is read again
  // now (its stored form has fillers in their places), and they are put back.
  heap::PageHeap &pages = heap_->pages();
  char *base = pages.PageAddress(head);
  // D17: what a failed commit copied after the stored objects (tenants, and the fillers of
  // those a collection found dead since) is not in any stored form: kept whole, so that no
  // hole of zeros is left where a dead one was.
  const uint32_t old_used = pages.Info(head).used;
  const std::string before(base, old_used);
  std::vector<std::pair<uint32_t, std::string>> kept;
  for (const auto &[offset, owner] : shared_.at(uint32_t(head)).owners) {
    if (owner != 0) continue;
    const char *at = base + offset - kWordSize;
    const size_t bytes =
        heap::ObjectBytes(heap::TypeOfHeader(heap::HeaderOf(base + offset)), base + offset);
    kept.emplace_back(offset, std::string(at, bytes));
  }
  Discard(head);
  Status s = Load(head);
  if (!s.ok())
    Fatal(
        "aborting the transaction: page %llu of database '%s' holds transient objects the program "
        "still uses, and reading the page again failed: %s. Nothing of the transaction was "
        "written; `cairn db check` tells whether the database is damaged, then run the program "
        "again",
        static_cast<unsigned long long>(pages.PageId(head)),
        dbs_[pages.Info(head).db - 1]->name.c_str(), s.message().c_str());
  const Protection prot = heap::PageHeap::ProtectionOf(pages.Info(head));
  pages.Protect(head, 1, Protection::kReadWrite);
  const uint32_t stored_used = pages.Info(head).used;  // as read
  if (PageInfo &pi = pages.Info(head); old_used > pi.used) {
    std::memcpy(base + pi.used, before.data() + pi.used, old_used - pi.used);
    pi.used = old_used;
    tail_unstored_[uint32_t(head)] = stored_used;
  }
  for (const auto &[offset, bytes] : kept) {
    std::memcpy(base + offset - kWordSize, bytes.data(), bytes.size());
    // D17: a tenant after the stored objects (a failed commit's, or the mutator's tail) extends
    // the page again.
    PageInfo &pi = pages.Info(head);
    if (offset - kWordSize + bytes.size() > pi.used) {
      pi.used = uint32_t(offset - kWordSize + bytes.size());
      tail_unstored_[uint32_t(head)] = stored_used;
    }
  }
  pages.Protect(head, 1, prot);
}

Persistence::RunImage *Persistence::ChangedRunPages(size_t head) {
  heap::PageHeap &pages = heap_->pages();
  const PageInfo &h = pages.Info(head);
  if (h.kind != PageKind::kLargeHead || (h.flags & heap::kPageShared)) return nullptr;
  auto it = run_images_.find(uint32_t(head));
  if (it == run_images_.end()) return nullptr;
  RunImage &r = it->second;
  if (r.changed_commit != commit_serial_ || r.changed.size() != r.dirty.size()) {
    // D16: a page not written holds what it held; one written, unless its copy (taken with no
    // frame released since) is still what it holds.
    r.changed.assign(r.dirty.size(), false);
    for (size_t k = 0; k < r.dirty.size(); k++)
      r.changed[k] = r.dirty[k] && (!r.copies[k] || r.copy_releases[k] != totals_.frames_released ||
                                    std::memcmp(r.copies[k].get(), pages.PageAddress(head + k),
                                                heap::kPageSize) != 0);
    r.changed_commit = commit_serial_;
  }
  return &r;
}

bool Persistence::NeedsStabilization(uint64_t *checked) {
  heap::PageHeap &pages = heap_->pages();
  // True unless ref is an object of a persistent page of database db (of db itself, on a shared
  // page: P12).
  auto outside = [&](const void *ref, uint8_t db) {
    if (!pages.Covers(ref)) return true;
    const size_t i = pages.IndexOf(ref);
    const PageInfo &pi = pages.Info(i);
    if (pi.space == heap::Space::kFree) return true;
    if (pi.flags & heap::kPageShared)
      return OwnerAt(i, uint32_t(static_cast<const char *>(ref) - pages.PageAddress(i))) != db;
    return pi.db != db;
  };
  for (auto &d : dbs_)
    if (d && d->root_dirty && d->root && outside(d->root, d->index)) return true;
  for (uint32_t head : modified_.members()) {
    const PageInfo &h = pages.Info(head);
    ++*checked;
    bool found = false;
    char *base = pages.PageAddress(head);
    if (const RunImage *run = ChangedRunPages(head)) {
      // D16: a page of the run equal to its clean image refers to what it did when clean:
      // persistent objects of the run's database (P9). Only the changed pages are read.
      void *ref = base + kWordSize;
      const cairn_type *t = heap::TypeOfHeader(heap::HeaderOf(ref));
      for (size_t k = 0; k < run->changed.size() && !found; k++) {
        if (!run->changed[k]) continue;
        const char *lo = base + k * kPageSize;
        heap::ForEachRefSlotIn(t, ref, lo, lo + kPageSize, [&](void **slot) {
          if (*slot && !found && outside(*slot, h.db)) found = true;
        });
      }
      if (found) return true;
      continue;
    }
    const uint32_t end = h.kind == PageKind::kLargeHead ? uint32_t(kWordSize) : h.used;
    for (uint32_t o = 0; o < end && !found;) {
      void *ref = base + o + kWordSize;
      const cairn_type *t = heap::TypeOfHeader(heap::HeaderOf(ref));
      const uint8_t db = OwnerAt(head, o + uint32_t(kWordSize));
      // A tenant (D14) is transient: what it refers to need not persist.
      if (db != 0)
        heap::ForEachRefSlot(t, ref, [&](void **slot) {
          if (*slot && !found && outside(*slot, db)) found = true;
        });
      o += uint32_t(heap::ObjectBytes(t, ref));
    }
    if (found) return true;
  }
  return false;
}

Status Persistence::WriteCommit(bool stay_open) {
  cairn_persist_stats c{};
  // 1. Stabilize (Figure 2): what the roots and the modified pages reach becomes persistent. If
  //    they reach only persistent objects of their own databases (P9: so does everything those
  //    reach), nothing is to become persistent and the stabilizer does not run (D8).
  gc::StabilizeOutcome outcome;
  Status s;
  ++commit_serial_;  // D16: the runs' changed pages are computed afresh for this commit
  adopted_.clear();
  continued_.clear();
  if (NeedsStabilization(&c.pages_checked)) {
    std::vector<gc::StabilizeRoot> roots;
    for (auto &d : dbs_)
      if (d && d->root_loaded) roots.push_back(gc::StabilizeRoot{d->index, &d->root});
    c.stabilize_ns = heap_->StabilizeNow(roots, &outcome);
    c.stabilizations = 1;
    s = outcome.status;
    for (const auto &[frame, from] : outcome.continued) continued_.push_back(uint32_t(frame));
  }
  // 2. Unswizzle every modified page into a buffer and write it, the roots and the type entries,
  //    all in one store transaction.
  uint64_t t0 = NowNs();
  std::vector<std::pair<cairn_db *, uint64_t>> new_roots;
  std::vector<PendingHash> hashes;
  std::vector<uint32_t> unchanged;
  std::vector<std::pair<uint32_t, uint32_t>> tails;
  std::vector<std::pair<uint32_t, uint32_t>> checksums;
  if (s.ok()) s = Flush(&c, &new_roots, &unchanged, &tails, &checksums);
  // Only objects the stabilizer made persistent can have identity hashes to record (H3).
  if (s.ok() && c.stabilizations) s = WriteIdentityHashes(&hashes);
  if (s.ok()) s = txn_->Commit();
  if (!s.ok()) {
    s = ReadOnlyRefusal(s, "the commit would write changes");
    Revert(outcome);  // D9
    failed_ = true;
    failure_ = s;
    return s;
  }
  c.write_ns = NowNs() - t0;
  for (auto [frame, crc] : checksums) NoteStoredChecksum(frame, crc);  // D12: as now stored
  added_types_.clear();
  adopted_.clear();
  // 3. Written: the modified pages are clean again (read-only, P9), with one mprotect per run
  //    of adjacent pages, except those kept writable (D15): small pages written again after
  //    having been clean, likely to be written by the next transaction too. A page no word of
  //    which changed was not written and is clean.
  heap_->pages().BeginProtectBatch();
  kept_.clear();
  const size_t keep = kept_limit();
  size_t u = 0, v = 0;
  ForEachModified([&](size_t i, size_t) {
    while (u < unchanged.size() && unchanged[u] < i) u++;
    while (v < tails.size() && tails[v].first < i) v++;
    const bool same = u < unchanged.size() && unchanged[u] == i;
    const PageInfo &pi = heap_->pages().Info(i);
    if (!same && pi.kind == PageKind::kSmall && !(pi.flags & heap::kPageShared) &&
        kept_.size() < keep && clean_images_.count(uint32_t(i)))
      Kept(i);
    else
      Written(i);
    // D17: tenants after the stored objects (A1): the memory differs from the stored form there.
    if (v < tails.size() && tails[v].first == i) tail_unstored_[uint32_t(i)] = tails[v].second;
  });
  heap_->pages().EndProtectBatch();
  for (auto &[db, pref] : new_roots) {
    db->root_pref = pref;
    db->root_dirty = false;
  }
  // D17: the next stabilization of each database continues where this one copied last.
  for (size_t frame : outcome.last_copy_pages)
    open_page_[heap_->pages().Info(frame).db] = uint32_t(frame);
  continued_.clear();
  AdoptIdentityHashes(hashes);
  c.commits = 1;
  c.pages_accurate = outcome.pages_accurate;
  c.pages_ambiguous = outcome.pages_ambiguous;
  c.pages_large = outcome.pages_large;
  last_types_.clear();
  for (auto &[t, count] : outcome.per_type) {
    c.objects_made_persistent += count.objects;
    c.bytes_made_persistent += count.bytes;
    last_types_.push_back(cairn_type_count{t->name, count.objects, count.bytes,
                                           count.objects_ambiguous, count.bytes_ambiguous});
  }
  std::sort(last_types_.begin(), last_types_.end(),
            [](const cairn_type_count &a, const cairn_type_count &b) { return a.bytes > b.bytes; });
  last_ = c;
  if (EnvFlag("CAIRN_PERSIST_TRACE", 0) == 1) {
    std::fprintf(stderr,
                 "cairn commit: stabilize %.2f ms, write %.2f ms; %llu pages written (%.1f KiB); "
                 "made persistent: %llu objects (%.1f KiB), pages %llu by copying, %llu "
                 "ambiguously, %llu large\n",
                 double(c.stabilize_ns) / 1e6, double(c.write_ns) / 1e6,
                 static_cast<unsigned long long>(c.pages_written), double(c.bytes_written) / 1024,
                 static_cast<unsigned long long>(c.objects_made_persistent),
                 double(c.bytes_made_persistent) / 1024,
                 static_cast<unsigned long long>(c.pages_accurate),
                 static_cast<unsigned long long>(c.pages_ambiguous),
                 static_cast<unsigned long long>(c.pages_large));
    for (const cairn_type_count &tc : last_types_)
      std::fprintf(stderr, "  %-24s %10llu objects %12llu bytes (%llu objects ambiguously)\n",
                   tc.type, static_cast<unsigned long long>(tc.objects),
                   static_cast<unsigned long long>(tc.bytes),
                   static_cast<unsigned long long>(tc.objects_ambiguous));
  }
  totals_.commits += c.commits;
  totals_.pages_written += c.pages_written;
  totals_.bytes_written += c.bytes_written;
  totals_.pages_accurate += c.pages_accurate;
  totals_.pages_ambiguous += c.pages_ambiguous;
  totals_.pages_large += c.pages_large;
  totals_.objects_made_persistent += c.objects_made_persistent;
  totals_.bytes_made_persistent += c.bytes_made_persistent;
  totals_.stabilize_ns += c.stabilize_ns;
  totals_.write_ns += c.write_ns;
  totals_.stabilizations += c.stabilizations;
  totals_.pages_checked += c.pages_checked;
  if (stay_open) {
    s = store_->BeginTransaction(&txn_);
    if (!s.ok()) {
      failed_ = true;
      failure_ = s;
      return s;
    }
  }
  EnforceBudgets();
  // A stabilization is a collection that resets the allocation trigger, so a program that
  // commits often may never run an ordinary one, and so never one that releases frames (D10):
  // the frames of the pages it made garbage would fill the arena. It runs here when due.
  if (ReleaseFramesNow()) {
    relieve_ = true;  // PrepareRelease may evict: nothing is made resident for a system call now
    heap_->CollectNow();
    relieve_ = false;
  }
  return Status::Ok();
}

Status Persistence::Flush(cairn_persist_stats *c,
                          std::vector<std::pair<cairn_db *, uint64_t>> *new_roots,
                          std::vector<uint32_t> *unchanged,
                          std::vector<std::pair<uint32_t, uint32_t>> *tails,
                          std::vector<std::pair<uint32_t, uint32_t>> *checksums) {
  heap::PageHeap &pages = heap_->pages();
  Status s;
  std::string buffer, base;
  next_memory_check_ = kCommitMemoryStep;
  ForEachModified([&](size_t i, size_t n) {
    if (s.ok()) s = CheckCommitMemory(c->bytes_written);
    if (!s.ok()) return;
    const PageInfo &pi = pages.Info(i);
    // A1 of gc/gc_heap.h: a page the mutator allocated tenants on and that is otherwise as
    // stored is not written (a tenant is a filler in every stored form).
    if (n == 1 && !UnchangedSinceClean(i) && TenantsOnlySinceClean(i)) {
      unchanged->push_back(uint32_t(i));
      const uint32_t stored_used = clean_images_.at(uint32_t(i)).used;
      if (pi.used > stored_used) tails->emplace_back(uint32_t(i), stored_used);
      return;
    }
    if (pi.flags & heap::kPageShared) {
      // D13: the page goes to each of its databases, the others' objects as fillers.
      std::vector<uint8_t> dbs{pi.db};
      for (const auto &[d, page] : shared_.at(uint32_t(i)).homes) dbs.push_back(d);
      for (uint8_t d : dbs) {
        if (s.ok()) s = Unswizzle(i, d, &buffer);
        uint64_t stored = 0;
        if (s.ok()) s = txn_->WritePage(dbs_[d - 1]->id, PageIdIn(i, d), buffer.data(), &stored);
        c->bytes_written += stored;
        c->pages_written++;
      }
      return;
    }
    // D16: a run clean earlier in the transaction: only its pages written since and not equal
    // to their copies (ChangedRunPages) are unswizzled (their slots alone) and written; none
    // changed, the run is not written. D10 then lists again only what those pages refer to
    // (RecordRunReferences). A run without an image (made persistent by this commit) is
    // written whole, a page at a time.
    if (n > 1) {
      if (const RunImage *run = ChangedRunPages(i)) {
        bool any = false;
        for (bool changed : run->changed) any = any || changed;
        if (!any) {
          unchanged->push_back(uint32_t(i));
          return;
        }
        const store::DatabaseId id = dbs_[pi.db - 1]->id;
        for (size_t k = 0; s.ok() && k < n; k++) {
          if (!run->changed[k]) continue;
          // D16: a page with a valid copy and a known stored checksum gets the copy's stored
          // form as its delta's base (as D12 for a small page): the store need not read it.
          auto crc_it = stored_crc_.find(uint32_t(i + k));
          const bool copied = run->copies[k] && run->copy_releases[k] == totals_.frames_released &&
                              crc_it != stored_crc_.end();
          bool have_base = copied;
          s = UnswizzleRunPage(i, pi.db, k, &buffer, copied ? run->copies[k].get() : nullptr, &base,
                               &have_base);
          const void *known = s.ok() && have_base ? base.data() : nullptr;
#ifndef NDEBUG
          if (known != nullptr &&
              store::StoredPageChecksum(id, pages.PageId(i + k), known) != crc_it->second)
            Fatal(
                "internal error: the stored form of page %llu of database '%s' made from its "
                "copy is not the page as stored (D16)",
                static_cast<unsigned long long>(pages.PageId(i + k)),
                dbs_[pi.db - 1]->name.c_str());
#endif
          uint64_t stored = 0;
          uint32_t crc = 0;
          if (s.ok())
            s = txn_->WritePage(id, pages.PageId(i + k), buffer.data(), &stored, known,
                                known ? crc_it->second : 0, &crc);
          if (s.ok()) checksums->emplace_back(uint32_t(i + k), crc);
          c->bytes_written += stored;
          c->pages_written++;
          if (s.ok()) s = CheckCommitMemory(c->bytes_written);
        }
        return;
      }
      // A run made persistent by this commit (or not imaged): written a page at a time, each
      // unswizzled into a one-page buffer (as a whole, its stored form was one more copy of an
      // object that may be gigabytes: campaign P).
      const store::DatabaseId id = dbs_[pi.db - 1]->id;
      for (size_t k = 0; s.ok() && k < n; k++) {
        bool have_base = false;
        s = UnswizzleRunPage(i, pi.db, k, &buffer, nullptr, nullptr, &have_base);
        uint64_t stored = 0;
        uint32_t crc = 0;
        if (s.ok())
          s = txn_->WritePage(id, pages.PageId(i + k), buffer.data(), &stored, nullptr, 0, &crc);
        if (s.ok()) checksums->emplace_back(uint32_t(i + k), crc);
        c->bytes_written += stored;
        c->pages_written++;
        if (s.ok()) s = CheckCommitMemory(c->bytes_written);
      }
      return;
    }
    // D12: a page clean earlier in the transaction (or kept writable by the last commit: D15),
    // no frame released since: its image, unswizzled, is the page as stored, so the store is
    // given it as the base of the delta and need not read the page back; a page no word of
    // which changed is not written.
    auto image = clean_images_.find(uint32_t(i));
    const bool imaged =
        n == 1 && image != clean_images_.end() && image->second.releases == totals_.frames_released;
    if (imaged && UnchangedSinceClean(i)) {
      unchanged->push_back(uint32_t(i));
      return;
    }
    // D15: a kept page's stored form is the one written last, with the changed words encoded
    // again; that one is also the delta's base. A base goes with the checksum the page had
    // as stored (the store uses it only if it has that checksum); without one, none is given.
    auto crc_it = imaged ? stored_crc_.find(uint32_t(i)) : stored_crc_.end();
    const bool crc_known = crc_it != stored_crc_.end();
    const uint32_t base_crc = crc_known ? crc_it->second : 0;
    const void *known = nullptr;
    bool done = false;
    if (crc_known && !image->second.stored.empty()) {
      s = EncodeChanged(i, pi.db, image->second, &buffer, &done);
      if (done) known = image->second.stored.data();
    }
    if (s.ok() && !done) {
      // The page's layout is recorded (for EncodeChanged) if it may be kept.
      CleanImage *layout = n == 1 && pi.kind == PageKind::kSmall && image != clean_images_.end()
                               ? &image->second
                               : nullptr;
      bool have_base = imaged;
      s = Unswizzle(i, pi.db, &buffer, imaged ? image->second.words.get() : nullptr, &base,
                    &have_base, layout, imaged ? image->second.used : UINT32_MAX);
      known = s.ok() && have_base && crc_known ? base.data() : nullptr;
    }
    const store::DatabaseId id = dbs_[pi.db - 1]->id;
#ifndef NDEBUG
    if (known != nullptr && store::StoredPageChecksum(id, pages.PageId(i), known) != base_crc)
      Fatal(
          "internal error: the stored form of page %llu of database '%s' made from its clean "
          "image is not the page as stored (D12)",
          static_cast<unsigned long long>(pages.PageId(i)), dbs_[pi.db - 1]->name.c_str());
#endif
    for (size_t k = 0; s.ok() && k < n; k++) {
      uint64_t stored = 0;  // the whole page, or a delta of what changed (store format 3)
      uint32_t crc = 0;
      s = txn_->WritePage(id, pages.PageId(i + k), buffer.data() + k * kPageSize, &stored, known,
                          base_crc, &crc);
      c->bytes_written += stored;
      if (s.ok()) checksums->emplace_back(uint32_t(i + k), crc);  // D12, D16: each page's frame
    }
    c->pages_written += n;
    // D15: what Kept makes the page's stored form if the commit keeps it.
    if (s.ok() && image != clean_images_.end() && !image->second.headers.empty())
      image->second.pending.swap(buffer);
  });
  if (!s.ok()) return s;
  for (auto &d : dbs_) {
    if (!d || !d->root_dirty) continue;
    bool ok = true;
    uint64_t pref = d->root ? EncodeTarget(d->root, d->index, &ok) : 0;
    if (!ok)
      return Status(CAIRN_INVALID_ARGUMENT,
                    "the root of database '" + d->name +
                        "' is an object of another database; references between databases are "
                        "not supported: the commit is refused and nothing of it was written "
                        "(give it a root of its own, or a copy made field by field)");
    s = txn_->SetRoot(d->id, pref);
    if (!s.ok()) return s;
    new_roots->emplace_back(d.get(), pref);
  }
  return Status::Ok();
}

Status Persistence::CheckCommitMemory(uint64_t written) {
  const uint64_t mib = uint64_t{1} << 20, needed = 2 * written;
  std::string limit;
  if (options_.commit_memory_bytes != 0) {
    // A limit given: checked at every page (a comparison), so that one under the step holds.
    if (needed <= options_.commit_memory_bytes) return Status::Ok();
    limit = "cairn_persist_options.commit_memory_bytes allows " +
            std::to_string(options_.commit_memory_bytes / mib) + " MiB";
  } else {
    if (written < next_memory_check_) return Status::Ok();
    next_memory_check_ = written + kCommitMemoryStep;
    // The batch so far is in use already: the memtable's copy, and a margin, are still to come.
    const uint64_t available = util::AvailableMemoryBytes(),
                   to_come = written + 4 * kCommitMemoryStep;
    if (available == 0 || to_come <= available) return Status::Ok();  // unknown: not refused
    limit = "the rest needs about " + std::to_string(to_come / mib) + " MiB more, while " +
            std::to_string(available / mib) +
            " MiB are available (MemAvailable and SwapFree, or the control group's limit)";
  }
  return Status(CAIRN_OUT_OF_MEMORY,
                "the commit has written " + std::to_string(written / mib) +
                    " MiB of pages so far, which the store holds in memory until it commits and "
                    "then copies into its memory table (as much again): " +
                    limit +
                    ": the commit is refused and nothing of it was written. Commit smaller "
                    "changes (as they are made), or make smaller objects: an object is written "
                    "whole by the commit that makes it persistent");
}

uint64_t Persistence::EncodeTarget(void *ref, uint8_t db, bool *ok) {
  heap::PageHeap &pages = heap_->pages();
  if (!pages.Covers(ref)) {
    *ok = false;
    return 0;
  }
  size_t i = pages.IndexOf(ref);
  const PageInfo &pi = pages.Info(i);
  if (pi.space == heap::Space::kFree || (pi.db != db && !(pi.flags & heap::kPageShared))) {
    *ok = false;
    return 0;
  }
  size_t head = pi.kind == PageKind::kLargeTail ? i - pi.run : i;
  const PageInfo &h = pages.Info(head);
  PersistentRef r;
  r.offset = uint32_t(static_cast<char *>(ref) - pages.PageAddress(head));
  r.page = pages.PageId(head);
  if (h.flags & heap::kPageShared) {  // P12: the object's database, and the page's id there
    if (OwnerAt(head, r.offset) != db) {
      *ok = false;
      return 0;
    }
    r.page = PageIdIn(head, db);
  }
  r.run = h.kind == PageKind::kLargeHead ? h.run : 0;
  if (r.run > kMaxRun || !WellFormed(r)) {
    *ok = false;
    return 0;
  }
  return EncodeRef(r);
}

Status Persistence::Unswizzle(size_t head, uint8_t dbi, std::string *buffer, const uint64_t *image,
                              std::string *base, bool *have_base, CleanImage *layout,
                              uint32_t image_used) {
  heap::PageHeap &pages = heap_->pages();
  const PageInfo &h = pages.Info(head);
  cairn_db &db = *dbs_[dbi - 1];
  const bool large = h.kind == PageKind::kLargeHead;
  const bool shared = (h.flags & heap::kPageShared) != 0;
  const size_t n = large ? h.run : 1;
  // The page in memory stays swizzled; the buffer gets the stored form.
  buffer->assign(pages.PageAddress(head), n * kPageSize);
  char *out = buffer->data();
  // D12: the image's stored form, from the same walk. The objects of a page that was clean are
  // where they were then, with the same types (a persistent page is neither copied nor filled:
  // P8), so a word is a header or a reference slot in the image where it is one in the page: a
  // data word is stored as it is, a reference is encoded as the page's are (no frame was
  // released since the image was taken, so each frame still has the page id it had).
  char *then = nullptr;
  if (image != nullptr) {
    base->assign(reinterpret_cast<const char *>(image), n * kPageSize);
    then = base->data();
    *have_base = true;
  }
  auto word_at = [](const char *p) {
    uint64_t w;
    std::memcpy(&w, p, sizeof w);
    return w;
  };
  constexpr size_t kBitmapWords = kPageSize / kWordSize / 64;
  if (layout != nullptr) {
    layout->headers.assign(kBitmapWords, 0);
    layout->refs.assign(kBitmapWords, 0);
  }
  auto mark = [](std::vector<uint64_t> &bits, size_t byte_offset) {
    const size_t w = byte_offset / kWordSize;
    bits[w / 64] |= uint64_t(1) << (w % 64);
  };
  const size_t end = large ? kWordSize : h.used;  // a large object: the one at offset 0
  for (size_t off = 0; off < end;) {
    uint64_t &word = *reinterpret_cast<uint64_t *>(out + off);
    const cairn_type *t = heap::TypeOfHeader(word);
    void *ref = out + off + kWordSize;
    const size_t bytes = heap::ObjectBytes(t, ref);
    if (shared && OwnerAt(head, uint32_t(off + kWordSize)) != dbi) {
      // D13: another database's object is a filler here, its contents not written.
      t = types::TypeRegistry::Get().FillerType(bytes - kWordSize);
      std::memset(ref, 0, bytes - kWordSize);
    }
    uint32_t index = 0;
    Status s = TypeIndex(db, t, &index);
    if (!s.ok()) return s;
    if (layout != nullptr) mark(layout->headers, off);
    // D17: an object added since the image: the base keeps the image's free space here.
    char *const then_here = off < image_used ? then : nullptr;
    if (then_here != nullptr) {
      if (word_at(then_here + off) != word) *have_base = false;  // not the same object: no base
      const uint64_t stored = index;
      std::memcpy(then_here + off, &stored, sizeof stored);
    }
    word = index;
    Status bad;
    heap::ForEachRefSlot(t, ref, [&](void **slot) {
      const size_t at = size_t(reinterpret_cast<char *>(slot) - out);
      if (layout != nullptr) mark(layout->refs, at);
      EncodeSlot(*slot, reinterpret_cast<char *>(slot),
                 then_here != nullptr ? then_here + at : nullptr, head, dbi, t, have_base, &bad);
    });
    if (!bad.ok()) return bad;
    off += bytes;
  }
  return Status::Ok();
}

Status Persistence::UnswizzleRunPage(size_t head, uint8_t dbi, size_t k, std::string *buffer,
                                     const uint64_t *copy, std::string *copy_stored,
                                     bool *have_base) {
  heap::PageHeap &pages = heap_->pages();
  cairn_db &db = *dbs_[dbi - 1];
  char *run = pages.PageAddress(head);
  const char *page = run + k * kPageSize;
  buffer->assign(page, kPageSize);
  char *out = buffer->data();
  void *ref = run + kWordSize;  // the run's one object
  const cairn_type *t = heap::TypeOfHeader(heap::HeaderOf(ref));
  // The copy's stored form: its data words as they are, its references encoded (the copy is
  // of the same object, so its slots are where the page's are).
  char *then = nullptr;
  if (copy != nullptr) {
    copy_stored->assign(reinterpret_cast<const char *>(copy), kPageSize);
    then = copy_stored->data();
  }
  if (k == 0) {
    uint32_t index = 0;
    Status s = TypeIndex(db, t, &index);
    if (!s.ok()) return s;
    const uint64_t stored = index;
    std::memcpy(out, &stored, sizeof stored);
    if (then != nullptr) std::memcpy(then, &stored, sizeof stored);
  }
  Status bad;
  heap::ForEachRefSlotIn(t, ref, page, page + kPageSize, [&](void **slot) {
    const size_t at = size_t(reinterpret_cast<const char *>(slot) - page);
    EncodeSlot(*slot, out + at, then != nullptr ? then + at : nullptr, head, dbi, t, have_base,
               &bad);
  });
  return bad;
}

void Persistence::EncodeSlot(void *target, char *out_at, char *then_at, size_t head, uint8_t dbi,
                             const cairn_type *t, bool *have_base, Status *bad) {
  const cairn_db &db = *dbs_[dbi - 1];
  uint64_t was = 0;
  if (then_at != nullptr) std::memcpy(&was, then_at, sizeof was);
  // The copy's reference, where it differs from the page's (else encoded once, below).
  if (then_at != nullptr && was != 0 && was != reinterpret_cast<uint64_t>(target)) {
    bool ok = true;
    const uint64_t pref = EncodeTarget(reinterpret_cast<void *>(was), db.index, &ok);
    if (ok)
      std::memcpy(then_at, &pref, sizeof pref);
    else
      *have_base = false;
  }
  if (target == nullptr) return;
  bool ok = true;
  const uint64_t pref = EncodeTarget(target, db.index, &ok);
  if (!ok && bad->ok())
    *bad = Status(CAIRN_INTERNAL,
                  "an object of type '" + std::string(t->name) + "' in database '" + db.name +
                      "' still refers to a transient object or another database's at commit "
                      "(page " +
                      std::to_string(PageIdIn(head, dbi)) + ")");
  if (then_at != nullptr && was == reinterpret_cast<uint64_t>(target))
    std::memcpy(then_at, &pref, sizeof pref);
  std::memcpy(out_at, &pref, sizeof pref);
}

Status Persistence::EncodeChanged(size_t head, uint8_t dbi, const CleanImage &image,
                                  std::string *buffer, bool *done) {
  // D12: a word equal to the image's is stored as it was written; so is a changed data word. A
  // changed reference is encoded; a changed header means the page is not laid out as it was,
  // and is left to Unswizzle (as a reference that cannot be encoded is, for its message).
  *done = false;
  // D17: objects added after the page's own since its layout was recorded: not re-encodable.
  if (heap_->pages().Info(head).used != image.used) return Status::Ok();
  const cairn_db &db = *dbs_[dbi - 1];
  const uint64_t *now = reinterpret_cast<const uint64_t *>(heap_->pages().PageAddress(head));
  const uint64_t *then = image.words.get();
  buffer->assign(image.stored);
  char *out = buffer->data();
  for (size_t w = 0; w < kPageSize / kWordSize; w++) {
    if (now[w] == then[w]) continue;
    const uint64_t bit = uint64_t(1) << (w % 64);
    if (image.headers[w / 64] & bit) return Status::Ok();
    uint64_t v = now[w];
    if ((image.refs[w / 64] & bit) && v != 0) {
      bool ok = true;
      v = EncodeTarget(reinterpret_cast<void *>(v), db.index, &ok);
      if (!ok) return Status::Ok();
    }
    std::memcpy(out + w * kWordSize, &v, sizeof v);
  }
#ifndef NDEBUG
  std::string whole;
  Status s = Unswizzle(head, dbi, &whole);
  if (!s.ok() || whole != *buffer)
    Fatal(
        "internal error: page %llu of database '%s' re-encoded from its last stored form "
        "differs from the page unswizzled whole (D15)",
        static_cast<unsigned long long>(heap_->pages().PageId(head)), db.name.c_str());
#endif
  *done = true;
  return Status::Ok();
}

Status Persistence::TypeIndex(cairn_db &db, const cairn_type *t, uint32_t *index) {
  auto it = db.index_of.find(t);
  if (it == db.index_of.end() && !db.types_loaded) {
    // The table may hold the type already, in an older encoding of the same layout (the store
    // compares layouts byte for byte; the same-layout rule does not).
    Status s = LoadTypes(db);
    if (!s.ok()) return s;
    it = db.index_of.find(t);
  }
  if (it != db.index_of.end()) {
    *index = it->second;
    return Status::Ok();
  }
  // A type already in the table (written by another program, or in an older encoding) keeps
  // its entry once its layout is checked; only a new one is added, in the current encoding.
  // (A lookup that finds nothing would fail the store transaction: the table is listed.)
  std::vector<store::TypeEntry> entries;
  Status s = txn_->ListTypes(db.id, &entries);
  if (!s.ok()) return s;
  const store::TypeEntry *found = nullptr;
  for (const store::TypeEntry &e : entries)
    if (e.fingerprint == t->fingerprint) found = &e;
  if (found != nullptr) {
    StoredLayout stored;
    s = DecodeLayout(found->layout, &stored);
    if (s.ok()) s = CheckLayout(stored, t, db.name);
    if (!s.ok()) return s;
    *index = found->index;
  } else {
    // D19: never two definitions of one type in a database's table: not one this commit added
    // (type_by_index), nor one stored before (the table, also types this process lacks).
    bool twin = false;
    for (const cairn_type *u : db.type_by_index)
      twin = twin || (u != nullptr && u->fingerprint != t->fingerprint &&
                      std::strcmp(u->name, t->name) == 0);
    for (const store::TypeEntry &e : entries) {
      if (twin) break;
      StoredLayout other;
      twin = e.fingerprint != t->fingerprint && DecodeLayout(e.layout, &other).ok() &&
             other.name == t->name;
    }
    if (twin) {
      return Status(
          CAIRN_TYPE_MISMATCH,
          "database '" + db.name + "' would hold objects of two definitions of type '" + t->name +
              "' (it holds, or this commit stores, objects of one with other fields, as a REPL "
              "session that defines a class again may have): no program could read them, as a "
              "program defines a type once. The "
              "commit is refused and nothing of it was written; store objects of one definition "
              "only (copy the others into new objects)");
    }
    s = txn_->PutType(db.id, t->fingerprint, EncodeLayout(t), index);
    if (!s.ok()) return s;
  }
  db.index_of[t] = *index;
  if (db.type_by_index.size() <= *index) db.type_by_index.resize(*index + 1, nullptr);
  db.type_by_index[*index] = t;
  added_types_.push_back(AddedType{&db, t, *index});  // until the commit is written (D4)
  return Status::Ok();
}

void Persistence::Revert(const gc::StabilizeOutcome &o) {
  // What stabilization made persistent becomes transient again: its objects are intact, only
  // the store transaction (which is failed now) had given them page ids.
  heap::PageHeap &pages = heap_->pages();
  for (size_t head : o.made_persistent)
    if (pages.Info(head).persistent()) MakeTransient(head);
  // D17: the objects copied after a page's own stay where they are, transient (tenants, D14).
  for (const auto &[head, from] : o.continued) {
    char *base = pages.PageAddress(head);
    for (uint32_t off = from; off < pages.Info(head).used;) {
      void *ref = base + off + kWordSize;
      LodgeTenant(head, ref);
      off += uint32_t(heap::ObjectBytes(heap::TypeOfHeader(heap::HeaderOf(ref)), ref));
    }
  }
  continued_.clear();
  RevertAdoptions();  // D14
  // Type indexes handed out by the failed transaction are not in the table (D4).
  for (const AddedType &a : added_types_) {
    a.db->index_of.erase(a.type);
    a.db->type_by_index[a.index] = nullptr;
  }
  added_types_.clear();
}

}  // namespace cairn::persist
