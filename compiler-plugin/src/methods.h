// Cairn compiler plugin: method tables from `!cairn.methods` metadata.
//
// The front end lists each heap type's methods, in slot order, in named metadata:
//     !cairn.methods = !{!0}
//     !0 = !{%Node poison, ptr @Node.describe, ptr @Node.sum}
// Operand 0 is a constant of the type's struct (it stands for the type, as in !cairn.fields);
// then one function per slot, inherited slots included (slot i of a base type is slot i of
// every type that extends it). The functions may be declarations (methods defined in another
// module). The pass emits them as a private [n x ptr] constant and points the descriptor's
// `methods` at it (`nmethods` = n); a type without an entry keeps methods NULL, nmethods 0.
// Method tables are not part of the fingerprint.
//
// What holds for a table this class returns (malformed entries are reported and dropped):
//   M1. its type is the struct of a plain heap type's marker (cairn_heap_type_<Name>);
//   M2. every slot is a function (not an intrinsic), in the entry's order;
//   M3. one table per type: two entries for one type are an error unless they are the same
//       node (as after linking two modules that both list it).
// The pass removes `!cairn.methods` once it has read it, so running it again reports nothing.
#ifndef CAIRN_PLUGIN_METHODS_H
#define CAIRN_PLUGIN_METHODS_H

#include <map>
#include <vector>

namespace llvm {
class Function;
class MDNode;
class Module;
class StructType;
}  // namespace llvm

namespace cairn::plugin {

class Diagnostics;
struct Marker;

class MethodTables {
 public:
  // Reads `!cairn.methods`, reporting malformed entries; `markers` are the module's markers.
  MethodTables(const llvm::Module &module, const std::vector<Marker> &markers,
               Diagnostics &diagnostics);

  // The methods of the plain heap type whose struct is `type`, in slot order, or null if the
  // type has no entry.
  const std::vector<llvm::Function *> *find(const llvm::StructType *type) const;

 private:
  struct Table {
    const llvm::MDNode *node = nullptr;
    std::vector<llvm::Function *> functions;
  };
  std::map<const llvm::StructType *, Table> tables_;
};

// Removes `!cairn.methods` from the module; true if it was there.
bool dropMethodsMetadata(llvm::Module &module);

}  // namespace cairn::plugin

#endif  // CAIRN_PLUGIN_METHODS_H
