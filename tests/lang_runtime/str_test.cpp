// str(e): cairn_str_int, cairn_str_float, cairn_str_bool, cairn_str_ref, in the test process.
#include <cfloat>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <string>

#include "../common/heap_test_support.h"
#include "cairn/type_builder.hpp"
#include "lang/format.h"
#include "lang/identity.h"
#include "lang_test.h"

namespace cairn_langtest {
namespace {

using cairn::Field;

struct Point {
  int64_t x;
  int64_t y;
};
constexpr cairn_field kPointFields[] = {Field("x", 0, CAIRN_KIND_I64),
                                        Field("y", 8, CAIRN_KIND_I64)};
constexpr cairn_type kPointType = cairn::PlainType<kPointFields>("Point", sizeof(Point));

constexpr cairn_type kPointArrayType = cairn::ArrayType("[Point]", CAIRN_KIND_REF);
constexpr cairn_type kI8ArrayType = cairn::ArrayType("[i8]", CAIRN_KIND_I8);
constexpr cairn_type kI16ArrayType = cairn::ArrayType("[i16]", CAIRN_KIND_I16);
constexpr cairn_type kI32ArrayType = cairn::ArrayType("[i32]", CAIRN_KIND_I32);
constexpr cairn_type kF32ArrayType = cairn::ArrayType("[f32]", CAIRN_KIND_F32);
constexpr cairn_type kRawArrayType = cairn::ArrayType("[raw]", CAIRN_KIND_RAW);

// What an object shows: its type's name, '#', its identity number in decimal (IdentityNumber
// in runtime/src/lang/identity.h).
std::string ObjectForm(const char *type, const void *obj) {
  return std::string(type) + "#" +
         std::to_string(static_cast<unsigned long long>(cairn::lang::IdentityNumber(obj)));
}

using StrTest = LangTest;

TEST_F(StrTest, Int) {
  EXPECT_EQ(Bytes(cairn_str_int(0)), "0");
  EXPECT_EQ(Bytes(cairn_str_int(-42)), "-42");
  EXPECT_EQ(Bytes(cairn_str_int(1000000)), "1000000");
  EXPECT_EQ(Bytes(cairn_str_int(INT64_MAX)), "9223372036854775807");
  EXPECT_EQ(Bytes(cairn_str_int(INT64_MIN)), "-9223372036854775808");
}

TEST_F(StrTest, Bool) {
  EXPECT_EQ(Bytes(cairn_str_bool(1)), "true");
  EXPECT_EQ(Bytes(cairn_str_bool(0)), "false");
}

struct FloatCase {
  double value;
  const char *text;
};

TEST_F(StrTest, Float) {
  const FloatCase cases[] = {
      {3.0, "3.0"},
      {0.1, "0.1"},
      {1e-9, "1e-09"},
      {1e21, "1e+21"},
      {1e22, "1e+22"},
      {-0.0, "-0.0"},
      {0.0, "0.0"},
      {-2.0, "-2.0"},
      {1.5, "1.5"},
      {-3.5, "-3.5"},
      {100.0, "100.0"},
      {10000.0, "10000.0"},
      {1e5, "100000.0"},
      {1e-4, "0.0001"},
      {1e-5, "1e-05"},
      {1e16, "1e+16"},
      {1234567890123456.0, "1234567890123456.0"},
      {0.001, "0.001"},
      {123456.0, "123456.0"},
      {2.5e-7, "2.5e-07"},
      {0.1 + 0.2, "0.30000000000000004"},
      {9223372036854775808.0, "9.223372036854776e+18"},
      {DBL_MAX, "1.7976931348623157e+308"},
      {DBL_MIN, "2.2250738585072014e-308"},
      {5e-324, "5e-324"},
      {std::numeric_limits<double>::infinity(), "inf"},
      {-std::numeric_limits<double>::infinity(), "-inf"},
      {std::numeric_limits<double>::quiet_NaN(), "nan"},
  };
  for (const FloatCase &c : cases) {
    const std::string s = Bytes(cairn_str_float(c.value));
    EXPECT_EQ(s, c.text) << "str of " << c.value;
    // It reads back as the same double.
    const double back = std::strtod(s.c_str(), nullptr);
    if (std::isnan(c.value))
      EXPECT_TRUE(std::isnan(back));
    else
      EXPECT_EQ(std::memcmp(&back, &c.value, sizeof back), 0) << s;
  }
}

// A NaN with its sign bit set (what 0.0 / 0.0 gives on x86-64) is "nan" too.
TEST_F(StrTest, NegativeNan) {
  EXPECT_EQ(Bytes(cairn_str_float(-std::numeric_limits<double>::quiet_NaN())), "nan");
}

TEST_F(StrTest, Nil) { EXPECT_EQ(StrRef(nullptr), "nil"); }

TEST_F(StrTest, TextIsItself) {
  void *t = Text(std::string("a\0\"é", 5));
  EXPECT_EQ(cairn_str_ref(t), t);
}

TEST_F(StrTest, Object) {
  void *p = cairn_malloc_typed(&kPointType);
  const std::string s = StrRef(p);
  EXPECT_EQ(s, ObjectForm("Point", p));
  EXPECT_EQ(StrRef(p), s);  // p is on the stack, so it has not moved
  void *q = cairn_malloc_typed(&kPointType);
  EXPECT_NE(StrRef(q), s);
}

TEST_F(StrTest, ScalarArrays) {
  EXPECT_EQ(StrRef(IntArray({1, 2, 3})), "[1, 2, 3]");
  EXPECT_EQ(StrRef(IntArray({})), "[]");
  EXPECT_EQ(StrRef(IntArray({-1, INT64_MIN, INT64_MAX})),
            "[-1, -9223372036854775808, 9223372036854775807]");
  EXPECT_EQ(StrRef(FloatArray({1.5, 3.0, -0.0, 1e21, NAN, -INFINITY})),
            "[1.5, 3.0, -0.0, 1e+21, nan, -inf]");
  EXPECT_EQ(StrRef(BoolArray({true, false, true})), "[true, false, true]");
  EXPECT_EQ(StrRef(BoolArray({})), "[]");
}

TEST_F(StrTest, NarrowElementKinds) {
  void *i8 = cairn_malloc_array(&kI8ArrayType, 2);
  static_cast<int8_t *>(i8)[8] = -128;
  static_cast<int8_t *>(i8)[9] = 127;
  EXPECT_EQ(StrRef(i8), "[-128, 127]");
  void *i16 = cairn_malloc_array(&kI16ArrayType, 2);
  reinterpret_cast<int16_t *>(static_cast<char *>(i16) + 8)[1] = -300;
  EXPECT_EQ(StrRef(i16), "[0, -300]");
  void *i32 = cairn_malloc_array(&kI32ArrayType, 3);
  reinterpret_cast<int32_t *>(static_cast<char *>(i32) + 8)[2] = INT32_MIN;
  EXPECT_EQ(StrRef(i32), "[0, 0, -2147483648]");
  void *f32 = cairn_malloc_array(&kF32ArrayType, 2);
  reinterpret_cast<float *>(static_cast<char *>(f32) + 8)[0] = 0.5f;
  reinterpret_cast<float *>(static_cast<char *>(f32) + 8)[1] = 2.0f;
  EXPECT_EQ(StrRef(f32), "[0.5, 2.0]");
  // Elements without a textual form: the array shows as an object.
  void *raw = cairn_malloc_array(&kRawArrayType, 1);
  EXPECT_EQ(StrRef(raw), ObjectForm("[raw]", raw));
}

TEST_F(StrTest, ReferenceArrays) {
  void *a = RefArray(4);
  SetRef(a, 0, Text("a"));
  SetRef(a, 1, Text("b \"c\""));
  SetRef(a, 3, Text(""));
  // Text elements read back as literals: quotes, backslashes and control characters escaped.
  EXPECT_EQ(StrRef(a), R"(["a", "b \"c\"", nil, ""])");
  void *odd = RefArray(2);
  SetRef(odd, 0, Text(std::string("a\\b\n\t\r", 6) + std::string(1, '\0') + "\x1b\x7f"));
  SetRef(odd, 1, Text("h\xc3\xa9 \xe2\x98\xba"));
  EXPECT_EQ(StrRef(odd), R"(["a\\b\n\t\r\0\u{1b}\u{7f}", "hé ☺"])");
  // C1 controls (U+009B starts a terminal's control sequence), line separators and
  // bidirectional controls are escaped; other UTF-8 (U+00A0, U+2027, U+202F) passes through.
  void *c1 = RefArray(2);
  SetRef(c1, 0,
         Text("\xc2\x9b"
              "31m\xc2\x85\xc2\x80\xc2\x9f\xc2\xa0"));
  SetRef(c1, 1, Text("\xe2\x80\xa8\xe2\x80\xae\xe2\x81\xa6\xe2\x81\xa9\xe2\x80\xa7\xe2\x80\xaf"));
  EXPECT_EQ(StrRef(c1),
            "[\"\\u{9b}31m\\u{85}\\u{80}\\u{9f}\xc2\xa0\", "
            "\"\\u{2028}\\u{202e}\\u{2066}\\u{2069}\xe2\x80\xa7\xe2\x80\xaf\"]");
  EXPECT_EQ(StrRef(RefArray(0)), "[]");
  EXPECT_EQ(StrRef(RefArray(2)), "[nil, nil]");

