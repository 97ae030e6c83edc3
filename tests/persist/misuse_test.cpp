// Misuse is an error with a clear message, never a crash: root access outside a transaction,
// begin inside one, commit (chain, checkpoint) with none: CAIRN_MISUSE; a database created
// inside a transaction (at once, usable in it, not undone by an abort; refused in a failed
// one), bad names, missing databases; a second store in one process; a
// store used by another process (CAIRN_BUSY naming it).
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <string>

#include "child.h"
#include "persist_test.h"
#include "persist_types.h"
#include "spawn.h"

using namespace cairn_ptest;

namespace {

std::string Lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
  return s;
}

// The last error's message is there and mentions `word`.
void ExpectMessage(const char *call, const char *word) {
  std::string msg = cairn_last_error();
  Say("%s: \"%s\"\n", call, msg.c_str());
  CK(!msg.empty()) << call << ": no message";
  CK(Lower(msg).find(word) != std::string::npos)
      << call << ": \"" << msg << "\" does not mention " << word;
}

}  // namespace

PERSIST_CHILD(Misuse_Transactions) {
  OpenStore(args);
  cairn_db *db = CreateDb("m");
  void *root = reinterpret_cast<void *>(1);
  CK_STATUS(cairn_db_get_root(db, &root), CAIRN_MISUSE);
  ExpectMessage("get_root outside a transaction", "transaction");
  CK_STATUS(cairn_db_set_root(db, NewNode(1)), CAIRN_MISUSE);
  ExpectMessage("set_root outside a transaction", "transaction");
  CK_STATUS(cairn_txn_commit(), CAIRN_MISUSE);
  ExpectMessage("commit with no transaction", "transaction");
  CK_STATUS(cairn_txn_chain(), CAIRN_MISUSE);
  ExpectMessage("chain with no transaction", "transaction");
  CK_STATUS(cairn_txn_checkpoint(), CAIRN_MISUSE);
  ExpectMessage("checkpoint with no transaction", "transaction");
  CK_EQ(cairn_txn_is_open(), 0);

  CK_OK(cairn_txn_begin());
  CK_STATUS(cairn_txn_begin(), CAIRN_MISUSE);
  ExpectMessage("begin inside a transaction", "transaction");
  CK_EQ(cairn_txn_is_open(), 1);  // the open one goes on
  // A database created inside a transaction exists at once, and the transaction may use it.
  cairn_db *other = nullptr;
  CK_OK(cairn_db_create("m2", &other));
  CK_OK(cairn_db_set_root(other, NewNode(8)));
  CK_OK(cairn_db_set_root(db, NewNode(7)));
  CK_OK(cairn_txn_commit());

  CK_OK(cairn_txn_begin());
  CK_EQ(RootAs<Node>(db)->id, 7);
  CK_EQ(RootAs<Node>(other)->id, 8);
  // A failed transaction (its commit refused) creates nothing until it is aborted.
  CK_OK(cairn_db_set_root(other, Root(db)));
  CK(cairn_txn_commit() != CAIRN_OK) << "a root of another database's object committed";
  cairn_db *third = nullptr;
  CK_STATUS(cairn_db_create("m3", &third), CAIRN_MISUSE);
  ExpectMessage("create in a failed transaction", "abort it first");
  CK_OK(cairn_txn_abort());
  int exists = 1;
  CK_OK(cairn_db_exists("m3", &exists));
  CK_EQ(exists, 0);
  // An abort does not undo a creation; a drop inside a transaction happens at once.
  CK_OK(cairn_txn_begin());
  CK_OK(cairn_db_create("m3", &third));
  CK_OK(cairn_txn_abort());
  CK_OK(cairn_db_exists("m3", &exists));
  CK_EQ(exists, 1);
  CK_OK(cairn_txn_begin());
  CK(Root(third) == nullptr);
  CK_OK(cairn_txn_abort());
  return 0;
}

