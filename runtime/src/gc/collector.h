// Collector: one mostly-copying collection (Bartlett; Figure 1 of
// ../shared/papers/mostly-copying-persistence-pm3.txt), with persistent pages handled as
// Figure 4 describes, and stabilization (Figure 2) as the same closure run from the persistent
// pages.
//
// Collect():
//   1. Flip: every page in use moves from current to previous space (P4).
//   2. Promote every modified persistent page (P9) and push it on the copy stack.
//   3. Promote every page an ambiguous root points into back to current space. A transient
//      small page is pinned: only the object the root points into (interior pointers included)
//      is marked live and pushed on the mark stack. A large object's run and a persistent page
//      are promoted whole and, if resident, pushed. Then update the exact roots.
//   4. Closure: pop objects from the mark stack and pages from the copy stack and scan their
//      reference slots through the descriptors. A referenced transient object in previous space
//      is copied to the collector's current page (leaving a forwarding word), or its run is
//      promoted if large; a referenced persistent page is promoted (and scanned if resident); a
//      referenced object on a pinned page is marked and pushed. Ends when both stacks are empty
//      and the copy page is scanned.
//   5. Rekey the identity hashes of the objects that moved and drop those of the dead (H2 of
//      gc/identity_hash.h). Turn the unmarked objects of transient pinned pages into fillers
//      (P8); give up the frames
//      of persistent pages still in previous space (clean: nothing reached them); free every
//      other page still in previous space.
//
// Stabilize() (at commit and checkpoint):
//   1. Flip; promote every persistent page (Figure 2, lines 18-21); push the modified ones on
//      the stabilizer's stack.
//   2. Ambiguous roots as in Collect.
//   3. Stabilizer closure, from each database's root and its modified pages: a transient object
//      they reach in previous space, or on a pinned page but not itself pointed into by an
//      ambiguous root, is copied into a new persistent page of that database (clustered in the
//      order the scan reaches it); a pinned page holding an object an ambiguous root points
//      into, or a promoted large object, that they reach becomes persistent in place; a
//      reference to another database's object is recorded as an error.
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
// After either: P5 holds (no reference into previous space, no forwarding word in current space);
// objects referenced by ambiguous roots have not moved and nothing left their pages; the
// collector's last transient copy page is handed back (the mutator continues allocating in it).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <unordered_map>
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
  BumpRegion copy_region;        // where the collector stopped copying
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
  uint64_t pages_accurate = 0;          // new pages the stabilizer copied objects into
  uint64_t pages_ambiguous = 0;         // pinned transient pages made persistent in place
  uint64_t pages_large = 0;             // pages of large objects made persistent in place
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
  CollectionResult Collect(const void *stack_top);
  // Runs one stabilization (see above).
  CollectionResult Stabilize(const void *stack_top, std::span<const StabilizeRoot> roots,
                             StabilizeOutcome *outcome);

 private:
  void Begin();
  CollectionResult Finish();
  void Flip();
  void PinAmbiguous(uintptr_t word);
  void PinEndOfPage(size_t j);
  void PinPage(size_t index);
  void MarkPinned(size_t index, void *ref);
  bool IsMarked(size_t index, const void *ref) const;
  void *MovePinned(size_t index, void *ref);
  static size_t SlotBytes(void *ref);  // bytes of the object or forwarded slot at ref
  void *Survivor(void *ref);           // where an object of before the collection is now (H2)
  void FillDeadPinnedObjects();
  void Promote(size_t index, bool scan);
  inline void *Move(void *ref);
  void *MoveSlow(void *ref, heap::PageInfo &pi, size_t index);
  inline void *Copy(void *ref, uintptr_t header);
  char *NewCopyPage(size_t bytes);
  void ScanPage(size_t index);
  inline void ScanObject(const cairn_type *t, void *ref);
  void Closure();
  void FreePrevious();

  // Stabilization.
  void *StabilizeRef(void *ref, uint8_t db);
  void MakePersistentInPlace(size_t head, uint8_t db, bool ambiguous);
  void *PersistentCopy(void *ref, uintptr_t header, uint8_t db);
  void StabilizeScanPage(size_t index);
  void StabilizerClosure();
  void CountPersistent(const cairn_type *t, size_t bytes, bool ambiguous);

  heap::PageHeap &pages_;
  const Roots &roots_;
  PersistHooks *hooks_ = nullptr;
  IdentityHashes *hashes_ = nullptr;
  // Copies of the page heap's layout for the hot path, taken at the start of a collection.
  // (A page count, not bytes: no store of a heap word, typed uintptr_t, can alias it.)
  char *base_ = nullptr;
  uint32_t covered_pages_ = 0;
  heap::PageInfo *table_ = nullptr;

  std::vector<uint32_t> copy_stack_;  // pages with objects still to scan (mover)
  std::vector<void *> mark_stack_;    // marked objects of pinned pages still to scan
  struct PinnedPage {
    size_t index;
    uint64_t marks[heap::kPageSize / heap::kWordSize / 64];  // one bit per word: live object
  };
  std::vector<PinnedPage> pinned_;  // transient small pages pinned in this collection
  BumpRegion copy_;
  CollectionResult result_;

  // Stabilization state.
  std::vector<uint32_t> stab_stack_;  // persistent pages still to scan with the stabilizer
  std::unordered_map<uint8_t, BumpRegion> persistent_copy_;  // per database
  std::unordered_map<size_t, uint8_t> in_place_;  // pinned pages made persistent in place
  StabilizeOutcome *outcome_ = nullptr;
};

}  // namespace cairn::gc
