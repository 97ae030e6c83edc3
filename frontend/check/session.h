// The checker used incrementally, one input at a time: the REPL's session (repl/).
//
// A session is one module, `repl`, whose scope grows with every input. An input (ast::Input:
// declarations and statements in the order typed) is checked in that scope:
//   - `import a.b` loads the module (and what it imports) as a library module, checked as in a
//     program, and brings its names into the session's scope (the session's own names win);
//   - `class`, `fn`, `extern fn` declare or redeclare a name in the session (a later input's
//     declaration replaces an earlier one: Swift's and Julia's REPLs do the same);
//   - `let`/`var` declare a session variable: a global, of any type a local may have (the
//     module rule that `let` holds only values and text does not apply at the prompt);
//   - statements, and the initializers of the input's variables, in the order typed, make the
//     input's *run* function; an input that is one expression of a type other than void gets a
//     hidden global of that type (InputUnit::value), which the run function assigns.
//
// Invariants:
//   E1. Every IR symbol made for an input ends with "@N", N the input's number, so no two
//       inputs ever make the same symbol (a redefinition included).
//   E2. check() changes the session only provisionally: accept() keeps what it did, reject()
//       takes it back entirely (names, instances, globals, loaded modules), so an input with
//       errors, or one the REPL refuses, leaves the session as it was. One of them must be
//       called before the next check().
//   E3. Everything an accepted input made (classes, functions, globals, syntax trees) lives as
//       long as the session: later inputs point at it.
#ifndef CAIRN_FRONTEND_CHECK_SESSION_H
#define CAIRN_FRONTEND_CHECK_SESSION_H

#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "check/sem.h"
#include "check/types.h"
#include "source/diagnostics.h"
#include "syntax/ast.h"

namespace cairn::front {

class Checker;

struct SessionOptions {
  std::vector<std::string> search_paths;  // --path folders for imports
  std::string stdlib_dir;                 // where `std.x` modules are
};

// What a checked function is to the REPL, which decides from it where its code goes.
enum class FunctionRole {
  Function,  // a function declared in the session, or an instance of a generic one declared
             // there: redefinable (called via a stub)
  Method,    // a method of any class: redefinable with its class (called via a stub)
  Fixed,     // function literals, library functions and their instances: never replaced
  Run,       // the input's run function
};

struct CheckedFunction {
  std::unique_ptr<sem::Function> fn;
  FunctionRole role = FunctionRole::Fixed;
};

// A declaration of the input that replaces one made before.
struct Replaced {
  std::string name;
  const ClassInfo *old_class = nullptr;  // a class's previous definition (non-generic), or
  const ClassInfo *new_class = nullptr;
  const FuncInfo *old_fn = nullptr;  // a function's previous definition (non-generic)
  const FuncInfo *new_fn = nullptr;
};

// One input's share of the program, checked (to be lowered and run by the REPL).
struct InputUnit {
  int number = 0;                          // N of "@N" (E1)
  std::vector<ModuleInfo *> modules;       // library modules loaded by this input
  std::vector<ClassInfo *> classes;        // class instances made now (each base first)
  std::vector<const Type *> array_types;   // array types first used now
  std::vector<CheckedFunction> functions;  // every body checked now, the run function too
  std::vector<GlobalInfo *> globals;       // globals made now (library modules' too)
  sem::Function *run = nullptr;            // in `functions`; nullptr if nothing runs
  GlobalInfo *value = nullptr;             // an expression input's value (also in globals)
  std::vector<std::string> declared;       // "fn f", "class C", "var x": what it declared
  std::vector<Replaced> replaced;          // redefinitions among them
};

class SessionChecker {
 public:
  SessionChecker(SourceManager &sources, Diagnostics &diags, TypeContext &types,
                 SessionOptions options);
  ~SessionChecker();
  SessionChecker(const SessionChecker &) = delete;
  SessionChecker &operator=(const SessionChecker &) = delete;

  // Checks one input (E2). `import_root` is the folder its imports are searched in first (a
  // :load-ed file's folder, else "."). Returns nullptr if it has errors (they are in the
  // Diagnostics; the session is then already as it was before: no accept/reject needed).
  std::unique_ptr<InputUnit> check(std::unique_ptr<ast::Input> input,
                                   const std::string &import_root);
  void accept();
  void reject();

  // The names in the session's scope (its own and imported ones, and the built-ins).
  std::vector<std::string> names() const;
  // The session variable, class or function a name stands for now (nullptr if none).
  const GlobalInfo *findGlobal(const std::string &name) const;
  ClassInfo *findClass(const std::string &name) const;
  // The non-generic function a name stands for in the session's scope (nullptr if none).
  const FuncInfo *findFunction(const std::string &name) const;
  // Whether a name stands for a generic class, or a function, in the session's scope.
  bool hasGenericClass(const std::string &name) const;
  // The module that declares a generic class of that name among the modules loaded (imported
  // by the session or by a module it imports), or "" if none does.
  std::string genericClassModule(const std::string &name) const;
  bool hasFunction(const std::string &name) const;
  // Every class instance of the session with this heap type name, in the order they were made
  // (several after redefinitions), accepted ones only.
  std::vector<ClassInfo *> classesNamed(const std::string &heap_name) const;

  TypeContext &types();
  // The session's module: the module of everything declared at the prompt.
  const ModuleInfo *module() const { return session_; }

 private:
  struct Snapshot;
  std::unique_ptr<Checker> checker_;
  ModuleInfo *session_ = nullptr;
  std::unique_ptr<ModuleInfo> session_owned_;
  SourceManager &sources_;
  Diagnostics &diags_;
  SessionOptions options_;
  int inputs_ = 0;
  std::vector<std::unique_ptr<ast::Input>> inputs_kept_;   // E3
  std::vector<std::unique_ptr<ModuleInfo>> modules_kept_;  // library modules and importers
  std::vector<std::unique_ptr<FuncInfo>> run_infos_;
  std::set<std::string> own_names_;             // declared in the session, not imported
  std::map<std::string, ModuleInfo *> loaded_;  // library modules by canonical path
  std::unique_ptr<Snapshot> pending_;
  // What reject() took back is kept, never freed, so that no address of it is reused for a
  // new object while a map of the checker's may still hold it.
  std::vector<std::unique_ptr<ClassInfo>> graveyard_classes_;
  std::vector<std::unique_ptr<FuncInfo>> graveyard_functions_;
  std::vector<std::unique_ptr<GlobalInfo>> graveyard_globals_;
  void restore(Snapshot &snap);
};

}  // namespace cairn::front

#endif  // CAIRN_FRONTEND_CHECK_SESSION_H
