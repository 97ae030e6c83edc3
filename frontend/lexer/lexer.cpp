// The lexer (lexer.h): a single pass over the bytes of one file.
#include "lexer/lexer.h"

#include <charconv>
#include <cstdio>
#include <vector>

#include "lexer/lookalikes.h"
#include "lexer/name_chars.h"
#include "lexer/nfc.h"

namespace cairn::front {
namespace {

constexpr uint64_t kTwoTo63 = uint64_t{1} << 63;

bool isDigit(char c) { return c >= '0' && c <= '9'; }
bool isHexDigit(char c) { return isDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }
bool isAsciiWord(std::string_view w) {
  for (char c : w)
    if (static_cast<unsigned char>(c) >= 0x80) return false;
  return true;
}
bool isIdentStart(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
bool isIdentChar(char c) { return isIdentStart(c) || isDigit(c); }
int hexValue(char c) {
  if (isDigit(c)) return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  return c - 'A' + 10;
}

// Rule 3a of lexer.h: the tokens after which a line break ends a statement.
bool canEndStatement(TokenKind kind) {
  switch (kind) {
    case TokenKind::Ident:
    case TokenKind::Int:
    case TokenKind::Float:
    case TokenKind::Text:
    case TokenKind::KwTrue:
    case TokenKind::KwFalse:
    case TokenKind::KwNil:
    case TokenKind::KwSelf:
    case TokenKind::RParen:
    case TokenKind::RBracket:
    case TokenKind::RBrace:
    case TokenKind::KwReturn:
    case TokenKind::KwBreak:
    case TokenKind::KwContinue:
    case TokenKind::Invalid:  // keeps the line structure around a bad character
      return true;
    default:
      return false;
  }
}

// Rule 4 of lexer.h: keywords that never stand inside parentheses or brackets.
bool onlyStartsStatement(TokenKind kind) {
  return startsStatementOnly(kind) || startsDeclOnly(kind);
}

// The ASCII operator for a mathematical symbol typed (or pasted) in its place, or for a
// full-width form (U+FF01 to U+FF5E, an input method's); "" for other characters.
std::string asciiOperatorFor(uint32_t cp) {
  if (cp >= 0xFF01 && cp <= 0xFF5E) return std::string(1, static_cast<char>(cp - 0xFF01 + 0x21));
  switch (cp) {
    case 0x00D7:  // multiplication sign
    case 0x22C5:  // dot operator
    case 0x2219:  // bullet operator
    case 0x2217:  // asterisk operator
      return "*";
    case 0x00F7:
    case 0x2215:  // division slash
      return "/";
    case 0x2212:  // minus sign
    case 0x2013:  // en dash
    case 0x2014:  // em dash
      return "-";
    case 0x2260:
      return "!=";
    case 0x2264:
    case 0x2266:
    case 0x2A7D:
      return "<=";
    case 0x2265:
    case 0x2267:
    case 0x2A7E:
      return ">=";
    case 0x2192:
      return "->";
    case 0x2227:
      return "and";
    case 0x2228:
      return "or";
    case 0x00AC:
      return "not";
    case 0x2026:
      return "..";
    default:
      return "";
  }
}

std::string codePointName(uint32_t cp) {
  char buffer[16];
  std::snprintf(buffer, sizeof buffer, "U+%04X", static_cast<unsigned>(cp));
  return buffer;
}

// What a code point that shows as a space, or as nothing, is (pasted from a web page or a word
// processor it looks like an ordinary space, or like nothing at all); nullptr for the others.
const char *invisibleName(uint32_t cp) {
  if (cp >= 0x80 && cp <= 0x9F) return "a control character";
  switch (cp) {
    case 0x00A0:
      return "a no-break space";
    case 0x00AD:
      return "a soft hyphen";
    case 0x200B:
      return "a zero-width space";
    case 0x200C:
      return "a zero-width non-joiner";
    case 0x200D:
      return "a zero-width joiner";
    case 0x200E:
    case 0x200F:
      return "a direction mark";
    case 0x2028:
      return "a line separator";
    case 0x2029:
      return "a paragraph separator";
    case 0x202F:
      return "a narrow no-break space";
    case 0x205F:
      return "a mathematical space";
    case 0x2060:
      return "a word joiner";
    case 0x3000:
      return "an ideographic space";
    case 0xFEFF:
      return "a byte order mark, or zero-width no-break space";
    case 0x061C:
    case 0x202A:
    case 0x202B:
    case 0x202C:
    case 0x202D:
    case 0x202E:
    case 0x2066:
    case 0x2067:
    case 0x2068:
    case 0x2069:
      return "a bidirectional control, which changes the order the line is shown in";
    case 0x115F:
    case 0x1160:
    case 0x3164:
    case 0xFFA0:
      return "a Hangul filler, which shows as a space or as nothing";
    default:
      if (cp >= 0xFE00 && cp <= 0xFE0F) return "a variation selector, which shows as nothing";
      if (cp >= 0x2000 && cp <= 0x200A) return "a typographic space";
      // The other default-ignorable code points (name_chars.h, N1).
      if (isDefaultIgnorable(cp)) return "a character that shows as nothing";
      return nullptr;
  }
}

}  // namespace

// The lexer's state: the cursor in the text, the brackets open, the line break pending a
// decision (rule 3 of lexer.h) and the tokens made but not yet handed out.
class Lexer::Impl {
 public:
  Impl(const SourceFile &file, Diagnostics &diags) : file_(file), diags_(diags), src_(file.text()) {
    if (src_.substr(0, 3) == "\xEF\xBB\xBF") pos_ = 3;
  }

