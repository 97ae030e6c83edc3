// cairn/type_builder.hpp builds descriptors that keep T2, T3 and T6 by construction, the same at
// compile time and at run time; cairn/type.h's same-layout rule (cairn_type_layout_compare)
// names the first difference, and cairn_type_refs_agree checks T6.
#include "cairn/type_builder.hpp"

#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <vector>

#include "cairn/gc.h"
#include "types/layout_diff.h"

namespace {

using cairn::Field;
using cairn::StructField;

struct Inner {
  double weight;
  void *target;
};
struct Outer {
  void *head;     // 0
  int32_t count;  // 8
  bool flag;      // 12
  Inner pair[2];  // 16: refs at 24 and 40
  void *tail[3];  // 48, 56, 64
  int16_t small;  // 72
};
constexpr cairn_field kInnerFields[] = {
    Field("weight", offsetof(Inner, weight), CAIRN_KIND_F64),
    Field("target", offsetof(Inner, target), CAIRN_KIND_REF),
};
constexpr cairn_type kInner = cairn::LayoutType<kInnerFields>("builder.Inner", sizeof(Inner));
constexpr cairn_field kOuterFields[] = {
    Field("head", offsetof(Outer, head), CAIRN_KIND_REF),
    Field("count", offsetof(Outer, count), CAIRN_KIND_I32),
    Field("flag", offsetof(Outer, flag), CAIRN_KIND_BOOL),
    StructField("pair", offsetof(Outer, pair), kInner, 2),
    Field("tail", offsetof(Outer, tail), CAIRN_KIND_REF, 3),
    Field("small", offsetof(Outer, small), CAIRN_KIND_I16),
};
constexpr cairn_type kOuter = cairn::PlainType<kOuterFields>("builder.Outer", sizeof(Outer));

TEST(TypeBuilder, ReferencesFollowFromTheFields) {
  const std::vector<uint32_t> want = {0, 24, 40, 48, 56, 64};
  ASSERT_EQ(kOuter.nrefs, want.size());
  EXPECT_EQ(std::vector<uint32_t>(kOuter.refs, kOuter.refs + kOuter.nrefs), want);
  EXPECT_TRUE(cairn_type_refs_agree(&kOuter));
  EXPECT_EQ(kOuter.fields[1].size, 4u);  // from the kind
  EXPECT_EQ(kOuter.fields[2].size, 1u);  // bool
  EXPECT_EQ(kOuter.fields[3].size, sizeof(Inner));
  EXPECT_EQ(kOuter.fields[3].nested, &kInner);
  EXPECT_EQ(kOuter.abi, CAIRN_TYPE_ABI);
  EXPECT_EQ(kOuter.fingerprint, cairn_type_fingerprint_compute(&kOuter));
  EXPECT_EQ(cairn_register_type(&kOuter), CAIRN_OK) << cairn_last_error();
  EXPECT_EQ(cairn_register_type(&kInner), CAIRN_INVALID_ARGUMENT);  // a layout only
}

TEST(TypeBuilder, ArraysTextAndStructArrays) {
  constexpr static cairn_type ints = cairn::ArrayType("builder.[i32]", CAIRN_KIND_I32);
  constexpr static cairn_type refs = cairn::ArrayType("builder.[any]", CAIRN_KIND_REF);
  constexpr static cairn_type text = cairn::TextType("builder.text");
  constexpr static cairn_type pairs = cairn::StructArrayType<kInnerFields>("builder.[Inner]", 16);
  EXPECT_EQ(ints.size, 4u);
  EXPECT_EQ(ints.nrefs, 0u);
  EXPECT_EQ(refs.nrefs, 1u);
  EXPECT_EQ(refs.refs[0], 0u);
  EXPECT_EQ(text.flags, unsigned(CAIRN_TYPE_ARRAY | CAIRN_TYPE_TEXT));
  EXPECT_EQ(text.elem_kind, unsigned(CAIRN_KIND_I8));
  EXPECT_EQ(pairs.elem_kind, unsigned(CAIRN_KIND_STRUCT));
  EXPECT_EQ(pairs.nrefs, 1u);
  EXPECT_EQ(pairs.refs[0], 8u);
  for (const cairn_type *t : {&ints, &refs, &text, &pairs}) {
    EXPECT_TRUE(cairn_type_refs_agree(t)) << t->name;
    EXPECT_EQ(cairn_register_type(t), CAIRN_OK) << t->name << ": " << cairn_last_error();
  }
  // The built-in descriptors are made the same way and have the fingerprints they always had
  // (the fingerprint covers names and kinds only): an [any] is an [any].
  EXPECT_EQ(cairn::ArrayType("[any]", CAIRN_KIND_REF).fingerprint,
            cairn_ref_array_type.fingerprint);
  EXPECT_EQ(cairn::TextType("text").fingerprint, cairn_text_type.fingerprint);
}

TEST(TypeBuilder, RunTimeAndCompileTimeDescriptorsAgree) {
  const cairn_type *inner = cairn::TypeBuilder::Plain("builder.Inner", sizeof(Inner))
                                .Add("weight", offsetof(Inner, weight), CAIRN_KIND_F64)
                                .Add("target", offsetof(Inner, target), CAIRN_KIND_REF)
                                .Build();
  const cairn_type *outer = cairn::TypeBuilder::Plain("builder.Outer", sizeof(Outer))
                                .Add("head", offsetof(Outer, head), CAIRN_KIND_REF)
                                .Add("count", offsetof(Outer, count), CAIRN_KIND_I32)
                                .Add("flag", offsetof(Outer, flag), CAIRN_KIND_BOOL)
                                .AddStruct("pair", offsetof(Outer, pair), inner, 2)
                                .Add("tail", offsetof(Outer, tail), CAIRN_KIND_REF, 3)
                                .Add("small", offsetof(Outer, small), CAIRN_KIND_I16)
                                .Build();
  EXPECT_EQ(outer->fingerprint, kOuter.fingerprint);
  EXPECT_TRUE(cairn_type_same_layout(outer, &kOuter));
  // Registered after the constant, it maps to it (T7).
  ASSERT_EQ(cairn_register_type(&kOuter), CAIRN_OK);
  ASSERT_EQ(cairn_register_type(outer), CAIRN_OK) << cairn_last_error();
  EXPECT_EQ(cairn_canonical_type(outer), &kOuter);
  const cairn_type *words = cairn::TypeBuilder::Array("builder.[ref]", CAIRN_KIND_REF).Build();
  EXPECT_EQ(words->nrefs, 1u);
  EXPECT_TRUE(cairn_type_refs_agree(words));
}

// The rule compares, in order: name, shape, size, references, then each field's name, kind,
// count, offset, size (when both give one) and nested layout (when both have one).
TEST(SameLayoutRule, NamesTheFirstDifference) {
  constexpr static cairn_field base[] = {Field("a", 0, CAIRN_KIND_I64),
                                         Field("b", 8, CAIRN_KIND_REF)};
  constexpr static cairn_field renamed[] = {Field("a", 0, CAIRN_KIND_I64),
                                            Field("c", 8, CAIRN_KIND_REF)};
  constexpr static cairn_field moved[] = {Field("a", 8, CAIRN_KIND_I64),
                                          Field("b", 0, CAIRN_KIND_REF)};
  constexpr static cairn_field counted[] = {Field("a", 0, CAIRN_KIND_I64, 2),
                                            Field("b", 16, CAIRN_KIND_REF)};
  constexpr static cairn_field retyped[] = {Field("a", 0, CAIRN_KIND_F64),
                                            Field("b", 8, CAIRN_KIND_REF)};
  constexpr static cairn_field scalar_moved[] = {Field("a", 8, CAIRN_KIND_I64),
                                                 Field("b", 16, CAIRN_KIND_REF)};
  constexpr cairn_type t = cairn::PlainType<base>("L", 16);
  uint32_t where = 99;
  EXPECT_EQ(cairn_type_layout_compare(&t, &t, &where), CAIRN_LAYOUT_SAME);
  EXPECT_EQ(where, 0u);
  constexpr cairn_type other_name = cairn::PlainType<base>("M", 16);
  EXPECT_EQ(cairn_type_layout_compare(&t, &other_name, nullptr), CAIRN_LAYOUT_NAME);
  constexpr cairn_type bigger = cairn::PlainType<base>("L", 24);
  EXPECT_EQ(cairn_type_layout_compare(&t, &bigger, nullptr), CAIRN_LAYOUT_SIZE);
  constexpr cairn_type array = cairn::StructArrayType<base>("L", 16);
  EXPECT_EQ(cairn_type_layout_compare(&t, &array, nullptr), CAIRN_LAYOUT_SHAPE);
  // A reference elsewhere (fields out of offset order, so only the rule, not registration,
  // would see this one).
  constexpr cairn_type ref_moved = cairn::PlainType<moved>("L", 16);
  EXPECT_EQ(cairn_type_layout_compare(&t, &ref_moved, &where), CAIRN_LAYOUT_REF_OFFSET);
  EXPECT_EQ(where, 0u);
  constexpr cairn_type field_renamed = cairn::PlainType<renamed>("L", 16);
  EXPECT_EQ(cairn_type_layout_compare(&t, &field_renamed, &where), CAIRN_LAYOUT_FIELD_NAME);
  EXPECT_EQ(where, 1u);
  constexpr cairn_type field_retyped = cairn::PlainType<retyped>("L", 16);
  EXPECT_EQ(cairn_type_layout_compare(&t, &field_retyped, &where), CAIRN_LAYOUT_FIELD_KIND);
  EXPECT_EQ(where, 0u);
  // A scalar field at another offset, with everything the collector sees (size, refs) equal.
  constexpr cairn_type a_moved = cairn::PlainType<scalar_moved>("L", 24);
  constexpr cairn_type b_only_moved = cairn::PlainType<counted>("L", 24);
  EXPECT_EQ(cairn_type_layout_compare(&a_moved, &b_only_moved, &where), CAIRN_LAYOUT_FIELD_COUNT);
  static constexpr cairn_field a_at_0[] = {Field("a", 0, CAIRN_KIND_I64),
                                           Field("b", 16, CAIRN_KIND_REF)};
  constexpr cairn_type a_first = cairn::PlainType<a_at_0>("L", 24);
  EXPECT_EQ(cairn_type_layout_compare(&a_moved, &a_first, &where), CAIRN_LAYOUT_FIELD_OFFSET);
  EXPECT_EQ(where, 0u);
  // Field sizes are compared when both sides give one; a database's layouts do not.
  cairn_field sized[] = {Field("a", 0, CAIRN_KIND_I64), Field("b", 8, CAIRN_KIND_REF)};
  cairn_type unsized = t;
  sized[0].size = 0;
  unsized.fields = sized;
  EXPECT_EQ(cairn_type_layout_compare(&t, &unsized, nullptr), CAIRN_LAYOUT_SAME);
  sized[0].size = 4;
  EXPECT_EQ(cairn_type_layout_compare(&t, &unsized, nullptr), CAIRN_LAYOUT_FIELD_SIZE);
}

TEST(SameLayoutRule, NestedStructsAreComparedWhenBothHaveThem) {
  static constexpr cairn_field in_a[] = {Field("w", 0, CAIRN_KIND_I32),
                                         Field("v", 4, CAIRN_KIND_I32)};
  static constexpr cairn_field in_b[] = {Field("w", 4, CAIRN_KIND_I32),
                                         Field("v", 0, CAIRN_KIND_I32)};
  static constexpr cairn_type nested_a = cairn::LayoutType<in_a>("N", 8);
  static constexpr cairn_type nested_b = cairn::LayoutType<in_b>("N", 8);
  static constexpr cairn_field out_a[] = {StructField("n", 0, nested_a)};
  static constexpr cairn_field out_b[] = {StructField("n", 0, nested_b)};
  constexpr cairn_type a = cairn::PlainType<out_a>("O", 8);
  constexpr cairn_type b = cairn::PlainType<out_b>("O", 8);
  uint32_t where = 9;
  EXPECT_EQ(cairn_type_layout_compare(&a, &b, &where), CAIRN_LAYOUT_FIELD_NESTED);
  EXPECT_EQ(where, 0u);
}

TEST(SameLayoutRule, DeclaredTypesAreComparedWhenBothHaveThem) {
  // A reference declared `text` and one declared `[int]`: the same bytes, another meaning.
  cairn_field as_text[] = {Field("a", 0, CAIRN_KIND_I64), Field("b", 8, CAIRN_KIND_REF)};
  cairn_field as_array[] = {Field("a", 0, CAIRN_KIND_I64), Field("b", 8, CAIRN_KIND_REF)};
  static const uint32_t refs[] = {8};
  cairn_type a{}, b{};
  a.abi = b.abi = CAIRN_TYPE_ABI;
  a.name = b.name = "D";
  a.size = b.size = 16;
  a.nrefs = b.nrefs = 1;
  a.refs = b.refs = refs;
  a.nfields = b.nfields = 2;
  a.fields = as_text;
  b.fields = as_array;
  // Unknown on either side (a C program's type, an old type table entry): not compared.
  as_text[1].type = "text";
  EXPECT_EQ(cairn_type_layout_compare(&a, &b, nullptr), CAIRN_LAYOUT_SAME);
  as_array[1].type = "";
  EXPECT_EQ(cairn_type_layout_compare(&a, &b, nullptr), CAIRN_LAYOUT_SAME);
  as_array[1].type = "text";
  EXPECT_EQ(cairn_type_layout_compare(&a, &b, nullptr), CAIRN_LAYOUT_SAME);
  as_array[1].type = "[int]";
  uint32_t where = 9;
  EXPECT_EQ(cairn_type_layout_compare(&a, &b, &where), CAIRN_LAYOUT_FIELD_TYPE);
  EXPECT_EQ(where, 1u);
  EXPECT_EQ(cairn::types::DescribeLayoutDiff(&a, "in the database", &b, "in this program",
                                             CAIRN_LAYOUT_FIELD_TYPE, 1),
            "field 'b' is declared 'text' in the database, '[int]' in this program");
}

TEST(SameLayoutRule, RefsAgreeWithTheFields) {
  constexpr cairn_type t = cairn::PlainType<kOuterFields>("builder.Outer", sizeof(Outer));
  EXPECT_TRUE(cairn_type_refs_agree(&t));
  cairn_type missing = t;
  missing.nrefs = t.nrefs - 1;  // the last reference of `tail` left out
  EXPECT_FALSE(cairn_type_refs_agree(&missing));
  uint32_t shifted[6];
  for (uint32_t i = 0; i < 6; i++) shifted[i] = t.refs[i] + (i == 2 ? 8 : 0);
  cairn_type wrong = t;
  wrong.refs = shifted;
  EXPECT_FALSE(cairn_type_refs_agree(&wrong));
  cairn_type none = cairn::PlainType("builder.none", 16);
  EXPECT_TRUE(cairn_type_refs_agree(&none));
  none.nrefs = 1;
  none.refs = shifted;
  EXPECT_FALSE(cairn_type_refs_agree(&none));  // references no field describes
}

}  // namespace
