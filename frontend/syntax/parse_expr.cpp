// Expressions and types (parser.h), one function per precedence level, loosest first.
#include <cctype>
#include <cstdint>

#include "syntax/parser_internal.h"

namespace cairn::front::parse_detail {

using namespace ast;

namespace {

constexpr uint64_t kTwoTo63 = uint64_t{1} << 63;

ExprPtr makeBinary(BinaryOp op, Span op_span, ExprPtr lhs, ExprPtr rhs) {
  auto e = std::make_unique<BinaryExpr>();
  e->op = op;
  e->op_span = op_span;
  e->span = Span::cover(lhs ? lhs->span : op_span, rhs ? rhs->span : op_span);
  e->lhs = std::move(lhs);
  e->rhs = std::move(rhs);
  return e;
}

bool comparisonOp(TokenKind k, BinaryOp *op) {
  switch (k) {
    case TokenKind::EqEq:
      *op = BinaryOp::Eq;
      return true;
    case TokenKind::NotEq:
      *op = BinaryOp::Ne;
      return true;
    case TokenKind::Lt:
      *op = BinaryOp::Lt;
      return true;
    case TokenKind::Le:
      *op = BinaryOp::Le;
      return true;
    case TokenKind::Gt:
      *op = BinaryOp::Gt;
      return true;
    case TokenKind::Ge:
      *op = BinaryOp::Ge;
      return true;
    default:
      return false;
  }
}

bool containsFnType(const TypeExpr *t) {
  if (t == nullptr) return false;
  switch (t->kind) {
    case TypeKind::Fn:
      return true;
    case TypeKind::Array:
      return containsFnType(t->as<ArrayType>()->elem.get());
    case TypeKind::Named:
      for (const TypeExprPtr &arg : t->as<NamedType>()->args) {
        if (containsFnType(arg.get())) return true;
      }
      return false;
  }
  return false;
}

}  // namespace

bool continuesOperand(TokenKind k) {
  switch (k) {
    case TokenKind::Dot:
    case TokenKind::DotDot:
    case TokenKind::EqEq:
    case TokenKind::NotEq:
    case TokenKind::Lt:
    case TokenKind::Le:
    case TokenKind::Gt:
    case TokenKind::Ge:
    case TokenKind::Plus:
    case TokenKind::Star:
    case TokenKind::Slash:
    case TokenKind::Percent:
    case TokenKind::Amp:
    case TokenKind::Pipe:
    case TokenKind::Caret:
    case TokenKind::Shl:
    case TokenKind::Shr:
    case TokenKind::Ushr:
    case TokenKind::KwAnd:
    case TokenKind::KwOr:
    case TokenKind::KwIs:
    case TokenKind::KwAs:
      return true;
    default:
      return false;
  }
}

ExprPtr Parser::parseExpr() {
  DepthScope scope(*this);
  if (!deeper(kNestCost)) return nullptr;
  return parseOr();
}

ExprPtr Parser::parseOr() {
  DepthScope scope(*this);
  ExprPtr lhs = parseAnd();
  while (at(TokenKind::KwOr)) {
    if (!deeper()) break;
    const Span op = advance().span;
    lhs = makeBinary(BinaryOp::Or, op, std::move(lhs), parseAnd());
  }
  return lhs;
}

ExprPtr Parser::parseAnd() {
  DepthScope scope(*this);
  ExprPtr lhs = parseNot();
  while (at(TokenKind::KwAnd)) {
    if (!deeper()) break;
    const Span op = advance().span;
    lhs = makeBinary(BinaryOp::And, op, std::move(lhs), parseNot());
  }
  return lhs;
}

ExprPtr Parser::parseNot() {
  if (!at(TokenKind::KwNot)) return parseComparison();
  DepthScope scope(*this);
  if (!deeper(kNestCost)) return nullptr;
  auto e = std::make_unique<UnaryExpr>();
  e->op = UnaryOp::Not;
  e->op_span = advance().span;
  e->operand = parseNot();
  e->span = e->operand ? Span::cover(e->op_span, e->operand->span) : e->op_span;
  return e;
}

// Comparisons do not associate: `a < b < c` is reported (once) and parsed left to right, so
// that nothing after it is out of step.
ExprPtr Parser::parseComparison() {
  DepthScope scope(*this);
  ExprPtr lhs = parseAdditive();
  int count = 0;
  TokenKind first = TokenKind::Eof;
  Span first_span;
  std::string first_name;  // the name before the first comparison, if it is one
  while (true) {
    BinaryOp op = BinaryOp::Eq;
    const bool is_test = at(TokenKind::KwIs);
    if (!is_test && !comparisonOp(kind(), &op)) break;
    if (!deeper()) break;
    const Span op_span = peek().span;
    if (count == 0) {
      first = kind();
      first_span = op_span;
      if (lhs && lhs->kind == ExprKind::Name) first_name = lhs->as<NameExpr>()->name.name;
    }
    if (count++ == 1) {
      // The hint is made before the report: peek(1) may lex the next token, which may report
      // an error of its own, and a report moves the diagnostics (a Diagnostic & would dangle).
      std::string hint = "comparisons do not chain: write `a < b and b < c`, or parenthesize one";
      // `id<int>(3)`: another language's type arguments.
      if (first == TokenKind::Lt && kind() == TokenKind::Gt && !first_name.empty() &&
          this->kind(1) == TokenKind::LParen) {
        std::string args(file_.text().substr(first_span.end, op_span.begin - first_span.end));
        while (!args.empty() && args.front() == ' ') args.erase(0, 1);
        while (!args.empty() && args.back() == ' ') args.pop_back();
        hint = "if '" + first_name +
               "' is a generic function, its type arguments are written in brackets: `" +
               first_name + "[" + args + "](...)`, not `" + first_name + "<" + args +
               ">(...)`; else comparisons do not chain: write `a < b and b > c`";
      }
      softError(DiagId::ChainedComparison, op_span, {std::string(tokenSpelling(kind()))})
          .withHint(std::move(hint));
    }
    advance();
    if (is_test) {
      auto e = std::make_unique<IsExpr>();
      e->type = parseType();
      e->span = Span::cover(lhs ? lhs->span : op_span, from(op_span));
      e->value = std::move(lhs);
      lhs = std::move(e);
    } else {
      lhs = makeBinary(op, op_span, std::move(lhs), parseAdditive());
    }
  }
  return lhs;
}

// `+ - | ^` (Go's grouping: the bitwise or and xor bind like addition).
ExprPtr Parser::parseAdditive() {
  DepthScope scope(*this);
  ExprPtr lhs = parseMultiplicative();
  while (true) {
    BinaryOp op;
    switch (kind()) {
      case TokenKind::Plus:
        op = BinaryOp::Add;
        break;
      case TokenKind::Minus:
        op = BinaryOp::Sub;
        break;
      case TokenKind::Pipe:
        op = BinaryOp::BitOr;
        break;
      case TokenKind::Caret:
        op = BinaryOp::BitXor;
        break;
      default:
        return lhs;
    }
    if (!deeper()) break;
    const Span op_span = advance().span;
    lhs = makeBinary(op, op_span, std::move(lhs), parseMultiplicative());
  }
  return lhs;
}

// `* / % & << >> >>>` (Go's grouping: the bitwise and and the shifts bind like multiplication).
ExprPtr Parser::parseMultiplicative() {
  DepthScope scope(*this);
  ExprPtr lhs = parseAs();
  while (true) {
    BinaryOp op;
    switch (kind()) {
      case TokenKind::Star:
        op = BinaryOp::Mul;
        break;
      case TokenKind::Slash:
        op = BinaryOp::Div;
        break;
      case TokenKind::Percent:
        op = BinaryOp::Mod;
        break;
      case TokenKind::Amp:
        op = BinaryOp::BitAnd;
        break;
      case TokenKind::Shl:
        op = BinaryOp::Shl;
        break;
      case TokenKind::Shr:
        op = BinaryOp::Shr;
        break;
      case TokenKind::Ushr:
        op = BinaryOp::Ushr;
        break;
      default:
        return lhs;
    }
    if (!deeper()) break;
    const Span op_span = advance().span;
    lhs = makeBinary(op, op_span, std::move(lhs), parseAs());
  }
  return lhs;
}

ExprPtr Parser::parseAs() {
  DepthScope scope(*this);
  ExprPtr lhs = parseUnary();
  while (at(TokenKind::KwAs)) {
    if (!deeper()) break;
    const Span op_span = advance().span;
    auto e = std::make_unique<AsExpr>();
    e->type = parseType();
    e->span = Span::cover(lhs ? lhs->span : op_span, from(op_span));
    e->value = std::move(lhs);
    lhs = std::move(e);
  }
  return lhs;
}

ExprPtr Parser::parseUnary() {
  if (at(TokenKind::Tilde)) {
    DepthScope scope(*this);
    if (!deeper(kNestCost)) return nullptr;
    auto e = std::make_unique<UnaryExpr>();
    e->op = UnaryOp::Complement;
    e->op_span = advance().span;
    e->operand = parseUnary();
    e->span = e->operand ? Span::cover(e->op_span, e->operand->span) : e->op_span;
    return e;
  }
  if (!at(TokenKind::Minus)) return parsePostfix();
  DepthScope scope(*this);
  if (!deeper(kNestCost)) return nullptr;
  // `-9223372036854775808` is INT64_MIN: the one literal that only exists negated. Not when a
  // postfix operator follows, which binds tighter than the minus.
  const TokenKind after = kind(2);
  if (kind(1) == TokenKind::Int && peek(1).int_value == kTwoTo63 && after != TokenKind::Dot &&
      after != TokenKind::LParen && after != TokenKind::LBracket) {
    auto lit = std::make_unique<IntLit>();
    const Span minus = advance().span;
    lit->value = INT64_MIN;
    lit->span = Span::cover(minus, advance().span);
    return lit;
  }
  auto e = std::make_unique<UnaryExpr>();
  e->op = UnaryOp::Neg;
  e->op_span = advance().span;
  e->operand = parseUnary();
  e->span = e->operand ? Span::cover(e->op_span, e->operand->span) : e->op_span;
  return e;
}

ExprPtr Parser::parsePostfix() {
  DepthScope scope(*this);
  ExprPtr e = parsePrimary();
  while (e != nullptr) {
    if ((at(TokenKind::Dot) || at(TokenKind::LParen) || at(TokenKind::LBracket)) && !deeper()) {
      break;
    }
    if (at(TokenKind::Dot)) {
      advance();
      auto field = std::make_unique<FieldExpr>();
      if (!expectIdent(&field->name, "a field or method name")) return e;
      field->span = Span::cover(e->span, field->name.span);
      field->base = std::move(e);
      e = std::move(field);
    } else if (at(TokenKind::LParen)) {
      auto call = std::make_unique<CallExpr>();
      const Span open = advance().span;
      parseList(TokenKind::RParen, open, [&] {
        if (ExprPtr arg = parseExpr()) call->args.push_back(std::move(arg));
      });
      call->span = from(e->span);
      call->callee = std::move(e);
      e = std::move(call);
    } else if (at(TokenKind::LBracket)) {
      e = parseIndex(std::move(e));
    } else {
      break;
    }
  }
  return e;
}

// base[args]: each argument is also tried as a type (for `max[int]`, `f[[int]]`,
// `box[Pair[int, text]]`), without reporting anything, by backing up over the tokens.
ExprPtr Parser::parseIndex(ExprPtr base) {
  auto index = std::make_unique<IndexExpr>();
  const Span open = advance().span;  // '['
  parseList(TokenKind::RBracket, open, [&] {
    const size_t start = pos_;
    TypeExprPtr type = speculateTypeArg();
    if (type != nullptr && containsFnType(type.get())) {
      // Only a type: a function type is not an expression. Leave the cursor after it.
      index->args.push_back(nullptr);
      index->type_args.push_back(std::move(type));
      return;
    }
    pos_ = start;
    ExprPtr arg = parseExpr();
    if (arg == nullptr) return;
    index->args.push_back(std::move(arg));
    index->type_args.push_back(std::move(type));
  });
  index->span = from(base->span);
  index->base = std::move(base);
  return index;
}

TypeExprPtr Parser::speculateTypeArg() {
  const size_t start = pos_;
  const bool saved_sync = needs_sync_;
  speculating_ = true;
  speculation_failed_ = false;
  TypeExprPtr type = parseType();
  const bool ok =
      type != nullptr && !speculation_failed_ && (at(TokenKind::Comma) || at(TokenKind::RBracket));
  speculating_ = false;
  needs_sync_ = saved_sync;
  if (!ok) {
    pos_ = start;
    return nullptr;
  }
  return type;
}

ExprPtr Parser::parsePrimary() {
  const Token &t = peek();
  switch (t.kind) {
    case TokenKind::Int: {
      auto e = std::make_unique<IntLit>();
      e->span = t.span;
      if (t.hex) {
        e->value = static_cast<int64_t>(t.int_value);  // the 64 bits, as language.md says
      } else if (t.int_value > static_cast<uint64_t>(INT64_MAX)) {
        // 2^63, let through by the lexer after a '-' that turned out not to negate it.
        softError(DiagId::IntOutOfRange, t.span, {t.text})
            .withHint("an int is 64-bit: from -9223372036854775808 to 9223372036854775807");
      } else {
        e->value = static_cast<int64_t>(t.int_value);
      }
      advance();
      return e;
    }
    case TokenKind::Float: {
      auto e = std::make_unique<FloatLit>();
      e->span = t.span;
      e->value = t.float_value;
      advance();
      return e;
    }
    case TokenKind::Text: {
      auto e = std::make_unique<TextLit>();
      e->span = t.span;
      e->value = t.text;
      advance();
      return e;
    }
    case TokenKind::KwTrue:
    case TokenKind::KwFalse: {
      auto e = std::make_unique<BoolLit>();
      e->span = t.span;
      e->value = t.kind == TokenKind::KwTrue;
      advance();
      return e;
    }
    case TokenKind::KwNil: {
      auto e = std::make_unique<NilLit>();
      e->span = advance().span;
      return e;
    }
    case TokenKind::KwSelf: {
      auto e = std::make_unique<SelfExpr>();
      e->span = advance().span;
      return e;
    }
    case TokenKind::Ident: {
      // `new` is not a keyword (the sketch's list has none): followed by a type (a name or
      // '[') it makes an object or an array; elsewhere it is a name like any other. `new[...]`
      // that cannot be `new [T](n)` (a literal inside, or `[name]` with no '(' after it) is an
      // index into a variable named new.
      if (t.text == "new" &&
          (kind(1) == TokenKind::Ident || (kind(1) == TokenKind::LBracket && !indexAfterNew())))
        return parseNew();
      auto e = std::make_unique<NameExpr>();
      e->name.name = t.text;
      e->name.span = t.span;
      e->span = t.span;
      advance();
      return e;
    }
    case TokenKind::LParen: {
      const Span open = advance().span;
      ExprPtr inner = parseExpr();
      if (inner == nullptr) return nullptr;
      if (!expect(TokenKind::RParen, open)) return inner;
      inner->span = from(open);  // the parentheses belong to the expression's source
      return inner;
    }
    case TokenKind::LBracket:
      return parseArrayLit();
    case TokenKind::KwFn:
      return parseFnLit();
    case TokenKind::KwNot: {
      // `a == not b`: 'not' is looser than comparisons. Say so, and parse it anyway.
      softError(DiagId::ExpectedExpr, t.span, {describeToken(t)})
          .withHint("'not' binds looser than comparisons and arithmetic: write (not x)");
      return parseNot();
    }
    default: {
      const std::string found = describeToken(t);
      const bool starts_line = t.newline_before && continuesOperand(t.kind);
      // `a === b`, `a !== b`: '==' and '!=' then '='.
      const bool triple =
          t.kind == TokenKind::Assign && pos_ > 0 &&
          (tokenAt(pos_ - 1).kind == TokenKind::EqEq || tokenAt(pos_ - 1).kind == TokenKind::NotEq);
      const TokenKind kind = t.kind;
      // `let x = 1 +` at the end of a line: the operator carried the expression on to this one.
      const bool dangling =
          t.newline_before && pos_ > 0 && continuesOperand(tokenAt(pos_ - 1).kind) &&
          (kind == TokenKind::RBrace || startsStatementOnly(kind) || startsDeclOnly(kind)) &&
          file_.lineCol(t.span.begin).line > file_.lineCol(tokenAt(pos_ - 1).span.begin).line;
      const std::string dangling_op =
          dangling ? std::string(tokenSpelling(tokenAt(pos_ - 1).kind)) : "";
      // `.5`: a number right after the '.'. Read before the error is reported: peek(1) may lex
      // the next token, which may report an error of its own (`.5a`), and a report moves the
      // diagnostics (d would dangle).
      std::string leading_dot;
      if (kind == TokenKind::Dot) {
        const uint32_t dot_end = t.span.end;
        const Token &next = peek(1);
        if (next.kind == TokenKind::Int && next.span.begin == dot_end &&
            next.text.find_first_not_of("0123456789_") == std::string::npos)
          leading_dot = next.text;
      }
      // The token before this one, when it touches it (`<>`, `**`, `&&`, `..=`).
      const Token *glued =
          pos_ > 0 && tokenAt(pos_ - 1).span.end == t.span.begin ? &tokenAt(pos_ - 1) : nullptr;
      const TokenKind before = glued != nullptr ? glued->kind : TokenKind::Eof;
      // `|x| x * 2`, `|| 5`: another language's function literal (a '|' not glued to a '|').
      const bool pipe_lambda =
          kind == TokenKind::Pipe && before != TokenKind::Pipe &&
          (peek(1).kind == TokenKind::Pipe ||
           (peek(1).kind == TokenKind::Ident &&
            (peek(2).kind == TokenKind::Pipe || peek(2).kind == TokenKind::Comma)));
      std::string range_end;  // `0..=10`: the end to write instead
      std::string range_low;  // ... and its start, when it is one name or number (`0`, `lo`)
      if (kind == TokenKind::Assign && before == TokenKind::DotDot &&
          peek(1).kind == TokenKind::Int && peek(1).int_value < static_cast<uint64_t>(INT64_MAX)) {
        range_end = std::to_string(peek(1).int_value + 1);
        if (pos_ >= 2) {
          const Token &low = tokenAt(pos_ - 2);
          const TokenKind ahead = pos_ >= 3 ? tokenAt(pos_ - 3).kind : TokenKind::Newline;
          if ((low.kind == TokenKind::Int || low.kind == TokenKind::Ident) &&
              (ahead == TokenKind::KwIn || ahead == TokenKind::LParen ||
               ahead == TokenKind::LBracket || ahead == TokenKind::Comma ||
               ahead == TokenKind::Assign || ahead == TokenKind::Newline))
            range_low =
                std::string(file_.text().substr(low.span.begin, low.span.end - low.span.begin));
        }
      }
      // `&&`, `||`, `<>`: the error spans both characters.
      const bool two_chars =
          glued != nullptr &&
          (((kind == TokenKind::Amp || kind == TokenKind::Pipe) && before == kind) ||
           (kind == TokenKind::Gt && before == TokenKind::Lt));
      Diagnostic &d = two_chars ? error(DiagId::ExpectedExpr, Span::cover(glued->span, t.span),
                                        {kind == TokenKind::Amp    ? "'&&'"
                                         : kind == TokenKind::Pipe ? "'||'"
                                                                   : "'<>'"})
                                : errorAtToken(DiagId::ExpectedExpr);
      if (dangling)
        d.withHint("the '" + dangling_op +
                   "' at the end of the line before carries the expression on to this line: "
                   "give it what follows it there");
      else if (starts_line)
        d.withHint(
            "the line break before it ended the statement (only a line ending in an "
            "operator goes on): put " +
            found + " at the end of the line before");
      else if (triple)
        d.withHint(
            "Cairn has no '===' or '!==': '==' and '!=' compare ints, floats and texts by value, "
            "other objects by identity");
      else if (kind == TokenKind::Slash && before == TokenKind::Star)
        d.withHint("'*/' ends a '/*' comment, and no comment is open here");
      else if (kind == TokenKind::Dot && before == TokenKind::DotDot)
        d.withHint("a range is `lo..hi`, with two dots: from lo up to hi, hi not included");
      else if (kind == TokenKind::Assign && before == TokenKind::DotDot)
        d.withHint(range_end.empty()
                       ? std::string("a range `lo..hi` stops before hi: write `lo..hi + 1` to "
                                     "include hi")
                   : range_low.empty()
                       ? "a range `lo..hi` stops before hi: end it at " + range_end +
                             " to include " + std::to_string(peek(1).int_value)
                       : "a range `lo..hi` stops before hi: write `" + range_low + ".." +
                             range_end + "` to include " + std::to_string(peek(1).int_value));
      else if (!leading_dot.empty())
        d.withHint("write 0." + leading_dot + ": a float literal starts with a digit");
      else if (kind == TokenKind::Gt && pos_ > 0 && tokenAt(pos_ - 1).kind == TokenKind::Lt)
        d.withHint("write '!=' for not-equal");  // `<>`, and `< >` too
      else if (kind == TokenKind::Star && before == TokenKind::Star)
        d.withHint("Cairn has no power operator: multiply, or use std.math's pow(x, y) (floats)");
      else if (pipe_lambda)
        d.withHint(
            "a function literal is written `fn(x: int) -> int { return x * 2 }` (it captures "
            "nothing)");
      else if (kind == TokenKind::Amp)
        d.withHint("use 'and' to join two conditions");
      else if (kind == TokenKind::Pipe)
        d.withHint("use 'or' for either of two conditions");
      return nullptr;
    }
  }
}

ExprPtr Parser::parseArrayLit() {
  auto e = std::make_unique<ArrayLitExpr>();
  const Span open = advance().span;  // '['
  parseList(TokenKind::RBracket, open, [&] {
    if (ExprPtr elem = parseExpr()) e->elems.push_back(std::move(elem));
  });
  e->span = from(open);
  return e;
}

bool Parser::indexAfterNew() const {
  const TokenKind inside = kind(2);
  if (inside == TokenKind::Int || inside == TokenKind::Float || inside == TokenKind::Text ||
      inside == TokenKind::Minus || inside == TokenKind::LParen)
    return true;
  if (inside != TokenKind::Ident) return false;
  const std::string &first = peek(2).text;
  const bool type_name = std::isupper(static_cast<unsigned char>(first[0])) || first == "int" ||
                         first == "float" || first == "bool" || first == "text" || first == "any";
  // `new [Pair[int, text]]` (its length missing: parseNew says so) is a type, `new[ks[0]]` not.
  if (type_name && kind(3) == TokenKind::LBracket) return false;
  if (kind(3) != TokenKind::RBracket) {
    // More than a name inside: an array's type (`new [Pair[int, text]](2)`) is followed by its
    // length in parentheses, an index expression (`new[i + 1]`, `new[ks[0]]`) by anything else.
    size_t depth = 0;
    for (size_t k = 1;; ++k) {
      const TokenKind t = kind(k);
      if (t == TokenKind::Eof) return false;
      if (t == TokenKind::LBracket) ++depth;
      if (t == TokenKind::RBracket && --depth == 0) return kind(k + 1) != TokenKind::LParen;
    }
  }
  if (kind(4) == TokenKind::LParen) return false;
  // `new [int]` and `new [Part]` lack their length (reported by parseNew); `new[i]` is an index.
  return !type_name;
}

ExprPtr Parser::parseNew() {
  const Span start = advance().span;  // new
  if (at(TokenKind::LBracket)) {
    // new [T](n)
    auto e = std::make_unique<NewArrayExpr>();
    const Span open = advance().span;
    e->elem = parseType();
    if (needs_sync_ || !expect(TokenKind::RBracket, open)) return nullptr;
    const Span paren = peek().span;
    if (!accept(TokenKind::LParen)) {
      errorAtToken(DiagId::ExpectedToken, {"'(' and the length of the array"})
          .withHint("an array is made with `new [T](length)`, or written `[a, b, c]`");
      return nullptr;
    }
    e->length = parseExpr();
    if (needs_sync_ || !expect(TokenKind::RParen, paren)) return nullptr;
    e->span = from(start);
    return e;
  }
  // `new int[10]`, `new Part[n]`: another language's array.
  if (at(TokenKind::Ident) && kind(1) == TokenKind::LBracket &&
      (kind(2) == TokenKind::Int ||
       (kind(2) == TokenKind::Ident && kind(3) == TokenKind::RBracket &&
        kind(4) != TokenKind::LBrace &&  // `new Box[item] {}`: a generic class's instance
        std::islower(static_cast<unsigned char>(peek(2).text[0])) && peek(2).text != "int" &&
        peek(2).text != "float" && peek(2).text != "bool" && peek(2).text != "text" &&
        peek(2).text != "any"))) {
    const std::string elem = peek().text, length = peek(2).text;
    advance();
    advance();
    errorAtToken(DiagId::ExpectedType)
        .withHint("an array is made with `new [" + elem + "](" + length +
                  ")`: the element type in brackets, then the length");
    return nullptr;
  }
  auto e = std::make_unique<NewExpr>();
  // A line that ends in `new` goes on (the lexer's rule): a variable named `new` at the end of
  // a line takes the next line for the type of an object (campaign K).
  const bool type_on_next_line = peek().newline_before;
  e->type = parseType();
  if (e->type == nullptr) return nullptr;
  if (!at(TokenKind::LBrace)) {
    const bool angle =
        at(TokenKind::Lt) && kind(1) == TokenKind::Ident && e->type->kind == ast::TypeKind::Named;
    const std::string arg = angle ? peek(1).text : "";
    Diagnostic &d = errorAtToken(DiagId::ExpectedToken, {"'{'"});
    if (type_on_next_line)
      d.withHint(kNewAtLineEndHint);  // a variable named new, ending its line
    else if (at(TokenKind::LParen))
      d.withHint("an object is made with `new T { field: value, ... }`");
    if (angle)
      d.withHint("type arguments go in brackets: `" + e->type->as<ast::NamedType>()->name.name +
                 "[" + arg + "]`");
    return nullptr;
  }
  const Span open = advance().span;
  // Fields separated by ',', ';' (as a class declares them) and/or line breaks; a trailing one
  // is fine.
  while (true) {
    while (accept(TokenKind::Newline)) {
    }
    if (accept(TokenKind::RBrace)) break;
    if (at(TokenKind::Eof)) {
      expect(TokenKind::RBrace, open);
      return nullptr;
    }
    FieldInit init;
    if (expectIdent(&init.name, "a field name")) {
      if (at(TokenKind::Assign)) {
        errorAtToken(DiagId::ExpectedToken, {"':'"})
            .withHint("a field's value follows ':': `" + init.name.name + ": value`");
      } else if (expect(TokenKind::Colon)) {
        init.value = parseExpr();
        if (init.value != nullptr) e->fields.push_back(std::move(init));
      }
    }
    if (needs_sync_) {
      if (!skipInList(TokenKind::RBrace) && !at(TokenKind::Newline)) return nullptr;
      needs_sync_ = false;
      if (!accept(TokenKind::Comma)) accept(TokenKind::Semi);
      continue;
    }
    if (accept(TokenKind::Comma) || accept(TokenKind::Semi) || at(TokenKind::Newline) ||
        at(TokenKind::RBrace))
      continue;
    errorAtToken(DiagId::ExpectedToken, {"',' or '}'"}).withNote(open, "to match this '{'");
    // A missing ',': go on after the next ',' or line break, or at the '}'.
    if (!skipInList(TokenKind::RBrace) && !at(TokenKind::Newline)) return nullptr;
    needs_sync_ = false;
    accept(TokenKind::Comma);
  }
  e->span = from(start);
  return e;
}

ExprPtr Parser::parseFnLit() {
  auto e = std::make_unique<FnLitExpr>();
  const Span start = advance().span;  // fn
  if (at(TokenKind::Ident)) {
    errorAtToken(DiagId::ExpectedToken, {"'('"})
        .withHint("a function literal has no name: `fn(a: int) -> int { ... }`");
    return nullptr;
  }
  parseParams(&e->params);
  if (needs_sync_) return nullptr;
  if (accept(TokenKind::Arrow)) {
    e->ret = parseType();
    if (needs_sync_) return nullptr;
  } else if (at(TokenKind::Colon)) {
    e->ret = parseColonResult("fn(...) -> T { ... }");
    if (needs_sync_) return nullptr;
  }
  e->body = expectBlock();
  e->span = from(start);
  return e;
}

// --- Types --------------------------------------------------------------------------------

TypeExprPtr Parser::parseType() {
  DepthScope scope(*this);
  if (!deeper(kNestCost)) return nullptr;
  const Token &t = peek();
  switch (t.kind) {
    case TokenKind::Ident: {
      auto type = std::make_unique<NamedType>();
      type->name.name = t.text;
      type->name.span = t.span;
      advance();
      if (at(TokenKind::LBracket)) {
        const Span open = advance().span;
        if (at(TokenKind::RBracket)) {
          errorAtToken(DiagId::ExpectedType)
              .withHint("an array type is written with the element type inside the brackets: '[" +
                        type->name.name + "]'");
          advance();
        } else {
          parseList(TokenKind::RBracket, open, [&] {
            if (TypeExprPtr arg = parseType()) type->args.push_back(std::move(arg));
          });
        }
      }
      type->span = from(type->name.span);
      return type;
    }
    case TokenKind::LBracket: {
      auto type = std::make_unique<ArrayType>();
      const Span open = advance().span;
      type->elem = parseType();
      if (type->elem != nullptr) expect(TokenKind::RBracket, open);
      type->span = from(open);
      return type;
    }
    case TokenKind::KwFn: {
      auto type = std::make_unique<FnType>();
      const Span start = advance().span;
      const Span open = peek().span;
      if (expect(TokenKind::LParen)) {
        parseList(TokenKind::RParen, open, [&] {
          if (TypeExprPtr param = parseType()) type->params.push_back(std::move(param));
        });
        if (accept(TokenKind::Arrow)) type->ret = parseType();
      }
      type->span = from(start);
      return type;
    }
    default: {
      Diagnostic &d = errorAtToken(DiagId::ExpectedType);
      if (t.kind == TokenKind::KwSelf || t.kind == TokenKind::KwNil) {
        d.withHint(
            "a type is a name such as int or Node, an array type [T] or a function type "
            "fn(T) -> R");
      }
      return nullptr;
    }
  }
}

}  // namespace cairn::front::parse_detail
