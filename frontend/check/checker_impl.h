// The checker's internals, shared by its files: checker.cpp (declarations, classes, generic
// instances, the program), check_stmt.cpp (statements), check_expr.cpp (expressions) and
// check_call.cpp (calls, members and built-ins). Not a public header.
#ifndef CAIRN_FRONTEND_CHECK_CHECKER_IMPL_H
#define CAIRN_FRONTEND_CHECK_CHECKER_IMPL_H

#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "check/checker.h"

namespace cairn::front {

// What a name at module level stands for.
struct Symbol {
  enum class Kind { None, Class, Func, Global, Builtin, BuiltinClass } kind = Kind::None;
  const ast::ClassDecl *cls = nullptr;
  const ast::FnDecl *fn = nullptr;
  GlobalInfo *global = nullptr;
  ModuleInfo *module = nullptr;  // where it is declared
  std::string builtin;           // Builtin / BuiltinClass: its name
};

// The state of checking one function body (or one global initializer).
struct FnCtx {
  sem::Function *fn = nullptr;               // nullptr for global initializers
  const GlobalInfo *initializing = nullptr;  // the module-level value whose initializer this is
  FuncInfo *info = nullptr;
  ModuleInfo *module = nullptr;
  const Bindings *bindings = nullptr;
  ClassInfo *self_class = nullptr;  // methods
  LocalVar *self_var = nullptr;
  FnCtx *outer = nullptr;  // a function literal's enclosing function (captures)
  // The local whose initializer is being checked (`let f = ...`): not in scope in it yet.
  const std::string *initializing_local = nullptr;
  // A local's initializer that starts on the line after its `=` (`let x =` then a call that is
  // no value: the hint says what the '=' did).
  const ast::Expr *init_on_next_line = nullptr;
  // The blocks being checked, innermost last, each with the index of its statement being
  // checked: a name not in scope that a later `let` of one of them declares gets a hint.
  std::vector<std::pair<const ast::Block *, size_t>> open_blocks;
  std::vector<std::map<std::string, LocalVar *>> scopes;
  int loop_depth = 0;
  // Generic instances report errors at the place that made the instance (InstanceError).
  Span inst_site;
  std::string inst_name;
  // An instance made by another instance: where each one in the chain was made, inside the
  // generic declaration of the one before (notes of the error).
  std::vector<std::pair<Span, std::string>> inst_via;
};

// Where a generic instance was made, as its errors are reported (FnCtx::inst_site and the rest).
struct InstSite {
  Span site;
  std::string name;
  std::vector<std::pair<Span, std::string>> via;
};

class Checker {
 public:
  Checker(std::vector<ModuleInfo *> modules, ModuleInfo *main, Diagnostics &diags,
          TypeContext &types)
      : modules_(std::move(modules)), main_(main), diags_(diags), types_(types) {}

  std::unique_ptr<sem::Program> run(bool require_main);

  // --- reporting (checker.cpp) ---
  Diagnostic &error(DiagId id, Span span, std::vector<std::string> args = {});
  // The standard library's folder (for hints; "" when unknown).
  void setStdlibDir(std::string dir) { stdlib_dir_ = std::move(dir); }
  // The standard library module (`std.list`) that declares a public class (`type`) or a
  // function, `let` or `var` (not `type`) named `name` at top level; "" if none does.
  std::string stdModuleDeclaring(const std::string &name, bool type) const;
  // A variable `name` of type t declared without a value: an error if t has no default (a
  // function type).
  void requireValue(const std::string &name, Span span, const Type *t);
  // What class cls lacks for `for x in obj` and len(obj): methods len() -> int and
  // get(i: int) -> T (a hint for their errors).
  // Why `for` does not take an object of cls (no len(), get(i) of another shape, ...), and the
  // methods of it without parameters that give something `for` takes, as in `for x in
  // OBJECT.keys()` (OBJECT: the iterable's source when it is a name, else "it").
  std::string iterationHint(ClassInfo *cls, const std::string &object);
  // Why `for` (and len) does not take an object of cls; "" when it does.
  std::string whyNotIterable(ClassInfo *cls);
  bool indexParameter(const FuncInfo *get);
  // A function, Database or Transaction where a field or array element would hold it.
  void cannotStore(Span span, const Type *t, const char *where);

