// The built-in class Database: create, open, exists, drop, names, name, root; its errors.
// Programs in processes of their own on a fresh store per test.
#include <string>

#include "program.h"

namespace cairn_langtest {
namespace {

class DatabaseTest : public StoreTest {};

// Creates each database named in the arguments.
LANG_PROGRAM(DbCreate) {
  for (int64_t i = 0; i < cairn_lang_argc(); i++) {
    cairn_db *db = cairn_lang_db_create(&kLoc, Text(Arg(i)));
    cairn_print_ref(cairn_lang_db_name(db));
    cairn_print_newline();
  }
}

// Opens each database named in the arguments.
LANG_PROGRAM(DbOpen) {
  for (int64_t i = 0; i < cairn_lang_argc(); i++) {
    cairn_db *db = cairn_lang_db_open(&kLoc, Text(Arg(i)));
    cairn_print_ref(cairn_lang_db_name(db));
    cairn_print_newline();
  }
}

LANG_PROGRAM(DbDrop) {
  for (int64_t i = 0; i < cairn_lang_argc(); i++) cairn_lang_db_drop(&kLoc, Text(Arg(i)));
}

// "name:true" or "name:false" for each argument.
LANG_PROGRAM(DbExists) {
  for (int64_t i = 0; i < cairn_lang_argc(); i++) {
    Say(Arg(i) + ":");
    cairn_print_bool(cairn_lang_db_exists(&kLoc, Text(Arg(i))));
    cairn_print_newline();
  }
}

// The count, then the names as an [any] array of texts (as the generated code would build it).
LANG_PROGRAM(DbNames) {
  const int64_t n = cairn_lang_db_names_count(&kLoc);
  void *names = RefArray(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; i++) SetRef(names, static_cast<size_t>(i), cairn_lang_db_names_at(i));
  cairn_print_int(n);
  cairn_print_space();
  cairn_print_ref(names);
  cairn_print_newline();
}

TEST_F(DatabaseTest, CreateExistsNamesOpenDrop) {
  ChildResult r = Run("DbNames");
  ASSERT_TRUE(r.ok()) << r.Describe();
  EXPECT_EQ(r.out, "0 []\n");
  r = Run("DbCreate", {"beta", "alpha", "gamma_1"});
  ASSERT_TRUE(r.ok()) << r.Describe();
  EXPECT_EQ(r.out, "beta\nalpha\ngamma_1\n");
  r = Run("DbExists", {"alpha", "gamma", "beta"});
  ASSERT_TRUE(r.ok()) << r.Describe();
  EXPECT_EQ(r.out, "alpha:true\ngamma:false\nbeta:true\n");
  r = Run("DbNames");
  ASSERT_TRUE(r.ok()) << r.Describe();
  EXPECT_EQ(r.out, "3 [\"alpha\", \"beta\", \"gamma_1\"]\n");
  r = Run("DbOpen", {"beta", "alpha", "beta"});
  ASSERT_TRUE(r.ok()) << r.Describe();
  EXPECT_EQ(r.out, "beta\nalpha\nbeta\n");
  r = Run("DbDrop", {"beta"});
  ASSERT_TRUE(r.ok()) << r.Describe();
  r = Run("DbNames");
  ASSERT_TRUE(r.ok()) << r.Describe();
  EXPECT_EQ(r.out, "2 [\"alpha\", \"gamma_1\"]\n");
}

// A runtime error at kLoc: "t.cairn:3:7: database error: ..." naming `name`.
void ExpectDatabaseError(const ChildResult &r, const std::string &name) {
  EXPECT_EQ(r.exit_code, CAIRN_EXIT_RUNTIME_ERROR) << r.Describe();
  const std::string prefix = "t.cairn:3:7: database error: ";
  EXPECT_EQ(r.err.substr(0, prefix.size()), prefix) << r.err;
  EXPECT_NE(r.err.find(name), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << "one line, ending in a newline: " << r.err;
}

TEST_F(DatabaseTest, Errors) {
  ASSERT_TRUE(Run("DbCreate", {"there"}).ok());
  ExpectDatabaseError(Run("DbCreate", {"there"}), "'there'");
  ExpectDatabaseError(Run("DbOpen", {"missing"}), "'missing'");
  ExpectDatabaseError(Run("DbDrop", {"missing"}), "'missing'");
  ExpectDatabaseError(Run("DbCreate", {""}), "");
  ExpectDatabaseError(Run("DbCreate", {"a/b"}), "a/b");
  ExpectDatabaseError(Run("DbCreate", {"é"}), "é");
}

LANG_PROGRAM(DbNameWithNul) { cairn_lang_db_create(&kLoc, Text(std::string("a\0b", 3))); }
LANG_PROGRAM(DbNilName) { cairn_lang_db_exists(&kLoc, nullptr); }

TEST_F(DatabaseTest, NulAndNilNames) {
  ChildResult r = Run("DbNameWithNul");
  EXPECT_EQ(r.exit_code, CAIRN_EXIT_RUNTIME_ERROR) << r.Describe();
  EXPECT_EQ(r.err, "t.cairn:3:7: database error: a database name cannot contain a NUL byte\n");
  r = Run("DbNilName");
  EXPECT_EQ(r.exit_code, CAIRN_EXIT_RUNTIME_ERROR) << r.Describe();
  EXPECT_EQ(r.err, "t.cairn:3:7: nil dereference: database name\n");
}

// Sets the root of database argv[0] (created if missing) to [1, 2, 3], in an atomic block.
LANG_PROGRAM(RootWrite) {
  void *name = Text(Arg(0));
  cairn_db *db = cairn_lang_db_exists(&kLoc, name) ? cairn_lang_db_open(&kLoc, name)
                                                   : cairn_lang_db_create(&kLoc, name);
  cairn_lang_atomic_begin(&kLoc);
  cairn_lang_db_set_root(&kLoc, db, IntArray({1, 2, 3}));
  cairn_lang_atomic_commit(&kLoc);
}

// Prints the root of database argv[0].
LANG_PROGRAM(RootRead) {
  cairn_db *db = cairn_lang_db_open(&kLoc, Text(Arg(0)));
  cairn_lang_atomic_begin(&kLoc);
  cairn_print_ref(cairn_lang_db_get_root(&kLoc, db));
  cairn_print_newline();
  cairn_lang_atomic_commit(&kLoc);
}

TEST_F(DatabaseTest, Root) {
  ASSERT_TRUE(Run("DbCreate", {"r"}).ok());
  ChildResult r = Run("RootRead", {"r"});
  ASSERT_TRUE(r.ok()) << r.Describe();
  EXPECT_EQ(r.out, "nil\n");
  ASSERT_TRUE(Run("RootWrite", {"r"}).ok());
  r = Run("RootRead", {"r"});
  ASSERT_TRUE(r.ok()) << r.Describe();
  EXPECT_EQ(r.out, "[1, 2, 3]\n");
}

// A text root of many pages (a large object), longer than standard output's buffer, so that
// stdio writes it with write(2) straight from the persistent pages: they must be loaded first.
const std::string kPages = [] {
  std::string s;
  for (int i = 0; s.size() < 20 * CAIRN_PAGE_SIZE; i++) s += std::to_string(i) + ",";
  return s;
}();

LANG_PROGRAM(TextRootWrite) {
  cairn_db *db = cairn_lang_db_create(&kLoc, Text("t"));
  int64_t t = cairn_lang_txn_begin(&kLoc);
  cairn_lang_db_set_root(&kLoc, db, Text(kPages));
  cairn_lang_txn_commit(&kLoc, t);
}

LANG_PROGRAM(TextRootPrint) {
  cairn_db *db = cairn_lang_db_open(&kLoc, Text("t"));
  int64_t t = cairn_lang_txn_begin(&kLoc);
  void *root = cairn_lang_db_get_root(&kLoc, db);
  cairn_print_ref(root);
  cairn_print_newline();
  cairn_print_ref(cairn_str_ref(root) == root ? Text("same") : Text("copied"));
  cairn_lang_txn_commit(&kLoc, t);
}

TEST_F(DatabaseTest, PersistentTextPrints) {
  ASSERT_TRUE(Run("TextRootWrite").ok());
  ChildResult r = Run("TextRootPrint");
  ASSERT_TRUE(r.ok()) << r.Describe();
  EXPECT_EQ(r.out, kPages + "\nsame");
}

LANG_PROGRAM(RootGetOutside) {
  cairn_db *db = cairn_lang_db_create(&kLoc, Text("d"));
  cairn_lang_db_get_root(&kLoc2, db);
}

LANG_PROGRAM(RootSetOutside) {
  cairn_db *db = cairn_lang_db_create(&kLoc, Text("e"));
  cairn_lang_atomic_begin(&kLoc);
  cairn_lang_atomic_commit(&kLoc);
  cairn_lang_db_set_root(&kLoc2, db, nullptr);
}

TEST_F(DatabaseTest, RootOutsideATransaction) {
  // The message names the database (the variable's name is the program's, not the runtime's).
  auto message = [](const char *db) {
    return std::string("dir/prog.cairn:41:17: the root of database '") + db +
           "' used outside a transaction (use atomic { ... } or Transaction.begin())\n";
  };
  ChildResult r = Run("RootGetOutside");
  EXPECT_EQ(r.exit_code, CAIRN_EXIT_RUNTIME_ERROR) << r.Describe();
  EXPECT_EQ(r.err, message("d"));
  r = Run("RootSetOutside");
  EXPECT_EQ(r.exit_code, CAIRN_EXIT_RUNTIME_ERROR) << r.Describe();
  EXPECT_EQ(r.err, message("e"));
}

// A database created inside a transaction exists at once (the transaction may use it); the
// transaction's abort does not undo the creation.
LANG_PROGRAM(DbCreateInTransaction) {
  const int64_t t = cairn_lang_txn_begin(&kLoc);
  cairn_lang_db_create(&kLoc, Text("inside"));
  cairn_lang_txn_abort(&kLoc, t);
}

TEST_F(DatabaseTest, CreateInsideATransaction) {
  ChildResult r = Run("DbCreateInTransaction");
  ASSERT_TRUE(r.ok()) << r.Describe();
  r = Run("DbExists", {"inside"});
  ASSERT_TRUE(r.ok()) << r.Describe();
  EXPECT_EQ(r.out, "inside:true\n");
}

}  // namespace
}  // namespace cairn_langtest
