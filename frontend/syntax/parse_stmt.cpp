// Statements and blocks (parser.h).
#include "syntax/parser_internal.h"

namespace cairn::front::parse_detail {

using namespace ast;

namespace {

// "function 'f'", "class 'C'": a declaration found inside a block, for DeclarationInBlock.
std::string describeDecl(const Token &keyword, const Token &next, const Token &after) {
  auto named = [](const char *what, const Token &name) {
    return name.kind == TokenKind::Ident ? std::string(what) + " '" + name.text + "'"
                                         : std::string(what);
  };
  switch (keyword.kind) {
    case TokenKind::KwClass:
      return named("class", next);
    case TokenKind::KwFn:
      return named("function", next);
    case TokenKind::KwExtern:
      return named("extern function", after);
    case TokenKind::KwOverride:
      return named("method", after);
    default:
      return "an import";
  }
}

}  // namespace

std::unique_ptr<Block> Parser::parseBlock(bool brace_missing) {
  auto block = std::make_unique<Block>();
  DepthScope scope(*this);
  if (!deeper(kNestCost)) {
    block->span = peek().span;  // the '{' is left for the enclosing construct's sync
    return block;
  }
  // Without its '{' (reported by the caller), the block opens at the end of the line before.
  const Span open = brace_missing ? prevSpan() : advance().span;  // '{'
  needs_sync_ = false;  // found a '{': back on the grammar's track
  const uint32_t outer_indent = block_indent_;
  block_indent_ = indentOf(open);
  while (true) {
    while (accept(TokenKind::Newline) || accept(TokenKind::Semi)) {
    }
    if (accept(TokenKind::RBrace)) break;
    if (at(TokenKind::Eof)) {
      errorAtToken(DiagId::ExpectedToken, {"'}'"}).withNote(open, "to match this '{'");
      break;
    }
    if (atDeclStart()) {
      if (outdented(peek(), block_indent_)) {
        // A declaration no deeper than the line that opened the block: its '}' is missing.
        errorAtToken(DiagId::ExpectedToken, {"'}'"}).withNote(open, "to match this '{'");
        break;
      }
      softError(DiagId::DeclarationInBlock, peek().span, {describeDecl(peek(), peek(1), peek(2))})
          .withHint(
              "functions, classes and imports are declared at module level; a function "
              "literal `fn(...) { ... }` can be kept in a local");
      parseDecl();
      finishItem(SyncMode::Stmt);
      continue;
    }
    const size_t before = pos_;
    if (StmtPtr s = parseStmt()) block->stmts.push_back(std::move(s));
    finishItem(SyncMode::Stmt);
    if (pos_ == before && !at(TokenKind::RBrace) && !at(TokenKind::Eof)) advance();
  }
  block_indent_ = outer_indent;
  block->span = from(open);
  return block;
}

bool Parser::braceOnNextLine() {
  if (needs_sync_ || !at(TokenKind::Newline) || kind(1) != TokenKind::LBrace) return false;
  softError(DiagId::BraceOnNextLine, peek(1).span)
      .withHint(
          "a line break ends what comes before it: put the '{' at the end of that line, as in "
          "`fn main() {` or `if x > 0 {`");
  advance();  // the line break
  return true;
}

std::unique_ptr<Block> Parser::expectBlock() {
  if (at(TokenKind::LBrace) || braceOnNextLine()) return parseBlock();
  if (!needs_sync_) {  // else the condition before it was wrong: one error is enough
    // `if a\n    and b {`: the next line was meant to continue this one.
    const bool continued = at(TokenKind::Newline) && continuesOperand(kind(1));
    const std::string next = continued ? describeToken(peek(1)) : "";
    // (Looked at before the error: reading a token may report one, which would move `d`.)
    const bool arrow = at(TokenKind::Assign) && kind(1) == TokenKind::Gt;
    // `a =!= b`: '=' then '!=' ('=!' alone is the lexer's: lexAssignBang).
    const bool bang_eq = at(TokenKind::Assign) && kind(1) == TokenKind::NotEq &&
                         peek(1).span.begin == peek().span.end;
    Diagnostic &d = errorAtToken(DiagId::ExpectedToken, {"'{'"});
    if (arrow)
      d.withHint(
          "a function's body is a block: `fn(x: int) -> int { return x * 2 }` (Cairn has no "
          "'=>' arrow)");
    else if (bang_eq)
      d.withHint("did you mean '!='? ('=!=' is not an operator)");
    else if (at(TokenKind::Assign))
      d.withHint("to compare, use '=='");
    if (continued)
      d.withHint(
          "the line break ends the expression (only a line ending in an operator goes on): put " +
          next + " at the end of this line");
  }
  needs_sync_ = true;
  if (recoverTo(TokenKind::LBrace)) return parseBlock();
  auto empty = std::make_unique<Block>();
  empty->span = peek().span;
  return empty;
}

StmtPtr Parser::parseStmt() {
  switch (kind()) {
    case TokenKind::KwLet:
    case TokenKind::KwVar: {
      auto s = std::make_unique<LetStmt>();
      const Span start = peek().span;
      parseBinding(&s->is_var, &s->name, &s->type, &s->init);
      s->span = from(start);
      return s;
    }
    case TokenKind::KwIf:
      return parseIf();
    case TokenKind::KwWhile:
      return parseWhile();
    case TokenKind::KwFor:
      return parseFor();
    case TokenKind::KwBreak: {
      auto s = std::make_unique<BreakStmt>();
      s->span = advance().span;
      return s;
    }
    case TokenKind::KwContinue: {
      auto s = std::make_unique<ContinueStmt>();
      s->span = advance().span;
      return s;
    }
    case TokenKind::KwReturn:
      return parseReturn();
    case TokenKind::KwAtomic: {
      auto s = std::make_unique<AtomicStmt>();
      const Span start = advance().span;
      s->body = expectBlock();
      s->span = from(start);
      return s;
    }
    case TokenKind::LBrace:
      return parseBlock();
    default:
      return parseSimpleStmt();
  }
}

StmtPtr Parser::parseIf(bool else_if) {
  auto s = std::make_unique<IfStmt>();
  // The block counts a level, as a while's does; an `else if` counts two units more (a chain
  // of them nests: parser_internal.h, Nesting).
  DepthScope scope(*this);
  // The chain's limit is kMaxDepth, not its slack: the slack is for the blocks and expressions
  // of its last link, and an error inside one of those would leave the rest of the chain to
  // be read as statements of their own (campaign K: "expected an expression, found 'else'").
  if (else_if && !deeper(depth_ + 2 > kMaxDepth ? kMaxDepth + kSlack + 1 : 2)) {
    skipIfChain();
    return nullptr;
  }
  const Span start = advance().span;  // if
  s->cond = parseExpr();
  s->then_block = expectBlock();
  // `else` may stand at the start of the line after the '}'.
  if (at(TokenKind::KwElse) || (at(TokenKind::Newline) && kind(1) == TokenKind::KwElse)) {
    accept(TokenKind::Newline);
    advance();  // else
    if (at(TokenKind::KwIf)) {
      s->else_stmt = parseIf(true);
    } else if (at(TokenKind::LBrace)) {
      s->else_stmt = parseBlock();
    } else {
      errorAtToken(DiagId::ExpectedToken, {"'{' or 'if'"});
      if (recoverTo(TokenKind::LBrace)) s->else_stmt = parseBlock();
    }
  }
  s->span = from(start);
  return s;
}

void Parser::skipIfChain() {
  for (;;) {
    while (!at(TokenKind::Eof) && !at(TokenKind::LBrace)) advance();  // to the block
    int depth = 0;
    while (!at(TokenKind::Eof)) {
      const TokenKind k = advance().kind;
      if (k == TokenKind::LBrace) ++depth;
      if (k == TokenKind::RBrace && --depth == 0) break;
    }
    if (!at(TokenKind::KwElse) && !(at(TokenKind::Newline) && kind(1) == TokenKind::KwElse)) return;
    accept(TokenKind::Newline);
    advance();  // else
  }
}

StmtPtr Parser::parseWhile() {
  auto s = std::make_unique<WhileStmt>();
  const Span start = advance().span;  // while
  s->cond = parseExpr();
  s->body = expectBlock();
  s->span = from(start);
  return s;
}

StmtPtr Parser::parseFor() {
  auto s = std::make_unique<ForStmt>();
  const Span start = advance().span;  // for
  if (at(TokenKind::LParen)) {
    // A loop header of another language (`for (int i = 0; i < n; i++)`, `for (x in xs)`): one
    // error, the header skipped to its ')' on this line, the body parsed for its own errors
    // and dropped (the loop has no variable to check it with). A `++` or `--` in the header
    // is part of that one error (the lexer is quiet about it meanwhile), which then says how
    // to count in Cairn.
    const Span paren = peek().span;
    std::string step, counter = "i";
    bool prefix = false;  // `++i` rather than `i++`
    lexer_.setQuietIncrements(true);
    int depth = 0;
    while (!at(TokenKind::Eof) && !at(TokenKind::Newline)) {
      const Token &t = advance();
      if (t.kind == TokenKind::Invalid && (t.text == "++" || t.text == "--") && step.empty()) {
        step = t.text;
        if (tokenAt(pos_ - 2).kind == TokenKind::Ident) counter = tokenAt(pos_ - 2).text;
        if (peek().kind == TokenKind::Ident) {  // ++i
          counter = peek().text;
          prefix = true;
        }
      }
      if (t.kind == TokenKind::LParen) ++depth;
      if (t.kind == TokenKind::RParen && --depth == 0) break;
    }
    lexer_.setQuietIncrements(false);
    if (step.empty()) {
      error(DiagId::ExpectedToken, paren, {"a loop variable name", "'('"})
          .withHint("a Cairn loop is 'for i in 0..n { ... }' or 'for x in items { ... }'");
    } else {
      error(DiagId::CStyleFor, paren, {prefix ? step + counter : counter + step, step, counter})
          .withHint("write 'for " + counter + " in 0..n { ... }' (" + counter +
                    " runs from 0 to n - 1), or a 'while' loop that ends with '" + counter + " " +
                    step.substr(0, 1) + "= 1'");
    }
    if (depth == 0 && at(TokenKind::LBrace)) {
      needs_sync_ = false;
      (void)expectBlock();
    }
    s->span = from(start);
    return s;
  }
  if (expectIdent(&s->var, "a loop variable name") && expect(TokenKind::KwIn)) {
    s->iterable = parseExpr();
    if (!needs_sync_ && accept(TokenKind::DotDot)) s->range_end = parseExpr();
    s->body = expectBlock();
  }
  s->span = from(start);
  return s;
}

StmtPtr Parser::parseReturn() {
  auto s = std::make_unique<ReturnStmt>();
  const Span start = advance().span;  // return
  switch (kind()) {
    case TokenKind::Newline:
    case TokenKind::Semi:
    case TokenKind::RBrace:
    case TokenKind::Eof:
      break;
    default:
      s->value = parseExpr();
      break;
  }
  s->span = from(start);
  return s;
}

StmtPtr Parser::parseSimpleStmt() {
  ExprPtr target = parseExpr();
  if (target == nullptr) return nullptr;
  AssignOp op;
  switch (kind()) {
    case TokenKind::Assign:
      op = AssignOp::Assign;
      break;
    case TokenKind::PlusEq:
      op = AssignOp::Add;
      break;
    case TokenKind::MinusEq:
      op = AssignOp::Sub;
      break;
    case TokenKind::StarEq:
      op = AssignOp::Mul;
      break;
    case TokenKind::SlashEq:
      op = AssignOp::Div;
      break;
    case TokenKind::PercentEq:
      op = AssignOp::Mod;
      break;
    case TokenKind::AmpEq:
      op = AssignOp::BitAnd;
      break;
    case TokenKind::PipeEq:
      op = AssignOp::BitOr;
      break;
    case TokenKind::CaretEq:
      op = AssignOp::BitXor;
      break;
    case TokenKind::ShlEq:
      op = AssignOp::Shl;
      break;
    case TokenKind::ShrEq:
      op = AssignOp::Shr;
      break;
    case TokenKind::UshrEq:
      op = AssignOp::Ushr;
      break;
    default: {
      auto s = std::make_unique<ExprStmt>();
      s->span = target->span;
      s->expr = std::move(target);
      return s;
    }
  }
  auto s = std::make_unique<AssignStmt>();
  s->op = op;
  s->op_span = advance().span;
  s->value = parseExpr();
  s->span = from(target->span);
  s->target = std::move(target);
  return s;
}

}  // namespace cairn::front::parse_detail
