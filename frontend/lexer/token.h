// The tokens of Cairn source (language.md, Lexical). A token is its kind, its span and, for
// names and literals, its value; the lexer makes the whole file's tokens at once, so the parser
// can look ahead and back up freely.
#ifndef CAIRN_FRONTEND_LEXER_TOKEN_H
#define CAIRN_FRONTEND_LEXER_TOKEN_H

#include <cstdint>
#include <string>
#include <string_view>

#include "source/source.h"

namespace cairn::front {

enum class TokenKind : uint8_t {
  Eof,      // end of file: always the last token, and only there
  Newline,  // a line break that ends a statement (see lexer.h for when one is a token)
  Invalid,  // characters the lexer could not make a token of (already reported)
  Ident,
  Int,
  Float,
  Text,

  // Keywords.
  KwAnd,
  KwAs,
  KwAtomic,
  KwBreak,
  KwClass,
  KwContinue,
  KwElse,
  KwExtern,
  KwFalse,
  KwFn,
  KwFor,
  KwIf,
  KwImport,
  KwIn,
  KwIs,
  KwLet,
  KwNil,
  KwNot,
  KwOr,
  KwOverride,
  KwReturn,
  KwSelf,
  KwTrue,
  KwVar,
  KwWhile,

  // Punctuation and operators.
  LParen,     // (
  RParen,     // )
  LBracket,   // [
  RBracket,   // ]
  LBrace,     // {
  RBrace,     // }
  Comma,      // ,
  Semi,       // ;
  Colon,      // :
  Dot,        // .
  DotDot,     // ..
  Arrow,      // ->
  Assign,     // =
  EqEq,       // ==
  NotEq,      // !=
  Lt,         // <
  Le,         // <=
  Gt,         // >
  Ge,         // >=
  Plus,       // +
  Minus,      // -
  Star,       // *
  Slash,      // /
  Percent,    // %
  PlusEq,     // +=
  MinusEq,    // -=
  StarEq,     // *=
  SlashEq,    // /=
  PercentEq,  // %=
  Amp,        // &
  Pipe,       // |
  Caret,      // ^
  Tilde,      // ~
  Shl,        // <<
  Shr,        // >>
  Ushr,       // >>>
  AmpEq,      // &=
  PipeEq,     // |=
  CaretEq,    // ^=
  ShlEq,      // <<=
  ShrEq,      // >>=
  UshrEq,     // >>>=
};

struct Token {
  TokenKind kind = TokenKind::Eof;
  // A line break (or a comment spanning one) stands between the previous token and this one.
  bool newline_before = false;
  Span span;
  // Ident: the name. Text: the bytes, escapes decoded. Int, Float: the literal as written.
  // Invalid: "++" or "--" for C's increment and decrement, else empty.
  std::string text;
  // Int: the value. A decimal literal is at most INT64_MAX, except 9223372036854775808 (2^63)
  // when the token directly follows '-' (the parser folds `-9223372036854775808` into
  // INT64_MIN, and reports the literal anywhere else). A hex literal (`hex`) may be up to
  // UINT64_MAX: it stands for the int with those 64 bits (0xFFFFFFFFFFFFFFFF is -1). 0 after
  // an out-of-range error.
  uint64_t int_value = 0;
  double float_value = 0;  // Float: the value
  bool hex = false;        // Int: written in hex (0x...)
  // Text: left open, so it ran to the end of its line (reported as unterminated): the parser
  // reports nothing more on that line (what it lacks, a ')' say, is inside the literal).
  // Eof: a '/*' comment left open ran to it (reported): what the parser lacks there (a '}')
  // is inside the comment, and not reported again.
  bool unterminated = false;
  // The lexer reported an error at this token (a keyword written with a look-alike letter,
  // `lеt` with a Cyrillic е, read as the keyword; a number with a bad suffix or digits, `1x`):
  // the parser reports nothing more at it (one error per mistake).
  bool reported = false;
};

// The source spelling of a keyword or punctuation token ("else", "+="); "" for other kinds.
std::string_view tokenSpelling(TokenKind kind);
// How a kind is named in messages: "'}'", "'else'", "end of line", "end of file",
// "identifier", "number", "text literal".
std::string describeKind(TokenKind kind);
// How a token is named in messages: like describeKind, with the name of an identifier
// ("identifier 'foo'").
std::string describeToken(const Token &token);
// The keyword spelled `word`, or TokenKind::Ident.
TokenKind keywordKind(std::string_view word);
bool isKeyword(TokenKind kind);
// Keywords that only begin a statement (let var if while for return break continue atomic).
bool startsStatementOnly(TokenKind kind);
// Keywords that only begin a declaration (class import extern override; `fn` may also begin a
// function literal, so it is not one).
bool startsDeclOnly(TokenKind kind);

}  // namespace cairn::front

#endif  // CAIRN_FRONTEND_LEXER_TOKEN_H