  // --- declarations (checker.cpp) ---
  void collectDeclarations(const std::vector<ModuleInfo *> &modules);
  void checkTypeParams(const std::vector<ast::Ident> &params);
  // Instantiates every non-generic class and function the modules declare (queued for work).
  void instantiateDeclared(const std::vector<ModuleInfo *> &modules);
  Symbol lookupModule(ModuleInfo *m, const std::string &name);
  std::vector<std::string> moduleNames(ModuleInfo *m);
  const Type *resolveType(const ast::TypeExpr *t, ModuleInfo *m, const Bindings *b);
  ClassInfo *instantiateClass(const ast::ClassDecl *decl, ModuleInfo *m,
                              std::vector<const Type *> args, Span site);
  void resolveClass(ClassInfo *cls);
  FuncInfo *instantiateFunction(const ast::FnDecl *decl, ModuleInfo *m,
                                std::vector<const Type *> args, Span site);
  void resolveSignature(FuncInfo *f, const ast::FnDecl *decl, ModuleInfo *m, const Bindings *b);
  // The type arguments of an instance about to be made: `args`, or, when they are too large
  // (a generic declaration that instantiates itself with ever larger arguments, which would
  // never end), as many error types, after one report.
  std::vector<const Type *> boundedTypeArgs(const std::string &generic,
                                            std::vector<const Type *> args, Span site);
  void checkFunctionBody(FuncInfo *f);
  void checkGlobals(const std::vector<ModuleInfo *> &modules);
  void drainWork();

  // --- statements (check_stmt.cpp) ---
  std::unique_ptr<sem::Block> checkBlock(FnCtx &cx, const ast::Block &b, bool new_scope = true);
  sem::StmtPtr checkStmt(FnCtx &cx, const ast::Stmt &s);
  LocalVar *declareLocal(FnCtx &cx, const std::string &name, const Type *t, bool is_var, Span span);
  static bool alwaysReturns(const sem::Stmt *s);

  // --- expressions (check_expr.cpp) ---
  sem::ExprPtr checkExpr(FnCtx &cx, const ast::Expr &e, const Type *expected = nullptr);
  sem::ExprPtr coerce(FnCtx &cx, sem::ExprPtr e, const Type *to, Span span);
  sem::ExprPtr checkValue(FnCtx &cx, const ast::Expr &e, const Type *expected);
  sem::ExprPtr checkCondition(FnCtx &cx, const ast::Expr &e);
  sem::ExprPtr checkName(FnCtx &cx, const ast::NameExpr &e, const Type *expected = nullptr);
  // A name (value or type) that two of m's imports declare, both starting with '_'
  // (ModuleInfo::underscore_clashes): reported at span as the clash; false if it is not one.
  bool reportUnderscoreClash(const ModuleInfo *m, const std::string &name, Span span);
  // The clash of `name`, declared by each of `modules` (two or more, in import order), at span.
  void reportImportClash(const std::string &name, const std::vector<const ModuleInfo *> &modules,
                         Span span, const std::string &hint = "");
  sem::ExprPtr checkBinary(FnCtx &cx, const ast::BinaryExpr &e);
  sem::ExprPtr checkCast(FnCtx &cx, const ast::Expr &value, const ast::TypeExpr &type, bool is,
                         Span span);
  sem::ExprPtr checkIndex(FnCtx &cx, const ast::IndexExpr &e);
  sem::ExprPtr checkNew(FnCtx &cx, const ast::NewExpr &e);
  sem::ExprPtr checkArrayLit(FnCtx &cx, const ast::ArrayLitExpr &e, const Type *expected);
  sem::ExprPtr checkFnLit(FnCtx &cx, const ast::FnLitExpr &e);
  // The body of a function literal (its FuncInfo and sem::Function made by checkFnLit).
  void checkFnLitBody(FnCtx &cx, const ast::FnLitExpr &e, FuncInfo *f, sem::Function *fn);
  sem::ExprPtr errorExpr(Span span);
  const Type *arrayType(const Type *elem);
  LocalVar *lookupLocal(FnCtx &cx, const std::string &name, bool *captured);

