// Persistence: databases, roots and transactions over the page store, page faulting and
// swizzling, and the commit that writes what stabilization made persistent. The C API in
// cairn/persist.h is a thin layer over it. docs/persistence.md explains the mechanism.
//
// Invariants (with P9/P10 of heap/page_info.h):
//   D1. frames_ maps (database, page id) to the heap frame of every persistent page (or the head
//       of a large object's run) that has a frame; every persistent frame is in it, once (a
//       shared frame once per database it is stored in: D13).
//   D2. A database's root slot holds the swizzled root while `root_loaded`; it is an exact root of
//       the collector. root_pref is the root as last committed.
//   D3. Inside a transaction, the store transaction txn_ is ACTIVE unless the transaction failed;
//       then only Abort is allowed.
//   D4. type_by_index_ and index_of_ agree with the database's type table: an index there names a
//       stored layout that this program's descriptor matches (checked when the database is
//       opened, and when first needed for types registered later).
//   D5. A page whose loading failed is reserved again (no access, not resident, used 0), exactly
//       as before the touch; the open transaction is failed (D3) and fault_error_ says why.
//       Frames reserved while it was being swizzled stay reserved (D1 holds); nothing refers to
//       them, so the next collection that releases frames gives them up (Figure 4, D10).
//   D11. References swizzled into persistent frames land on objects (persist/page_checks.h).
//   D6. A database's `hashes` holds, for each page whose identity hash entries were read (or
//       written by a commit that made the page persistent), all of that page's committed
//       entries (gc/identity_hash.h, H3).
//   D7. Each persistent frame's state (heap::FrameState: reserved, clean, modified) changes only
//       in frames.cpp, through SetState, which derives from the state its flags, its protection
//       (reserved: none; clean: read-only, none while cold (P11); modified: read-write, but
//       read-only for the pages of a run not written in the transaction (D16); a reserved frame is
//       read-write only while a page is read into it, a clean one with tenants only while they are
//       written (D14)), the counters (in_state_: the pages of the page table in each state) and the
//       sets (clock_ holds each clean page (or run head) once (P11), modified_ each modified one).
//       VerifyFrames checks D1, D7 and D10 against the page table (with the heap verifier:
//       cairn_verify_heap).
//   D8. A commit stabilizes only if a modified page or a changed root refers to something other
//       than a persistent object of its own database; otherwise (nothing changed, or changes
//       that reach only what is persistent already) the persistent objects are closed under
//       reference as they are (P9), and the commit writes the modified pages without a
//       collection.
//   D9. A commit that fails leaves every counter and table as it was before it: the pages it
//       made persistent are transient again (MakeTransient), the type-table entries it added
//       are gone from type_by_index and index_of, totals_ and last_ are unchanged (they are
//       added to only once the store has written the commit).
//   D10. refs_ holds, for each clean resident page (or run head), the distinct frames its
//       objects refer to other than its own, as of when it was loaded or last written; clean
//       pages do not change (P9), so it stays true until the page is written to, evicted or
//       released, which drop the entry. Ordinary collections never read clean pages: one that
//       releases frames (Figure 4) follows these lists instead, and runs only when the frames
//       in use (reserved and clean) have doubled since the last one, by kReleaseGrowth at least,
//       or fill half the persistent arena: at the collection an allocation starts, or at the
//       end of a commit (a stabilization resets the allocation trigger). Past three quarters
//       of the arena, the one at the end of a commit first evicts half the clean pages
//       (PrepareRelease): what they refer to would otherwise keep most frames reserved, and the
//       arena would fill. For a clean run
//       (unshared), run_page_refs_ holds the same per page of the run, and refs_ their union
//       only from when a collection asks for it (References) until the lists change: a commit
//       that changed a few pages of a big run costs no pass over all of its lists. A run leaving
//       the clean state takes its page lists with its image (D16), and a commit that wrote it
//       from the image lists again only the pages that changed (RecordRunReferences). The frame
//       verifier compares both with the pages.
//   D12. clean_images_ holds, for a modified small page that was clean in this transaction, a
//       copy of the page as it was clean (taken by SetState at the first write), dropped when
//       the page leaves the modified state. While no frame has been released since the copy
//       (a frame released and reused could give an unchanged word another page's meaning),
//       every word equal in the page and its copy is equal in the stored forms too, and the
//       copy's stored form is the page as stored: the commit makes it (Unswizzle) and gives it
//       to the store as the base of the page's delta (store format 3), with the checksum the
//       page had when it was read or last written (stored_crc_): the store checks it, and
//       reads the page back if the base does not have it (a wrong base costs a read, not the
//       page). A page no word of which differs is not written at all. Without a valid image
//       the store reads the page back. A page kept writable by the last commit
//       (D15) has as its image the page as that commit wrote it.
//   D13. A shared frame (P12 of heap/page_info.h: kPageShared) has an entry in shared_: the
//       objects on it that are not of the frame's database (`db`), by payload offset, with their
//       database, and a page id ("home") in each of those databases. The frame is in frames_
//       once per database (D1 counts it once per home too). A commit that writes the frame
//       writes it to each of its databases, with the objects of the others as fillers (zero
//       payload), so each database's page holds its own objects only and has the frame's
//       layout; loading the frame reads its database's page and puts each other database's
//       objects in from that database's page. A shared frame is never a delta written from a
//       clean image (D12), and its clean image goes when it stops being shared (its stored
//       form has fillers where the image has objects). It stops being shared when it is released or
//       made transient; the entry goes with it. In a later process each database's page is an
//       ordinary page.
//   D14. Tenants (P13 of heap/page_info.h): a transient object on a persistent small page is in
//       its frame's shared_ entry with database 0 (`tenants` counts them; the frame is marked
//       shared, with or without homes). Every stored form of the page has a filler in its
//       place, so nothing of it is written. A frame with tenants is resident and never cold:
//       EnforceBudgets neither cools nor evicts it (the collector reads tenants, and their
//       bytes exist nowhere else). An abort that drops the page's changes reads it again at
//       once and puts its tenants' bytes back (transient objects keep their state), and what
//       lies past the stored objects whole (a failed commit's tenants and the fillers of those
//       that died since: DiscardKeepingTenants leaves no hole of zeros there). A commit
//       whose database reaches a tenant adopts it (AdoptTenant: the page is modified, the
//       object the database's; adopted_ until the commit is written, undone if it fails).
//       Tenants are not counted in refs_ (D10) and have no stored identity hash (D6): their
//       hashes are the transient table's until a database adopts them. The mutator's tail (A1
//       of gc/gc_heap.h) lodges each object it allocates as a tenant at once (OpenTail makes
//       the page modified first); a modified page whose stored objects are as its clean image
//       has them, that has only live tenants after them and none adopted by this commit, has no
//       stored form to change (TenantsOnlySinceClean): a commit does not write it and an abort does
//       not read it again; both leave it clean with its memory past the stored objects in
//       tail_unstored_ (D17).
//   D15. A commit keeps writable the small pages it wrote that had been clean in the
//       transaction (had a clean image: D12) and are not shared (D13), at most kept_limit()
//       of them: each stays modified (read-write, in modified_), its image becomes the page as
//       written (with the stored form written, and the page's layout: which words are headers
//       and which references), and kept_ lists them until the next commit or abort, or until one
//       becomes shared (LodgeTenant, ShareObject take it out). The next write
//       to such a page does not trap: a page rewritten in transaction after transaction (a B-tree
//       leaf, a list's head) costs no trap and no mprotect pair per commit. What changed is found
//       by comparing with the image instead: the next commit writes a kept page only if a word
//       differs (and keeps it again), and makes it clean if none does; its stored form is the
//       one written last with the words that differ encoded again (EncodeChanged: a word equal
//       to the image's is stored as it was, D12), not the whole page unswizzled; an abort makes
//       clean every modified page no word of which differs from a valid image (a kept page not
//       changed since), puts back from its image each other one with a valid image and without
//       tenants (RestoreCleanImage: nothing read again), and drops the others' changes. The pages
//       kept count against the residency budget with the clean ones (EnforceBudgets), and
//       kept_limit() is an eighth of the budget, so a program that bounds residency still has it
//       bounded. Being modified, kept pages are scanned by every collection and read by the next
//       commit's NeedsStabilization, as the pages written in a transaction are, until a commit or
//       an abort finds them unchanged: the price of the traps saved, bounded by kept_limit().
//       Changes made between a commit and the next begin are the next transaction's, as a write
//       outside a transaction to a clean page is.
//   D16. run_images_ holds, for a modified run of more than one page (one large object) that
//       was clean in this transaction and is not shared, which of its pages were written since
//       (dirty), taken by DirtyRunPage at each page's first write, when the page is also made
//       writable: the run's other pages stay read-only (D7), so a write to one element of a big
//       persistent array (a HashMap's table) traps once for its page, not for the run. A dirty
//       page has a copy of itself as it was clean if the budget allowed (kMaxRunImagePages
//       copies in all, run_image_pages_ of them in use). Dropped when the run leaves the
//       modified state. A page not dirty holds what it held when clean, so it is as stored and
//       refers to persistent objects of the run's database (P9); as for D12, while no frame has
//       been released since its copy, a dirty page equal to its copy is too. So the commit
//       reads only the dirty pages to find the changed ones (ChangedRunPages, once per commit:
//       a stabilization changes only slots that referred to transient objects, on changed
//       pages), reads only those to decide whether to stabilize (D8), unswizzles and writes only
//       them (UnswizzleRunPage), lists again only their references (D10), and makes the run
//       clean with an mprotect of the dirty pages alone; none changed, it writes nothing. A
//       collection that does not release frames reads only the dirty pages too
//       (WrittenRunPages). An abort puts the dirty pages back from their copies when each has
//       one taken since the last frame release (RestoreRunPages; else the run is read again).
//       A first write that would split the heap's mapping past half of max_protection_runs
//       makes the whole run dirty and writable instead.
//   D17. A stabilization copies a database's new objects first into the page its last
//       stabilization copied into last (open_page_), after the objects there, while that page
//       is resident, small, unshared and has room (OpenCopyPage; a clean one becomes modified as
//       at a first write): commits of a few small objects each fill pages instead of taking one
//       each (when the objects are copied: one an ambiguous root points to is made persistent
//       where it is, with its page, and the mutator's next objects go after it: A1 of
//       gc/gc_heap.h). The page is written as any
//       modified page; its new words are headers and references where the image had free space, so
//       it is not re-encoded from a kept stored form (EncodeChanged: CleanImage::used differs) and
//       its identity hashes are merged with the store's (continued_). A failed commit (D9) leaves
//       the new objects where they are as tenants (D14): transient, on a persistent page, written
//       as fillers; the page's memory then differs from its stored form past the stored objects
//       until it is written again (tail_unstored_: an image taken meanwhile has zeros there, as
//       the stored form has, and its `used` is the stored objects' end).
//   D18. ForEachOpen (cairn_db_each_open) lists the open databases in the order this process
//       last opened or created each: every OpenDb of an open one stamps it anew (open_clock_,
//       cairn_db::opened), so the last is the one a tool means by "the database opened last".
//   D19. A commit adds no type to a database's table while the table holds another type of the
//       same name (stored before, or added by this commit): the two definitions of a class a
//       REPL session redefined after objects of the first were made, or defined after opening
//       a database that holds the first. No program defines a type twice, so no program could
//       read a page holding both (TypeIndex refuses the commit).
//   D20. A dropped database (cairn_db::dropped) is not found by name (open, create, drop,
//       ForEachOpen skip it), and its root is neither read nor set; its objects the program
//       still holds are ordinary persistent objects of it, faulted and committed by its id.
#pragma once