PERSIST_CHILD(Misuse_Databases) {
  OpenStore(args);
  cairn_persist_options again{};
  again.store_dir = args.store.c_str();
  CK_STATUS(cairn_store_open(&again), CAIRN_MISUSE);
  ExpectMessage("a second store_open", "store");
  CK(cairn_store_dir() != nullptr);
  cairn_db *db = CreateDb("d");
  cairn_db *same = nullptr;
  CK_STATUS(cairn_db_create("d", &same), CAIRN_ALREADY_EXISTS);
  ExpectMessage("create twice", "d");
  CK_OK(cairn_db_open("d", &same));
  CK(same == db) << "opening an open database again gave another handle";
  CK_STATUS(cairn_db_open("nowhere", &same), CAIRN_NOT_FOUND);
  ExpectMessage("open a missing database", "nowhere");
  CK_STATUS(cairn_db_create("no/such name", &same), CAIRN_INVALID_ARGUMENT);
  ExpectMessage("create with a bad name", "name");

  CK_OK(cairn_txn_begin());
  CK_OK(cairn_db_set_root(db, NewNode(3)));
  CK_OK(cairn_txn_commit());
  return 0;
}

// Drops database "d" (made by Misuse_Databases) from a process that has not opened it. (One open
// in the process: tests/cli/db_test.sh, "drop of an open database".)
PERSIST_CHILD(Misuse_Drop) {
  OpenStore(args);
  int exists = 0;
  CK_OK(cairn_db_exists("d", &exists));
  CK_EQ(exists, 1);
  CK_OK(cairn_db_drop("d"));
  CK_OK(cairn_db_exists("d", &exists));
  CK_EQ(exists, 0);
  cairn_db *db = nullptr;
  CK_STATUS(cairn_db_open("d", &db), CAIRN_NOT_FOUND);
  CK_STATUS(cairn_db_drop("d"), CAIRN_NOT_FOUND);
  return 0;
}

// Opens the store, then has another process try it.
PERSIST_CHILD(Misuse_HoldStore) {
  OpenStore(args);
  CreateDb("held");
  ChildResult probe = RunChild("Misuse_ProbeStore", args.store, {std::to_string(getpid())});
  CK(probe.ok()) << probe.Describe();
  Say("%s", probe.out.c_str());
  return 0;
}

// args: the pid of the process holding the store.
PERSIST_CHILD(Misuse_ProbeStore) {
  CK_OK(cairn_init(nullptr));
  cairn_persist_options opts{};
  opts.store_dir = args.store.c_str();
  CK_STATUS(cairn_store_open(&opts), CAIRN_BUSY);
  ExpectMessage("a store another process uses", "in use");
  std::string msg = cairn_last_error();
  CK(msg.find(args.args.at(0)) != std::string::npos) << "no pid in: " << msg;
  return 0;
}

PERSIST_CHILD(Misuse_NoCreate) {
  CK_OK(cairn_init(nullptr));
  cairn_persist_options opts{};
  std::string missing = args.store + "/not-there";
  opts.store_dir = missing.c_str();
  opts.no_create = 1;
  cairn_status s = cairn_store_open(&opts);
  CK(s != CAIRN_OK) << "opened a missing store with no_create";
  ExpectMessage("no_create on a missing store", "not-there");
  return 0;
}