  // --- calls and members (check_call.cpp) ---
  sem::ExprPtr checkField(FnCtx &cx, const ast::FieldExpr &e);
  sem::ExprPtr checkCall(FnCtx &cx, const ast::CallExpr &e, const Type *expected);
  sem::ExprPtr checkBuiltinCall(FnCtx &cx, const std::string &name, const ast::CallExpr &e,
                                Span name_span);
  sem::ExprPtr checkCompare(FnCtx &cx, const ast::CallExpr &e, Span name_span);
  sem::ExprPtr checkIntrinsic(FnCtx &cx, const Intrinsic &in, const ast::CallExpr &e,
                              Span name_span);
  sem::ExprPtr checkStaticCall(FnCtx &cx, const std::string &cls, const ast::Ident &member,
                               const ast::CallExpr &e);
  bool checkArgs(FnCtx &cx, const std::vector<ast::ExprPtr> &args,
                 const std::vector<const Type *> &params, Span span,
                 std::vector<sem::ExprPtr> &out);
  // A generic function used as a value where a function type is expected (`let f: fn(int) ->
  // int = pick`): its type arguments from that type's parameters and result; nullptr if they
  // do not give every one (nothing reported).
  FuncInfo *instantiateForFnType(const ast::FnDecl *decl, ModuleInfo *m, const Type *expected,
                                 Span site);
  FuncInfo *inferAndInstantiate(FnCtx &cx, const ast::FnDecl *decl, ModuleInfo *m,
                                const ast::CallExpr &call, Span site,
                                std::vector<sem::ExprPtr> &args_out);
  std::vector<const Type *> explicitTypeArgs(FnCtx &cx, const ast::IndexExpr &ix);

  TypeContext &types() { return types_; }
  // A loaded module other than the main one that declares a class `name` itself (for the hint
  // of an unknown type); of several, the first by name.
  const ModuleInfo *moduleDeclaringClass(const std::string &name) const;
  // "'bark' is a method of Dog, a subclass of Animal: ... as ...", for a member that cls lacks
  // and one of its (resolved) subclasses has; "" when none has it.
  std::string subclassMemberHint(const ClassInfo *cls, const std::string &name, bool method) const;
  // The module (not the main one) that declares a class (is_class) or a function or
  // module-level value of that name, for the hint of a name its module does not import.
  const ModuleInfo *moduleDeclaring(const std::string &name, bool is_class) const;

  // State.
  std::vector<ModuleInfo *> modules_;
  ModuleInfo *main_;
  Diagnostics &diags_;
  // Places that made a generic instance which already has an error there: one error per use,
  // not one per line of the generic that fails for these type arguments (no cascade).
  std::set<std::pair<uint32_t, uint32_t>> failed_inst_sites_;
  Diagnostic muted_{};  // what error() returns for an error it does not report
  std::string stdlib_dir_;
  // checkBlock: a `return` without a value followed by an expression statement (its value, put
  // on the next line), and that statement, whose "does nothing" the return's error covers.
  const ast::Stmt *split_return_ = nullptr;
  const ast::Stmt *split_value_ = nullptr;
  // Whether b begins on a later line than a ends (same file).
  bool onLaterLine(Span a, Span b) const;
  TypeContext &types_;
  std::unique_ptr<sem::Program> program_ = std::make_unique<sem::Program>();
  FnCtx *current_ = nullptr;                       // for error redirection in generic instances
  std::set<const ast::FnDecl *> generic_methods_;  // methods with type parameters, reported
  void reportGenericMethod(const ast::FnDecl &method);
  // `text` cut in its middle when longer than a message can show (an instance's name).
  static std::string abbreviated(const std::string &text);
  std::vector<ClassInfo *> resolving_;          // the classes being resolved, outermost first
  bool inheritance_too_deep_reported_ = false;  // a chain of bases past the stack's bound
  std::string base_of_;  // while a class's base is resolved: the class (not a suggestion)

