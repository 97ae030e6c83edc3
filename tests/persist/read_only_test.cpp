// A store opened read-only (cairn_persist_options.read_only, CAIRN_STORE_READ_ONLY=1 for the
// language's programs): databases read as always and a transaction that changes nothing
// commits; a commit that would write (a changed word, a new object), creating and dropping a
// database fail with CAIRN_MISUSE saying the store is read-only and why, and nothing is written
// (the next read-write process finds the data as it was).
#include <string>

#include "child.h"
#include "persist_test.h"
#include "persist_types.h"

using namespace cairn_ptest;

PERSIST_CHILD(ReadOnly_Write) {
  OpenStore(args);
  cairn_db *db = CreateDb("r");
  CK_OK(cairn_txn_begin());
  CK_OK(cairn_db_set_root(db, NewNode(1, NewNode(2))));
  CK_OK(cairn_txn_commit());
  return 0;
}

namespace {

void CheckRefusal(const char *what) {
  const std::string message = cairn_last_error();
  CK(message.rfind(what, 0) == 0) << message;
  CK(message.find("is open read-only (it was opened read-only), so nothing was written") !=
     std::string::npos)
      << message;
}

}  // namespace

PERSIST_CHILD(ReadOnly_Read) {
  cairn_persist_options opts{};
  opts.read_only = 1;
  OpenStore(args, opts);
  cairn_db *db = OpenDb("r");
  CK_OK(cairn_txn_begin());
  Node *root = RootAs<Node>(db);
  CK_EQ(root->id, 1);
  CK_EQ(root->left->id, 2);
  CK_OK(cairn_txn_commit());  // changed nothing

  CK_OK(cairn_txn_begin());
  RootAs<Node>(db)->value = 42;
  CK_STATUS(cairn_txn_commit(), CAIRN_MISUSE);
  CheckRefusal("the commit would write changes");
  CK_OK(cairn_txn_abort());

  CK_OK(cairn_txn_begin());
  RootAs<Node>(db)->right = NewNode(3);
  CK_STATUS(cairn_txn_commit(), CAIRN_MISUSE);
  CheckRefusal("the commit would write changes");
  CK_OK(cairn_txn_abort());

  cairn_db *other = nullptr;
  CK_STATUS(cairn_db_create("other", &other), CAIRN_MISUSE);
  CheckRefusal("database 'other' was not created");
  CK_STATUS(cairn_db_drop("r"), CAIRN_MISUSE);  // open here, and the store read-only
  CheckRefusal("database 'r' was not dropped");

  CK_OK(cairn_txn_begin());
  CK_EQ(RootAs<Node>(db)->value, 1 * 7 + 1);  // the abort put it back
  CK(RootAs<Node>(db)->right == nullptr);
  CK_OK(cairn_txn_commit());
  CK_EQ(cairn_verify_heap(10), 0u);
  return 0;
}

// Nothing of the refused commits was written (the store's own check, then a read); a read-only
// process cannot drop a database either.
PERSIST_CHILD(ReadOnly_Check) {
  CheckStoreClean(args, "r");
  {
    cairn_persist_options opts{};
    opts.read_only = 1;
    OpenStore(args, opts);
    CK_STATUS(cairn_db_drop("r"), CAIRN_MISUSE);
    CheckRefusal("database 'r' was not dropped");
  }
  cairn_db *db = OpenDb("r");
  CK_OK(cairn_txn_begin());
  Node *root = RootAs<Node>(db);
  CK_EQ(root->value, 1 * 7 + 1);
  CK(root->right == nullptr);
  CK_EQ(root->left->id, 2);
  CK_OK(cairn_txn_commit());
  return 0;
}

class PersistReadOnly : public PersistTest {};

TEST_F(PersistReadOnly, ReadsWorkAndWritesAreRefusedWithNothingWritten) {
  ASSERT_CHILD_OK(Run("ReadOnly_Write"));
  ASSERT_CHILD_OK(Run("ReadOnly_Read"));
  ASSERT_CHILD_OK(Run("ReadOnly_Check"));
}
