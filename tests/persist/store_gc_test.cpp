// Store-level garbage collection (cairn/store_gc.h, `cairn db gc`; issue 11): after a delete, the
// pages no root reaches are freed in the store, what the root reaches is intact, freed pages are
// reused by later commits; a second collection frees nothing; and a process killed at any moment
// of a collection loses nothing (the collection is one store transaction: all or nothing).
#include "cairn/store_gc.h"

#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <memory>
#include <thread>

#include "cairn/store.h"
#include "child.h"
#include "persist_test.h"
#include "persist_types.h"

using namespace cairn_ptest;
namespace st = cairn::store;

namespace {

int64_t ChainNodes() { return Scaled(4000, 400); }       // 40 bytes each: about 20 pages
int64_t ArrayLength() { return Scaled(100000, 10000); }  // 800 KB: a run of about 98 pages
uint64_t ChainPages() { return ChainNodes() * 40 / CAIRN_PAGE_SIZE; }  // at least
uint64_t ArrayPages() { return ArrayLength() * 8 / CAIRN_PAGE_SIZE; }  // at least

__attribute__((noinline)) Node *Chain() {
  ExactRoot head;
  for (int64_t i = ChainNodes() - 1; i >= 0; i--) head.set(NewNode(i, head.get()));
  return head.get();
}

void *BigArray() {
  void *a = cairn_malloc_array(&cairn_i64_array_type, static_cast<size_t>(ArrayLength()));
  for (int64_t i = 0; i < ArrayLength(); i++) ArrayData<int64_t>(a)[i] = i * 3;
  return a;
}

void CheckChain(const Node *p) {
  for (int64_t i = 0; i < ChainNodes(); i++, p = p->left) {
    CK(p != nullptr) << "node " << i << " is missing";
    CK_EQ(p->id, i);
  }
  CK(p == nullptr);
}

std::unique_ptr<st::Store> OpenRaw(const ChildArgs &args) {
  std::unique_ptr<st::Store> store;
  cairn::Status s = st::Store::Open(args.store, st::StoreOptions{}, &store);
  CK(s.ok()) << s.ToString();
  return store;
}

}  // namespace

// Database "g" whose root (id 1) keeps a chain (left), committed.
cairn_db *CreateChainRoot(const ChildArgs &args) {
  OpenStore(args);
  cairn_db *db = CreateDb("g");
  CK_OK(cairn_txn_begin());
  CK_OK(cairn_db_set_root(db, NewNode(1, Chain())));
  CK_OK(cairn_txn_commit());
  return db;
}

// The root keeps a chain (left); a second chain and a large array are linked (right, and the
// second chain's head's right) and then deleted.
PERSIST_CHILD(StoreGc_Build) {
  cairn_db *db = CreateChainRoot(args);
  // The second chain starts on the first one's last page (D17): once deleted, its nodes there
  // are dead objects on a live page, referring to pages the collection frees.
  CK_OK(cairn_txn_begin());
  RootAs<Node>(db)->right = Chain();
  RootAs<Node>(db)->right->right = static_cast<Node *>(BigArray());
  CK_OK(cairn_txn_commit());
  CK_OK(cairn_txn_begin());
  RootAs<Node>(db)->right = nullptr;  // the delete
  CK_OK(cairn_txn_commit());
  return 0;
}

// Adds a large array to the root and deletes it again: garbage of ArrayPages() pages.
PERSIST_CHILD(StoreGc_AddGarbage) {
  OpenStore(args);
  cairn_db *db = OpenDb("g");
  CK_OK(cairn_txn_begin());
  RootAs<Node>(db)->right = static_cast<Node *>(BigArray());
  CK_OK(cairn_txn_commit());
  CK_OK(cairn_txn_begin());
  RootAs<Node>(db)->right = nullptr;
  CK_OK(cairn_txn_commit());
  return 0;
}