#include <algorithm>
#include <csignal>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "cairn/persist.h"
#include "cairn/store.h"
#include "gc/gc_heap.h"
#include "gc/persist_hooks.h"
#include "persist/frame_set.h"
#include "persist/page_checks.h"
#include "persist/ref_codec.h"

struct cairn_db {
  uint8_t index = 0;  // in the page table (PageInfo::db)
  std::string name;
  cairn::store::DatabaseId id = 0;
  uint64_t root_pref = 0;  // D2
  void *root = nullptr;    // D2: an exact root of the collector
  bool root_loaded = false;
  bool root_dirty = false;
  bool types_loaded = false;
  uint64_t opened = 0;  // D18: when last opened or created (Persistence::open_clock_)
  // D20: dropped by this process while open (Store::DetachDatabase): no name, no root; its
  // objects the program holds stay usable, and its pages readable by id until the store closes.
  bool dropped = false;
  std::vector<const cairn_type *> type_by_index;  // D4, [0] unused
  std::unordered_map<const cairn_type *, uint32_t> index_of;
  // D6: page id -> (payload offset, identity hash) recorded in the store for that page.
  std::unordered_map<uint64_t, std::vector<std::pair<uint32_t, uint64_t>>> hashes;
};

namespace cairn::persist {

// What a fault on a heap address turned out to be.
enum class FaultResult {
  kNotOurs,  // not a persistent page's fault: for whoever handled SIGSEGV before the runtime
  kHandled,  // a persistent page, now loaded (and writable if the access was a write)
  kFailed,   // a persistent page that could not be loaded: see fault_error(); D5 holds
};

class Persistence final : public gc::PersistHooks {
 public:
  static Persistence *Instance() { return instance_; }
  // Opens the store and installs the page-fault handler. CAIRN_MISUSE if already open.
  static Status Open(const cairn_persist_options *opts);
  // Opens the store with the defaults unless one is open.
  static Status Ensure();

