// A store transaction's identity hash entries ('H' keys): the identity hashes of persistent
// objects that had one before they became persistent (docs/persistence.md, Identity hashes).
#include <rocksdb/iterator.h>

#include "cairn/gc.h"
#include "catalogue.h"
#include "keys.h"
#include "prefix_scan.h"
#include "rocks_status.h"
#include "transaction_impl.h"

namespace cairn::store {

Status Transaction::PutIdentityHash(DatabaseId id, PageNo page, uint32_t offset, uint64_t hash) {
  Impl &t = *impl_;
  if (Status w = t.GuardWrite("recording an identity hash"); !w.ok()) return w;
  TouchedDatabase *db = nullptr;
  Status s = t.Enter(id, &db);
  if (!s.ok()) return s;
  s = t.CheckPageExists(*db, page, "record an identity hash in");
  if (!s.ok()) return t.Fail(s);
  if (offset >= CAIRN_PAGE_SIZE) {
    return t.Fail(Status(CAIRN_INVALID_ARGUMENT, "cannot record an identity hash at offset " +
                                                     std::to_string(offset) + " of " +
                                                     PageName(*db, page) + " (S6)"));
  }
  rocksdb::Status rs = t.txn->Put(IdentityHashKey(id, page, offset), EncodeIdentityHashEntry(hash));
  if (!rs.ok()) {
    return t.Fail(FromRocks(rs, "recording an identity hash in " + PageName(*db, page),
                            t.store->options.lock_timeout_ms));
  }
  return Status::Ok();
}

Status Transaction::ListIdentityHashes(DatabaseId id, PageNo page,
                                       std::vector<IdentityHashEntry> *entries) {
  Impl &t = *impl_;
  TouchedDatabase *db = nullptr;
  Status s = t.Enter(id, &db);
  if (!s.ok()) return s;
  entries->clear();
  PrefixScan it(IdentityHashPagePrefix(id, page), t.read_options,
                [&](const rocksdb::ReadOptions &o) { return t.NewIterator(o); });
  for (; it.Valid(); it.Next()) {
    IdentityHashEntry e;
    uint64_t key_page = 0;
    std::string problem = "a key of the wrong length";
    std::string_view key(it.key().data(), it.key().size());
    if (!ParseIdentityHashKey(key, &key_page, &e.offset) ||
        !DecodeIdentityHashEntry(std::string_view(it.value().data(), it.value().size()), &e.hash,
                                 &problem)) {
      return t.Fail(Status(CAIRN_CORRUPTION, "the identity hashes of " + PageName(*db, page) +
                                                 " are damaged: " + problem + "; " +
                                                 DamageAdvice(t.store->dir, db->name)));
    }
    entries->push_back(e);
  }
  if (!it.status().ok()) {
    return t.Fail(FromRocks(it.status(), "reading the identity hashes of " + PageName(*db, page)));
  }
  return Status::Ok();
}

}  // namespace cairn::store
