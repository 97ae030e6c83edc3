// A text as Cairn writes it back: in double quotes, escaped as in a literal by the one rule of
// cairn/text_literal.hpp (control characters, C1 controls, invisible and bidirectional ones; UTF-8
// passes through). Used by the syntax tree's dump and the REPL's printer (the runtime's print of a
// text inside an array or an object writes the same).
#ifndef CAIRN_FRONTEND_SOURCE_QUOTE_H
#define CAIRN_FRONTEND_SOURCE_QUOTE_H

#include <cstddef>
#include <string>
#include <string_view>

namespace cairn::front {

// bytes quoted; if it is longer than max_shown, its first max_shown bytes (fewer if the cut
// would split a UTF-8 character: it goes before the character), quoted, then "... (N bytes)".
std::string QuoteText(std::string_view bytes, size_t max_shown = std::string_view::npos);

}  // namespace cairn::front

#endif  // CAIRN_FRONTEND_SOURCE_QUOTE_H
