// Unicode Normalization Form C for names (lexer.h, rule 5): an editor may write `é` as one code
// point (U+00E9) or as `e` and a combining accent (U+0065 U+0301); both are one name.
//
//   F1. toNfc(s) is s in Normalization Form C (UAX #15): canonical decomposition, canonical
//       ordering of combining marks, canonical composition (less the composition exclusions);
//       Hangul syllables by their arithmetic. The tables are generated from the Unicode database
//       (frontend/gen_unicode_tables.py; its version in nfc_table.inc).
//   F2. s must be valid UTF-8 (the lexer's names are); ASCII comes back as it is, unscanned.
//   F3. Only canonical equivalence: compatibility forms stay distinct (`ﬁ` is not `fi`, a
//       full-width `Ａ` is not `A`), as they look different.
#ifndef CAIRN_FRONTEND_LEXER_NFC_H
#define CAIRN_FRONTEND_LEXER_NFC_H

#include <string>
#include <string_view>

namespace cairn::front {

std::string toNfc(std::string_view s);

}  // namespace cairn::front

#endif
