// Lowering: the semantic tree of a checked program to an LLVM module, in the conventions of
// docs/plugin.md (references are `ptr addrspace(1)`, heap types named by marker globals, field
// names and method tables in metadata), with DWARF line tables. The descriptor pass and the
// optimizer run afterwards (emit.h).
#ifndef CAIRN_FRONTEND_LOWER_LOWER_H
#define CAIRN_FRONTEND_LOWER_LOWER_H

#include <memory>
#include <string>

#include "check/sem.h"
#include "source/source.h"

namespace llvm {
class LLVMContext;
class Module;
}  // namespace llvm

namespace cairn::front {

struct LowerOptions {
  bool debug_info = true;    // DWARF line tables
  bool optimized = true;     // recorded in the debug info
  std::string target_triple; // "" = the host
};

std::unique_ptr<llvm::Module> lowerProgram(const sem::Program &program,
                                           const SourceManager &sources, llvm::LLVMContext &ctx,
                                           const LowerOptions &options);

}  // namespace cairn::front

#endif  // CAIRN_FRONTEND_LOWER_LOWER_H
