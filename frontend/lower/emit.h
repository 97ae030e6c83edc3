// From an LLVM module to an object file: the host target, the descriptor pass at the start of
// the pipeline (docs/plugin.md), the default -O2 (or -O0) pipeline, and code generation.
#ifndef CAIRN_FRONTEND_LOWER_EMIT_H
#define CAIRN_FRONTEND_LOWER_EMIT_H

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace llvm {
class Module;
class TargetMachine;
}  // namespace llvm

namespace cairn::front {

struct EmitOptions {
  int opt_level = 2;    // 0 or 2
  bool verify = true;   // llvm::verifyModule before optimizing (-O0 builds: only --verify-ir)
  std::string ir_path;  // if set, also write the optimized IR there (--emit-llvm)
  // emitObjects: code generation in up to this many threads. A module of more than
  // split_instructions instructions is split by functions into that many parts (but no more
  // than it has functions, and none of fewer than split_instructions / 2), as balanced as
  // whole functions allow; part 0 is generated from the module itself, each other part from a
  // bitcode copy in its own LLVMContext and thread. A smaller module is one object. 0: the
  // machine's cores, at most 8.
  unsigned threads = 1;
  // The size (IR instructions, after optimizing) above which emitObjects splits a module. Below
  // it the split's serial part (writing the bitcode, about 1 ms per 1,000 instructions) costs
  // more than the second thread saves; at -O2 a 45,000-instruction module is a fifth faster in
  // two threads, at -O0 about as fast (docs/benchmarks.md).
  size_t split_instructions = 8000;
  // If set, emitObjects appends the wall-clock seconds of its phases ("verify", "passes",
  // "codegen") to it (`cairn build --time`).
  std::vector<std::pair<std::string, double>> *times = nullptr;
  // Twin modules (E1): the module is one of `twins` lowerings of one program, each in a thread
  // and LLVMContext of its own, this one twin `twin` (lower.h, LowerOptions::twins: it defines
  // its share of the functions and declares the rest). emitObjects writes its object, at
  // `object_path` for twin 0 and `object_path` with ".N.o" for twin N; what the twins share
  // (variables, heap type descriptors, what the descriptor pass makes) is defined by twin 0
  // alone. It sets *shape (if given) to a digest of what they share: twins whose digests
  // differ were not lowered alike, and their objects must not be linked together. No bitcode
  // copy is made.
  unsigned twins = 1;
  unsigned twin = 0;
  uint64_t *shape = nullptr;
};

// Sets the module's target and data layout, runs the pass and the pipeline, and writes an
// object file. Its constructors and destructors (llvm.global_ctors, llvm.global_dtors) are in
// .init_array / .fini_array sections (.init_array.N for priority N), never in the legacy .ctors
// ones that only GNU ld runs, so any linker runs them (tests/frontend/emit_test.cpp). Returns false
// with *error set on failure (a pass diagnostic, a verifier error, an unwritable file).
bool emitObject(llvm::Module &module, const EmitOptions &options, const std::string &object_path,
                std::string *error);

// As emitObject, but a large module (see EmitOptions::threads) becomes several objects made in
// parallel: `object_path` and then `object_path` with ".1.o", ".2.o"... in place of ".o" (or
// appended). The objects written are in *objects, in that order; linked together they are the
// program emitObject would make (the parts' internal symbols become hidden globals so that they
// can reach one another). On failure every object written is removed. With options.twins > 1
// (E1), only this twin's part is written, and *objects holds it alone.
bool emitObjects(llvm::Module &module, const EmitOptions &options, const std::string &object_path,
                 std::vector<std::string> *objects, std::string *error);

// Verifies the module (if options.verify), then runs the descriptor pass and the -O2 (or -O0)
// pipeline on it, for `tm`'s target; the module's triple and data layout must be set. What
// emitObject does before code generation; the REPL does it before handing a module to the JIT.
// Returns false with *error set on a verifier error or a pass diagnostic.
bool optimizeModule(llvm::Module &module, llvm::TargetMachine *tm, const EmitOptions &options,
                    std::string *error);

}  // namespace cairn::front

#endif  // CAIRN_FRONTEND_LOWER_EMIT_H
