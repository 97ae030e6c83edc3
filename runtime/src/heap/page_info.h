// The page table entry: what the heap knows about each 8 KiB page.
//
// The heap is one reserved range of pages (PageHeap). Each page has a PageInfo, indexed by page
// number (address - base) >> kPageShift. The spaces are those of the mostly-copying collector
// (Bartlett; ../shared/papers/mostly-copying-persistence-pm3.txt, Figure 1): new objects go to
// current space; a collection flips current to previous, then moves every reachable object back
// to current space, by copying it or by promoting its whole page, and frees what stays behind.
//
// Invariants (cited as P1..P7 in asserts, the verifier and the tests):
//   P1. A free page has kind kSmall, used == 0, run == 0 and no pinned flag.
//   P2. A small page in use holds objects laid end to end from offset 0 up to `used`: each a
//       header word then its payload, rounded up to 8 bytes; used <= kPageSize. The pages where
//       the mutator and the collector are bump-allocating record `used` lazily: callers sync
//       them (GcHeap::SyncAllocation) before walking a page.
//   P3. A large object (more than kLargeObjectBytes with its header) starts at offset 0 of a
//       kLargeHead page with run == n >= 1 pages; the next n-1 pages are kLargeTail with run ==
//       their distance back to the head; all n share the head's space. used == the object's bytes.
//   P4. Outside a collection no page is in previous space. During one, after the flip, every page
//       in use is in previous space until it is promoted (kept in place) or freed.
//   P5. After a collection, every reference in an object of a current page points at the payload
//       of an object in a current page whose header is a registered descriptor (no forwarding
//       words remain in current space).
//   P6. Pages at index >= high water mark have never been used: free, zero-filled, not dirty.
//   P7. A dirty free page may hold old bytes; it is zero-filled when it is taken again, so every
//       new object starts zeroed. A free page that is not dirty reads as zero (never used, P6, or
//       its memory given back to the system: PageHeap::ReturnFreeMemory).
//   P8. A small page pinned by an ambiguous root keeps every object that an ambiguous root points
//       into, and in an ordinary collection every live object, at its address (stabilization
//       copies the others that a database reaches into persistent pages; a page it makes
//       persistent in place keeps the objects ambiguous roots point into (those no database
//       reaches stay transient there: tenants, P13) and those its database reaches once it is
//       persistent, and its other live objects are copied out, to transient pages if only
//       transient objects reach them).
//       After the collection its objects that nothing reached, and the places of objects copied
//       out, are fillers: their header names a pointer-free descriptor of the same size, named
//       filler[N] (TypeRegistry::FillerType: nothing may refer to one; the verifier checks), so the
//       page stays walkable and dead objects keep nothing else alive; their bytes are zeros, so a
//       page written to a database holds nothing of them (tests/persist/dead_neighbour_test.cpp).
//       (No other persistent page
//       is ever filled. A persistent page's objects never move; a stabilization may copy new
//       objects of its database after them, into its free tail: D17 of persist/persistence.h.)
//   P9. A persistent page (db != 0) is one of: reserved (not resident, protection none: the
//       first touch faults it in), resident-clean (resident, protection read-only, or none while
//       cold (P11): the first write traps and marks it modified), resident-modified (resident,
//       modified, read-write: written since the last commit, new, or kept writable by the last
//       commit, D15 of persist/persistence.h; but a page of a modified large object's run that
//       the transaction has not written stays read-only until its first write: D16 there).
//       A clean persistent page references only persistent objects of its own database. The
//       collector never reads a page that is not resident and never writes a clean one.
//   P10. Persistent frames come from the persistent arena (the upper half of the reservation),
//       except transient pages made persistent in place by the stabilizer.
//   P11. Only resident-clean pages (and those the last commit kept writable, D15 of
//       persist/persistence.h) count against the residency budget and only clean ones are
//       evicted, by CLOCK: kPageReferenced is set when the page is loaded, written back by a
//       commit or touched again, and cleared when the hand passes it, which also makes the page
//       "cold" (protection none, contents kept) so that the next touch traps and sets it again
//       (the hardware's accessed bit is not visible to a process); the hand evicts a page whose
//       bit it finds clear. A cold page is read by nothing but the mutator (whose touch warms
//       it): collections never read clean pages (D10 of persist/persistence.h), except that a
//       stabilization reads (never writes) a text of another database on a resident page that
//       is not cold, to copy it into the database that reaches it (stabilizer.cpp,
//       OwnCopyOrRefuse; such a text on a page that is not resident, or is cold, is read from
//       the store instead: PersistHooks::ReadStoredObject).
//   P12. A small persistent page is shared (kPageShared) when the stabilizer made it persistent
//       in place while ambiguous roots pointed into objects of it that different databases
//       reach (`let x = new Item {}; let y = new Item {}; atomic { a.root = x; b.root = y }`).
//       `db` is then the database that reached one of them first; the persistence layer knows
//       which objects are another database's (PersistHooks::SharedOwner; the rest are db's) and
//       stores the page in each of its databases, where the others' objects are fillers
//       (persist/persistence.h, D13). Everything said of "the page's database" holds per
//       object on a shared page: an object refers only to objects of its own database (P9).
//       Only the stabilizer shares a page: a page it pinned and made persistent in the same
//       stabilization, or one whose tenant another database adopts (P13).
//   P13. A tenant is a transient object on a persistent small page: an ambiguous root pointed
//       into it when the stabilizer made its page persistent in place, and no database reached
//       it (`let kept = new Node {}; let loose = new Node {}; atomic { d.root = kept }`: loose
//       stays transient), or the mutator allocated it in the page's free tail after such a
//       commit (A1 of gc/gc_heap.h). Its page is marked shared and the persistence layer lists it
//       with database 0 (PersistHooks::SharedOwner; persist/persistence.h, D14): the page's stored
//       forms have a filler in its place, the page stays resident and warm, and an abort keeps
//       its bytes. It is live while something reaches it (an ambiguous root into it, R1 of
//       gc/collector.h, or a reference the collection traces); the collection then scans it,
//       writing its references even on a clean page (OpenTenantPage), and makes it a filler
//       when nothing does. A database that reaches it at a commit adopts it: it becomes that
//       database's object there. P9's rule for a clean page is about its persistent objects: a
//       tenant may refer to anything, and only other tenants and transient objects refer to
//       it.
#pragma once