  void setQuietIncrements(bool quiet) { quiet_increments_ = quiet; }

  Token next() {
    while (ready_head_ == ready_.size()) {
      ready_.clear();  // (keeps its capacity)
      ready_head_ = 0;
      if (done_) return eof_;
      skipTrivia();
      if (pos_ >= src_.size()) {
        finish();
      } else {
        lexToken();
      }
    }
    return std::move(ready_[ready_head_++]);
  }

 private:
  // Eof stands at the end of the text, before a final line break, so that "found end of file"
  // points at the last line.
  void finish() {
    size_t at = src_.size();
    if (at > 0 && src_[at - 1] == '\n') --at;
    if (at > 0 && src_[at - 1] == '\r') --at;
    eof_.kind = TokenKind::Eof;
    eof_.span = span(at, at);
    eof_.newline_before = saw_newline_;
    eof_.unterminated = comment_open_at_end_;
    ready_.push_back(eof_);
    done_ = true;
  }

  const SourceFile &file_;
  Diagnostics &diags_;
  std::string_view src_;
  size_t pos_ = 0;
  // Made, not yet handed out: ready_[ready_head_..]. A vector emptied when all are handed out
  // (a few at a time), not a deque, which allocated and freed a block every six tokens.
  std::vector<Token> ready_;
  size_t ready_head_ = 0;
  TokenKind last_ = TokenKind::Eof;   // the kind of the last token made (Eof: none yet)
  bool comment_open_at_end_ = false;  // a '/*' comment ran to the end of the file
  bool last_new_ = false;             // the last token made is the name `new` (rule 3a)
  Token eof_;
  bool done_ = false;
  std::vector<TokenKind> brackets_;  // the open ( [ { from the outermost in
  bool saw_newline_ = false;         // a line break since the last token
  size_t newline_offset_ = 0;        // the first such line break
  bool quiet_increments_ = false;    // `++`, `--` without an error (setQuietIncrements)
  // The statement being lexed, at the level of braces (for `=!`, lexAssignBang): the kinds of
  // its first two tokens, and whether an '=' came after them. (The fields of `new T { a: x }`
  // are lexed as a statement `a: x`, told apart by its ':'.)
  TokenKind stmt_first_ = TokenKind::Eof;
  TokenKind stmt_second_ = TokenKind::Eof;
  bool stmt_assigned_ = false;
  TokenKind made_last_ = TokenKind::Eof;  // the last token made, Newline tokens too

  // Whether a token made now begins a statement (after a line break that counted, ';', '{',
  // '}', or nothing).
  bool atStatementStart() const {
    return made_last_ == TokenKind::Eof || made_last_ == TokenKind::Newline ||
           made_last_ == TokenKind::Semi || made_last_ == TokenKind::LBrace ||
           made_last_ == TokenKind::RBrace;
  }

  Span span(size_t begin, size_t end) const {
    return Span{file_.id(), static_cast<uint32_t>(begin), static_cast<uint32_t>(end)};
  }
  char peekc(size_t k = 0) const { return pos_ + k < src_.size() ? src_[pos_ + k] : '\0'; }
  bool has(size_t k = 0) const { return pos_ + k < src_.size(); }

  // "'x'", "end of line", "end of file", "U+0007": the character at `offset`, for messages.
  std::string describeChar(size_t offset) const {
    if (offset >= src_.size()) return "end of file";
    const char c = src_[offset];
    if (c == '\n' || (c == '\r' && offset + 1 < src_.size() && src_[offset + 1] == '\n')) {
      return "end of line";
    }
    if (c == '\t') return "a tab";
    if (c >= 0x20 && c < 0x7F) return "'" + std::string(1, c) + "'";
    uint32_t cp = 0;
    const int length = utf8Sequence(src_, offset, &cp);
    if (length == 0) {
      char buffer[32];
      std::snprintf(buffer, sizeof buffer, "byte 0x%02X (not UTF-8)",
                    static_cast<unsigned>(static_cast<unsigned char>(c)));
      return buffer;
    }
    if (length == 1) return codePointName(cp);  // a control character
    if (const char *what = invisibleName(cp)) return codePointName(cp) + " (" + what + ")";
    // The code point too: a combining mark shows on the quote before it, and many characters
    // look like others.
    return "'" + std::string(src_.substr(offset, static_cast<size_t>(length))) + "' (" +
           codePointName(cp) + ")";
  }

  void noteNewline(size_t offset) {
    if (!saw_newline_) newline_offset_ = offset;
    saw_newline_ = true;
  }

  // A byte at pos_ that starts no valid UTF-8 sequence (a file saved as Latin-1 or
  // Windows-1252): the error, with what to do. `escape`: the hint shows the character's escape
  // (in a text literal; a comment has none).
  void reportBadByte(DiagId id, bool escape) {
    const auto b = static_cast<unsigned char>(peekc());
    char hex[8];
    std::snprintf(hex, sizeof hex, "%02X", b);
    Diagnostic &d = diags_.report(id, span(pos_, pos_ + 1), {hex});
    // A REPL input (`<input 3>`) is no file: what sent it is not UTF-8.
    const std::string fix = file_.path().starts_with("<")
                                ? "the input is not UTF-8: set the terminal (or what "
                                  "feeds the session) to UTF-8"
                                : "the file is not saved as UTF-8: save it as UTF-8";
    if (b >= 0xA0)
      d.withHint(fix + " (if it is Latin-1, this byte is U+00" + hex +
                 (escape ? std::string(", written \\u{") + hex + "})" : std::string(")")));
    else
      d.withHint(fix);
  }