  const std::string &dir() const { return store_->dir(); }

  Status CreateDb(const char *name, cairn_db **out);
  Status OpenDb(const char *name, cairn_db **out);
  Status UpgradeDb(const char *name, cairn_db **out, cairn_upgrade_report *report);  // upgrade.h
  Status Exists(const char *name, int *exists);
  Status Drop(const char *name);
  Status Dropped(const char *what, const cairn_db *db) const;  // D20's refusal
  Status List(std::vector<std::string> *names);

  // Tools (cairn/persist.h, "Looking into databases").
  void ForEachOpen(void (*fn)(cairn_db *db, void *ctx), void *ctx);
  Status StoredTypes(cairn_db *db, void (*fn)(const cairn_type *stored, void *ctx), void *ctx);

  Status GetRoot(cairn_db *db, void **root);
  Status SetRoot(cairn_db *db, void *root);

  Status Begin();
  Status Commit();
  Status Abort();
  Status Chain();
  Status Checkpoint();
  bool IsOpen() const { return open_; }
  // With no transaction open: whether a persistent object was changed since the last commit or
  // abort, as far as can be told (a modified small page one of whose stored objects differs
  // from its clean image, StoredObjectsChangedSinceClean; a large object's run with a changed
  // page), which the next transaction would commit. False with a transaction open.
  bool ChangesPending();
  // Whether an object of the modified small page at head that its clean image has (not a
  // tenant, not the filler of one that died since) differs from the image: a change a commit
  // would write. False without an image (it cannot tell).
  bool StoredObjectsChangedSinceClean(size_t head) const;