#include <cstddef>
#include <cstdint>

#include "cairn/gc.h"

namespace cairn::heap {

inline constexpr size_t kPageSize = CAIRN_PAGE_SIZE;
inline constexpr unsigned kPageShift = 13;
static_assert((size_t{1} << kPageShift) == kPageSize, "kPageShift must match CAIRN_PAGE_SIZE");
inline constexpr size_t kWordSize = 8;

// Objects larger than this, header included, get a run of whole pages and are never copied.
inline constexpr size_t kLargeObjectBytes = kPageSize / 2;

enum class Space : uint8_t { kFree = 0, kCurrent = 1, kPrevious = 2 };
enum class PageKind : uint8_t { kSmall = 0, kLargeHead = 1, kLargeTail = 2 };

enum PageFlags : uint8_t {
  kPagePinned = 1 << 0,      // a small page promoted by an ambiguous root in the last collection
  kPageDirty = 1 << 1,       // has held data since it was reserved (P7)
  kPageResident = 1 << 2,    // persistent: its contents are loaded and swizzled (P9)
  kPageModified = 1 << 3,    // persistent: written since the last commit, new, or kept
                             // writable by it (D15 of persist/persistence.h) (P9)
  kPageProtRead = 1 << 4,    // its protection is read-only (else read-write, or none)
  kPageProtNone = 1 << 5,    // its protection is none: any access traps
  kPageReferenced = 1 << 6,  // persistent, clean: used since the CLOCK hand last passed (P11)
  kPageShared = 1 << 7,      // persistent, small: its objects are of more than one database (P12)
};

// The state of a persistent frame (P9), derived from the flags; persistence (persist/frames.cpp)
// is the one owner of its changes.
enum class FrameState : uint8_t { kTransient, kReserved, kClean, kModified };
inline constexpr uint8_t kPageProtMask = kPageProtRead | kPageProtNone;

struct PageInfo {
  Space space;
  PageKind kind;
  uint8_t flags;
  uint8_t db;     // 0: transient; else the open database (1..255) this persistent page is of
  uint32_t used;  // small: end of the last object; large head: the object's bytes
  uint32_t run;   // large head: pages in the run; large tail: pages back to the head
  uint32_t scan;  // the collector's scan position in this page (bytes); for a page pinned in
                  // the current collection, its slot in the collector's mark table

  bool pinned() const { return flags & kPagePinned; }
  bool large() const { return kind != PageKind::kSmall; }
  bool persistent() const { return db != 0; }
  bool resident() const { return flags & kPageResident; }
  bool modified() const { return flags & kPageModified; }
  FrameState frame_state() const {
    return db == 0       ? FrameState::kTransient
           : !resident() ? FrameState::kReserved
           : modified()  ? FrameState::kModified
                         : FrameState::kClean;
  }
};
static_assert(sizeof(PageInfo) == 16);

}  // namespace cairn::heap
