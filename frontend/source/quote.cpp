// Texts quoted as literals (quote.h).
#include "source/quote.h"

#include <algorithm>

#include "cairn/text_literal.hpp"

namespace cairn::front {

std::string QuoteText(std::string_view bytes, size_t max_shown) {
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
  AppendEscapedText(&out, bytes.substr(0, shown));
  out += "\"";
  if (shown < bytes.size()) out += "... (" + std::to_string(bytes.size()) + " bytes)";
  return out;
}

}  // namespace cairn::front
