// The checker's model of a program: types, classes, functions, globals and locals.
//
// Invariants:
//   K1. Types are interned by the TypeContext: two Type pointers are equal iff the types are.
//   K2. Every generic class or function is instantiated per list of type arguments (like C++
//       templates): each ClassInfo / FuncInfo is one instance with concrete types only; no Type
//       ever holds a type parameter once checking of a declaration's signature is done.
//   K3. A class's `fields` start with its base's fields (same order, same indexes through the
//       base element); its `vtable` starts with its base's vtable (slot i of a base is slot i of
//       every subclass, overridden or not).
//   K4. The heap type name of a class instance is its source name with its type arguments
//       (`Pair[int, text]`), unique in the program (persistent objects find their type by
//       it): of classes of one name in two modules, the main module's (a REPL session's) keeps
//       it and the others are named with their module (`support.geometry.Point`); a standard
//       library class shadowed by a program's is always named so (`std.list.List[int]`;
//       Checker::qualified_classes_). A REPL session never renames a class it has made objects
//       of (that is the ClassNameClash error).
#ifndef CAIRN_FRONTEND_CHECK_TYPES_H
#define CAIRN_FRONTEND_CHECK_TYPES_H

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "source/source.h"
#include "syntax/ast.h"

namespace cairn::front {

struct ClassInfo;
struct FuncInfo;
struct ModuleInfo;

enum class TypeKind {
  Error,  // the type of an expression that failed to check (silences follow-on errors)
  Void,   // no value (a function without a result)
  Int,
  Float,
  Bool,
  Text,
  Any,
  Nil,    // the type of `nil` alone
  Array,  // [elem]
  Class,  // cls
  Fn,     // fn(params) -> ret
  Database,
  Transaction,
};

struct Type {
  explicit Type(TypeKind k) : kind(k) {}
  TypeKind kind;
  const Type *elem = nullptr;        // Array
  ClassInfo *cls = nullptr;          // Class
  std::vector<const Type *> params;  // Fn
  const Type *ret = nullptr;         // Fn (Void when none)

  bool isRef() const {
    return kind == TypeKind::Text || kind == TypeKind::Any || kind == TypeKind::Nil ||
           kind == TypeKind::Array || kind == TypeKind::Class;
  }
  bool isValue() const {
    return kind == TypeKind::Int || kind == TypeKind::Float || kind == TypeKind::Bool;
  }
  bool isError() const { return kind == TypeKind::Error; }
  // Whether an error type is in it (an array's element, a function's parameter or result):
  // a type an earlier error left unknown, about which no further error is reported.
  bool mentionsError() const {
    if (isError()) return true;
    if (elem != nullptr && elem->mentionsError()) return true;
    if (ret != nullptr && ret->mentionsError()) return true;
    for (const Type *p : params)
      if (p->mentionsError()) return true;
    return false;
  }
  // Values that mean nothing in a database: they may not be stored in fields or arrays.
  bool isHandle() const {
    return kind == TypeKind::Fn || kind == TypeKind::Database || kind == TypeKind::Transaction;
  }
};

// Interns types (K1).
class TypeContext {
 public:
  TypeContext();
  const Type *error() const { return error_; }
  const Type *voidType() const { return void_; }
  const Type *intType() const { return int_; }
  const Type *floatType() const { return float_; }
  const Type *boolType() const { return bool_; }
  const Type *textType() const { return text_; }
  const Type *anyType() const { return any_; }
  const Type *nilType() const { return nil_; }
  const Type *databaseType() const { return database_; }
  const Type *transactionType() const { return transaction_; }
  const Type *arrayOf(const Type *elem);
  const Type *classType(ClassInfo *cls);
  const Type *fnType(std::vector<const Type *> params, const Type *ret);

 private:
  std::vector<std::unique_ptr<Type>> owned_;
  const Type *make(Type t);
  const Type *error_, *void_, *int_, *float_, *bool_, *text_, *any_, *nil_, *database_,
      *transaction_;
  std::map<const Type *, const Type *> arrays_;
  std::map<ClassInfo *, const Type *> classes_;
  std::map<std::pair<std::vector<const Type *>, const Type *>, const Type *> fns_;
};

// How a type is written in messages: int, [text], Pair[int, text], fn(int) -> bool.
std::string typeName(const Type *t);

// `from` may be used where `to` is expected: equal, nil to a reference, a subclass to its base,
// any reference to any.
bool assignable(const Type *from, const Type *to);

// Type parameter name -> argument, for checking one instance of a generic declaration.
using Bindings = std::map<std::string, const Type *>;

struct FieldInfo {
  std::string name;
  const Type *type = nullptr;
  ClassInfo *owner = nullptr;  // the class that declares it
  unsigned index = 0;          // element index in the owner's own struct (after the base)
  Span span;
};

struct LocalVar {
  std::string name;
  const Type *type = nullptr;
  bool is_var = false;    // may be assigned: `var`, and parameters
  bool is_loop = false;   // the variable of a `for` (never assigned)
  bool assigned = false;  // an assignment to it was checked (a `var` or parameter: L1)
  Span span;
  unsigned id = 0;  // unique within its function
};

struct FuncInfo {
  std::string name;    // as written (`max`, `describe`)
  std::string symbol;  // the IR symbol (S1): `prog.main`, `Node:describe`, `prog.max[int]`
  ModuleInfo *module = nullptr;
  const ast::FnDecl *decl = nullptr;  // nullptr for function literals
  const ast::FnLitExpr *literal = nullptr;
  Bindings bindings;  // type arguments of this instance
  std::vector<const Type *> type_args;
  std::vector<const Type *> params;
  std::vector<std::string> param_names;
  const Type *ret = nullptr;   // Void when none
  ClassInfo *owner = nullptr;  // methods: the class that declares this body
  int slot = -1;               // methods: the vtable slot
  bool is_extern = false;
  bool is_override = false;
  bool checked = false;          // its body has been checked (or queued)
  bool prompt = false;           // the REPL's function that runs one input (not a function)
  const Type *fnType = nullptr;  // fn(params) -> ret
  Span span;
};

// The most base classes a class may have: each is a nested struct of its descriptor, and the
// runtime refuses structs nested deeper than CAIRN_MAX_NESTING (cairn/type.h; lower_program.cpp
// asserts the two agree).
constexpr size_t kMaxBaseClasses = 1000;

struct ClassInfo {
  std::string name;         // the heap type name (K4)
  std::string source_name;  // the declaration's name
  std::string symbol;       // what its methods' symbols start with (S1): `Node`, `List[int]`
  ModuleInfo *module = nullptr;
  const ast::ClassDecl *decl = nullptr;
  Bindings bindings;
  std::vector<const Type *> type_args;
  ClassInfo *super = nullptr;
  std::vector<FieldInfo *> fields;  // all fields, base first (K3)
  std::vector<std::unique_ptr<FieldInfo>> own_fields;
  std::vector<FuncInfo *> vtable;  // slot -> implementation (K3)
  std::vector<std::unique_ptr<FuncInfo>> own_methods;
  bool resolved = false;   // fields and vtable are complete
  bool too_deep = false;   // it or a base has more bases than kMaxBaseClasses (reported once)
  bool resolving = false;  // (inheritance cycle detection)
  const Type *type = nullptr;

