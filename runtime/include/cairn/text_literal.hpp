/* Cairn: a text written back as a literal, the one rule for the runtime (print of a text inside
 * an array or an object), the REPL's printer and the compiler's syntax tree dump.
 *
 * Escaped as in a literal: `"` and `\` (\" \\), newline, tab, carriage return and NUL (\n \t \r
 * \0), the other C0 controls and DEL (\u{1b}, \u{7f}), the C1 controls U+0080 to U+009F (which
 * some terminals obey: U+009B starts a control sequence), and the characters that are invisible
 * or reorder what follows: the soft hyphen U+00AD, the Arabic letter mark U+061C, the zero-width
 * characters and direction marks U+200B to U+200F, the line and paragraph separators U+2028 and
 * U+2029, the bidirectional controls U+202A to U+202E and U+2066 to U+2069, the invisible
 * operators U+2060 to U+2064 and the zero-width no-break space (byte order mark) U+FEFF. Every
 * other byte is written as it is (UTF-8, and bytes that are not UTF-8). Header-only: the
 * compiler does not link the runtime.
 */
#ifndef CAIRN_TEXT_LITERAL_HPP
#define CAIRN_TEXT_LITERAL_HPP

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace cairn {

/* Appends `text` escaped as the inside of a literal (without the quotes) to *out. */
inline void AppendEscapedText(std::string *out, std::string_view text) {
  static constexpr char kHex[] = "0123456789abcdef";
  auto escape = [out](uint32_t cp) {
    out->append("\\u{");
    bool started = false;
    for (int shift = 20; shift >= 0; shift -= 4) {
      const uint32_t digit = (cp >> shift) & 0xf;
      if (digit == 0 && !started && shift > 0) continue;
      started = true;
      out->push_back(kHex[digit]);
    }
    out->push_back('}');
  };
  for (size_t i = 0; i < text.size(); i++) {
    const auto c = static_cast<unsigned char>(text[i]);
    switch (c) {
      case '"':
        out->append("\\\"");
        continue;
      case '\\':
        out->append("\\\\");
        continue;
      case '\n':
        out->append("\\n");
        continue;
      case '\t':
        out->append("\\t");
        continue;
      case '\r':
        out->append("\\r");
        continue;
      case '\0':
        out->append("\\0");
        continue;
      default:
        break;
    }
    if (c < 0x20 || c == 0x7f) {
      escape(c);
      continue;
    }
    // U+0080..U+009F: C2 80..C2 9F; U+00AD: C2 AD.
    if (c == 0xC2 && i + 1 < text.size()) {
      const auto c1 = static_cast<unsigned char>(text[i + 1]);
      if ((c1 >= 0x80 && c1 <= 0x9F) || c1 == 0xAD) {
        escape(c1);
        i += 1;
        continue;
      }
    }
    // U+061C: D8 9C.
    if (c == 0xD8 && i + 1 < text.size() && static_cast<unsigned char>(text[i + 1]) == 0x9C) {
      escape(0x061C);
      i += 1;
      continue;
    }
    // U+200B..U+200F: E2 80 8B..8F; U+2028..U+202E: E2 80 A8..AE; U+2060..U+2064: E2 81
    // A0..A4; U+2066..U+2069: E2 81 A6..A9.
    if (c == 0xE2 && i + 2 < text.size()) {
      const auto b1 = static_cast<unsigned char>(text[i + 1]);
      const auto b2 = static_cast<unsigned char>(text[i + 2]);
      if ((b1 == 0x80 && ((b2 >= 0x8B && b2 <= 0x8F) || (b2 >= 0xA8 && b2 <= 0xAE))) ||
          (b1 == 0x81 && ((b2 >= 0xA0 && b2 <= 0xA4) || (b2 >= 0xA6 && b2 <= 0xA9)))) {
        escape(0x2000u + ((b1 & 0x3Fu) << 6) + (b2 & 0x3Fu));
        i += 2;
        continue;
      }
    }
    // U+FEFF: EF BB BF.
    if (c == 0xEF && i + 2 < text.size() && static_cast<unsigned char>(text[i + 1]) == 0xBB &&
        static_cast<unsigned char>(text[i + 2]) == 0xBF) {
      escape(0xFEFF);
      i += 2;
      continue;
    }
    out->push_back(static_cast<char>(c));
  }
}

}  // namespace cairn

#endif /* CAIRN_TEXT_LITERAL_HPP */
