// Texts quoted as literals (quote.h).
#include "source/quote.h"

#include <algorithm>

namespace cairn::front {

std::string QuoteText(std::string_view bytes, size_t max_shown) {
  static constexpr char kHex[] = "0123456789abcdef";
  size_t shown = std::min(bytes.size(), max_shown);
  // A cut does not split a UTF-8 character: it goes back to the start of the one it falls in
  // (at most 3 bytes back, onto a lead byte; bytes that are not UTF-8 are cut where they are).
  if (shown < bytes.size()) {
    size_t back = shown;
    while (back > 0 && shown - back < 3 && (static_cast<unsigned char>(bytes[back]) & 0xC0) == 0x80)
      back--;
    if (back < shown && static_cast<unsigned char>(bytes[back]) >= 0xC0) shown = back;
  }
  std::string out = "\"";
  for (size_t i = 0; i < shown; i++) {
    const unsigned char c = static_cast<unsigned char>(bytes[i]);
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\t':
        out += "\\t";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\0':
        out += "\\0";
        break;
      default:
        if (c < 0x20 || c == 0x7f) {
          out += "\\u{";
          if (c >= 0x10) out.push_back(kHex[c >> 4]);
          out.push_back(kHex[c & 0xf]);
          out += "}";
        } else {
          out.push_back(static_cast<char>(c));
        }
    }
  }
  out += "\"";
  if (shown < bytes.size()) out += "... (" + std::to_string(bytes.size()) + " bytes)";
  return out;
}

}  // namespace cairn::front
