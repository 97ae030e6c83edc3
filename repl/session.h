// The REPL's session: the compiler plus a session (style.md, 17). Each input is parsed, checked
// in the session's scope (frontend/check/session.h), lowered into units (JIT modules), run by
// the JIT in this process, and its value printed (printer.h); `:` commands manage databases,
// transactions and the session itself (commands.cpp). docs/repl.md describes it for users.
//
// Where an input's code goes (one resource tracker per unit, jit.h):
//   - a permanent unit: its classes (heap types, registered by the unit's constructor), array
//     types, globals, generic instances and function literals; never removed (T4 of
//     cairn/type.h: descriptors live as long as the process; globals are roots);
//   - one unit per function declared at the prompt, and one per class for its methods: called
//     through stubs (one per function and signature, one per method of a class layout), so a
//     redefinition with the same signature points the stub at the new body, and the old unit is
//     removed once no stub leads into it;
//   - a run unit with the input's statements, removed once they have run.
//
// Invariants:
//   S1. Nothing of an input runs unless all of it checked, compiled and registered; an input
//       that fails before running leaves the session as it was (the checker's reject()).
//   S2. Without `:begin`, an input that runs code does so in a transaction of its own when the
//       store is open and the input does not begin transactions itself (atomic,
//       Transaction.begin(), in its statements or in the functions and methods they call by
//       name: txn_scan.h); it commits when the input succeeds and is aborted when it fails. An
//       input that would open the store (a Database builtin, in the same reach) has it opened
//       before it runs, so its first such input is in a transaction too. (Creating and
//       dropping a database happen at once, in a transaction or not: an abort does not undo
//       them.)
//   S3. A runtime error (or an error while faulting a page in) ends only the input: the
//       runtime aborted its transaction, the definitions made so far stay, the prompt returns.
#ifndef CAIRN_REPL_SESSION_H
#define CAIRN_REPL_SESSION_H

#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "cairn/persist.h"
#include "check/session.h"
#include "jit.h"
#include "printer.h"
#include "source/diagnostics.h"
#include "source/source.h"
#include "txn_scan.h"

namespace cairn::repl {

struct SessionOptions {
  std::string store_dir;                  // --store DIR ("" : $CAIRN_STORE, else ./cairn.store)
  std::vector<std::string> search_paths;  // --path DIR, for imports
  std::string stdlib_dir;
  int opt_level = 2;   // of the code compiled for each input
  bool color = false;  // diagnostics in colour
};

// A failed commit's message: why, then `aborted` (if any) and that nothing was written, unless
// `why` says so already.
std::string failedCommit(const std::string &why, const std::string &aborted);

class Session {
 public:
  explicit Session(SessionOptions options);
  ~Session();

  // Sets up the runtime and the JIT. Prints the reason and returns false if it cannot.
  bool start();
  // At the end of the session (:quit, end of input): a transaction still open (:begin, or a
  // Transaction begun in code) is aborted, and a note says so.
  void finish();

  // Handles one complete input: code, or a command starting with ':'. Returns false when the
  // session should end (:quit).
  bool handle(const std::string &text);

  // Whether `text` (the lines typed so far) is a complete input, or continues on the next line
  // (brackets open, a line ending in an operator, ',' or `new`, an unfinished comment).
  static bool isComplete(const std::string &text);

  // Completions of the word before the cursor: names in scope, fields and methods after '.',
  // commands after ':'. `*start` gets where the word begins.
  std::vector<std::string> complete(const std::string &line, size_t cursor, size_t *start);

  // Inputs that failed (compile, runtime or command errors) so far.
  int failures() const { return failures_; }

 private:
  // After an input (or a :call) that begins transactions itself: its changes made outside them
  // committed (or undone if it failed), so that none waits for a later input's commit.
  void settleOutside(bool ok);
  friend class Commands;
  struct Code {
    std::string text;               // the source
    std::string import_root = ".";  // where its imports are searched first
    std::string source_name;        // for messages ("" : <input N>)
    bool type_only = false;         // :type: check, print the type, run nothing
    int depth = -1;                 // :show: printing depth (-1: the default)
    bool value_only = false;        // :show: an expression only (a declaration is refused)
    bool quiet = false;             // print no value (commands that run code)
  };
  bool runCode(const Code &code);
  bool runCommand(const std::string &text);
  // :call NAME ARGS (call.cpp).
  bool callFunction(const std::string &arg);
  // :types NAME: the types stored in a database (browse.cpp).
  bool typesOf(const std::string &db);
  // :root NAME: the root printed from its descriptor, in the input's transaction (commands.cpp).
  void printRoot(const std::string &db);
  // :open: defines the types of an open database that the session lacks from its type table
  // (browse.cpp). *report says what was defined and what not; false on an error. `binding`, if
  // not empty, is the declaration `let NAME = Database.open(...)` that binds the database to
  // `bind_name`: it is compiled and run with the types (one input, so one compilation) when the
  // types do not take that name, and then *bound is true; else the caller runs it.
  bool defineStoredTypes(const std::string &db_name, cairn_db *db, const std::string &bind_name,
                         const std::string &binding, bool *bound, std::string *report);
  // The static type of an expression, checked and not run (nullptr if it has errors, which are
  // not reported): for completion after '.'.
  const front::Type *typeOf(const std::string &expr);