  // Steps over one character of a comment at pos_ (a byte, or a UTF-8 sequence whole); a byte
  // that is not UTF-8 is an error, once per comment (*reported).
  void skipCommentChar(bool *reported) {
    if (static_cast<unsigned char>(peekc()) < 0x80) {
      ++pos_;
      return;
    }
    uint32_t cp = 0;
    const int n = utf8Sequence(src_, pos_, &cp);
    if (n == 0 && !*reported) {
      *reported = true;
      reportBadByte(DiagId::CommentNotUtf8, false);
    }
    pos_ += n == 0 ? 1 : static_cast<size_t>(n);
  }

  void skipTrivia() {
    while (has()) {
      const char c = peekc();
      if (c == '\n') {
        noteNewline(pos_);
        ++pos_;
      } else if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
        ++pos_;
      } else if (c == '/' && peekc(1) == '/') {
        bool reported = false;
        while (has() && peekc() != '\n') skipCommentChar(&reported);
      } else if (c == '/' && peekc(1) == '*') {
        skipBlockComment();
      } else {
        break;
      }
    }
  }

  void skipBlockComment() {
    const size_t start = pos_;
    pos_ += 2;
    int depth = 1;
    bool reported = false;
    while (has() && depth > 0) {
      if (peekc() == '/' && peekc(1) == '*') {
        ++depth;
        pos_ += 2;
      } else if (peekc() == '*' && peekc(1) == '/') {
        --depth;
        pos_ += 2;
      } else {
        if (peekc() == '\n') noteNewline(pos_);
        skipCommentChar(&reported);
      }
    }
    if (depth > 0) {
      comment_open_at_end_ = true;
      diags_.report(DiagId::UnterminatedComment, span(start, start + 2))
          .withHint("a '/*' comment ends at its matching '*/'; comments nest");
    }
  }

  // Appends a token, first deciding whether the line break before it is a Newline token
  // (rules 3 and 4 of lexer.h), then tracking the brackets it opens or closes.
  void push(Token t) {
    bool recovering = false;
    if (onlyStartsStatement(t.kind)) {
      while (!brackets_.empty() && brackets_.back() != TokenKind::LBrace) {
        brackets_.pop_back();
        recovering = true;
      }
    }
    if (saw_newline_) {
      t.newline_before = true;
      const bool significant = brackets_.empty() || brackets_.back() == TokenKind::LBrace;
      if (significant && last_ != TokenKind::Eof) {
        if ((canEndStatement(last_) && !last_new_) || (recovering && last_ != TokenKind::Newline)) {
          Token nl;
          nl.kind = TokenKind::Newline;
          nl.span = span(newline_offset_, newline_offset_ + 1);
          ready_.push_back(std::move(nl));
          made_last_ = TokenKind::Newline;
        }
      }
      saw_newline_ = false;
    }
    const bool brace_level = brackets_.empty() || brackets_.back() == TokenKind::LBrace;
    if (brace_level) {
      if (atStatementStart()) {
        stmt_first_ = t.kind;
        stmt_second_ = TokenKind::Eof;
        stmt_assigned_ = false;
      } else {
        if (stmt_second_ == TokenKind::Eof) stmt_second_ = t.kind;
        if (t.kind == TokenKind::Assign) stmt_assigned_ = true;
      }
    }
    trackBracket(t.kind);
    last_ = t.kind;
    made_last_ = t.kind;
    last_new_ = t.kind == TokenKind::Ident && t.text == "new";
    ready_.push_back(std::move(t));
  }

  void trackBracket(TokenKind kind) {
    TokenKind opener;
    switch (kind) {
      case TokenKind::LParen:
      case TokenKind::LBracket:
      case TokenKind::LBrace:
        brackets_.push_back(kind);
        return;
      case TokenKind::RParen:
        opener = TokenKind::LParen;
        break;
      case TokenKind::RBracket:
        opener = TokenKind::LBracket;
        break;
      case TokenKind::RBrace:
        opener = TokenKind::LBrace;
        break;
      default:
        return;
    }
    for (size_t i = brackets_.size(); i > 0; --i) {
      if (brackets_[i - 1] == opener) {
        brackets_.resize(i - 1);
        return;
      }
    }
  }

  void pushSimple(TokenKind kind, size_t length) {
    Token t;
    t.kind = kind;
    t.span = span(pos_, pos_ + length);
    pos_ += length;
    push(std::move(t));
  }

