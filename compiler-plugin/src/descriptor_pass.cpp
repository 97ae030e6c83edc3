// Cairn compiler plugin: the pass, from markers to registered descriptors, and global roots.
#include "cairn_plugin/descriptor_pass.h"

#include <llvm/IR/Module.h>
#include <llvm/Passes/PassBuilder.h>

#include <map>
#include <utility>

#include "diagnostics.h"
#include "emit.h"
#include "field_names.h"
#include "global_roots.h"
#include "layout.h"
#include "markers.h"
#include "methods.h"
#include "union_access.h"

namespace cairn::plugin {
namespace {

// type.h T5: one fingerprint, one layout. Two markers of one name in one module (modules
// linked together) must agree.
bool sameLayout(const TypeLayout &a, const TypeLayout &b) {
  return a.size == b.size && a.elemKind == b.elemKind && a.refs == b.refs;
}

// Describes the module's marked types, points their uses at the descriptors and registers
// them; true if the module changed.
bool describeTypes(llvm::Module &module, const std::vector<Marker> &markers,
                   const MethodTables &methods, Diagnostics &diagnostics) {
  const FieldNames names(module, diagnostics);
  LayoutBuilder builder(module, names, markers, diagnostics);

  std::vector<std::pair<const Marker *, const TypeLayout *>> described;
  std::map<uint64_t, const TypeLayout *> byFingerprint;
  for (const Marker &marker : markers) {
    const TypeLayout *layout = builder.forMarker(marker);
    const bool usesOk = checkMarkerUses(marker, diagnostics);
    if (layout == nullptr || !usesOk) continue;
    auto [it, fresh] = byFingerprint.emplace(layout->fingerprint, layout);
    if (!fresh && !sameLayout(*it->second, *layout)) {
      diagnostics.error("two heap types named '" + layout->name +
                        "' in this module have the "
                        "same fields but different layouts (marker @" +
                        marker.global->getName() + "); rename one of them");
      continue;
    }
    described.emplace_back(&marker, layout);
  }
  if (described.empty()) return false;

  DescriptorEmitter emitter(module, methods);
  std::vector<llvm::GlobalVariable *> registered;
  for (const auto &[marker, layout] : described) registered.push_back(emitter.descriptor(*layout));
  llvm::GlobalVariable *slots = emitter.canonicalSlots(registered);
  for (size_t i = 0; i < described.size(); i++)
    replaceMarker(*described[i].first, registered[i], {slots, static_cast<unsigned>(i)});
  emitter.emitRegistration(registered, slots);
  dropTypeRefDeclaration(module);
  return true;
}

}  // namespace

llvm::PreservedAnalyses DescriptorPass::run(llvm::Module &module, llvm::ModuleAnalysisManager &) {
  Diagnostics diagnostics(module.getContext());
  checkUnionAccesses(module, diagnostics);

  const std::vector<Marker> markers = findMarkers(module);
  checkTypeRefCalls(module, markers, diagnostics);
  const MethodTables methods(module, markers, diagnostics);
  // Roots are found before markers are replaced (a marker is no root) and emitted after.
  const std::vector<GlobalRoot> roots = findGlobalRoots(module, markers, diagnostics);
  bool changed = !markers.empty() && describeTypes(module, markers, methods, diagnostics);
  changed |= dropMethodsMetadata(module);
  emitGlobalRoots(module, roots);
  changed |= !roots.empty();
  return changed ? llvm::PreservedAnalyses::none() : llvm::PreservedAnalyses::all();
}

void registerDescriptorPass(llvm::PassBuilder &builder) {
  builder.registerPipelineParsingCallback([](llvm::StringRef name, llvm::ModulePassManager &passes,
                                             llvm::ArrayRef<llvm::PassBuilder::PipelineElement>) {
    if (name != kPassName) return false;
    passes.addPass(DescriptorPass());
    return true;
  });
  builder.registerPipelineStartEPCallback(
      [](llvm::ModulePassManager &passes, llvm::OptimizationLevel) {
        passes.addPass(DescriptorPass());
      });
}

}  // namespace cairn::plugin
