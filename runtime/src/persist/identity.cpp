// Identity hashes of persistent objects (the scheme is in gc/identity_hash.h): derived from the
// object's location, unless the commit that made the object persistent recorded the hash it had
// as a transient object.
#include "cairn/store.h"
#include "gc/identity_hash.h"
#include "persist/persistence.h"
#include "util/fatal.h"

namespace cairn::persist {

uint64_t Persistence::IdentityHash(size_t head, uint32_t offset) {
  // On a shared page (P12), the object's database and the page's id there (D13).
  const uint8_t dbi = OwnerAt(head, offset);
  if (dbi == 0)  // a tenant (D14): a transient object
    return heap_->identity_hashes().HashOf(
        reinterpret_cast<uintptr_t>(heap_->pages().PageAddress(head)) + offset);
  cairn_db &db = *dbs_[dbi - 1];
  const uint64_t page = PageIdIn(head, dbi);
  auto it = db.hashes.find(page);
  if (it == db.hashes.end()) {  // D6: read the page's entries once
    std::vector<store::IdentityHashEntry> entries;
    std::unique_ptr<store::Transaction> temp;
    store::Transaction *t = nullptr;
    Status s = Reader(&temp, &t);
    if (s.ok()) s = t->ListIdentityHashes(db.id, page, &entries);
    if (temp) temp->Abort();
    if (!s.ok())
      Fatal("cairn_identity_hash: reading the identity hashes of page %llu of database '%s': %s",
            static_cast<unsigned long long>(page), db.name.c_str(), s.message().c_str());
    it = db.hashes.emplace(page, std::vector<std::pair<uint32_t, uint64_t>>{}).first;
    for (const store::IdentityHashEntry &e : entries) it->second.emplace_back(e.offset, e.hash);
  }
  for (const auto &[off, hash] : it->second)
    if (off == offset) return hash;
  return gc::LocationHash(db.id, page, offset);
}

Status Persistence::WriteIdentityHashes(std::vector<PendingHash> *written) {
  // H3: the entries stabilization moved onto persistent pages are those of objects it made
  // persistent; they go to the store with the pages.
  heap::PageHeap &pages = heap_->pages();
  Status s;
  heap_->identity_hashes().ForEach([&](uintptr_t addr, uint64_t hash) {
    const void *ref = reinterpret_cast<const void *>(addr);
    if (!s.ok() || !pages.Covers(ref)) return;
    size_t i = pages.IndexOf(ref);
    const heap::PageInfo &pi = pages.Info(i);
    if (!pi.persistent()) return;
    size_t head = pi.kind == heap::PageKind::kLargeTail ? i - pi.run : i;
    const uint32_t offset = uint32_t(addr - reinterpret_cast<uintptr_t>(pages.PageAddress(head)));
    const uint8_t dbi = OwnerAt(head, offset);  // P12, D13
    if (dbi == 0) return;                       // a tenant stays transient (D14)
    bool old_page = false;
    for (const Adoption &a : adopted_) old_page |= a.frame == head;
    for (uint32_t f : continued_) old_page |= f == head;  // D17: it has entries stored
    PendingHash p{dbs_[dbi - 1].get(), PageIdIn(head, dbi), offset, hash, addr, old_page};
    s = txn_->PutIdentityHash(p.db->id, p.page, p.offset, p.hash);
    written->push_back(p);
  });
  return s;
}

void Persistence::AdoptIdentityHashes(const std::vector<PendingHash> &written) {
  // Committed: the hashes now live in the databases (D6), and the objects are no longer
  // transient (H1). The pages are new to their databases, so these are all their entries,
  // except a page a tenant was adopted on (D14): its other entries are in the store, read with
  // this one when first needed, unless they were read already.
  for (const PendingHash &p : written) {
    auto known = p.db->hashes.find(p.page);
    if (known != p.db->hashes.end())
      known->second.emplace_back(p.offset, p.hash);
    else if (!p.old_page)
      p.db->hashes[p.page].emplace_back(p.offset, p.hash);
    heap_->identity_hashes().Erase(p.addr);
  }
}

}  // namespace cairn::persist
