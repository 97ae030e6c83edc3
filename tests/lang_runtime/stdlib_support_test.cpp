// The runtime functions behind the standard library (cairn/lang.h, "Standard library support")
// and hash(e) of references, called directly: what the std modules never make them do (wrong
// arrays, bad ranges, growth of a builder's buffer at its edges) as well as the ordinary cases.
// The std modules' own tests are tests/lang/std/.
#include <cstdio>
#include <string>

#include "lang_test.h"

namespace cairn_langtest {
namespace {

#define EXPECT_RUNTIME_ERROR(statement, stderr_text)                          \
  EXPECT_EXIT(statement, ::testing::ExitedWithCode(CAIRN_EXIT_RUNTIME_ERROR), \
              ::testing::Eq(std::string(stderr_text)))

using StdSupportTest = LangTest;

int64_t At(const void *int_array, size_t i) {
  return static_cast<const int64_t *>(
      static_cast<const void *>(static_cast<const char *>(int_array) + CAIRN_ARRAY_DATA_OFFSET))[i];
}

TEST_F(StdSupportTest, HashOfReferences) {
  EXPECT_EQ(cairn_hash_ref(nullptr), 0);
  // Texts by their bytes (values from docs/language.md's algorithm, computed in Python).
  EXPECT_EQ(cairn_hash_ref(Text("")), -1594270702265061578);
  EXPECT_EQ(cairn_hash_ref(Text("hello")), 396445029864486112);
  EXPECT_EQ(cairn_hash_ref(Text("abcdefghi")), -4716980651939410815);
  EXPECT_EQ(cairn_hash_ref(Text("hel")), cairn_hash_ref(Text("hel")));
  // Other objects by identity.
  void *a = IntArray({1});
  EXPECT_EQ(cairn_hash_ref(a), static_cast<int64_t>(cairn_identity_hash(a)));
  EXPECT_NE(cairn_hash_ref(a), cairn_hash_ref(IntArray({1})));
}

TEST_F(StdSupportTest, ArrayMove) {
  void *a = IntArray({0, 1, 2, 3, 4, 5});
  cairn_array_move(&kLoc, a, 0, a, 2, 3);  // overlapping, to the right
  EXPECT_EQ(At(a, 2), 0);
  EXPECT_EQ(At(a, 4), 2);
  cairn_array_move(&kLoc, a, 3, a, 0, 3);  // overlapping, to the left
  EXPECT_EQ(At(a, 0), 1);
  EXPECT_EQ(At(a, 2), 5);
  void *b = IntArray({9, 9});
  cairn_array_move(&kLoc, a, 5, b, 1, 1);
  EXPECT_EQ(At(b, 1), 5);
  cairn_array_move(&kLoc, a, 6, b, 2, 0);  // nothing, at the very ends
  EXPECT_EQ(At(b, 0), 9);
}

TEST_F(StdSupportTest, ArrayMoveErrors) {
  void *a = IntArray({0, 1, 2});
  EXPECT_RUNTIME_ERROR(
      cairn_array_move(&kLoc, a, 2, a, 0, 2),
      "t.cairn:3:7: array move out of range: 2 elements from 2 (length 3) to 0 (length 3)\n");
  EXPECT_RUNTIME_ERROR(
      cairn_array_move(&kLoc, a, 0, a, -1, 1),
      "t.cairn:3:7: array move out of range: 1 elements from 0 (length 3) to -1 (length 3)\n");
  EXPECT_RUNTIME_ERROR(cairn_array_move(&kLoc, a, 0, FloatArray({1.0}), 0, 1),
                       "t.cairn:3:7: array move between [int] and [float]\n");
  EXPECT_RUNTIME_ERROR(cairn_array_move(&kLoc, nullptr, 0, a, 0, 0),
                       "t.cairn:3:7: nil dereference: array\n");
}

TEST_F(StdSupportTest, ArraySameComparesElementsAndChecksLikeMove) {
  void *a = IntArray({1, 2, 3, 4});
  void *b = IntArray({9, 2, 3, 5});
  EXPECT_TRUE(cairn_array_same(&kLoc, a, 1, b, 1, 2));
  EXPECT_FALSE(cairn_array_same(&kLoc, a, 0, b, 0, 2));  // the first differs
  EXPECT_FALSE(cairn_array_same(&kLoc, a, 1, b, 1, 3));  // the last differs
  EXPECT_TRUE(cairn_array_same(&kLoc, a, 1, b, 1, 0));   // nothing: the same
  EXPECT_TRUE(cairn_array_same(&kLoc, a, 4, b, 0, 0));   // nothing, at the very end
  EXPECT_TRUE(cairn_array_same(&kLoc, a, 1, a, 1, 3));
  // Equal texts that are two objects are not the same elements (identity, not equality).
  void *t1 = RefArray(1);
  SetRef(t1, 0, Text("x"));
  void *t2 = RefArray(1);
  SetRef(t2, 0, Text("x"));
  EXPECT_FALSE(cairn_array_same(&kLoc, t1, 0, t2, 0, 1));
  EXPECT_RUNTIME_ERROR(
      cairn_array_same(&kLoc, a, 2, b, 0, 3),
      "t.cairn:3:7: array comparison out of range: 3 elements from 2 (length 4) to 0 (length 4)\n");
  EXPECT_RUNTIME_ERROR(cairn_array_same(&kLoc, a, 0, FloatArray({1.0}), 0, 1),
                       "t.cairn:3:7: array comparison between [int] and [float]\n");
  EXPECT_RUNTIME_ERROR(cairn_array_same(&kLoc, a, 0, nullptr, 0, 0),
                       "t.cairn:3:7: nil dereference: array\n");
}

TEST_F(StdSupportTest, BufferGrowsByDoubling) {
  void *buf = cairn_text_buffer_append(&kLoc, nullptr, 0, Text(""));
  EXPECT_EQ(buf, nullptr);  // nothing to hold yet
  buf = cairn_text_buffer_append(&kLoc, nullptr, 0, Text("abc"));
  EXPECT_EQ(cairn_array_length(buf), 16u);  // the first capacity
  void *same = cairn_text_buffer_append(&kLoc, buf, 3, Text("0123456789012"));  // 16: fits
  EXPECT_EQ(same, buf);
  void *bigger = cairn_text_buffer_append(&kLoc, buf, 16, Text("x"));
  EXPECT_NE(bigger, buf);
  EXPECT_EQ(cairn_array_length(bigger), 32u);
  EXPECT_EQ(Bytes(cairn_text_buffer_text(&kLoc, bigger, 17)), "abc0123456789012x");
  // A piece larger than twice the capacity gets exactly the room it needs.
  void *huge = cairn_text_buffer_append(&kLoc, bigger, 17, Text(std::string(100, 'y')));
  EXPECT_EQ(cairn_array_length(huge), 117u);
  // text() is a copy: appending in place afterwards leaves it as it was.
  void *t = cairn_text_buffer_text(&kLoc, buf, 16);
  cairn_text_buffer_append(&kLoc, buf, 0, Text("ZZZ"));
  EXPECT_EQ(Bytes(t), "abc0123456789012");
  EXPECT_EQ(Bytes(cairn_text_buffer_text(&kLoc, nullptr, 0)), "");
}

TEST_F(StdSupportTest, FindSliceAndCase) {
  EXPECT_EQ(cairn_text_find(&kLoc, Text("abcabc"), Text("c"), 3), 5);
  EXPECT_EQ(cairn_text_find(&kLoc, Text("abc"), Text(""), 3), 3);
  EXPECT_EQ(cairn_text_find(&kLoc, Text("abc"), Text(""), 4), -1);
  EXPECT_EQ(cairn_text_find(&kLoc, Text("abc"), Text("a"), -5), 0);
  void *whole = Text("whole");
  EXPECT_EQ(cairn_text_slice(&kLoc, whole, 0, 5), whole);  // immutable: itself
  EXPECT_EQ(Bytes(cairn_text_upper(&kLoc, Text(std::string("a\0z", 3)))), std::string("A\0Z", 3));
  EXPECT_EQ(Bytes(cairn_text_trim(&kLoc, Text("\f\v x \r\n"))), "x");
  EXPECT_RUNTIME_ERROR(cairn_text_upper(&kLoc, nullptr), "t.cairn:3:7: nil dereference: text\n");
}

TEST_F(StdSupportTest, ParseAndFormat) {
  EXPECT_EQ(cairn_text_parse_int_ok(&kLoc, Text("-0")), 1);
  EXPECT_EQ(cairn_text_parse_int(&kLoc, Text("-0")), 0);
  EXPECT_EQ(cairn_text_parse_int(&kLoc, Text("x")), 0);
  EXPECT_EQ(cairn_text_parse_float_ok(&kLoc, Text("1e-400")), 0);  // out of range
  EXPECT_EQ(cairn_text_parse_float_ok(&kLoc, Text("NaN")), 1);
  // C's "nan(chars)" is not in the documented grammar.
  for (const char *t : {"nan(123)", "nan()", "NaN(abc_9)", "-nan(1)"})
    EXPECT_EQ(cairn_text_parse_float_ok(&kLoc, Text(t)), 0) << t;
  EXPECT_EQ(cairn_text_parse_float(&kLoc, Text("-2.5e1")), -25.0);
  EXPECT_EQ(Bytes(cairn_text_format_float(&kLoc, 0.125, 2)), "0.12");  // to nearest even
  // A figure longer than the first buffer (1e300 with 100 digits).
  EXPECT_EQ(Bytes(cairn_text_format_float(&kLoc, 1e300, 100)).size(), 301u + 1 + 100);
}

TEST_F(StdSupportTest, Files) {
  const std::string path = ::testing::TempDir() + "cairn_std_support_file";
  cairn_io_write_file(&kLoc, Text(path), Text(std::string("a\0b", 3)));
  EXPECT_EQ(Bytes(cairn_io_read_file(&kLoc, Text(path))), std::string("a\0b", 3));
  std::remove(path.c_str());
  EXPECT_RUNTIME_ERROR(cairn_io_read_file(&kLoc, nullptr),
                       "t.cairn:3:7: nil dereference: text (the path)\n");
  EXPECT_RUNTIME_ERROR(cairn_io_read_file(&kLoc, Text("/")),
                       "t.cairn:3:7: cannot read file '/': Is a directory\n");
}

TEST_F(StdSupportTest, ClocksAndMath) {
  const int64_t a = cairn_time_now_nanos();
  EXPECT_GE(cairn_time_now_nanos(), a);
  EXPECT_GT(cairn_time_wall_seconds(), 1577836800.0);
  EXPECT_EQ(cairn_math_sqrt(9.0), 3.0);
  EXPECT_EQ(cairn_math_floor(-0.5), -1.0);
  EXPECT_EQ(cairn_math_ceil(-0.5), -0.0);
  EXPECT_EQ(cairn_math_pow(3.0, 2.0), 9.0);
}

}  // namespace
}  // namespace cairn_langtest
