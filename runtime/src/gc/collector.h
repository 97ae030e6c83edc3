// Collector: one mostly-copying collection (Bartlett; Figure 1 of
// ../shared/papers/mostly-copying-persistence-pm3.txt), with persistent pages handled as
// Figure 4 describes, and stabilization (Figure 2) as the same tracing loop run from the
// persistent pages with another policy.
//
// The tracing loop (gc/trace_loop.h) is written once. It finds a reference's target page in the
// page table and hands the reference to its policy according to the space the target is in; it
// scans objects through their descriptors, pages from their scan position on (Cheney), and the
// pages it copies into as they fill; it copies objects, leaving forwarding words. A policy says
// what happens in each space (and where copies go, and which work list the kept objects and
// pages join):
//
//   space of the target            | CollectPolicy                | StabilizePolicy (database d)
//   -------------------------------+------------------------------+-------------------------------
//   copy space: a small transient  | copied into the collector's  | copied into d's persistent
//     page in previous space       | transient copy page          | pages (first the one d's last
//                                  |                              | stabilization copied into
//                                  |                              | last, D17 of persistence.h;
//                                  |                              | then new ones, clustered in
//                                  |                              | scan order); counted per type
//   ... an object copied already   | its copy                     | its copy, traced again (its
//     (forwarding word)            |                              | copy may be another database's)
//   pinned page: a small page an   | the object is marked, kept,  | an object an ambiguous root
//     ambiguous root points into   | scanned; on a page made      | points into: its page becomes
//                                  | persistent in place, an      | persistent in place (in d if
//                                  | unmarked object is copied    | it is the first), the object
//                                  | out to a transient page (P8) | in d (the page is shared if d
//                                  |                              | is not its database, P12);
//                                  |                              | one another database reached
//                                  |                              | first is an error. Another
//                                  |                              | object is copied into d's
//                                  |                              | pages, or, on a page made
//                                  |                              | persistent in place in d,
//                                  |                              | marked, kept, scanned (P8)
//   large object (transient)       | its run is promoted, scanned | its run becomes persistent in
//                                  |                              | place in d, scanned
//   persistent page                | promoted if the collection   | kept as it is; one of another
//                                  | flipped it (Figure 4), then  | database is an error (no
//                                  | scanned if modified, or its  | references between databases;
//                                  | recorded references followed | a small text on a warm page
//                                  | if clean (D10)               | is copied into d, once)
//
// Each policy has its own work list (Work): stabilization runs its closure first, from the
// database roots and the modified persistent pages, then the collection's closure, from the
// ambiguous roots (which both pin with the same rule, R1) and the exact roots, runs on what the
// stabilizer left transient. A policy is made for the objects of one page (the stabilizer's
// database is that page's), or for one object (on a shared page, P12, the object's database).
//
// Collect():
//   1. Flip: every page in use moves from current to previous space (P4).
//   2. Promote every modified persistent page (P9) and queue it on the collection's work list.
//   3. Promote every page an ambiguous root points into back to current space. A transient
//      small page is pinned: only the object the root points into (interior pointers included)
//      is marked live and queued. A large object's run and a persistent page are promoted whole
//      and, if resident, queued. Then update the exact roots.
//   4. Closure with CollectPolicy. Ends when the work list is empty and every copy page is
//      scanned to its end.
//   5. Rekey the identity hashes of the objects that moved and drop those of the dead (H2 of
//      gc/identity_hash.h). Turn the unmarked objects of transient pinned pages into fillers
//      (P8); give up the frames of persistent pages still in previous space (clean: nothing
//      reached them); free every other page still in previous space.
//
// Stabilize() (at commit and checkpoint):
//   1. Flip the transient pages only (Figure 2, lines 18-21: every persistent page stays); queue
//      the modified persistent pages on the stabilizer's work list.
//   2. Ambiguous roots as in Collect (on the collection's work list).
//   3. Trace each database's root with StabilizePolicy, then its closure: whatever the roots and
//      the modified pages reach becomes persistent in their database (the table above); a
//      reference to another database's object is recorded as an error; a tenant (P13) a
//      database reaches is adopted by it. Then the objects ambiguous roots point into on pages
//      made persistent in place that no database reached stay there, transient: tenants.
//   4. Steps 3 (exact roots) to 5 of Collect for the transient objects.
// After it, every modified persistent page references only persistent objects of its own
// database (unless an error was recorded), ready to be unswizzled and written.
//
// Ambiguous roots (the stack, the spilled registers, the registered ranges) follow one rule:
//   R1. A word w keeps alive and unmoved every object X with header(X) <= w <= end(X), where
//       end(X) is the address one past X's last byte. So a pointer into the middle of an object
//       (an interior pointer) and a pointer one past its end pin it, as a pointer to it does:
//       compiled code at -O2 may keep only such derived pointers in a register or stack slot
//       (loop strength reduction walks an array with a pointer and compares it with one past
//       the end). One past the end of X is also the header of the object after it, which stays
//       too; at the end of a page it is the start of the next page, so a word at the start of a
//       page also pins the object that fills the page before it to the end (a small page used
//       to its last byte, or a large object that fills its run), and keeps the frame of a
//       persistent page before it that is not loaded (its objects are not known). A word in a
//       page in use but past its last object pins the page and no object on it.
//
// During either, the loop keeps:
//   C1. A page's `scan` is the end of what has been scanned of it (a large run: 0 or its bytes);
//       a page on no work list and not a copy region's page is scanned to its end, or is not
//       to be scanned (a pinned page's objects are queued one by one instead; `scan` then holds
//       its slot in the mark table).
//   C2. A slot is written only if its value changes (P9: clean persistent pages are never
//       written; no policy changes a reference to a persistent object).
//   C3. An object is copied at most once: its old header becomes a forwarding word, which every
//       later reference to it follows.
// After either: P5 holds (no reference into previous space, no forwarding word in current space);
// objects referenced by ambiguous roots have not moved and nothing left their pages; the
// collector's last transient copy page is handed back (the mutator continues allocating in it).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "gc/bump_region.h"
#include "gc/identity_hash.h"
#include "gc/persist_hooks.h"
#include "gc/roots.h"
#include "heap/page_heap.h"

