// Store-level garbage collection of a database (cairn/store_gc.h): mark the objects the committed
// root reaches, object by object, reading their pages through the type table's layouts, and so
// the pages that hold them; then free every other page in use, all in one store transaction.
#include "cairn/store_gc.h"

#include <cstring>
#include <vector>

#include "heap/object.h"
#include "persist/stored_graph.h"
#include "types/type_registry.h"

namespace cairn::store {

namespace {

// A dead object on a page that stays (it shares the page with a live one) becomes a filler of
// its size (P8 of heap/page_info.h, as the collector makes of dead objects on pinned pages):
//   - it may refer to a page about to be freed, which a later allocation may reuse: a program
//     that loads the page would take that reference for the new page's (its frame map would
//     hold the page twice);
//   - its type may be one no program defines any more (a class deleted, or renamed by a
//     migration that copied its objects): a program would be refused the whole page, live
//     objects and all, for a type it cannot define (campaign J).
// Nothing reads a dead object; the page's other objects stay where they are. Written in the
// same store transaction as the frees.
Status FillDeadObjects(Transaction &txn, const DatabaseInfo &info, persist::StoredGraph &graph,
                       uint64_t *pages_rewritten, uint64_t *objects_filled) {
  for (uint64_t page : graph.small_pages()) {
    const persist::StoredGraph::Image *image = nullptr;
    Status s = graph.Read(page, 1, false, &image);
    if (!s.ok()) return s;
    std::vector<char> bytes;
    for (size_t i = 0; i < image->starts.size(); i++) {
      if (graph.live(page, image->starts[i])) continue;
      if (types::TypeRegistry::IsFiller(image->types[i])) continue;
      if (bytes.empty()) bytes = image->bytes;
      s = graph.Fill(bytes.data(), image->starts[i], image->types[i]);
      if (!s.ok()) return s;
      ++*objects_filled;
    }
    if (bytes.empty()) continue;
    s = txn.WritePage(info.id, page, bytes.data());
    if (!s.ok()) return s;
    ++*pages_rewritten;
  }
  return Status::Ok();
}

}  // namespace

Status CollectGarbage(Store &store, std::string_view name, GcReport *report) {
  *report = GcReport{};
  report->database = std::string(name);
  DatabaseInfo info;
  Status s = store.GetDatabaseInfo(name, &info);
  if (!s.ok()) return s;
  std::unique_ptr<Transaction> txn;
  s = store.BeginTransaction(&txn);
  if (!s.ok()) return s;
  // The root and page count as of this transaction's snapshot.
  s = txn->GetRoot(info.id, &info.root);
  if (s.ok()) s = txn->GetPageCount(info.id, &info.page_count);
  persist::StoredGraph marker(*txn, info, "nothing was freed");
  if (s.ok()) s = marker.LoadTypes();
  if (s.ok()) s = marker.Reach(info.root, 0);
  if (s.ok()) s = marker.Drain();
  uint64_t rewritten = 0, filled = 0;
  if (s.ok()) s = FillDeadObjects(*txn, info, marker, &rewritten, &filled);
  // Sweep: every page in use that nothing reached is freed.
  uint64_t freed = 0, already_free = 0;
  if (s.ok()) s = marker.FreeUnreached([](uint64_t) { return false; }, &freed, &already_free);
  if (s.ok()) s = txn->Commit();
  if (!s.ok()) {
    txn->Abort();
    return s;
  }
  report->page_count = info.page_count;
  report->pages_reached = marker.pages_reached();
  report->objects_reached = marker.objects_reached();
  report->pages_rewritten = rewritten;
  report->objects_filled = filled;
  report->pages_freed = freed;
  report->free_pages = already_free + freed;
  return Status::Ok();
}

}  // namespace cairn::store
