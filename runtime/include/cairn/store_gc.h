/* Cairn: store-level garbage collection of a database (`cairn db gc NAME`), C++.
 *
 * Persistence never frees a page while a program runs: a page that no root reaches any more
 * (after a delete, after replacing a large text) stays in the store. CollectGarbage finds the
 * pages the database's committed root reaches, object by object (object headers name stored
 * types, whose layouts in the type table say where the references are; a reference names a page,
 * an offset and, for a large object, its run): only objects something reached are read for
 * references, so a dead object on a page kept for a live one keeps nothing else alive (the
 * reachability `cairn db check` reports). Dead objects on the pages it keeps become fillers of
 * their size: their references to pages it frees go (those pages may be reused), and so do
 * their types (a page holding a dead object of a class no program defines any more is readable
 * again). It frees every other page in use, with its identity hash entries, in one store
 * transaction: a crash or kill at any point leaves the database as it was before or as it is after,
 * never in between (S5 of cairn/store.h). Freed pages are reused by later allocations.
 *
 * It must not run on a database that a process using persistence has open: that process may
 * hold references to objects on pages the root no longer reaches. One process owns a store at a
 * time, so the CLI, which opens the store itself, cannot race with a program; a program that
 * opened the database must not call it. Part of the library cairn_persist.
 */
#ifndef CAIRN_STORE_GC_H
#define CAIRN_STORE_GC_H

#include <cstdint>
#include <string>
#include <string_view>

#include "cairn/status.h"
#include "cairn/store.h"

namespace cairn::store {

/* What CollectGarbage found and did. */
struct GcReport {
  std::string database;
  uint64_t page_count = 0;      /* pages 1..page_count, in use or free */
  uint64_t pages_reached = 0;   /* in use and reached from the root */
  uint64_t pages_freed = 0;     /* in use, reached by nothing: freed */
  uint64_t free_pages = 0;      /* free after the collection */
  uint64_t objects_reached = 0; /* objects the root reaches */
  uint64_t pages_rewritten = 0; /* kept pages whose dead objects became fillers */
  uint64_t objects_filled = 0;  /* those dead objects */
};

/* Frees every page of database `name` that its root does not reach (see above). Errors:
 * CAIRN_NOT_FOUND (no such database), CAIRN_CORRUPTION (a damaged page, a reference to a page
 * that is free or outside the database or to where no object starts, a type index its table
 * lacks: nothing is freed; run
 * `cairn db check`), the store's errors. */
Status CollectGarbage(Store &store, std::string_view name, GcReport *report);

}  // namespace cairn::store

#endif /* CAIRN_STORE_GC_H */