namespace cairn::gc {

struct CollectionResult {
  uint64_t bytes_copied = 0;
  uint64_t pages_promoted = 0;   // pinned pages plus large-object and persistent pages kept
  uint64_t pages_pinned = 0;     // pages pinned by ambiguous roots
  uint64_t live_bytes = 0;       // bytes in current-space pages afterwards
  uint64_t peak_pages = 0;       // the most pages in use at once during the collection
  uint64_t frames_released = 0;  // persistent frames given up (Figure 4)
  uint64_t persistent_pages_scanned = 0;  // persistent pages whose objects were read
  bool released_frames = false;           // this collection decided which frames to release
  BumpRegion copy_region;                 // where the collector stopped copying
};

// A database root for stabilization: the slot holding it (updated if its object moves).
struct StabilizeRoot {
  uint8_t db;
  void **slot;
};

// What stabilization made persistent, for statistics (the paper's Figure 7) and for undoing it
// if the commit fails.
struct StabilizeOutcome {
  Status status;                        // the first cross-database reference, or a store error
  std::vector<size_t> made_persistent;  // pages (run heads) that became persistent
  std::vector<size_t> adopted;          // the page of each tenant a database adopted (P13)
  // Persistent pages the stabilizer copied into after their objects (PersistHooks::
  // OpenCopyPage), with where their new objects start; and the last page copied into for each
  // database (the next stabilization's open page).
  std::vector<std::pair<size_t, uint32_t>> continued;
  std::vector<size_t> last_copy_pages;
  uint64_t pages_accurate = 0;   // new pages the stabilizer copied objects into
  uint64_t pages_ambiguous = 0;  // pinned transient pages made persistent in place
  uint64_t pages_large = 0;      // pages of large objects made persistent in place
  struct TypeCount {
    uint64_t objects = 0, bytes = 0;
    uint64_t objects_ambiguous = 0, bytes_ambiguous = 0;  // of those, on ambiguous pages
  };
  std::unordered_map<const cairn_type *, TypeCount> per_type;  // objects made persistent
};

class Collector {
 public:
  Collector(heap::PageHeap &pages, const Roots &roots) : pages_(pages), roots_(roots) {}
  void set_hooks(PersistHooks *hooks) { hooks_ = hooks; }
  void set_identity_hashes(IdentityHashes *hashes) { hashes_ = hashes; }

  // Runs one collection. stack_top is the lowest stack address to scan (the registers have been
  // spilled above it). The mutator's allocation page must have been retired first (P2).
  // release_frames: also decide which persistent frames nothing reaches and release them
  // (Figure 4); otherwise persistent pages are left as they are and only the modified ones are
  // scanned.
  CollectionResult Collect(const void *stack_top, bool release_frames);
  // Runs one stabilization (see above).
  CollectionResult Stabilize(const void *stack_top, std::span<const StabilizeRoot> roots,
                             StabilizeOutcome *outcome);

 private:
  // What a closure has kept and not scanned yet; one per policy.
  struct Work {
    std::vector<void *> objects;  // objects of pinned pages, marked
    std::vector<uint32_t> pages;  // pages (run heads) to scan from their `scan` position on (C1)
    std::vector<uint32_t> clean;  // clean persistent pages kept: their recorded references (D10)
    std::vector<BumpRegion *> regions;  // the regions its policy copies into, scanned as they fill
    void Clear();
  };
  struct CollectPolicy;    // collector.cpp
  struct StabilizePolicy;  // stabilizer.cpp

