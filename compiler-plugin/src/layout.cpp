// Cairn compiler plugin: computing layouts from IR struct types and the DataLayout.
#include "layout.h"

#include <llvm/IR/DataLayout.h>
#include <llvm/IR/DebugInfoMetadata.h>
#include <llvm/IR/DerivedTypes.h>
#include <llvm/IR/GlobalVariable.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/raw_ostream.h>

#include <cctype>
#include <limits>

#include "diagnostics.h"
#include "field_names.h"
#include "fingerprint.h"
#include "markers.h"

namespace cairn::plugin {
namespace {

// Heap objects are 8-byte aligned and references are 8-byte words (type.h T2).
constexpr uint64_t kHeapAlign = 8;
constexpr uint64_t kRefSize = 8;
// More reference slots than this in one type is surely a mistake (a huge fixed array).
constexpr uint64_t kMaxRefs = uint64_t{1} << 20;
constexpr const char *kSupported =
    "i1, i8, i16, i32, i64, float, double, ptr, ptr addrspace(1), structs and fixed arrays of "
    "these";

cairn_kind scalarKind(const llvm::Type *type) {
  if (const auto *integer = llvm::dyn_cast<llvm::IntegerType>(type)) {
    switch (integer->getBitWidth()) {
      case 1:
        return CAIRN_KIND_BOOL;
      case 8:
        return CAIRN_KIND_I8;
      case 16:
        return CAIRN_KIND_I16;
      case 32:
        return CAIRN_KIND_I32;
      case 64:
        return CAIRN_KIND_I64;
      default:
        return CAIRN_KIND_NONE;
    }
  }
  if (type->isFloatTy()) return CAIRN_KIND_F32;
  if (type->isDoubleTy()) return CAIRN_KIND_F64;
  if (const auto *pointer = llvm::dyn_cast<llvm::PointerType>(type))
    return pointer->getAddressSpace() == 1 ? CAIRN_KIND_REF : CAIRN_KIND_RAW;
  return CAIRN_KIND_NONE;
}

bool hasFixedSize(llvm::Type *type) { return type->isSized() && !type->isScalableTy(); }

bool allDigits(llvm::StringRef text) {
  if (text.empty()) return false;
  for (char c : text)
    if (!std::isdigit(static_cast<unsigned char>(c))) return false;
  return true;
}

}  // namespace

std::string typeNameOf(const llvm::StructType *type) {
  if (!type->hasName()) return "anon";
  llvm::StringRef name = type->getName();
  for (llvm::StringRef prefix : {"struct.", "class.", "union."})
    if (name.consume_front(prefix)) break;
  for (;;) {  // "Node.12", "B.base", "B.base.3": suffixes clang and the IR linker add
    const size_t dot = name.rfind('.');
    if (dot == llvm::StringRef::npos) break;
    const llvm::StringRef tail = name.drop_front(dot + 1);
    if (!allDigits(tail) && tail != "base") break;
    name = name.take_front(dot);
  }
  return name.empty() ? "anon" : name.str();
}

bool isUnionType(const llvm::StructType *type) {
  return type->hasName() && type->getName().starts_with("union.");
}

LayoutBuilder::LayoutBuilder(const llvm::Module &module, const FieldNames &names,
                             const std::vector<Marker> &markers, Diagnostics &diagnostics)
    : dataLayout_(module.getDataLayout()), names_(names), diagnostics_(diagnostics) {
  for (const Marker &marker : markers)
    if (marker.kind == MarkerKind::Type)
      if (const auto *type = llvm::dyn_cast<llvm::StructType>(marker.global->getValueType()))
        primaryMarker_.emplace(type, &marker);
}

std::string LayoutBuilder::describe(const llvm::Type *type) const {
  std::string text;
  llvm::raw_string_ostream out(text);
  type->print(out);
  return text;
}

const TypeLayout *LayoutBuilder::forMarker(const Marker &marker) {
  const llvm::GlobalVariable &global = *marker.global;
  if (marker.name.empty()) {
    diagnostics_.error("marker @" + global.getName() +
                       " names no type: put the type's name "
                       "after the prefix (cairn_heap_type_<Name>)");
    return nullptr;
  }
  const llvm::DIType *debugType = debugTypeOf(global);
  if (marker.kind != MarkerKind::Type) return buildArray(marker, debugType);

  auto *type = llvm::dyn_cast<llvm::StructType>(global.getValueType());
  if (type == nullptr) {
    diagnostics_.error("marker @" + global.getName() + " of heap type '" + marker.name +
                       "' has type " + describe(global.getValueType()) +
                       ", not a struct; a plain heap type's marker must be a global of its "
                       "struct type (for arrays use a cairn_heap_array_<Name> marker of the "
                       "element type)");
    return nullptr;
  }
  if (primaryMarker_.at(type) == &marker) return structLayout(type, debugType);
  // A second marker of the same struct: the same layout under another name.
  return buildStruct(type, marker.name, &marker, debugType);
}

const TypeLayout *LayoutBuilder::structLayout(llvm::StructType *type,
                                              const llvm::DIType *debugType) {
  if (auto it = structs_.find(type); it != structs_.end()) return it->second;
  auto primary = primaryMarker_.find(type);
  const Marker *marker = primary == primaryMarker_.end() ? nullptr : primary->second;
  if (marker != nullptr && debugType == nullptr) debugType = debugTypeOf(*marker->global);
  const TypeLayout *layout =
      buildStruct(type, marker != nullptr ? marker->name : typeNameOf(type), marker, debugType);
  structs_[type] = layout;
  return layout;
}

TypeLayout *LayoutBuilder::buildStruct(llvm::StructType *type, std::string name,
                                       const Marker *marker, const llvm::DIType *debugType) {
  if (type->isOpaque() || !hasFixedSize(type)) {
    diagnostics_.error("type '" + name + "' (" + describe(type) +
                       ") has no fixed layout in "
                       "this module (an opaque or scalable struct); define the struct before "
                       "its marker or its use as a field");
    return nullptr;
  }
  TypeLayout &layout = storage_.emplace_back();
  layout.name = std::move(name);
  layout.marker = marker;
  layout.structType = type;
  layout.flags = marker != nullptr ? 0u : static_cast<uint32_t>(CAIRN_TYPE_LAYOUT);
  const llvm::StructLayout *structLayout = dataLayout_.getStructLayout(type);
  layout.size = structLayout->getSizeInBytes().getFixedValue();
  layout.align = static_cast<uint32_t>(structLayout->getAlignment().value());

  const std::vector<ElementInfo> elements = names_.elements(type, debugType, dataLayout_);
  bool ok = true;
  for (unsigned i = 0; i < type->getNumElements(); ++i)
    ok &=
        addField(layout, type->getElementType(i), structLayout->getElementOffset(i).getFixedValue(),
                 elements[i].name, elements[i].debugType, elements[i].declaredType);
  if (!ok) return nullptr;

  // An inherited prefix: element 0 is a marked heap type, or debug info says it is a base.
  if (type->getNumElements() > 0) {
    if (auto *first = llvm::dyn_cast<llvm::StructType>(type->getElementType(0)))
      if (primaryMarker_.count(first) != 0 || elements[0].inherited)
        layout.super = layout.fields[0].nested;
  }
  if (isUnionType(type) && !layout.refs.empty()) {
    diagnostics_.error("type '" + layout.name + "' is a union holding a reference (" +
                       describe(type) +
                       "); the collector cannot know which member a union "
                       "holds: use a struct with a separate reference field, or a tag and "
                       "separate fields");
    return nullptr;
  }
  if (!checkRefs(layout) || (marker != nullptr && !checkAlign(layout))) return nullptr;
  return &finish(layout);
}

TypeLayout *LayoutBuilder::buildArray(const Marker &marker, const llvm::DIType *debugType) {
  llvm::Type *element = marker.global->getValueType();
  const std::string what = marker.kind == MarkerKind::Text ? "text type" : "array type";
  if (marker.kind == MarkerKind::Text && !element->isIntegerTy(8)) {
    diagnostics_.error("marker @" + marker.global->getName() + " of " + what + " '" + marker.name +
                       "' has type " + describe(element) +
                       "; a text marker must be an i8 (a C char)");
    return nullptr;
  }
  if (element->isArrayTy() || !hasFixedSize(element)) {
    diagnostics_.error("marker @" + marker.global->getName() + " of " + what + " '" + marker.name +
                       "' has type " + describe(element) +
                       "; an array marker must be a global of the element type, which must be "
                       "a scalar, a reference or a struct");
    return nullptr;
  }
  TypeLayout &layout = storage_.emplace_back();
  layout.name = marker.name;
  layout.marker = &marker;
  layout.flags = CAIRN_TYPE_ARRAY;
  if (marker.kind == MarkerKind::Text) layout.flags |= CAIRN_TYPE_TEXT;
  layout.size = dataLayout_.getTypeAllocSize(element).getFixedValue();
  layout.align = static_cast<uint32_t>(dataLayout_.getABITypeAlign(element).value());
  if (auto *type = llvm::dyn_cast<llvm::StructType>(element)) {
    const TypeLayout *nested = structLayout(type, stripArrays(debugType));
    if (nested == nullptr) return nullptr;
    layout.elemKind = CAIRN_KIND_STRUCT;
    layout.refs = nested->refs;
    layout.fields = nested->fields;
  } else {
    layout.elemKind = scalarKind(element);
    if (layout.elemKind == CAIRN_KIND_NONE) {
      diagnostics_.error("the elements of array type '" + marker.name + "' have IR type " +
                         describe(element) +
                         ", which Cairn cannot describe (supported: " + kSupported + ")");
      return nullptr;
    }
    if (layout.elemKind == CAIRN_KIND_REF) layout.refs.push_back(0);
  }
  if (layout.size == 0) {
    diagnostics_.error("the elements of array type '" + marker.name +
                       "' are empty (size 0); "
                       "an array element needs at least one byte");
    return nullptr;
  }
  if (!layout.refs.empty() && layout.size % kRefSize != 0) {
    diagnostics_.error("the elements of array type '" + marker.name + "' are " +
                       llvm::Twine(layout.size) +
                       " bytes, not a multiple of 8, so the "
                       "references in all but the first would be misaligned");
    return nullptr;
  }
  if (!checkRefs(layout) || !checkAlign(layout)) return nullptr;
  return &finish(layout);
}

bool LayoutBuilder::addField(TypeLayout &owner, llvm::Type *type, uint64_t offset, std::string name,
                             const llvm::DIType *debugType, std::string declaredType) {
  uint64_t count = 1;
  while (auto *array = llvm::dyn_cast<llvm::ArrayType>(type)) {
    count *= array->getNumElements();
    type = array->getElementType();
  }
  debugType = stripArrays(debugType);
  const std::string where = "field '" + name + "' of type '" + owner.name + "'";
  if (!hasFixedSize(type)) {
    diagnostics_.error(where + " has IR type " + describe(type) + ", which has no fixed size");
    return false;
  }
  FieldLayout field;
  field.offset = static_cast<uint32_t>(offset);
  field.count = static_cast<uint32_t>(count);
  const uint64_t stride = dataLayout_.getTypeAllocSize(type).getFixedValue();
  field.size = static_cast<uint32_t>(stride);
  if (offset > std::numeric_limits<uint32_t>::max() ||
      count > std::numeric_limits<uint32_t>::max() ||
      stride > std::numeric_limits<uint32_t>::max() ||
      offset + count * stride > std::numeric_limits<uint32_t>::max()) {
    diagnostics_.error(where + " is too large: heap objects describe offsets in 32 bits");
    return false;
  }
  std::vector<uint32_t> elementRefs;
  if (auto *nestedType = llvm::dyn_cast<llvm::StructType>(type)) {
    field.kind = CAIRN_KIND_STRUCT;
    field.nested = structLayout(nestedType, debugType);
    if (field.nested == nullptr) return false;
    elementRefs = field.nested->refs;
  } else {
    field.kind = scalarKind(type);
    if (field.kind == CAIRN_KIND_NONE) {
      diagnostics_.error(where + " has IR type " + describe(type) +
                         ", which Cairn cannot describe (supported: " + kSupported + ")");
      return false;
    }
    if (field.kind == CAIRN_KIND_REF) elementRefs.push_back(0);
  }
  if (!elementRefs.empty()) {
    if (count == 0) {
      diagnostics_.error(where +
                         " is a flexible array member holding references; the "
                         "collector only knows fixed layouts: make it an array heap type "
                         "(cairn_heap_array_<Name>) and keep a reference to it");
      return false;
    }
    if (count * elementRefs.size() + owner.refs.size() > kMaxRefs) {
      diagnostics_.error(where + " holds more than " + llvm::Twine(kMaxRefs) +
                         " references; use an array heap type instead");
      return false;
    }
    for (uint64_t i = 0; i < count; ++i)
      for (uint32_t ref : elementRefs)
        owner.refs.push_back(static_cast<uint32_t>(offset + i * stride + ref));
  }
  field.name = std::move(name);
  field.declaredType = std::move(declaredType);
  owner.fields.push_back(std::move(field));
  return true;
}

bool LayoutBuilder::checkRefs(const TypeLayout &layout) {
  for (size_t i = 0; i < layout.refs.size(); ++i) {
    const uint32_t ref = layout.refs[i];
    const char *problem = nullptr;
    if (ref % kRefSize != 0)
      problem = "is not a multiple of 8 (a packed struct?)";
    else if (ref + kRefSize > layout.size)
      problem = "does not fit in the object";
    else if (i > 0 && ref <= layout.refs[i - 1])
      problem = "overlaps another reference";
    if (problem != nullptr) {
      diagnostics_.error("type '" + layout.name + "' has a reference at offset " +
                         llvm::Twine(ref) + " that " + problem +
                         "; the collector reads references only as aligned 8-byte words: "
                         "remove the packing or reorder the fields");
      return false;
    }
  }
  return true;
}

bool LayoutBuilder::checkAlign(const TypeLayout &layout) {
  if (layout.align <= kHeapAlign) return true;
  diagnostics_.error("type '" + layout.name + "' needs " + llvm::Twine(layout.align) +
                     "-byte alignment but heap objects are 8-byte aligned; remove the "
                     "over-aligned field or alignment attribute");
  return false;
}

TypeLayout &LayoutBuilder::finish(TypeLayout &layout) {
  layout.fingerprint = fingerprintOf(layout);
  return layout;
}

}  // namespace cairn::plugin
