/* Cairn: the audit of a database's object graph, the second half of `cairn db check` (the first
 * is cairn::store::Store::Check, the store's own invariants S1-S6).
 *
 * The store sees pages; this reads them as persistence wrote them (docs/persistence.md): objects
 * end to end from offset 0 of a page, each a header word holding a type index then its payload;
 * a large object alone at the start of a run of pages; references as (run, page, offset). It
 * checks, for every page in use, that:
 *   G1. every object header names a type of the database's type table, whose stored layout can be
 *       read, and every object fits its page (or its run, for a large object);
 *   G2. every reference, and the root, is well formed and points at an object's payload: the
 *       start of an object of a small page in use, or a large object's payload with the run's
 *       length; never into the middle of an object, at a filler (the place of a dead object,
 *       whose type is filler[N]), past a page's last object, into a free or missing page, or
 *       past the database's last page;
 * and it reports the pages in use that nothing the root reaches is on (garbage: a store-level
 * collection would free them) and their share. Pages Store::Check found damaged are skipped
 * here (it reports them); references into them cannot be verified and are counted apart.
 */
#ifndef CAIRN_GRAPH_CHECK_H
#define CAIRN_GRAPH_CHECK_H

#include <string_view>

#include "cairn/status.h"
#include "cairn/store.h"

namespace cairn::persist {

/* Audits the object graph of database `name` of an open store and adds what it finds to
 * `report` (the graph figures, and G1/G2 problems after those already there). Returns OK when
 * the audit ran; an error when it could not (no such database, the store failing). */
Status CheckObjectGraph(store::Store &store, std::string_view name, store::CheckReport *report);

}  // namespace cairn::persist

#endif /* CAIRN_GRAPH_CHECK_H */
