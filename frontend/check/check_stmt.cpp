// Checking statements.
#include <algorithm>

#include "check/checker_impl.h"

namespace cairn::front {

LocalVar *Checker::declareLocal(FnCtx &cx, const std::string &name, const Type *t, bool is_var,
                                Span span) {
  auto v = std::make_unique<LocalVar>();
  v->name = name;
  v->type = t;
  v->is_var = is_var;
  v->span = span;
  LocalVar *raw = v.get();
  if (cx.fn != nullptr) {
    v->id = static_cast<unsigned>(cx.fn->locals.size());
    cx.fn->locals.push_back(std::move(v));
  } else {
    // Only function bodies declare locals (a global initializer is an expression).
    orphan_locals_.push_back(std::move(v));
  }
  auto &scope = cx.scopes.back();
  if (auto it = scope.find(name); it != scope.end()) {
    const LocalVar *prev = it->second;
    const bool param = cx.fn != nullptr && std::find(cx.fn->params.begin(), cx.fn->params.end(),
                                                     prev) != cx.fn->params.end();
    Diagnostic &d = error(DiagId::AlreadyDeclared, span, {name});
    if (prev->span.valid())
      d.withNote(prev->span, param ? "the parameter '" + name + "' is declared here"
                                   : "the first '" + name + "' is declared here");
    if (param || prev->is_var)
      d.withHint("to change it, assign it ('" + name + " = ...'); else use another name");
    else
      d.withHint("use another name");
  }
  scope[name] = raw;
  return raw;
}

namespace {

// Whether e is `true`, written as a constant: true, not false, and/or of constants (so that
// `while not false { ... }` is the endless loop `while true` is).
bool constantTrue(const sem::Expr *e, bool want = true) {
  switch (e->kind) {
    case sem::ExprKind::BoolConst:
      return e->as<sem::BoolConst>()->value == want;
    case sem::ExprKind::Unary:
      return e->as<sem::Unary>()->op == sem::UnOp::Not &&
             constantTrue(e->as<sem::Unary>()->operand.get(), !want);
    case sem::ExprKind::Binary: {
      const auto *b = e->as<sem::Binary>();
      if (!b->lhs) return false;
      // true: and of two trues, or of a true and anything; false: the duals.
      const bool both = (b->op == sem::BinOp::And) == want;
      if (b->op != sem::BinOp::And && b->op != sem::BinOp::Or) return false;
      return both ? constantTrue(b->lhs.get(), want) && constantTrue(b->rhs.get(), want)
                  : constantTrue(b->lhs.get(), want) || constantTrue(b->rhs.get(), want);
    }
    default:
      return false;
  }
}

}  // namespace

bool Checker::alwaysReturns(const sem::Stmt *s) {
  if (s == nullptr) return false;
  switch (s->kind) {
    case sem::StmtKind::Return:
      return true;
    case sem::StmtKind::Block:
      for (const auto &st : s->as<sem::Block>()->stmts)
        if (alwaysReturns(st.get())) return true;
      return false;
    case sem::StmtKind::If: {
      const auto *i = s->as<sem::If>();
      return i->else_stmt && alwaysReturns(i->then_block.get()) &&
             alwaysReturns(i->else_stmt.get());
    }
    case sem::StmtKind::Atomic:
      return alwaysReturns(s->as<sem::Atomic>()->body.get());
    case sem::StmtKind::While: {
      // `while true { ... }` (or another constant true) without a break never falls through.
      const auto *w = s->as<sem::While>();
      if (!constantTrue(w->cond.get())) return false;
      struct BreakFinder {
        static bool has(const sem::Stmt *st) {
          if (!st) return false;
          switch (st->kind) {
            case sem::StmtKind::Break:
              return true;
            case sem::StmtKind::Block:
              for (const auto &x : st->as<sem::Block>()->stmts)
                if (has(x.get())) return true;
              return false;
            case sem::StmtKind::If:
              return has(st->as<sem::If>()->then_block.get()) ||
                     has(st->as<sem::If>()->else_stmt.get());
            case sem::StmtKind::Atomic:
              return has(st->as<sem::Atomic>()->body.get());
            default:
              return false;  // breaks inside nested loops belong to them
          }
        }
      };
      return !BreakFinder::has(w->body.get());
    }
    case sem::StmtKind::Expr: {
      const sem::Expr *e = s->as<sem::ExprStmt>()->expr.get();
      if (e->kind != sem::ExprKind::Builtin) return false;
      const auto *call = e->as<sem::BuiltinCall>();
      sem::Builtin b = call->builtin;
      return b == sem::Builtin::Panic || b == sem::Builtin::Exit ||
             (b == sem::Builtin::Intrinsic && call->intrinsic->noreturn);
    }
    default:
      return false;
  }
}

bool Checker::onLaterLine(Span a, Span b) const {
  if (!a.valid() || !b.valid() || a.file != b.file) return false;
  const SourceFile &f = diags_.sources().file(a.file);
  return f.lineCol(b.begin).line > f.lineCol(a.end).line;
}

std::unique_ptr<sem::Block> Checker::checkBlock(FnCtx &cx, const ast::Block &b, bool new_scope) {
  auto out = std::make_unique<sem::Block>();
  out->span = b.span;
  if (new_scope) cx.scopes.emplace_back();
  bool warned = false;
  cx.open_blocks.emplace_back(&b, 0);
  struct Closing {
    FnCtx &cx;
    ~Closing() { cx.open_blocks.pop_back(); }
  } closing{cx};
  for (size_t i = 0; i < b.stmts.size(); ++i) {
    cx.open_blocks.back().second = i;
    const ast::Stmt &s = *b.stmts[i];
    // `return` with its value on the next line: the line break ended the return, and the value
    // became a statement of its own. One error, at the return, says so.
    if (s.kind == ast::StmtKind::Return && !s.as<ast::ReturnStmt>()->value &&
        i + 1 < b.stmts.size() && b.stmts[i + 1]->kind == ast::StmtKind::Expr &&
        onLaterLine(s.span, b.stmts[i + 1]->span)) {
      split_return_ = &s;
      split_value_ = b.stmts[i + 1].get();
    }
    const bool split = &s == split_return_;
    sem::StmtPtr st = checkStmt(cx, s);
    if (split) split_return_ = nullptr;  // used (a later node may reuse the address)
    // (In a function that returns nothing a bare `return` is whole: the next line is not its
    // value, and the return check let go of it.)
    const bool split_error = split && split_value_ != nullptr;
    // A statement after one that always leaves the block is never run: a warning, once per
    // block (not after a split `return`, whose value was reported as an error already).
    if (st && !split_error && i + 1 < b.stmts.size()) {
      const char *after = nullptr;
      switch (st->kind) {
        case sem::StmtKind::Return:
          after = "a 'return'";
          break;
        case sem::StmtKind::Break:
          after = "a 'break'";
          break;
        case sem::StmtKind::Continue:
          after = "a 'continue'";
          break;
        case sem::StmtKind::Expr:
          if (alwaysReturns(st.get())) after = "a call that never returns";
          break;
        case sem::StmtKind::While:
          if (alwaysReturns(st.get())) after = "a loop that only a 'return' leaves";
          break;
        default:
          if (alwaysReturns(st.get())) after = "a statement that returns on every path";
      }
      if (after != nullptr && !warned) {
        warned = true;  // the rest is still checked: its errors are errors
        diags_.report(DiagId::UnreachableCode, b.stmts[i + 1]->span, {after})
            .withHint("delete it, or move it before the statement that leaves the block");
      }
    }
    if (st) out->stmts.push_back(std::move(st));
  }
  if (new_scope) cx.scopes.pop_back();
  return out;
}

namespace {

sem::BinOp binOpOf(ast::AssignOp op) {
  switch (op) {
    case ast::AssignOp::Add:
      return sem::BinOp::Add;
    case ast::AssignOp::Sub:
      return sem::BinOp::Sub;
    case ast::AssignOp::Mul:
      return sem::BinOp::Mul;
    case ast::AssignOp::Div:
      return sem::BinOp::Div;
    case ast::AssignOp::BitAnd:
      return sem::BinOp::BitAnd;
    case ast::AssignOp::BitOr:
      return sem::BinOp::BitOr;
    case ast::AssignOp::BitXor:
      return sem::BinOp::BitXor;
    case ast::AssignOp::Shl:
      return sem::BinOp::Shl;
    case ast::AssignOp::Shr:
      return sem::BinOp::Shr;
    case ast::AssignOp::Ushr:
      return sem::BinOp::Ushr;
    default:
      return sem::BinOp::Mod;
  }
}

bool isBitwiseAssign(ast::AssignOp op) {
  return op == ast::AssignOp::BitAnd || op == ast::AssignOp::BitOr || op == ast::AssignOp::BitXor ||
         op == ast::AssignOp::Shl || op == ast::AssignOp::Shr || op == ast::AssignOp::Ushr;
}

const char *assignOpText(ast::AssignOp op) {
  switch (op) {
    case ast::AssignOp::Add:
      return "+";
    case ast::AssignOp::Sub:
      return "-";
    case ast::AssignOp::Mul:
      return "*";
    case ast::AssignOp::Div:
      return "/";
    case ast::AssignOp::Mod:
      return "%";
    case ast::AssignOp::BitAnd:
      return "&";
    case ast::AssignOp::BitOr:
      return "|";
    case ast::AssignOp::BitXor:
      return "^";
    case ast::AssignOp::Shl:
      return "<<";
    case ast::AssignOp::Shr:
      return ">>";
    case ast::AssignOp::Ushr:
      return ">>>";
    default:
      return "=";
  }
}

}  // namespace

sem::StmtPtr Checker::checkStmt(FnCtx &cx, const ast::Stmt &s) {
  switch (s.kind) {
    case ast::StmtKind::Block: {
      auto b = checkBlock(cx, *s.as<ast::Block>());
      return b;
    }
    case ast::StmtKind::Let: {
      const auto *l = s.as<ast::LetStmt>();
      const Type *declared = l->type ? resolveType(l->type.get(), cx.module, cx.bindings) : nullptr;
      auto out = std::make_unique<sem::Let>();
      out->span = s.span;
      const Type *t = declared;
      if (l->init) {
        const std::string *outer_init = cx.initializing_local;
        cx.initializing_local = &l->name.name;
        // `let x =` with nothing after it on its line: the '=' carries the statement on to the
        // next line, whose call may be no value (checkValue says so in its hint).
        const ast::Expr *outer_next_line = cx.init_on_next_line;
        // (After the type when there is one: `let x: Box[\n int] = f()` has no '=' at a line end.)
        cx.init_on_next_line = onLaterLine(l->type ? l->type->span : l->name.span, l->init->span)
                                   ? l->init.get()
                                   : nullptr;
        out->init = checkValue(cx, *l->init, declared);
        cx.init_on_next_line = outer_next_line;
        cx.initializing_local = outer_init;
        if (declared) out->init = coerce(cx, std::move(out->init), declared, l->init->span);
        if (!t) t = out->init->type;
        if (t->kind == TypeKind::Nil) {
          error(DiagId::CannotInferNil, l->name.span)
              .withHint("give the variable a type, as in 'var x: Node = nil'");
          t = types_.error();
        }
      }
      if (!t) t = types_.error();
      if (!l->init) requireValue(l->name.name, l->name.span, t);
      out->var = declareLocal(cx, l->name.name, t, l->is_var, l->name.span);
      return out;
    }
    case ast::StmtKind::Assign: {
      const auto *a = s.as<ast::AssignStmt>();
      auto out = std::make_unique<sem::Assign>();
      out->span = s.span;
      sem::ExprPtr target;
      // Check what may be assigned before its type.
      const ast::Expr &te = *a->target;
      if (te.kind == ast::ExprKind::Name) {
        const auto &n = *te.as<ast::NameExpr>();
        bool captured = false;
        LocalVar *v = lookupLocal(cx, n.name.name, &captured);
        if (v && !captured && !v->is_var && v->is_loop) {
          error(DiagId::AssignToLoopVar, n.name.span, {n.name.name})
              .withHint("copy it into a 'var' to change it");
        } else if (v && !captured && !v->is_var) {
          error(DiagId::AssignToLet, n.name.span, {n.name.name})
              .withHint("declare it with 'var' to change it");
        } else if (v && !captured) {
          v->assigned = true;
        } else if (!v) {
          Symbol sym = lookupModule(cx.module, n.name.name);
          if (sym.kind == Symbol::Kind::Global && !sym.global->is_var)
            // A REPL session's `let` is not module-level to its user (G16 of the eighth pass).
            error(sym.global->module != nullptr && sym.global->module->path == "<repl>"
                      ? DiagId::AssignToLet
                      : DiagId::ConstantAssign,
                  n.name.span, {n.name.name})
                .withHint("declare it with 'var' to change it");
          else if (sym.kind == Symbol::Kind::Func || sym.kind == Symbol::Kind::Builtin)
            error(DiagId::NotAssignable, n.name.span,
                  {"'" + n.name.name + "': it is a function, not a variable"})
                .withHint(
                    "to hold a function that can change, declare a variable of its type "
                    "(var f: fn(...) -> ... = " +
                    n.name.name + ") and assign that");
          else if (sym.kind == Symbol::Kind::Class)
            error(DiagId::NotAssignable, n.name.span,
                  {"'" + n.name.name + "': it is a class, not a variable"});
        }
        target = checkExpr(cx, te);
      } else if (te.kind == ast::ExprKind::Field || te.kind == ast::ExprKind::Index) {
        target = checkExpr(cx, te);
        if (target->kind == sem::ExprKind::Index &&
            target->as<sem::Index>()->base->type->kind == TypeKind::Text) {
          error(DiagId::NotAssignable, te.span, {"a byte of a text (text is immutable)"});
        } else if (target->kind != sem::ExprKind::Field && target->kind != sem::ExprKind::Index &&
                   target->kind != sem::ExprKind::DbRoot && !target->type->isError()) {
          // A built-in class's property (`d.name`): it is read, not a field.
          if (te.kind == ast::ExprKind::Field)
            error(DiagId::NotAssignable, te.span,
                  {"'" + te.as<ast::FieldExpr>()->name.name + "': it can only be read"});
          else
            error(DiagId::NotAssignable, te.span, {"this expression"});
        }
      } else if (te.kind == ast::ExprKind::Self) {
        error(DiagId::NotAssignable, te.span, {"'self'"})
            .withHint(
                "self is the object the method was called on: change its fields (self.x = ...), "
                "or return a new object from the method");
        target = checkExpr(cx, te);
      } else {
        error(DiagId::NotAssignable, te.span, {"this expression"});
        target = checkExpr(cx, te);
      }
      const Type *tt = target->type;
      if (a->op == ast::AssignOp::Assign) {
        sem::ExprPtr v = checkValue(cx, *a->value, tt);
        out->value = coerce(cx, std::move(v), tt, a->value->span);
      } else {
        // target op= value  ->  target = target op value (the target is evaluated twice by
        // lowering only for locals and globals; fields and indexes are lowered with care).
        sem::ExprPtr v = checkValue(cx, *a->value, tt);
        const Type *vt = v->type;
        const bool bitwise = isBitwiseAssign(a->op);
        bool ok = tt->isError() || vt->isError() || (tt->kind == TypeKind::Int && vt == tt) ||
                  (!bitwise && tt->kind == TypeKind::Float && vt == tt) ||
                  (a->op == ast::AssignOp::Add && tt->kind == TypeKind::Text && vt == tt);
        if (!ok) {
          Diagnostic &d =
              error(DiagId::BinaryOperands, a->op_span,
                    {std::string(assignOpText(a->op)) + "=", typeName(tt), typeName(vt)});
          if (tt->kind == TypeKind::Text && a->op == ast::AssignOp::Mul)
            d.withHint(
                "text has '+' (joining) and the comparisons only; repeat(t, n) of std.text "
                "repeats a text");
          else if (tt->kind == TypeKind::Text && a->op == ast::AssignOp::Add)
            d.withHint("convert the other operand with str(...)");
        }
        auto bin = std::make_unique<sem::Binary>();
        bin->span = a->op_span;
        bin->op = (tt->kind == TypeKind::Text) ? sem::BinOp::Concat : binOpOf(a->op);
        bin->operand_type = tt;
        bin->type = tt;
        bin->lhs = nullptr;  // lowering uses the target's current value
        bin->rhs = std::move(v);
        out->value = std::move(bin);
      }
      out->target = std::move(target);
      return out;
    }
    case ast::StmtKind::Expr: {
      const auto *e = s.as<ast::ExprStmt>();
      // Taken before the expression is checked: a function literal in it has blocks of its own.
      const bool split_value = &s == split_value_;
      if (split_value) split_value_ = nullptr;
      auto out = std::make_unique<sem::ExprStmt>();
      out->span = s.span;
      out->expr = checkExpr(cx, *e->expr);
      sem::ExprKind k = out->expr->kind;
      bool call = k == sem::ExprKind::CallDirect || k == sem::ExprKind::CallVirtual ||
                  k == sem::ExprKind::CallIndirect || k == sem::ExprKind::Builtin;
      if (split_value) {
        // reported with the 'return' above it
      } else if (!call && !out->expr->type->isError()) {
        Diagnostic &d = error(DiagId::UselessExpr, e->expr->span);
        if (e->expr->kind == ast::ExprKind::Unary &&
            e->expr->as<ast::UnaryExpr>()->op == ast::UnaryOp::Neg)
          d.withHint(
              "if it continues the line before, put '-' at the end of that line: a line break "
              "before '-' ends the statement (a '-' at the start of a line is a negation)");
      }
      return out;
    }
    case ast::StmtKind::If: {
      const auto *i = s.as<ast::IfStmt>();
      auto out = std::make_unique<sem::If>();
      out->span = s.span;
      out->cond = checkCondition(cx, *i->cond);
      out->then_block = checkBlock(cx, *i->then_block);
      if (i->else_stmt) out->else_stmt = checkStmt(cx, *i->else_stmt);
      return out;
    }
    case ast::StmtKind::While: {
      const auto *w = s.as<ast::WhileStmt>();
      auto out = std::make_unique<sem::While>();
      out->span = s.span;
      out->cond = checkCondition(cx, *w->cond);
      ++cx.loop_depth;
      out->body = checkBlock(cx, *w->body);
      --cx.loop_depth;
      return out;
    }
    case ast::StmtKind::For: {
      const auto *f = s.as<ast::ForStmt>();
      if (f->range_end) {
        auto out = std::make_unique<sem::ForRange>();
        out->span = s.span;
        out->lo = coerce(cx, checkValue(cx, *f->iterable, types_.intType()), types_.intType(),
                         f->iterable->span);
        out->hi = coerce(cx, checkValue(cx, *f->range_end, types_.intType()), types_.intType(),
                         f->range_end->span);
        cx.scopes.emplace_back();
        out->var = declareLocal(cx, f->var.name, types_.intType(), false, f->var.span);
        out->var->is_loop = true;
        ++cx.loop_depth;
        out->body = checkBlock(cx, *f->body);
        --cx.loop_depth;
        cx.scopes.pop_back();
        return out;
      }
      sem::ExprPtr it = checkValue(cx, *f->iterable, nullptr);
      const Type *t = it->type;
      if (t->kind == TypeKind::Array) {
        auto out = std::make_unique<sem::ForArray>();
        out->span = s.span;
        out->array = std::move(it);
        cx.scopes.emplace_back();
        out->var = declareLocal(cx, f->var.name, t->elem, false, f->var.span);
        out->var->is_loop = true;
        ++cx.loop_depth;
        out->body = checkBlock(cx, *f->body);
        --cx.loop_depth;
        cx.scopes.pop_back();
        return out;
      }
      if (t->kind == TypeKind::Class) {
        resolveClass(t->cls);
        FuncInfo *len = t->cls->findMethod("len");
        FuncInfo *get = t->cls->findMethod("get");
        if (len && get && len->params.empty() && len->ret == types_.intType() &&
            get->params.size() == 1 && get->params[0] == types_.intType() && indexParameter(get) &&
            get->ret->kind != TypeKind::Void) {
          auto out = std::make_unique<sem::ForObject>();
          out->span = s.span;
          out->object = std::move(it);
          out->len = len;
          out->get = get;
          out->cls = t->cls;
          cx.scopes.emplace_back();
          out->var = declareLocal(cx, f->var.name, get->ret, false, f->var.span);
          out->var->is_loop = true;
          ++cx.loop_depth;
          out->body = checkBlock(cx, *f->body);
          --cx.loop_depth;
          cx.scopes.pop_back();
          return out;
        }
      }
      if (!t->isError()) {
        Diagnostic &d = error(DiagId::NotIterable, f->iterable->span, {typeName(t)});
        if (t->kind == TypeKind::Class)
          d.withHint(iterationHint(t->cls, f->iterable->kind == ast::ExprKind::Name
                                               ? f->iterable->as<ast::NameExpr>()->name.name
                                               : std::string()));
        else if (t->kind == TypeKind::Text)
          d.withHint("a text is bytes: 'for i in 0..len(s)' and s[i] give each byte as an int");
      }
      // Check the body anyway, with the variable of an unknown type.
      auto out = std::make_unique<sem::Block>();
      cx.scopes.emplace_back();
      declareLocal(cx, f->var.name, types_.error(), false, f->var.span)->is_loop = true;
      ++cx.loop_depth;
      out->stmts.push_back(checkBlock(cx, *f->body));
      --cx.loop_depth;
      cx.scopes.pop_back();
      return out;
    }
    case ast::StmtKind::Break:
    case ast::StmtKind::Continue: {
      bool is_break = s.kind == ast::StmtKind::Break;
      if (cx.loop_depth == 0) error(DiagId::OutsideLoop, s.span, {is_break ? "break" : "continue"});
      if (is_break) {
        auto out = std::make_unique<sem::Break>();
        out->span = s.span;
        return out;
      }
      auto out = std::make_unique<sem::Continue>();
      out->span = s.span;
      return out;
    }
    case ast::StmtKind::Return: {
      const auto *r = s.as<ast::ReturnStmt>();
      auto out = std::make_unique<sem::Return>();
      out->span = s.span;
      if (cx.info && cx.info->prompt) {
        error(DiagId::ReturnAtPrompt, s.span)
            .withHint(
                "an input that is one expression prints its value: type the expression alone; "
                "to stop early, put the rest in an 'if'");
        if (r->value) checkExpr(cx, *r->value);
        return out;
      }
      const Type *ret = cx.info ? cx.info->ret : types_.voidType();
      std::string fname = !cx.info           ? "this function"
                          : cx.info->literal ? "this function literal"
                                             : "'" + cx.info->name + "'";
      if (r->value) {
        if (ret->kind == TypeKind::Void) {
          error(DiagId::ReturnValueInVoid, r->value->span, {fname});
          checkExpr(cx, *r->value);
        } else {
          out->value = coerce(cx, checkValue(cx, *r->value, ret), ret, r->value->span);
        }
      } else if (ret->kind != TypeKind::Void && !ret->isError()) {
        Diagnostic &d = error(DiagId::ReturnNeedsValue, s.span, {fname, typeName(ret)});
        if (split_return_ == &s)
          d.withHint(
              "the line break after 'return' ended it, and the line below is a statement of its "
              "own: put the value on the line of the 'return'");
        else
          split_value_ = nullptr;
      } else if (split_return_ == &s) {
        split_value_ = nullptr;  // a void function: the value below is reported as it is
      }
      return out;
    }
    case ast::StmtKind::Atomic: {
      auto out = std::make_unique<sem::Atomic>();
      out->span = s.span;
      out->body = checkBlock(cx, *s.as<ast::AtomicStmt>()->body);
      return out;
    }
  }
  return nullptr;
}

}  // namespace cairn::front
