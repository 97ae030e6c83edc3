// Lowering: the semantic tree of a checked program to an LLVM module, in the conventions of
// docs/plugin.md (references are `ptr addrspace(1)`, heap types named by marker globals, field
// names and method tables in metadata), with DWARF line tables. The descriptor pass and the
// optimizer run afterwards (emit.h).
#ifndef CAIRN_FRONTEND_LOWER_LOWER_H
#define CAIRN_FRONTEND_LOWER_LOWER_H

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "check/sem.h"
#include "source/source.h"

namespace llvm {
class LLVMContext;
class Module;
}  // namespace llvm

namespace cairn::front {

struct LowerOptions {
  bool debug_info = true;     // DWARF line tables
  bool optimized = true;      // -O2: recorded in the debug info; the form of checks (L2)
  std::string target_triple;  // "" = the host
  // Twins (E1 of emit.h): `twins` lowerings of one program, each in a thread and LLVMContext
  // of its own, each defining the bodies of its share of the functions (twinParts) and
  // declaring the others. Every twin first makes what they share, in the same order: heap
  // type markers, method tables, function declarations (hidden external: another twin may
  // define them), module variables, the slots of every text literal (sem::Program::
  // text_literals). What a twin makes after that for its own bodies (texts of locations,
  // the check table, thunks; twin 0: main and the module initializer) is its own: tagged
  // with metadata kCairnOwn, kept local, its constants unnamed (so that what the descriptor
  // pass makes afterwards is named alike in every twin); the shared functions it defines are
  // tagged kCairnBodyHere. A lowering that would make
  // something shared late (which never happens for a checked program) tags the module
  // kCairnTwinUnfit, and its twins must not be linked together.
  unsigned twins = 1;
  unsigned twin = 0;
  // Polls (the REPL's code): the head of every loop and the entry of every function read
  // cairn_interrupt_pending and, when it is set, call cairn_rt_interrupted there (cairn/lang.h),
  // so Ctrl-C ends a loop or a recursion that never ends. A program's code has none.
  bool interruptible = false;
};

inline constexpr const char *kCairnOwn = "cairn.own";
inline constexpr const char *kCairnBodyHere = "cairn.body.here";  // a shared function defined here
inline constexpr const char *kCairnTwinUnfit = "cairn.twin.unfit";

// Which twin defines each function of program.functions (by index; functions without a body
// get 0): the largest bodies first (by their length in the source), each to the twin with the
// least so far; twin 0 starts with the weight of main and the module initializer.
std::vector<unsigned> twinParts(const sem::Program &program, unsigned twins);

// Whether f's code takes a hidden last parameter, the position of the program's call that led
// into the standard library (a `const cairn_loc *`, possibly null): every named function of a
// std module and every method of a slot that a std class introduced (overrides included). A
// runtime error in std code is reported there when it is not null, so a user sees the line of
// their own call; std code passes it on to the std code it calls. A program's override ignores
// it: its own errors are reported at its own lines. Function values never take
// it (a std function used as a value is called through a thunk that passes null), and neither
// do extern functions. Whoever calls compiled code directly (the REPL) must pass it.
bool takesCallerLoc(const FuncInfo *f);

std::unique_ptr<llvm::Module> lowerProgram(const sem::Program &program,
                                           const SourceManager &sources, llvm::LLVMContext &ctx,
                                           const LowerOptions &options);

// One module of the REPL (repl/): a part of a program whose other parts are in other modules of
// the same JIT, linked by symbol. Unlike lowerProgram, it has no `main` and no module
// initializer: what it defines has external linkage, what it uses from elsewhere is declared.
struct UnitSpec {
  std::string name;                              // the module's name
  std::vector<const sem::Function *> functions;  // bodies defined here (symbol: info->symbol)
  std::vector<ClassInfo *> classes;              // heap types marked here, with method tables
  std::vector<const Type *> array_types;         // array types marked here
  std::vector<const GlobalInfo *> globals;       // defined here, zero; the others are declared
  // The symbol that code calls a function by, and that method tables hold: a stub's for a
  // function that can be redefined, else the function's own symbol. Empty: its own.
  std::function<std::string(const FuncInfo *)> call_symbol;
  // True for an `extern fn` whose C function the process does not have: a call to it is the
  // runtime error "no function 'NAME' in this process ..." at the call (missingExternMessage),
  // so that code calling it can still be defined. Empty: every extern is there.
  std::function<bool(const FuncInfo *)> extern_missing;
  // An external function `void()` made here that creates the module's text literals (L4);
  // the REPL calls it after the module's constructors.
  std::string init_symbol;
};

// The runtime error of a call to an extern fn the process lacks (UnitSpec::extern_missing).
std::string missingExternMessage(const std::string &symbol);

std::unique_ptr<llvm::Module> lowerUnit(const UnitSpec &unit, const SourceManager &sources,
                                        llvm::LLVMContext &ctx, const LowerOptions &options);

}  // namespace cairn::front

#endif  // CAIRN_FRONTEND_LOWER_LOWER_H
