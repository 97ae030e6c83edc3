// Chain (commit and begin the next) and checkpoint (write and stay open): what they wrote
// survives an abort of the rest of the transaction and the end of the process without a
// commit.
#include <unistd.h>

#include <cstdio>

#include "child.h"
#include "persist_test.h"
#include "persist_types.h"

using namespace cairn_ptest;

namespace {

void SetValue(cairn_db *db, int64_t v) { RootAs<Node>(db)->value = v; }
int64_t Value(cairn_db *db) { return RootAs<Node>(db)->value; }

// Ends the process at once: no commit, no abort, no destructors.
[[noreturn]] void ExitNow() {
  std::fflush(nullptr);
  _exit(0);
}

}  // namespace

PERSIST_CHILD(Chain_Run) {
  OpenStore(args);
  cairn_db *db = CreateDb("counter");
  CK_OK(cairn_txn_begin());
  Node *root = NewNode(1);
  root->value = 1;
  CK_OK(cairn_db_set_root(db, root));
  CK_OK(cairn_txn_chain());
  CK_EQ(cairn_txn_is_open(), 1);
  CK_EQ(Stats().commits, 1u);
  CK_EQ(Value(db), 1);

  SetValue(db, 2);
  RootAs<Node>(db)->left = NewNode(50);
  CK_OK(cairn_txn_checkpoint());
  CK_EQ(cairn_txn_is_open(), 1);
  CK_EQ(Stats().commits, 2u);
  CK_EQ(LastCommitStats().objects_made_persistent, 1u);

  SetValue(db, 3);
  RootAs<Node>(db)->right = NewNode(60);
  CK_OK(cairn_txn_abort());
  CK_EQ(cairn_txn_is_open(), 0);

  CK_OK(cairn_txn_begin());
  CK_EQ(Value(db), 2);  // the checkpoint's write survived the abort ...
  CK(RootAs<Node>(db)->left != nullptr);
  CK_EQ(RootAs<Node>(db)->left->id, 50);
  CK(RootAs<Node>(db)->right == nullptr);  // ... and what came after it did not

  SetValue(db, 4);
  CK_OK(cairn_txn_chain());
  SetValue(db, 5);
  CK_OK(cairn_txn_commit());
  CK_EQ(cairn_txn_is_open(), 0);
  return 0;
}

PERSIST_CHILD(Chain_CheckpointThenExit) {
  OpenStore(args);
  cairn_db *db = OpenDb("counter");
  CK_OK(cairn_txn_begin());
  SetValue(db, 6);
  CK_OK(cairn_txn_checkpoint());
  SetValue(db, 7);
  ExitNow();
}

PERSIST_CHILD(Chain_ChainThenExit) {
  OpenStore(args);
  cairn_db *db = OpenDb("counter");
  CK_OK(cairn_txn_begin());
  SetValue(db, 8);
  CK_OK(cairn_txn_chain());
  SetValue(db, 9);
  ExitNow();
}

// args: the value the root must hold.
PERSIST_CHILD(Chain_Expect) {
  OpenStore(args);
  cairn_db *db = OpenDb("counter");
  CK_OK(cairn_txn_begin());
  CK_EQ(Value(db), args.Int(0));
  CK(RootAs<Node>(db)->left != nullptr);
  CK_EQ(RootAs<Node>(db)->left->id, 50);
  CK(RootAs<Node>(db)->right == nullptr);
  CK_OK(cairn_txn_abort());
  return 0;
}

class PersistChain : public PersistTest {};

TEST_F(PersistChain, ChainAndCheckpointWriteAndStayOpen) {
  ASSERT_CHILD_OK(Run("Chain_Run"));
  ASSERT_CHILD_OK(Run("Chain_Expect", {"5"}));
}

TEST_F(PersistChain, CheckpointSurvivesTheProcessEndingWithoutCommit) {
  ASSERT_CHILD_OK(Run("Chain_Run"));
  ASSERT_CHILD_OK(Run("Chain_CheckpointThenExit"));
  ASSERT_CHILD_OK(Run("Chain_Expect", {"6"}));
}

TEST_F(PersistChain, ChainSurvivesTheProcessEndingWithoutCommit) {
  ASSERT_CHILD_OK(Run("Chain_Run"));
  ASSERT_CHILD_OK(Run("Chain_ChainThenExit"));
  ASSERT_CHILD_OK(Run("Chain_Expect", {"8"}));
}