// args: the fewest pages the first collection must free.
PERSIST_CHILD(StoreGc_Collect) {
  auto store = OpenRaw(args);
  st::GcReport r;
  cairn::Status s = st::CollectGarbage(*store, "g", &r);
  CK(s.ok()) << s.ToString();
  Say("page_count=%lu pages_reached=%lu pages_freed=%lu free_pages=%lu objects_reached=%lu "
      "pages_rewritten=%lu\n",
      r.page_count, r.pages_reached, r.pages_freed, r.free_pages, r.objects_reached,
      r.pages_rewritten);
  // The dead nodes of the second chain on the first chain's last page lost their references to
  // the freed pages (a later allocation reuses them: StoreGc_Verify "relink").
  CK(r.pages_rewritten >= 1) << r.pages_rewritten;
  CK(r.pages_freed >= static_cast<uint64_t>(args.Int(0))) << r.pages_freed << " pages freed";
  // The root and its chain: the dead objects on their pages are not read as reached.
  CK_EQ(r.objects_reached, static_cast<uint64_t>(ChainNodes() + 1));
  CK(r.pages_reached <= ChainPages() + 3) << r.pages_reached;
  st::GcReport again;
  s = st::CollectGarbage(*store, "g", &again);
  CK(s.ok()) << s.ToString();
  CK_EQ(again.pages_freed, 0u);
  CK_EQ(again.free_pages, r.free_pages);
  st::CheckReport c;
  s = store->Check("g", &c);
  CK(s.ok() && c.clean()) << s.ToString() << (c.problems.empty() ? "" : c.problems[0]);
  return 0;
}

// Reports the database's page count and free pages; checks the store.
PERSIST_CHILD(StoreGc_Info) {
  auto store = OpenRaw(args);
  st::DatabaseInfo info;
  cairn::Status s = store->GetDatabaseInfo("g", &info);
  CK(s.ok()) << s.ToString();
  st::CheckReport c;
  s = store->Check("g", &c);
  CK(s.ok() && c.clean()) << s.ToString() << (c.problems.empty() ? "" : c.problems[0]);
  Say("page_count=%lu free_pages=%lu\n", info.page_count, info.free_pages);
  return 0;
}

// Reads what the root reaches; with "relink", links a new chain (on reused pages) and commits;
// with "relinked", checks that chain too.
PERSIST_CHILD(StoreGc_Verify) {
  const std::string what = args.args.empty() ? "" : args.args[0];
  OpenStore(args);
  cairn_db *db = OpenDb("g");
  CK_OK(cairn_txn_begin());
  Node *root = RootAs<Node>(db);
  CK_EQ(root->id, 1);
  CheckChain(root->left);
  if (what == "relinked")
    CheckChain(root->right);
  else
    CK(root->right == nullptr);
  if (what == "relink") RootAs<Node>(db)->right = Chain();
  CK_OK(cairn_txn_commit());
  return 0;
}

// The root keeps a chain, then the chain is cut at its middle: the node at the cut is live and
// shares its page with the first dead one, whose references lead to the other dead pages.
PERSIST_CHILD(StoreGc_BuildCut) {
  cairn_db *db = CreateChainRoot(args);
  CK_OK(cairn_txn_begin());
  Node *p = RootAs<Node>(db)->left;
  for (int64_t i = 0; i < ChainNodes() / 2; i++) p = p->left;
  p->left = nullptr;  // nodes 0 .. ChainNodes() / 2 stay
  CK_OK(cairn_txn_commit());
  return 0;
}

// Collects the cut chain: the pages holding only dead nodes are freed, though a dead node on a
// live page refers to them; the live half reads back whole and the store checks clean.
PERSIST_CHILD(StoreGc_CollectCut) {
  const int64_t live = ChainNodes() / 2 + 1;
  {
    auto store = OpenRaw(args);
    st::GcReport r;
    cairn::Status s = st::CollectGarbage(*store, "g", &r);
    CK(s.ok()) << s.ToString();
    Say("page_count=%lu pages_reached=%lu pages_freed=%lu objects_reached=%lu\n", r.page_count,
        r.pages_reached, r.pages_freed, r.objects_reached);
    CK_EQ(r.objects_reached, static_cast<uint64_t>(live + 1));
    CK(r.pages_freed + 2 >= ChainPages() / 2) << r.pages_freed << " pages freed";
    st::CheckReport c;
    s = store->Check("g", &c);
    CK(s.ok() && c.clean()) << s.ToString() << (c.problems.empty() ? "" : c.problems[0]);
  }
  OpenStore(args);
  cairn_db *db = OpenDb("g");
  CK_OK(cairn_txn_begin());
  const Node *p = RootAs<Node>(db)->left;
  for (int64_t i = 0; i < live; i++, p = p->left) {
    CK(p != nullptr) << "node " << i << " is missing";
    CK_EQ(p->id, i);
  }
  CK(p == nullptr);
  CK_OK(cairn_txn_commit());
  return 0;
}

