// The parser (parser.h): the token cursor, error reporting and recovery, and declarations.
// Statements are in parse_stmt.cpp, expressions and types in parse_expr.cpp.
#include "syntax/parser.h"

#include "lexer/lexer.h"
#include "syntax/parser_internal.h"

namespace cairn::front {

namespace parse_detail {

using namespace ast;

TokenKind openerOf(TokenKind close) {
  switch (close) {
    case TokenKind::RParen:
      return TokenKind::LParen;
    case TokenKind::RBracket:
      return TokenKind::LBracket;
    default:
      return TokenKind::LBrace;
  }
}

namespace {

// Tokens that may begin an expression.
bool startsExpr(TokenKind k) {
  switch (k) {
    case TokenKind::Ident:
    case TokenKind::Int:
    case TokenKind::Float:
    case TokenKind::Text:
    case TokenKind::KwTrue:
    case TokenKind::KwFalse:
    case TokenKind::KwNil:
    case TokenKind::KwSelf:
    case TokenKind::KwFn:
    case TokenKind::KwNot:
    case TokenKind::LParen:
    case TokenKind::LBracket:
    case TokenKind::Minus:
      return true;
    default:
      return false;
  }
}

}  // namespace

Parser::Parser(const SourceFile &file, Diagnostics &diags)
    : file_(file), diags_(diags), lexer_(file, diags) {}

// --- The token cursor ---------------------------------------------------------------------

const Token &Parser::advance() {
  const Token &t = peek();
  if (t.kind != TokenKind::Eof) ++pos_;
  return t;
}

bool Parser::accept(TokenKind k) {
  if (!at(k)) return false;
  advance();
  return true;
}

Span Parser::prevSpan() const { return tokenAt(pos_ == 0 ? 0 : pos_ - 1).span; }

uint32_t Parser::indentOf(Span span) const {
  const std::string_view line = file_.lineText(file_.lineCol(span.begin).line);
  uint32_t col = 1;
  while (col <= line.size() && (line[col - 1] == ' ' || line[col - 1] == '\t')) ++col;
  return col;
}

bool Parser::outdented(const Token &t, uint32_t indent) const {
  const uint32_t col = file_.lineCol(t.span.begin).col;
  return col == indentOf(t.span) && col <= indent;
}

// --- Errors -------------------------------------------------------------------------------

Diagnostic &Parser::softError(DiagId id, Span span, std::vector<std::string> args) {
  if (speculating_) {
    speculation_failed_ = true;
    scratch_ = Diagnostic{};
    return scratch_;
  }
  const uint32_t line = file_.lineCol(span.begin).line;
  if (line == last_error_line_) {
    scratch_ = Diagnostic{};
    return scratch_;
  }
  last_error_line_ = line;
  return diags_.report(id, span, std::move(args));
}

Diagnostic &Parser::error(DiagId id, Span span, std::vector<std::string> args) {
  if (!speculating_) needs_sync_ = true;
  return softError(id, span, std::move(args));
}

Diagnostic &Parser::errorAtToken(DiagId id, std::vector<std::string> args) {
  const Token &found = peek();
  // A text literal left open took the rest of its line (the lexer reported it): what is missing
  // after it on that line is inside it, so it is not reported again.
  const bool after_open_text =
      (pos_ > 0 && tokenAt(pos_ - 1).unterminated &&
       (found.newline_before || found.kind == TokenKind::Newline ||
        found.kind == TokenKind::Eof)) ||
      (found.kind == TokenKind::Eof && found.unterminated) ||  // inside a comment left open
      found.reported;                                          // the lexer said what is wrong
  if (found.kind == TokenKind::Invalid || after_open_text) {
    // Already reported by the lexer; what follows it is still out of place.
    if (speculating_) {
      speculation_failed_ = true;
    } else {
      needs_sync_ = true;
      last_error_line_ = file_.lineCol(found.span.begin).line;
    }
    scratch_ = Diagnostic{};
    return scratch_;
  }
  // A closing ')' or ']' missing at the end of a line: point there (as rustc and clang do), not
  // at the first token of the next line. (A missing '}' is found at the next declaration.)
  Span prev = prevSpan();
  bool closing =
      id == DiagId::ExpectedToken && !args.empty() &&
      (args[0].find("')'") != std::string::npos || args[0].find("']'") != std::string::npos);
  if (closing && prev.valid() && found.kind != TokenKind::Eof &&
      last_error_line_ != file_.lineCol(found.span.begin).line &&
      file_.lineCol(found.span.begin).line >
          file_.lineCol(prev.end > prev.begin ? prev.end - 1 : prev.end).line) {
    args.push_back("end of line");
    Diagnostic &d = error(id, Span{prev.file, prev.end, prev.end}, std::move(args));
    if (!speculating_) last_error_line_ = file_.lineCol(found.span.begin).line;
    return d;
  }
  args.push_back(describeToken(found));
  return error(id, found.span, std::move(args));
}

bool Parser::expect(TokenKind k, Span opener) {
  if (accept(k)) return true;
  Diagnostic &d = errorAtToken(DiagId::ExpectedToken, {describeKind(k)});
  if (opener.valid()) d.withNote(opener, "to match this " + describeKind(openerOf(k)));
  return false;
}

bool Parser::expectIdent(Ident *out, const char *what) {
  if (at(TokenKind::Ident)) {
    const Token &t = advance();
    out->name = t.text;
    out->span = t.span;
    return true;
  }
  Diagnostic &d = errorAtToken(DiagId::ExpectedToken, {what});
  // (`for in 0..3`: the name is missing, not spelt as a keyword.)
  if (isKeyword(peek().kind) &&
      !(peek().kind == TokenKind::KwIn && std::string_view(what) == "a loop variable name"))
    d.withHint("'" + std::string(tokenSpelling(peek().kind)) +
               "' is a keyword and cannot name anything: choose another name");
  return false;
}

// --- Nesting ------------------------------------------------------------------------------

bool Parser::deeper(size_t cost) {
  depth_ += cost;
  if (depth_ <= kMaxDepth + kSlack) return true;
  if (speculating_) {
    speculation_failed_ = true;
  } else if (!too_deep_reported_) {
    too_deep_reported_ = true;
    error(DiagId::NestingTooDeep, peek().span,
          {std::to_string(kMaxDepth / kNestCost), std::to_string(kMaxDepth),
           std::to_string(kMaxDepth / 2)})
        .withHint(
            "split it up: a local variable for a part of an expression, a function for a "
            "part of a block");
  } else {
    needs_sync_ = true;
  }
  return false;
}

// --- Recovery -----------------------------------------------------------------------------

void Parser::sync(SyncMode mode) {
  // The brackets opened since the skip began (the lexer's rule 4 is mirrored: a line break or
  // a statement keyword closes the parentheses and brackets left open).
  std::vector<TokenKind> open;
  auto drop_parens = [&open] {
    while (!open.empty() && open.back() != TokenKind::LBrace) open.pop_back();
  };
  while (!at(TokenKind::Eof)) {
    const Token &t = peek();
    if (open.empty()) {
      switch (t.kind) {
        case TokenKind::Newline:
        case TokenKind::Semi:
          advance();
          return;
        case TokenKind::Comma:
          if (mode == SyncMode::Member) {
            advance();
            return;
          }
          break;
        case TokenKind::RBrace:
          if (mode != SyncMode::Decl) return;
          advance();  // a stray '}' at module level
          continue;
        default:
          break;
      }
      switch (mode) {
        case SyncMode::Stmt:
          if (startsStatementOnly(t.kind) || startsDeclOnly(t.kind)) return;
          if (t.kind == TokenKind::KwFn && outdented(t, block_indent_)) return;
          break;
        case SyncMode::Decl:
          if (startsDeclOnly(t.kind) || t.kind == TokenKind::KwLet || t.kind == TokenKind::KwVar)
            return;
          if ((t.kind == TokenKind::KwFn || startsStatementOnly(t.kind)) && t.newline_before)
            return;
          break;
        case SyncMode::Member:
          if ((t.kind == TokenKind::KwFn || t.kind == TokenKind::KwOverride) && t.newline_before)
            return;
          if (t.kind == TokenKind::KwClass || t.kind == TokenKind::KwImport ||
              t.kind == TokenKind::KwExtern)
            return;
          break;
      }
    }
    switch (t.kind) {
      case TokenKind::LParen:
      case TokenKind::LBracket:
      case TokenKind::LBrace:
        open.push_back(t.kind);
        break;
      case TokenKind::RParen:
      case TokenKind::RBracket:
      case TokenKind::RBrace: {
        const TokenKind opener = openerOf(t.kind);
        size_t i = open.size();
        while (i > 0 && open[i - 1] != opener) --i;
        if (i > 0) {
          open.resize(i - 1);
        } else if (t.kind == TokenKind::RBrace && !open.empty()) {
          open.clear();  // closes the enclosing block: decided above, with nothing open
          continue;
        }
        break;
      }
      case TokenKind::Newline:
      case TokenKind::Semi:
        drop_parens();
        if (open.empty()) continue;
        break;
      default:
        if (startsStatementOnly(t.kind) || startsDeclOnly(t.kind)) {
          const size_t before = open.size();
          drop_parens();
          if (open.empty() && before != 0) continue;
        }
        break;
    }
    advance();
  }
}

bool Parser::skipInList(TokenKind close) {
  std::vector<TokenKind> open;
  while (true) {
    const TokenKind k = kind();
    if (k == TokenKind::Eof) return false;
    if (open.empty()) {
      if (k == TokenKind::Comma || k == close) return true;
      if (k == TokenKind::Newline || k == TokenKind::Semi || k == TokenKind::RBrace ||
          startsStatementOnly(k) || startsDeclOnly(k)) {
        return false;
      }
    }
    switch (k) {
      case TokenKind::LParen:
      case TokenKind::LBracket:
      case TokenKind::LBrace:
        open.push_back(k);
        break;
      case TokenKind::RParen:
      case TokenKind::RBracket:
      case TokenKind::RBrace: {
        const TokenKind opener = openerOf(k);
        size_t i = open.size();
        while (i > 0 && open[i - 1] != opener) --i;
        if (i > 0) {
          open.resize(i - 1);
        } else {
          // Closes something outside the list: stop there.
          return false;
        }
        break;
      }
      case TokenKind::Newline:
      case TokenKind::Semi:
        while (!open.empty() && open.back() != TokenKind::LBrace) open.pop_back();
        if (open.empty()) return false;
        break;
      default:
        if (startsStatementOnly(k) || startsDeclOnly(k)) {
          while (!open.empty() && open.back() != TokenKind::LBrace) open.pop_back();
          if (open.empty()) return false;
        }
        break;
    }
    advance();
  }
}

bool Parser::recoverTo(TokenKind k) {
  int depth = 0;
  for (size_t i = pos_;; ++i) {
    const TokenKind t = tokenAt(i).kind;
    if (depth == 0 && t == k) {
      pos_ = i;
      return true;
    }
    switch (t) {
      case TokenKind::LParen:
      case TokenKind::LBracket:
      case TokenKind::LBrace:
        ++depth;
        break;
      case TokenKind::RParen:
      case TokenKind::RBracket:
        if (depth > 0) --depth;  // a stray one at the line's level is skipped
        break;
      case TokenKind::RBrace:
        if (depth == 0) return false;
        --depth;
        break;
      case TokenKind::Eof:
        return false;
      case TokenKind::Newline:
      case TokenKind::Semi:
        if (depth == 0) return false;
        break;
      default:
        if (startsStatementOnly(t) || startsDeclOnly(t)) return false;
        break;
    }
  }
}

namespace {

// Cairn's name for a type name of another language written where Cairn puts a name first
// (`int x`, `string s`, `fn f() double {`): "int", "text", ...; "" for `void` (no result type),
// nullptr when `word` is not such a name. `auto` and `var` are "?" (the value's type).
const char *cairnTypeWord(const std::string &word) {
  static const char *const kTypes[][2] = {
      {"int", "int"},      {"float", "float"}, {"double", "float"}, {"bool", "bool"},
      {"boolean", "bool"}, {"text", "text"},   {"string", "text"},  {"String", "text"},
      {"char", "text"},    {"long", "int"},    {"i32", "int"},      {"i64", "int"},
      {"f64", "float"},    {"any", "any"},     {"auto", "?"},       {"void", ""}};
  for (const auto &t : kTypes)
    if (word == t[0]) return t[1];
  return nullptr;
}

// What to write instead of another language's statement keyword at the start of a statement
// (`do {`, `try {`, `loop {`, `unless c {`, `throw e`): empty when `word` is none of them.
std::string foreignStatementHint(const std::string &word) {
  if (word == "switch" || word == "match" || word == "case")
    return "Cairn has no '" + word + "': write `if x == a { ... } else if x == b { ... }`";
  if (word == "do" || word == "repeat")
    return "Cairn has no '" + word +
           "' loop: write `while true { ...; if not (condition) { break } }`";
  if (word == "loop") return "write `while true { ... }` (and `break` to leave it)";
  if (word == "unless") return "write `if not (condition) { ... }`";
  if (word == "until") return "write `while not (condition) { ... }`";
  if (word == "foreach") return "write `for x in items { ... }`";
  if (word == "try" || word == "catch" || word == "finally" || word == "except")
    return "Cairn has no exceptions: a runtime error stops the program (inside atomic, after "
           "aborting its transaction); check for the problem before it happens";
  if (word == "throw" || word == "raise")
    return "Cairn has no exceptions: `panic(\"message\")` stops the program with a runtime error";
  if (word == "defer") return "Cairn has no 'defer': write the code where the block ends";
  return "";
}

}  // namespace

void Parser::finishItem(SyncMode mode) {
  if (!needs_sync_) {
    if (accept(TokenKind::Newline) || accept(TokenKind::Semi)) return;
    if (at(TokenKind::Eof)) return;
    if (mode == SyncMode::Member && accept(TokenKind::Comma)) return;
    if (at(TokenKind::RBrace) && mode != SyncMode::Decl) return;
    if (pos_ > 0 && tokenAt(pos_ - 1).kind == TokenKind::RBrace) return;  // `if c { } return`
    // `import a.` at the end of its line (reported): the '.' kept the line break from ending it.
    if (pos_ > 0 && tokenAt(pos_ - 1).kind == TokenKind::Dot && peek().newline_before &&
        (atDeclStart() || at(TokenKind::Eof)))
      return;
    std::string hint;
    if (pos_ > 0) {
      const Token &prev = tokenAt(pos_ - 1);
      const std::string keyword = misspelledKeyword(pos_ - 1);
      const bool starts = pos_ < 2 || tokenAt(pos_ - 2).kind == TokenKind::Newline ||
                          tokenAt(pos_ - 2).kind == TokenKind::Semi ||
                          tokenAt(pos_ - 2).kind == TokenKind::LBrace ||
                          tokenAt(pos_ - 2).kind == TokenKind::RBrace;
      const std::string foreign =
          prev.kind == TokenKind::Ident && starts ? foreignStatementHint(prev.text) : "";
      if (prev.kind == TokenKind::Ident &&
          (prev.text == "elif" || prev.text == "elsif" || prev.text == "elseif")) {
        hint = "write 'else if'";
      } else if (!foreign.empty()) {
        hint = foreign;
      } else if (prev.kind == TokenKind::Ident && starts && at(TokenKind::Colon) &&
                 kind(1) == TokenKind::Assign) {
        hint = "a name is declared with `let " + prev.text + " = value` (or `var " + prev.text +
               " = value` to assign it again later)";
      } else if (prev.kind == TokenKind::Ident && starts && at(TokenKind::Colon) &&
                 (kind(1) == TokenKind::KwFor || kind(1) == TokenKind::KwWhile)) {
        hint =
            "loops have no labels: break and continue leave the innermost loop (to leave an "
            "outer one, set a flag variable and test it, or return from a function)";
      } else if ((prev.kind == TokenKind::KwBreak || prev.kind == TokenKind::KwContinue) &&
                 at(TokenKind::Ident)) {
        hint = "loops have no labels: '" + std::string(tokenSpelling(prev.kind)) +
               "' applies to the innermost loop";
      } else if (!keyword.empty()) {
        hint = "did you mean '" + keyword + "'?";
      } else if (prev.kind == TokenKind::Ident && starts &&
                 (at(TokenKind::Text) || at(TokenKind::Int) || at(TokenKind::Float))) {
        hint = "a call puts its arguments in parentheses: `" + prev.text + "(...)`";
      } else if (at(TokenKind::LBrace) && prev.kind == TokenKind::Ident) {
        hint = "an object is made with `new " + prev.text + " { field: value }`";
      } else if (prev.kind == TokenKind::Ident && prev.text == "new" && peek().newline_before) {
        hint = kNewAtLineEndHint;  // a variable named new, ending its line
      }
    }
    errorAtToken(DiagId::ExpectedToken,
                 {mode == SyncMode::Member ? "end of line, ';' or ','" : "end of line or ';'"})
        .withHint(std::move(hint));
  }
  sync(mode);
  needs_sync_ = false;
}

std::string Parser::misspelledKeyword(size_t i) const {
  const Token &t = tokenAt(i);
  if (t.kind != TokenKind::Ident) return "";
  if (i > 0) {
    const TokenKind before = tokenAt(i - 1).kind;
    if (before != TokenKind::Newline && before != TokenKind::Semi && before != TokenKind::LBrace &&
        before != TokenKind::RBrace) {
      return "";
    }
  }
  static const std::vector<std::string> kStarters = {
      "if",  "else",   "while", "for",   "return", "break",  "continue", "let",
      "var", "atomic", "fn",    "class", "import", "extern", "override"};
  return nearestName(t.text, kStarters);
}

// --- Declarations -------------------------------------------------------------------------

std::unique_ptr<Module> Parser::parseModule() {
  auto module = std::make_unique<Module>();
  module->file = file_.id();
  while (true) {
    while (accept(TokenKind::Newline) || accept(TokenKind::Semi)) {
    }
    if (at(TokenKind::Eof)) break;
    const size_t start = pos_;
    if (DeclPtr decl = parseDecl()) module->decls.push_back(std::move(decl));
    finishItem(SyncMode::Decl);
    if (pos_ == start) advance();  // never loop without consuming
  }
  return module;
}

std::unique_ptr<Input> Parser::parseInput() {
  auto input = std::make_unique<Input>();
  input->file = file_.id();
  while (true) {
    while (accept(TokenKind::Newline) || accept(TokenKind::Semi)) {
    }
    if (at(TokenKind::Eof)) break;
    const size_t start = pos_;
    InputItem item;
    const bool decl = atDeclStart() || at(TokenKind::KwLet) || at(TokenKind::KwVar);
    if (decl)
      item.decl = parseDecl();
    else
      item.stmt = parseStmt();
    if (item.decl || item.stmt) input->items.push_back(std::move(item));
    finishItem(decl ? SyncMode::Decl : SyncMode::Stmt);
    if (pos_ == start) advance();  // never loop without consuming
  }
  return input;
}

bool Parser::atDeclStart() const {
  return startsDeclOnly(kind()) || (at(TokenKind::KwFn) && kind(1) == TokenKind::Ident);
}

std::string Parser::foreignDeclarationHint() const {
  if (!at(TokenKind::Ident)) return "";
  const std::string &word = peek().text;
  if (word == "function" || word == "def" || word == "func" || word == "fun" || word == "sub" ||
      word == "proc")
    return "functions are declared with `fn`: `fn add(a: int, b: int) -> int { ... }`";
  if (word == "const" || word == "final" || word == "val" || word == "static")
    return "a module-level constant is declared `let NAME = value` (a value type or a text), a "
           "variable `var name = value`";
  const char *cairn = cairnTypeWord(word);
  if (cairn != nullptr && kind(1) == TokenKind::Ident) {
    const std::string &name = peek(1).text;
    if (kind(2) == TokenKind::LParen && name == "main")
      return "the entry point is declared `fn main() { ... }`: the arguments come from args(), "
             "the exit status from exit(n)";
    if (kind(2) == TokenKind::LParen)
      return "a function is declared `fn " + name + "(a: int)" +
             (*cairn == '\0' || std::string(cairn) == "?" ? std::string()
                                                          : std::string(" -> ") + cairn) +
             " { ... }`: the parameters' types follow their names, the result type '->'";
    if (*cairn == '\0') return "";
    if (std::string(cairn) == "?")
      return "a variable is declared `var " + name + " = value` (or `let`)";
    return "a variable is declared `var " + name + ": " + cairn +
           " = value` (or `let`): the type follows the name";
  }
  return "";
}

std::string Parser::missingCommaHint() const {
  if (at(TokenKind::Text) && pos_ > 0 && tokenAt(pos_ - 1).kind == TokenKind::Ident &&
      tokenAt(pos_ - 1).span.end == peek().span.begin)
    return "Cairn has no interpolated texts: join the parts with '+', as in `\"x is \" + str(x)`";
  if (at(TokenKind::Assign) && kind(1) == TokenKind::Gt)
    return "a function literal is written `fn(x: int) -> int { return x * 2 }` (Cairn has no "
           "'=>' arrow)";
  return "";
}

DeclPtr Parser::parseDecl() {
  if (atDeclStart() || at(TokenKind::KwLet) || at(TokenKind::KwVar)) stray_reported_ = false;
  switch (kind()) {
    case TokenKind::KwImport:
      return parseImport();
    case TokenKind::KwLet:
    case TokenKind::KwVar:
      return parseGlobal();
    case TokenKind::KwClass:
      return parseClass();
    case TokenKind::KwExtern:
      return parseExtern();
    case TokenKind::KwFn:
      if (kind(1) != TokenKind::LParen) return parseFnDecl(false);
      break;  // a function literal: a statement
    case TokenKind::KwOverride: {
      const Span at_override = advance().span;
      const std::string name =
          at(TokenKind::KwFn) && kind(1) == TokenKind::Ident ? peek(1).text : std::string("?");
      softError(DiagId::MisplacedOverride, at_override, {name})
          .withHint("'override' marks a method that replaces one of its superclass");
      if (!at(TokenKind::KwFn)) {
        errorAtToken(DiagId::ExpectedToken, {"'fn'"});
        return nullptr;
      }
      return parseFnDecl(false);
    }
    case TokenKind::RBrace: {
      Diagnostic &d = errorAtToken(DiagId::ExpectedDecl);
      d.withHint("this '}' closes no block");
      advance();
      needs_sync_ = false;
      return nullptr;
    }
    default:
      break;
  }
  if (startsStatementOnly(kind()) || startsExpr(kind()) || at(TokenKind::LBrace)) {
    // A statement where a declaration belongs: say so once for a run of them, and parse it (to
    // skip it whole).
    if (!stray_reported_) {
      std::string hint = foreignDeclarationHint();
      if (hint.empty()) {
        const std::string keyword = kind(1) == TokenKind::Ident ? misspelledKeyword(pos_) : "";
        hint = !keyword.empty() ? "did you mean '" + keyword + "'?"
                                : "statements run inside functions: put it in `fn main() { ... }`";
      }
      softError(DiagId::StatementAtModuleLevel, peek().span, {describeToken(peek())})
          .withHint(std::move(hint));
    }
    stray_reported_ = true;
    parseStmt();
    return nullptr;
  }
  errorAtToken(DiagId::ExpectedDecl);
  return nullptr;
}

DeclPtr Parser::parseImport() {
  auto decl = std::make_unique<ImportDecl>();
  const Span start = advance().span;
  Ident part;
  if (at(TokenKind::Text)) {
    // `import "std/list"`: a path in quotes.
    std::string path = peek().text;
    if (path.ends_with(".cairn")) path.resize(path.size() - 6);
    for (char &c : path)
      if (c == '/') c = '.';
    errorAtToken(DiagId::ExpectedToken, {"a module name"})
        .withHint("a module is named without quotes, its folders joined by '.': `import " + path +
                  "`");
    return nullptr;
  }
  if (!expectIdent(&part, "a module name")) return nullptr;
  decl->path.push_back(std::move(part));
  while (at(TokenKind::Dot)) {
    const Span dot = advance().span;
    // A malformed path imports nothing: its prefix would be another module, not found (a
    // second error about the same line).
    if (peek().newline_before && (atDeclStart() || at(TokenKind::Eof))) {
      // `import a.` at the end of its line, a declaration on the next: said at the '.', not of
      // the declaration's first word (a path may go on over the line: `import a.\n b`).
      std::string so_far;
      for (const Ident &p : decl->path) so_far += (so_far.empty() ? "" : ".") + p.name;
      softError(DiagId::ExpectedToken, dot, {"a module name after '.'", "the end of the line"})
          .withHint("a module's path is names joined by '.', with no '.' at its end: `import " +
                    so_far + "`, or `import " + so_far + ".name`");
      return nullptr;
    }
    if (!expectIdent(&part, "a module name")) return nullptr;
    decl->path.push_back(std::move(part));
  }
  decl->span = from(start);
  return decl;
}

void Parser::parseBinding(bool *is_var, Ident *name, TypeExprPtr *type, ExprPtr *init) {
  *is_var = at(TokenKind::KwVar);
  advance();  // let / var
  if (!expectIdent(name, "a name")) return;
  if (accept(TokenKind::Colon)) *type = parseType();
  if (accept(TokenKind::Assign)) {
    *init = parseExpr();
    return;
  }
  if (needs_sync_) return;  // the type was wrong: one error is enough
  if (at(TokenKind::Ident) && (name->name == "mut" || name->name == "mutable")) {
    errorAtToken(*is_var ? DiagId::VarWithoutTypeOrValue : DiagId::LetWithoutValue, {name->name})
        .withHint("Cairn has no '" + name->name + "': `var " + peek().text +
                  " = value` declares a variable that may be assigned again, `let` one that "
                  "may not");
    return;
  }
  if (at(TokenKind::Ident)) {
    // Another language's type name before the variable's name, and Cairn's for it.
    const char *cairn = cairnTypeWord(name->name);
    if (cairn != nullptr && *cairn != '\0') {
      const std::string binder = *is_var ? "var " : "let ";
      errorAtToken(*is_var ? DiagId::VarWithoutTypeOrValue : DiagId::LetWithoutValue, {name->name})
          .withHint(std::string(cairn) == "?"
                        ? "the type is the value's: `" + binder + peek().text + " = value`"
                        : "the type follows the name: `" + binder + peek().text + ": " + cairn +
                              " = value`");
      return;
    }
  }
  if (!*is_var) {
    errorAtToken(DiagId::LetWithoutValue, {name->name})
        .withHint("`let` binds once, to a value; use `var " + name->name +
                  ": T` for a variable that starts as 0, 0.0, false or nil");
  } else if (*type == nullptr) {
    errorAtToken(DiagId::VarWithoutTypeOrValue, {name->name})
        .withHint("write `var " + name->name + ": T` or `var " + name->name + " = value`");
  }
}

DeclPtr Parser::parseGlobal() {
  auto decl = std::make_unique<GlobalDecl>();
  const Span start = peek().span;
  parseBinding(&decl->is_var, &decl->name, &decl->type, &decl->init);
  decl->span = from(start);
  return decl;
}

void Parser::parseTypeParams(std::vector<Ident> *out) {
  const Span open = advance().span;  // '['
  parseList(TokenKind::RBracket, open, [&] {
    Ident name;
    if (expectIdent(&name, "a type parameter name")) out->push_back(std::move(name));
  });
}

void Parser::parseParams(std::vector<Param> *out) {
  const Span open = peek().span;
  if (!expect(TokenKind::LParen)) return;
  parseList(TokenKind::RParen, open, [&] {
    Param p;
    if (!expectIdent(&p.name, "a parameter name")) return;
    if (!accept(TokenKind::Colon)) {
      errorAtToken(DiagId::ExpectedToken, {"':' and the type of parameter '" + p.name.name + "'"});
      return;
    }
    p.type = parseType();
    out->push_back(std::move(p));
  });
}

ast::TypeExprPtr Parser::parseColonResult(const std::string &what) {
  softError(DiagId::ExpectedToken, peek().span, {"'->' before the result type", "':'"})
      .withHint("a result type follows '->': " + what);
  advance();  // :
  return parseType();
}

std::unique_ptr<FnDecl> Parser::parseFnDecl(bool is_method) {
  auto fn = std::make_unique<FnDecl>();
  const Span start = advance().span;  // fn
  if (!expectIdent(&fn->name, is_method ? "a method name" : "a function name")) return nullptr;
  if (at(TokenKind::LBracket)) parseTypeParams(&fn->type_params);
  if (at(TokenKind::Lt)) {
    // `fn f<T>(...)`: another language's type parameters.
    errorAtToken(DiagId::ExpectedToken, {"'('"})
        .withHint("type parameters are written in brackets: `fn " + fn->name.name + "[T](...)`");
    return nullptr;
  }
  if (!needs_sync_) parseParams(&fn->params);
  if (!needs_sync_ && accept(TokenKind::Arrow)) fn->ret = parseType();
  if (!needs_sync_ && !fn->ret && at(TokenKind::Colon))
    fn->ret = parseColonResult("fn " + fn->name.name + "(...) -> T");
  if (!needs_sync_ && !fn->ret && at(TokenKind::Ident) &&
      (kind(1) == TokenKind::LBrace || kind(1) == TokenKind::Newline)) {
    // `fn add(a: int) int {`: the result type without its arrow.
    const char *cairn = cairnTypeWord(peek().text);
    const std::string type = cairn == nullptr ? peek().text : cairn;
    softError(DiagId::ExpectedToken, peek().span,
              {"'->' before the result type", describeToken(peek())})
        .withHint(type.empty() ? "a function that returns nothing has no result type: `fn " +
                                     fn->name.name + "(...) {`"
                               : "a result type follows '->': `fn " + fn->name.name + "(...) -> " +
                                     type + " {`");
    if (type.empty())
      advance();  // `void`: no result type
    else
      fn->ret = parseType();
  }
  const bool body_unopened = !needs_sync_ && at(TokenKind::Newline) &&
                             kind(1) != TokenKind::LBrace && !startsDeclOnly(kind(1)) &&
                             kind(1) != TokenKind::KwFn && kind(1) != TokenKind::Eof &&
                             kind(1) != TokenKind::RBrace && !outdented(peek(1), indentOf(start));
  if (at(TokenKind::LBrace) || braceOnNextLine()) {
    fn->body = parseBlock();
  } else if (needs_sync_ && recoverTo(TokenKind::LBrace)) {
    fn->body = parseBlock();  // the header had an error; the body is still worth parsing
  } else if (body_unopened) {
    // `fn main()` then the body's lines, indented, and its '}': one error, and the body parsed.
    errorAtToken(DiagId::MissingFnBody, {fn->name.name})
        .withHint("a function's body starts with '{' at the end of its header's line: `fn " +
                  fn->name.name + "(...) {`");
    fn->body = parseBlock(true);
  } else if (!needs_sync_) {
    errorAtToken(DiagId::MissingFnBody, {fn->name.name})
        .withHint("only `extern fn` declarations have no body");
  }
  fn->span = from(start);
  return fn;
}

std::unique_ptr<FnDecl> Parser::parseExtern() {
  const Span start = advance().span;  // extern
  if (!at(TokenKind::KwFn)) {
    errorAtToken(DiagId::ExpectedToken, {"'fn'"});
    return nullptr;
  }
  advance();
  auto fn = std::make_unique<FnDecl>();
  fn->is_extern = true;
  if (!expectIdent(&fn->name, "a function name")) return nullptr;
  parseParams(&fn->params);
  if (!needs_sync_ && accept(TokenKind::Arrow)) fn->ret = parseType();
  if (!needs_sync_ && !fn->ret && at(TokenKind::Colon))
    fn->ret = parseColonResult("extern fn " + fn->name.name + "(...) -> T");
  if (!needs_sync_ && at(TokenKind::LBrace)) {
    softError(DiagId::ExternWithBody, peek().span, {fn->name.name})
        .withHint("an extern function is defined in C and only declared here, without a body");
    parseBlock();  // skipped whole
  }
  fn->span = from(start);
  return fn;
}

std::unique_ptr<ClassDecl> Parser::parseClass() {
  auto cls = std::make_unique<ClassDecl>();
  const Span start = advance().span;  // class
  if (!expectIdent(&cls->name, "a class name")) return nullptr;
  if (at(TokenKind::LBracket)) parseTypeParams(&cls->type_params);
  if (!needs_sync_ && accept(TokenKind::Colon)) cls->super = parseType();
  if (!at(TokenKind::LBrace) && !braceOnNextLine()) {
    if (!needs_sync_) {
      Diagnostic &d = errorAtToken(DiagId::ExpectedToken, {"'{'"});
      const Token &t = peek();
      if (!cls->super && t.kind == TokenKind::Ident &&
          (t.text == "extends" || t.text == "implements" || t.text == "inherits"))
        d.withHint("the base class follows a ':', as in 'class " + cls->name.name + " : Base'");
      else if (t.kind == TokenKind::Lt && cls->type_params.empty())
        d.withHint("type parameters are written in brackets: `class " + cls->name.name +
                   "[T] { ... }`");
    }
    if (!recoverTo(TokenKind::LBrace)) {
      cls->span = from(start);
      return cls;
    }
  }
  const Span open = advance().span;
  const uint32_t indent = indentOf(open);
  needs_sync_ = false;
  while (true) {
    while (accept(TokenKind::Newline) || accept(TokenKind::Semi) || accept(TokenKind::Comma)) {
    }
    if (accept(TokenKind::RBrace)) break;
    // A declaration keyword (never a member; methods may be written at any indentation) at or
    // left of the class's own line: the class's '}' is missing.
    const bool declaration = at(TokenKind::KwClass) || at(TokenKind::KwImport) ||
                             at(TokenKind::KwExtern) || at(TokenKind::KwLet) ||
                             at(TokenKind::KwVar);
    if (at(TokenKind::Eof) || (declaration && outdented(peek(), indent))) {
      errorAtToken(DiagId::ExpectedToken, {"'}'"}).withNote(open, "to match this '{'");
      break;
    }
    const size_t before = pos_;
    parseMember(cls.get());
    finishItem(SyncMode::Member);
    if (pos_ == before) advance();
  }
  cls->span = from(start);
  return cls;
}

void Parser::parseMember(ClassDecl *cls) {
  if (at(TokenKind::KwFn) || at(TokenKind::KwOverride)) {
    const Span start = peek().span;
    const bool is_override = accept(TokenKind::KwOverride);
    if (!at(TokenKind::KwFn)) {
      errorAtToken(DiagId::ExpectedToken, {"'fn'"});
      return;
    }
    if (auto fn = parseFnDecl(true)) {
      fn->is_override = is_override;
      fn->span = Span::cover(start, fn->span);
      cls->methods.push_back(std::move(fn));
    }
    return;
  }
  if (at(TokenKind::Ident)) {
    FieldDecl field;
    expectIdent(&field.name, "a field name");
    if (!accept(TokenKind::Colon)) {
      const std::string &word = field.name.name;
      Diagnostic &d = errorAtToken(DiagId::ExpectedToken,
                                   {"':' and the type of field '" + field.name.name + "'"});
      if (word == "public" || word == "private" || word == "protected" || word == "pub" ||
          word == "internal")
        d.withHint(
            "Cairn has no access modifiers: fields and methods are visible wherever their class "
            "is, and a module's names wherever it is imported");
      else if (word == "static")
        d.withHint(
            "a class has no static members: declare a module-level `fn` (or `let`, `var`) "
            "beside the class");
      else if (at(TokenKind::LParen))
        d.withHint("a method is declared with `fn`: `fn " + word + "(...) { ... }`");
      return;
    }
    field.type = parseType();
    field.span = from(field.name.span);
    if (at(TokenKind::Assign)) {
      errorAtToken(DiagId::ExpectedToken, {"end of line, ';' or ','"})
          .withHint(
              "a field has no initial value in its class: it starts as 0, 0.0, false or nil; "
              "give it a value where the object is made: `new " +
              cls->name.name + " { " + field.name.name + ": ... }`");
      while (!at(TokenKind::Newline) && !at(TokenKind::Semi) && !at(TokenKind::Comma) &&
             !at(TokenKind::RBrace) && !at(TokenKind::Eof))
        advance();
    }
    cls->fields.push_back(std::move(field));
    return;
  }
  Diagnostic &d = errorAtToken(DiagId::ExpectedMember);
  if (at(TokenKind::KwLet) || at(TokenKind::KwVar)) {
    d.withHint("a field is written `name: Type`");
  }
}

}  // namespace parse_detail

std::unique_ptr<ast::Module> parseModule(const SourceFile &file, Diagnostics &diags) {
  parse_detail::Parser parser(file, diags);
  return parser.parseModule();
}

std::unique_ptr<ast::Input> parseInput(const SourceFile &file, Diagnostics &diags) {
  parse_detail::Parser parser(file, diags);
  return parser.parseInput();
}

}  // namespace cairn::front
