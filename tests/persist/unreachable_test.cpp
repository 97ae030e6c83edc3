// Unreachable objects do not persist: garbage interleaved with reachable objects, garbage that
// was reachable and was unlinked before the commit, and a transient object pinned by the stack
// but not reached from the root are all absent from the database, both by the commit's own
// figures and in the raw pages of the store (searched for the garbage's bit pattern). The one
// exception is by design: a page that the stack pins and the commit reaches is made persistent
// in place with every object on it, so garbage may persist on such ("ambiguous") pages only.
#include <cstring>
#include <memory>

#include "cairn/store.h"
#include "child.h"
#include "persist_test.h"
#include "persist_types.h"

using namespace cairn_ptest;

namespace {

int64_t KeptNodes() { return Scaled(2000, 200); }
int64_t GarbagePerNode() { return 3; }
int64_t GarbageRun() { return Scaled(20000, 300); }
uint64_t MaxGarbagePerPage() { return CAIRN_PAGE_SIZE / (8 + sizeof(Garbage)); }

// A chain of KeptNodes() nodes (the root) with garbage allocated between its nodes, alive
// (through an exact root) until the chain is built, so the chain's transient pages are mixed.
__attribute__((noinline)) void BuildKeptAmongGarbage(cairn_db *db) {
  ExactRoot garbage;
  ExactRoot head;
  int64_t serial = 0;
  for (int64_t i = KeptNodes() - 1; i >= 0; i--) {
    head.set(NewNode(i, head.get()));
    for (int64_t g = 0; g < GarbagePerNode(); g++) {
      auto *x = static_cast<Garbage *>(cairn_malloc_typed(&kGarbageType));
      x->mark = static_cast<int64_t>(kGarbageMark | serial++);
      x->next = garbage.get<Garbage>();
      garbage.set(x);
    }
  }
  CK_OK(cairn_db_set_root(db, head.get()));
}

// A run of garbage; returns its middle element (which reaches the second half).
__attribute__((noinline)) Garbage *BuildGarbageRun(int64_t first_serial) {
  ExactRoot run;
  Garbage *middle = nullptr;
  for (int64_t i = 0; i < GarbageRun(); i++) {
    auto *x = static_cast<Garbage *>(cairn_malloc_typed(&kGarbageType));
    x->mark = static_cast<int64_t>(kGarbageMark | (first_serial + i));
    x->next = run.get<Garbage>();
    run.set(x);
    if (i == GarbageRun() / 2) middle = x;
  }
  return middle;
}

void CheckChain(Node *head) {
  int64_t i = 0;
  for (Node *p = head; p; p = p->left, i++) {
    CK_EQ(p->id, i);
    CK_EQ(p->value, i * 7 + 1);
    CK(p->right == nullptr) << "node " << i << " refers to something";
  }
  CK_EQ(i, KeptNodes());
}

}  // namespace

PERSIST_CHILD(Unreachable_Write) {
  OpenStore(args);
  cairn_db *db = CreateDb("keep");
  CK_OK(cairn_txn_begin());
  BuildKeptAmongGarbage(db);
  // Transient, pinned by this frame, never reached from the root.
  Garbage *volatile pinned = BuildGarbageRun(1 << 24);
  // Reachable for a moment, unlinked before the commit.
  RootAs<Node>(db)->right = reinterpret_cast<Node *>(pinned->next);
  RootAs<Node>(db)->right = nullptr;
  ScrubStack();
  CK_OK(cairn_txn_commit());
  cairn_persist_stats s = LastCommitStats();
  SayStats("first_", s);
  uint64_t garbage = LastCommitObjectsOf("ptest.Garbage");
  Say("garbage_persisted=%lu\n", garbage);
  // A page that the stack pins and the commit reaches is made persistent in place with all its
  // objects (docs/persistence.md); only garbage sharing such a page may persist.
  CK(garbage <= s.pages_ambiguous * MaxGarbagePerPage())
      << garbage << " garbage objects persisted, " << s.pages_ambiguous << " ambiguous pages";
  CK_EQ(LastCommitObjectsOf("ptest.Node"), static_cast<uint64_t>(KeptNodes()));

  // Now link garbage from a persistent object and unlink it again before the next commit.
  CK_OK(cairn_txn_begin());
  Node *head = RootAs<Node>(db);
  head->left->right = reinterpret_cast<Node *>(pinned);
  head->left->right = nullptr;
  ScrubStack();
  CK_OK(cairn_txn_commit());
  SayStats("second_", LastCommitStats());
  CK_EQ(LastCommitStats().objects_made_persistent, 0u);
  // The pinned garbage is still this process's, intact.
  CK_EQ(static_cast<uint64_t>(pinned->mark), kGarbageMark | ((1 << 24) + GarbageRun() / 2));
  return 0;
}

PERSIST_CHILD(Unreachable_Read) {
  OpenStore(args);
  cairn_db *db = OpenDb("keep");
  CK_OK(cairn_txn_begin());
  CheckChain(RootAs<Node>(db));
  CK_OK(cairn_txn_abort());
  return 0;
}

// Reads every page of the database through the store alone (no persistence layer in this
// process) and counts words holding the garbage's pattern.
PERSIST_CHILD(Unreachable_ScanPages) {
  namespace st = cairn::store;
  std::unique_ptr<st::Store> store;
  cairn::Status s = st::Store::Open(args.store, st::StoreOptions{}, &store);
  CK(s.ok()) << s.ToString();
  st::DatabaseInfo info;
  s = store->GetDatabaseInfo("keep", &info);
  CK(s.ok()) << s.ToString();
  std::unique_ptr<st::Transaction> txn;
  s = store->BeginTransaction(&txn);
  CK(s.ok()) << s.ToString();
  std::vector<uint64_t> page(st::kPageSize / 8);
  uint64_t in_use = 0, garbage_words = 0;
  for (st::PageNo p = 1; p <= info.page_count; p++) {
    s = txn->ReadPage(info.id, p, page.data());
    if (s.code() == CAIRN_NOT_FOUND) continue;  // a free page
    CK(s.ok()) << s.ToString();
    in_use++;
    for (uint64_t w : page) {
      if ((w & 0xffffffff00000000ull) == kGarbageMark) garbage_words++;
    }
  }
  txn->Abort();
  Say("page_count=%lu pages_in_use=%lu garbage_words=%lu\n", info.page_count, in_use,
      garbage_words);
  // args: pages made persistent in place by the writer (garbage on them may persist).
  uint64_t ambiguous = static_cast<uint64_t>(args.Int(0));
  CK(garbage_words <= ambiguous * MaxGarbagePerPage())
      << garbage_words << " words of garbage objects in the database's pages; the writer made "
      << ambiguous << " pages persistent in place";
  // The kept chain needs KeptNodes() * 40 bytes; the garbage, several times that.
  uint64_t need = (KeptNodes() * 40 + st::kPageSize - 1) / st::kPageSize;
  CK(in_use <= 2 * need + 4) << in_use << " pages in use for " << need << " pages of objects";
  return 0;
}

class PersistUnreachable : public PersistTest {};

TEST_F(PersistUnreachable, UnreachableObjectsDoNotPersist) {
  ChildResult w = Run("Unreachable_Write");
  ASSERT_CHILD_OK(w);
  ChildResult r = Run("Unreachable_Read");
  EXPECT_CHILD_OK(r);
  ChildResult scan = Run("Unreachable_ScanPages", {w.Value("first_pages_ambiguous")});
  EXPECT_CHILD_OK(scan);
  std::printf("writer: %s; scan: %s", w.out.c_str(), scan.out.c_str());
}