  void lexToken() {
    const char c = peekc();
    if (isIdentStart(c) || nameCharAt(src_, pos_, true) != 0) return lexIdent();
    if (isDigit(c)) return lexNumber();
    if (c == '"') return lexText();
    const char n = peekc(1);
    switch (c) {
      case '(':
        return pushSimple(TokenKind::LParen, 1);
      case ')':
        return pushSimple(TokenKind::RParen, 1);
      case '[':
        return pushSimple(TokenKind::LBracket, 1);
      case ']':
        return pushSimple(TokenKind::RBracket, 1);
      case '{':
        return pushSimple(TokenKind::LBrace, 1);
      case '}':
        return pushSimple(TokenKind::RBrace, 1);
      case ',':
        return pushSimple(TokenKind::Comma, 1);
      case ';':
        return pushSimple(TokenKind::Semi, 1);
      case ':':
        return pushSimple(TokenKind::Colon, 1);
      case '.':
        return n == '.' ? pushSimple(TokenKind::DotDot, 2) : pushSimple(TokenKind::Dot, 1);
      case '-':
        if (n == '>') return pushSimple(TokenKind::Arrow, 2);
        if (n == '=') return pushSimple(TokenKind::MinusEq, 2);
        if (n == '-' && endsAfter(2)) return lexIncrement();  // `i--` (`a--b` is a - -b)
        return pushSimple(TokenKind::Minus, 1);
      case '=':
        if (n == '!' && peekc(2) != '=') return lexAssignBang();
        return n == '=' ? pushSimple(TokenKind::EqEq, 2) : pushSimple(TokenKind::Assign, 1);
      case '!':
        if (n == '=') return pushSimple(TokenKind::NotEq, 2);
        break;
      case '<':
        if (n == '<')
          return peekc(2) == '=' ? pushSimple(TokenKind::ShlEq, 3) : pushSimple(TokenKind::Shl, 2);
        return n == '=' ? pushSimple(TokenKind::Le, 2) : pushSimple(TokenKind::Lt, 1);
      case '>':
        if (n == '>' && peekc(2) == '>') {
          return peekc(3) == '=' ? pushSimple(TokenKind::UshrEq, 4)
                                 : pushSimple(TokenKind::Ushr, 3);
        }
        if (n == '>')
          return peekc(2) == '=' ? pushSimple(TokenKind::ShrEq, 3) : pushSimple(TokenKind::Shr, 2);
        return n == '=' ? pushSimple(TokenKind::Ge, 2) : pushSimple(TokenKind::Gt, 1);
      case '&':
        return n == '=' ? pushSimple(TokenKind::AmpEq, 2) : pushSimple(TokenKind::Amp, 1);
      case '|':
        return n == '=' ? pushSimple(TokenKind::PipeEq, 2) : pushSimple(TokenKind::Pipe, 1);
      case '^':
        return n == '=' ? pushSimple(TokenKind::CaretEq, 2) : pushSimple(TokenKind::Caret, 1);
      case '~':
        return pushSimple(TokenKind::Tilde, 1);
      case '+':
        if (n == '+') return lexIncrement();  // never Cairn: `+` has no unary form
        return n == '=' ? pushSimple(TokenKind::PlusEq, 2) : pushSimple(TokenKind::Plus, 1);
      case '*':
        return n == '=' ? pushSimple(TokenKind::StarEq, 2) : pushSimple(TokenKind::Star, 1);
      case '/':
        return n == '=' ? pushSimple(TokenKind::SlashEq, 2) : pushSimple(TokenKind::Slash, 1);
      case '%':
        return n == '=' ? pushSimple(TokenKind::PercentEq, 2) : pushSimple(TokenKind::Percent, 1);
      default:
        break;
    }
    lexInvalid();
  }

  // Whether the character at pos_ + k can begin a token (or whitespace or a comment).
  bool startsToken(size_t k) const {
    const char c = peekc(k);
    if (isIdentChar(c) || c == '"' || nameCharAt(src_, pos_ + k, true) != 0) return true;
    switch (c) {
      case ' ':
      case '\t':
      case '\r':
      case '\n':
      case '\f':
      case '\v':
      case '(':
      case ')':
      case '[':
      case ']':
      case '{':
      case '}':
      case ',':
      case ';':
      case ':':
      case '.':
      case '-':
      case '=':
      case '<':
      case '>':
      case '+':
      case '*':
      case '/':
      case '%':
      case '&':
      case '|':
      case '^':
      case '~':
        return true;
      case '!':
        return peekc(k + 1) == '=';
      default:
        return false;
    }
  }

  // Whether only blanks stand between pos_ + k and the end of the line, a ';', a closing
  // bracket, a ',', a comment or the end of the file: what `i--` is followed by.
  bool endsAfter(size_t k) const {
    while (peekc(k) == ' ' || peekc(k) == '\t') ++k;
    const char c = peekc(k);
    return c == '\0' || c == '\n' || c == '\r' || c == ';' || c == ')' || c == ']' || c == '}' ||
           c == ',' || (c == '/' && (peekc(k + 1) == '/' || peekc(k + 1) == '*'));
  }

  // `++` or `--` as C's increment and decrement: one Invalid token (it ends a statement like
  // an operand, so the next line is not taken for its operand) and one error, unless quiet.
  void lexIncrement() {
    const std::string op(2, peekc());
    if (!quiet_increments_) {
      diags_.report(DiagId::IncrementOperator, span(pos_, pos_ + 2), {op})
          .withHint(std::string("write 'x ") + op[0] + "= 1'");
    }
    Token t;
    t.kind = TokenKind::Invalid;
    t.text = op;
    t.span = span(pos_, pos_ + 2);
    pos_ += 2;
    push(std::move(t));
  }

