// A type mismatch is reported, not misread (docs/persistence.md, "Types: checked at open, and at
// fault time"):
//   - a program that defines a stored type differently (other fields under the same name, or the
//     same fingerprint laid out differently) is told so by cairn_db_open, which returns
//     CAIRN_TYPE_MISMATCH naming the type, the database and what differs;
//   - a program that lacks a stored type entirely, or registers its mismatched definition only
//     after the open, opens the database and stops with a message naming the type (and the
//     database) when an object of it is first faulted in; not garbage, not a crash; and nothing
//     of its transaction is written;
//   - a database holding an older version of a type beside the program's version opens, and
//     only an object of the older version is an error when touched.
#include <cstring>
#include <string>

#include "cairn/type_builder.hpp"
#include "child.h"
#include "persist_test.h"
#include "persist_types.h"

using namespace cairn_ptest;

namespace {

constexpr int kData = 1100;  // 8.8 KB: an object of its own run of two pages

// The stored type: ptest.Versioned{version, next, data[1100]}.
struct Versioned {
  int64_t version;
  void *next;
  int64_t data[kData];
};
constexpr cairn_field kVersionedFields[] = {
    Field("version", offsetof(Versioned, version), CAIRN_KIND_I64),
    Field("next", offsetof(Versioned, next), CAIRN_KIND_REF),
    Field("data", offsetof(Versioned, data), CAIRN_KIND_I64, kData),
};
constexpr cairn_type kVersioned =
    cairn::PlainType<kVersionedFields>("ptest.Versioned", sizeof(Versioned));

// Another program's ptest.Versioned with one more field: another fingerprint.
constexpr cairn_field kMoreFields[] = {
    kVersionedFields[0],
    kVersionedFields[1],
    kVersionedFields[2],
    Field("extra", sizeof(Versioned), CAIRN_KIND_I64),
};
constexpr cairn_type kVersionedMoreFields =
    cairn::PlainType<kMoreFields>("ptest.Versioned", sizeof(Versioned) + 8);

// And one with the same fields in the same order at other offsets (a word of padding before
// `next`): the same fingerprint (it ignores offsets), another layout.
struct Relaid {
  int64_t version;
  int64_t padding;
  void *next;
  int64_t data[kData];
};
constexpr cairn_field kRelaidFields[] = {
    Field("version", offsetof(Relaid, version), CAIRN_KIND_I64),
    Field("next", offsetof(Relaid, next), CAIRN_KIND_REF),
    Field("data", offsetof(Relaid, data), CAIRN_KIND_I64, kData),
};
constexpr cairn_type kVersionedRelaid =
    cairn::PlainType<kRelaidFields>("ptest.Versioned", sizeof(Relaid));
static_assert(kVersionedRelaid.fingerprint == kVersioned.fingerprint);
static_assert(kVersionedMoreFields.fingerprint != kVersioned.fingerprint);

// A small stored type, on the same page as the root that refers to it.
struct Small {
  int64_t a;
  void *b;
};
constexpr cairn_field kSmallFields[] = {
    Field("a", offsetof(Small, a), CAIRN_KIND_I64),
    Field("b", offsetof(Small, b), CAIRN_KIND_REF),
};
constexpr cairn_type kSmall = cairn::PlainType<kSmallFields>("ptest.Small", sizeof(Small));
constexpr cairn_field kSmallMoreFields[] = {kSmallFields[0], kSmallFields[1],
                                            Field("c", sizeof(Small), CAIRN_KIND_I64)};
constexpr cairn_type kSmallWithMoreFields =
    cairn::PlainType<kSmallMoreFields>("ptest.Small", sizeof(Small) + 8);
constexpr cairn_field kSmallRelaidFields[] = {Field("a", 0, CAIRN_KIND_I64),
                                              Field("b", 16, CAIRN_KIND_REF)};
constexpr cairn_type kSmallRelaid = cairn::PlainType<kSmallRelaidFields>("ptest.Small", 24);
static_assert(kSmallRelaid.fingerprint == kSmall.fingerprint);
static_assert(kSmallWithMoreFields.fingerprint != kSmall.fingerprint);

// Registers the variant's definitions of the two types.
void RegisterVariant(const std::string &variant) {
  if (variant.rfind("fields", 0) == 0) {
    CK_OK(cairn_register_type(&kVersionedMoreFields));
    CK_OK(cairn_register_type(&kSmallWithMoreFields));
  } else if (variant.rfind("layout", 0) == 0) {
    CK_OK(cairn_register_type(&kVersionedRelaid));
    CK_OK(cairn_register_type(&kSmallRelaid));
  } else if (variant == "same") {
    CK_OK(cairn_register_type(&kVersioned));
    CK_OK(cairn_register_type(&kSmall));
  }
}

}  // namespace

