// Token spellings and their names in messages (token.h).
#include "lexer/token.h"

#include <array>
#include <utility>

namespace cairn::front {
namespace {

constexpr std::array<std::pair<std::string_view, TokenKind>, 25> kKeywords = {{
    {"and", TokenKind::KwAnd},       {"as", TokenKind::KwAs},
    {"atomic", TokenKind::KwAtomic}, {"break", TokenKind::KwBreak},
    {"class", TokenKind::KwClass},   {"continue", TokenKind::KwContinue},
    {"else", TokenKind::KwElse},     {"extern", TokenKind::KwExtern},
    {"false", TokenKind::KwFalse},   {"fn", TokenKind::KwFn},
    {"for", TokenKind::KwFor},       {"if", TokenKind::KwIf},
    {"import", TokenKind::KwImport}, {"in", TokenKind::KwIn},
    {"is", TokenKind::KwIs},         {"let", TokenKind::KwLet},
    {"nil", TokenKind::KwNil},       {"not", TokenKind::KwNot},
    {"or", TokenKind::KwOr},         {"override", TokenKind::KwOverride},
    {"return", TokenKind::KwReturn}, {"self", TokenKind::KwSelf},
    {"true", TokenKind::KwTrue},     {"var", TokenKind::KwVar},
    {"while", TokenKind::KwWhile},
}};

}  // namespace

constexpr bool keywordsAreShortAndLowerCase() {
  for (const auto &[spelling, kind] : kKeywords)
    if (spelling.size() < 2 || spelling.size() > 8 || spelling[0] < 'a' || spelling[0] > 'z')
      return false;
  return true;
}
static_assert(keywordsAreShortAndLowerCase(),
              "keywordKind's quick test must hold for every keyword");

TokenKind keywordKind(std::string_view word) {
  // Every keyword is 2 to 8 lower-case letters: most identifiers are ruled out at once.
  if (word.size() < 2 || word.size() > 8 || word[0] < 'a' || word[0] > 'z') return TokenKind::Ident;
  for (const auto &[spelling, kind] : kKeywords) {
    if (spelling == word) return kind;
  }
  return TokenKind::Ident;
}

bool isKeyword(TokenKind kind) { return kind >= TokenKind::KwAnd && kind <= TokenKind::KwWhile; }

std::string_view tokenSpelling(TokenKind kind) {
  for (const auto &[spelling, k] : kKeywords) {
    if (k == kind) return spelling;
  }
  switch (kind) {
    case TokenKind::LParen:
      return "(";
    case TokenKind::RParen:
      return ")";
    case TokenKind::LBracket:
      return "[";
    case TokenKind::RBracket:
      return "]";
    case TokenKind::LBrace:
      return "{";
    case TokenKind::RBrace:
      return "}";
    case TokenKind::Comma:
      return ",";
    case TokenKind::Semi:
      return ";";
    case TokenKind::Colon:
      return ":";
    case TokenKind::Dot:
      return ".";
    case TokenKind::DotDot:
      return "..";
    case TokenKind::Arrow:
      return "->";
    case TokenKind::Assign:
      return "=";
    case TokenKind::EqEq:
      return "==";
    case TokenKind::NotEq:
      return "!=";
    case TokenKind::Lt:
      return "<";
    case TokenKind::Le:
      return "<=";
    case TokenKind::Gt:
      return ">";
    case TokenKind::Ge:
      return ">=";
    case TokenKind::Plus:
      return "+";
    case TokenKind::Minus:
      return "-";
    case TokenKind::Star:
      return "*";
    case TokenKind::Slash:
      return "/";
    case TokenKind::Percent:
      return "%";
    case TokenKind::PlusEq:
      return "+=";
    case TokenKind::MinusEq:
      return "-=";
    case TokenKind::StarEq:
      return "*=";
    case TokenKind::SlashEq:
      return "/=";
    case TokenKind::PercentEq:
      return "%=";
    case TokenKind::Amp:
      return "&";
    case TokenKind::Pipe:
      return "|";
    case TokenKind::Caret:
      return "^";
    case TokenKind::Tilde:
      return "~";
    case TokenKind::Shl:
      return "<<";
    case TokenKind::Shr:
      return ">>";
    case TokenKind::Ushr:
      return ">>>";
    case TokenKind::AmpEq:
      return "&=";
    case TokenKind::PipeEq:
      return "|=";
    case TokenKind::CaretEq:
      return "^=";
    case TokenKind::ShlEq:
      return "<<=";
    case TokenKind::ShrEq:
      return ">>=";
    case TokenKind::UshrEq:
      return ">>>=";
    default:
      return "";
  }
}

std::string describeKind(TokenKind kind) {
  switch (kind) {
    case TokenKind::Eof:
      return "end of file";
    case TokenKind::Newline:
      return "end of line";
    case TokenKind::Invalid:
      return "an invalid character";
    case TokenKind::Ident:
      return "identifier";
    case TokenKind::Int:
    case TokenKind::Float:
      return "number";
    case TokenKind::Text:
      return "text literal";
    default:
      return "'" + std::string(tokenSpelling(kind)) + "'";
  }
}

std::string describeToken(const Token &token) {
  if (token.kind == TokenKind::Ident) return "identifier '" + token.text + "'";
  return describeKind(token.kind);
}

}  // namespace cairn::front

namespace cairn::front {

bool startsStatementOnly(TokenKind kind) {
  switch (kind) {
    case TokenKind::KwLet:
    case TokenKind::KwVar:
    case TokenKind::KwIf:
    case TokenKind::KwWhile:
    case TokenKind::KwFor:
    case TokenKind::KwReturn:
    case TokenKind::KwBreak:
    case TokenKind::KwContinue:
    case TokenKind::KwAtomic:
      return true;
    default:
      return false;
  }
}

bool startsDeclOnly(TokenKind kind) {
  return kind == TokenKind::KwClass || kind == TokenKind::KwImport || kind == TokenKind::KwExtern ||
         kind == TokenKind::KwOverride;
}

}  // namespace cairn::front
