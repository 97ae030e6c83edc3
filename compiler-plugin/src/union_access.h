// Cairn compiler plugin: references stored in unions inside heap objects.
//
// clang lowers a C union to a struct of one member (the most aligned, then largest) plus
// padding, so a union whose reference member is not that one shows no reference in its IR
// type, and its descriptor would silently miss it. The pass therefore also looks at the code:
// before optimization every field access is a GEP of the field's struct type, so a load or
// store of a `ptr addrspace(1)` whose address is computed through a union-typed GEP based on a
// heap reference is a reference kept in a union on the heap. Each such access is reported.
// What is not found: a reference member of a union that no code in the module touches, and a
// union object allocated on its own (no GEP leads into it); see docs/plugin.md.
#ifndef CAIRN_PLUGIN_UNION_ACCESS_H
#define CAIRN_PLUGIN_UNION_ACCESS_H

namespace llvm {
class Module;
}  // namespace llvm

namespace cairn::plugin {

class Diagnostics;

// Reports every load or store of a reference through a union inside a heap object.
void checkUnionAccesses(const llvm::Module &module, Diagnostics &diagnostics);

}  // namespace cairn::plugin

#endif  // CAIRN_PLUGIN_UNION_ACCESS_H