// Database "large_typed": root Node{id 1, left: Versioned (its own pages)}.
// Database "small_typed": root Node{id 1, left: Small (next to the root)}.
// (One transaction each: see PersistTwoDatabases.NeighboursOnAPinnedPageKeepToTheirDatabases.)
PERSIST_CHILD(Mismatch_Write) {
  OpenStore(args);
  cairn_db *large = CreateDb("large_typed");
  cairn_db *small = CreateDb("small_typed");
  CK_OK(cairn_txn_begin());
  Node *root = NewNode(1);
  auto *v = static_cast<Versioned *>(cairn_malloc_typed(&kVersioned));
  v->version = 1;
  for (int i = 0; i < kData; i++) v->data[i] = i * 3;
  root->left = reinterpret_cast<Node *>(v);
  CK_OK(cairn_db_set_root(large, root));
  CK_OK(cairn_txn_commit());
  CK_OK(cairn_txn_begin());
  root = NewNode(1);
  auto *s = static_cast<Small *>(cairn_malloc_typed(&kSmall));
  s->a = 42;
  root->left = reinterpret_cast<Node *>(s);
  CK_OK(cairn_db_set_root(small, root));
  CK_OK(cairn_txn_commit());
  return 0;
}

// args: database, variant (lacks | fields | layout | same | fields_late | layout_late). The
// variant's definitions are registered before the open, or (_late) after it. If the open is
// refused, prints OPEN_REFUSED and the message on stderr and exits 4. Else reads the root,
// writes to it, says ROOT_OK, then touches the object the root refers to; it should not get past
// that with a mismatched type.
PERSIST_CHILD(Mismatch_Read) {
  std::string db_name = args.args.at(0), variant = args.args.at(1);
  const bool late = variant.find("_late") != std::string::npos;
  OpenStore(args);
  if (!late) RegisterVariant(variant);
  cairn_db *db = nullptr;
  if (cairn_status s = cairn_db_open(db_name.c_str(), &db); s != CAIRN_OK) {
    std::fprintf(stderr, "OPEN_REFUSED %s: %s\n", cairn_status_name(s), cairn_last_error());
    return 4;
  }
  if (late) RegisterVariant(variant);
  CK_OK(cairn_txn_begin());
  Node *root = RootAs<Node>(db);
  CK_EQ(root->id, 1);
  root->value = 999;  // must not reach the disk if the process stops
  Say("ROOT_OK\n");
  void *other = root->left;
  int64_t first_word;
  std::memcpy(&first_word, other, sizeof first_word);  // the first touch of its page
  Say("READ first_word=%ld type=%s\n", first_word, cairn_type_of(other)->name);
  if (variant != "same") return 3;  // read a mismatched object without an error
  CK_EQ(first_word, db_name == "large_typed" ? 1 : 42);
  CK_OK(cairn_txn_abort());
  return 0;
}

// args: database. It is as written: the root's value was not changed by the stopped reader.
PERSIST_CHILD(Mismatch_Check) {
  OpenStore(args);
  CK_OK(cairn_register_type(&kVersioned));
  CK_OK(cairn_register_type(&kSmall));
  {
    const char *name = args.args.at(0).c_str();
    cairn_db *db = OpenDb(name);
    CK_OK(cairn_txn_begin());
    Node *root = RootAs<Node>(db);
    CK_EQ(root->id, 1);
    CK_EQ(root->value, 1 * 7 + 1) << " in " << name;
    if (std::string(name) == "large_typed") {
      auto *v = reinterpret_cast<Versioned *>(root->left);
      CK_EQ(v->version, 1);
      for (int i = 0; i < kData; i++) CK_EQ(v->data[i], i * 3);
    } else {
      CK_EQ(reinterpret_cast<Small *>(root->left)->a, 42);
    }
    CK_OK(cairn_txn_abort());
  }
  return 0;
}

