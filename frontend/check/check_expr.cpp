// Checking expressions: names, operators, type tests, indexing, construction, literals.
#include <algorithm>
#include <set>

#include "check/checker_impl.h"
#include "lexer/lookalikes.h"

namespace cairn::front {

namespace {

// The first pair of distinct classes of one name at one place in `a` and `b`, two types written
// the same (a class the REPL defined again with other fields, inside an array's element type,
// a generic instance's type argument or a function type): {nullptr, nullptr} when none.
std::pair<const ClassInfo *, const ClassInfo *> sameNamedClasses(const Type *a, const Type *b) {
  if (a == nullptr || b == nullptr || a == b || a->kind != b->kind) return {nullptr, nullptr};
  switch (a->kind) {
    case TypeKind::Class:
      if (a->cls == b->cls) return {nullptr, nullptr};
      if (a->cls->type_args.size() == b->cls->type_args.size() && a->cls->decl != nullptr &&
          a->cls->decl == b->cls->decl) {
        for (size_t i = 0; i < a->cls->type_args.size(); ++i)
          if (auto p = sameNamedClasses(a->cls->type_args[i], b->cls->type_args[i]); p.first)
            return p;
        return {nullptr, nullptr};
      }
      if (a->cls->name == b->cls->name && a->cls->decl != nullptr && b->cls->decl != nullptr)
        return {a->cls, b->cls};
      return {nullptr, nullptr};
    case TypeKind::Array:
      return sameNamedClasses(a->elem, b->elem);
    case TypeKind::Fn:
      if (a->params.size() != b->params.size()) return {nullptr, nullptr};
      for (size_t i = 0; i < a->params.size(); ++i)
        if (auto p = sameNamedClasses(a->params[i], b->params[i]); p.first) return p;
      return sameNamedClasses(a->ret, b->ret);
    default:
      return {nullptr, nullptr};
  }
}

}  // namespace

sem::ExprPtr Checker::errorExpr(Span span) {
  auto e = std::make_unique<sem::Nil>();
  e->type = types_.error();
  e->span = span;
  return e;
}

LocalVar *Checker::lookupLocal(FnCtx &cx, const std::string &name, bool *captured) {
  *captured = false;
  for (FnCtx *c = &cx; c != nullptr; c = c->outer) {
    for (auto it = c->scopes.rbegin(); it != c->scopes.rend(); ++it) {
      auto f = it->find(name);
      if (f != it->end()) {
        *captured = c != &cx;
        return f->second;
      }
    }
  }
  return nullptr;
}

sem::ExprPtr Checker::coerce(FnCtx &, sem::ExprPtr e, const Type *to, Span span) {
  if (to == nullptr || e->type == to) return e;
  if (e->type->kind == TypeKind::Void) {
    error(DiagId::TypeMismatch, span, {typeName(to), "no value"});
    e->type = types_.error();
    return e;
  }
  if (assignable(e->type, to)) {
    if (e->type->kind == TypeKind::Nil || e->type->isError()) {
      e->type = to;
      return e;
    }
    // An upcast: the same reference, seen as the wider type.
    auto up = std::make_unique<sem::As>();
    up->span = e->span;
    up->type = to;
    up->target = to;
    up->needs_check = false;
    up->value = std::move(e);
    return up;
  }
  if (to->kind == TypeKind::Any && e->type->isHandle()) {
    // The sketch: storing a function value in a field or an array is an error that says why;
    // an 'any' (a field's, an element's, or a variable's that may be stored) is no way around.
    cannotStore(span, e->type, "an 'any'");
    e->type = types_.error();
    return e;
  }
  if (to->mentionsError() || e->type->mentionsError()) {
    // An earlier error made one of them unknown ("fn(<error>) -> int"): said already.
    e->type = types_.error();
    return e;
  }
  Diagnostic &d = error(DiagId::TypeMismatch, span, {typeName(to), typeName(e->type)});
  if (to->kind == TypeKind::Float && e->type->kind == TypeKind::Int)
    d.withHint("convert it with float(...)");
  else if (to->kind == TypeKind::Int && e->type->kind == TypeKind::Float)
    d.withHint("convert it with int(...) (which truncates)");
  else if (to->kind == TypeKind::Text && e->type->kind != TypeKind::Text && !e->type->isHandle())
    d.withHint("convert it with str(...)");
  else if (to->kind == TypeKind::Any &&
           (e->type->kind == TypeKind::Int || e->type->kind == TypeKind::Float ||
            e->type->kind == TypeKind::Bool))
    d.withHint("'any' holds references (texts, arrays, objects), and " + typeName(e->type) +
               " is a value: keep it in a field of an object, or in an array of " +
               typeName(e->type) + "s");
  else if (to->kind == TypeKind::Class &&
           (e->type->kind == TypeKind::Class || e->type->kind == TypeKind::Any) &&
           (e->type->kind == TypeKind::Any || to->cls->isSubclassOf(e->type->cls)) &&
           e->kind != sem::ExprKind::New)  // a `new A {}` is never a B
    d.withHint("if it is always a " + to->cls->name + ", say so with 'as " + to->cls->name + "'");
  else if (to->kind == TypeKind::Array && e->type->kind == TypeKind::Array && to->elem->isRef() &&
           e->type->elem->isRef() && assignable(e->type->elem, to->elem))
    // `[Dog]` where `[Animal]` is expected: a [Dog] could then be given a Cat.
    d.withHint("an array's type is fixed where it is made (" + typeName(e->type) + " is not a " +
               typeName(to) + ", whose elements could be " +
               (to->elem->kind == TypeKind::Any ? std::string("of any type")
                                                : "any " + typeName(to->elem)) +
               "): make it a " + typeName(to) + ", as in `let a: " + typeName(to) + " = [...]`");
  else if (to->kind == TypeKind::Class && e->type->kind == TypeKind::Class &&
           to->cls->decl != nullptr && to->cls->decl == e->type->cls->decl &&
           !to->cls->type_args.empty() &&
           to->cls->type_args.size() == e->type->cls->type_args.size() && [&] {
             for (size_t i = 0; i < to->cls->type_args.size(); ++i)
               if (!assignable(e->type->cls->type_args[i], to->cls->type_args[i])) return false;
             return true;
           }())
    // `List[Dog]` where `List[Animal]` is expected: a List[Dog] could then be given a Cat.
    d.withHint([&] {
      size_t i = 0;  // the first argument that differs
      while (i + 1 < to->cls->type_args.size() &&
             to->cls->type_args[i] == e->type->cls->type_args[i])
        ++i;
      return "each instance of a generic class is a type of its own: a " + typeName(e->type) +
             " is not a " + typeName(to) + " (which could be given any " +
             typeName(to->cls->type_args[i]) + "); make it a " + typeName(to) +
             " where it is created, as in `new " + typeName(to) + " {}`";
    }());
  else if (typeName(to) == typeName(e->type)) {
    // Two classes of one name, themselves or inside the types ([P], Box[P]): a class the REPL
    // redefined with other fields (a new type; the values made before keep the old one). Say
    // which definition is which.
    if (auto [want, got] = sameNamedClasses(to, e->type); want != nullptr) {
      d.withNote(want->decl->name.span, "the " + want->name + " expected is this one");
      d.withNote(got->decl->name.span,
                 e->type->kind == TypeKind::Class && e->type->cls == got
                     ? "the value is of this " + got->name
                     : "the " + got->name + " in the value's type is this one");
      d.withHint(
          "a class defined again with other fields is a new class: values made before "
          "keep the old one");
    }
  }
  e->type = types_.error();
  return e;
}

sem::ExprPtr Checker::checkValue(FnCtx &cx, const ast::Expr &e, const Type *expected) {
  sem::ExprPtr r = checkExpr(cx, e, expected);
  if (r->type->kind == TypeKind::Void) {
    std::string what = "this call";
    if (r->kind == sem::ExprKind::CallDirect)
      what = "'" + r->as<sem::CallDirect>()->func->name + "'";
    else if (r->kind == sem::ExprKind::CallVirtual)
      what = "'" + r->as<sem::CallVirtual>()->method->name + "'";
    Diagnostic &d = error(DiagId::VoidInExpression, e.span, {what});
    if (&e == cx.init_on_next_line)
      d.withHint(
          "the '=' at the end of the line before carries the declaration on to this line: give "
          "the variable its value there, after the '='");
    r->type = types_.error();
  }
  return r;
}

sem::ExprPtr Checker::checkCondition(FnCtx &cx, const ast::Expr &e) {
  return coerce(cx, checkValue(cx, e, types_.boolType()), types_.boolType(), e.span);
}

sem::ExprPtr Checker::checkExpr(FnCtx &cx, const ast::Expr &e, const Type *expected) {
  switch (e.kind) {
    case ast::ExprKind::IntLit: {
      auto r = std::make_unique<sem::IntConst>();
      r->value = e.as<ast::IntLit>()->value;
      r->type = types_.intType();
      r->span = e.span;
      return r;
    }
    case ast::ExprKind::FloatLit: {
      auto r = std::make_unique<sem::FloatConst>();
      r->value = e.as<ast::FloatLit>()->value;
      r->type = types_.floatType();
      r->span = e.span;
      return r;
    }
    case ast::ExprKind::TextLit: {
      auto r = std::make_unique<sem::TextConst>();
      r->value = e.as<ast::TextLit>()->value;
      program_->text_literals.push_back(r->value);
      r->type = types_.textType();
      r->span = e.span;
      return r;
    }
    case ast::ExprKind::BoolLit: {
      auto r = std::make_unique<sem::BoolConst>();
      r->value = e.as<ast::BoolLit>()->value;
      r->type = types_.boolType();
      r->span = e.span;
      return r;
    }
    case ast::ExprKind::NilLit: {
      auto r = std::make_unique<sem::Nil>();
      r->type = types_.nilType();
      r->span = e.span;
      return r;
    }
    case ast::ExprKind::Self: {
      if (cx.self_var == nullptr) {
        // In a literal inside a method, self would be a capture.
        if (cx.outer && cx.outer->self_var)
          error(DiagId::Capture, e.span, {"self"});
        else
          error(DiagId::SelfOutsideMethod, e.span);
        return errorExpr(e.span);
      }
      auto r = std::make_unique<sem::Local>();
      r->var = cx.self_var;
      r->type = cx.self_var->type;
      r->span = e.span;
      return r;
    }
    case ast::ExprKind::Name:
      return checkName(cx, *e.as<ast::NameExpr>(), expected);
    case ast::ExprKind::Unary: {
      const auto *u = e.as<ast::UnaryExpr>();
      auto r = std::make_unique<sem::Unary>();
      r->span = e.span;
      if (u->op == ast::UnaryOp::Not) {
        r->op = sem::UnOp::Not;
        r->operand = checkCondition(cx, *u->operand);
        r->type = types_.boolType();
        return r;
      }
      const bool complement = u->op == ast::UnaryOp::Complement;
      r->op = complement ? sem::UnOp::Complement : sem::UnOp::Neg;
      r->operand = checkValue(cx, *u->operand, expected);
      const Type *t = r->operand->type;
      if (t->kind != TypeKind::Int && (complement || t->kind != TypeKind::Float)) {
        if (!t->isError()) {
          Diagnostic &d =
              error(DiagId::UnaryOperand, u->op_span, {complement ? "~" : "-", typeName(t)});
          if (complement && t->kind == TypeKind::Bool)
            d.withHint("use 'not' to negate a condition");
        }
        r->type = types_.error();
        return r;
      }
      r->type = t;
      return r;
    }
    case ast::ExprKind::Binary:
      return checkBinary(cx, *e.as<ast::BinaryExpr>());
    case ast::ExprKind::Is: {
      const auto *i = e.as<ast::IsExpr>();
      return checkCast(cx, *i->value, *i->type, true, e.span);
    }
    case ast::ExprKind::As: {
      const auto *a = e.as<ast::AsExpr>();
      return checkCast(cx, *a->value, *a->type, false, e.span);
    }
    case ast::ExprKind::Field:
      return checkField(cx, *e.as<ast::FieldExpr>());
    case ast::ExprKind::Call:
      return checkCall(cx, *e.as<ast::CallExpr>(), expected);
    case ast::ExprKind::Index:
      return checkIndex(cx, *e.as<ast::IndexExpr>());
    case ast::ExprKind::New:
      return checkNew(cx, *e.as<ast::NewExpr>());
    case ast::ExprKind::NewArray: {
      const auto *n = e.as<ast::NewArrayExpr>();
      const Type *elem = resolveType(n->elem.get(), cx.module, cx.bindings);
      auto r = std::make_unique<sem::NewArray>();
      r->span = e.span;
      r->length = coerce(cx, checkValue(cx, *n->length, types_.intType()), types_.intType(),
                         n->length->span);
      if (elem->isError()) {
        r->type = types_.error();
        return r;
      }
      if (elem->isHandle()) {
        cannotStore(n->elem->span, elem, "an array");
        r->type = types_.error();
        return r;
      }
      r->type = arrayType(elem);
      return r;
    }
    case ast::ExprKind::ArrayLit:
      return checkArrayLit(cx, *e.as<ast::ArrayLitExpr>(), expected);
    case ast::ExprKind::FnLit:
      return checkFnLit(cx, *e.as<ast::FnLitExpr>());
  }
  return errorExpr(e.span);
}

sem::ExprPtr Checker::checkName(FnCtx &cx, const ast::NameExpr &e, const Type *expected) {
  const std::string &name = e.name.name;
  bool captured = false;
  if (LocalVar *v = lookupLocal(cx, name, &captured)) {
    if (captured) {
      error(DiagId::Capture, e.name.span, {name}).withHint("pass it as a parameter instead");
      return errorExpr(e.span);
    }
    auto r = std::make_unique<sem::Local>();
    r->var = v;
    r->type = v->type;
    r->span = e.span;
    return r;
  }
  Symbol s = lookupModule(cx.module, name);
  switch (s.kind) {
    case Symbol::Kind::Global: {
      if (s.global->type == nullptr) {
        Diagnostic &d = error(DiagId::UnknownName, e.name.span, {name});
        if (s.global == cx.initializing)
          d.withHint("'" + name + "' is the value this initializer makes: it has none yet");
        else
          d.withHint("'" + name +
                     "' is declared later in its module; module-level values "
                     "are initialized in order");
        return errorExpr(e.span);
      }
      auto r = std::make_unique<sem::Global>();
      r->global = s.global;
      r->type = s.global->type;
      r->span = e.span;
      return r;
    }
    case Symbol::Kind::Func: {
      FuncInfo *f = nullptr;
      if (!s.fn->type_params.empty()) {
        // Where a function type is expected, it gives the type arguments (`let f: fn(int) ->
        // int = pick`, an argument of a function type).
        f = instantiateForFnType(s.fn, s.module, expected, e.name.span);
        if (f == nullptr) {
          error(DiagId::CannotInfer, e.name.span, {name})
              .withHint("give the type arguments, as in " + name + "[int]");
          return errorExpr(e.span);
        }
      } else {
        f = instantiateFunction(s.fn, s.module, {}, e.name.span);
      }
      auto r = std::make_unique<sem::FuncRef>();
      r->func = f;
      r->type = f->fnType;
      r->span = e.span;
      return r;
    }
    case Symbol::Kind::Class:
    case Symbol::Kind::BuiltinClass: {
      Diagnostic &d = error(DiagId::NoValue, e.name.span, {"class '" + name + "'"});
      if (s.kind == Symbol::Kind::Class && (name == "Transaction" || name == "Database"))
        d.withHint("this program's class '" + name + "' hides the built-in class " + name +
                   " (and its " + (name == "Transaction" ? "begin()" : "create(), open()") +
                   "): give yours another name" +
                   (name == "Transaction" ? " (atomic { } still works)" : ""));
      else if (s.kind == Symbol::Kind::BuiltinClass)
        d.withHint(name == "Database"
                       ? "Database is a built-in class: Database.open(\"name\") or "
                         "Database.create(\"name\") gives one"
                       : "Transaction is a built-in class: Transaction.begin() gives one");
      else
        d.withHint("make an object with 'new " + name + " { ... }'");
      return errorExpr(e.span);
    }
    case Symbol::Kind::Builtin:
      error(DiagId::NoValue, e.name.span, {"built-in function '" + name + "'"})
          .withHint("call it, or wrap it in a function literal");
      return errorExpr(e.span);
    case Symbol::Kind::None:
      break;
  }
  if (reportUnderscoreClash(cx.module, name, e.name.span)) return errorExpr(e.span);
  // Unknown: suggest a near name in scope, or self.field inside a method.
  Diagnostic &d = error(DiagId::UnknownName, e.name.span, {name});
  for (const FnCtx *c = &cx; c != nullptr; c = c->outer)
    if (c->initializing_local != nullptr && *c->initializing_local == name) {
      if (c != &cx)
        d.withHint("'" + name +
                   "' is the local this function literal initializes: a literal cannot use it "
                   "(nor any other local around it); a named function (`fn " +
                   name + "(...)`) can call itself");
      else
        d.withHint("'" + name +
                   "' is declared by this statement: it has no value until the "
                   "initializer is done");
      return errorExpr(e.span);
    }
  // Declared by a later statement of a block around it: a local is in scope from its `let` on.
  for (auto it = cx.open_blocks.rbegin(); it != cx.open_blocks.rend(); ++it) {
    const auto &[block, at] = *it;
    for (size_t i = at + 1; i < block->stmts.size(); ++i) {
      if (block->stmts[i]->kind != ast::StmtKind::Let) continue;
      const auto *later = block->stmts[i]->as<ast::LetStmt>();
      if (later->name.name != name) continue;
      d.withHint(
          "'" + name + "' is declared later, by the `" + (later->is_var ? "var" : "let") +
          "` at line " +
          std::to_string(
              diags_.sources().file(later->name.span.file).lineCol(later->name.span.begin).line) +
          ": a local is in scope only after its declaration; move the declaration up");
      return errorExpr(e.span);
    }
  }
  if (name == "super") {
    d.withHint(
        "Cairn has no 'super': an overriding method cannot call the method it overrides; put "
        "the shared part in a method of the base class with another name, and call that");
    return errorExpr(e.span);
  }
  if (cx.self_class && (cx.self_class->findField(name) || cx.self_class->findMethod(name))) {
    d.withHint("fields and methods are reached through self: write 'self." + name + "'");
    return errorExpr(e.span);
  }
  // `std.math.sqrt(x)`: a module's name (or a part of it) is not a value.
  bool module_name = name == "std";
  for (ModuleInfo *im : cx.module->imports) {
    const std::string dotted = "." + im->name + ".";
    module_name = module_name || dotted.find("." + name + ".") != std::string::npos;
  }
  if (module_name) {
    d.withHint("'" + name +
               "' names a module, which is not a value: an import brings the module's names in "
               "unqualified (`import std.math`, then `sqrt(2.0)`)");
    return errorExpr(e.span);
  }
  std::vector<std::string> candidates = moduleNames(cx.module);
  for (FnCtx *c = &cx; c; c = c->outer)
    for (const auto &scope : c->scopes)
      for (const auto &[n, v] : scope) candidates.push_back(n);
  std::string std_module;
  const ModuleInfo *owner = moduleDeclaring(name, false);
  if (owner != nullptr && owner != cx.module && !owner->is_std)
    d.withHint("'" + name + "' is declared in module '" + owner->name +
               "', which this module does not import (imports are not passed on): add 'import " +
               owner->name + "'");
  else if (const char *word = cairnWordFor(name, false))
    d.withHint("Cairn's name for it is '" + std::string(word) + "'");
  else if (name == "range" || name == "xrange")
    d.withHint("a range is written 'lo..hi' (hi excluded), as in 'for i in 0..3'");
  else if (!(std_module = stdModuleDeclaring(name, false)).empty())
    d.withHint("'" + name + "' is in the standard library: add 'import " + std_module + "'");
  else if (const std::string hint = didYouMean(name, candidates); !hint.empty())
    d.withHint(hint);
  return errorExpr(e.span);
}

namespace {

const char *binOpText(ast::BinaryOp op) {
  switch (op) {
    case ast::BinaryOp::Or:
      return "or";
    case ast::BinaryOp::And:
      return "and";
    case ast::BinaryOp::Eq:
      return "==";
    case ast::BinaryOp::Ne:
      return "!=";
    case ast::BinaryOp::Lt:
      return "<";
    case ast::BinaryOp::Le:
      return "<=";
    case ast::BinaryOp::Gt:
      return ">";
    case ast::BinaryOp::Ge:
      return ">=";
    case ast::BinaryOp::Add:
      return "+";
    case ast::BinaryOp::Sub:
      return "-";
    case ast::BinaryOp::Mul:
      return "*";
    case ast::BinaryOp::Div:
      return "/";
    case ast::BinaryOp::Mod:
      return "%";
    case ast::BinaryOp::BitAnd:
      return "&";
    case ast::BinaryOp::BitOr:
      return "|";
    case ast::BinaryOp::BitXor:
      return "^";
    case ast::BinaryOp::Shl:
      return "<<";
    case ast::BinaryOp::Shr:
      return ">>";
    case ast::BinaryOp::Ushr:
      return ">>>";
  }
  return "?";
}

bool isBitwise(ast::BinaryOp op) {
  return op == ast::BinaryOp::BitAnd || op == ast::BinaryOp::BitOr || op == ast::BinaryOp::BitXor ||
         op == ast::BinaryOp::Shl || op == ast::BinaryOp::Shr || op == ast::BinaryOp::Ushr;
}

sem::BinOp bitwiseOp(ast::BinaryOp op) {
  switch (op) {
    case ast::BinaryOp::BitAnd:
      return sem::BinOp::BitAnd;
    case ast::BinaryOp::BitOr:
      return sem::BinOp::BitOr;
    case ast::BinaryOp::BitXor:
      return sem::BinOp::BitXor;
    case ast::BinaryOp::Shl:
      return sem::BinOp::Shl;
    case ast::BinaryOp::Shr:
      return sem::BinOp::Shr;
    default:
      return sem::BinOp::Ushr;
  }
}

bool isComparison(ast::BinaryOp op) {
  return op == ast::BinaryOp::Eq || op == ast::BinaryOp::Ne || op == ast::BinaryOp::Lt ||
         op == ast::BinaryOp::Le || op == ast::BinaryOp::Gt || op == ast::BinaryOp::Ge;
}

}  // namespace

sem::ExprPtr Checker::checkBinary(FnCtx &cx, const ast::BinaryExpr &e) {
  auto r = std::make_unique<sem::Binary>();
  r->span = e.op_span;
  if (e.op == ast::BinaryOp::And || e.op == ast::BinaryOp::Or) {
    r->op = e.op == ast::BinaryOp::And ? sem::BinOp::And : sem::BinOp::Or;
    r->lhs = checkCondition(cx, *e.lhs);
    r->rhs = checkCondition(cx, *e.rhs);
    r->operand_type = r->type = types_.boolType();
    return r;
  }
  r->lhs = checkValue(cx, *e.lhs, nullptr);
  // The right operand may take its type from the left (nil, [], ...).
  r->rhs = checkValue(cx, *e.rhs, r->lhs->type->isRef() ? r->lhs->type : nullptr);
  const Type *lt = r->lhs->type;
  const Type *rt = r->rhs->type;
  if (lt->isError() || rt->isError()) {
    r->type = types_.error();
    r->op = sem::BinOp::Add;
    return r;
  }
  const char *opText = binOpText(e.op);
  auto bad = [&]() {
    // When the left operand is a number or a text, the right one was expected to match it
    // (a text only where text has the operator: '+' and the comparisons).
    bool scalar_lhs =
        lt->kind == TypeKind::Int || lt->kind == TypeKind::Float ||
        (lt->kind == TypeKind::Text && (e.op == ast::BinaryOp::Add || isComparison(e.op)));
    bool ordered = e.op != ast::BinaryOp::Eq && e.op != ast::BinaryOp::Ne;
    Diagnostic &d =
        scalar_lhs && lt != rt && (ordered || !rt->isRef())
            ? error(DiagId::TypeMismatch, e.rhs->span, {typeName(lt), typeName(rt)})
            : error(DiagId::BinaryOperands, e.op_span, {opText, typeName(lt), typeName(rt)});
    if (e.op == ast::BinaryOp::Add && (lt->kind == TypeKind::Nil || rt->kind == TypeKind::Nil))
      d.withHint(
          "'+' joins two texts, and nil is no text to join (a text that is nil is a "
          "runtime error there); write the text itself, \"\" for none");
    else if (e.op == ast::BinaryOp::Add &&
             (lt->kind == TypeKind::Text || rt->kind == TypeKind::Text))
      d.withHint("convert the other operand with str(...)");
    else if (e.op == ast::BinaryOp::Mul &&
             (lt->kind == TypeKind::Text || rt->kind == TypeKind::Text))
      d.withHint(
          "text has '+' (joining) and the comparisons only; repeat(t, n) of std.text repeats a "
          "text");
    else if (lt->kind == TypeKind::Text && !isComparison(e.op))
      d.withHint("text has '+' (joining) and the comparisons only");
    else if ((lt->kind == TypeKind::Int && rt->kind == TypeKind::Float) ||
             (lt->kind == TypeKind::Float && rt->kind == TypeKind::Int))
      d.withHint("convert with float(...) or int(...): numbers are never converted implicitly");
    else if (!ordered && (lt->kind == TypeKind::Fn || rt->kind == TypeKind::Fn))
      d.withHint(
          "function values cannot be compared: compare what they return, or keep a name or a "
          "number beside each");
    r->type = types_.error();
    r->op = sem::BinOp::Add;
    return std::move(r);
  };
  if (isComparison(e.op)) {
    r->type = types_.boolType();
    switch (e.op) {
      case ast::BinaryOp::Eq:
        r->op = sem::BinOp::Eq;
        break;
      case ast::BinaryOp::Ne:
        r->op = sem::BinOp::Ne;
        break;
      case ast::BinaryOp::Lt:
        r->op = sem::BinOp::Lt;
        break;
      case ast::BinaryOp::Le:
        r->op = sem::BinOp::Le;
        break;
      case ast::BinaryOp::Gt:
        r->op = sem::BinOp::Gt;
        break;
      default:
        r->op = sem::BinOp::Ge;
        break;
    }
    bool equality = e.op == ast::BinaryOp::Eq || e.op == ast::BinaryOp::Ne;
    if (lt == rt &&
        (lt->kind == TypeKind::Int || lt->kind == TypeKind::Float || lt->kind == TypeKind::Text)) {
      r->operand_type = lt;
      return r;
    }
    if (!equality) return bad();
    if (lt == rt && lt->kind == TypeKind::Bool) {
      r->operand_type = lt;
      return r;
    }
    if (lt->isRef() && rt->isRef()) {
      // Identity, or contents when both may be text.
      if (lt->kind == TypeKind::Nil && rt->kind == TypeKind::Nil) {
        r->operand_type = types_.anyType();
        return r;
      }
      const Type *common = nullptr;
      if (assignable(lt, rt))
        common = rt;
      else if (assignable(rt, lt))
        common = lt;
      if (!common) return bad();
      if (common->kind == TypeKind::Nil) common = types_.anyType();
      r->lhs = coerce(cx, std::move(r->lhs), common, e.lhs->span);
      r->rhs = coerce(cx, std::move(r->rhs), common, e.rhs->span);
      r->operand_type = common;
      return r;
    }
    // Database and transaction handles: the same handle, or (with nil) the handle of nothing.
    auto isDbOrTxn = [](const Type *t) {
      return t->kind == TypeKind::Database || t->kind == TypeKind::Transaction;
    };
    if (lt == rt && isDbOrTxn(lt)) {
      r->operand_type = lt;
      return r;
    }
    const Type *handle = lt->kind == TypeKind::Nil ? rt : lt;
    if ((lt->kind == TypeKind::Nil || rt->kind == TypeKind::Nil) && isDbOrTxn(handle)) {
      r->lhs = coerce(cx, std::move(r->lhs), handle, e.lhs->span);
      r->rhs = coerce(cx, std::move(r->rhs), handle, e.rhs->span);
      r->operand_type = handle;
      return r;
    }
    return bad();
  }
  if (isBitwise(e.op)) {
    // Bitwise operators and shifts take two ints (no implicit conversion, no bools).
    if (lt->kind != TypeKind::Int || rt->kind != TypeKind::Int) {
      const bool bools = lt->kind == TypeKind::Bool || rt->kind == TypeKind::Bool;
      Diagnostic &d =
          error(DiagId::BinaryOperands, e.op_span, {opText, typeName(lt), typeName(rt)});
      if (bools && e.op == ast::BinaryOp::BitAnd) d.withHint("use 'and' to join two conditions");
      if (bools && e.op == ast::BinaryOp::BitOr)
        d.withHint("use 'or' for either of two conditions");
      if (bools && e.op == ast::BinaryOp::BitXor) d.withHint("use '!=' for either but not both");
      r->type = types_.error();
      r->op = sem::BinOp::Add;
      return r;
    }
    r->op = bitwiseOp(e.op);
    r->operand_type = r->type = lt;
    return r;
  }
  switch (e.op) {
    case ast::BinaryOp::Add:
      r->op = sem::BinOp::Add;
      break;
    case ast::BinaryOp::Sub:
      r->op = sem::BinOp::Sub;
      break;
    case ast::BinaryOp::Mul:
      r->op = sem::BinOp::Mul;
      break;
    case ast::BinaryOp::Div:
      r->op = sem::BinOp::Div;
      break;
    default:
      r->op = sem::BinOp::Mod;
      break;
  }
  if (lt != rt) return bad();
  if (lt->kind == TypeKind::Text && e.op == ast::BinaryOp::Add) {
    r->op = sem::BinOp::Concat;
    r->operand_type = r->type = lt;
    return r;
  }
  if (lt->kind != TypeKind::Int && lt->kind != TypeKind::Float) return bad();
  r->operand_type = r->type = lt;
  return r;
}

sem::ExprPtr Checker::checkCast(FnCtx &cx, const ast::Expr &value, const ast::TypeExpr &type,
                                bool is, Span span) {
  sem::ExprPtr v = checkValue(cx, value, nullptr);
  const Type *target = resolveType(&type, cx.module, cx.bindings);
  const Type *vt = v->type;
  auto fail = [&](sem::ExprPtr ex) {
    ex->type = is ? types_.boolType() : types_.error();
    return ex;
  };
  if (vt->isError() || target->isError()) return fail(std::move(v));
  const char *op = is ? "is" : "as";
  if (!vt->isRef()) {
    Diagnostic &d = error(DiagId::IsNeedsReference, value.span, {op, typeName(vt)});
    // `i as float`: a conversion, which Cairn writes as a call.
    if (!is && (vt->kind == TypeKind::Int || vt->kind == TypeKind::Float) &&
        (target->kind == TypeKind::Int || target->kind == TypeKind::Float) && vt != target)
      d.withHint("to convert it, write " + typeName(target) + "(...)");
    return fail(std::move(v));
  }
  if (!target->isRef() || target->kind == TypeKind::Nil) {
    Diagnostic &d = error(DiagId::IsNeedsReferenceType, type.span, {op, typeName(target)});
    if (target->isValue())
      d.withHint("an 'any' holds references only: an int, a float or a bool is never in one");
    return fail(std::move(v));
  }
  // Could a value of static type vt ever be a target?
  bool possible = vt->kind == TypeKind::Any || vt->kind == TypeKind::Nil ||
                  target->kind == TypeKind::Any || assignable(target, vt) || assignable(vt, target);
  if (!possible) {
    Diagnostic &d = error(DiagId::ImpossibleCast, span, {typeName(vt), typeName(target)});
    // Two classes of one name (a REPL session's class defined again: its earlier objects keep
    // the earlier class; campaign L: "A can never be A").
    if (typeName(vt) == typeName(target))
      d.withHint("these are two different classes named '" + typeName(target) +
                 "': the value's is an earlier definition (a class defined again is a new "
                 "class, and the objects made before keep the earlier one)");
    return fail(std::move(v));
  }
  if (target->kind == TypeKind::Class) resolveClass(target->cls);
  if (is) {
    auto r = std::make_unique<sem::Is>();
    r->span = span;
    r->type = types_.boolType();
    r->target = target;
    r->value = std::move(v);
    return r;
  }
  auto r = std::make_unique<sem::As>();
  r->span = span;
  r->type = target;
  r->target = target;
  r->needs_check = !assignable(vt, target);
  r->value = std::move(v);
  return r;
}

sem::ExprPtr Checker::checkIndex(FnCtx &cx, const ast::IndexExpr &e) {
  // f[T](...) without a call is a generic function as a value.
  if (e.base->kind == ast::ExprKind::Name) {
    const auto &n = *e.base->as<ast::NameExpr>();
    bool captured = false;
    if (!lookupLocal(cx, n.name.name, &captured)) {
      Symbol s = lookupModule(cx.module, n.name.name);
      if (s.kind == Symbol::Kind::Func && !s.fn->type_params.empty()) {
        std::vector<const Type *> targs = explicitTypeArgs(cx, e);
        for (const Type *t : targs)
          if (t->isError()) return errorExpr(e.span);
        if (targs.size() != s.fn->type_params.size()) {
          error(DiagId::TypeArgCount, e.span,
                {n.name.name, plural(s.fn->type_params.size(), "type argument"),
                 std::to_string(targs.size())});
          return errorExpr(e.span);
        }
        FuncInfo *f = instantiateFunction(s.fn, s.module, targs, e.span);
        auto r = std::make_unique<sem::FuncRef>();
        r->func = f;
        r->type = f->fnType;
        r->span = e.span;
        return r;
      }
    }
  }
  // The parser leaves an argument null when it can only be a type (one with a function type
  // in it); outside a generic function's type arguments that is never a value.
  for (size_t i = 0; i < e.args.size(); ++i) {
    if (e.args[i] != nullptr) continue;
    checkExpr(cx, *e.base);
    error(DiagId::ExpectedExpr, e.type_args[i]->span, {"a function type"})
        .withHint("only a generic function takes types in brackets, as in f[int](x)");
    for (const auto &a : e.args)
      if (a != nullptr) checkExpr(cx, *a);
    return errorExpr(e.span);
  }
  sem::ExprPtr base = checkValue(cx, *e.base, nullptr);
  const Type *bt = base->type;
  // An unknown name before brackets is most likely a generic function guessed at
  // (`newList[Item]()`): its arguments are types, and "class 'Item' has no value" would only
  // repeat the one error.
  if (bt->isError() && e.base->kind == ast::ExprKind::Name) return errorExpr(e.span);
  if (e.args.size() != 1) {
    if (!bt->isError())
      error(DiagId::WrongArgCount, e.span, {"1 index", std::to_string(e.args.size())});
    return errorExpr(e.span);
  }
  sem::ExprPtr idx =
      coerce(cx, checkValue(cx, *e.args[0], types_.intType()), types_.intType(), e.args[0]->span);
  if (bt->isError()) return errorExpr(e.span);
  auto r = std::make_unique<sem::Index>();
  r->span = e.span;
  if (bt->kind == TypeKind::Array) {
    r->type = bt->elem;
  } else if (bt->kind == TypeKind::Text) {
    r->type = types_.intType();
  } else {
    error(DiagId::NotIndexable, e.base->span, {typeName(bt)});
    return errorExpr(e.span);
  }
  r->base = std::move(base);
  r->index = std::move(idx);
  return r;
}

sem::ExprPtr Checker::checkNew(FnCtx &cx, const ast::NewExpr &e) {
  const Type *t = resolveType(e.type.get(), cx.module, cx.bindings);
  auto r = std::make_unique<sem::New>();
  r->span = e.span;
  if (t->isError()) {
    for (const auto &f : e.fields) checkExpr(cx, *f.value);
    r->type = types_.error();
    return r;
  }
  if (t->kind != TypeKind::Class) {
    Diagnostic &d = error(DiagId::NewNeedsClass, e.type->span, {typeName(t)});
    if (t->kind == TypeKind::Database)
      d.withHint("use Database.create(name) or Database.open(name)");
    if (t->kind == TypeKind::Transaction) d.withHint("use Transaction.begin()");
    for (const auto &f : e.fields) checkExpr(cx, *f.value);
    r->type = types_.error();
    return r;
  }
  ClassInfo *cls = t->cls;
  resolveClass(cls);
  r->cls = cls;
  r->type = t;
  std::set<std::string> given;
  for (const ast::FieldInit &fi : e.fields) {
    const FieldInfo *field = cls->findField(fi.name.name);
    if (!field) {
      Diagnostic &d = error(DiagId::NoSuchField, fi.name.span, {cls->name, fi.name.name});
      // The fields the literal does not give already (`{x: 1, z: 2}` means y, not x).
      std::vector<std::string> names;
      for (const FieldInfo *f : cls->fields)
        if (std::none_of(e.fields.begin(), e.fields.end(),
                         [&](const ast::FieldInit &g) { return g.name.name == f->name; }))
          names.push_back(f->name);
      if (const std::string hint = didYouMean(fi.name.name, names); !hint.empty()) d.withHint(hint);
      checkExpr(cx, *fi.value);
      continue;
    }
    if (!given.insert(fi.name.name).second) {
      error(DiagId::FieldGivenTwice, fi.name.span, {fi.name.name});
      checkExpr(cx, *fi.value);
      continue;
    }
    sem::FieldInit init;
    init.field = field;
    init.value = coerce(cx, checkValue(cx, *fi.value, field->type), field->type, fi.value->span);
    r->inits.push_back(std::move(init));
  }
  return r;
}

sem::ExprPtr Checker::checkArrayLit(FnCtx &cx, const ast::ArrayLitExpr &e, const Type *expected) {
  auto r = std::make_unique<sem::ArrayLit>();
  r->span = e.span;
  const Type *elem = nullptr;
  if (expected && expected->kind == TypeKind::Array) elem = expected->elem;
  if (expected && expected->isError() && e.elems.empty()) {  // its declared type was reported
    r->type = types_.error();
    return r;
  }
  if (!elem && e.elems.empty()) {
    error(DiagId::CannotInferEmptyArray, e.span)
        .withHint("give it a type, as in 'let a: [int] = []'");
    r->type = types_.error();
    return r;
  }
  // Without an expected type, the element type is the first element's that is not nil (nil is
  // of every reference type: `[nil, new A {}]` is an [A], as `[new A {}, nil]` is; all nil:
  // [any]), widened to the nearest common base class when elements are objects of different
  // classes (`[new Sq {}, new Circle {}]` is a [Shape]).
  const bool inferred = elem == nullptr;
  std::vector<sem::ExprPtr> values;
  for (const ast::ExprPtr &x : e.elems) {
    sem::ExprPtr v = checkValue(cx, *x, elem);
    if (!elem) {
      if (v->type->kind != TypeKind::Nil) elem = v->type;
    } else if (inferred && elem->kind == TypeKind::Class && v->type->kind == TypeKind::Class &&
               !v->type->cls->isSubclassOf(elem->cls)) {
      for (ClassInfo *c = elem->cls->super; c; c = c->super)
        if (v->type->cls->isSubclassOf(c)) {
          elem = types_.classType(c);
          break;
        }
    }
    values.push_back(std::move(v));
  }
  if (!elem) elem = types_.anyType();  // every element nil
  for (size_t i = 0; i < values.size(); i++) {
    const Type *t = values[i]->type;
    if (inferred && elem->isRef() && t->isRef() && !elem->isError() && !t->isError() &&
        !assignable(t, elem)) {
      error(DiagId::TypeMismatch, e.elems[i]->span, {typeName(elem), typeName(t)})
          .withHint("an array literal's elements are of its first element's type (" +
                    typeName(elem) +
                    "); for elements of different types, say the array's type: `let a: [any] = "
                    "[...]`");
      values[i]->type = types_.error();
      r->elems.push_back(std::move(values[i]));
      continue;
    }
    if (inferred && !elem->isError() && !t->isError() && elem->kind != TypeKind::Any &&
        !assignable(t, elem)) {
      // `[1, "two"]`: a value type beside another type has no common type to widen to.
      error(DiagId::TypeMismatch, e.elems[i]->span, {typeName(elem), typeName(t)})
          .withHint(t->kind == TypeKind::Nil
                        ? "nil is not a value of " + typeName(elem) +
                              ": only a reference type (text, an array, a class, any) admits nil"
                        : "an array literal's elements are all of its first element's type (" +
                              typeName(elem) + ")");
      values[i]->type = types_.error();
      r->elems.push_back(std::move(values[i]));
      continue;
    }
    r->elems.push_back(coerce(cx, std::move(values[i]), elem, e.elems[i]->span));
  }
  if (elem->isError()) {
    r->type = types_.error();
    return r;
  }
  if (elem->isHandle()) {
    cannotStore(e.span, elem, "an array");
    r->type = types_.error();
    return r;
  }
  r->type = arrayType(elem);
  return r;
}

sem::ExprPtr Checker::checkFnLit(FnCtx &cx, const ast::FnLitExpr &e) {
  auto info = std::make_unique<FuncInfo>();
  FuncInfo *f = info.get();
  f->name = "fn literal";
  std::string owner = cx.info ? cx.info->symbol : cx.module->symbol;
  f->symbol = owner + "#fn" + std::to_string(++literal_count_);
  f->module = cx.module;
  f->literal = &e;
  f->span = e.span;
  if (cx.bindings) f->bindings = *cx.bindings;
  for (const ast::Param &p : e.params) {
    f->params.push_back(resolveType(p.type.get(), cx.module, cx.bindings));
    f->param_names.push_back(p.name.name);
  }
  f->ret = e.ret ? resolveType(e.ret.get(), cx.module, cx.bindings) : types_.voidType();
  f->fnType = types_.fnType(f->params, f->ret);
  f->checked = true;
  literal_funcs_.push_back(std::move(info));

  auto fn = std::make_unique<sem::Function>();
  fn->info = f;
  if (defer_literals_ && cx.initializing != nullptr && cx.bindings == nullptr) {
    deferred_literals_.push_back(DeferredLiteral{&e, f, fn.get(), cx.module});
    program_->functions.push_back(std::move(fn));
  } else {
    checkFnLitBody(cx, e, f, fn.get());
    program_->functions.push_back(std::move(fn));
  }
  auto r = std::make_unique<sem::FuncRef>();
  r->func = f;
  r->type = f->fnType;
  r->span = e.span;
  return r;
}

void Checker::checkFnLitBody(FnCtx &cx, const ast::FnLitExpr &e, FuncInfo *f, sem::Function *fn) {
  FnCtx inner;
  inner.fn = fn;
  inner.info = f;
  inner.module = cx.module;
  inner.bindings = cx.bindings;
  inner.outer = &cx;
  inner.inst_site = cx.inst_site;
  inner.inst_name = cx.inst_name;
  inner.inst_via = cx.inst_via;
  FnCtx *saved = current_;
  current_ = &inner;
  inner.scopes.emplace_back();
  for (size_t i = 0; i < f->params.size(); ++i)
    fn->params.push_back(
        declareLocal(inner, f->param_names[i], f->params[i], true, e.params[i].name.span));
  fn->body = checkBlock(inner, *e.body, false);
  if (f->ret->kind != TypeKind::Void && !f->ret->isError() && !alwaysReturns(fn->body.get()))
    error(DiagId::MissingReturn, e.span, {"this function literal", typeName(f->ret)});
  current_ = saved;
}

}  // namespace cairn::front