  // A fault at addr, on the mutator thread (persist/fault_signal.cpp). is_write: 1 a write, 0 a
  // read, -1 unknown (then a page that is not loaded is only loaded; a write traps again).
  FaultResult HandleFault(void *addr, int is_write);
  // After kFailed: runs the embedder's hook (cairn_set_fault_error_hook), which may jump out; if
  // there is none or it returns, prints the error and ends the process (status 1). Called with
  // nothing on the stack between it and the fault's entry point that owns resources. pc: the
  // instruction whose touch faulted, from the signal's context (nullptr without a signal).
  [[noreturn]] void ReportFaultError(void *pc = nullptr);
  static void SetFaultErrorHook(cairn_fault_error_hook hook, void *ctx);
  // True if addr lies in a persistent page (any state). For messages about other threads: it
  // reads the page table without synchronization.
  bool IsPersistentPage(const void *addr) const;
  void MakeResident(void *p, size_t n);

  void GetStats(cairn_persist_stats *out) const;
  void GetLastCommitStats(cairn_persist_stats *out) const { *out = last_; }
  size_t LastCommitTypes(cairn_type_count *out, size_t max) const;

  // Makes [p, p + n) resident without making it writable (cairn_make_resident_for_read).
  void MakeResidentForRead(const void *p, size_t n);
  // As MakeResidentForRead, but a page that cannot be loaded is returned (fault_error_, the
  // open transaction failed as for a fault) instead of going to the fault error hook
  // (cairn_load_for_read).
  Status LoadForRead(const void *p, size_t n);

  // gc::PersistHooks
  void ReleaseFrame(size_t frame) override;
  Status MakePersistent(uint8_t db, size_t frame, size_t n) override;
  Status ShareObject(uint8_t db, size_t frame, const void *ref) override;
  uint8_t SharedOwner(size_t frame, const void *ref) override;
  void LodgeTenant(size_t frame, const void *ref) override;
  bool OpenTail(size_t frame) override;
  size_t OpenCopyPage(uint8_t db, size_t bytes, bool *was_clean) override;
  Status AdoptTenant(uint8_t db, size_t frame, const void *ref) override;
  void OpenTenantPage(size_t frame) override;
  void SweepTenants(const std::function<bool(const void *)> &live) override;
  const cairn_type *ReadStoredObject(size_t head, const void *ref,
                                     std::vector<uint64_t> *words) override;
  const std::vector<uint32_t> &ModifiedPages() override { return modified_.members(); }
  const std::vector<bool> *WrittenRunPages(size_t head) override {
    auto it = run_images_.find(uint32_t(head));
    return it == run_images_.end() ? nullptr : &it->second.dirty;
  }
  const std::vector<uint32_t> *References(size_t head) override;  // D10 (frames.cpp)
  const std::vector<uint32_t> &StrayPages() override { return stray_.members(); }
  void PruneStrayPages() override;
  bool ReleaseFramesNow() override;
  void FramesReleased() override;
  void PrepareRelease() override;
  std::string DatabaseName(uint8_t db) override;
  size_t VerifyFrames(size_t max_report) override;
  uint64_t IdentityHash(size_t head, uint32_t offset) override;