// A program that has two definitions of one type (a REPL session that redefined a class after
// objects of the first were made; here two registered descriptors of one name) cannot store
// objects of both in one database (D19): no program could read the pages holding both. The
// commit is refused naming the type and the database, nothing of it is written, and objects of
// one definition alone then commit.
PERSIST_CHILD(Mismatch_WriteTwoVersions) {
  OpenStore(args);
  CK_OK(cairn_register_type(&kVersioned));
  CK_OK(cairn_register_type(&kVersionedMoreFields));
  cairn_db *db = CreateDb("versions");
  auto two = [&](bool old_too) {
    CK_OK(cairn_txn_begin());
    Node *root = NewNode(1);
    auto *new_one = static_cast<Versioned *>(cairn_malloc_typed(&kVersionedMoreFields));
    new_one->version = 2;
    root->right = reinterpret_cast<Node *>(new_one);
    if (old_too) {
      auto *old_one = static_cast<Versioned *>(cairn_malloc_typed(&kVersioned));
      old_one->version = 1;
      root->left = reinterpret_cast<Node *>(old_one);
    }
    CK_OK(cairn_db_set_root(db, root));
    return cairn_txn_commit();
  };
  cairn_status st = two(true);
  CK_EQ(std::string(cairn_status_name(st)), std::string(cairn_status_name(CAIRN_TYPE_MISMATCH)))
      << cairn_last_error();
  const std::string why = cairn_last_error();
  CK(why.find("database 'versions' would hold objects of two definitions of type "
              "'ptest.Versioned'") != std::string::npos)
      << why;
  CK(why.find("nothing of it was written") != std::string::npos) << why;
  CK_OK(cairn_txn_abort());
  CK_OK(cairn_txn_begin());
  void *was = nullptr;
  CK_OK(cairn_db_get_root(db, &was));
  CK(was == nullptr) << "the refused commit set the root";
  CK_OK(cairn_txn_abort());
  CK_OK(two(false));
  // Now the table holds the second definition: objects of the first are refused alone too.
  CK_OK(cairn_txn_begin());
  auto *old_one = static_cast<Versioned *>(cairn_malloc_typed(&kVersioned));
  old_one->version = 1;
  Node *root = RootAs<Node>(db);
  root->left = reinterpret_cast<Node *>(old_one);
  CK_STATUS(cairn_txn_commit(), CAIRN_TYPE_MISMATCH);
  CK_OK(cairn_txn_abort());
  return 0;
}

// A program with only the next version opens "versions" and reads its object; the older one
// was never stored.
PERSIST_CHILD(Mismatch_ReadNewVersion) {
  OpenStore(args);
  CK_OK(cairn_register_type(&kVersionedMoreFields));
  cairn_db *db = OpenDb("versions");
  CK_OK(cairn_txn_begin());
  Node *root = RootAs<Node>(db);
  CK_EQ(reinterpret_cast<Versioned *>(root->right)->version, 2);
  CK_EQ(cairn_type_of(root->right), &kVersionedMoreFields);
  CK(root->left == nullptr);
  Say("NEW_OK\n");
  return 0;
}

class PersistTypeMismatch : public PersistTest {
 protected:
  void ExpectStopsNaming(const ChildResult &r, const char *type, const char *db) {
    EXPECT_FALSE(r.ok()) << "the mismatched object was read\n" << r.Describe();
    EXPECT_EQ(r.signal, 0) << "a crash, not an error\n" << r.Describe();
    EXPECT_FALSE(r.timed_out) << r.Describe();
    EXPECT_NE(r.exit_code, 3) << "read a mismatched object without an error\n" << r.Describe();
    EXPECT_EQ(r.err.find("CHECK FAILED"), std::string::npos) << r.Describe();
    EXPECT_NE(r.err.find(type), std::string::npos) << "the message does not name " << type << "\n"
                                                   << r.Describe();
    EXPECT_NE(r.err.find(db), std::string::npos)
        << "the message does not name the database " << db << "\n"
        << r.Describe();
    std::printf("stderr of the stopped child: %s\n", r.err.c_str());
  }

  // cairn_db_open refused the database with CAIRN_TYPE_MISMATCH, naming the type, the database
  // and what differs (`differs`).
  void ExpectOpenRefused(const ChildResult &r, const char *type, const char *db,
                         const char *differs) {
    EXPECT_EQ(r.exit_code, 4) << "the open was not refused\n" << r.Describe();
    EXPECT_NE(r.err.find("OPEN_REFUSED type mismatch"), std::string::npos) << r.Describe();
    EXPECT_NE(r.err.find(type), std::string::npos) << r.Describe();
    EXPECT_NE(r.err.find("'" + std::string(db) + "'"), std::string::npos) << r.Describe();
    EXPECT_NE(r.err.find(differs), std::string::npos)
        << "the message does not say what differs (" << differs << ")\n"
        << r.Describe();
    EXPECT_EQ(r.out.find("ROOT_OK"), std::string::npos) << r.Describe();
    std::printf("stderr of the refused child: %s\n", r.err.c_str());
  }

