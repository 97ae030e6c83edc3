// Cairn compiler plugin: the layout of a heap type, computed from the IR.
//
// A TypeLayout is the pass's in-memory form of one descriptor of cairn/type.h (with owned
// strings and vectors instead of static arrays). The LayoutBuilder computes it with the
// module's DataLayout, so the offsets are the code generator's own. What holds for a layout
// the builder returns (the builder reports an error and returns null otherwise):
//   L1. refs are strictly increasing multiples of 8 and each ref + 8 <= size (type.h T2),
//       found through nested structs and fixed arrays of structs.
//   L2. fields are the IR struct's elements in order, one per element, named as described in
//       field_names.h; a nested struct field points at the nested type's own layout.
//   L3. a marked plain or array type has align <= 8; an array type's size is its element size.
//   L4. fingerprint == cairn_type_fingerprint_compute of the descriptor this layout emits.
//   L5. no reference lies inside a union's IR type.
#ifndef CAIRN_PLUGIN_LAYOUT_H
#define CAIRN_PLUGIN_LAYOUT_H

#include <cstdint>
#include <deque>
#include <map>
#include <string>
#include <vector>

#include "cairn/type.h"

namespace llvm {
class DataLayout;
class DIType;
class Module;
class StructType;
class Type;
}  // namespace llvm

namespace cairn::plugin {

class Diagnostics;
class FieldNames;
struct Marker;
struct TypeLayout;

struct FieldLayout {
  std::string name;
  uint32_t offset = 0;  // from the start of the containing struct (or array element)
  cairn_kind kind = CAIRN_KIND_NONE;
  uint32_t count = 1;                  // N for a fixed array T[N] (nested arrays are flattened)
  uint32_t size = 0;                   // bytes of one element
  const TypeLayout *nested = nullptr;  // kind == CAIRN_KIND_STRUCT
  std::string declaredType;            // cairn_field.type ("" : none, emitted as NULL)
};

struct TypeLayout {
  std::string name;
  uint32_t flags = 0;  // CAIRN_TYPE_*
  uint64_t size = 0;
  uint32_t align = 1;
  cairn_kind elemKind = CAIRN_KIND_NONE;
  std::vector<uint32_t> refs;
  std::vector<FieldLayout> fields;
  const TypeLayout *super = nullptr;
  uint64_t fingerprint = 0;
  const Marker *marker = nullptr;                // null for a nested layout (CAIRN_TYPE_LAYOUT)
  const llvm::StructType *structType = nullptr;  // the IR struct (plain and nested layouts)
};

class LayoutBuilder {
 public:
  LayoutBuilder(const llvm::Module &module, const FieldNames &names,
                const std::vector<Marker> &markers, Diagnostics &diagnostics);

  // The layout of a marked type, or null after reporting why it cannot be described.
  const TypeLayout *forMarker(const Marker &marker);

 private:
  const TypeLayout *structLayout(llvm::StructType *type, const llvm::DIType *debugType);
  TypeLayout *buildStruct(llvm::StructType *type, std::string name, const Marker *marker,
                          const llvm::DIType *debugType);
  TypeLayout *buildArray(const Marker &marker, const llvm::DIType *debugType);
  bool addField(TypeLayout &owner, llvm::Type *type, uint64_t offset, std::string name,
                const llvm::DIType *debugType, std::string declaredType = "");
  bool checkRefs(const TypeLayout &layout);
  bool checkAlign(const TypeLayout &layout);
  TypeLayout &finish(TypeLayout &layout);
  std::string describe(const llvm::Type *type) const;

  const llvm::DataLayout &dataLayout_;
  const FieldNames &names_;
  Diagnostics &diagnostics_;
  std::map<const llvm::StructType *, const Marker *> primaryMarker_;  // first marker per type
  std::map<const llvm::StructType *, const TypeLayout *> structs_;    // null: failed
  std::deque<TypeLayout> storage_;                                    // stable addresses
};

// The IR struct's name as a Cairn type name: "struct.Node.3" -> "Node", literal -> "anon".
std::string typeNameOf(const llvm::StructType *type);

// True for the IR type clang makes for a C union ("union.*").
bool isUnionType(const llvm::StructType *type);

}  // namespace cairn::plugin

#endif  // CAIRN_PLUGIN_LAYOUT_H