// Collects with a SIGKILL of this process arriving after args[0] microseconds, wherever the
// collection is then (it waits for the kill if it finished first).
PERSIST_CHILD(StoreGc_Killed) {
  const auto delay = std::chrono::microseconds(args.Int(0));
  std::thread([delay] {
    std::this_thread::sleep_for(delay);
    kill(getpid(), SIGKILL);
  }).detach();
  auto store = OpenRaw(args);
  st::GcReport r;
  cairn::Status s = st::CollectGarbage(*store, "g", &r);
  Say("collected=%d\n", s.ok() ? 1 : 0);
  for (;;) pause();
}

class PersistStoreGc : public PersistTest {};

TEST_F(PersistStoreGc, DeletedPagesAreFreedAndReused) {
  ASSERT_CHILD_OK(Run("StoreGc_Build"));
  ChildResult before = Run("StoreGc_Info");
  ASSERT_CHILD_OK(before);
  EXPECT_EQ(ValueOf(before, "free_pages"), 0u);
  ChildResult gc = Run("StoreGc_Collect", {std::to_string(ChainPages() + ArrayPages())});
  std::printf("%s", gc.out.c_str());
  ASSERT_CHILD_OK(gc);
  ASSERT_CHILD_OK(Run("StoreGc_Verify", {"relink"}));
  ChildResult after = Run("StoreGc_Info");
  ASSERT_CHILD_OK(after);
  // The new chain went into freed pages: the database did not grow.
  EXPECT_EQ(ValueOf(after, "page_count"), ValueOf(before, "page_count"));
  EXPECT_LT(ValueOf(after, "free_pages"), ValueOf(gc, "free_pages"));
  ASSERT_CHILD_OK(Run("StoreGc_Verify", {"relinked"}));
}

TEST_F(PersistStoreGc, ADeadObjectOnALivePageKeepsNothingAlive) {
  ASSERT_CHILD_OK(Run("StoreGc_BuildCut"));
  ChildResult gc = Run("StoreGc_CollectCut");
  std::printf("%s", gc.out.c_str());
  ASSERT_CHILD_OK(gc);
}

TEST_F(PersistStoreGc, AKillAtAnyMomentOfACollectionLosesNothing) {
  ASSERT_CHILD_OK(Run("StoreGc_Build"));
  int collected = 0, interrupted = 0;
  for (int delay_ms : {0, 5, 15, 30, 50, 80, 120, 200}) {
    ASSERT_CHILD_OK(Run("StoreGc_AddGarbage"));
    ChildResult before = Run("StoreGc_Info");
    ASSERT_CHILD_OK(before);
    ChildResult killed = Run("StoreGc_Killed", {std::to_string(delay_ms * 1000)});
    ASSERT_EQ(killed.signal, SIGKILL) << killed.Describe();
    ChildResult after = Run("StoreGc_Info");  // the store's own check: clean
    ASSERT_CHILD_OK(after);
    uint64_t was = ValueOf(before, "free_pages"), is = ValueOf(after, "free_pages");
    // All or nothing: the garbage is either still there or all freed.
    if (is == was) {
      interrupted++;
    } else {
      EXPECT_GE(is, was + ArrayPages()) << "a collection was half done";
      collected++;
    }
    ASSERT_CHILD_OK(Run("StoreGc_Verify"));
  }
  std::printf("collections killed before their commit: %d, after: %d\n", interrupted, collected);
}