 private:
  // D12: a modified small page's image (swizzled) when it was clean, and the count of frames
  // released then (totals_.frames_released).
  struct CleanImage {
    std::unique_ptr<uint64_t[]> words;
    uint64_t releases = 0;
    // D15: of a page kept writable, its stored form as the last commit wrote it (the image's
    // stored form), and which of its words are headers and which reference slots (a bit per
    // word: the page's layout, which does not change while it is persistent, P8). Empty until
    // the page is kept. `pending`: the stored form this commit writes, `stored` once kept.
    std::string stored, pending;
    std::vector<uint64_t> headers, refs;
    uint32_t used = 0;  // D17: the page's `used` when the image was taken (or kept)
  };
  Persistence() { std::fill(std::begin(open_page_), std::end(open_page_), kNoFrame); }
  static uint64_t Key(uint8_t db, uint64_t page) { return (uint64_t(db) << 56) | page; }
  Status Misuse(const std::string &what) const;
  // The store's refusal to write because it is open read-only, as the program's error: `what`
  // was not done, why the store is read-only, what to do. Any other status is returned as is.
  Status ReadOnlyRefusal(const Status &s, const std::string &what) const;
  // The open transaction's store transaction, begun again after a change committed beside it
  // (a database created or upgraded): it has only read (D3), so nothing is lost, and it sees the
  // change. A failure fails the transaction.
  Status BeginStoreTransactionAgain();
  std::string upgrade_summary_;  // the last upgrade's (cairn_upgrade_report.summary, U7)
  Status NeedTransaction(const char *what, const cairn_db *db) const;
  Status AddDatabase(const std::string &name, cairn_db **out);
  static constexpr size_t kMaxOpenDatabases = 255;  // PageInfo::db is a byte; 0 is transient
  Status TooManyOpen(const std::string &name) const;
  // Why heap address p (in the heap) is not an object's reference ("the address points 8 bytes
  // into an object of type 'T'"), or "" if it is one. Loads the page if it is persistent.
  std::string NotAnObject(void *p);

  // Faulting (fault.cpp). Errors are returned, never raised: see D5.
  Status Load(size_t head);
  Status ReadAndSwizzle(size_t head);
  Status Swizzle(cairn_db &db, uint64_t pref, size_t from_frame, void **out);
  Status TypeForIndex(cairn_db &db, uint32_t index, uint64_t page, const cairn_type **out);
  Status LoadTypes(cairn_db &db);
  // "database 'db', page N: what", remembering the database and page for the fault error.
  Status PageError(const cairn_db &db, uint64_t page, cairn_status code, const std::string &what);
  // The same for a status whose message names the page already (the store's).
  Status PageFault(const cairn_db &db, uint64_t page, const Status &s);
  // D11 (page_checks.h): a reference into `frame` (at `offset`, or anywhere if 0) is wrong: `what`
  // says how. The error names the page that holds it, when it is still resident.
  Status BadTarget(cairn_db &db, size_t frame, uint32_t offset, const std::string &what);
  // The reference `pref` at `slot` of frame `from_frame` (SIZE_MAX: the root) is wrong (D11):
  // `what` says how. Out of line: Swizzle's fast path builds no message.
  [[gnu::noinline]] Status BadReference(const cairn_db &db, uint64_t pref, size_t from_frame,
                                        void **slot, const std::string &what);
  // Reads the database's page count into checks_ (D11: references past it are damage).
  Status KnowPageCount(cairn_db &db);
  // Frame states (frames.cpp, D7).
  void SetFlags(size_t head, size_t n, uint8_t set, uint8_t clear);
  // The one place a frame's state changes; referenced: a clean page that is not cold (P11).
  void SetState(size_t head, heap::FrameState to, bool referenced = true);
  Status ReserveFrames(cairn_db &db, uint64_t first, size_t n, bool large, size_t *frame);
  void BeginLoad(size_t head);      // reserved, made writable for the store to read into
  void LoadFailed(size_t head);     // ... reserved again as before (D5)
  void Loaded(size_t head);         // reserved -> clean
  void Warm(size_t head);           // clean and cold -> clean, touched again (P11)
  void Cool(size_t head);           // clean -> clean and cold (the CLOCK hand passed, P11)
  void Touched(size_t head);        // clean -> modified (the first write)
  void Written(size_t head);        // modified -> clean (committed)
  void Kept(size_t head);           // modified -> modified, as written by the commit (D15)
  void Evict(size_t head);          // clean -> reserved
  void Discard(size_t head);        // modified -> reserved (aborted)
  void MakeTransient(size_t head);  // modified (made persistent by a failed commit) -> transient
  // D12: the modified small page at head is as its clean image says (no word differs), and
  // the image is still valid (no frame released since).
  bool UnchangedSinceClean(size_t head) const;
  // A1 of gc/gc_heap.h, D14: the modified small page at head, with tenants, holds what its clean
  // image (valid) holds up to the image's `used`, and past it only live tenants (the mutator's
  // tail); no database's object was added to it (no tenant adopted by this commit, no other
  // database's object on it): its stored form has not changed (nothing of a tenant is stored),
  // though its memory differs from it past the stored objects (D17's tail_unstored_).
  bool TenantsOnlySinceClean(size_t head) const;
  // D12, D15: an abort puts the modified small page at head (no tenants, not shared) back as it
  // was clean, from its valid image, instead of dropping it to be read again: nothing is read,
  // and the page stays loaded (the mutator's tail on it stays open: A1 of gc/gc_heap.h). False
  // when there is no valid image; the caller then discards the page.
  bool RestoreCleanImage(size_t head);
  size_t kept_limit() const;  // D15
  void RecordReferences(size_t head);
  void NoteRecent(size_t head);
  bool IsRecent(size_t head) const;
  void EnforceBudgets();
  // Evicts clean pages by CLOCK (never the recent ones, nor tenants' pages) while `over()`, two
  // turns of the hand at most.
  template <class Over>
  void EvictWhile(const Over &over);
  // The open transaction, or a new read-only one in *temp.
  Status ReadTransaction(std::unique_ptr<store::Transaction> *temp, store::Transaction **out);

