// Cairn compiler plugin: the marker globals that name heap types, and their uses.
//
// A marker is a global whose name says which kind of heap type it names:
//   cairn_heap_type_<Name>   value type: the struct of a plain heap type
//   cairn_heap_array_<Name>  value type: the element of an array type (scalar, ref or struct)
//   cairn_heap_text_<Name>   value type: i8; an array type holding text
// A local (static) marker may carry a ".<digits>" suffix that the linker or clang added, and
// clang++ mangles a static as _ZL<length><identifier>; neither is part of the name. The only uses a
// marker may have are the first argument of the runtime's allocation call for its kind
// (cairn_malloc_typed for types, cairn_malloc_array for arrays and text) and llvm.used /
// llvm.compiler.used; anything else is reported.
#ifndef CAIRN_PLUGIN_MARKERS_H
#define CAIRN_PLUGIN_MARKERS_H

#include <string>
#include <vector>

namespace llvm {
class GlobalVariable;
class Module;
}  // namespace llvm

namespace cairn::plugin {

class Diagnostics;

enum class MarkerKind { Type, Array, Text };

struct Marker {
  llvm::GlobalVariable *global = nullptr;
  MarkerKind kind = MarkerKind::Type;
  std::string name;  // the heap type's name
};

// The module's markers, in module order.
std::vector<Marker> findMarkers(llvm::Module &module);

// Reports every use of the marker that is not one of the allowed forms; true if none.
bool checkMarkerUses(const Marker &marker, Diagnostics &diagnostics);

// Points the marker's allocation calls at `descriptor` and deletes the marker.
void replaceMarker(const Marker &marker, llvm::GlobalVariable *descriptor);

}  // namespace cairn::plugin

#endif  // CAIRN_PLUGIN_MARKERS_H