  // The large object (its own pages) is of a type this program lacks or defines otherwise, and
  // the open did not know.
  void LargeObjectFaulted(const char *variant) {
    ASSERT_CHILD_OK(Run("Mismatch_Write"));
    ASSERT_CHILD_OK(Run("Mismatch_Read", {"large_typed", "same"}));  // the control
    ChildResult r = Run("Mismatch_Read", {"large_typed", variant});
    ExpectStopsNaming(r, "ptest.Versioned", "large_typed");
    // Not before: the root, on another page, was read and written first.
    EXPECT_NE(r.out.find("ROOT_OK"), std::string::npos) << r.Describe();
    ASSERT_CHILD_OK(Run("Mismatch_Check", {"large_typed"}));
  }

  // The small object next to the root is: the root's page cannot be faulted in.
  void SmallObjectFaulted(const char *variant) {
    ASSERT_CHILD_OK(Run("Mismatch_Write"));
    ASSERT_CHILD_OK(Run("Mismatch_Read", {"small_typed", "same"}));  // the control
    ChildResult r = Run("Mismatch_Read", {"small_typed", variant});
    ExpectStopsNaming(r, "ptest.Small", "small_typed");
    ASSERT_CHILD_OK(Run("Mismatch_Check", {"small_typed"}));
  }

  void RefusedAtOpen(const char *db, const char *variant, const char *type, const char *differs) {
    ASSERT_CHILD_OK(Run("Mismatch_Write"));
    ExpectOpenRefused(Run("Mismatch_Read", {db, variant}), type, db, differs);
    ASSERT_CHILD_OK(Run("Mismatch_Check", {db}));
  }
};

TEST_F(PersistTypeMismatch, LargeObjectOfATypeTheProgramLacks) { LargeObjectFaulted("lacks"); }
TEST_F(PersistTypeMismatch, LargeObjectOfATypeWithOtherFieldsRegisteredLate) {
  LargeObjectFaulted("fields_late");
}
TEST_F(PersistTypeMismatch, LargeObjectOfATypeWithAnotherLayoutRegisteredLate) {
  LargeObjectFaulted("layout_late");
}
TEST_F(PersistTypeMismatch, SmallObjectOfATypeTheProgramLacks) { SmallObjectFaulted("lacks"); }
TEST_F(PersistTypeMismatch, SmallObjectOfATypeWithOtherFieldsRegisteredLate) {
  SmallObjectFaulted("fields_late");
}
TEST_F(PersistTypeMismatch, SmallObjectOfATypeWithAnotherLayoutRegisteredLate) {
  SmallObjectFaulted("layout_late");
}

TEST_F(PersistTypeMismatch, OtherFieldsAreFoundAtOpen) {
  RefusedAtOpen("large_typed", "fields", "ptest.Versioned",
                "this program adds field 'extra' of type int (i64)");
}
TEST_F(PersistTypeMismatch, OtherFieldsOfASmallTypeAreFoundAtOpen) {
  RefusedAtOpen("small_typed", "fields", "ptest.Small",
                "this program adds field 'c' of type int (i64)");
}
TEST_F(PersistTypeMismatch, AnotherLayoutIsFoundAtOpen) {
  RefusedAtOpen("large_typed", "layout", "ptest.Versioned",
                ("its objects have " + std::to_string(sizeof(Versioned)) +
                 " bytes in the database, " + std::to_string(sizeof(Relaid)) + " in this program")
                    .c_str());
}
TEST_F(PersistTypeMismatch, AnotherLayoutOfASmallTypeIsFoundAtOpen) {
  RefusedAtOpen("small_typed", "layout", "ptest.Small",
                "its objects have 16 bytes in the database, 24 in this program");
}

TEST_F(PersistTypeMismatch, TwoDefinitionsOfATypeAreNotStoredInOneDatabase) {
  ASSERT_CHILD_OK(Run("Mismatch_WriteTwoVersions"));
  ChildResult r = Run("Mismatch_ReadNewVersion");
  ASSERT_TRUE(r.ok()) << r.Describe();
  EXPECT_NE(r.out.find("NEW_OK"), std::string::npos) << r.Describe();
}
