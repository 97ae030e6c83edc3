// A type mismatch is reported, not misread: a program that lacks a type stored in a database,
// or defines it with other fields, or with the same fields laid out differently (the same
// fingerprint), stops with a message naming the type (and the database) when an object of it
// is first faulted in; not garbage, not a crash; and nothing of its transaction is written.
#include <cstring>
#include <string>

#include "child.h"
#include "persist_test.h"
#include "persist_types.h"

using namespace cairn_ptest;

namespace {

constexpr int kData = 1100;  // 8.8 KB: an object of its own run of two pages

// The stored type: ptest.Versioned{version, next, data[600]}.
struct Versioned {
  int64_t version;
  void *next;
  int64_t data[kData];
};
constexpr uint32_t kVersionedRefs[] = {offsetof(Versioned, next)};
constexpr cairn_field kVersionedFields[] = {
    Field("version", offsetof(Versioned, version), CAIRN_KIND_I64),
    Field("next", offsetof(Versioned, next), CAIRN_KIND_REF),
    Field("data", offsetof(Versioned, data), CAIRN_KIND_I64, kData),
};
constexpr cairn_type kVersioned =
    MakeType("ptest.Versioned", sizeof(Versioned), kVersionedRefs, 1, kVersionedFields, 3);

// Another program's ptest.Versioned with one more field: another fingerprint.
constexpr cairn_field kMoreFields[] = {
    kVersionedFields[0],
    kVersionedFields[1],
    kVersionedFields[2],
    Field("extra", sizeof(Versioned), CAIRN_KIND_I64),
};
constexpr cairn_type kVersionedMoreFields =
    MakeType("ptest.Versioned", sizeof(Versioned) + 8, kVersionedRefs, 1, kMoreFields, 4);

// And one with the same fields in the same order at other offsets: the same fingerprint (it
// ignores offsets), another layout.
struct Relaid {
  int64_t data[kData];
  void *next;
  int64_t version;
};
constexpr uint32_t kRelaidRefs[] = {offsetof(Relaid, next)};
constexpr cairn_field kRelaidFields[] = {
    Field("version", offsetof(Relaid, version), CAIRN_KIND_I64),
    Field("next", offsetof(Relaid, next), CAIRN_KIND_REF),
    Field("data", offsetof(Relaid, data), CAIRN_KIND_I64, kData),
};
constexpr cairn_type kVersionedRelaid =
    MakeType("ptest.Versioned", sizeof(Relaid), kRelaidRefs, 1, kRelaidFields, 3);
static_assert(kVersionedRelaid.fingerprint == kVersioned.fingerprint);
static_assert(kVersionedMoreFields.fingerprint != kVersioned.fingerprint);

// A small stored type, on the same page as the root that refers to it.
struct Small {
  int64_t a;
  void *b;
};
constexpr uint32_t kSmallRefs[] = {offsetof(Small, b)};
constexpr cairn_field kSmallFields[] = {
    Field("a", offsetof(Small, a), CAIRN_KIND_I64),
    Field("b", offsetof(Small, b), CAIRN_KIND_REF),
};
constexpr cairn_type kSmall =
    MakeType("ptest.Small", sizeof(Small), kSmallRefs, 1, kSmallFields, 2);
constexpr cairn_field kSmallMoreFields[] = {kSmallFields[0], kSmallFields[1],
                                            Field("c", sizeof(Small), CAIRN_KIND_I64)};
constexpr cairn_type kSmallWithMoreFields =
    MakeType("ptest.Small", sizeof(Small) + 8, kSmallRefs, 1, kSmallMoreFields, 3);
constexpr uint32_t kSmallRelaidRefs[] = {0};
constexpr cairn_field kSmallRelaidFields[] = {Field("a", 8, CAIRN_KIND_I64),
                                              Field("b", 0, CAIRN_KIND_REF)};
constexpr cairn_type kSmallRelaid =
    MakeType("ptest.Small", sizeof(Small), kSmallRelaidRefs, 1, kSmallRelaidFields, 2);
static_assert(kSmallRelaid.fingerprint == kSmall.fingerprint);
static_assert(kSmallWithMoreFields.fingerprint != kSmall.fingerprint);

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

// args: database, variant (lacks | fields | layout | same). Reads the root, writes to it, says
// ROOT_OK, then touches the object the root refers to. Should not get past that with a
// mismatched type.
PERSIST_CHILD(Mismatch_Read) {
  std::string db_name = args.args.at(0), variant = args.args.at(1);
  OpenStore(args);
  if (variant == "fields") {
    CK_OK(cairn_register_type(&kVersionedMoreFields));
    CK_OK(cairn_register_type(&kSmallWithMoreFields));
  } else if (variant == "layout") {
    CK_OK(cairn_register_type(&kVersionedRelaid));
    CK_OK(cairn_register_type(&kSmallRelaid));
  }
  if (variant == "same") {
    CK_OK(cairn_register_type(&kVersioned));
    CK_OK(cairn_register_type(&kSmall));
  }
  cairn_db *db = OpenDb(db_name.c_str());
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

  // The large object (its own pages) is of a type this program lacks or defines otherwise.
  void LargeObject(const char *variant) {
    ASSERT_CHILD_OK(Run("Mismatch_Write"));
    ASSERT_CHILD_OK(Run("Mismatch_Read", {"large_typed", "same"}));  // the control
    ChildResult r = Run("Mismatch_Read", {"large_typed", variant});
    ExpectStopsNaming(r, "ptest.Versioned", "large_typed");
    // Not before: the root, on another page, was read and written first.
    EXPECT_NE(r.out.find("ROOT_OK"), std::string::npos) << r.Describe();
    ASSERT_CHILD_OK(Run("Mismatch_Check", {"large_typed"}));
  }

  // The small object next to the root is: the root's page cannot be faulted in.
  void SmallObject(const char *variant) {
    ASSERT_CHILD_OK(Run("Mismatch_Write"));
    ASSERT_CHILD_OK(Run("Mismatch_Read", {"small_typed", "same"}));  // the control
    ChildResult r = Run("Mismatch_Read", {"small_typed", variant});
    ExpectStopsNaming(r, "ptest.Small", "small_typed");
    ASSERT_CHILD_OK(Run("Mismatch_Check", {"small_typed"}));
  }
};

TEST_F(PersistTypeMismatch, LargeObjectOfATypeTheProgramLacks) { LargeObject("lacks"); }
TEST_F(PersistTypeMismatch, LargeObjectOfATypeWithOtherFields) { LargeObject("fields"); }
TEST_F(PersistTypeMismatch, LargeObjectOfATypeWithAnotherLayout) { LargeObject("layout"); }
TEST_F(PersistTypeMismatch, SmallObjectOfATypeTheProgramLacks) { SmallObject("lacks"); }
TEST_F(PersistTypeMismatch, SmallObjectOfATypeWithOtherFields) { SmallObject("fields"); }
TEST_F(PersistTypeMismatch, SmallObjectOfATypeWithAnotherLayout) { SmallObject("layout"); }
