// UTF-8 in source text: decoding one character, and how many columns a terminal shows it in.
//
//   U1. utf8Sequence accepts exactly the well-formed sequences of UTF-8 (no overlong forms, no
//       surrogates, nothing above U+10FFFF); everything else is a byte of its own for callers.
//   U2. displayColumns is 0 for marks, format characters and default-ignorable code points, 2
//       for East Asian wide and full-width characters, 1 for the others (a control included:
//       the diagnostics show those as '?'). The tables are generated from the Unicode database
//       (frontend/gen_unicode_tables.py; its version in char_width_table.inc).
#ifndef CAIRN_FRONTEND_SOURCE_UTF8_H
#define CAIRN_FRONTEND_SOURCE_UTF8_H

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace cairn::front {

// The length of the valid UTF-8 sequence at s[i] (1 to 4) and its code point; 0 if the bytes
// there are not valid UTF-8 (U1).
int utf8Sequence(std::string_view s, size_t i, uint32_t *code_point);
// Appends the UTF-8 encoding of a code point (at most U+10FFFF, not a surrogate).
void appendUtf8(std::string &out, uint32_t cp);

// Columns a terminal shows the code point in (U2).
uint32_t displayColumns(uint32_t cp);
// Unicode's Default_Ignorable_Code_Point: shown as nothing at all (a zero-width space, a
// variation selector, the Hangul fillers), from the same generated table.
bool isDefaultIgnorable(uint32_t cp);

// Inclusive ranges of code points, sorted, and a search of them (for generated tables).
struct CodePointRange {
  uint32_t first;
  uint32_t last;
};
bool inRanges(const CodePointRange *ranges, size_t count, uint32_t cp);

}  // namespace cairn::front

#endif