  // Compile-time pieces (session.cpp).
  bool validateClasses(const front::InputUnit &unit, std::string *why, front::Span *at);
  std::string sameNameWhy(const front::Type *was, const front::Type *now);
  // The name of an open database whose type table holds the fingerprint ("" if none).
  std::string databaseHolding(uint64_t fingerprint);
  std::string callSymbol(const front::FuncInfo *f);
  // A type as callSymbol names it: a class with its layout's fingerprint.
  std::string typeKey(const front::Type *t);
  bool compileAndLoad(front::InputUnit &unit, std::vector<std::shared_ptr<Unit>> *units,
                      std::shared_ptr<Unit> *run_unit);
  bool runInput(front::InputUnit &unit, const std::shared_ptr<Unit> &run_unit, int depth,
                bool quiet);
  // `running` names what ran (an input's source name, or the command), for an error whose place
  // is not known: a fault error is raised by whichever load touched the page first.
  void reportRuntimeFailure(const struct RuntimeFailure &f, const std::string &running);
  // "error: MESSAGE", or "WHERE: error: MESSAGE" (an input's name: the error is about it whole).
  void reportError(const std::string &message, const std::string &where = "");
  // True, with the error in *why, when no store is open and none is where one would be opened:
  // a database command then says so instead of making an empty store (:create makes one).
  bool noStore(const std::string &db_name, std::string *why) const;
  // After a failed input: each function variable it defined that holds no function gets one
  // that is a runtime error when called (a function value is never nil).
  void noValueForFailedFunctions(const front::InputUnit &unit);
  void printDiagnostics();
  bool lengthOf(const void *obj, int64_t *len);

  // Transactions (S2).
  // Whether f's code, or code it calls by name, begins transactions / calls a Database builtin
  // (txn_scan.h).
  bool beginsTransactions(const front::FuncInfo *f);
  bool opensStore(const front::FuncInfo *f);
  bool reaches(const front::FuncInfo *f, bool TxnFacts::*fact);
  // The open database of that name (nullptr if it is not open), found without opening it again
  // (which would make it the one opened last); the name of the database opened last ("" if none
  // is open), the default of :root.
  static cairn_db *openDatabase(const std::string &name);
  static std::string lastOpened();
  std::string factsKey(const front::FuncInfo *f);
  void releaseRetiredGlobals(const front::InputUnit &unit);
  bool beginImplicit();
  void endImplicit(bool ok);
  // The runtime's outer-transaction hook (cairn_lang_set_outer_transaction_hook): code the input
  // calls through a function value begins a transaction (S2 could not see it) while the input's
  // own is open: that one commits first, with what the input did so far.
  static int YieldImplicit(void *session);

  SessionOptions options_;
  front::SourceManager sources_;
  front::Diagnostics diags_{sources_};
  front::TypeContext types_;
  std::unique_ptr<front::SessionChecker> checker_;
  std::unique_ptr<Jit> jit_;
  int inputs_ = 0;
  int failures_ = 0;
  int depth_ = 1;              // printing depth (:show changes it for one value)
  bool explicit_txn_ = false;  // :begin
  bool implicit_txn_ = false;  // this input's own transaction is open (S2)
  bool yielded_ = false;       // code this input ran began a transaction, so its own one committed
  std::set<std::string> types_defined_;  // databases whose stored types :open/:root defined
  std::vector<std::shared_ptr<Unit>> permanent_;                  // never removed
  std::map<std::string, std::shared_ptr<Unit>> stub_target_;      // stub -> unit of its body
  std::map<Unit *, int> stubs_into_;                              // unit -> stubs leading in
  std::map<const front::ClassInfo *, uint64_t> fingerprints_;     // of every accepted class
  std::map<std::string, const front::ClassInfo *> latest_class_;  // by heap name, the newest
  std::map<std::string, std::string> array_keys_;  // array types made: typeKey by heap name
  std::map<std::string, TxnFacts> txn_facts_;      // by call symbol, the newest
  // The session's variables by name, the newest; those declared again with another type whose
  // old storage some function still uses (releaseRetiredGlobals clears it once none does).
  std::map<std::string, const front::GlobalInfo *> session_globals_;
  std::vector<const front::GlobalInfo *> retired_globals_;
};

}  // namespace cairn::repl

#endif  // CAIRN_REPL_SESSION_H
