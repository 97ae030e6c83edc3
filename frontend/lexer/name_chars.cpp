// Name characters (name_chars.h).
#include "lexer/name_chars.h"

#include <algorithm>

namespace cairn::front {
namespace {

struct CodePointRange {
  uint32_t first;
  uint32_t last;
};

#include "lexer/name_chars_table.inc"

template <size_t N>
bool inTable(const CodePointRange (&table)[N], uint32_t cp) {
  const CodePointRange *it = std::upper_bound(
      table, table + N, cp, [](uint32_t c, const CodePointRange &r) { return c < r.first; });
  return it != table && cp <= (it - 1)->last;
}

bool isAsciiLetter(uint32_t c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

}  // namespace

int utf8Sequence(std::string_view s, size_t i, uint32_t *code_point) {
  const auto b0 = static_cast<unsigned char>(s[i]);
  int length;
  uint32_t cp;
  if (b0 < 0x80) {
    *code_point = b0;
    return 1;
  } else if ((b0 & 0xE0) == 0xC0) {
    length = 2;
    cp = b0 & 0x1F;
  } else if ((b0 & 0xF0) == 0xE0) {
    length = 3;
    cp = b0 & 0x0F;
  } else if ((b0 & 0xF8) == 0xF0) {
    length = 4;
    cp = b0 & 0x07;
  } else {
    return 0;
  }
  if (i + static_cast<size_t>(length) > s.size()) return 0;
  for (int k = 1; k < length; ++k) {
    const auto b = static_cast<unsigned char>(s[i + static_cast<size_t>(k)]);
    if ((b & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (b & 0x3F);
  }
  static constexpr uint32_t kMinForLength[] = {0, 0, 0x80, 0x800, 0x10000};
  if (cp < kMinForLength[length] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
  *code_point = cp;
  return length;
}

bool isNameStart(uint32_t cp) {
  if (cp < 0x80) return isAsciiLetter(cp) || cp == '_';
  return inTable(kNameStart, cp);
}

bool isNameContinue(uint32_t cp) {
  if (cp < 0x80) return isAsciiLetter(cp) || cp == '_' || (cp >= '0' && cp <= '9');
  return inTable(kNameContinue, cp);
}

size_t nameCharAt(std::string_view s, size_t i, bool first) {
  if (i >= s.size()) return 0;
  uint32_t cp = 0;
  const int n = utf8Sequence(s, i, &cp);
  if (n == 0) return 0;
  return (first ? isNameStart(cp) : isNameContinue(cp)) ? static_cast<size_t>(n) : 0;
}

size_t nameRunStart(std::string_view s, size_t end) {
  size_t b = std::min(end, s.size());
  while (b > 0) {
    size_t c = b - 1;  // the start of the character before b
    while (c > 0 && b - c < 4 && (static_cast<unsigned char>(s[c]) & 0xC0) == 0x80) --c;
    if (nameCharAt(s, c, false) != b - c) break;
    b = c;
  }
  return b;
}

}  // namespace cairn::front