  // The open transaction if it can read, else a new one, kept in *temp (abort it when done).
  Status Reader(std::unique_ptr<store::Transaction> *temp, store::Transaction **t);

  // The type check at open (type_check.cpp).
  Status CheckTypes(cairn_db &db);

  // Identity hashes of persistent objects (identity.cpp).
  struct PendingHash {
    cairn_db *db;
    uint64_t page;
    uint32_t offset;
    uint64_t hash;
    uintptr_t addr;
    bool old_page;  // persistent before this commit (a tenant's, adopted: D14)
  };
  Status WriteIdentityHashes(std::vector<PendingHash> *written);
  void AdoptIdentityHashes(const std::vector<PendingHash> &written);

  // Commit (commit.cpp).
  bool NeedsStabilization(uint64_t *checked);
  Status WriteCommit(bool stay_open);
  // Writes the modified pages and the roots; *unchanged gets the pages not written because
  // no word differs from their clean image (D12), or only tenants were added after its objects
  // (TenantsOnlySinceClean: those also go to *tails, with where their stored objects end), in
  // page order, *checksums each small page
  // written, with its checksum as written (for stored_crc_ once the commit is written).
  Status Flush(cairn_persist_stats *c, std::vector<std::pair<cairn_db *, uint64_t>> *new_roots,
               std::vector<uint32_t> *unchanged, std::vector<std::pair<uint32_t, uint32_t>> *tails,
               std::vector<std::pair<uint32_t, uint32_t>> *checksums);
  // What a commit's writes hold in memory until it commits (RocksDB's transaction batch, then
  // as much again copied into its memtable), against cairn_persist_options.commit_memory_bytes
  // or, by default, what the machine has available (MemAvailable and SwapFree, read every
  // kCommitMemoryStep bytes written): past it, CAIRN_OUT_OF_MEMORY, and the commit fails with
  // nothing written, instead of the kernel's out-of-memory kill (campaign P: an 8 GB array took
  // 24 GB to commit). `written`: the bytes this commit has written so far.
  Status CheckCommitMemory(uint64_t written);
  static constexpr uint64_t kCommitMemoryStep = uint64_t{64} << 20;
  uint64_t next_memory_check_ = 0;  // reset by Flush
  // The page at head in the stored form for database db (one of its databases: D13). Given the
  // page's clean image (D12, valid), also the image's stored form in *base, and whether it
  // could be made (*have_base; false if the image does not have the page's objects).
  // With `layout`, also the page's header and reference-slot bitmaps there (D15). Objects at or
  // past `image_used` (the image's own `used`) were added since the image (D17): the image has
  // free space there, which the base keeps as it is.
  Status Unswizzle(size_t head, uint8_t db, std::string *buffer, const uint64_t *image = nullptr,
                   std::string *base = nullptr, bool *have_base = nullptr,
                   CleanImage *layout = nullptr, uint32_t image_used = UINT32_MAX);
  // D15: the stored form of a kept page from the one the last commit wrote, re-encoding only
  // the words that differ from its image. *done is false (and the caller unswizzles the page
  // whole) when a header differs or a reference cannot be encoded.
  Status EncodeChanged(size_t head, uint8_t db, const CleanImage &image, std::string *buffer,
                       bool *done);
  // The page id of frame `head` in database db: its own, or its home there if shared (D13).
  uint64_t PageIdIn(size_t head, uint8_t db) const;
  // The database of the object at payload offset `offset` of the page at frame `head`.
  uint8_t OwnerAt(size_t head, uint32_t offset) const;
  // A shared frame's other databases' objects put in from their pages (D13), after its own
  // database's page was read and swizzled into it.
  Status LoadSharedObjects(size_t head);
  // The frame stops being shared: its homes leave the frame map (D13).
  void Unshare(size_t head);
  // ... if nothing on it is another database's or a tenant's any more (D13, D14).
  void UnshareIfPlain(size_t head);
  bool HasTenants(size_t head) const;  // D14
  // D14: an abort reads the modified page at `head` again, keeping its tenants' bytes.
  void DiscardKeepingTenants(size_t head);
  // D9: tenants a failed commit adopted are tenants again.
  void RevertAdoptions();
  Status TypeIndex(cairn_db &db, const cairn_type *t, uint32_t *index);
  uint64_t EncodeTarget(void *ref, uint8_t db, bool *ok);
  void Revert(const gc::StabilizeOutcome &o);
  template <class F>
  void ForEachModified(F &&f);
  void DiscardModified();