  // The tracing loop (gc/trace_loop.h), the same for every policy P.
  template <class P>
  void *Trace(P &p, void *ref);  // the reference's new value
  template <class P>
  void ScanObject(P &p, const cairn_type *t, void *ref);
  template <class P>
  void ScanSlot(P &p, void **slot);  // traces a reference slot, rewriting it if it moved (C2)
  template <class P>
  void ScanPage(size_t index);
  template <class P>
  void Closure(Work &w);
  template <class P>
  void *Evacuate(P &p, void *ref, uintptr_t header);  // copies a copy-space object (C3)
  // A copy of the small object at ref in p's region, leaving the original as it was (no
  // forwarding): Evacuate's copy, and the stabilizer's copy of an immutable text that another
  // database holds.
  template <class P>
  void *CopyObject(P &p, void *ref, uintptr_t header);
  template <class P>
  char *NewCopyPage(P &p, size_t bytes);

  // Both plans.
  void Begin(bool release_frames);
  CollectionResult Finish();
  void Flip();
  void PinAmbiguous(uintptr_t word);
  void PinEndOfPage(size_t j);
  void PinTenant(size_t i, uint32_t pos);
  void PinPage(size_t index);
  bool Mark(size_t index, const void *ref);  // false if it was marked already
  bool IsMarked(size_t index, const void *ref) const;
  static size_t SlotBytes(void *ref);  // bytes of the object or forwarded slot at ref
  void *Survivor(void *ref);           // where an object of before the collection is now (H2)
  void FillDeadPinnedObjects();
  void Promote(size_t index, Work *w);  // keeps a run in place; queues it on w (if any) to scan
  bool FreePrevious();  // true if it walked pages of the persistent arena the flip took

  // Stabilization (stabilizer.cpp).
  void MakePersistentInPlace(size_t head, uint8_t db, bool ambiguous);
  // The object at ref, on a page made persistent in place by this stabilization, persists there
  // in database db (sharing the page if db is not the page's, P12) and is queued to be scanned.
  void *Claim(size_t page, void *ref, uint8_t db);
  // The objects ambiguous roots point into on pages made persistent in place that no database
  // reached stay transient where they are: tenants of their page (P13).
  void LodgeTheRest();
  // A reference reached the object at ref on the persistent page `head`: if it is a tenant
  // (P13), it is live in this collection and is queued (once) to be scanned by the collection.
  void MarkTenant(size_t head, void *ref);
  // Database db reaches the tenant at ref on the persistent page `head`: it becomes db's and is
  // queued to be scanned by the stabilizer.
  void *Adopt(size_t head, void *ref, uint8_t db);
  void CountPersistent(const cairn_type *t, size_t bytes, bool ambiguous);
  void RefuseCrossDatabase(uint8_t db, size_t index, const void *ref, const cairn_type *t);
  // The database of the object at ref on persistent page `page` (P12: per object on a shared
  // page).
  uint8_t OwnerOf(size_t page, const void *ref) const {
    const heap::PageInfo &pi = table_[page];
    return (pi.flags & heap::kPageShared) ? hooks_->SharedOwner(page, ref) : pi.db;
  }

  heap::PageHeap &pages_;
  const Roots &roots_;
  PersistHooks *hooks_ = nullptr;
  IdentityHashes *hashes_ = nullptr;
  // Copies of the page heap's layout for the hot path, taken at the start of a collection.
  // (A page count, not bytes: no store of a heap word, typed uintptr_t, can alias it.)
  char *base_ = nullptr;
  uint32_t covered_pages_ = 0;
  heap::PageInfo *table_ = nullptr;

  bool release_ = false;  // this collection releases unreached persistent frames
  struct PinnedPage {
    size_t index;
    uint64_t marks[heap::kPageSize / heap::kWordSize / 64];  // one bit per word: live object
  };
  std::vector<PinnedPage> pinned_;  // small pages pinned in this collection
  CollectionResult result_;

  Work collect_;                     // CollectPolicy's
  BumpRegion copy_;                  // ... transient copy region
  Work stabilize_;                   // StabilizePolicy's
  BumpRegion persistent_copy_[256];  // ... copy regions, per database (PageInfo::db)
  bool open_page_asked_[256] = {};   // OpenCopyPage asked this stabilization, per database
  StabilizeOutcome *outcome_ = nullptr;
  // The stabilization's copies of other databases' texts, by database and original (one copy
  // per text and database however many references reach it; StabilizePolicy::OwnCopyOrRefuse).
  std::unordered_map<const void *, void *> text_copies_[256];
  std::vector<uint64_t> stored_page_;  // a page read from the store for such a copy
  // The stabilization's pages made persistent in place (ambiguous roots pinned them), and which
  // database each of their kept objects went to (the first to reach it: P12).
  std::vector<size_t> in_place_;
  bool tracing_root_ = false;  // Stabilize is tracing a database's root slot itself
  std::unordered_map<const void *, uint8_t> claims_;
  // The tenants (P13) found live in this collection; the others die at its end.
  std::unordered_set<const void *> tenants_live_;
};

}  // namespace cairn::gc