  const FieldInfo *findField(const std::string &n) const {
    for (const FieldInfo *f : fields)
      if (f->name == n) return f;
    return nullptr;
  }
  FuncInfo *findMethod(const std::string &n) const {
    for (FuncInfo *m : vtable)
      if (m->name == n) return m;
    return nullptr;
  }
  // In a REPL session, a class defined again with the same fields and method signatures is the
  // same type as the definition it replaces (repl/session.cpp sets this to that one's
  // canonical()): its objects keep their type, and values of either are of both.
  const ClassInfo *same_as = nullptr;
  const ClassInfo *canonical() const { return same_as != nullptr ? same_as : this; }
  bool isSubclassOf(const ClassInfo *other) const {
    const ClassInfo *target = other->canonical();
    for (const ClassInfo *c = this; c; c = c->super)
      if (c->canonical() == target) return true;
    return false;
  }
};

struct GlobalInfo {
  std::string name;
  std::string symbol;  // the IR symbol (S1): `prog.visits`
  ModuleInfo *module = nullptr;
  const ast::GlobalDecl *decl = nullptr;
  const Type *type = nullptr;
  bool is_var = false;
  Span span;
};

// The IR symbols of what a program defines (FuncInfo, GlobalInfo, ClassInfo and ModuleInfo
// `symbol`). Extern functions keep their C name; everything else is named so:
//   S1. a module's function or variable is `<module>.<name>`, a generic function's instance
//       `<module>.<name>[<type args>]`; a method is `<class>:<name>` (a class's symbol is its
//       escaped name, `[<type args>]` after it for an instance, its module's symbol and a '.'
//       before it when two modules declare classes of one name); a function literal is the
//       enclosing function's symbol (or its module's) and `#fn<n>`; in a REPL session each
//       input's symbols end in `@<n>`, and the session's own declarations are
//       `repl/session.<name>@<n>`, an input's code `repl/input@<n>` (a '/' is in no escaped
//       name, so no module or declaration meets them). So a method never has a module
//       function's symbol. Two instances whose names are one (a session's class defined again
//       with other fields among their type arguments) are told apart: the later one's symbol
//       ends in `'<n>` (n from 2; a '\'' is in no escaped name either).
//   S2. each module or class name in a symbol goes through symbolQualifier: a name starting
//       with '_', `llvm` or `cairn` gets one more '_' in front, and every byte other than a
//       letter, digit or '_' (and, in an imported module's dotted name, the dots between its
//       parts) is written '$' and two hex digits. So no symbol of a program starts with `llvm.`
//       (LLVM's intrinsics), `.L` (the assembler's local labels), `cairn` (the runtime's names,
//       the compiler's own and the descriptor pass's markers) or `_Z`, or holds an '@' outside
//       a REPL suffix; and a main module named `a.b` (from a.b.cairn) is not the module `a.b`
//       of a.b's import.
// `dotted` keeps the dots of an imported module's name (its parts are identifiers).
std::string symbolQualifier(std::string_view name, bool dotted);

// One source file of the program, with what it declares.
struct ModuleInfo {
  std::string name;    // dotted: `prog`, `std.list`, `oo7.schema`
  std::string symbol;  // what its symbols start with (S1): `prog`, `std.list`, `_llvm`
  std::string path;
  bool is_std = false;  // its file is in the standard library's folder (sees the intrinsics)
  std::unique_ptr<ast::Module> syntax;
  std::vector<ModuleInfo *> imports;
  std::vector<Span> import_spans;
  // Its module-level let/var (classes and functions are found through the checker's symbol
  // tables; generic declarations stay as syntax until used).
  std::map<std::string, GlobalInfo *> globals;
  // Names starting with '_' that two of its imports declare: neither is brought in, and a use
  // is the clash error (other names clash at the import). name -> the modules declaring it, in
  // import order.
  std::map<std::string, std::vector<const ModuleInfo *>> underscore_clashes;
};

}  // namespace cairn::front

#endif  // CAIRN_FRONTEND_CHECK_TYPES_H
