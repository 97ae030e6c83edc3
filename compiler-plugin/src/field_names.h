// Cairn compiler plugin: where field names come from.
//
// For each IR struct type, the names of its elements are taken from, in order of preference:
//   1. the module's `!cairn.fields` named metadata, which a front end attaches:
//          !cairn.fields = !{!0}
//          !0 = !{%Node poison, !"value", !"next"}
//      one node per struct type: a constant of the type (poison is the idiom) followed by one
//      string per element, in order (the same node listed twice, as after linking two modules
//      that both list it, counts once);
//   2. debug info (clang -g): the DW_TAG_member (or DW_TAG_inheritance) of the struct's
//      DICompositeType at the element's byte offset; bit-fields and union members are not
//      matched (a union's IR type holds only its storage);
//   3. otherwise "f<N>", N the element's index.
// Names matter: they are part of the fingerprint. Compile with metadata or -g consistently.
//
// A front end may also say what each element's declared type is, in its own language's words,
// in `!cairn.field_types`, one node per struct type as in `!cairn.fields`:
//          !cairn.field_types = !{!1}
//          !1 = !{%Node poison, !"int", !"Node"}
// (an empty string for an element it has no word for). It becomes cairn_field.type: neither in
// the fingerprint nor in the layout, it lets tools browse a database without the source.
#ifndef CAIRN_PLUGIN_FIELD_NAMES_H
#define CAIRN_PLUGIN_FIELD_NAMES_H

#include <map>
#include <string>
#include <vector>

namespace llvm {
class DataLayout;
class DIType;
class GlobalVariable;
class MDNode;
class Module;
class StructType;
}  // namespace llvm

namespace cairn::plugin {

class Diagnostics;

// What is known about one element of an IR struct beyond its IR type.
struct ElementInfo {
  std::string name;
  const llvm::DIType *debugType = nullptr;  // the element's debug type, qualifiers stripped
  bool inherited = false;    // debug info says the element is a base class (DW_TAG_inheritance)
  std::string declaredType;  // from !cairn.field_types ("" : none)
};

class FieldNames {
 public:
  // Reads `!cairn.fields`, reporting malformed entries.
  FieldNames(const llvm::Module &module, Diagnostics &diagnostics);

  // One entry per element of `type`; `debugType` (may be null) is the type's debug info.
  std::vector<ElementInfo> elements(llvm::StructType *type, const llvm::DIType *debugType,
                                    const llvm::DataLayout &layout) const;

 private:
  std::map<const llvm::StructType *, std::vector<std::string>> fromMetadata_;
  std::map<const llvm::StructType *, std::vector<std::string>> typesFromMetadata_;
  std::map<const llvm::StructType *, const llvm::MDNode *> entryOf_;  // the node that named it
};

// The debug type of a global (clang -g), qualifiers and typedefs stripped, or null.
const llvm::DIType *debugTypeOf(const llvm::GlobalVariable &global);

// `type` without typedefs, const, volatile, restrict and atomic; null stays null.
const llvm::DIType *stripQualifiers(const llvm::DIType *type);

// The element type of a (possibly nested) debug-info array type, qualifiers stripped; any
// other type is returned as it is.
const llvm::DIType *stripArrays(const llvm::DIType *type);

}  // namespace cairn::plugin

#endif  // CAIRN_PLUGIN_FIELD_NAMES_H
