// Name characters (name_chars.h).
#include "lexer/name_chars.h"

#include <algorithm>
#include <iterator>

namespace cairn::front {
namespace {

#include "lexer/name_chars_table.inc"

bool isAsciiLetter(uint32_t c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

}  // namespace

bool isNameStart(uint32_t cp) {
  if (cp < 0x80) return isAsciiLetter(cp) || cp == '_';
  return inRanges(kNameStart, std::size(kNameStart), cp);
}

bool isNameContinue(uint32_t cp) {
  if (cp < 0x80) return isAsciiLetter(cp) || cp == '_' || (cp >= '0' && cp <= '9');
  return inRanges(kNameContinue, std::size(kNameContinue), cp);
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
