// Cairn compiler plugin: module globals that hold references, registered as exact roots.
//
// The collector does not scan data segments, so a reference kept in a global is seen only if
// the global is a registered root. The pass finds every global defined in the module whose
// value type is `ptr addrspace(1)`, or a struct, array or vector holding any (through nested
// structs and arrays), and lists the address of each reference slot in it in a private
// constant @"cairn.global_roots" = [n x ptr]. The module constructor @"cairn.register_roots"
// (priority 101, after @"cairn.register_types" in llvm.global_ctors, before ordinary
// constructors) passes that table to cairn_add_exact_roots(slots, n); the destructor
// @"cairn.unregister_roots" (llvm.global_dtors, priority 101: after ordinary destructors)
// passes it to cairn_remove_exact_roots, so a module that is unloaded (a removed JIT module, a
// dlclose'd library) leaves no root behind. Each slot is an exact root: the collector updates
// it when its object moves, and pins nothing.
//
// Not roots: declarations and available_externally definitions (the defining module registers
// them), constants (a constant reference is null or no heap address), markers, globals named
// llvm.* or in section llvm.metadata, and globals already tagged !cairn.root (the tag the pass
// puts on each global it registers, so that running it again registers nothing twice).
//
// What holds for the slots this file registers (anything else is reported and not
// registered):
//   R1. each slot is an 8-byte-aligned word: its offset in its global is a multiple of 8 and
//       the global is aligned to at least 8 (the pass raises a smaller alignment);
//   R2. no global is thread-local (one mutator thread: a thread-local reference is an error);
//   R3. at most kMaxRootSlots slots in one global.
#ifndef CAIRN_PLUGIN_GLOBAL_ROOTS_H
#define CAIRN_PLUGIN_GLOBAL_ROOTS_H

#include <cstdint>
#include <vector>

namespace llvm {
class GlobalVariable;
class Module;
}  // namespace llvm

namespace cairn::plugin {

class Diagnostics;
struct Marker;

// More reference slots than this in one global is surely a mistake: use a heap array.
inline constexpr uint64_t kMaxRootSlots = uint64_t{1} << 20;

// One global's reference slots: byte offsets from the global's address, ascending.
struct GlobalRoot {
  llvm::GlobalVariable *global = nullptr;
  std::vector<uint64_t> offsets;
};

// The module's globals that hold references and are not yet registered (see above), in module
// order; reports globals that cannot be roots. Call it before markers are replaced.
std::vector<GlobalRoot> findGlobalRoots(llvm::Module &module, const std::vector<Marker> &markers,
                                        Diagnostics &diagnostics);

// Emits the slot table, the constructor that registers it and the destructor that unregisters
// it, and tags each global !cairn.root. Nothing when `roots` is empty.
void emitGlobalRoots(llvm::Module &module, const std::vector<GlobalRoot> &roots);

}  // namespace cairn::plugin

#endif  // CAIRN_PLUGIN_GLOBAL_ROOTS_H