  // `=!` (not `=!=`): an error at the '!', and the tokens it was most likely meant as, so that
  // the parser goes on without a second error. Where an assignment can stand (a statement that
  // starts with a name, `let` or `var`, before its '=', outside brackets), `x =! y` is
  // `x = not y`; anywhere else (`if a =! b`, `return a =! b`, `f(a =! b)`, `c = a =! b`, a
  // field's value in `new T { f: a =! b }`) it is `a != b`.
  void lexAssignBang() {
    const bool brace_level = brackets_.empty() || brackets_.back() == TokenKind::LBrace;
    const bool assignment = brace_level && !atStatementStart() && !stmt_assigned_ &&
                            !saw_newline_ && stmt_second_ != TokenKind::Colon &&
                            (stmt_first_ == TokenKind::Ident || stmt_first_ == TokenKind::KwLet ||
                             stmt_first_ == TokenKind::KwVar || stmt_first_ == TokenKind::KwSelf);
    Diagnostic &d = diags_.report(DiagId::UnexpectedChar, span(pos_ + 1, pos_ + 2), {"'!'"});
    if (!assignment) {
      d.withHint("did you mean '!='? ('=!' is not an operator)");
      pushSimple(TokenKind::NotEq, 2);
      return;
    }
    d.withHint(
        "to assign a negation, write `= not x` ('=!' is not an operator; '!=' is not-equal)");
    pushSimple(TokenKind::Assign, 1);
    Token t;
    t.kind = TokenKind::KwNot;
    t.text = "not";
    t.span = span(pos_, pos_ + 1);
    ++pos_;
    push(std::move(t));
  }

  // A character that starts no token. A run of them (with nothing between) is one Invalid
  // token and one error, about its first character.
  void lexInvalid() {
    const size_t start = pos_;
    uint32_t cp = 0;
    const int length = utf8Sequence(src_, pos_, &cp);
    size_t n = length == 0 ? 1 : static_cast<size_t>(length);
    if (peekc() == '\'') {
      // Text in single quotes ('a', 'abc') is one error, not one for each quote.
      size_t close = pos_ + 1;
      while (close < src_.size() && src_[close] != '\'' && src_[close] != '\n') ++close;
      if (close < src_.size() && src_[close] == '\'') n = close + 1 - pos_;
    }
    // Text in typographic quotes (“text”, ‘text’: U+201C/U+201D, U+2018/U+2019, as a word
    // processor writes them) is one error too, up to the closing quote on the line.
    const bool curly = cp == 0x201C || cp == 0x2018;
    if (curly) {
      const std::string_view closing = cp == 0x201C ? "\u201D" : "\u2019";
      const size_t end_of_line = src_.find('\n', pos_);
      const size_t close = src_.substr(0, end_of_line).find(closing, pos_ + n);
      if (close != std::string_view::npos) n = close + closing.size() - pos_;
    }
    Diagnostic &d =
        diags_.report(DiagId::UnexpectedChar, span(pos_, pos_ + n), {describeChar(pos_)});
    switch (peekc()) {
      case '!':  // (a lone '=' before it is lexAssignBang's)
        d.withHint("use 'not' to negate a condition ('!=' is not-equal)");
        break;
      case '\'':
        d.withHint("text literals are written in double quotes: \"text\"");
        break;
      case '?':
        d.withHint("there is no '?:' operator: use 'if c { ... } else { ... }'");
        break;
      case '#':
        d.withHint("a comment starts with // (to the end of the line) or is /* ... */");
        break;
      default:
        if (curly || cp == 0x201D || cp == 0x2019) {
          d.withHint("text literals are written in straight double quotes: \"text\"");
        } else if (length > 1 && invisibleName(cp) != nullptr) {
          d.withHint(
              "it looks like a space, or like nothing (text pasted from a web page or a "
              "document has them): delete it, or type an ordinary space");
        } else if (const std::string op = asciiOperatorFor(cp); !op.empty()) {
          d.withHint("Cairn writes it '" + op + "'");
        } else if (length > 1 && isNameContinue(cp)) {
          d.withHint("a name cannot begin with it (a digit or a mark): it may follow a letter");
        }
        break;
    }
    pos_ += n;
    while (has() && !startsToken(0)) {
      const int more = utf8Sequence(src_, pos_, &cp);
      pos_ += more == 0 ? 1 : static_cast<size_t>(more);
    }
    Token t;
    t.kind = TokenKind::Invalid;
    t.span = span(start, pos_);
    push(std::move(t));
  }

  void lexIdent() {
    const size_t start = pos_;
    while (has()) {
      if (isIdentChar(peekc())) {
        ++pos_;
      } else if (const size_t n = nameCharAt(src_, pos_, false)) {
        pos_ += n;
      } else {
        break;
      }
    }
    Token t;
    t.span = span(start, pos_);
    const std::string_view word = src_.substr(start, pos_ - start);
    t.kind = keywordKind(word);
    if (t.kind == TokenKind::Ident) t.text = toNfc(word);  // rule 5: names are in NFC
    if (t.kind == TokenKind::Ident && !isAsciiWord(word)) {
      // `lеt` with a Cyrillic `е`: never meant as a name (rule 5); read as the keyword.
      const std::string latin = latinLookalike(t.text);
      const TokenKind keyword = keywordKind(latin);
      if (keyword != TokenKind::Ident) {
        diags_.report(DiagId::LookalikeKeyword, t.span, {t.text, latin, lookalikeNote(t.text)})
            .withHint("type the keyword in Latin letters");
        t.kind = keyword;
        t.text.clear();
        t.reported = true;
      }
    }
    push(std::move(t));
  }

