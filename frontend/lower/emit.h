// From an LLVM module to an object file: the host target, the descriptor pass at the start of
// the pipeline (docs/plugin.md), the default -O2 (or -O0) pipeline, and code generation.
#ifndef CAIRN_FRONTEND_LOWER_EMIT_H
#define CAIRN_FRONTEND_LOWER_EMIT_H

#include <string>

namespace llvm {
class Module;
class TargetMachine;
}  // namespace llvm

namespace cairn::front {

struct EmitOptions {
  int opt_level = 2;    // 0 or 2
  bool verify = true;   // llvm::verifyModule before optimizing
  std::string ir_path;  // if set, also write the optimized IR there (--emit-llvm)
};

// Sets the module's target and data layout, runs the pass and the pipeline, and writes an
// object file. Its constructors and destructors (llvm.global_ctors, llvm.global_dtors) are in
// .init_array / .fini_array sections (.init_array.N for priority N), never in the legacy .ctors
// ones that only GNU ld runs, so any linker runs them (tests/frontend/emit_test.cpp). Returns false
// with *error set on failure (a pass diagnostic, a verifier error, an unwritable file).
bool emitObject(llvm::Module &module, const EmitOptions &options, const std::string &object_path,
                std::string *error);

// Verifies the module (if options.verify), then runs the descriptor pass and the -O2 (or -O0)
// pipeline on it, for `tm`'s target; the module's triple and data layout must be set. What
// emitObject does before code generation; the REPL does it before handing a module to the JIT.
// Returns false with *error set on a verifier error or a pass diagnostic.
bool optimizeModule(llvm::Module &module, llvm::TargetMachine *tm, const EmitOptions &options,
                    std::string *error);

}  // namespace cairn::front

#endif  // CAIRN_FRONTEND_LOWER_EMIT_H
