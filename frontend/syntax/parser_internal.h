// The parser's class, shared by its three files: parser.cpp (the token cursor, errors,
// recovery, declarations), parse_stmt.cpp (statements and blocks), parse_expr.cpp
// (expressions and types). Not part of the front end's interface: include parser.h.
#ifndef CAIRN_FRONTEND_SYNTAX_PARSER_INTERNAL_H
#define CAIRN_FRONTEND_SYNTAX_PARSER_INTERNAL_H

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "lexer/lexer.h"
#include "lexer/token.h"
#include "source/diagnostics.h"
#include "syntax/ast.h"

namespace cairn::front::parse_detail {

// The opening bracket of a closing one: '(' for ')'.
TokenKind openerOf(TokenKind close);

// A token that goes on from an operand before it (a binary operator, `.`, `..`, `is`, `as`)
// and cannot start an expression: first on a line, it was meant to continue the line before.
bool continuesOperand(TokenKind k);

// Where a recovery skip stops (see Parser::sync).
enum class SyncMode { Decl, Member, Stmt };

// The tokens of a file lexed so far, in chunks of 256 that never move: a reference to a token
// stays valid as the buffer grows, and indexing is a shift and a mask (a std::deque of tokens
// held 6 to a block, and divided by 6 at every look).
class TokenBuffer {
 public:
  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  const Token &operator[](size_t i) const { return chunks_[i >> kShift][i & kMask]; }
  const Token &back() const { return (*this)[size_ - 1]; }
  void push_back(Token t) {
    if ((size_ & kMask) == 0) chunks_.push_back(std::make_unique<Token[]>(kChunk));
    chunks_.back()[size_ & kMask] = std::move(t);
    ++size_;
  }

 private:
  static constexpr size_t kShift = 8, kChunk = size_t{1} << kShift, kMask = kChunk - 1;
  std::vector<std::unique_ptr<Token[]>> chunks_;
  size_t size_ = 0;
};

class Parser {
 public:
  Parser(const SourceFile &file, Diagnostics &diags);
  std::unique_ptr<ast::Module> parseModule();
  std::unique_ptr<ast::Input> parseInput();

  // --- The token cursor (parser.cpp). Never moves past Eof. -------------------------------
  // The token at index i of the file (Eof past the end), lexed on demand. References stay
  // valid: tokens_ only grows, and its tokens never move.
  const Token &tokenAt(size_t i) const {
    if (i < tokens_.size()) return tokens_[i];
    while (tokens_.size() <= i && (tokens_.empty() || tokens_.back().kind != TokenKind::Eof)) {
      tokens_.push_back(lexer_.next());
    }
    return i < tokens_.size() ? tokens_[i] : tokens_.back();
  }
  const Token &peek(size_t k = 0) const { return tokenAt(pos_ + k); }
  TokenKind kind(size_t k = 0) const { return peek(k).kind; }
  bool at(TokenKind k) const { return kind() == k; }
  const Token &advance();
  bool accept(TokenKind k);
  // The span of the last token consumed (the first token's, before any).
  Span prevSpan() const;
  // The span from `start` to the end of the last token consumed.
  Span from(Span start) const { return Span::cover(start, prevSpan()); }
  // The column of the first character of span's line that is not a space or a tab.
  uint32_t indentOf(Span span) const;
  // Whether t is the first token on its line, at column `indent` or left of it.
  bool outdented(const Token &t, uint32_t indent) const;

  // --- Errors (parser.cpp). ---------------------------------------------------------------
  // A reported Diagnostic& is valid only until the next report, and looking at a token not
  // yet lexed may report a lexical error: work out hints and notes before reporting, or look
  // only at tokens already seen (the current one and those before it) while holding one.
  // Reports an error after which the parser's position is not where the grammar expects
  // (needs_sync_: the enclosing list, statement or declaration skips to a synchronization
  // point). Returns the diagnostic, or a scratch one when the report is suppressed (while
  // speculating, or on the line of the previous error).
  Diagnostic &error(DiagId id, Span span, std::vector<std::string> args = {});
  // The same for an error about the current token: `found` (describeToken) is appended to
  // args. An Invalid token was reported by the lexer: not reported again.
  Diagnostic &errorAtToken(DiagId id, std::vector<std::string> args = {});
  // An error after which parsing goes on normally (the construct was understood).
  Diagnostic &softError(DiagId id, Span span, std::vector<std::string> args = {});
  // Consumes a token of kind k, else reports "expected 'k', found ..." (with a note pointing
  // at `opener` when it is valid: the bracket that k would close).
  bool expect(TokenKind k, Span opener = {});
  // Consumes a name into *out, else reports "expected <what>, found ...".
  bool expectIdent(ast::Ident *out, const char *what);

