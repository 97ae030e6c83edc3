// Which characters make a name (lexer.h, rule 5), for the lexer and for the REPL's completion.
//
//   N1. A name is a letter or '_', then letters, digits and '_'. Letters are ASCII's and, above
//       ASCII, Unicode's XID_Start (to begin a name) and XID_Continue (after its first
//       character, which adds marks and digits of other scripts), less the default-ignorable
//       code points, which show as nothing (so that two names that look alike are one name).
//       The table is generated from the Unicode database (frontend/gen_unicode_tables.py; its
//       version in name_chars_table.inc). The lexer puts a name in Normalization Form C
//       (nfc.h), so `é` as one code point (U+00E9) and as `e` with a combining accent is one
//       name; names are then compared as their bytes.
#ifndef CAIRN_FRONTEND_LEXER_NAME_CHARS_H
#define CAIRN_FRONTEND_LEXER_NAME_CHARS_H

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "source/utf8.h"

namespace cairn::front {

bool isNameStart(uint32_t cp);
bool isNameContinue(uint32_t cp);

// The length in bytes of the name character at s[i] (one that may begin a name when `first`),
// 0 if there is none there.
size_t nameCharAt(std::string_view s, size_t i, bool first);

// Where the run of name characters that ends at s[end] begins (end itself if there is none):
// the REPL's completion looks back from the cursor with it.
size_t nameRunStart(std::string_view s, size_t end);

}  // namespace cairn::front

#endif
