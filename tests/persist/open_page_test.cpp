// The stabilizer's open page (D17 of persist/persistence.h): a commit's new objects go first into
// the page the database's last stabilization copied into last, after the objects there, so
// commits of a few small objects each fill pages instead of taking one each; what they hold reads
// back whole in a new process and the store checks clean. A commit that fails after copying into
// the open page leaves those objects transient (tenants): the program keeps using them, and a
// later commit persists them.
#include <string>

#include "child.h"
#include "node_chain.h"
#include "persist_test.h"
#include "persist_types.h"

using namespace cairn_ptest;

namespace {

constexpr int64_t kCommits = 400;  // 40-byte nodes: 16 KB, two pages
constexpr int64_t kFailed = 400;  // nodes of a failed commit: more than a page, copied (not pinned)

// Nodes first .. 1 (ids), ending in `rest`; built out of sight of the stack (an exact root
// only), so that a commit copies them rather than pinning their page.
__attribute__((noinline)) Node *Nodes(int64_t first, Node *rest) {
  ExactRoot head;
  head.set(rest);
  for (int64_t i = 1; i <= first; i++) head.set(NewNode(i, static_cast<Node *>(head.get())));
  return static_cast<Node *>(head.get());
}

}  // namespace

PERSIST_CHILD(OpenPage_Fill) {
  OpenStore(args);
  cairn_db *db = CreateDb("f");
  CK_OK(cairn_txn_begin());
  CK_OK(cairn_db_set_root(db, NewNode(-1)));
  CK_OK(cairn_txn_commit());
  const uint64_t before = Stats().pages_accurate;
  for (int64_t i = 0; i < kCommits; i++) {
    CK_OK(cairn_txn_begin());
    Node *root = RootAs<Node>(db);
    root->left = NewNode(i, root->left);
    CK_OK(cairn_txn_commit());
  }
  const uint64_t pages = Stats().pages_accurate - before;
  Say("pages made persistent by %ld one-node commits: %lu\n", long(kCommits), pages);
  // One page per commit before D17.
  CK(pages <= 4) << pages << " new pages for " << kCommits * 40 << " bytes";
  CK_EQ(cairn_verify_heap(10), 0u);
  return 0;
}

// args: the id of the chain's first node. The store checks clean, and the root's chain reads
// back whole in this new process.
PERSIST_CHILD(OpenPage_Check) {
  CheckStoreClean(args, "f");
  OpenStore(args);
  cairn_db *db = OpenDb("f");
  CK_OK(cairn_txn_begin());
  Node *root = RootAs<Node>(db);
  CK_EQ(root->id, -1);
  CK(root->right == nullptr);
  CheckChain(root->left, args.Int(0), 0);
  CK_OK(cairn_txn_commit());
  return 0;
}

// Databases f and g, f's root with node 0 on its open page; then, in an open transaction, nodes
// kFailed .. 1 (in `keep`) before node 0 under f's root, and a reference from f to g's root: the
// commit is refused after its stabilization copied the new nodes into the open page. Returns f.
cairn_db *RefusedCommit(const ChildArgs &args, ExactRoot &keep) {
  OpenStore(args);
  cairn_db *f = CreateDb("f");
  cairn_db *g = CreateDb("g");
  CK_OK(cairn_txn_begin());
  CK_OK(cairn_db_set_root(f, NewNode(-1)));
  CK_OK(cairn_db_set_root(g, NewNode(-2)));
  CK_OK(cairn_txn_commit());
  CK_OK(cairn_txn_begin());
  RootAs<Node>(f)->left = NewNode(0);  // f's open page: where this node went
  CK_OK(cairn_txn_commit());
  CK_OK(cairn_txn_begin());
  keep.set(Nodes(kFailed, RootAs<Node>(f)->left));
  RootAs<Node>(f)->left = static_cast<Node *>(keep.get());
  RootAs<Node>(f)->right = RootAs<Node>(g);  // refused at commit
  CK_STATUS(cairn_txn_commit(), CAIRN_INVALID_ARGUMENT);
  return f;
}

// A commit refused (a reference to another database's object) after its stabilization copied a
// new node into the open page: the node stays usable, transient, through the abort and
// collections; linked again, it persists with the next commit.
PERSIST_CHILD(OpenPage_FailedCommit) {
  ExactRoot keep;
  cairn_db *f = RefusedCommit(args, keep);
  CK_OK(cairn_txn_abort());
  CK_EQ(cairn_verify_heap(10), 0u);
  cairn_collect();
  cairn_collect();
  CK_EQ(cairn_verify_heap(10), 0u);
  CK_OK(cairn_txn_begin());
  CheckChain(static_cast<const Node *>(keep.get()), kFailed, 0);
  CK_OK(cairn_txn_commit());
  CK_OK(cairn_txn_begin());
  CK(RootAs<Node>(f)->right == nullptr) << "the aborted change is still there";
  CK_EQ(RootAs<Node>(f)->left->id, 0);
  RootAs<Node>(f)->left = keep.get();
  CK_OK(cairn_txn_commit());
  CK_EQ(cairn_verify_heap(10), 0u);
  return 0;
}

__attribute__((noinline)) void DropHead(ExactRoot &keep) {
  keep.set(static_cast<Node *>(keep.get())->left);
}

// As OpenPage_FailedCommit, but one of the tenants the failed commit left after the open page's
// stored objects dies in a collection before the abort: the abort keeps the page walkable (it
// left zeros where the dead one's filler was: "header 0", then a crash in the next collection),
// and the frame verifier finds the page, made shared by its tenants, no longer kept writable
// (D15: it was left in kept_).
PERSIST_CHILD(OpenPage_FailedCommitTenantDies) {
  ExactRoot keep;
  cairn_db *f = RefusedCommit(args, keep);
  CK_EQ(cairn_verify_heap(10), 0u);
  DropHead(keep);  // node kFailed, the first copied into the open page, dies
  ScrubStack();    // no stale word keeps it alive
  cairn_collect();
  CK_EQ(cairn_verify_heap(10), 0u);
  CK_OK(cairn_txn_abort());
  CK_EQ(cairn_verify_heap(10), 0u);
  cairn_collect();
  CK_EQ(cairn_verify_heap(10), 0u);
  CK_OK(cairn_txn_begin());
  CheckChain(static_cast<const Node *>(keep.get()), kFailed - 1, 0);
  RootAs<Node>(f)->left = keep.get();
  CK_OK(cairn_txn_commit());
  CK_EQ(cairn_verify_heap(10), 0u);
  return 0;
}

class PersistOpenPage : public PersistTest {};

TEST_F(PersistOpenPage, CommitsOfOneSmallObjectEachFillPages) {
  ChildResult r = Run("OpenPage_Fill");
  std::printf("%s", r.out.c_str());
  ASSERT_CHILD_OK(r);
  ASSERT_CHILD_OK(Run("OpenPage_Check", {std::to_string(kCommits - 1)}));
}

TEST_F(PersistOpenPage, ObjectsOfAFailedCommitStayTransientAndPersistLater) {
  ASSERT_CHILD_OK(Run("OpenPage_FailedCommit"));
  ASSERT_CHILD_OK(Run("OpenPage_Check", {std::to_string(kFailed)}));
}

TEST_F(PersistOpenPage, ATenantDyingBeforeTheAbortOfAFailedCommitLeavesNoHole) {
  ASSERT_CHILD_OK(Run("OpenPage_FailedCommitTenantDies"));
  ASSERT_CHILD_OK(Run("OpenPage_Check", {std::to_string(kFailed - 1)}));
}
