// Text: cairn_text_new, concat, eq, cmp, any_eq and byte, in the test process (their runtime
// errors are in errors_test.cpp).
#include <string>
#include <vector>

#include "lang_test.h"

namespace cairn_langtest {
namespace {

using TextTest = LangTest;

TEST_F(TextTest, NewCopiesTheBytes) {
  char buf[] = "abc";
  void *t = cairn_text_new(buf, 3);
  buf[0] = 'x';
  EXPECT_EQ(Bytes(t), "abc");
  EXPECT_EQ(cairn_array_length(t), 3u);
  EXPECT_EQ(cairn_type_of(t), &cairn_text_type);
}

TEST_F(TextTest, EmptyNulAndNonAscii) {
  void *empty = cairn_text_new(nullptr, 0);
  EXPECT_EQ(Bytes(empty), "");
  const std::string with_nul("a\0b\0", 4);
  EXPECT_EQ(Bytes(Text(with_nul)), with_nul);
  EXPECT_EQ(Bytes(Text("é☺")), "é☺");
  EXPECT_EQ(cairn_array_length(Text("é☺")), 5u);
}

TEST_F(TextTest, Concat) {
  EXPECT_EQ(Bytes(cairn_text_concat(&kLoc, Text("ab"), Text("cd"))), "abcd");
  void *x = Text("x");
  void *empty = Text("");
  EXPECT_EQ(Bytes(cairn_text_concat(&kLoc, x, empty)), "x");
  EXPECT_EQ(Bytes(cairn_text_concat(&kLoc, empty, x)), "x");
  EXPECT_EQ(Bytes(cairn_text_concat(&kLoc, empty, empty)), "");
  const std::string a("a\0", 2), b("\0b", 2);
  EXPECT_EQ(Bytes(cairn_text_concat(&kLoc, Text(a), Text(b))), a + b);
  EXPECT_EQ(Bytes(cairn_text_concat(&kLoc, Text("é"), Text("☺"))), "é☺");
}

// Many joins, each allocating (and in the stress build collecting), of pieces that only an
// array reaches (so they move): every text must come through intact.
TEST_F(TextTest, ConcatAcrossCollections) {
  void *parts = RefArray(10);
  for (int i = 0; i < 10; i++) SetRef(parts, i, Text(std::string(1, char('0' + i))));
  void *s = Text("");
  std::string want;
  for (int round = 0; round < 100; round++) {
    for (int i = 0; i < 10; i++) {
      s = cairn_text_concat(&kLoc, s, GetRef(parts, i));
      want += char('0' + i);
    }
    if (round % 10 == 0) cairn_collect();
  }
  EXPECT_EQ(Bytes(s), want);
  EXPECT_EQ(cairn_verify_heap(10), 0u);
}

TEST_F(TextTest, Eq) {
  EXPECT_TRUE(cairn_text_eq(Text("abc"), Text("abc")));
  EXPECT_FALSE(cairn_text_eq(Text("abc"), Text("abd")));
  EXPECT_FALSE(cairn_text_eq(Text("ab"), Text("abc")));
  EXPECT_TRUE(cairn_text_eq(Text(""), Text("")));
  EXPECT_TRUE(cairn_text_eq(nullptr, nullptr));
  EXPECT_FALSE(cairn_text_eq(nullptr, Text("")));
  EXPECT_FALSE(cairn_text_eq(Text(""), nullptr));
  EXPECT_TRUE(cairn_text_eq(Text(std::string("a\0x", 3)), Text(std::string("a\0x", 3))));
  EXPECT_FALSE(cairn_text_eq(Text(std::string("a\0x", 3)), Text(std::string("a\0y", 3))));
  void *t = Text("same");
  EXPECT_TRUE(cairn_text_eq(t, t));
}

TEST_F(TextTest, CmpOrdersBytes) {
  const std::vector<std::string> sorted = {"", "Apple", "apple", "ban", "banana", "pear", "é"};
  for (size_t i = 0; i < sorted.size(); i++) {
    for (size_t j = 0; j < sorted.size(); j++) {
      const int64_t want = i < j ? -1 : (i > j ? 1 : 0);
      EXPECT_EQ(cairn_text_cmp(Text(sorted[i]), Text(sorted[j])), want)
          << '"' << sorted[i] << "\" vs \"" << sorted[j] << '"';
    }
  }
  // Bytes compare unsigned: 0xff after 'a', NUL before everything.
  EXPECT_GT(cairn_text_cmp(Text("\xff"), Text("a")), 0);
  EXPECT_LT(cairn_text_cmp(Text(std::string("a\0", 2)), Text("a\x01")), 0);
  EXPECT_GT(cairn_text_cmp(Text(std::string("a\0", 2)), Text("a")), 0);
}

TEST_F(TextTest, CmpNilFirst) {
  EXPECT_EQ(cairn_text_cmp(nullptr, nullptr), 0);
  EXPECT_LT(cairn_text_cmp(nullptr, Text("")), 0);
  EXPECT_GT(cairn_text_cmp(Text(""), nullptr), 0);
}

TEST_F(TextTest, AnyEq) {
  EXPECT_TRUE(cairn_any_eq(Text("abc"), Text("abc")));
  EXPECT_FALSE(cairn_any_eq(Text("abc"), Text("ab")));
  EXPECT_TRUE(cairn_any_eq(nullptr, nullptr));
  EXPECT_FALSE(cairn_any_eq(nullptr, Text("")));
  EXPECT_FALSE(cairn_any_eq(Text(""), nullptr));
  // Anything but two texts: identity.
  void *a = IntArray({1, 2});
  void *b = IntArray({1, 2});
  EXPECT_TRUE(cairn_any_eq(a, a));
  EXPECT_FALSE(cairn_any_eq(a, b));
  EXPECT_FALSE(cairn_any_eq(a, nullptr));
  // A text and a byte array with the same bytes are not equal.
  void *bytes = cairn_malloc_array(&cairn_bool_array_type, 1);
  EXPECT_FALSE(cairn_any_eq(Text(std::string("\0", 1)), bytes));
}

TEST_F(TextTest, Byte) {
  void *t = Text("AZa9é");
  EXPECT_EQ(cairn_text_byte(&kLoc, t, 0), 65);
  EXPECT_EQ(cairn_text_byte(&kLoc, t, 1), 90);
  EXPECT_EQ(cairn_text_byte(&kLoc, t, 3), 57);
  EXPECT_EQ(cairn_text_byte(&kLoc, t, 4), 195);  // bytes, unsigned
  EXPECT_EQ(cairn_text_byte(&kLoc, t, 5), 169);
  EXPECT_EQ(cairn_text_byte(&kLoc, Text(std::string("\0", 1)), 0), 0);
}

}  // namespace
}  // namespace cairn_langtest
