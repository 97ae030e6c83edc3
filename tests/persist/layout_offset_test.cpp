// Types with the same fields laid out differently: the fingerprint ignores offsets, so a program
// whose scalar fields sit at other offsets (another packing, a hand-made descriptor) has the
// stored type's fingerprint. That is a mismatch, found when the database is opened and when an
// object is faulted in, never values read from and written to the wrong fields; inside an
// inline struct too (encoding version 2 of the stored layout keeps nested layouts).
#include <cstddef>
#include <string>

#include "child.h"
#include "persist_test.h"
#include "persist_types.h"

using namespace cairn_ptest;

namespace {

// "ptest.Scalars" as written: x and y side by side, 8 bytes of padding after.
struct ScalarsPacked {
  int32_t x;
  int32_t y;
  int64_t pad;
};
inline constexpr cairn_field kPackedFields[] = {
    Field("x", offsetof(ScalarsPacked, x), CAIRN_KIND_I32),
    Field("y", offsetof(ScalarsPacked, y), CAIRN_KIND_I32),
};
inline constexpr cairn_type kScalarsPacked =
    cairn::PlainType<kPackedFields>("ptest.Scalars", sizeof(ScalarsPacked));

// And as another program defines it: the same fields, names, kinds, order and size; y moved.
struct ScalarsSpread {
  int32_t x;
  int32_t gap;
  int32_t y;
  int32_t pad;
};
inline constexpr cairn_field kSpreadFields[] = {
    Field("x", offsetof(ScalarsSpread, x), CAIRN_KIND_I32),
    Field("y", offsetof(ScalarsSpread, y), CAIRN_KIND_I32),
};
inline constexpr cairn_type kScalarsSpread =
    cairn::PlainType<kSpreadFields>("ptest.Scalars", sizeof(ScalarsSpread));
static_assert(sizeof(ScalarsPacked) == sizeof(ScalarsSpread));

// "ptest.Outer": an inline struct of that shape (a layout, not a heap type), then a tag.
struct Outer {
  ScalarsPacked in;  // or ScalarsSpread: the same size
  int64_t tag;
};
inline constexpr cairn_type kInnerPacked =
    cairn::LayoutType<kPackedFields>("ptest.Inner", sizeof(ScalarsPacked));
inline constexpr cairn_type kInnerSpread =
    cairn::LayoutType<kSpreadFields>("ptest.Inner", sizeof(ScalarsSpread));
inline constexpr cairn_field kOuterPackedFields[] = {
    cairn::StructField("in", offsetof(Outer, in), kInnerPacked),
    Field("tag", offsetof(Outer, tag), CAIRN_KIND_I64),
};
inline constexpr cairn_field kOuterSpreadFields[] = {
    cairn::StructField("in", offsetof(Outer, in), kInnerSpread),
    Field("tag", offsetof(Outer, tag), CAIRN_KIND_I64),
};
inline constexpr cairn_type kOuterPacked =
    cairn::PlainType<kOuterPackedFields>("ptest.Outer", sizeof(Outer));
inline constexpr cairn_type kOuterSpread =
    cairn::PlainType<kOuterSpreadFields>("ptest.Outer", sizeof(Outer));

const cairn_type &Type(const std::string &shape, bool nested) {
  if (nested) return shape == "packed" ? kOuterPacked : kOuterSpread;
  return shape == "packed" ? kScalarsPacked : kScalarsSpread;
}

}  // namespace

// args: scalars | outer. Database "laid": root Node{left: the object, x = 11, y = 22}.
PERSIST_CHILD(Layout_Write) {
  const bool nested = args.args.at(0) == "outer";
  OpenStore(args);
  const cairn_type &t = Type("packed", nested);
  CK_OK(cairn_register_type(&t));
  cairn_db *db = CreateDb("laid");
  CK_OK(cairn_txn_begin());
  Node *root = NewNode(1);
  auto *p = static_cast<ScalarsPacked *>(cairn_malloc_typed(&t));
  p->x = 11;
  p->y = 22;
  if (nested) reinterpret_cast<Outer *>(p)->tag = 33;
  root->left = reinterpret_cast<Node *>(p);
  CK_OK(cairn_db_set_root(db, root));
  CK_OK(cairn_txn_commit());
  return 0;
}

// args: scalars | outer, packed | spread, before | after (registered before the open, or after it:
// then the fault is where the check happens). Prints OPEN_REFUSED, FAULT_REFUSED or VALUES.
PERSIST_CHILD(Layout_Read) {
  const bool nested = args.args.at(0) == "outer";
  const std::string shape = args.args.at(1);
  const bool late = args.args.at(2) == "after";
  OpenStore(args);
  const cairn_type &t = Type(shape, nested);
  if (!late) {
    CK_OK(cairn_register_type(&t));
  }
  cairn_db *db = nullptr;
  if (cairn_status s = cairn_db_open("laid", &db); s != CAIRN_OK) {
    Say("OPEN_REFUSED %s\n", cairn_status_name(s));
    std::fprintf(stderr, "%s\n", cairn_last_error());
    return 0;
  }
  if (late) {
    CK_OK(cairn_register_type(&t));
  }
  CK_OK(cairn_txn_begin());
  Node *root = RootAs<Node>(db);
  const char *obj = reinterpret_cast<const char *>(root->left);
  // The first touch of the object's page: a mismatch stops the program here (status 1).
  int32_t x = *reinterpret_cast<const volatile int32_t *>(obj);
  int32_t y = *reinterpret_cast<const volatile int32_t *>(
      obj + (shape == "packed" ? offsetof(ScalarsPacked, y) : offsetof(ScalarsSpread, y)));
  Say("VALUES x=%d y=%d\n", x, y);
  CK_OK(cairn_txn_abort());
  return 0;
}

class PersistLayoutOffsets : public PersistTest {
 protected:
  void Expect(const char *which) {
    ASSERT_CHILD_OK(Run("Layout_Write", {which}));
    ChildResult same = Run("Layout_Read", {which, "packed", "before"});
    ASSERT_CHILD_OK(same);
    EXPECT_NE(same.out.find("VALUES x=11 y=22"), std::string::npos) << same.Describe();

    ChildResult open = Run("Layout_Read", {which, "spread", "before"});
    ASSERT_CHILD_OK(open);
    EXPECT_NE(open.out.find("OPEN_REFUSED type mismatch"), std::string::npos) << open.Describe();
    EXPECT_NE(open.err.find("offset"), std::string::npos) << open.Describe();
    EXPECT_NE(open.err.find(std::string(which) == "outer" ? "ptest.Outer" : "ptest.Scalars"),
              std::string::npos)
        << open.Describe();

    ChildResult fault = Run("Layout_Read", {which, "spread", "after"});
    EXPECT_EQ(fault.exit_code, 1) << fault.Describe();
    EXPECT_EQ(fault.out.find("VALUES"), std::string::npos) << fault.Describe();
    EXPECT_NE(fault.err.find("another layout"), std::string::npos) << fault.Describe();
    EXPECT_NE(fault.err.find("database 'laid', page"), std::string::npos) << fault.Describe();
    EXPECT_EQ(fault.err.find("in database 'laid'"), std::string::npos)  // named once, in front
        << fault.Describe();
  }
};

TEST_F(PersistLayoutOffsets, ScalarFieldsAtOtherOffsetsAreAMismatch) { Expect("scalars"); }

TEST_F(PersistLayoutOffsets, ScalarFieldsOfAnInlineStructAtOtherOffsetsAreAMismatch) {
  Expect("outer");
}
