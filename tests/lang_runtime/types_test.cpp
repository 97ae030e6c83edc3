// Type tests (cairn_is_a) and type names (cairn_type_name_of), in the test process.
#include "../common/heap_test_support.h"
#include "cairn/type_builder.hpp"
#include "lang_test.h"

namespace cairn_langtest {
namespace {

using cairn::Field;

constexpr cairn_field kBaseFields[] = {Field("id", 0, CAIRN_KIND_I64)};
constexpr cairn_field kDerivedFields[] = {Field("id", 0, CAIRN_KIND_I64),
                                          Field("x", 8, CAIRN_KIND_I64)};

constexpr cairn_type WithSuper(cairn_type t, const cairn_type *super) {
  t.super = super;
  return t;
}

constexpr cairn_type kBase = cairn::PlainType<kBaseFields>("Base", 8);
constexpr cairn_type kDerived = WithSuper(cairn::PlainType<kDerivedFields>("Derived", 16), &kBase);
constexpr cairn_type kLeaf = WithSuper(cairn::PlainType<kDerivedFields>("Leaf", 16), &kDerived);
constexpr cairn_type kOther = cairn::PlainType<kBaseFields>("Other", 8);
// Base as another module describes it: another descriptor with the same fingerprint.
constexpr cairn_type kBaseElsewhere = cairn::PlainType<kBaseFields>("Base", 8);

using TypesTest = LangTest;

TEST_F(TypesTest, IsA) {
  void *base = cairn_malloc_typed(&kBase);
  void *derived = cairn_malloc_typed(&kDerived);
  void *leaf = cairn_malloc_typed(&kLeaf);
  void *other = cairn_malloc_typed(&kOther);
  EXPECT_TRUE(cairn_is_a(base, &kBase));
  EXPECT_FALSE(cairn_is_a(base, &kDerived));
  EXPECT_TRUE(cairn_is_a(derived, &kBase));
  EXPECT_TRUE(cairn_is_a(derived, &kDerived));
  EXPECT_TRUE(cairn_is_a(leaf, &kBase));
  EXPECT_TRUE(cairn_is_a(leaf, &kDerived));
  EXPECT_FALSE(cairn_is_a(derived, &kLeaf));
  EXPECT_FALSE(cairn_is_a(other, &kBase));
  EXPECT_FALSE(cairn_is_a(base, &kOther));
  EXPECT_FALSE(cairn_is_a(nullptr, &kBase));
  // Across modules, by fingerprint.
  ASSERT_NE(&kBase, &kBaseElsewhere);
  EXPECT_TRUE(cairn_is_a(leaf, &kBaseElsewhere));
  EXPECT_FALSE(cairn_is_a(other, &kBaseElsewhere));
  // Built-in types.
  EXPECT_TRUE(cairn_is_a(Text("t"), &cairn_text_type));
  EXPECT_FALSE(cairn_is_a(Text("t"), &cairn_i64_array_type));
  EXPECT_TRUE(cairn_is_a(IntArray({1}), &cairn_i64_array_type));
  EXPECT_FALSE(cairn_is_a(IntArray({1}), &cairn_text_type));
}

TEST_F(TypesTest, Names) {
  EXPECT_STREQ(cairn_type_name_of(nullptr), "nil");
  EXPECT_STREQ(cairn_type_name_of(cairn_malloc_typed(&kDerived)), "Derived");
  EXPECT_STREQ(cairn_type_name_of(Text("")), "text");
  EXPECT_STREQ(cairn_type_name_of(IntArray({})), "[int]");
  EXPECT_STREQ(cairn_type_name_of(RefArray(1)), "[any]");
}

}  // namespace
}  // namespace cairn_langtest
