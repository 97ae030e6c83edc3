// Cairn compiler plugin: the marker globals that name heap types, and their uses.
//
// A marker is a global whose name says which kind of heap type it names:
//   cairn_heap_type_<Name>   value type: the struct of a plain heap type
//   cairn_heap_array_<Name>  value type: the element of an array type (scalar, ref or struct)
//   cairn_heap_text_<Name>   value type: i8; an array type holding text
// A local (static) marker may carry a ".<digits>" suffix that the linker or clang added, and
// clang++ mangles a static as _ZL<length><identifier>; neither is part of the name. The only uses a
// marker may have are:
//   - the first argument of the runtime's allocation call for its kind (cairn_malloc_typed for
//     types, cairn_malloc_array for arrays and text), which then gets the descriptor;
//   - the only argument of a direct call `ptr @cairn_type_ref(ptr marker)` (a call or an
//     invoke), which the pass replaces by the descriptor's address (CAIRN_TYPE(Name) in C):
//     how code names a descriptor as a value;
//   - llvm.used / llvm.compiler.used (dropped).
// Anything else is reported, and so is a call of cairn_type_ref whose argument is no marker.
#ifndef CAIRN_PLUGIN_MARKERS_H
#define CAIRN_PLUGIN_MARKERS_H

#include <string>
#include <vector>

namespace llvm {
class CallBase;
class GlobalVariable;
class Module;
}  // namespace llvm

namespace cairn::plugin {

class Diagnostics;

enum class MarkerKind { Type, Array, Text };

// The function whose calls name a descriptor: `declare ptr @cairn_type_ref(ptr)`. No such
// function exists at run time: the pass replaces every call.
inline constexpr const char *kTypeRefFunction = "cairn_type_ref";

struct Marker {
  llvm::GlobalVariable *global = nullptr;
  MarkerKind kind = MarkerKind::Type;
  std::string name;  // the heap type's name
};

// The module's markers, in module order.
std::vector<Marker> findMarkers(llvm::Module &module);

// Reports every use of the marker that is not one of the allowed forms; true if none.
bool checkMarkerUses(const Marker &marker, Diagnostics &diagnostics);

// Reports every use of cairn_type_ref that is not a direct call with a marker as its argument
// (those the pass could not replace, which would fail to link).
void checkTypeRefCalls(llvm::Module &module, const std::vector<Marker> &markers,
                       Diagnostics &diagnostics);

// Where a marked type's canonical descriptor is found at run time: element `index` of the
// module's slot array @"cairn.canon" (emit.h), which the registration constructor fills.
struct CanonicalSlot {
  llvm::GlobalVariable *slots;
  unsigned index;
};

// Points the marker's allocation calls (and any other use of its address) at `descriptor`, the
// module's own, replaces its cairn_type_ref calls (replaceTypeRef) and deletes the marker.
void replaceMarker(const Marker &marker, llvm::GlobalVariable *descriptor, CanonicalSlot slot);

// Replaces one `call ptr @cairn_type_ref(ptr marker)` by a load of the type's canonical slot,
// placed where the call was, and erases the call. This is the one place that decides how code
// refers to a descriptor it compares headers with (docs/plugin.md, "Canonical descriptors").
void replaceTypeRef(llvm::CallBase &call, CanonicalSlot slot);

// Erases the declaration of cairn_type_ref once nothing calls it.
void dropTypeRefDeclaration(llvm::Module &module);

}  // namespace cairn::plugin

#endif  // CAIRN_PLUGIN_MARKERS_H
