// Cairn compiler plugin: reading and checking `!cairn.methods`.
#include "methods.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/DerivedTypes.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/GlobalVariable.h>
#include <llvm/IR/Metadata.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/raw_ostream.h>

#include <set>
#include <string>

#include "diagnostics.h"
#include "markers.h"

namespace cairn::plugin {
namespace {

constexpr const char *kMethodsMetadata = "cairn.methods";

std::string typeName(const llvm::StructType *type) {
  return type->hasName() ? "%" + type->getName().str() : "a literal struct";
}

// How a slot operand reads in IR, for messages.
std::string printed(const llvm::Metadata *operand, const llvm::Module &module) {
  if (operand == nullptr) return "null";
  std::string text;
  llvm::raw_string_ostream out(text);
  operand->print(out, &module);
  return llvm::StringRef(text).trim().str();
}

}  // namespace

MethodTables::MethodTables(const llvm::Module &module, const std::vector<Marker> &markers,
                           Diagnostics &diagnostics) {
  const llvm::NamedMDNode *list = module.getNamedMetadata(kMethodsMetadata);
  if (list == nullptr) return;
  std::set<const llvm::StructType *> plainTypes;
  for (const Marker &marker : markers)
    if (marker.kind == MarkerKind::Type)
      if (const auto *type = llvm::dyn_cast<llvm::StructType>(marker.global->getValueType()))
        plainTypes.insert(type);

  for (const llvm::MDNode *node : list->operands()) {
    const llvm::StructType *type = nullptr;
    if (node->getNumOperands() > 0)
      if (const auto *value =
              llvm::dyn_cast_or_null<llvm::ConstantAsMetadata>(node->getOperand(0).get()))
        type = llvm::dyn_cast<llvm::StructType>(value->getValue()->getType());
    if (type == nullptr) {
      diagnostics.error(llvm::Twine("malformed !") + kMethodsMetadata +
                        " entry: its first operand must be a constant of the heap type's "
                        "struct (e.g. %Node poison), followed by one function per method slot "
                        "(ptr @f)");
      continue;
    }
    if (plainTypes.count(type) == 0) {
      diagnostics.error(llvm::Twine("!") + kMethodsMetadata + " lists methods for " +
                        typeName(type) +
                        ", which is not a plain heap type in this module: declare a marker "
                        "global @cairn_heap_type_<Name> of that type, or drop the entry "
                        "(array and text types have no methods)");
      continue;
    }
    Table table;
    table.node = node;
    bool ok = true;
    for (unsigned i = 1; i < node->getNumOperands(); ++i) {
      const llvm::Metadata *operand = node->getOperand(i).get();
      llvm::Function *function = nullptr;
      if (const auto *value = llvm::dyn_cast_or_null<llvm::ConstantAsMetadata>(operand))
        function = llvm::dyn_cast<llvm::Function>(value->getValue());
      const unsigned slot = i - 1;
      if (function == nullptr) {
        diagnostics.error(llvm::Twine("!") + kMethodsMetadata + " entry for " + typeName(type) +
                          ": slot " + llvm::Twine(slot) + " is `" + printed(operand, module) +
                          "`, not a function; give one function per method slot (ptr @f), "
                          "inherited methods included");
        ok = false;
      } else if (function->isIntrinsic()) {
        diagnostics.error(llvm::Twine("!") + kMethodsMetadata + " entry for " + typeName(type) +
                          ": slot " + llvm::Twine(slot) + " is the intrinsic @" +
                          function->getName() +
                          ", whose address cannot be taken; use a function that calls it");
        ok = false;
      } else {
        table.functions.push_back(function);
      }
    }
    if (!ok) continue;
    auto [it, fresh] = tables_.emplace(type, std::move(table));
    if (!fresh && it->second.node != node) {
      diagnostics.error(llvm::Twine("two !") + kMethodsMetadata + " entries list different " +
                        "methods for " + typeName(type) + "; give one entry per type");
      it->second.functions.clear();  // neither list is right
    }
  }
}

const std::vector<llvm::Function *> *MethodTables::find(const llvm::StructType *type) const {
  auto it = tables_.find(type);
  return it == tables_.end() ? nullptr : &it->second.functions;
}

bool dropMethodsMetadata(llvm::Module &module) {
  llvm::NamedMDNode *list = module.getNamedMetadata(kMethodsMetadata);
  if (list == nullptr) return false;
  module.eraseNamedMetadata(list);
  return true;
}

}  // namespace cairn::plugin
