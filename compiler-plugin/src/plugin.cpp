// Cairn compiler plugin: the entry point opt and clang look up in CairnDescriptors.so.
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Passes/PassPlugin.h>

#include "cairn_plugin/descriptor_pass.h"

extern "C" __attribute__((visibility("default"))) LLVM_ATTRIBUTE_WEAK llvm::PassPluginLibraryInfo
llvmGetPassPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, "CairnDescriptors", "0.1",
          [](llvm::PassBuilder &builder) { cairn::plugin::registerDescriptorPass(builder); }};
}