  // --- Nesting (parser.cpp). --------------------------------------------------------------
  // The tree's height is bounded, so that neither the parser nor any phase after it (nor the
  // tree's destructor) runs out of stack on deep input. Depth is counted in units, by what a
  // level costs the stack: a recursion through the grammar (parseExpr, parseType, parseBlock,
  // a unary operator: a dozen frames in the parser) costs kNestCost, so 256 of them fit; a turn
  // of an operator or postfix loop (a loop in the parser, one level of the tree for later
  // phases) costs 1, so a sum of about 1,000 terms fits; an `else if` (a few frames in the
  // parser and each later phase) costs 2. Each lasts for as long as its construct is parsed.
  // (A flat bound of 256 refused a sum of 300 terms; one of 1,000 for everything overflowed the
  // parser's stack under ASan at 1,000 parentheses.)
  // The bounds said (256 levels, 1,024 steps) count what a program nests inside a function's
  // body: kSlack is for the levels around it (the body's block, a statement's expression, a
  // call's argument), so that 256 parentheses, blocks or brackets fit wherever they stand
  // (without it they stopped at 253 to 255).
  static constexpr size_t kMaxDepth = 1024;
  static constexpr size_t kNestCost = 4;
  static constexpr size_t kSlack = 4 * kNestCost;
  // The hint for a variable named `new` at the end of a line, whose statement went on.
  static constexpr const char *kNewAtLineEndHint =
      "the line ends in 'new', so the statement goes on to the next line (`new` makes an "
      "object of the type that follows); if 'new' is a variable here, write `(new)`";
  class DepthScope {
   public:
    explicit DepthScope(Parser &p) : p_(p), saved_(p.depth_) {}
    ~DepthScope() { p_.depth_ = saved_; }
    DepthScope(const DepthScope &) = delete;
    DepthScope &operator=(const DepthScope &) = delete;

   private:
    Parser &p_;
    size_t saved_;
  };
  // One level deeper (until the enclosing DepthScope ends); false past kMaxDepth, which is
  // reported once per file.
  bool deeper(size_t cost = 1);

  // --- Recovery (parser.cpp). -------------------------------------------------------------
  // Skips to a synchronization point for `mode`: a line break or ';' at the nesting where it
  // started (consumed), a '}' closing the enclosing block (not consumed; skipped at module
  // level), or a keyword that starts what the mode parses (not consumed).
  void sync(SyncMode mode);
  // Inside a list closed by `close`: skips to the next ',' or `close` at the list's nesting
  // (not consumed). Stops early (returning false) at a line break, ';', '}', Eof or a keyword
  // that starts a statement.
  bool skipInList(TokenKind close);
  // Looks ahead on the current line (at the current nesting) for a token of kind k; moves
  // there and returns true if found.
  bool recoverTo(TokenKind k);
  // The keyword that the identifier at token index i, first on its line or after ';', '{'
  // or '}', is a near misspelling of ("els" -> "else"); "" if none.
  std::string misspelledKeyword(size_t i) const;
  // At a statement where a declaration belongs: what to write when it starts as another
  // language's declaration does (`function f(`, `def f(`, `const X =`, `int main(`); "" if not.
  std::string foreignDeclarationHint() const;
  // Where a list expects ',' or its closing bracket: what another language's syntax there
  // (`f"x {y}"`, `x => e`) is written as; "" if nothing is recognized.
  std::string missingCommaHint() const;
  // Ends a declaration, member or statement: expects a line break or ';' (or a '}' closing the
  // block, Eof, or nothing after a construct ending in '}'); after an error, syncs.
  void finishItem(SyncMode mode);
  // Parses a comma-separated list up to `close` (the opener is consumed; `opener` is its span),
  // calling element() for each element. Trailing ',' allowed. Recovers inside the list.
  template <class F>
  void parseList(TokenKind close, Span opener, F element);

  // --- Declarations (parser.cpp). ---------------------------------------------------------
  ast::DeclPtr parseDecl();
  bool atDeclStart() const;
  ast::DeclPtr parseImport();
  ast::DeclPtr parseGlobal();
  std::unique_ptr<ast::ClassDecl> parseClass();
  std::unique_ptr<ast::FnDecl> parseFnDecl(bool is_method);
  std::unique_ptr<ast::FnDecl> parseExtern();
  void parseTypeParams(std::vector<ast::Ident> *out);
  void parseParams(std::vector<ast::Param> *out);
  // At the name `new` before '[': whether what follows is an index (`new[0]`, `new[i]`,
  // `new[i + 1]`: a literal, a name that is not a built-in type and does not start with a
  // capital alone in the brackets with no '(' after them, or more than a name with no '(' after
  // the brackets) rather than an array's type (`new [int](3)`, `new [Pair[int, text]](2)`).
  bool indexAfterNew() const;
  // A result type written after ':' (TypeScript, Kotlin: `fn f(a: int): int`): reported with a
  // hint that shows '->', and parsed as if it were one. Null when not at a ':'.
  ast::TypeExprPtr parseColonResult(const std::string &what);
  void parseMember(ast::ClassDecl *cls);
  // let/var NAME [: T] [= e] with the keyword at the cursor.
  void parseBinding(bool *is_var, ast::Ident *name, ast::TypeExprPtr *type, ast::ExprPtr *init);

