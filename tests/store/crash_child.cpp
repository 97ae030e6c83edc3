// The crash test's child: cairn-store-crash-child STORE_DIR sync|async
//
// Opens database "crash" of the store, reads the last commit number from its root, and commits
// commit after commit as crash_model.h plans them, writing "c\n" to standard output (unbuffered)
// after commit c has returned. Runs until it is killed.
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <string>

#include "cairn/store.h"
#include "crash_model.h"

using namespace cairn::store;

namespace {

int Die(const cairn::Status &s, const char *what) {
  std::fprintf(stderr, "crash child: %s: %s\n", what, s.ToString().c_str());
  return 1;
}

}  // namespace

int main(int argc, char **argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: %s STORE_DIR sync|async\n", argv[0]);
    return 2;
  }
  StoreOptions o;
  o.durability = std::strcmp(argv[2], "async") == 0 ? Durability::kAsync : Durability::kSync;
  std::unique_ptr<Store> store;
  cairn::Status s = Store::Open(argv[1], o, &store);
  if (!s.ok()) return Die(s, "open");
  DatabaseId db = 0;
  s = store->FindDatabase("crash", &db);
  if (!s.ok()) return Die(s, "find");
  uint64_t c = 0, count = 0;
  {
    std::unique_ptr<Transaction> t;
    s = store->BeginTransaction(&t);
    if (s.ok()) s = t->GetRoot(db, &c);
    if (s.ok()) s = t->GetPageCount(db, &count);
    if (!s.ok()) return Die(s, "read root");
    t->Abort();
  }
  static unsigned char page[kPageSize];
  for (;;) {
    ++c;
    cairn::test::CommitPlan plan = cairn::test::PlanCommit(c, count);
    std::unique_ptr<Transaction> t;
    s = store->BeginTransaction(&t);
    if (s.ok() && plan.grow) {
      PageNo p = 0;
      s = t->AllocatePage(db, &p);
      if (s.ok() && p != count + 1) return Die(s, "allocated an unexpected page");
    }
    for (uint64_t p : plan.pages) {
      if (!s.ok()) break;
      cairn::test::FillPage(c, p, page);
      s = t->WritePage(db, p, page);
    }
    if (s.ok()) s = t->SetRoot(db, c);
    if (s.ok()) s = t->Commit();
    if (!s.ok()) return Die(s, "commit");
    if (plan.grow) ++count;
    std::string ack = std::to_string(c) + "\n";
    if (write(1, ack.data(), ack.size()) != static_cast<ssize_t>(ack.size())) return 1;
  }
}
