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
};

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
  // An external function `void()` made here that creates the module's text literals (L4);
  // the REPL calls it after the module's constructors.
  std::string init_symbol;
};

std::unique_ptr<llvm::Module> lowerUnit(const UnitSpec &unit, const SourceManager &sources,
                                        llvm::LLVMContext &ctx, const LowerOptions &options);

}  // namespace cairn::front

#endif  // CAIRN_FRONTEND_LOWER_LOWER_H
