// Cairn compiler plugin: finding references accessed through unions on the heap.
#include "union_access.h"

#include <llvm/IR/DerivedTypes.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Operator.h>

#include "diagnostics.h"
#include "layout.h"

namespace cairn::plugin {
namespace {

bool isReference(const llvm::Type *type) {
  const auto *pointer = llvm::dyn_cast<llvm::PointerType>(type);
  return pointer != nullptr && pointer->getAddressSpace() == 1;
}

const llvm::StructType *asUnion(const llvm::Type *type) {
  const auto *structType = llvm::dyn_cast<llvm::StructType>(type);
  return structType != nullptr && isUnionType(structType) ? structType : nullptr;
}

// The union a heap address is computed through, following its chain of GEPs, or null.
const llvm::StructType *unionOnPath(const llvm::Value *address) {
  while (const auto *gep = llvm::dyn_cast<llvm::GEPOperator>(address)) {
    if (gep->getPointerAddressSpace() == 1) {
      if (const llvm::StructType *type = asUnion(gep->getResultElementType())) return type;
      if (const llvm::StructType *type = asUnion(gep->getSourceElementType())) return type;
    }
    address = gep->getPointerOperand();
  }
  return nullptr;
}

}  // namespace

void checkUnionAccesses(const llvm::Module &module, Diagnostics &diagnostics) {
  for (const llvm::Function &function : module) {
    for (const llvm::BasicBlock &block : function) {
      for (const llvm::Instruction &instruction : block) {
        const llvm::Value *address = nullptr;
        const char *verb = nullptr;
        if (const auto *load = llvm::dyn_cast<llvm::LoadInst>(&instruction)) {
          if (isReference(load->getType())) address = load->getPointerOperand(), verb = "reads";
        } else if (const auto *store = llvm::dyn_cast<llvm::StoreInst>(&instruction)) {
          if (isReference(store->getValueOperand()->getType()))
            address = store->getPointerOperand(), verb = "writes";
        } else if (const auto *exchange = llvm::dyn_cast<llvm::AtomicCmpXchgInst>(&instruction)) {
          if (isReference(exchange->getNewValOperand()->getType()))
            address = exchange->getPointerOperand(), verb = "exchanges";
        } else if (const auto *rmw = llvm::dyn_cast<llvm::AtomicRMWInst>(&instruction)) {
          if (isReference(rmw->getValOperand()->getType()))
            address = rmw->getPointerOperand(), verb = "exchanges";
        }
        if (address == nullptr) continue;
        if (const llvm::StructType *type = unionOnPath(address)) {
          diagnostics.error(llvm::Twine(verb) + " a reference in union '" + typeNameOf(type) +
                                "' inside a heap object; the collector cannot know which member "
                                "a union holds: keep references in struct fields of their own",
                            &instruction);
        }
      }
    }
  }
}

}  // namespace cairn::plugin
