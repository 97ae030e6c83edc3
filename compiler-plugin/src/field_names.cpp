// Cairn compiler plugin: field names from metadata, debug info, or numbers.
#include "field_names.h"

#include <llvm/BinaryFormat/Dwarf.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/DataLayout.h>
#include <llvm/IR/DebugInfoMetadata.h>
#include <llvm/IR/DerivedTypes.h>
#include <llvm/IR/GlobalVariable.h>
#include <llvm/IR/Metadata.h>
#include <llvm/IR/Module.h>

#include "diagnostics.h"

namespace cairn::plugin {
namespace {

constexpr const char *kFieldsMetadata = "cairn.fields";
constexpr const char *kFieldTypesMetadata = "cairn.field_types";

// The struct type that operand 0 of a `!cairn.fields` node stands for, or null.
const llvm::StructType *describedType(const llvm::MDNode &node) {
  if (node.getNumOperands() == 0) return nullptr;
  const auto *value = llvm::dyn_cast_or_null<llvm::ConstantAsMetadata>(node.getOperand(0).get());
  if (value == nullptr) return nullptr;
  return llvm::dyn_cast<llvm::StructType>(value->getValue()->getType());
}

// The name a base class element gets: the base's name.
std::string inheritanceName(const llvm::DIDerivedType &member) {
  const llvm::DIType *base = stripQualifiers(member.getBaseType());
  if (base != nullptr && !base->getName().empty()) return base->getName().str();
  return "super";
}

}  // namespace

const llvm::DIType *stripQualifiers(const llvm::DIType *type) {
  while (const auto *derived = llvm::dyn_cast_or_null<llvm::DIDerivedType>(type)) {
    switch (derived->getTag()) {
      case llvm::dwarf::DW_TAG_typedef:
      case llvm::dwarf::DW_TAG_const_type:
      case llvm::dwarf::DW_TAG_volatile_type:
      case llvm::dwarf::DW_TAG_restrict_type:
      case llvm::dwarf::DW_TAG_atomic_type:
        type = derived->getBaseType();
        continue;
      default:
        return type;
    }
  }
  return type;
}

const llvm::DIType *stripArrays(const llvm::DIType *type) {
  type = stripQualifiers(type);
  while (const auto *composite = llvm::dyn_cast_or_null<llvm::DICompositeType>(type)) {
    if (composite->getTag() != llvm::dwarf::DW_TAG_array_type) break;
    type = stripQualifiers(composite->getBaseType());
  }
  return type;
}

const llvm::DIType *debugTypeOf(const llvm::GlobalVariable &global) {
  llvm::SmallVector<llvm::DIGlobalVariableExpression *, 1> expressions;
  global.getDebugInfo(expressions);
  for (const llvm::DIGlobalVariableExpression *expression : expressions)
    if (const llvm::DIGlobalVariable *variable = expression->getVariable())
      if (const llvm::DIType *type = stripQualifiers(variable->getType())) return type;
  return nullptr;
}

FieldNames::FieldNames(const llvm::Module &module, Diagnostics &diagnostics) {
  if (const llvm::NamedMDNode *types = module.getNamedMetadata(kFieldTypesMetadata)) {
    for (const llvm::MDNode *node : types->operands()) {
      const llvm::StructType *type = describedType(*node);
      std::vector<std::string> words;
      bool ok = type != nullptr && node->getNumOperands() == type->getNumElements() + 1;
      for (unsigned i = 1; ok && i < node->getNumOperands(); ++i) {
        const auto *word = llvm::dyn_cast_or_null<llvm::MDString>(node->getOperand(i).get());
        if (word == nullptr)
          ok = false;
        else
          words.push_back(word->getString().str());
      }
      if (!ok) {
        diagnostics.error(llvm::Twine("malformed !") + kFieldTypesMetadata +
                          " entry: its first operand must be a constant of the struct type it "
                          "describes, followed by one string per element");
        continue;
      }
      typesFromMetadata_[type] = std::move(words);  // the same entry again: the same words
    }
  }
  const llvm::NamedMDNode *list = module.getNamedMetadata(kFieldsMetadata);
  if (list == nullptr) return;
  for (const llvm::MDNode *node : list->operands()) {
    const llvm::StructType *type = describedType(*node);
    if (type == nullptr) {
      diagnostics.error(llvm::Twine("malformed !") + kFieldsMetadata +
                        " entry: its first operand must be a constant of the struct type it "
                        "names (e.g. %T poison), followed by one string per field");
      continue;
    }
    std::vector<std::string> names;
    bool ok = true;
    for (unsigned i = 1; i < node->getNumOperands(); ++i) {
      const auto *name = llvm::dyn_cast_or_null<llvm::MDString>(node->getOperand(i).get());
      if (name == nullptr || name->getString().empty())
        ok = false;
      else
        names.push_back(name->getString().str());
    }
    const std::string typeName = type->hasName() ? type->getName().str() : "<literal struct>";
    if (!ok) {
      diagnostics.error(llvm::Twine("malformed !") + kFieldsMetadata + " entry for %" + typeName +
                        ": every field name must be a non-empty metadata string");
    } else if (names.size() != type->getNumElements()) {
      diagnostics.error(llvm::Twine("!") + kFieldsMetadata + " entry for %" + typeName + " names " +
                        llvm::Twine(names.size()) + " fields but the type has " +
                        llvm::Twine(type->getNumElements()) + "; give one name per element");
    } else if (auto [it, fresh] = fromMetadata_.emplace(type, std::move(names));
               !fresh && entryOf_.at(type) != node) {
      diagnostics.error(llvm::Twine("two !") + kFieldsMetadata + " entries name %" + typeName +
                        "; give one");
    } else {
      entryOf_.emplace(type, node);  // the same node again: two linked modules both listed it
    }
  }
}

std::vector<ElementInfo> FieldNames::elements(llvm::StructType *type, const llvm::DIType *debugType,
                                              const llvm::DataLayout &layout) const {
  const unsigned count = type->getNumElements();
  std::vector<ElementInfo> result(count);
  for (unsigned i = 0; i < count; ++i) result[i].name = "f" + std::to_string(i);

  // Debug info: match members to elements by byte offset, both in increasing order.
  const auto *composite = llvm::dyn_cast_or_null<llvm::DICompositeType>(stripQualifiers(debugType));
  if (composite != nullptr && (composite->getTag() == llvm::dwarf::DW_TAG_structure_type ||
                               composite->getTag() == llvm::dwarf::DW_TAG_class_type)) {
    std::vector<const llvm::DIDerivedType *> members;
    for (const llvm::DINode *element : composite->getElements()) {
      const auto *member = llvm::dyn_cast_or_null<llvm::DIDerivedType>(element);
      if (member == nullptr || member->isStaticMember() || member->isBitField()) continue;
      if (member->getTag() == llvm::dwarf::DW_TAG_member ||
          member->getTag() == llvm::dwarf::DW_TAG_inheritance)
        members.push_back(member);
    }
    const llvm::StructLayout *structLayout = layout.getStructLayout(type);
    size_t next = 0;
    for (unsigned i = 0; i < count && next < members.size(); ++i) {
      const uint64_t offsetBits = 8 * structLayout->getElementOffset(i).getFixedValue();
      while (next < members.size() && members[next]->getOffsetInBits() < offsetBits) ++next;
      if (next == members.size() || members[next]->getOffsetInBits() != offsetBits) continue;
      const llvm::DIDerivedType *member = members[next++];
      result[i].debugType = stripQualifiers(member->getBaseType());
      if (member->getTag() == llvm::dwarf::DW_TAG_inheritance) {
        result[i].name = inheritanceName(*member);
        result[i].inherited = (offsetBits == 0);
      } else if (!member->getName().empty()) {
        result[i].name = member->getName().str();
      }
    }
  }

  // Metadata wins over debug info for names (debug types are still passed down).
  if (auto it = fromMetadata_.find(type); it != fromMetadata_.end())
    for (unsigned i = 0; i < count; ++i) result[i].name = it->second[i];
  if (auto it = typesFromMetadata_.find(type); it != typesFromMetadata_.end())
    for (unsigned i = 0; i < count; ++i) result[i].declaredType = it->second[i];
  return result;
}

}  // namespace cairn::plugin
