// Updates to persistent objects persist on commit and vanish on abort, in the process that made
// them (the pages are faulted in again) and in a fresh one. Objects made in an aborted
// transaction stay, transient.
#include "child.h"
#include "persist_test.h"
#include "persist_types.h"

using namespace cairn_ptest;

namespace {

int64_t ChainLength() { return Scaled(3000, 120); }

__attribute__((noinline)) Node *BuildChain(int64_t n) {
  Node *head = nullptr;
  for (int64_t i = n - 1; i >= 0; i--) head = NewNode(i, head);
  return head;
}

// The state after Update_Modify's commit: every tenth value negated, node 5 refers to a new
// node 777; nothing of the aborted transaction.
void CheckCommittedState(Node *head) {
  CK(head != nullptr);
  int64_t i = 0;
  for (Node *p = head; p; p = p->left, i++) {
    CK_EQ(p->id, i);
    CK_EQ(p->value, i % 10 == 0 ? -i : i * 7 + 1) << " at node " << i;
    if (i == 5) {
      CK(p->right != nullptr) << "the node added by the commit is missing";
      CK_EQ(p->right->id, 777);
      CK_EQ(p->right->value, 777 * 7 + 1);
    } else {
      CK(p->right == nullptr) << "node " << i << " refers to node "
                              << (p->right ? p->right->id : -1);
    }
  }
  CK_EQ(i, ChainLength());
  CK_EQ(cairn_verify_heap(10), 0u);
}

}  // namespace

PERSIST_CHILD(Update_Create) {
  OpenStore(args);
  cairn_db *db = CreateDb("chain");
  CK_OK(cairn_txn_begin());
  CK_OK(cairn_db_set_root(db, BuildChain(ChainLength())));
  CK_OK(cairn_txn_commit());
  return 0;
}

PERSIST_CHILD(Update_Modify) {
  OpenStore(args);
  cairn_db *db = OpenDb("chain");

  // Committed: every tenth value negated, and a new node linked from node 5.
  CK_OK(cairn_txn_begin());
  Node *head = RootAs<Node>(db);
  for (Node *p = head; p; p = p->left) {
    if (p->id % 10 == 0) p->value = -p->id;
  }
  NodeAt(head, 5)->right = NewNode(777);
  CK(Stats().write_faults > 0) << "writing to clean persistent pages was not trapped";
  CK_OK(cairn_txn_commit());
  cairn_persist_stats s = LastCommitStats();
  SayStats("commit_", s);
  CK(s.pages_written > 0);
  CK_EQ(s.objects_made_persistent, 1u);

  // Aborted: other values, a new node, a new root.
  CK_OK(cairn_txn_begin());
  head = RootAs<Node>(db);
  for (Node *p = head; p; p = p->left) {
    if (p->id % 10 == 1) p->value = 12345;
  }
  Node *made_in_abort = NewNode(888);
  NodeAt(head, 6)->right = made_in_abort;
  NodeAt(head, 5)->right->value = -1;
  CK_OK(cairn_db_set_root(db, head->left));
  CK_OK(cairn_txn_abort());
  CK_EQ(cairn_txn_is_open(), 0);
  CK_EQ(Stats().aborts, 1u);

  // In this process: the committed state, faulted in again; the new object is still there.
  CK_OK(cairn_txn_begin());
  CheckCommittedState(RootAs<Node>(db));
  CK_EQ(made_in_abort->id, 888);
  CK_EQ(made_in_abort->value, 888 * 7 + 1);
  CK_OK(cairn_txn_commit());
  CK_EQ(LastCommitStats().pages_written, 0u);
  return 0;
}

PERSIST_CHILD(Update_Check) {
  OpenStore(args);
  cairn_db *db = OpenDb("chain");
  CK_OK(cairn_txn_begin());
  CheckCommittedState(RootAs<Node>(db));
  CK_OK(cairn_txn_commit());
  return 0;
}

class PersistUpdate : public PersistTest {};

TEST_F(PersistUpdate, UpdatesPersistOnCommitAndVanishOnAbort) {
  ASSERT_CHILD_OK(Run("Update_Create"));
  ASSERT_CHILD_OK(Run("Update_Modify"));
  ASSERT_CHILD_OK(Run("Update_Check"));
}