  void *points = cairn_malloc_array(&kPointArrayType, 2);
  void *p = cairn_malloc_typed(&kPointType);
  SetRef(points, 0, p);
  EXPECT_EQ(StrRef(points), "[" + ObjectForm("Point", p) + ", nil]");
}

TEST_F(StrTest, NestedArrays) {
  void *grid = RefArray(3);
  SetRef(grid, 0, IntArray({1}));
  SetRef(grid, 1, FloatArray({2.5, 3.5}));
  SetRef(grid, 2, RefArray(0));
  EXPECT_EQ(StrRef(grid), "[[1], [2.5, 3.5], []]");

  void *mixed = RefArray(3);
  SetRef(mixed, 0, Text("t"));
  SetRef(mixed, 1, grid);
  SetRef(mixed, 2, BoolArray({false}));
  EXPECT_EQ(StrRef(mixed), "[\"t\", [[1], [2.5, 3.5], []], [false]]");
}

// Arrays nested in one another are shown whole, however deep (ten levels here); an array
// inside itself is "[...]" where it comes back; an array shared, but not inside itself, is shown
// each time.
TEST_F(StrTest, NestingAndCycles) {
  void *inner = IntArray({7});
  std::string expect = "[7]";
  for (int level = 2; level <= 10; level++) {
    void *outer = RefArray(1);
    SetRef(outer, 0, inner);
    inner = outer;
    expect = "[" + expect + "]";
  }
  EXPECT_EQ(StrRef(inner), expect);
  EXPECT_EQ(expect, "[[[[[[[[[[7]]]]]]]]]]");

  void *self = RefArray(2);
  SetRef(self, 0, self);
  EXPECT_EQ(StrRef(self), "[[...], nil]");
  void *a = RefArray(1), *b = RefArray(2);
  SetRef(a, 0, b);
  SetRef(b, 0, a);
  SetRef(b, 1, Text("b"));
  EXPECT_EQ(StrRef(a), "[[[...], \"b\"]]");
  EXPECT_EQ(StrRef(b), "[[[...]], \"b\"]");

  void *shared = IntArray({1});
  void *twice = RefArray(2);
  SetRef(twice, 0, shared);
  SetRef(twice, 1, shared);
  EXPECT_EQ(StrRef(twice), "[[1], [1]]");
}

// The limits that keep a value's form finite without a cycle: a chain deeper than
// kMaxArrayDepth ends in "[...]", and arrays sharing their elements stop being expanded after
// kMaxShownElements elements in all (2^40 here otherwise).
TEST_F(StrTest, DepthAndSizeLimits) {
  void *chain = IntArray({7});
  for (int level = 2; level <= cairn::lang::kMaxArrayDepth + 5; level++) {
    void *outer = RefArray(1);
    SetRef(outer, 0, chain);
    chain = outer;
  }
  const std::string deep = StrRef(chain);
  const std::string open(size_t(cairn::lang::kMaxArrayDepth), '[');
  EXPECT_EQ(deep.substr(0, open.size()), open);
  EXPECT_EQ(deep.substr(open.size(), 5), "[...]");
  EXPECT_EQ(deep.find("7"), std::string::npos);

  void *wide = IntArray({1, 2});
  for (int level = 0; level < 40; level++) {
    void *outer = RefArray(2);
    SetRef(outer, 0, wide);
    SetRef(outer, 1, wide);
    wide = outer;
  }
  const std::string form = StrRef(wide);
  EXPECT_LT(form.size(), 20 * cairn::lang::kMaxShownElements);
  EXPECT_NE(form.find("[...]"), std::string::npos);
  EXPECT_EQ(form.substr(0, 45), std::string(40, '[') + "[1, 2");
}

// An array is shown whole (it was cut after 100 elements: a program printing its 168 primes
// saw 100 of them), up to kMaxShownElements elements in one value, then ", ...]".
TEST_F(StrTest, LengthLimit) {
  auto ints = [](size_t n) {
    void *a = cairn_malloc_array(&cairn_i64_array_type, n);
    for (size_t i = 0; i < n; i++)
      reinterpret_cast<int64_t *>(static_cast<char *>(a) + CAIRN_ARRAY_DATA_OFFSET)[i] =
          static_cast<int64_t>(i);
    return a;
  };
  auto form = [](size_t shown, bool more) {
    std::string s = "[";
    for (size_t i = 0; i < shown; i++) s += (i ? ", " : "") + std::to_string(i);
    return s + (more ? ", ...]" : "]");
  };
  EXPECT_EQ(StrRef(ints(100)), form(100, false));
  EXPECT_EQ(StrRef(ints(168)), form(168, false));
  EXPECT_EQ(StrRef(ints(100000)), form(100000, false));
  const size_t limit = cairn::lang::kMaxShownElements;
  EXPECT_EQ(StrRef(ints(limit)), form(limit, false));
  EXPECT_EQ(StrRef(ints(limit + 1)), form(limit, true));

  // A long array of long arrays: shown whole while the value's elements last.
  void *outer = RefArray(150);
  void *inner = ints(150);
  for (size_t i = 0; i < 150; i++) SetRef(outer, i, inner);
  std::string want = "[";
  for (size_t i = 0; i < 150; i++) want += (i ? ", " : "") + form(150, false);
  want += "]";
  EXPECT_EQ(StrRef(outer), want);
}

// One value's form is bounded in bytes too: a flat array holding one long text many times (each
// element shown whole) stops near kMaxShownBytes with ", ...]" instead of growing without end.
TEST_F(StrTest, ByteLimit) {
  const std::string long_text(1 << 20, 'x');  // 1 MiB, written with its quotes
  const size_t n = cairn::lang::kMaxShownBytes / long_text.size() + 8;
  void *outer = RefArray(n);
  void *text = Text(long_text);
  for (size_t i = 0; i < n; i++) SetRef(outer, i, text);
  std::string form;
  cairn::lang::AppendRef(&form, outer);
  EXPECT_GE(form.size(), cairn::lang::kMaxShownBytes);
  EXPECT_LT(form.size(), cairn::lang::kMaxShownBytes + 2 * long_text.size());
  EXPECT_EQ(form.substr(form.size() - 6), ", ...]");
}

// str builds its text after reading the value, so an array that only the heap reaches moves
// under it only between calls.
TEST_F(StrTest, ArraysAcrossCollections) {
  void *holder = RefArray(1);
  SetRef(holder, 0, IntArray({4, 5, 6}));
  for (int i = 0; i < 20; i++) {
    cairn_collect();
    EXPECT_EQ(StrRef(GetRef(holder, 0)), "[4, 5, 6]");
  }
  void *s = cairn_str_ref(holder);
  cairn_collect();
  EXPECT_EQ(Bytes(s), "[[4, 5, 6]]");
}

}  // namespace
}  // namespace cairn_langtest