  // --- Statements (parse_stmt.cpp). -------------------------------------------------------
  // A block at its '{'; with brace_missing, the statements of a block whose '{' is missing (an
  // error reported by the caller) from the line break after its header, up to its '}'.
  std::unique_ptr<ast::Block> parseBlock(bool brace_missing = false);
  // The block of if/while/for/atomic/fn: reports a missing '{' and recovers to a '{' later on
  // the line if there is one; never nullptr.
  std::unique_ptr<ast::Block> expectBlock();
  // A '{' first on the next line where the grammar expects one at the end of this line (the
  // style that gives a block's brace a line of its own): reports it, with a hint, and moves
  // to the '{', so that the block is parsed as if it were in its place, without more errors.
  // False, and nothing done, otherwise.
  bool braceOnNextLine();
  ast::StmtPtr parseStmt();
  ast::StmtPtr parseIf(bool else_if = false);
  // Skips an `if`'s condition and block and every `else` of its chain (past the nesting limit,
  // whose one error says it all).
  void skipIfChain();
  ast::StmtPtr parseWhile();
  ast::StmtPtr parseFor();
  ast::StmtPtr parseReturn();
  ast::StmtPtr parseSimpleStmt();

  // --- Expressions and types (parse_expr.cpp). --------------------------------------------
  ast::ExprPtr parseExpr();
  ast::ExprPtr parseOr();
  ast::ExprPtr parseAnd();
  ast::ExprPtr parseNot();
  ast::ExprPtr parseComparison();
  ast::ExprPtr parseAdditive();
  ast::ExprPtr parseMultiplicative();
  ast::ExprPtr parseAs();
  ast::ExprPtr parseUnary();
  ast::ExprPtr parsePostfix();
  ast::ExprPtr parsePrimary();
  ast::ExprPtr parseIndex(ast::ExprPtr base);
  ast::ExprPtr parseNew();
  ast::ExprPtr parseFnLit();
  ast::ExprPtr parseArrayLit();
  ast::TypeExprPtr parseType();
  // Parses a type without reporting anything; nullptr (and the cursor back where it was)
  // unless a type parsed cleanly and is followed by ',' or ']'.
  ast::TypeExprPtr speculateTypeArg();

  const SourceFile &file_;
  Diagnostics &diags_;
  mutable Lexer lexer_;
  mutable TokenBuffer tokens_;  // the tokens lexed so far
  size_t pos_ = 0;
  bool needs_sync_ = false;
  size_t depth_ = 0;
  // The indentation of the line where the innermost block being parsed opens: a declaration
  // keyword first on a line at or left of it means that block's '}' is missing.
  uint32_t block_indent_ = 1;
  bool too_deep_reported_ = false;
  bool speculating_ = false;
  bool speculation_failed_ = false;
  uint32_t last_error_line_ = 0;
  // A statement where a declaration belongs was reported and no declaration came after it: the
  // statements that follow it (a script's next lines, a Python body) are not reported again.
  bool stray_reported_ = false;
  Diagnostic scratch_{};  // what suppressed reports write to
};

template <class F>
void Parser::parseList(TokenKind close, Span opener, F element) {
  while (true) {
    if (accept(close)) return;
    if (at(TokenKind::Eof)) {
      expect(close, opener);
      return;
    }
    const size_t start = pos_;
    element();
    if (needs_sync_) {
      if (!skipInList(close)) return;  // the enclosing construct syncs
      needs_sync_ = false;
      if (accept(TokenKind::Comma)) continue;
      if (at(close)) continue;
    }
    if (accept(TokenKind::Comma)) continue;
    if (at(close)) continue;
    if (pos_ == start) {
      // element() consumed nothing and reported nothing: cannot happen, but never loop.
      advance();
      continue;
    }
    std::string hint = missingCommaHint();
    errorAtToken(DiagId::ExpectedToken, {"',' or " + describeKind(close)})
        .withNote(opener, "to match this " + describeKind(openerOf(close)))
        .withHint(std::move(hint));
    // A missing ',' (`f(a b, c)`): go on after the next ',' or at the closing bracket.
    if (!skipInList(close)) return;
    needs_sync_ = false;
    accept(TokenKind::Comma);
  }
}

}  // namespace cairn::front::parse_detail

#endif  // CAIRN_FRONTEND_SYNTAX_PARSER_INTERNAL_H
