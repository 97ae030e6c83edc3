// Cairn compiler plugin: finding the reference slots of module globals and registering them.
#include "global_roots.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/DataLayout.h>
#include <llvm/IR/DerivedTypes.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/GlobalVariable.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Metadata.h>
#include <llvm/IR/Module.h>
#include <llvm/Transforms/Utils/ModuleUtils.h>

#include <algorithm>
#include <set>

#include "diagnostics.h"
#include "emit.h"
#include "markers.h"

namespace cairn::plugin {
namespace {

constexpr const char *kRootTag = "cairn.root";
constexpr uint64_t kSlotSize = 8;
constexpr uint64_t kSaturated = ~uint64_t{0};

bool isReference(const llvm::Type *type) {
  return type->isPointerTy() && type->getPointerAddressSpace() == 1;
}

uint64_t saturatingMultiply(uint64_t a, uint64_t b) {
  if (a != 0 && b > kSaturated / a) return kSaturated;
  return a * b;
}

// How many reference slots a value of `type` holds (kSaturated when absurdly many).
uint64_t countSlots(llvm::Type *type) {
  if (isReference(type)) return 1;
  if (auto *structType = llvm::dyn_cast<llvm::StructType>(type)) {
    uint64_t total = 0;
    for (llvm::Type *element : structType->elements()) {
      const uint64_t n = countSlots(element);
      total = n > kSaturated - total ? kSaturated : total + n;
    }
    return total;
  }
  if (auto *array = llvm::dyn_cast<llvm::ArrayType>(type))
    return saturatingMultiply(array->getNumElements(), countSlots(array->getElementType()));
  if (auto *vector = llvm::dyn_cast<llvm::FixedVectorType>(type))
    return isReference(vector->getElementType()) ? vector->getNumElements() : 0;
  return 0;
}

// Appends the offset of every reference slot in a value of `type` that starts at `offset`.
void collectSlots(llvm::Type *type, uint64_t offset, const llvm::DataLayout &dataLayout,
                  std::vector<uint64_t> &offsets) {
  if (isReference(type)) {
    offsets.push_back(offset);
  } else if (auto *structType = llvm::dyn_cast<llvm::StructType>(type)) {
    const llvm::StructLayout *layout = dataLayout.getStructLayout(structType);
    for (unsigned i = 0; i < structType->getNumElements(); ++i)
      collectSlots(structType->getElementType(i),
                   offset + layout->getElementOffset(i).getFixedValue(), dataLayout, offsets);
  } else if (auto *array = llvm::dyn_cast<llvm::ArrayType>(type)) {
    llvm::Type *element = array->getElementType();
    if (countSlots(element) == 0) return;
    const uint64_t stride = dataLayout.getTypeAllocSize(element).getFixedValue();
    for (uint64_t i = 0; i < array->getNumElements(); ++i)
      collectSlots(element, offset + i * stride, dataLayout, offsets);
  } else if (auto *vector = llvm::dyn_cast<llvm::FixedVectorType>(type)) {
    if (!isReference(vector->getElementType())) return;
    // Vector elements are packed: element i starts i * (its size in bits) / 8 bytes in.
    const uint64_t bytes = dataLayout.getTypeSizeInBits(vector->getElementType()) / 8;
    for (unsigned i = 0; i < vector->getNumElements(); ++i) offsets.push_back(offset + i * bytes);
  }
}

bool isCandidate(const llvm::GlobalVariable &global,
                 const std::set<const llvm::GlobalVariable *> &markers) {
  return !global.isDeclarationForLinker() && !global.isConstant() &&
         !global.hasAppendingLinkage() && !global.getName().starts_with("llvm.") &&
         global.getSection() != "llvm.metadata" && markers.count(&global) == 0 &&
         global.getMetadata(kRootTag) == nullptr;
}

llvm::Function *rootsFunction(llvm::Module &module, llvm::StringRef name,
                              llvm::StringRef runtimeFunction, llvm::Constant *table,
                              uint64_t count) {
  llvm::LLVMContext &context = module.getContext();
  auto *ptr = llvm::PointerType::getUnqual(context);
  llvm::Type *sizeType = module.getDataLayout().getIntPtrType(context);
  llvm::FunctionCallee callee = module.getOrInsertFunction(
      runtimeFunction,
      llvm::FunctionType::get(llvm::Type::getVoidTy(context), {ptr, sizeType}, false));
  auto *function =
      llvm::Function::Create(llvm::FunctionType::get(llvm::Type::getVoidTy(context), false),
                             llvm::GlobalValue::InternalLinkage, name, module);
  function->addFnAttr(llvm::Attribute::NoUnwind);
  llvm::IRBuilder<> builder(llvm::BasicBlock::Create(context, "entry", function));
  builder.CreateCall(callee, {table, llvm::ConstantInt::get(sizeType, count)});
  builder.CreateRetVoid();
  return function;
}

}  // namespace

std::vector<GlobalRoot> findGlobalRoots(llvm::Module &module, const std::vector<Marker> &markers,
                                        Diagnostics &diagnostics) {
  std::set<const llvm::GlobalVariable *> markerGlobals;
  for (const Marker &marker : markers) markerGlobals.insert(marker.global);
  const llvm::DataLayout &dataLayout = module.getDataLayout();

  std::vector<GlobalRoot> roots;
  for (llvm::GlobalVariable &global : module.globals()) {
    if (!isCandidate(global, markerGlobals)) continue;
    const uint64_t count = countSlots(global.getValueType());
    if (count == 0) continue;
    if (global.isThreadLocal()) {
      diagnostics.error("global @" + global.getName() +
                        " is thread-local and holds references; Cairn does not support "
                        "thread-local references (one mutator thread, and only the roots of "
                        "ordinary globals are registered): make it an ordinary global");
      continue;
    }
    if (count > kMaxRootSlots) {
      diagnostics.error("global @" + global.getName() + " holds more than " +
                        llvm::Twine(kMaxRootSlots) +
                        " references, each of which would be a root; keep them in a heap "
                        "array and the array's reference in the global");
      continue;
    }
    GlobalRoot root{&global, {}};
    root.offsets.reserve(count);
    collectSlots(global.getValueType(), 0, dataLayout, root.offsets);
    auto misaligned = std::find_if(root.offsets.begin(), root.offsets.end(),
                                   [](uint64_t offset) { return offset % kSlotSize != 0; });
    if (misaligned != root.offsets.end()) {
      diagnostics.error("global @" + global.getName() + " holds a reference at offset " +
                        llvm::Twine(*misaligned) +
                        ", not a multiple of 8 (a packed struct?); the collector updates roots "
                        "as aligned 8-byte words: remove the packing or reorder the fields");
      continue;
    }
    std::sort(root.offsets.begin(), root.offsets.end());
    roots.push_back(std::move(root));
  }
  return roots;
}

void emitGlobalRoots(llvm::Module &module, const std::vector<GlobalRoot> &roots) {
  if (roots.empty()) return;
  llvm::LLVMContext &context = module.getContext();
  auto *ptr = llvm::PointerType::getUnqual(context);
  auto *i8 = llvm::Type::getInt8Ty(context);
  auto *i64 = llvm::Type::getInt64Ty(context);
  std::vector<llvm::Constant *> slots;
  for (const GlobalRoot &root : roots) {
    llvm::GlobalVariable *global = root.global;
    // R1: the alignment the code generator would give it, but at least 8.
    const llvm::Align align = module.getDataLayout().getPreferredAlign(global);
    if (!global->getAlign() || *global->getAlign() < llvm::Align(kSlotSize))
      global->setAlignment(std::max(align, llvm::Align(kSlotSize)));
    global->setMetadata(kRootTag, llvm::MDNode::get(context, {}));
    llvm::Constant *base = llvm::ConstantExpr::getPointerBitCastOrAddrSpaceCast(global, ptr);
    for (uint64_t offset : root.offsets)
      slots.push_back(offset == 0 ? base
                                  : llvm::ConstantExpr::getInBoundsGetElementPtr(
                                        i8, base, llvm::ConstantInt::get(i64, offset)));
  }
  auto *arrayType = llvm::ArrayType::get(ptr, slots.size());
  auto *table =
      new llvm::GlobalVariable(module, arrayType, true, llvm::GlobalValue::PrivateLinkage,
                               llvm::ConstantArray::get(arrayType, slots), "cairn.global_roots");
  table->setAlignment(llvm::Align(8));

  llvm::Function *add =
      rootsFunction(module, "cairn.register_roots", "cairn_add_exact_roots", table, slots.size());
  llvm::Function *remove = rootsFunction(module, "cairn.unregister_roots",
                                         "cairn_remove_exact_roots", table, slots.size());
  llvm::appendToGlobalCtors(module, add, kRegistrationPriority);
  llvm::appendToGlobalDtors(module, remove, kRegistrationPriority);
}

}  // namespace cairn::plugin
