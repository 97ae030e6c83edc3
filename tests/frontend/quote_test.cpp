// QuoteText (source/quote.h): a text written back as a literal, as the syntax tree's dump and
// the REPL print it.
#include "source/quote.h"

#include <gtest/gtest.h>

#include <string>

namespace cairn::front {
namespace {

TEST(Quote, EscapesAsALiteral) {
  EXPECT_EQ(QuoteText(""), "\"\"");
  EXPECT_EQ(QuoteText("plain é ☺"), "\"plain é ☺\"");
  EXPECT_EQ(QuoteText("a\"b\\c\nd\te\rf"), "\"a\\\"b\\\\c\\nd\\te\\rf\"");
  EXPECT_EQ(QuoteText(std::string("x\0y", 3)), "\"x\\0y\"");
  EXPECT_EQ(QuoteText("\x01\x1b\x7f"), "\"\\u{1}\\u{1b}\\u{7f}\"");
  // C1 controls, line separators and bidirectional controls: escaped (a terminal obeys some);
  // a no-break space (U+00A0) and U+202F are text.
  EXPECT_EQ(QuoteText("\xc2\x9b\xc2\x80\xc2\xa0"), "\"\\u{9b}\\u{80}\xc2\xa0\"");
  EXPECT_EQ(QuoteText("\xe2\x80\xa9\xe2\x80\xaa\xe2\x81\xa7\xe2\x80\xaf"),
            "\"\\u{2029}\\u{202a}\\u{2067}\xe2\x80\xaf\"");
  // The direction marks and the other invisible characters (campaign K: U+200E, U+200F and
  // U+061C were printed raw); U+2065 (unassigned) and U+FEFE are text.
  EXPECT_EQ(
      QuoteText("\xe2\x80\x8e\xe2\x80\x8f\xd8\x9c\xef\xbb\xbf\xc2\xad\xe2\x80\x8b\xe2\x81\xa0"),
      "\"\\u{200e}\\u{200f}\\u{61c}\\u{feff}\\u{ad}\\u{200b}\\u{2060}\"");
  EXPECT_EQ(QuoteText("\xe2\x81\xa5\xef\xbb\xbe"), "\"\xe2\x81\xa5\xef\xbb\xbe\"");
  EXPECT_EQ(QuoteText("\xc2"), "\"\xc2\"");  // a lead byte at the end: as it is
}

TEST(Quote, ALongTextIsCutWithItsLength) {
  EXPECT_EQ(QuoteText("abcdef", 3), "\"abc\"... (6 bytes)");
  EXPECT_EQ(QuoteText("abc", 3), "\"abc\"");
  EXPECT_EQ(QuoteText("a\nb", 2), "\"a\\n\"... (3 bytes)");
}

TEST(Quote, ACutDoesNotSplitAUtf8Character) {
  // "a☺b": ☺ is three bytes (1..3); a cut inside it goes before it.
  EXPECT_EQ(QuoteText("a\xe2\x98\xba"
                      "b",
                      2),
            "\"a\"... (5 bytes)");
  EXPECT_EQ(QuoteText("a\xe2\x98\xba"
                      "b",
                      3),
            "\"a\"... (5 bytes)");
  EXPECT_EQ(QuoteText("a\xe2\x98\xba"
                      "b",
                      4),
            "\"a\xe2\x98\xba\"... (5 bytes)");
  EXPECT_EQ(QuoteText("\xc3\xa9\xc3\xa9", 1), "\"\"... (4 bytes)");  // "éé"
  // Bytes that are not UTF-8 (a run of continuation bytes) are cut where they are.
  EXPECT_EQ(QuoteText(std::string(6, '\x80'), 4), "\"\x80\x80\x80\x80\"... (6 bytes)");
}

}  // namespace
}  // namespace cairn::front
