// UTF-8 decoding and display widths (utf8.h).
#include "source/utf8.h"

#include <algorithm>
#include <iterator>

namespace cairn::front {
namespace {

#include "source/char_width_table.inc"

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

bool inRanges(const CodePointRange *ranges, size_t count, uint32_t cp) {
  const CodePointRange *end = ranges + count;
  const CodePointRange *it = std::upper_bound(
      ranges, end, cp, [](uint32_t c, const CodePointRange &r) { return c < r.first; });
  return it != ranges && cp <= (it - 1)->last;
}

bool isDefaultIgnorable(uint32_t cp) {
  return inRanges(kDefaultIgnorable, std::size(kDefaultIgnorable), cp);
}

uint32_t displayColumns(uint32_t cp) {
  if (cp < 0x80) return 1;
  if (inRanges(kZeroWidth, std::size(kZeroWidth), cp)) return 0;
  if (inRanges(kDoubleWidth, std::size(kDoubleWidth), cp)) return 2;
  return 1;
}

void appendUtf8(std::string &out, uint32_t cp) {
  if (cp < 0x80) {
    out.push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out.push_back(static_cast<char>(0xC0 | (cp >> 6)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else if (cp < 0x10000) {
    out.push_back(static_cast<char>(0xE0 | (cp >> 12)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else {
    out.push_back(static_cast<char>(0xF0 | (cp >> 18)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  }
}

}  // namespace cairn::front