  static Persistence *instance_;
  std::unique_ptr<store::Store> store_;
  cairn_persist_options options_{};  // read_only: as opened (also when it fell back to it)
  std::string read_only_why_;        // ... and why, for messages
  gc::GcHeap *heap_ = nullptr;
  std::vector<std::unique_ptr<cairn_db>> dbs_;  // index in the page table - 1
  uint64_t open_clock_ = 0;  // D18: counts opens and creates; cairn_db::opened is its value
  std::unordered_map<uint64_t, uint32_t> frames_;  // D1
  PageChecks checks_;                              // D7
  std::unique_ptr<store::Transaction> txn_;        // D3
  bool open_ = false;
  bool failed_ = false;
  Status failure_;
  Status fault_error_;  // the last page that could not be loaded (D5)
  std::string fault_database_;
  uint64_t fault_page_ = 0;
  void *fault_address_ = nullptr;
  uint64_t in_state_[4] = {};  // D7: pages in each heap::FrameState (the transient slot unused)
  FrameSet clock_;             // clean pages (run heads), in the order the CLOCK hand visits them
  FrameSet modified_;          // modified pages (run heads)
  FrameSet stray_;             // transient pages of the persistent arena (a failed commit's), P10
  // D10: clean page (run head) -> the frames its objects refer to, other than itself, each
  // once, in no particular order.
  std::unordered_map<uint32_t, std::vector<uint32_t>> refs_;
  // D10 for a clean run: for each of its pages, the distinct frames it refers to, so that a
  // commit that changed a few pages of a big run lists only those again; refs_ holds their
  // union once a collection that releases frames has asked for it (References), until they
  // change.
  std::unordered_map<uint32_t, std::vector<std::vector<uint32_t>>> run_page_refs_;
  // RecordReferences' scratch: ref_seen_[frame] == ref_pass_ when the frame is in the list
  // being made (one word per page of the heap, made at the first use; no sort per page). An
  // anonymous mapping, not committed: only the parts for frames met take memory (a vector of
  // the heap's pages made every program that read a database 32 MiB larger: campaign N). Never
  // unmapped: the Persistence lives until the process ends.
  uint32_t *ref_seen_ = nullptr;
  size_t ref_seen_size_ = 0;
  uint32_t ref_pass_ = 0;
  std::unordered_map<uint32_t, CleanImage> clean_images_;  // D12: modified small page -> image
  // D16: a modified run (unshared, of more than one page) that was clean in this transaction.
  struct RunImage {
    // Per page of the run: written in this transaction (writable; the others stay read-only
    // and trap at their first write), and, if the budget allowed, its copy as it was clean, taken
    // at that first write, with totals_.frames_released then.
    std::vector<bool> dirty;
    std::vector<std::unique_ptr<uint64_t[]>> copies;
    std::vector<uint64_t> copy_releases;
    size_t pages = 0;  // copies held (run_image_pages_ counts them for all runs)
    // D10 for runs: run_page_refs_'s entry when the run was clean (each page that has not
    // changed since still refers to those frames).
    std::vector<std::vector<uint32_t>> page_refs;
    // Which pages may differ from what is stored, as of the commit being written
    // (ChangedRunPages): dirty, and without a valid copy or not equal to it. Valid while
    // `changed_commit` is commit_serial_.
    std::vector<bool> changed;
    uint64_t changed_commit = 0;
  };
  // D16: the image of a modified run head (null if it has none: shared, of one page, or made
  // persistent in this transaction), with `changed` computed for this commit.
  RunImage *ChangedRunPages(size_t head);
  // D16, at an abort: puts back each page of the modified run at `head` written in the
  // transaction from its copy, if every one has a copy taken since the last frame release;
  // says whether it did (the run is then as stored, and made clean).
  bool RestoreRunPages(size_t head);
  // D16: page k of the modified run at `head` is written to: its copy is taken (budget
  // permitting) and it is made writable.
  void DirtyRunPage(size_t head, size_t k);
  // Sets the protection of each page of [head, head + n) that does not have it (a modified
  // run's pages differ: D16).
  void ProtectEach(size_t head, size_t n, heap::Protection prot);
  // Encodes the reference `target` of a slot of an object of type t on the frame at `head`
  // into out_at (its stored form), and, with then_at (the same slot in a clean image's or
  // copy's stored form being made, holding its swizzled word), the image's reference there too
  // (encoded once where equal); *have_base false if the image's cannot be; *bad (the first
  // only) if the target cannot be.
  void EncodeSlot(void *target, char *out_at, char *then_at, size_t head, uint8_t dbi,
                  const cairn_type *t, bool *have_base, Status *bad);
  // D16: the stored form of page k of the large object's run at `head` (only the slots on that
  // page encoded; the header too if k is 0). With `copy` (the page's copy as it was clean), also
  // the copy's stored form in *copy_stored; *have_base is made false if it cannot be made.
  Status UnswizzleRunPage(size_t head, uint8_t db, size_t k, std::string *buffer,
                          const uint64_t *copy = nullptr, std::string *copy_stored = nullptr,
                          bool *have_base = nullptr);
  // D10 for a run made clean from its image (written, or unchanged): the lists of its pages
  // that did not change are kept, those of the changed pages made again.
  void RecordRunReferences(size_t head, RunImage &image);
  // D10's scratch: NewReferencePass starts a list of distinct frames; NoteReference adds the
  // frame (run head) `target` lies in to *out, unless it is `head` or listed already.
  void NewReferencePass();
  void NoteReference(const void *target, size_t head, std::vector<uint32_t> *out);
  // The distinct frames other than `head` the slots on page k of the run at `head` refer to.
  std::vector<uint32_t> RunPageReferences(size_t head, size_t k);
  // A run's page lists (run_page_refs_[head] gets them; refs_[head], their union, is made again
  // when next asked for: D10).
  void SetRunReferences(size_t head, std::vector<std::vector<uint32_t>> page_refs);
  uint64_t commit_serial_ = 0;  // raised at each WriteCommit (RunImage::changed_commit)
  std::unordered_map<uint32_t, RunImage> run_images_;  // D16: modified run head -> image
  size_t run_image_pages_ = 0;                         // D16: the page copies of all runs
  // D16: the page copies of one transaction's runs take at most 64 MiB in all; a page written
  // past that has none and is written at commit even if it holds what it held.
  static constexpr size_t kMaxRunImagePages = 8192;
  // D12, D16: frame -> the checksum of its page as stored (store::StoredPageChecksum), for a
  // small page or a page of a run (each page's own frame) loaded or written by a commit since
  // it was last reserved; the store uses a clean image's or a run page copy's stored form as a
  // delta's base only if it has this checksum.
  std::unordered_map<uint32_t, uint32_t> stored_crc_;
  void NoteStoredChecksum(size_t frame, uint32_t crc);
  std::vector<uint32_t> kept_;  // D15: pages the last commit kept writable
  // D13: shared frame -> its other databases' objects and its page ids there.
  struct SharedFrame {
    std::unordered_map<uint32_t, uint8_t> owners;     // payload offset -> database, 0: tenant
    std::vector<std::pair<uint8_t, uint64_t>> homes;  // (database, page id)
    uint32_t tenants = 0;                             // owners that are 0 (D14)
  };
  std::unordered_map<uint32_t, SharedFrame> shared_;
  // D14: tenants adopted by the commit being written (frame, payload offset, the home the
  // adoption added, if any), undone if it fails.
  struct Adoption {
    uint32_t frame;
    uint32_t offset;
    uint8_t home_db;  // 0: none added
  };
  std::vector<Adoption> adopted_;
  // D17: per database, the frame the last stabilization copied into last (open_page_[db]; a
  // stale entry is refused by OpenCopyPage's checks), and the frames this commit's
  // stabilization copied into after their objects.
  static constexpr uint32_t kNoFrame = UINT32_MAX;
  uint32_t open_page_[256];
  std::vector<uint32_t> continued_;
  // D17: clean frames whose memory holds, past the stored objects, tenants a failed commit had
  // copied there or the mutator allocated there (A1, D14), or their fillers, with where the
  // stored objects end (the page's `used` as stored): the store has zeros past it, and so has
  // the page's clean image when it is taken (D12), which is then the stored form swizzled.
  std::unordered_map<uint32_t, uint32_t> tail_unstored_;
  std::vector<uint32_t> opened_;  // frames OpenTenantPage made writable for the collector
  // A collection releases unreached frames (Figure 4) once the frames in use reach this.
  static constexpr uint64_t kReleaseGrowth = 4096;
  uint64_t next_release_ = kReleaseGrowth;
  bool relieve_ = false;  // the collection at the end of a commit runs: PrepareRelease may evict
  uint64_t in_use_at_release_ = 0;  // frames in use after the last releasing collection
  size_t hand_ = 0;
  // The pages touched last (loaded, written first, touched again): never evicted, so that an
  // instruction that needs several pages at once makes progress.
  static constexpr size_t kRecent = 8;
  // D15: pages kept writable at most (each keeps its image, its stored form and room for the
  // next one: up to 24 KiB a page, 24 MiB in all).
  static constexpr size_t kMaxKept = 1024;
  uint32_t recent_[kRecent] = {UINT32_MAX, UINT32_MAX, UINT32_MAX, UINT32_MAX,
                               UINT32_MAX, UINT32_MAX, UINT32_MAX, UINT32_MAX};
  size_t recent_next_ = 0;
  cairn_persist_stats totals_{};
  cairn_persist_stats last_{};
  std::vector<cairn_type_count> last_types_;
  struct AddedType {  // a type-table entry the commit being written added
    cairn_db *db;
    const cairn_type *type;
    uint32_t index;
  };
  std::vector<AddedType> added_types_;
};

}  // namespace cairn::persist
