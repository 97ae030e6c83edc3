// Look-alike letters (lexer/lookalikes.h, L1 and L2).
#include "lexer/lookalikes.h"

#include <gtest/gtest.h>

#include <string>

using namespace cairn::front;

TEST(Lookalikes, LatinLookalike) {
  EXPECT_EQ(latinLookalike("count"), "count");
  EXPECT_EQ(latinLookalike("\xD1\x81ount"), "count");                 // Cyrillic с
  EXPECT_EQ(latinLookalike("\xCE\x9F\xCE\xA1"), "OP");                // Greek Ο Ρ
  EXPECT_EQ(latinLookalike("\xEF\xBD\x8C\xEF\xBD\x85t"), "let");      // full-width l e
  EXPECT_EQ(latinLookalike("\xD0\xBC\xCF\x80"), "\xD0\xBC\xCF\x80");  // м π: not look-alikes
}

TEST(Lookalikes, NoteNamesTheFirstLetter) {
  EXPECT_EQ(lookalikeNote("x\xD0\xB0\xD0\xB5"),
            "'\xD0\xB0' is U+0430, a Cyrillic letter that looks like the Latin 'a'");
  EXPECT_EQ(lookalikeNote("\xCE\x9D"),
            "'\xCE\x9D' is U+039D, a Greek letter that looks like the Latin 'N'");
  EXPECT_EQ(lookalikeNote("plain"), "");
}

TEST(Lookalikes, DidYouMean) {
  // A look-alike wins over a near name, and says which letter differs, on either side.
  EXPECT_EQ(didYouMean("count", {"coun", "\xD1\x81ount"}),
            "'\xD1\x81ount' is declared with another letter, which looks the same: '\xD1\x81' is "
            "U+0441, a Cyrillic letter that looks like the Latin 'c'; type the two alike");
  EXPECT_EQ(didYouMean("\xD1\x81ount", {"count"}),
            "the name here has another letter than the declared 'count', which looks the same: "
            "'\xD1\x81' is U+0441, a Cyrillic letter that looks like the Latin 'c'; type the two "
            "alike");
  EXPECT_EQ(didYouMean("lenght", {"length", "width"}), "did you mean 'length'?");
  EXPECT_EQ(didYouMean("zzz", {"length"}), "");
}