  std::map<ModuleInfo *, std::map<std::string, Symbol>> symbols_;
  std::map<const ast::Decl *, ModuleInfo *> decl_module_;
  std::map<std::string, ClassInfo *> class_by_name_;
  std::map<std::pair<const ast::ClassDecl *, std::vector<const Type *>>, std::unique_ptr<ClassInfo>>
      class_instances_;
  std::map<std::pair<const ast::FnDecl *, std::vector<const Type *>>, std::unique_ptr<FuncInfo>>
      fn_instances_;
  std::vector<std::unique_ptr<FuncInfo>> literal_funcs_;
  // The function literals of module-level initializers, whose bodies are checked once every
  // module-level value has its type (checkGlobals): a body runs only when called, so it may
  // read the value it initializes (a recursive literal) or one declared after it, as a named
  // function's body may. The order of initialization is then checkInitOrder's.
  struct DeferredLiteral {
    const ast::FnLitExpr *lit;
    FuncInfo *info;
    sem::Function *fn;
    ModuleInfo *module;
  };
  std::vector<DeferredLiteral> deferred_literals_;
  bool defer_literals_ = false;  // while initializers are checked (checkGlobals, a REPL input)
  void checkDeferredLiterals();
  std::vector<std::unique_ptr<GlobalInfo>> globals_;
  std::vector<std::unique_ptr<LocalVar>> orphan_locals_;  // declared outside any function
  std::map<std::string, const ast::ClassDecl *> class_decl_by_name_;  // by classKey
  // A class's key in class_decl_by_name_: its name, with "[]" after a generic one's. A generic
  // and a non-generic class may share a name (in different modules): their heap types are
  // named apart (`List[int]`, `List`), so persistent objects still find their type by name.
  static std::string classKey(const ast::ClassDecl *c) {
    return c->type_params.empty() ? c->name.name : c->name.name + "[]";
  }
  // Standard library classes that a class of the program shadows (the same key, K4): their
  // heap type names are qualified by their module (`std.list.List[int]`), the program's class
  // keeps its own name.
  std::set<const ast::ClassDecl *> qualified_classes_;
  // Whether any instance of the class has been made.
  bool hasInstances(const ast::ClassDecl *decl) const {
    auto it = class_instances_.lower_bound({decl, {}});
    return it != class_instances_.end() && it->first.first == decl;
  }
  std::deque<ClassInfo *> class_work_;
  std::deque<FuncInfo *> fn_work_;
  std::map<FuncInfo *, InstSite> inst_site_;          // instance -> where it was made
  std::set<std::string> instance_symbols_;            // of the functions made so far (unique, S1)
  std::map<std::string, FuncInfo *> extern_by_name_;  // extern fns by C name: one signature
  std::set<std::string> class_symbols_;               // of the classes made so far (unique, S1)
  std::map<ClassInfo *, InstSite> class_site_;
  // The site of an instance named `own` made at `site` (inside the current instance, if any).
  InstSite siteFor(Span site, const std::string &own) const;
  std::set<std::string> endless_generics_;  // InstanceNeverEnds is reported once for each

  // For the REPL's session (session.cpp): a suffix for the IR symbols of everything declared or
  // instantiated now (one per input, so that a redefinition never reuses a symbol), and a log
  // of the instances made, so that an input with errors can be taken back.
  std::string symbol_suffix_;
  bool log_instances_ = false;
  using ClassKey = std::pair<const ast::ClassDecl *, std::vector<const Type *>>;
  using FnKey = std::pair<const ast::FnDecl *, std::vector<const Type *>>;
  std::vector<ClassKey> made_classes_;
  std::vector<FnKey> made_functions_;
  std::vector<const Type *> array_types_seen_;
  unsigned literal_count_ = 0;
};

// "2 arguments", "1 argument"
std::string plural(size_t n, const char *word);

// Cairn's word for a name other languages use (`null` -> `nil`, `this` -> `self`; as a type,
// `string` -> `text`, `double` -> `float`), for the hint of an unknown name or type; nullptr
// if there is none.
const char *cairnWordFor(const std::string &name, bool as_type);

}  // namespace cairn::front

#endif  // CAIRN_FRONTEND_CHECK_CHECKER_IMPL_H