  // Digits of one kind, with single underscores between them. Reports (once per literal, via
  // *reported) a missing digit; `what` names the digits ("a digit"), `after` what came before.
  size_t scanDigits(bool (*is_digit)(char), const char *what, std::string_view after,
                    bool *reported) {
    size_t count = 0;
    while (has()) {
      const char c = peekc();
      if (is_digit(c)) {
        ++pos_;
        ++count;
      } else if (c == '_' && count > 0) {
        if (is_digit(peekc(1))) {
          ++pos_;
        } else {
          numberError(DiagId::NumberMissingDigits, span(pos_, pos_ + 1),
                      {what, "_", describeChar(pos_ + 1)}, reported);
          while (peekc() == '_') ++pos_;
        }
      } else {
        break;
      }
    }
    if (count == 0) {
      numberError(DiagId::NumberMissingDigits, span(pos_, pos_ + 1),
                  {what, std::string(after), describeChar(pos_)}, reported);
    }
    return count;
  }

  void numberError(DiagId id, Span where, std::vector<std::string> args, bool *reported) {
    if (*reported) return;
    *reported = true;
    diags_.report(id, where, std::move(args));
  }

  // The hint for a number followed by letters (the error was just reported): binary and octal
  // literals (`0b101`, `0o17`) with the value they meant, and C's type suffixes (`10L`, `1.5f`).
  void suffixHint(Diagnostic &d, size_t start, const std::string &suffix) {
    const char base = static_cast<char>(suffix[0] | 0x20);  // suffix is not empty
    // `0b101`: the number is the lone 0 before the suffix.
    if (pos_ - start == suffix.size() + 1 && src_[start] == '0' && suffix.size() > 1 &&
        (base == 'b' || base == 'o')) {
      const int radix = base == 'b' ? 2 : 8;
      uint64_t value = 0;
      bool ok = true;
      for (size_t i = 1; ok && i < suffix.size(); ++i) {
        const char c = suffix[i];
        if (c == '_') continue;
        const auto digit = static_cast<uint64_t>(c - '0');
        ok = c >= '0' && c < '0' + radix && value <= (UINT64_MAX - digit) / radix;
        if (ok) value = value * radix + digit;
      }
      if (ok) {
        char hex[32];
        std::snprintf(hex, sizeof hex, "0x%llX", static_cast<unsigned long long>(value));
        d.withHint(std::string("Cairn has no ") + (radix == 2 ? "binary" : "octal") +
                   " literals: write " + hex + " (or " +
                   std::to_string(static_cast<int64_t>(value)) + ")");
        return;
      }
    }
    static const char *const c_suffixes[] = {"l",  "L",   "ll",  "LL", "u", "U", "ul",
                                             "UL", "ull", "ULL", "f",  "F", "d", "D"};
    for (const char *c : c_suffixes) {
      if (suffix == c) {
        d.withHint(
            "a number takes no suffix: an int literal is 64-bit, and a literal with a '.' or "
            "an exponent is a float (a double)");
        return;
      }
    }
  }

