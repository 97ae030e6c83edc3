// Cairn compiler plugin: the pass that emits heap type descriptors.
//
// This is the interface for the front end, which links cairn_descriptor_pass and runs the pass
// in-process; opt and clang load the same pass from the CairnDescriptors plugin instead.
// The convention it implements (markers, references, allocation calls, field-name metadata)
// is described in docs/plugin.md.
#ifndef CAIRN_PLUGIN_DESCRIPTOR_PASS_H
#define CAIRN_PLUGIN_DESCRIPTOR_PASS_H

#include <llvm/IR/PassManager.h>

namespace llvm {
class Module;
class PassBuilder;
}  // namespace llvm

namespace cairn::plugin {

// The pass's name in a pipeline description (opt -passes=cairn-descriptors).
inline constexpr const char *kPassName = "cairn-descriptors";

// For every marker global in the module: computes the type's layout with the module's
// DataLayout, emits one descriptor constant in the format of cairn/type.h (with the method
// table `!cairn.methods` gives it), points the marker's allocation calls at it, replaces its
// cairn_type_ref calls by the descriptor's address and removes the marker; then registers the
// module's descriptors with the runtime from a module constructor. Also registers every
// reference slot in the module's globals as an exact root (constructor) and unregisters them
// (destructor). Whatever it cannot describe is reported as an error through the LLVMContext's
// diagnostic handler, and that type or global is left alone.
class DescriptorPass : public llvm::PassInfoMixin<DescriptorPass> {
 public:
  llvm::PreservedAnalyses run(llvm::Module &module, llvm::ModuleAnalysisManager &analyses);
  // Runs even at -O0 and on optnone functions: without descriptors the program is wrong.
  static bool isRequired() { return true; }
};

// Adds the pass to `builder`: by name for textual pipelines, and at the start of every default
// pipeline (before optimization rewrites struct field addresses into byte offsets).
void registerDescriptorPass(llvm::PassBuilder &builder);

}  // namespace cairn::plugin

#endif  // CAIRN_PLUGIN_DESCRIPTOR_PASS_H
