// The S-expression dump of the syntax tree (ast_dump.h).
#include "syntax/ast_dump.h"

#include <charconv>

#include "source/quote.h"

namespace cairn::front {

using namespace ast;

namespace {

constexpr const char *kMissing = "<error>";

std::string floatText(double value) {
  char buffer[64];
  const auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
  return std::string(buffer, result.ptr);
}

const char *binaryName(BinaryOp op) {
  switch (op) {
    case BinaryOp::Or:
      return "or";
    case BinaryOp::And:
      return "and";
    case BinaryOp::Eq:
      return "==";
    case BinaryOp::Ne:
      return "!=";
    case BinaryOp::Lt:
      return "<";
    case BinaryOp::Le:
      return "<=";
    case BinaryOp::Gt:
      return ">";
    case BinaryOp::Ge:
      return ">=";
    case BinaryOp::Add:
      return "+";
    case BinaryOp::Sub:
      return "-";
    case BinaryOp::Mul:
      return "*";
    case BinaryOp::Div:
      return "/";
    case BinaryOp::Mod:
      return "%";
    case BinaryOp::BitAnd:
      return "&";
    case BinaryOp::BitOr:
      return "|";
    case BinaryOp::BitXor:
      return "^";
    case BinaryOp::Shl:
      return "<<";
    case BinaryOp::Shr:
      return ">>";
    case BinaryOp::Ushr:
      return ">>>";
  }
  return "?";
}

const char *assignName(AssignOp op) {
  switch (op) {
    case AssignOp::Assign:
      return "=";
    case AssignOp::Add:
      return "+=";
    case AssignOp::Sub:
      return "-=";
    case AssignOp::Mul:
      return "*=";
    case AssignOp::Div:
      return "/=";
    case AssignOp::Mod:
      return "%=";
    case AssignOp::BitAnd:
      return "&=";
    case AssignOp::BitOr:
      return "|=";
    case AssignOp::BitXor:
      return "^=";
    case AssignOp::Shl:
      return "<<=";
    case AssignOp::Shr:
      return ">>=";
    case AssignOp::Ushr:
      return ">>>=";
  }
  return "?";
}

std::string dumpParams(const std::vector<Param> &params) {
  std::string out = "(";
  for (size_t i = 0; i < params.size(); ++i) {
    if (i > 0) out += " ";
    out += "(" + params[i].name.name + " " + dumpType(params[i].type.get()) + ")";
  }
  return out + ")";
}

std::string dumpTypeParams(const std::vector<Ident> &names) {
  if (names.empty()) return "";
  std::string out = " [";
  for (size_t i = 0; i < names.size(); ++i) {
    if (i > 0) out += " ";
    out += names[i].name;
  }
  return out + "]";
}

std::string dumpBlock(const Block *block) { return dumpStmt(block); }

std::string dumpFn(const FnDecl *fn) {
  if (fn == nullptr) return kMissing;
  std::string out = "(";
  if (fn->is_override) out += "override ";
  if (fn->is_extern) out += "extern ";
  out += "fn " + fn->name.name + dumpTypeParams(fn->type_params) + " " + dumpParams(fn->params);
  if (fn->ret) out += " -> " + dumpType(fn->ret.get());
  if (!fn->is_extern) out += " " + dumpBlock(fn->body.get());
  return out + ")";
}

std::string dumpBinding(bool is_var, const Ident &name, const TypeExpr *type, const Expr *init) {
  std::string out = is_var ? "(var " : "(let ";
  out += name.name;
  if (type != nullptr) out += " : " + dumpType(type);
  if (init != nullptr) out += " " + dumpExpr(init);
  return out + ")";
}

}  // namespace

std::string dumpType(const TypeExpr *type) {
  if (type == nullptr) return kMissing;
  switch (type->kind) {
    case TypeKind::Named: {
      const auto *t = type->as<NamedType>();
      std::string out = t->name.name;
      if (!t->args.empty()) {
        out += "[";
        for (size_t i = 0; i < t->args.size(); ++i) {
          if (i > 0) out += ", ";
          out += dumpType(t->args[i].get());
        }
        out += "]";
      }
      return out;
    }
    case TypeKind::Array:
      return "[" + dumpType(type->as<ArrayType>()->elem.get()) + "]";
    case TypeKind::Fn: {
      const auto *t = type->as<FnType>();
      std::string out = "fn(";
      for (size_t i = 0; i < t->params.size(); ++i) {
        if (i > 0) out += ", ";
        out += dumpType(t->params[i].get());
      }
      out += ")";
      if (t->ret) out += " -> " + dumpType(t->ret.get());
      return out;
    }
  }
  return kMissing;
}

std::string dumpExpr(const Expr *expr) {
  if (expr == nullptr) return kMissing;
  switch (expr->kind) {
    case ExprKind::IntLit:
      return "(int " + std::to_string(expr->as<IntLit>()->value) + ")";
    case ExprKind::FloatLit:
      return "(float " + floatText(expr->as<FloatLit>()->value) + ")";
    case ExprKind::TextLit:
      return "(text " + QuoteText(expr->as<TextLit>()->value) + ")";
    case ExprKind::BoolLit:
      return expr->as<BoolLit>()->value ? "(bool true)" : "(bool false)";
    case ExprKind::NilLit:
      return "nil";
    case ExprKind::Self:
      return "self";
    case ExprKind::Name:
      return "(name " + expr->as<NameExpr>()->name.name + ")";
    case ExprKind::Unary: {
      const auto *e = expr->as<UnaryExpr>();
      const char *name = e->op == UnaryOp::Neg   ? "(neg "
                         : e->op == UnaryOp::Not ? "(not "
                                                 : "(complement ";
      return std::string(name) + dumpExpr(e->operand.get()) + ")";
    }
    case ExprKind::Binary: {
      const auto *e = expr->as<BinaryExpr>();
      return std::string("(") + binaryName(e->op) + " " + dumpExpr(e->lhs.get()) + " " +
             dumpExpr(e->rhs.get()) + ")";
    }
    case ExprKind::Is: {
      const auto *e = expr->as<IsExpr>();
      return "(is " + dumpExpr(e->value.get()) + " " + dumpType(e->type.get()) + ")";
    }
    case ExprKind::As: {
      const auto *e = expr->as<AsExpr>();
      return "(as " + dumpExpr(e->value.get()) + " " + dumpType(e->type.get()) + ")";
    }
    case ExprKind::Field: {
      const auto *e = expr->as<FieldExpr>();
      return "(field " + dumpExpr(e->base.get()) + " " + e->name.name + ")";
    }
    case ExprKind::Call: {
      const auto *e = expr->as<CallExpr>();
      std::string out = "(call " + dumpExpr(e->callee.get());
      for (const ExprPtr &arg : e->args) out += " " + dumpExpr(arg.get());
      return out + ")";
    }
    case ExprKind::Index: {
      const auto *e = expr->as<IndexExpr>();
      std::string out = "(index " + dumpExpr(e->base.get());
      for (const ExprPtr &arg : e->args) out += " " + (arg ? dumpExpr(arg.get()) : "_");
      out += " :types";
      for (const TypeExprPtr &t : e->type_args) out += " " + (t ? dumpType(t.get()) : "_");
      return out + ")";
    }
    case ExprKind::New: {
      const auto *e = expr->as<NewExpr>();
      std::string out = "(new " + dumpType(e->type.get());
      for (const FieldInit &f : e->fields) {
        out += " (" + f.name.name + " " + dumpExpr(f.value.get()) + ")";
      }
      return out + ")";
    }
    case ExprKind::NewArray: {
      const auto *e = expr->as<NewArrayExpr>();
      return "(new-array " + dumpType(e->elem.get()) + " " + dumpExpr(e->length.get()) + ")";
    }
    case ExprKind::ArrayLit: {
      const auto *e = expr->as<ArrayLitExpr>();
      std::string out = "(array";
      for (const ExprPtr &elem : e->elems) out += " " + dumpExpr(elem.get());
      return out + ")";
    }
    case ExprKind::FnLit: {
      const auto *e = expr->as<FnLitExpr>();
      std::string out = "(fn-lit " + dumpParams(e->params);
      if (e->ret) out += " -> " + dumpType(e->ret.get());
      return out + " " + dumpBlock(e->body.get()) + ")";
    }
  }
  return kMissing;
}

std::string dumpStmt(const Stmt *stmt) {
  if (stmt == nullptr) return kMissing;
  switch (stmt->kind) {
    case StmtKind::Block: {
      std::string out = "(block";
      for (const StmtPtr &s : stmt->as<Block>()->stmts) out += " " + dumpStmt(s.get());
      return out + ")";
    }
    case StmtKind::Let: {
      const auto *s = stmt->as<LetStmt>();
      return dumpBinding(s->is_var, s->name, s->type.get(), s->init.get());
    }
    case StmtKind::Assign: {
      const auto *s = stmt->as<AssignStmt>();
      return std::string("(") + assignName(s->op) + " " + dumpExpr(s->target.get()) + " " +
             dumpExpr(s->value.get()) + ")";
    }
    case StmtKind::Expr:
      return dumpExpr(stmt->as<ExprStmt>()->expr.get());
    case StmtKind::If: {
      const auto *s = stmt->as<IfStmt>();
      std::string out = "(if " + dumpExpr(s->cond.get()) + " " + dumpBlock(s->then_block.get());
      if (s->else_stmt) out += " else " + dumpStmt(s->else_stmt.get());
      return out + ")";
    }
    case StmtKind::While: {
      const auto *s = stmt->as<WhileStmt>();
      return "(while " + dumpExpr(s->cond.get()) + " " + dumpBlock(s->body.get()) + ")";
    }
    case StmtKind::For: {
      const auto *s = stmt->as<ForStmt>();
      std::string out = "(for " + s->var.name + " ";
      if (s->range_end) {
        out += "(range " + dumpExpr(s->iterable.get()) + " " + dumpExpr(s->range_end.get()) + ")";
      } else {
        out += dumpExpr(s->iterable.get());
      }
      return out + " " + dumpBlock(s->body.get()) + ")";
    }
    case StmtKind::Break:
      return "(break)";
    case StmtKind::Continue:
      return "(continue)";
    case StmtKind::Return: {
      const auto *s = stmt->as<ReturnStmt>();
      return s->value ? "(return " + dumpExpr(s->value.get()) + ")" : "(return)";
    }
    case StmtKind::Atomic:
      return "(atomic " + dumpBlock(stmt->as<AtomicStmt>()->body.get()) + ")";
  }
  return kMissing;
}

std::string dumpDecl(const Decl *decl) {
  if (decl == nullptr) return kMissing;
  switch (decl->kind) {
    case DeclKind::Import: {
      std::string out = "(import ";
      const auto &path = decl->as<ImportDecl>()->path;
      for (size_t i = 0; i < path.size(); ++i) {
        if (i > 0) out += ".";
        out += path[i].name;
      }
      return out + ")";
    }
    case DeclKind::Global: {
      const auto *d = decl->as<GlobalDecl>();
      return dumpBinding(d->is_var, d->name, d->type.get(), d->init.get());
    }
    case DeclKind::Fn:
      return dumpFn(decl->as<FnDecl>());
    case DeclKind::Class: {
      const auto *c = decl->as<ClassDecl>();
      std::string out = "(class " + c->name.name + dumpTypeParams(c->type_params);
      if (c->super) out += " : " + dumpType(c->super.get());
      for (const FieldDecl &f : c->fields) {
        out += " (field " + f.name.name + " " + dumpType(f.type.get()) + ")";
      }
      for (const auto &m : c->methods) out += " " + dumpFn(m.get());
      return out + ")";
    }
  }
  return kMissing;
}

std::string dumpModule(const Module &module) {
  std::string out;
  for (const DeclPtr &d : module.decls) {
    if (!out.empty()) out += "\n";
    out += dumpDecl(d.get());
  }
  return out;
}

}  // namespace cairn::front
