// A commit costs what changed (issue 11): with a large live transient heap, an empty commit, a
// read-only one and one that changes a word of a persistent object run no stabilization (no
// collection: the collector's counters do not move) and read only the modified pages; a commit
// that links a new object stabilizes. Work is asserted through the runtime's counters. A page of
// which one word changed is written as a delta, not whole (docs/store-format.md).
#include <cstdint>

#include "child.h"
#include "persist_test.h"
#include "persist_types.h"

using namespace cairn_ptest;

namespace {

int64_t TransientNodes() { return Scaled(1 << 20, 2000); }  // 48 MiB of live transient nodes

__attribute__((noinline)) void BuildTransient(ExactRoot &keep) {
  for (int64_t i = 0; i < TransientNodes(); i++) keep.set(NewNode(i, keep.get()));
}

// The root, made out of sight of the caller's frame (an exact root only), so that the commit
// copies it rather than pinning its page.
__attribute__((noinline)) void SetRoot(cairn_db *db) {
  ExactRoot root;
  root.set(NewNode(1, NewNode(2)));
  CK_OK(cairn_db_set_root(db, root.get()));
}

struct Counters {
  uint64_t collections, bytes_copied;
};

Counters Now() {
  cairn_stats s{};
  cairn_get_stats(&s);
  return Counters{s.collections, s.bytes_copied};
}

void CheckNoCollection(const Counters &before, const char *what) {
  Counters after = Now();
  CK_EQ(after.collections, before.collections) << what << " ran a collection";
  CK_EQ(after.bytes_copied, before.bytes_copied) << what;
  cairn_persist_stats c = LastCommitStats();
  CK_EQ(c.stabilizations, 0u) << what;
  CK_EQ(c.objects_made_persistent, 0u) << what;
}

}  // namespace

PERSIST_CHILD(CommitCost_Write) {
  OpenStore(args);
  cairn_db *db = CreateDb("cost");
  CK_OK(cairn_txn_begin());
  SetRoot(db);
  CK_OK(cairn_txn_commit());
  CK_EQ(LastCommitStats().stabilizations, 1u);  // the first commit makes the nodes persistent
  // ... by copying them: no page of the mutator's was made persistent in place, so the
  // transient nodes below are not allocated in its tail (A1 of gc/gc_heap.h: they would be
  // tenants of a modified page, which the empty commit would read). tail_test.cpp has that.
  CK_EQ(LastCommitStats().pages_ambiguous, 0u);
  ExactRoot transient;
  BuildTransient(transient);
  cairn_collect();

  // Empty.
  Counters before = Now();
  CK_OK(cairn_txn_begin());
  CK_OK(cairn_txn_commit());
  CheckNoCollection(before, "an empty commit");
  CK_EQ(LastCommitStats().pages_written, 0u);
  CK_EQ(LastCommitStats().pages_checked, 0u);

  // Read-only.
  before = Now();
  CK_OK(cairn_txn_begin());
  Node *root = RootAs<Node>(db);
  CK_EQ(root->left->id, 2);
  CK_OK(cairn_txn_commit());
  CheckNoCollection(before, "a read-only commit");
  CK_EQ(LastCommitStats().pages_written, 0u);

  // One word; and the root set again to the object it is.
  before = Now();
  CK_OK(cairn_txn_begin());
  root = RootAs<Node>(db);
  root->value = 42;
  CK_OK(cairn_db_set_root(db, root));
  CK_OK(cairn_txn_commit());
  CheckNoCollection(before, "a one-word commit");
  CK_EQ(LastCommitStats().pages_written, 1u);
  CK_EQ(LastCommitStats().pages_checked, 1u);
  // ... written as a delta of the word that changed (store format 2), read back whole by the
  // next process (CommitCost_Read).
  CK(LastCommitStats().bytes_written < 100u) << LastCommitStats().bytes_written;

  // A persistent object now refers to a new one: that commit stabilizes.
  CK_OK(cairn_txn_begin());
  root = RootAs<Node>(db);
  root->left->right = NewNode(3);
  CK_OK(cairn_txn_commit());
  CK_EQ(LastCommitStats().stabilizations, 1u);
  CK_EQ(LastCommitStats().objects_made_persistent, 1u);
  CK_EQ(Stats().stabilizations, 2u);

  CK_EQ(transient.get()->id, TransientNodes() - 1);  // the transient heap is intact
  return 0;
}

PERSIST_CHILD(CommitCost_Read) {
  OpenStore(args);
  cairn_db *db = OpenDb("cost");
  CK_OK(cairn_txn_begin());
  Node *root = RootAs<Node>(db);
  CK_EQ(root->id, 1);
  CK_EQ(root->value, 42);
  CK_EQ(root->left->id, 2);
  CK(root->left->right != nullptr);
  CK_EQ(root->left->right->id, 3);
  CK_OK(cairn_txn_commit());
  return 0;
}

class PersistCommitCost : public PersistTest {};

TEST_F(PersistCommitCost, EmptyReadOnlyAndOneWordCommitsRunNoStabilization) {
  ChildResult w = Run("CommitCost_Write");
  std::printf("%s", w.out.c_str());
  ASSERT_CHILD_OK(w);
  ASSERT_CHILD_OK(Run("CommitCost_Read"));
}
