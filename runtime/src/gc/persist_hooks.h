// What the collector asks of the persistence layer (runtime/src/persist/), which owns the map
// from (database, page id) to heap frame and talks to the store. The collector itself knows
// persistent pages only through the page table (P9, P10).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "cairn/status.h"
#include "cairn/type.h"

namespace cairn::gc {

class PersistHooks {
 public:
  virtual ~PersistHooks() = default;
  // A clean or reserved persistent page (or large run) that nothing reached loses its frame
  // (Figure 4): its contents and protection go, it leaves the frame map; the collector then
  // frees the page.
  virtual void ReleaseFrame(size_t frame) = 0;
  // Transient pages [frame, frame + n) become persistent, modified, in database `db` during
  // stabilization: they get page ids (consecutive for a run) in the open transaction. They are
  // persistent afterwards even if that fails (the error fails the commit, which makes them
  // transient again).
  virtual Status MakePersistent(uint8_t db, size_t frame, size_t n) = 0;
  // A small persistent page of database `db` with room for at least `bytes` more at its end,
  // which the stabilizer may copy this stabilization's objects of `db` into after the ones it
  // holds (the page the last stabilization copied into last, still resident; made modified if
  // it was clean: *was_clean says so), or kNoPage. So that commits of a few objects each do
  // not take a page each (P8 of heap/page_info.h). Asked once per database per stabilization.
  virtual size_t OpenCopyPage(uint8_t db, size_t bytes, bool *was_clean) = 0;
  // The object at `ref`, on the small page `frame` that this stabilization made persistent in
  // place in another database, is of database `db`: the page becomes shared (P12 of
  // heap/page_info.h), gets a page id in `db` the first time and is written there too. Errors
  // (the store's) fail the commit, as MakePersistent's do.
  virtual Status ShareObject(uint8_t db, size_t frame, const void *ref) = 0;
  // The small object at `ref` on the persistent page `head`, which is not resident or is cold
  // (so the collector may not read it, P9, P11), read from the store instead for the
  // stabilizer to copy (a text another database reaches): its type, with the stored page in
  // `words` (the object's payload at the same offset as in the frame); null if it cannot be
  // read or is not an object of a small type. Changes nothing of the heap.
  virtual const cairn_type *ReadStoredObject(size_t head, const void *ref,
                                             std::vector<uint64_t> *words) = 0;
  // The database of the object at `ref` on the shared page `frame` (P12), or 0 if it is a
  // tenant (P13: a transient object on a persistent page).
  virtual uint8_t SharedOwner(size_t frame, const void *ref) = 0;
  // Tenants (P13 of heap/page_info.h). The object at `ref`, on the small page `frame` that this
  // stabilization made persistent in place, stays transient: an ambiguous root points into it
  // and no database reaches it; or the mutator has just allocated it in the page's free tail
  // (after OpenTail). The page is written with a filler in its place.
  virtual void LodgeTenant(size_t frame, const void *ref) = 0;
  // The mutator is about to allocate a new object at the end of the small persistent page
  // `frame`, after its objects (the page's free tail, A1 of gc/gc_heap.h): the page is made
  // modified and writable if it is clean (as at a first write; a cold one warmed). False if it
  // is not loaded (nothing is read from the store for this): the mutator takes a transient
  // page instead.
  virtual bool OpenTail(size_t frame) = 0;
  // Database `db` reaches the tenant at `ref` on the persistent page `frame` at a commit: it
  // becomes an object of `db` (the page is modified, and shared if `db` is not its database).
  // Errors (the store's) fail the commit; a failed commit makes it a tenant again.
  virtual Status AdoptTenant(uint8_t db, size_t frame, const void *ref) = 0;
  // The collector is about to write a reference in a tenant of the persistent page `frame`,
  // which may be clean (read-only): it is writable until SweepTenants, without changing
  // its state (tenants are fillers in its stored form, so nothing stored changes).
  virtual void OpenTenantPage(size_t frame) = 0;
  // At the end of a collection: every tenant `live` does not name dies (its place becomes a
  // filler); then the pages opened for the collector get their state's protection back. Pages
  // in previous space are left alone (the collection releases their frames).
  virtual void SweepTenants(const std::function<bool(const void *)> &live) = 0;
  // The modified persistent pages (run heads): the only ones that may refer to transient
  // objects (P9), scanned by every collection.
  virtual const std::vector<uint32_t> &ModifiedPages() = 0;
  // For a modified run at `head`: which of its pages the transaction has written (null: all of
  // them may have been). A page not written holds what it held when clean, and so refers only
  // to persistent objects of its own database (P9, D16 of persist/persistence.h): a collection
  // that does not release frames need not read it.
  virtual const std::vector<bool> *WrittenRunPages(size_t head) = 0;
  // The frames (run heads) the objects of the clean resident page at `head` refer to, other
  // than itself: recorded when it was loaded or written (D10), so that a collection that
  // releases frames (Figure 4) follows them without reading the page. Null if none.
  virtual const std::vector<uint32_t> *References(size_t head) = 0;
  // Transient pages in the persistent arena: pages a failed commit made transient again
  // (P10). A collection that does not walk the persistent arena flips and frees these too, then
  // calls PruneStrayPages to forget the ones that are free (or persistent) now.
  virtual const std::vector<uint32_t> &StrayPages() = 0;
  virtual void PruneStrayPages() = 0;
  // Whether this collection should also decide which persistent frames nothing reaches and
  // release them (Figure 4), and, after one that did, that it is done.
  virtual bool ReleaseFramesNow() = 0;
  virtual void FramesReleased() = 0;
  // Called before a collection that releases frames: at the end of a commit, under pressure on
  // the persistent arena, evicts clean pages, so that the frames only they refer to (D10) can
  // be released.
  virtual void PrepareRelease() = 0;
  // Checks the persistent frames' bookkeeping against the page table (D1, D7, D10 of
  // persist/persistence.h); prints the first max_report problems (0: all), returns how many.
  virtual size_t VerifyFrames(size_t max_report) = 0;
  // An open database as messages name it: "database 'shop'", and for one the program dropped
  // while open (D20) "the dropped database 'shop'" (a new database may have its name since).
  virtual std::string DatabaseName(uint8_t db) = 0;
  // The identity hash of the persistent object at payload offset `offset` of the page (or large
  // object's run) at frame `head` (gc/identity_hash.h). Reads nothing of the page itself.
  virtual uint64_t IdentityHash(size_t head, uint32_t offset) = 0;
};

}  // namespace cairn::gc
