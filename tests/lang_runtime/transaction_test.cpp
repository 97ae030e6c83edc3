// The built-in class Transaction and atomic { }: handles, their errors, and what reaches the
// database when a program commits, chains, checkpoints, fails, exits or forgets to commit.
// Programs in processes of their own on a fresh store per test.
#include <cstring>
#include <string>

#include "program.h"

namespace cairn_langtest {
namespace {

class TransactionTest : public StoreTest {
 protected:
  // Database "r" with root [1, 2, 3].
  void SetUp() override {
    ChildResult r = Run("MakeRoot");
    ASSERT_TRUE(r.ok()) << r.Describe();
  }
  // The root of "r" as str shows it.
  std::string Root() {
    ChildResult r = Run("ShowRoot");
    EXPECT_TRUE(r.ok()) << r.Describe();
    return r.out;
  }
};

cairn_db *Db() { return cairn_lang_db_open(&kLoc, Text("r")); }

// Element 0 of an [int] array.
int64_t &First(void *int_array) {
  return reinterpret_cast<int64_t *>(static_cast<char *>(int_array) + CAIRN_ARRAY_DATA_OFFSET)[0];
}

LANG_PROGRAM(MakeRoot) {
  cairn_db *db = cairn_lang_db_create(&kLoc, Text("r"));
  int64_t t = cairn_lang_txn_begin(&kLoc);
  cairn_lang_db_set_root(&kLoc, db, IntArray({1, 2, 3}));
  cairn_lang_txn_commit(&kLoc, t);
}

LANG_PROGRAM(ShowRoot) {
  cairn_db *db = Db();
  cairn_lang_atomic_begin(&kLoc);
  cairn_print_ref(cairn_lang_db_get_root(&kLoc, db));
  cairn_lang_atomic_commit(&kLoc);
}

LANG_PROGRAM(Handles) {
  const int64_t t1 = cairn_lang_txn_begin(&kLoc);
  cairn_print_int(t1);
  cairn_print_bool(cairn_lang_txn_is_open(t1));
  cairn_lang_txn_commit(&kLoc, t1);
  cairn_print_bool(cairn_lang_txn_is_open(t1));
  cairn_print_newline();

  const int64_t t2 = cairn_lang_txn_begin(&kLoc);
  cairn_print_int(t2);
  cairn_lang_txn_chain(&kLoc, t2);
  cairn_print_bool(cairn_lang_txn_is_open(t2));
  cairn_lang_txn_checkpoint(&kLoc, t2);
  cairn_print_bool(cairn_lang_txn_is_open(t2));
  cairn_lang_txn_abort(&kLoc, t2);
  cairn_print_bool(cairn_lang_txn_is_open(t2));
  cairn_print_newline();

  cairn_lang_atomic_begin(&kLoc);  // takes number 3
  cairn_print_bool(cairn_txn_is_open());
  cairn_lang_atomic_commit(&kLoc);
  cairn_print_bool(cairn_txn_is_open());
  const int64_t t4 = cairn_lang_txn_begin(&kLoc);
  cairn_print_int(t4);
  for (int64_t other : {int64_t{0}, t1, t2, int64_t{3}, int64_t{5}, int64_t{-1}})
    cairn_print_bool(cairn_lang_txn_is_open(other));
  cairn_print_bool(cairn_lang_txn_is_open(t4));
  cairn_print_newline();
  cairn_lang_txn_abort(&kLoc, t4);
}

TEST_F(TransactionTest, Handles) {
  ChildResult r = Run("Handles");
  ASSERT_TRUE(r.ok()) << r.Describe();
  EXPECT_EQ(r.out,
            "1truefalse\n"
            "2truetruefalse\n"
            "truefalse4falsefalsefalsefalsefalsefalsetrue\n");
}

// Misuse of handles, chosen by argv[0].
LANG_PROGRAM(Misuse) {
  const std::string what = Arg(0);
  if (what == "begin twice") {
    cairn_lang_txn_begin(&kLoc);
    cairn_lang_txn_begin(&kLoc2);
  } else if (what == "atomic in transaction") {
    cairn_lang_txn_begin(&kLoc);
    cairn_lang_atomic_begin(&kLoc2);
  } else if (what == "begin in atomic") {
    cairn_lang_atomic_begin(&kLoc);
    cairn_lang_txn_begin(&kLoc2);
  } else if (what == "stale handle") {
    const int64_t t1 = cairn_lang_txn_begin(&kLoc);
    cairn_lang_txn_commit(&kLoc, t1);
    cairn_lang_txn_begin(&kLoc);
    cairn_lang_txn_commit(&kLoc2, t1);
  } else if (what == "never begun") {
    cairn_lang_txn_abort(&kLoc2, 7);
  } else {
    // "<op> after <end>": commit, abort, chain or checkpoint after commit or abort.
    const int64_t t = cairn_lang_txn_begin(&kLoc);
    if (what.ends_with("after commit"))
      cairn_lang_txn_commit(&kLoc, t);
    else
      cairn_lang_txn_abort(&kLoc, t);
    if (what.starts_with("commit")) cairn_lang_txn_commit(&kLoc2, t);
    if (what.starts_with("abort")) cairn_lang_txn_abort(&kLoc2, t);
    if (what.starts_with("chain")) cairn_lang_txn_chain(&kLoc2, t);
    if (what.starts_with("checkpoint")) cairn_lang_txn_checkpoint(&kLoc2, t);
  }
  SayLine("no error");
}

TEST_F(TransactionTest, MisusedHandles) {
  // Beginning while a transaction is open says where that one began, and what to do.
  const std::string began = "a transaction is already open (it began at t.cairn:3:7): ";
  const std::string begin_again = ErrorAt(
      kLoc2, began + "transactions do not nest; end it (commit or abort) before beginning another");
  const std::string atomic_again =
      ErrorAt(kLoc2, began +
                         "transactions do not nest, nor do atomic blocks; do this work in the "
                         "open transaction, or end that one before this block");
  const std::string begin_in_atomic =
      ErrorAt(kLoc2, began +
                         "transactions do not nest; inside an atomic block, do this work in its "
                         "transaction");
  // A handle whose transaction ended says how and where it ended (it said only "not open").
  auto ended = [](const char *how) {
    return ErrorAt(kLoc2, std::string("transaction is not open: it was ") + how +
                              " at t.cairn:3:7; a handle's transaction, once ended, stays ended: "
                              "begin another with Transaction.begin()");
  };
  const std::string not_begun = ErrorAt(kLoc2, "transaction is not open");
  const std::pair<const char *, std::string> cases[] = {
      {"begin twice", begin_again},
      {"atomic in transaction", atomic_again},
      {"begin in atomic", begin_in_atomic},
      {"stale handle", ended("committed")},
      {"never begun", not_begun},
      {"commit after commit", ended("committed")},
      {"abort after commit", ended("committed")},
      {"chain after commit", ended("committed")},
      {"checkpoint after commit", ended("committed")},
      {"commit after abort", ended("aborted")},
      {"abort after abort", ended("aborted")},
      {"chain after abort", ended("aborted")},
      {"checkpoint after abort", ended("aborted")},
  };
  for (const auto &[what, message] : cases) {
    ChildResult r = Run("Misuse", {what});
    EXPECT_EQ(r.exit_code, CAIRN_EXIT_RUNTIME_ERROR) << what << ": " << r.Describe();
    EXPECT_EQ(r.err, message) << what;
    EXPECT_EQ(r.out, "") << what;
  }
}

// Changes the root of "r" in place (element 0 = 100) and sets a new root [9] in another way
// chosen by argv[0], then commits or ends otherwise.
LANG_PROGRAM(ChangeThen) {
  const std::string how = Arg(0);
  cairn_db *db = Db();
  const int64_t t = cairn_lang_txn_begin(&kLoc);
  First(cairn_lang_db_get_root(&kLoc, db)) = 100;
  if (how == "commit") cairn_lang_txn_commit(&kLoc, t);
  if (how == "abort") cairn_lang_txn_abort(&kLoc, t);
  if (how == "division by zero") cairn_rt_div_zero(&kLoc);
  if (how == "panic") cairn_rt_panic(&kLoc, Text("stop"));
  if (how == "exit") cairn_lang_exit(5);
  if (how == "nil field") cairn_rt_nil_field(&kLoc, "f", "T");
  // "finish": the program ends with the transaction open.
}

TEST_F(TransactionTest, CommitWritesInPlaceChanges) {
  ChildResult r = Run("ChangeThen", {"commit"});
  ASSERT_TRUE(r.ok()) << r.Describe();
  EXPECT_EQ(Root(), "[100, 2, 3]");
}

TEST_F(TransactionTest, AbortDiscards) {
  ChildResult r = Run("ChangeThen", {"abort"});
  ASSERT_TRUE(r.ok()) << r.Describe();
  EXPECT_EQ(Root(), "[1, 2, 3]");
}

TEST_F(TransactionTest, RuntimeErrorAbortsTheOpenTransaction) {
  for (const char *how : {"division by zero", "panic", "nil field"}) {
    ChildResult r = Run("ChangeThen", {how});
    EXPECT_EQ(r.exit_code, CAIRN_EXIT_RUNTIME_ERROR) << how << ": " << r.Describe();
    EXPECT_EQ(Root(), "[1, 2, 3]") << how;
  }
}

TEST_F(TransactionTest, ExitAbortsTheOpenTransaction) {
  ChildResult r = Run("ChangeThen", {"exit"});
  EXPECT_EQ(r.exit_code, 5) << r.Describe();
  EXPECT_EQ(Root(), "[1, 2, 3]");
}

TEST_F(TransactionTest, FinishAbortsTheOpenTransaction) {
  ChildResult r = Run("ChangeThen", {"finish"});
  ASSERT_TRUE(r.ok()) << r.Describe();
  EXPECT_EQ(Root(), "[1, 2, 3]");
}

// In an atomic block: a new root, then a runtime error.
LANG_PROGRAM(AtomicThenPanic) {
  cairn_db *db = Db();
  cairn_lang_atomic_begin(&kLoc);
  cairn_lang_db_set_root(&kLoc, db, IntArray({9}));
  cairn_rt_panic(&kLoc2, Text("inside atomic"));
}

TEST_F(TransactionTest, RuntimeErrorInAtomic) {
  ChildResult r = Run("AtomicThenPanic");
  EXPECT_EQ(r.exit_code, CAIRN_EXIT_RUNTIME_ERROR) << r.Describe();
  EXPECT_EQ(r.err, ErrorAt(kLoc2, "panic: inside atomic"));
  EXPECT_EQ(Root(), "[1, 2, 3]");
}

// chain() commits and keeps the handle open; checkpoint() writes and keeps it open; what
// follows the last of them is lost to the runtime error.
LANG_PROGRAM(ChainCheckpointThenFail) {
  cairn_db *db = Db();
  const int64_t t = cairn_lang_txn_begin(&kLoc);
  First(cairn_lang_db_get_root(&kLoc, db)) = 10;
  cairn_lang_txn_chain(&kLoc, t);
  if (Arg(0) == "checkpoint") {
    First(cairn_lang_db_get_root(&kLoc, db)) = 20;
    cairn_lang_txn_checkpoint(&kLoc, t);
  }
  First(cairn_lang_db_get_root(&kLoc, db)) = 30;
  cairn_lang_db_set_root(&kLoc, db, IntArray({40}));
  cairn_rt_div_zero(&kLoc);
}

TEST_F(TransactionTest, ChainAndCheckpointWrite) {
  ChildResult r = Run("ChainCheckpointThenFail", {"chain"});
  EXPECT_EQ(r.exit_code, CAIRN_EXIT_RUNTIME_ERROR) << r.Describe();
  EXPECT_EQ(Root(), "[10, 2, 3]");
  r = Run("ChainCheckpointThenFail", {"checkpoint"});
  EXPECT_EQ(r.exit_code, CAIRN_EXIT_RUNTIME_ERROR) << r.Describe();
  EXPECT_EQ(Root(), "[20, 2, 3]");
}

// A commit the runtime refuses (a reference from database "other" to an object of "r") is a
// database error, and nothing of the transaction is written.
LANG_PROGRAM(CrossDatabaseCommit) {
  cairn_db *r = Db();
  cairn_db *other = cairn_lang_db_create(&kLoc, Text("other"));
  cairn_lang_atomic_begin(&kLoc);
  void *shared = cairn_lang_db_get_root(&kLoc, r);
  void *holder = RefArray(1);
  SetRef(holder, 0, shared);
  cairn_lang_db_set_root(&kLoc, other, holder);
  First(shared) = 50;
  cairn_lang_atomic_commit(&kLoc2);
}

LANG_PROGRAM(ShowOther) {
  cairn_db *db = cairn_lang_db_open(&kLoc, Text("other"));
  int64_t t = cairn_lang_txn_begin(&kLoc);
  cairn_print_ref(cairn_lang_db_get_root(&kLoc, db));
  cairn_lang_txn_commit(&kLoc, t);
}

TEST_F(TransactionTest, RefusedCommit) {
  ChildResult r = Run("CrossDatabaseCommit");
  EXPECT_EQ(r.exit_code, CAIRN_EXIT_RUNTIME_ERROR) << r.Describe();
  const std::string prefix = "dir/prog.cairn:41:17: database error: ";
  EXPECT_EQ(r.err.substr(0, prefix.size()), prefix) << r.err;
  EXPECT_EQ(Root(), "[1, 2, 3]");
  r = Run("ShowOther");
  ASSERT_TRUE(r.ok()) << r.Describe();
  EXPECT_EQ(r.out, "nil");
}

}  // namespace
}  // namespace cairn_langtest
