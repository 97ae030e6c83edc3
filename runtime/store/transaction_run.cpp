// Transaction::AllocatePageRun: n consecutive new pages, for objects that span several pages.
#include "cairn/store.h"
#include "transaction_impl.h"

namespace cairn::store {

Status Transaction::AllocatePageRun(DatabaseId id, uint64_t n, PageNo *first) {
  Impl &t = *impl_;
  if (Status w = t.GuardWrite("allocating pages"); !w.ok()) return w;
  TouchedDatabase *db = nullptr;
  Status s = t.Enter(id, &db);
  if (!s.ok()) return s;
  if (n == 0) return t.Fail(Status(CAIRN_INVALID_ARGUMENT, "AllocatePageRun of zero pages"));
  s = t.LockRecord(db);
  if (!s.ok()) return t.Fail(s);
  // Free pages are not used: they are seldom consecutive. The run extends the database (S1).
  DatabaseRecord &r = db->record;
  *first = r.page_count + 1;
  r.page_count += n;
  for (uint64_t k = 0; k < n; k++) db->unwritten.insert(*first + k);  // X3
  db->record_dirty = true;
  return Status::Ok();
}

}  // namespace cairn::store