  void lexNumber() {
    const size_t start = pos_;
    bool reported = false;
    bool is_float = false;
    bool hex = false;
    if (peekc() == '0' && (peekc(1) == 'x' || peekc(1) == 'X')) {
      hex = true;
      pos_ += 2;
      scanDigits(isHexDigit, "a hex digit", src_.substr(start, 2), &reported);
    } else {
      scanDigits(isDigit, "a digit", "", &reported);
      // A '.' is a fraction only before a digit: `1..5` is 1, '..', 5 and `x.0.1` stays a field.
      if (peekc() == '.' && isDigit(peekc(1))) {
        is_float = true;
        ++pos_;
        scanDigits(isDigit, "a digit", ".", &reported);
      } else if (peekc() == '.' && peekc(1) != '.' &&
                 ((!isIdentStart(peekc(1)) && nameCharAt(src_, pos_ + 1, true) == 0) ||
                  ((peekc(1) == 'e' || peekc(1) == 'E') &&
                   (isDigit(peekc(2)) ||
                    ((peekc(2) == '+' || peekc(2) == '-') && isDigit(peekc(3))))))) {
        // `1.` (at a line's end it would continue the statement: `1.println(x)`) or `1.e5`:
        // a float with no digit after its point.
        is_float = true;
        ++pos_;
        if (!reported) {
          reported = true;
          diags_
              .report(DiagId::NumberMissingDigits, span(pos_ - 1, pos_),
                      {"a digit", ".", describeChar(pos_)})
              .withHint("a float has digits on both sides of its '.', as in 1.0 and 2.0e5");
        }
      }
      if (peekc() == 'e' || peekc() == 'E') {
        const size_t sign = (peekc(1) == '+' || peekc(1) == '-') ? 1 : 0;
        if (isDigit(peekc(1 + sign))) {
          is_float = true;
          pos_ += 1 + sign;
          scanDigits(isDigit, "a digit", "", &reported);
        } else if (sign == 1 || !isIdentChar(peekc(1))) {
          // `1e` or `1e+` followed by no digit; `1else` is a suffix, below.
          is_float = true;
          const std::string marker(src_.substr(pos_, 1 + sign));
          pos_ += 1 + sign;
          numberError(DiagId::NumberMissingDigits, span(pos_, pos_ + 1),
                      {"a digit", marker, describeChar(pos_)}, &reported);
        }
      }
    }
    if (has() && (isIdentChar(peekc()) || nameCharAt(src_, pos_, false) != 0)) {
      const size_t suffix = pos_;
      while (const size_t n = nameCharAt(src_, pos_, false)) pos_ += n;
      const std::string text(src_.substr(suffix, pos_ - suffix));
      if (!reported) {
        reported = true;
        suffixHint(diags_.report(DiagId::NumberSuffix, span(suffix, pos_), {text}), start, text);
      }
    }

    Token t;
    t.span = span(start, pos_);
    t.text = std::string(src_.substr(start, pos_ - start));
    std::string digits;  // without underscores, prefix or suffix
    for (size_t i = start + (hex ? 2 : 0); i < pos_; ++i) {
      const char c = src_[i];
      if (c == '_') continue;
      if (!(hex ? isHexDigit(c)
                : (isDigit(c) || c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-'))) {
        break;
      }
      digits.push_back(c);
    }
    t.reported = reported;
    if (is_float) {
      t.kind = TokenKind::Float;
      if (!reported) t.float_value = floatValue(digits, t.span, t.text);
    } else {
      t.kind = TokenKind::Int;
      t.hex = hex;
      if (!reported) t.int_value = intValue(digits, hex ? 16 : 10, t.span, t.text);
    }
    push(std::move(t));
  }

  uint64_t intValue(const std::string &digits, unsigned base, Span where, const std::string &text) {
    uint64_t value = 0;
    bool overflow = false;
    for (char c : digits) {
      const auto d = static_cast<uint64_t>(hexValue(c));
      if (value > (UINT64_MAX - d) / base) {
        overflow = true;
        break;
      }
      value = value * base + d;
    }
    if (base == 16) {
      // Hex literals name the 64 bits of an int: up to 0xFFFFFFFFFFFFFFFF (which is -1).
      if (overflow) {
        diags_.report(DiagId::IntOutOfRange, where, {text})
            .withHint("a hex literal has at most 16 digits (64 bits)");
        return 0;
      }
      return value;
    }
    const bool after_minus = last_ == TokenKind::Minus;
    if (overflow || value > kTwoTo63 || (value == kTwoTo63 && !after_minus)) {
      diags_.report(DiagId::IntOutOfRange, where, {text})
          .withHint("an int is 64-bit: from -9223372036854775808 to 9223372036854775807");
      return 0;
    }
    return value;
  }

  double floatValue(const std::string &digits, Span where, const std::string &text) {
    double value = 0;
    const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
    (void)end;
    if (ec == std::errc::result_out_of_range) {
      // Too large, or too small: a nonzero literal that would round to 0.0 (from_chars takes
      // a literal of zeros, `0e-999`, as 0 in range).
      diags_.report(DiagId::FloatOutOfRange, where, {text})
          .withHint(decimalMagnitude(digits) > 0
                        ? "a float is an IEEE 754 double: at most about 1.8e308"
                        : "a float is an IEEE 754 double: a nonzero one is at least about "
                          "4.9e-324, and this literal would round to 0.0 (write 0.0 for zero)");
      return 0;
    }
    return value;
  }

  // Roughly log10 of a decimal literal's value (the position of its first nonzero digit
  // relative to the point, plus the exponent): tells an overflow from an underflow.
  static long decimalMagnitude(const std::string &digits) {
    long magnitude = 0;
    bool seen_nonzero = false, seen_point = false;
    size_t i = 0;
    for (; i < digits.size() && digits[i] != 'e' && digits[i] != 'E'; ++i) {
      const char c = digits[i];
      if (c == '.') {
        seen_point = true;
      } else if (!seen_nonzero) {
        if (c != '0') {
          seen_nonzero = true;
          if (!seen_point) magnitude = 1;
        } else if (seen_point) {
          --magnitude;
        }
      } else if (!seen_point) {
        ++magnitude;
      }
    }
    if (!seen_nonzero) return -1;
    if (i < digits.size()) {
      long exponent = 0;
      const bool negative = i + 1 < digits.size() && digits[i + 1] == '-';
      for (size_t k = i + 1; k < digits.size(); ++k) {
        if (isDigit(digits[k]) && exponent < 100000) exponent = exponent * 10 + (digits[k] - '0');
      }
      magnitude += negative ? -exponent : exponent;
    }
    return magnitude;
  }

  void lexText() {
    const size_t start = pos_;
    ++pos_;  // the opening quote
    std::string value;
    bool spans_lines = false;
    bool unterminated = false;
    bool bad_byte = false;  // a byte that is not UTF-8 was reported
    while (true) {
      if (has() && peekc() == '\n' && !spans_lines && closesOnALaterLine(pos_)) {
        // Written across lines (as other languages allow): one error, and the literal runs to
        // its closing quote, so that its lines are not read as code.
        size_t end = pos_;
        if (end > start && src_[end - 1] == '\r') --end;
        diags_.report(DiagId::TextSpansLines, span(start, end))
            .withHint(
                "end it on its line and write each line break as \\n (\"a\\nb\"), or join "
                "texts of one line each with +");
        spans_lines = true;
      }
      if (!has() || (peekc() == '\n' && !spans_lines)) {
        size_t end = pos_;
        if (end > start && src_[end - 1] == '\r') --end;
        diags_.report(DiagId::UnterminatedText, span(start, end))
            .withHint("a text literal ends with '\"' on the same line; write a line break as \\n");
        unterminated = true;
        break;
      }
      const char c = peekc();
      if (c == '"') {
        ++pos_;
        break;
      }
      if (c == '\\') {
        lexEscape(value);
      } else if (static_cast<unsigned char>(c) < 0x80) {
        value.push_back(c);
        ++pos_;
      } else {
        // Source files are UTF-8: a byte that starts no valid sequence (a file saved as
        // Latin-1 or Windows-1252) is an error, once per literal, not a silent wrong byte.
        uint32_t cp = 0;
        const int n = utf8Sequence(src_, pos_, &cp);
        if (n == 0 && !bad_byte) {
          bad_byte = true;
          reportBadByte(DiagId::TextNotUtf8, true);
        }
        const size_t take = n == 0 ? 1 : static_cast<size_t>(n);
        value.append(src_.substr(pos_, take));
        pos_ += take;
      }
    }
    Token t;
    t.kind = TokenKind::Text;
    t.span = span(start, pos_);
    t.text = std::move(value);
    t.unterminated = unterminated;
    push(std::move(t));
  }

  // Whether the text literal open at `at` (a line break) looks closed on a later line: the
  // next quote (not escaped) closes it, and the rest of that quote's line holds an even number
  // of quotes (a literal merely left unclosed would take the opening quote of a later literal
  // as its end, and leave that line's closing quote unmatched).
  bool closesOnALaterLine(size_t at) const {
    size_t q = at;
    for (; q < src_.size() && src_[q] != '"'; ++q)
      if (src_[q] == '\\') ++q;
    if (q >= src_.size()) return false;
    int quotes = 0;
    for (size_t k = q + 1; k < src_.size() && src_[k] != '\n'; ++k) {
      if (src_[k] == '\\') {
        ++k;
      } else if (src_[k] == '"') {
        ++quotes;
      } else if (src_[k] == '/' && k + 1 < src_.size() && src_[k + 1] == '/' && quotes % 2 == 0) {
        break;  // a comment
      }
    }
    return quotes % 2 == 0;
  }

  void lexEscape(std::string &value) {
    const size_t start = pos_;
    ++pos_;                                 // the backslash
    if (!has() || peekc() == '\n') return;  // the literal is unterminated: lexText reports it
    const char c = peekc();
    switch (c) {
      case 'n':
        value.push_back('\n');
        break;
      case 't':
        value.push_back('\t');
        break;
      case 'r':
        value.push_back('\r');
        break;
      case '0':
        value.push_back('\0');
        break;
      case '"':
        value.push_back('"');
        break;
      case '\\':
        value.push_back('\\');
        break;
      case 'u':
        return lexUnicodeEscape(start, value);
      default: {
        uint32_t cp = 0;
        const int length = utf8Sequence(src_, pos_, &cp);
        const size_t n = length == 0 ? 1 : static_cast<size_t>(length);
        std::string shown = "\\";
        if (length == 1 && (c < 0x20 || c == 0x7F)) {
          shown = "\\" + codePointName(cp);
        } else {
          shown += std::string(src_.substr(pos_, n));
        }
        diags_.report(DiagId::UnknownEscape, span(start, pos_ + n), {shown})
            .withHint("the escapes are \\n \\t \\r \\0 \\\" \\\\ and \\u{...}");
        pos_ += n;
        return;
      }
    }
    ++pos_;
  }

  // \u{X...}: 1 to 6 hex digits naming a Unicode scalar value, appended as UTF-8.
  void lexUnicodeEscape(size_t start, std::string &value) {
    ++pos_;  // the 'u'
    if (peekc() != '{') {
      diags_.report(DiagId::UnicodeEscapeSyntax, span(start, pos_),
                    {"'{' after '\\u'", describeChar(pos_)});
      return;
    }
    ++pos_;
    const size_t digits = pos_;
    while (has() && isHexDigit(peekc())) ++pos_;
    const size_t count = pos_ - digits;
    if (count == 0 || count > 6) {
      const std::string found = count == 0 ? describeChar(pos_) : std::to_string(count) + " digits";
      diags_.report(DiagId::UnicodeEscapeSyntax, span(start, pos_), {"1 to 6 hex digits", found});
      if (peekc() == '}') ++pos_;
      return;
    }
    if (peekc() != '}') {
      diags_.report(DiagId::UnicodeEscapeSyntax, span(start, pos_), {"'}'", describeChar(pos_)});
      return;
    }
    ++pos_;
    uint32_t cp = 0;
    for (size_t i = digits; i < digits + count; ++i)
      cp = cp * 16 + static_cast<uint32_t>(hexValue(src_[i]));
    if (cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) {
      diags_.report(DiagId::UnicodeEscapeValue, span(start, pos_), {codePointName(cp)})
          .withHint(
              "a unicode scalar value is at most U+10FFFF and not a surrogate "
              "(U+D800 to U+DFFF)");
      return;
    }
    appendUtf8(value, cp);
  }
};

Lexer::Lexer(const SourceFile &file, Diagnostics &diags)
    : impl_(std::make_unique<Impl>(file, diags)) {}
Lexer::~Lexer() = default;
Token Lexer::next() { return impl_->next(); }

void Lexer::setQuietIncrements(bool quiet) { impl_->setQuietIncrements(quiet); }

std::vector<Token> tokenize(const SourceFile &file, Diagnostics &diags) {
  Lexer lexer(file, diags);
  std::vector<Token> tokens;
  do {
    tokens.push_back(lexer.next());
  } while (tokens.back().kind != TokenKind::Eof);
  return tokens;
}

}  // namespace cairn::front
