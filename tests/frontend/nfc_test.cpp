// Normalization Form C of names (lexer/nfc.h, F1-F3; lexer.h, rule 5).
#include "lexer/nfc.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <string>

#include "source/utf8.h"

using namespace cairn::front;

namespace {

std::string u8(std::initializer_list<uint32_t> cps) {
  std::string s;
  for (uint32_t cp : cps) appendUtf8(s, cp);
  return s;
}

std::string hexOf(const std::string &s) {
  std::string out;
  for (size_t i = 0; i < s.size();) {
    uint32_t cp = 0;
    const int n = utf8Sequence(s, i, &cp);
    if (n == 0) return out + " <not UTF-8>";
    char buf[16];
    std::snprintf(buf, sizeof buf, "%s%X", out.empty() ? "" : " ", cp);
    out += buf;
    i += static_cast<size_t>(n);
  }
  return out;
}

}  // namespace

TEST(Nfc, AsciiAndComposedTextStayAsTheyAre) {
  EXPECT_EQ(toNfc("snake_case2"), "snake_case2");
  EXPECT_EQ(toNfc(""), "");
  EXPECT_EQ(hexOf(toNfc(u8({0xE9, 0x4E2D, 0x1F600}))), "E9 4E2D 1F600");
}

TEST(Nfc, KnownCases) {
  struct Case {
    std::initializer_list<uint32_t> in;
    const char *out;
  };
  const Case cases[] = {
      {{0x65, 0x301}, "E9"},                 // e + acute
      {{0x212B}, "C5"},                      // Angstrom sign: a singleton
      {{0x2126}, "3A9"},                     // Ohm sign
      {{0x958}, "915 93C"},                  // a composition exclusion
      {{0x1100, 0x1161, 0x11A8}, "AC01"},    // Hangul L V T
      {{0xAC00, 0x11A8}, "AC01"},            // Hangul LV + T
      {{0x61, 0x323, 0x302}, "1EAD"},        // marks in canonical order
      {{0x61, 0x302, 0x323}, "1EAD"},        // reordered first
      {{0x344}, "308 301"},                  // a non-starter decomposition
      {{0xF73}, "F71 F72"},                  // likewise, Tibetan
      {{0x65, 0x301, 0x301}, "E9 301"},      // the second acute is blocked
      {{0xB47, 0xB3E}, "B4B"},               // two starters compose
      {{0x61, 0x5B0, 0x301}, "E1 5B0"},      // acute passes a lower class
      {{0x1E0B, 0x323}, "1E0D 307"},         // decomposed, reordered, recomposed
      {{0x71, 0x307, 0x323}, "71 323 307"},  // nothing composes with q
      {{0xFB01}, "FB01"},                    // F3: compatibility forms stay
      {{0xFF21}, "FF21"},
  };
  for (const Case &c : cases) {
    const std::string in = u8(c.in);
    EXPECT_EQ(hexOf(toNfc(in)), c.out) << hexOf(in);
  }
}

// Against Python's unicodedata (the generator's source, and an implementation of its own):
// every code point, and random names of letters and marks. Python is a build dependency.
TEST(Nfc, AgreesWithPythonsUnicodedata) {
  const char *script =
      "python3 -c '\n"
      "import random, unicodedata as u\n"
      "h = lambda s: \" \".join(\"%X\" % ord(c) for c in s)\n"
      "for cp in range(0x80, 0x110000):\n"
      "    if 0xD800 <= cp < 0xE000: continue\n"
      "    c = chr(cp)\n"
      "    if u.normalize(\"NFD\", c) != c or u.normalize(\"NFC\", c) != c:\n"
      "        print(h(c) + \";\" + h(u.normalize(\"NFC\", c)))\n"
      "        print(h(u.normalize(\"NFD\", c)) + \";\" + h(u.normalize(\"NFC\", c)))\n"
      "r = random.Random(7)\n"
      "pool = [cp for cp in range(0x80, 0x30000) if not 0xD800 <= cp < 0xE000 and "
      "(u.combining(chr(cp)) or u.normalize(\"NFD\", chr(cp)) != chr(cp))] + list(range(0x1100, "
      "0x1176)) + list(range(0x11A8, 0x11C3)) + [0x61, 0x65, 0x6F, 0x41]\n"
      "for _ in range(20000):\n"
      "    s = \"\".join(chr(r.choice(pool)) for _ in range(r.randint(1, 6)))\n"
      "    print(h(s) + \";\" + h(u.normalize(\"NFC\", s)))\n"
      "'";
  FILE *p = popen(script, "r");
  ASSERT_NE(p, nullptr);
  char line[512];
  int checked = 0, wrong = 0;
  while (std::fgets(line, sizeof line, p) != nullptr) {
    std::string l(line);
    if (!l.empty() && l.back() == '\n') l.pop_back();
    const size_t semi = l.find(';');
    ASSERT_NE(semi, std::string::npos) << l;
    std::string in;
    for (size_t i = 0; i < semi;) {
      size_t used = 0;
      appendUtf8(in, static_cast<uint32_t>(std::stoul(l.substr(i, semi - i), &used, 16)));
      i += used + 1;
    }
    const std::string got = hexOf(toNfc(in));
    if (got != l.substr(semi + 1) && ++wrong <= 10)
      ADD_FAILURE() << "NFC of " << l.substr(0, semi) << ": " << got << ", Python says "
                    << l.substr(semi + 1);
    ++checked;
  }
  ASSERT_EQ(pclose(p), 0) << "python3 failed";
  EXPECT_GT(checked, 20000);
  EXPECT_EQ(wrong, 0);
}
