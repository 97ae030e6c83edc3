// Interned types, their names in messages, and assignability.
#include "check/types.h"

namespace cairn::front {

std::string symbolQualifier(std::string_view name, bool dotted) {
  std::string out;
  if (name.starts_with('_') || name.starts_with("llvm") || name.starts_with("cairn")) out += '_';
  static const char kHex[] = "0123456789abcdef";
  for (size_t i = 0; i < name.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(name[i]);
    const bool plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                       c == '_' || (c == '.' && dotted && i > 0 && i + 1 < name.size());
    if (plain) {
      out += static_cast<char>(c);
    } else {
      out += '$';
      out += kHex[c >> 4];
      out += kHex[c & 15];
    }
  }
  return out;
}

TypeContext::TypeContext() {
  error_ = make(Type(TypeKind::Error));
  void_ = make(Type(TypeKind::Void));
  int_ = make(Type(TypeKind::Int));
  float_ = make(Type(TypeKind::Float));
  bool_ = make(Type(TypeKind::Bool));
  text_ = make(Type(TypeKind::Text));
  any_ = make(Type(TypeKind::Any));
  nil_ = make(Type(TypeKind::Nil));
  database_ = make(Type(TypeKind::Database));
  transaction_ = make(Type(TypeKind::Transaction));
}

const Type *TypeContext::make(Type t) {
  owned_.push_back(std::make_unique<Type>(std::move(t)));
  return owned_.back().get();
}

const Type *TypeContext::arrayOf(const Type *elem) {
  auto it = arrays_.find(elem);
  if (it != arrays_.end()) return it->second;
  Type t(TypeKind::Array);
  t.elem = elem;
  const Type *r = make(std::move(t));
  arrays_[elem] = r;
  return r;
}

const Type *TypeContext::classType(ClassInfo *cls) {
  auto it = classes_.find(cls);
  if (it != classes_.end()) return it->second;
  Type t(TypeKind::Class);
  t.cls = cls;
  const Type *r = make(std::move(t));
  classes_[cls] = r;
  return r;
}

const Type *TypeContext::fnType(std::vector<const Type *> params, const Type *ret) {
  auto key = std::make_pair(params, ret);
  auto it = fns_.find(key);
  if (it != fns_.end()) return it->second;
  Type t(TypeKind::Fn);
  t.params = std::move(params);
  t.ret = ret;
  const Type *r = make(std::move(t));
  fns_[key] = r;
  return r;
}

std::string typeName(const Type *t) {
  if (t == nullptr) return "?";
  switch (t->kind) {
    case TypeKind::Error:
      return "<error>";
    case TypeKind::Void:
      return "nothing";
    case TypeKind::Int:
      return "int";
    case TypeKind::Float:
      return "float";
    case TypeKind::Bool:
      return "bool";
    case TypeKind::Text:
      return "text";
    case TypeKind::Any:
      return "any";
    case TypeKind::Nil:
      return "nil";
    case TypeKind::Array:
      return "[" + typeName(t->elem) + "]";
    case TypeKind::Class:
      return t->cls->name;
    case TypeKind::Fn: {
      std::string s = "fn(";
      for (size_t i = 0; i < t->params.size(); ++i) {
        if (i) s += ", ";
        s += typeName(t->params[i]);
      }
      s += ")";
      if (t->ret && t->ret->kind != TypeKind::Void) s += " -> " + typeName(t->ret);
      return s;
    }
    case TypeKind::Database:
      return "Database";
    case TypeKind::Transaction:
      return "Transaction";
  }
  return "?";
}

bool assignable(const Type *from, const Type *to) {
  if (from == to) return true;
  if (from->isError() || to->isError()) return true;  // already reported
  // nil is also the handle of nothing of the built-in classes Database and Transaction (their
  // zero value: docs/language.md).
  if (from->kind == TypeKind::Nil)
    return to->isRef() || to->kind == TypeKind::Database || to->kind == TypeKind::Transaction;
  if (to->kind == TypeKind::Any) return from->isRef();
  if (from->kind == TypeKind::Class && to->kind == TypeKind::Class)
    return from->cls->isSubclassOf(to->cls);
  return false;
}

}  // namespace cairn::front