// A root must be an object, not a place inside one (the commit used to crash on it): transient
// and persistent, small and large, the header word, an object's fields. The refused call leaves
// the transaction usable; a root given properly commits.
PERSIST_CHILD(Misuse_RootInsideAnObject) {
  OpenStore(args);
  cairn_db *db = CreateDb("rooted");
  CK_OK(cairn_txn_begin());
  Node *node = NewNode(1);
  char *p = reinterpret_cast<char *>(node);
  CK_STATUS(cairn_db_set_root(db, p + 8), CAIRN_INVALID_ARGUMENT);
  ExpectMessage("set_root 8 bytes into a node", "8 bytes into an object of type 'ptest.node'");
  CK_STATUS(cairn_db_set_root(db, p + 24), CAIRN_INVALID_ARGUMENT);
  ExpectMessage("set_root 24 bytes into a node", "24 bytes into");
  CK_STATUS(cairn_db_set_root(db, p - 8), CAIRN_INVALID_ARGUMENT);
  ExpectMessage("set_root on a header", "header");
  void *big = cairn_malloc_array(&cairn_i64_array_type, 4000);  // a large object, 32 KB
  CK_STATUS(cairn_db_set_root(db, static_cast<char *>(big) + 8192), CAIRN_INVALID_ARGUMENT);
  ExpectMessage("set_root into a large object", "8192 bytes into");
  node->left = reinterpret_cast<Node *>(big);
  CK_OK(cairn_db_set_root(db, node));
  CK_OK(cairn_txn_commit());

  // Persistent now: the same, on objects faulted in.
  CK_OK(cairn_txn_begin());
  Node *root = RootAs<Node>(db);
  CK_STATUS(cairn_db_set_root(db, reinterpret_cast<char *>(root) + 16), CAIRN_INVALID_ARGUMENT);
  ExpectMessage("set_root into a persistent node", "16 bytes into an object of type 'ptest.node'");
  CK_STATUS(cairn_db_set_root(db, reinterpret_cast<char *>(root->left) + 16),
            CAIRN_INVALID_ARGUMENT);
  ExpectMessage("set_root into a persistent large object", "16 bytes into");
  CK_OK(cairn_db_set_root(db, root->left));
  CK_OK(cairn_txn_commit());
  CK_OK(cairn_txn_begin());
  void *r = nullptr;
  CK_OK(cairn_db_get_root(db, &r));
  CK_EQ(cairn_type_of(r)->name, std::string(cairn_i64_array_type.name));
  CK_OK(cairn_txn_abort());
  return 0;
}

// args: the number of databases to create. One past the most a process can have open is refused
// and creates nothing.
PERSIST_CHILD(Misuse_TooManyDatabases) {
  OpenStore(args);
  const int n = int(args.Int(0));
  for (int i = 0; i < n; i++) CreateDb(("many" + std::to_string(i)).c_str());
  cairn_db *db = nullptr;
  CK_STATUS(cairn_db_create("one_too_many", &db), CAIRN_BUSY);
  ExpectMessage("create past the most open databases", "255");
  int exists = 1;
  CK_OK(cairn_db_exists("one_too_many", &exists));
  CK_EQ(exists, 0);
  return 0;
}

class PersistMisuse : public PersistTest {};

TEST_F(PersistMisuse, TransactionMisuseIsAnErrorWithAClearMessage) {
  ChildResult r = Run("Misuse_Transactions");
  ASSERT_CHILD_OK(r);
  std::printf("%s", r.out.c_str());
}

TEST_F(PersistMisuse, DatabaseAndStoreMisuse) {
  ChildResult r = Run("Misuse_Databases");
  ASSERT_CHILD_OK(r);
  std::printf("%s", r.out.c_str());
  ASSERT_CHILD_OK(Run("Misuse_Drop"));
  ASSERT_CHILD_OK(Run("Misuse_NoCreate"));
}

TEST_F(PersistMisuse, StoreInUseByAnotherProcessIsBusy) {
  ChildResult r = Run("Misuse_HoldStore");
  ASSERT_CHILD_OK(r);
  std::printf("%s", r.out.c_str());
}

TEST_F(PersistMisuse, ARootInsideAnObjectIsRefused) {
  ChildResult r = Run("Misuse_RootInsideAnObject");
  ASSERT_CHILD_OK(r);
  std::printf("%s", r.out.c_str());
}

TEST_F(PersistMisuse, ACreatePastTheMostOpenDatabasesCreatesNothing) {
  ASSERT_CHILD_OK(Run("Misuse_TooManyDatabases", {"255"}));
}
