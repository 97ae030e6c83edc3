// Checking members and calls: fields, methods (virtual), functions and function values,
// generic functions (explicit or inferred type arguments), built-in functions, and the
// built-in classes Database and Transaction.
#include <algorithm>
#include <functional>
#include <set>
#include <utility>
#include <vector>

#include "check/checker_impl.h"
#include "lexer/lookalikes.h"

namespace cairn::front {

namespace {

// Another language's name for a collection's method (`append`, `size`, `push_back`) and the
// method of `cls` that does it, if it has one; "" if not.
std::string methodSynonym(const std::string &name, const ClassInfo &cls) {
  static const std::vector<std::pair<std::vector<std::string>, std::vector<std::string>>> kGroups =
      {
          {{"append", "push_back", "pushBack", "addLast", "add", "emplace_back"}, {"push", "add"}},
          {{"pop_back", "popBack", "removeLast"}, {"pop"}},
          {{"at", "getAt", "elementAt"}, {"get"}},
          {{"includes", "containsKey", "has_key", "contains", "has"}, {"has", "contains"}},
          {{"delete", "erase", "discard", "removeKey"}, {"removeValue", "remove"}},
          {{"size", "length"}, {"len"}},
          {{"setAt", "put"}, {"set"}},
          {{"set"}, {"put"}},
      };
  for (const auto &[others, ours] : kGroups) {
    if (std::find(others.begin(), others.end(), name) == others.end()) continue;
    for (const std::string &m : ours)
      if (m != name && cls.findMethod(m) != nullptr) return m;
  }
  return "";
}

// Binds the type parameters `params` by matching a parameter's type (as written) against an
// argument's type. Returns false on a conflict (the caller reports).
bool unify(const ast::TypeExpr *pt, const Type *actual, const std::set<std::string> &params,
           Bindings &b) {
  if (actual->isError() || actual->kind == TypeKind::Nil) return true;
  switch (pt->kind) {
    case ast::TypeKind::Named: {
      const auto *n = pt->as<ast::NamedType>();
      if (n->args.empty() && params.count(n->name.name)) {
        auto it = b.find(n->name.name);
        if (it == b.end()) {
          b[n->name.name] = actual;
          return true;
        }
        // Objects of different classes widen it to their nearest common base class, whatever
        // their order (as an array literal's elements do): pick(c, shape, circle) and
        // pick(c, circle, shape) are both pick[Shape]. Other conflicts are reported when the
        // arguments are coerced.
        const Type *bound = it->second;
        if (bound->kind == TypeKind::Class && actual->kind == TypeKind::Class &&
            !actual->cls->isSubclassOf(bound->cls)) {
          for (const ClassInfo *c = bound->cls->super; c != nullptr; c = c->super)
            if (actual->cls->isSubclassOf(c) && c->type != nullptr) {
              it->second = c->type;
              break;
            }
        }
        return true;
      }
      if (!n->args.empty() && actual->kind == TypeKind::Class) {
        // The class itself or the nearest base that is an instance of the named generic class
        // (a `Bag : List[Part]` passed where `List[T]` is expected binds T to Part).
        for (const ClassInfo *c = actual->cls; c != nullptr; c = c->super) {
          if (c->decl->name.name != n->name.name || c->type_args.size() != n->args.size()) continue;
          for (size_t i = 0; i < n->args.size(); ++i)
            if (!unify(n->args[i].get(), c->type_args[i], params, b)) return false;
          break;
        }
      }
      return true;
    }
    case ast::TypeKind::Array:
      if (actual->kind == TypeKind::Array)
        return unify(pt->as<ast::ArrayType>()->elem.get(), actual->elem, params, b);
      return true;
    case ast::TypeKind::Fn: {
      const auto *f = pt->as<ast::FnType>();
      if (actual->kind != TypeKind::Fn || actual->params.size() != f->params.size()) return true;
      for (size_t i = 0; i < f->params.size(); ++i)
        if (!unify(f->params[i].get(), actual->params[i], params, b)) return false;
      if (f->ret) return unify(f->ret.get(), actual->ret, params, b);
      return true;
    }
  }
  return true;
}

}  // namespace

std::vector<const Type *> Checker::explicitTypeArgs(FnCtx &cx, const ast::IndexExpr &ix) {
  std::vector<const Type *> out;
  for (size_t i = 0; i < ix.args.size(); ++i) {
    const ast::TypeExpr *t = i < ix.type_args.size() ? ix.type_args[i].get() : nullptr;
    if (!t) {
      error(DiagId::NotAType, ix.args[i]->span, {"this expression"});
      out.push_back(types_.error());
      continue;
    }
    out.push_back(resolveType(t, cx.module, cx.bindings));
  }
  return out;
}

bool Checker::checkArgs(FnCtx &cx, const std::vector<ast::ExprPtr> &args,
                        const std::vector<const Type *> &params, Span span,
                        std::vector<sem::ExprPtr> &out) {
  if (args.size() != params.size()) {
    Diagnostic &d = error(DiagId::WrongArgCount, span,
                          {plural(params.size(), "argument"), std::to_string(args.size())});
    // What it takes: its parameters' types (the callee is at the call's start).
    std::string takes;
    bool unknown = false;  // a parameter's type an earlier error left unknown
    for (const Type *p : params) {
      takes += (takes.empty() ? "" : ", ") + typeName(p);
      unknown |= p->mentionsError();
    }
    if (!unknown) d.withHint(params.empty() ? "it takes no arguments" : "it takes (" + takes + ")");
    for (const auto &a : args) checkExpr(cx, *a);
    return false;
  }
  for (size_t i = 0; i < args.size(); ++i)
    out.push_back(coerce(cx, checkValue(cx, *args[i], params[i]), params[i], args[i]->span));
  return true;
}

FuncInfo *Checker::instantiateForFnType(const ast::FnDecl *decl, ModuleInfo *m,
                                        const Type *expected, Span site) {
  if (expected == nullptr || expected->kind != TypeKind::Fn ||
      expected->params.size() != decl->params.size())
    return nullptr;
  std::set<std::string> params;
  for (const ast::Ident &p : decl->type_params) params.insert(p.name);
  Bindings b;
  for (size_t i = 0; i < decl->params.size(); ++i)
    unify(decl->params[i].type.get(), expected->params[i], params, b);
  if (decl->ret != nullptr && expected->ret != nullptr && expected->ret->kind != TypeKind::Void)
    unify(decl->ret.get(), expected->ret, params, b);
  std::vector<const Type *> targs;
  for (const ast::Ident &p : decl->type_params) {
    auto it = b.find(p.name);
    if (it == b.end()) return nullptr;
    targs.push_back(it->second);
  }
  return instantiateFunction(decl, m, targs, site);
}

FuncInfo *Checker::inferAndInstantiate(FnCtx &cx, const ast::FnDecl *decl, ModuleInfo *m,
                                       const ast::CallExpr &call, Span site,
                                       std::vector<sem::ExprPtr> &args_out) {
  if (call.args.size() != decl->params.size()) {
    error(DiagId::WrongArgCount, call.span,
          {plural(decl->params.size(), "argument"), std::to_string(call.args.size())});
    for (const auto &a : call.args) checkExpr(cx, *a);
    return nullptr;
  }
  std::set<std::string> params;
  for (const ast::Ident &p : decl->type_params) params.insert(p.name);
  Bindings b;
  std::vector<sem::ExprPtr> checked(call.args.size());
  // An empty array literal has no type of its own, nor has a generic function named without
  // its type arguments: they are checked after the other arguments, against their parameter's
  // type once those have given every type parameter (firstOr([], 9), sortBy(l, less)).
  auto deferred = [&](const ast::Expr &a) {
    if (a.kind == ast::ExprKind::ArrayLit) return a.as<ast::ArrayLitExpr>()->elems.empty();
    if (a.kind != ast::ExprKind::Name) return false;
    const std::string &n = a.as<ast::NameExpr>()->name.name;
    bool captured = false;
    if (lookupLocal(cx, n, &captured)) return false;
    const Symbol s = lookupModule(cx.module, n);
    return s.kind == Symbol::Kind::Func && s.fn != nullptr && !s.fn->type_params.empty();
  };
  for (size_t i = 0; i < call.args.size(); ++i) {
    if (deferred(*call.args[i])) continue;
    checked[i] = checkValue(cx, *call.args[i], nullptr);
    const Type *t = checked[i]->type;
    if (t->kind == TypeKind::Class) resolveClass(t->cls);  // its bases, for unify
    unify(decl->params[i].type.get(), t, params, b);
  }
  bool all_bound = true;
  for (const ast::Ident &p : decl->type_params) all_bound = all_bound && b.count(p.name) != 0;
  for (size_t i = 0; i < call.args.size(); ++i) {
    if (checked[i] != nullptr) continue;
    const Type *expected = all_bound ? resolveType(decl->params[i].type.get(), m, &b) : nullptr;
    checked[i] = checkValue(cx, *call.args[i], expected);
    unify(decl->params[i].type.get(), checked[i]->type, params, b);
  }
  std::vector<const Type *> targs;
  for (const ast::Ident &p : decl->type_params) {
    auto it = b.find(p.name);
    if (it == b.end()) {
      bool reported = false;  // an argument with an error says nothing about the type
      for (const sem::ExprPtr &a : checked) reported = reported || a->type->isError();
      if (!reported)
        error(DiagId::CannotInfer, site, {decl->name.name})
            .withHint("give them, as in " + decl->name.name + "[...](...)");
      return nullptr;
    }
    targs.push_back(it->second);
  }
  FuncInfo *f = instantiateFunction(decl, m, targs, site);
  for (size_t i = 0; i < checked.size(); ++i) {
    // An array literal was typed by its own elements ([new Circle {}] is a [Circle]); when the
    // type parameters widened past that (both([circle], [square]) is both[Shape]), it is checked
    // again against its parameter's type, as a literal written there would be.
    const ast::Expr &a = *call.args[i];
    if (a.kind == ast::ExprKind::ArrayLit && !checked[i]->type->isError() &&
        !assignable(checked[i]->type, f->params[i]))
      checked[i] = checkValue(cx, a, f->params[i]);
    args_out.push_back(coerce(cx, std::move(checked[i]), f->params[i], a.span));
  }
  return f;
}

std::string Checker::subclassMemberHint(const ClassInfo *cls, const std::string &name,
                                        bool method) const {
  const ClassInfo *found = nullptr;  // the first by name, for the same hint in every run
  for (const auto &[key, c] : class_instances_) {
    if (c.get() == cls || !c->resolved || !c->isSubclassOf(cls)) continue;
    const bool has = method ? c->findMethod(name) != nullptr : c->findField(name) != nullptr;
    if (has && (found == nullptr || c->name < found->name)) found = c.get();
  }
  if (found == nullptr) return "";
  return "'" + name + "' is a " + (method ? "method" : "field") + " of " + found->name +
         ", a subclass of " + cls->name + ": if the object is one, say so with 'as', as in " +
         "'(x as " + found->name + ")." + name + (method ? "(...)'" : "'");
}

sem::ExprPtr Checker::checkField(FnCtx &cx, const ast::FieldExpr &e) {
  if (e.base->kind == ast::ExprKind::Name) {
    const std::string &bn = e.base->as<ast::NameExpr>()->name.name;
    bool captured = false;
    if (!lookupLocal(cx, bn, &captured)) {
      Symbol s = lookupModule(cx.module, bn);
      if (s.kind == Symbol::Kind::BuiltinClass) {
        error(DiagId::MethodAsValue, e.name.span, {bn + "." + e.name.name})
            .withHint("call it: " + bn + "." + e.name.name + "(...)");
        return errorExpr(e.span);
      }
    }
  }
  sem::ExprPtr base = checkValue(cx, *e.base, nullptr);
  const Type *bt = base->type;
  const std::string &name = e.name.name;
  if (bt->isError()) return errorExpr(e.span);
  if (bt->kind == TypeKind::Class) {
    resolveClass(bt->cls);
    if (const FieldInfo *f = bt->cls->findField(name)) {
      auto r = std::make_unique<sem::Field>();
      r->span = e.name.span;
      r->type = f->type;
      r->field = f;
      r->object = std::move(base);
      return r;
    }
    if (bt->cls->findMethod(name)) {
      // The object as written when it is a name (`a.m(...)`), else `x`.
      const std::string object = e.base->kind == ast::ExprKind::Name
                                     ? e.base->as<ast::NameExpr>()->name.name
                                 : e.base->kind == ast::ExprKind::Self ? "self"
                                                                       : "x";
      error(DiagId::MethodAsValue, e.name.span, {name})
          .withHint("call it, as in '" + object + "." + name +
                    "(...)'; a method is not a value: to pass it on, pass the object, or a "
                    "named function that takes the object and calls the method");
      return errorExpr(e.span);
    }
    Diagnostic &d =
        error(DiagId::NoSuchMember, e.name.span, {"class '" + bt->cls->name + "'", name});
    std::vector<std::string> names;
    for (const FieldInfo *f : bt->cls->fields) names.push_back(f->name);
    for (const FuncInfo *m : bt->cls->vtable) names.push_back(m->name);
    std::string hint = subclassMemberHint(bt->cls, name, false);
    if (hint.empty()) hint = didYouMean(name, names);
    if (!hint.empty()) d.withHint(hint);
    return errorExpr(e.span);
  }
  if (bt->kind == TypeKind::Database) {
    if (name == "root") {
      auto r = std::make_unique<sem::DbRoot>();
      r->span = e.name.span;
      r->type = types_.anyType();
      r->db = std::move(base);
      return r;
    }
    if (name == "name") {
      auto r = std::make_unique<sem::BuiltinCall>();
      r->span = e.name.span;
      r->builtin = sem::Builtin::DbName;
      r->type = types_.textType();
      r->args.push_back(std::move(base));
      return r;
    }
  }
  // A Transaction's methods, named without a call, are methods as a class's are.
  if (bt->kind == TypeKind::Transaction &&
      (name == "commit" || name == "abort" || name == "chain" || name == "checkpoint" ||
       name == "isOpen")) {
    error(DiagId::MethodAsValue, e.name.span, {name})
        .withHint("call it, as in 't." + name + "()'; a method is not a value");
    return errorExpr(e.span);
  }
  Diagnostic &d = error(DiagId::NoSuchMember, e.name.span, {typeName(bt), name});
  if ((bt->kind == TypeKind::Text || bt->kind == TypeKind::Array) &&
      (name == "len" || name == "length" || name == "size" || name == "count"))
    d.withHint("use len(x)");
  if (bt->kind == TypeKind::Any) d.withHint("test it with 'is' and convert it with 'as' first");
  return errorExpr(e.span);
}

sem::ExprPtr Checker::checkStaticCall(FnCtx &cx, const std::string &cls, const ast::Ident &member,
                                      const ast::CallExpr &e) {
  auto r = std::make_unique<sem::BuiltinCall>();
  r->span = member.span;
  const std::string &m = member.name;
  std::vector<const Type *> params;
  if (cls == "Database") {
    if (m == "create" || m == "open" || m == "upgrade") {
      r->builtin = m == "create" ? sem::Builtin::DbCreate
                   : m == "open" ? sem::Builtin::DbOpen
                                 : sem::Builtin::DbUpgrade;
      params = {types_.textType()};
      r->type = types_.databaseType();
    } else if (m == "exists") {
      r->builtin = sem::Builtin::DbExists;
      params = {types_.textType()};
      r->type = types_.boolType();
    } else if (m == "drop") {
      r->builtin = sem::Builtin::DbDrop;
      params = {types_.textType()};
      r->type = types_.voidType();
    } else if (m == "names") {
      r->builtin = sem::Builtin::DbNames;
      r->type = arrayType(types_.textType());
    } else {
      Diagnostic &d = error(DiagId::NoStaticMember, member.span, {cls, m});
      const std::string hint =
          didYouMean(m, {"create", "open", "upgrade", "exists", "drop", "names"});
      if (!hint.empty()) d.withHint(hint);
      return errorExpr(e.span);
    }
  } else {
    if (m == "begin") {
      r->builtin = sem::Builtin::TxnBegin;
      r->type = types_.transactionType();
    } else {
      Diagnostic &d = error(DiagId::NoStaticMember, member.span, {cls, m});
      d.withHint(
          "Transaction.begin() starts a transaction; commit, abort, chain, checkpoint "
          "and isOpen are called on it");
      return errorExpr(e.span);
    }
  }
  if (cls == "Database" && params.size() == 1 && e.args.size() == 1) {
    // A name that is a number: str(...) would make "42", which is no database name.
    sem::ExprPtr v = checkValue(cx, *e.args[0], params[0]);
    const Type *t = v->type;
    if (t->kind == TypeKind::Int || t->kind == TypeKind::Float || t->kind == TypeKind::Bool) {
      error(DiagId::TypeMismatch, e.args[0]->span, {"text", typeName(t)})
          .withHint(
              "a database is named by text of ASCII letters, digits, '_', '-' or '.', "
              "starting with a letter or '_', as in Database." +
              m + "(\"parts\")");
      return errorExpr(e.span);
    }
    r->args.push_back(coerce(cx, std::move(v), params[0], e.args[0]->span));
    return r;
  }
  if (!checkArgs(cx, e.args, params, e.span, r->args)) return errorExpr(e.span);
  return r;
}

namespace {

// What a built-in function takes, for a call with the wrong number of arguments (a call's span
// starts at its callee, but a message should name it when the call is one of several).
std::string builtinUsage(const std::string &name) {
  static const std::pair<const char *, const char *> kUsage[] = {
      {"str", "str(value)"},        {"len", "len(text, array or object with len())"},
      {"int", "int(float or int)"}, {"float", "float(int or float)"},
      {"hash", "hash(value)"},      {"compare", "compare(a, b), two values of one type"},
      {"panic", "panic(message)"},  {"args", "args(), without arguments"},
      {"exit", "exit(status)"}};
  for (const auto &[n, usage] : kUsage)
    if (name == n) return std::string("this is the built-in function ") + usage;
  return "the built-in function '" + name + "'";
}

}  // namespace

sem::ExprPtr Checker::checkBuiltinCall(FnCtx &cx, const std::string &name, const ast::CallExpr &e,
                                       Span name_span) {
  auto r = std::make_unique<sem::BuiltinCall>();
  r->span = name_span;
  auto argCount = [&](size_t n) {
    if (e.args.size() == n) return true;
    error(DiagId::WrongArgCount, e.span, {plural(n, "argument"), std::to_string(e.args.size())})
        .withHint(builtinUsage(name));
    for (const auto &a : e.args) checkExpr(cx, *a);
    return false;
  };
  if (name == "print" || name == "println") {
    r->builtin = name == "print" ? sem::Builtin::Print : sem::Builtin::Println;
    r->type = types_.voidType();
    for (const auto &a : e.args) {
      r->args.push_back(checkValue(cx, *a, nullptr));  // any value, handles too
    }
    return r;
  }
  if (name == "str") {
    if (!argCount(1)) return errorExpr(e.span);
    r->builtin = sem::Builtin::Str;
    r->type = types_.textType();
    r->args.push_back(checkValue(cx, *e.args[0], nullptr));
    return r;
  }
  if (name == "len") {
    if (!argCount(1)) return errorExpr(e.span);
    sem::ExprPtr a = checkValue(cx, *e.args[0], nullptr);
    const Type *t = a->type;
    if (t->kind == TypeKind::Class) {
      resolveClass(t->cls);
      FuncInfo *len = t->cls->findMethod("len");
      if (len && len->params.empty() && len->ret == types_.intType()) {
        auto c = std::make_unique<sem::CallVirtual>();
        c->span = e.args[0]->span;
        c->type = types_.intType();
        c->method = len;
        c->static_class = t->cls;
        c->object = std::move(a);
        return c;
      }
    }
    if (t->kind != TypeKind::Text && t->kind != TypeKind::Array && !t->isError()) {
      Diagnostic &d = error(DiagId::TypeMismatch, e.args[0]->span,
                            {"a text, an array or an object with len() -> int", typeName(t)});
      if (t->kind == TypeKind::Class) d.withHint(whyNotIterable(t->cls));
      return errorExpr(e.span);
    }
    r->builtin = sem::Builtin::Len;
    r->type = types_.intType();
    r->args.push_back(std::move(a));
    return r;
  }
  if (name == "panic") {
    if (!argCount(1)) return errorExpr(e.span);
    r->builtin = sem::Builtin::Panic;
    r->type = types_.voidType();
    r->args.push_back(coerce(cx, checkValue(cx, *e.args[0], types_.textType()), types_.textType(),
                             e.args[0]->span));
    return r;
  }
  if (name == "args") {
    if (!argCount(0)) return errorExpr(e.span);
    r->builtin = sem::Builtin::Args;
    r->type = arrayType(types_.textType());
    return r;
  }
  if (name == "exit") {
    if (!argCount(1)) return errorExpr(e.span);
    r->builtin = sem::Builtin::Exit;
    r->type = types_.voidType();
    r->args.push_back(coerce(cx, checkValue(cx, *e.args[0], types_.intType()), types_.intType(),
                             e.args[0]->span));
    return r;
  }
  if (name == "int" || name == "float") {
    if (!argCount(1)) return errorExpr(e.span);
    sem::ExprPtr a = checkValue(cx, *e.args[0], nullptr);
    const Type *t = a->type;
    bool to_int = name == "int";
    if (t->isError()) return errorExpr(e.span);
    if ((to_int && t->kind == TypeKind::Int) || (!to_int && t->kind == TypeKind::Float)) return a;
    if ((to_int && t->kind == TypeKind::Float) || (!to_int && t->kind == TypeKind::Int)) {
      r->builtin = to_int ? sem::Builtin::IntOfFloat : sem::Builtin::FloatOfInt;
      r->type = to_int ? types_.intType() : types_.floatType();
      r->args.push_back(std::move(a));
      return r;
    }
    Diagnostic &d = error(DiagId::TypeMismatch, e.args[0]->span, {"int or float", typeName(t)});
    if (t->kind == TypeKind::Text) d.withHint("parse numbers in text with std.text");
    return errorExpr(e.span);
  }
  if (name == "hash") {
    if (!argCount(1)) return errorExpr(e.span);
    sem::ExprPtr a = checkValue(cx, *e.args[0], nullptr);
    const Type *t = a->type;
    if (t->isError()) return errorExpr(e.span);
    if (t->isHandle()) {
      error(DiagId::TypeMismatch, e.args[0]->span, {"a value or a reference", typeName(t)});
      return errorExpr(e.span);
    }
    r->builtin = sem::Builtin::Hash;
    r->type = types_.intType();
    r->args.push_back(std::move(a));
    return r;
  }
  if (name == "compare") return checkCompare(cx, e, name_span);
  if (const Intrinsic *in = findIntrinsic(name)) return checkIntrinsic(cx, *in, e, name_span);
  return errorExpr(e.span);
}

// compare(a, b): -1, 0 or 1 for ints, floats (a total order: -0.0 equals 0.0, nan after every
// number and equal to nan), bools (false first) and texts (byte-wise, nil first); for objects
// of a class with `compare(other) -> int`, a.compare(b).
sem::ExprPtr Checker::checkCompare(FnCtx &cx, const ast::CallExpr &e, Span name_span) {
  if (e.args.size() != 2) {
    error(DiagId::WrongArgCount, e.span, {plural(2, "argument"), std::to_string(e.args.size())})
        .withHint(builtinUsage("compare"));
    for (const auto &a : e.args) checkExpr(cx, *a);
    return errorExpr(e.span);
  }
  sem::ExprPtr a = checkValue(cx, *e.args[0], nullptr);
  sem::ExprPtr b = checkValue(cx, *e.args[1], a->type->isRef() ? a->type : nullptr);
  const Type *t = a->type->kind == TypeKind::Nil ? b->type : a->type;
  if (a->type->isError() || b->type->isError()) return errorExpr(e.span);
  if (t->kind == TypeKind::Int || t->kind == TypeKind::Float || t->kind == TypeKind::Bool ||
      t->kind == TypeKind::Text) {
    auto r = std::make_unique<sem::BuiltinCall>();
    r->span = name_span;
    r->builtin = sem::Builtin::Compare;
    r->type = types_.intType();
    r->args.push_back(coerce(cx, std::move(a), t, e.args[0]->span));
    r->args.push_back(coerce(cx, std::move(b), t, e.args[1]->span));
    return r;
  }
  if (t->kind == TypeKind::Class) {
    resolveClass(t->cls);
    FuncInfo *m = t->cls->findMethod("compare");
    if (m && m->params.size() == 1 && m->ret == types_.intType() && assignable(t, m->params[0])) {
      auto r = std::make_unique<sem::CallVirtual>();
      r->span = name_span;
      r->type = types_.intType();
      r->method = m;
      r->static_class = t->cls;
      r->object = coerce(cx, std::move(a), t, e.args[0]->span);
      r->args.push_back(coerce(cx, std::move(b), m->params[0], e.args[1]->span));
      return r;
    }
    error(DiagId::NotComparable, e.args[0]->span, {typeName(t)})
        .withHint("give class '" + t->cls->name + "' a method 'fn compare(other: " + t->cls->name +
                  ") -> int' (<0, 0 or >0)");
    return errorExpr(e.span);
  }
  error(DiagId::NotComparable, e.args[0]->span, {typeName(t)});
  return errorExpr(e.span);
}

sem::ExprPtr Checker::checkIntrinsic(FnCtx &cx, const Intrinsic &in, const ast::CallExpr &e,
                                     Span name_span) {
  auto r = std::make_unique<sem::BuiltinCall>();
  r->span = name_span;
  r->builtin = sem::Builtin::Intrinsic;
  r->intrinsic = &in;
  auto typeOf = [&](char c) -> const Type * {
    switch (c) {
      case 'i':
        return types_.intType();
      case 'f':
        return types_.floatType();
      case 'b':
        return types_.boolType();
      case 't':
        return types_.textType();
      case 'y':
        return types_.anyType();
      default:
        return types_.voidType();
    }
  };
  r->type = typeOf(in.sig[0]);
  const std::string params = in.sig + 1;
  if (e.args.size() != params.size()) {
    error(DiagId::WrongArgCount, e.span,
          {plural(params.size(), "argument"), std::to_string(e.args.size())});
    for (const auto &a : e.args) checkExpr(cx, *a);
    return errorExpr(e.span);
  }
  for (size_t i = 0; i < params.size(); ++i) {
    if (params[i] == 'a') {
      sem::ExprPtr v = checkValue(cx, *e.args[i], nullptr);
      if (v->type->kind != TypeKind::Array && !v->type->isError())
        error(DiagId::TypeMismatch, e.args[i]->span, {"an array", typeName(v->type)});
      r->args.push_back(std::move(v));
      continue;
    }
    const Type *pt = typeOf(params[i]);
    r->args.push_back(coerce(cx, checkValue(cx, *e.args[i], pt), pt, e.args[i]->span));
  }
  return r;
}

sem::ExprPtr Checker::checkCall(FnCtx &cx, const ast::CallExpr &e, const Type *) {
  const ast::Expr &callee = *e.callee;
  // `[int](10)`: an array made without `new` (the literal [int] holds the function int).
  if (callee.kind == ast::ExprKind::ArrayLit) {
    const auto &lit = *callee.as<ast::ArrayLitExpr>();
    std::function<bool(const ast::Expr &)> typeLike = [&](const ast::Expr &x) {
      if (x.kind == ast::ExprKind::ArrayLit) {
        const auto &inner = *x.as<ast::ArrayLitExpr>();
        return inner.elems.size() == 1 && typeLike(*inner.elems[0]);
      }
      if (x.kind != ast::ExprKind::Name) return false;
      const std::string &n = x.as<ast::NameExpr>()->name.name;
      bool captured = false;
      if (lookupLocal(cx, n, &captured)) return false;
      return n == "int" || n == "float" || n == "bool" || n == "text" || n == "any" ||
             lookupModule(cx.module, n).kind == Symbol::Kind::Class;
    };
    if (lit.elems.size() == 1 && typeLike(*lit.elems[0])) {
      std::function<std::string(const ast::Expr &)> show = [&](const ast::Expr &x) {
        if (x.kind == ast::ExprKind::ArrayLit)
          return "[" + show(*x.as<ast::ArrayLitExpr>()->elems[0]) + "]";
        return x.as<ast::NameExpr>()->name.name;
      };
      const std::string shown = show(callee);
      error(DiagId::NewArrayWithoutNew, callee.span, {shown})
          .withHint("an array of a given length is made with 'new " + shown + "(length)'");
      for (const auto &a : e.args) checkExpr(cx, *a);
      return errorExpr(e.span);
    }
  }
  // Method calls and static calls.
  if (callee.kind == ast::ExprKind::Field) {
    const auto &fe = *callee.as<ast::FieldExpr>();
    if (fe.base->kind == ast::ExprKind::Name) {
      const std::string &bn = fe.base->as<ast::NameExpr>()->name.name;
      bool captured = false;
      if (!lookupLocal(cx, bn, &captured)) {
        Symbol s = lookupModule(cx.module, bn);
        if (s.kind == Symbol::Kind::BuiltinClass) return checkStaticCall(cx, bn, fe.name, e);
      }
    }
    sem::ExprPtr base = checkValue(cx, *fe.base, nullptr);
    const Type *bt = base->type;
    const std::string &name = fe.name.name;
    if (bt->isError()) {
      for (const auto &a : e.args) checkExpr(cx, *a);
      return errorExpr(e.span);
    }
    if (bt->kind == TypeKind::Class) {
      resolveClass(bt->cls);
      if (FuncInfo *m = bt->cls->findMethod(name)) {
        auto r = std::make_unique<sem::CallVirtual>();
        r->span = fe.name.span;
        r->type = m->ret;
        r->method = m;
        r->static_class = bt->cls;
        r->object = std::move(base);
        if (!checkArgs(cx, e.args, m->params, e.span, r->args)) return errorExpr(e.span);
        return r;
      }
      if (const FieldInfo *field = bt->cls->findField(name)) {
        if (field->type->isError()) {  // reported where the field is declared
          for (const auto &a : e.args) checkExpr(cx, *a);
          return errorExpr(e.span);
        }
        error(DiagId::NotCallable, fe.name.span,
              {"field '" + name + "' of type " + typeName(bt->cls->findField(name)->type)});
        return errorExpr(e.span);
      }
      Diagnostic &d =
          error(DiagId::NoSuchMember, fe.name.span, {"class '" + bt->cls->name + "'", name});
      std::vector<std::string> names;
      for (const FuncInfo *m : bt->cls->vtable) names.push_back(m->name);
      for (const FieldInfo *f : bt->cls->fields) names.push_back(f->name);
      const std::string synonym = methodSynonym(name, *bt->cls);
      std::string hint = subclassMemberHint(bt->cls, name, true);
      if (hint.empty())
        hint = synonym.empty() ? didYouMean(name, names) : "did you mean '" + synonym + "'?";
      if (!hint.empty()) d.withHint(hint);
      for (const auto &a : e.args) checkExpr(cx, *a);
      return errorExpr(e.span);
    }
    if (bt->kind == TypeKind::Transaction) {
      auto r = std::make_unique<sem::BuiltinCall>();
      r->span = fe.name.span;
      r->type = types_.voidType();
      if (name == "commit")
        r->builtin = sem::Builtin::TxnCommit;
      else if (name == "abort")
        r->builtin = sem::Builtin::TxnAbort;
      else if (name == "chain")
        r->builtin = sem::Builtin::TxnChain;
      else if (name == "checkpoint")
        r->builtin = sem::Builtin::TxnCheckpoint;
      else if (name == "isOpen") {
        r->builtin = sem::Builtin::TxnIsOpen;
        r->type = types_.boolType();
      } else {
        Diagnostic &d = error(DiagId::NoSuchMember, fe.name.span, {"Transaction", name});
        const std::string hint =
            didYouMean(name, {"commit", "abort", "chain", "checkpoint", "isOpen"});
        if (!hint.empty()) d.withHint(hint);
        return errorExpr(e.span);
      }
      r->args.push_back(std::move(base));
      std::vector<sem::ExprPtr> none;
      if (!checkArgs(cx, e.args, {}, e.span, none)) return errorExpr(e.span);
      return r;
    }
    Diagnostic &d = error(DiagId::NoSuchMember, fe.name.span, {typeName(bt), name});
    if (bt->kind == TypeKind::Text || bt->kind == TypeKind::Array) {
      if (name == "len" || name == "length" || name == "size" || name == "count")
        d.withHint("use len(x)");
      else if (bt->kind == TypeKind::Array &&
               (name == "push" || name == "append" || name == "add" || name == "pop" ||
                name == "insert" || name == "remove" || name == "push_back"))
        d.withHint(
            "an array's length is fixed when it is made: for one that grows, use a List[T] "
            "(import std.list: push, pop, insert, remove)");
    } else if (bt->kind == TypeKind::Any) {
      d.withHint("test it with 'is' and convert it with 'as' first");
    }
    for (const auto &a : e.args) checkExpr(cx, *a);
    return errorExpr(e.span);
  }
  // Named functions, built-ins, generic functions with explicit type arguments.
  if (callee.kind == ast::ExprKind::Name) {
    const auto &n = *callee.as<ast::NameExpr>();
    bool captured = false;
    if (!lookupLocal(cx, n.name.name, &captured)) {
      Symbol s = lookupModule(cx.module, n.name.name);
      if (s.kind == Symbol::Kind::Builtin) return checkBuiltinCall(cx, s.builtin, e, n.name.span);
      if (s.kind == Symbol::Kind::Func) {
        auto r = std::make_unique<sem::CallDirect>();
        r->span = n.name.span;
        FuncInfo *f;
        if (s.fn->type_params.empty()) {
          f = instantiateFunction(s.fn, s.module, {}, n.name.span);
          if (!checkArgs(cx, e.args, f->params, e.span, r->args)) return errorExpr(e.span);
        } else {
          f = inferAndInstantiate(cx, s.fn, s.module, e, e.span, r->args);
          if (!f) return errorExpr(e.span);
        }
        r->func = f;
        r->type = f->ret;
        return r;
      }
      if (s.kind == Symbol::Kind::Class || s.kind == Symbol::Kind::BuiltinClass) {
        error(DiagId::NotCallable, n.name.span, {"class '" + n.name.name + "'"})
            .withHint("make an object with 'new " + n.name.name + " { ... }'");
        for (const auto &a : e.args) checkExpr(cx, *a);
        return errorExpr(e.span);
      }
    }
  }
  if (callee.kind == ast::ExprKind::Index) {
    const auto &ix = *callee.as<ast::IndexExpr>();
    if (ix.base->kind == ast::ExprKind::Name) {
      const auto &n = *ix.base->as<ast::NameExpr>();
      bool captured = false;
      if (!lookupLocal(cx, n.name.name, &captured)) {
        Symbol s = lookupModule(cx.module, n.name.name);
        if (s.kind == Symbol::Kind::Func) {
          if (s.fn->type_params.empty()) {
            error(DiagId::NotGeneric, n.name.span, {n.name.name});
            for (const auto &a : e.args) checkExpr(cx, *a);
            return errorExpr(e.span);
          }
          std::vector<const Type *> targs = explicitTypeArgs(cx, ix);
          for (const Type *t : targs)
            if (t->isError()) return errorExpr(e.span);
          if (targs.size() != s.fn->type_params.size()) {
            error(DiagId::TypeArgCount, ix.span,
                  {n.name.name, plural(s.fn->type_params.size(), "type argument"),
                   std::to_string(targs.size())});
            return errorExpr(e.span);
          }
          FuncInfo *f = instantiateFunction(s.fn, s.module, targs, ix.span);
          auto r = std::make_unique<sem::CallDirect>();
          r->span = n.name.span;
          r->func = f;
          r->type = f->ret;
          if (!checkArgs(cx, e.args, f->params, e.span, r->args)) return errorExpr(e.span);
          return r;
        }
      }
    }
  }
  // A function value.
  sem::ExprPtr fv = checkValue(cx, callee, nullptr);
  if (fv->type->isError()) {
    for (const auto &a : e.args) checkExpr(cx, *a);
    return errorExpr(e.span);
  }
  if (fv->type->kind != TypeKind::Fn) {
    error(DiagId::NotCallable, callee.span, {typeName(fv->type)});
    for (const auto &a : e.args) checkExpr(cx, *a);
    return errorExpr(e.span);
  }
  auto r = std::make_unique<sem::CallIndirect>();
  r->span = callee.span;
  r->type = fv->type->ret;
  const Type *ft = fv->type;
  r->callee = std::move(fv);
  if (!checkArgs(cx, e.args, ft->params, e.span, r->args)) return errorExpr(e.span);
  return r;
}

}  // namespace cairn::front
