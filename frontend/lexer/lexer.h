// The lexer: one source file to its tokens (language.md, Lexical).
//
// What it guarantees (the parser relies on these; tests/frontend/lexer_test.cpp checks them):
//  1. The last token is Eof, and no other token is. Every token has a valid span in the file;
//     Eof's is empty, at the end of the text before a final line break.
//  2. Errors are reported to Diagnostics and lexing goes on: a text literal with a bad escape
//     or without its closing quote is still a Text token, a number out of range is still an
//     Int token (of value 0), characters that start no token become one Invalid token (and
//     one error) per run. The parser does not report Invalid tokens again.
//  3. Statements end Go-style. A line break is a Newline token only when
//       a. the token before it could end a statement: a name (but not the name `new`, which
//          makes an object of the type that follows it), a literal (number, text, true, false,
//          nil), self, ')', ']', '}', return, break or continue; so a line ending in an
//          operator, '(', '[', '{', ',' or `new` continues on the next line; and
//       b. the innermost open bracket is not '(' or '[': inside parentheses and brackets lines
//          join (`f(a,\n b\n)`), while a '{' opened inside them (a function literal, `new T {`)
//          makes line breaks count again until its '}'.
//     Several line breaks in a row (with blank lines and comments) make at most one Newline. A
//     block comment spanning lines counts as a line break. Line breaks before the end of the
//     file make no Newline: Eof ends a statement too.
//  4. Recovery from an unclosed '(' or '[': a keyword that can only begin a statement or a
//     declaration (let var if while for return break continue atomic class import extern
//     override) closes the '(' and '[' brackets left open since the innermost '{', and a line
//     break before it is then a Newline whatever came before it. A closing bracket that does
//     not match the innermost open one closes up to the matching one, if any (else it is
//     ignored by the bracket tracking; the parser reports it).
//  5. Identifiers are letters, digits and '_', not starting with a digit: ASCII's and Unicode's
//     (name_chars.h, N1). A name's text is its Normalization Form C (nfc.h): `é` written as one
//     code point and as `e` with a combining accent is one name. A name that looks like a
//     keyword (`lеt` with a Cyrillic `е`; lookalikes.h) is an error and lexed as the keyword.
//     A UTF-8 byte order mark at the start of the file is skipped.
#ifndef CAIRN_FRONTEND_LEXER_LEXER_H
#define CAIRN_FRONTEND_LEXER_LEXER_H

#include <memory>
#include <vector>

#include "lexer/token.h"
#include "source/diagnostics.h"
#include "source/source.h"

namespace cairn::front {

// Hands out the tokens of one file in order, making them as they are asked for, so that
// lexical errors are reported in step with the parser's (in source order).
class Lexer {
 public:
  Lexer(const SourceFile &file, Diagnostics &diags);
  ~Lexer();
  Lexer(const Lexer &) = delete;
  Lexer &operator=(const Lexer &) = delete;
  // The next token; Eof, again and again, after the end.
  Token next();
  // While quiet, `++` and `--` are Invalid tokens (text "++", "--") without an error of their
  // own: the parser reports the construct they are in as a whole (C's `for (...; i++)`).
  void setQuietIncrements(bool quiet);

 private:
  class Impl;
  std::unique_ptr<Impl> impl_;
};

// Every token of `file`, ending with Eof. Lexical errors go to `diags`.
std::vector<Token> tokenize(const SourceFile &file, Diagnostics &diags);

}  // namespace cairn::front

#endif  // CAIRN_FRONTEND_LEXER_LEXER_H
