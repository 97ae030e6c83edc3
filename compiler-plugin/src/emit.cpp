// Cairn compiler plugin: building descriptor constants in the runtime's format.
#include "emit.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/DerivedTypes.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/GlobalVariable.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Module.h>
#include <llvm/Transforms/Utils/ModuleUtils.h>

#include "layout.h"
#include "markers.h"
#include "methods.h"

namespace cairn::plugin {
namespace {

// A named struct type with exactly these elements: an existing one, or a new one.
llvm::StructType *namedStruct(llvm::LLVMContext &context, llvm::StringRef name,
                              llvm::ArrayRef<llvm::Type *> elements) {
  if (llvm::StructType *existing = llvm::StructType::getTypeByName(context, name))
    if (!existing->isOpaque() && !existing->isPacked() && existing->elements() == elements)
      return existing;
  return llvm::StructType::create(context, elements, name);
}

}  // namespace

DescriptorEmitter::DescriptorEmitter(llvm::Module &module, const MethodTables &methods)
    : module_(module), methods_(methods) {
  llvm::LLVMContext &context = module.getContext();
  llvm::Type *i16 = llvm::Type::getInt16Ty(context);
  llvm::Type *i32 = llvm::Type::getInt32Ty(context);
  llvm::Type *i64 = llvm::Type::getInt64Ty(context);
  llvm::Type *ptr = llvm::PointerType::getUnqual(context);
  // struct cairn_type: abi, flags, fingerprint, name, size, align, elem_kind, nrefs, nfields,
  // refs, fields, super, methods, nmethods, reserved.
  typeType_ =
      namedStruct(context, "cairn.type",
                  {i32, i32, i64, ptr, i64, i32, i32, i32, i32, ptr, ptr, ptr, ptr, i32, i32});
  // struct cairn_field: name, offset, kind, reserved, count, size, nested, type.
  fieldType_ = namedStruct(context, "cairn.field", {ptr, i32, i16, i16, i32, i32, ptr, ptr});
}

llvm::Constant *DescriptorEmitter::string(const std::string &text) {
  if (auto it = strings_.find(text); it != strings_.end()) return it->second;
  llvm::Constant *data = llvm::ConstantDataArray::getString(module_.getContext(), text);
  auto *global = new llvm::GlobalVariable(module_, data->getType(), true,
                                          llvm::GlobalValue::PrivateLinkage, data, "cairn.str");
  global->setUnnamedAddr(llvm::GlobalValue::UnnamedAddr::Global);
  global->setAlignment(llvm::Align(1));
  strings_.emplace(text, global);
  return global;
}

llvm::Constant *DescriptorEmitter::refsArray(const TypeLayout &layout, const std::string &base) {
  auto *ptr = llvm::PointerType::getUnqual(module_.getContext());
  if (layout.refs.empty()) return llvm::ConstantPointerNull::get(ptr);
  llvm::Constant *data = llvm::ConstantDataArray::get(module_.getContext(), layout.refs);
  auto *global = new llvm::GlobalVariable(module_, data->getType(), true,
                                          llvm::GlobalValue::PrivateLinkage, data, base + ".refs");
  global->setAlignment(llvm::Align(4));
  return global;
}

llvm::Constant *DescriptorEmitter::fieldsArray(const TypeLayout &layout, const std::string &base) {
  llvm::LLVMContext &context = module_.getContext();
  auto *ptr = llvm::PointerType::getUnqual(context);
  if (layout.fields.empty()) return llvm::ConstantPointerNull::get(ptr);
  auto i16 = [&](uint64_t v) { return llvm::ConstantInt::get(llvm::Type::getInt16Ty(context), v); };
  auto i32 = [&](uint64_t v) { return llvm::ConstantInt::get(llvm::Type::getInt32Ty(context), v); };
  std::vector<llvm::Constant *> fields;
  for (const FieldLayout &field : layout.fields) {
    llvm::Constant *nested = field.nested != nullptr
                                 ? static_cast<llvm::Constant *>(descriptor(*field.nested))
                                 : llvm::ConstantPointerNull::get(ptr);
    fields.push_back(llvm::ConstantStruct::get(
        fieldType_, {string(field.name), i32(field.offset), i16(field.kind), i16(0),
                     i32(field.count), i32(field.size), nested,
                     field.declaredType.empty()
                         ? static_cast<llvm::Constant *>(llvm::ConstantPointerNull::get(ptr))
                         : string(field.declaredType)}));
  }
  auto *arrayType = llvm::ArrayType::get(fieldType_, fields.size());
  auto *global =
      new llvm::GlobalVariable(module_, arrayType, true, llvm::GlobalValue::PrivateLinkage,
                               llvm::ConstantArray::get(arrayType, fields), base + ".fields");
  global->setAlignment(llvm::Align(8));
  return global;
}

llvm::Constant *DescriptorEmitter::methodsArray(const TypeLayout &layout, const std::string &base,
                                                uint32_t *count) {
  auto *ptr = llvm::PointerType::getUnqual(module_.getContext());
  *count = 0;
  const std::vector<llvm::Function *> *functions = nullptr;
  if (layout.marker != nullptr && layout.marker->kind == MarkerKind::Type &&
      layout.structType != nullptr)
    functions = methods_.find(layout.structType);
  if (functions == nullptr || functions->empty()) return llvm::ConstantPointerNull::get(ptr);
  std::vector<llvm::Constant *> slots(functions->begin(), functions->end());
  auto *arrayType = llvm::ArrayType::get(ptr, slots.size());
  auto *global =
      new llvm::GlobalVariable(module_, arrayType, true, llvm::GlobalValue::PrivateLinkage,
                               llvm::ConstantArray::get(arrayType, slots), base + ".methods");
  global->setAlignment(llvm::Align(8));
  *count = static_cast<uint32_t>(slots.size());
  return global;
}

llvm::GlobalVariable *DescriptorEmitter::descriptor(const TypeLayout &layout) {
  if (auto it = descriptors_.find(&layout); it != descriptors_.end()) return it->second;
  const std::string base =
      (layout.marker != nullptr ? "cairn.type." : "cairn.layout.") + layout.name;
  auto *global = new llvm::GlobalVariable(module_, typeType_, true,
                                          llvm::GlobalValue::InternalLinkage, nullptr, base);
  global->setAlignment(llvm::Align(8));
  descriptors_.emplace(&layout, global);

  llvm::LLVMContext &context = module_.getContext();
  auto *ptr = llvm::PointerType::getUnqual(context);
  auto i32 = [&](uint64_t v) { return llvm::ConstantInt::get(llvm::Type::getInt32Ty(context), v); };
  auto i64 = [&](uint64_t v) { return llvm::ConstantInt::get(llvm::Type::getInt64Ty(context), v); };
  llvm::Constant *super = layout.super != nullptr
                              ? static_cast<llvm::Constant *>(descriptor(*layout.super))
                              : llvm::ConstantPointerNull::get(ptr);
  uint32_t nmethods = 0;
  llvm::Constant *methods = methodsArray(layout, base, &nmethods);
  global->setInitializer(llvm::ConstantStruct::get(
      typeType_, {i32(CAIRN_TYPE_ABI), i32(layout.flags), i64(layout.fingerprint),
                  string(layout.name), i64(layout.size), i32(layout.align), i32(layout.elemKind),
                  i32(layout.refs.size()), i32(layout.fields.size()), refsArray(layout, base),
                  fieldsArray(layout, base), super, methods, i32(nmethods), i32(0)}));
  return global;
}

llvm::GlobalVariable *DescriptorEmitter::canonicalSlots(
    const std::vector<llvm::GlobalVariable *> &descriptors) {
  if (descriptors.empty()) return nullptr;
  auto *ptr = llvm::PointerType::getUnqual(module_.getContext());
  auto *arrayType = llvm::ArrayType::get(ptr, descriptors.size());
  std::vector<llvm::Constant *> elements(descriptors.begin(), descriptors.end());
  auto *slots =
      new llvm::GlobalVariable(module_, arrayType, false, llvm::GlobalValue::InternalLinkage,
                               llvm::ConstantArray::get(arrayType, elements), "cairn.canon");
  slots->setAlignment(llvm::Align(8));
  return slots;
}

void DescriptorEmitter::emitRegistration(const std::vector<llvm::GlobalVariable *> &descriptors,
                                         llvm::GlobalVariable *slots) {
  if (descriptors.empty()) return;
  llvm::LLVMContext &context = module_.getContext();
  auto *ptr = llvm::PointerType::getUnqual(context);
  auto *arrayType = llvm::ArrayType::get(ptr, descriptors.size());
  std::vector<llvm::Constant *> elements(descriptors.begin(), descriptors.end());
  auto *table =
      new llvm::GlobalVariable(module_, arrayType, true, llvm::GlobalValue::PrivateLinkage,
                               llvm::ConstantArray::get(arrayType, elements), "cairn.module_types");
  table->setAlignment(llvm::Align(8));

  llvm::Type *sizeType = module_.getDataLayout().getIntPtrType(context);
  llvm::FunctionCallee registerTypes = module_.getOrInsertFunction(
      "cairn_register_module_or_exit",
      llvm::FunctionType::get(llvm::Type::getVoidTy(context), {ptr, ptr, sizeType, ptr}, false));
  auto *constructor =
      llvm::Function::Create(llvm::FunctionType::get(llvm::Type::getVoidTy(context), false),
                             llvm::GlobalValue::InternalLinkage, "cairn.register_types", module_);
  constructor->addFnAttr(llvm::Attribute::NoUnwind);
  llvm::IRBuilder<> builder(llvm::BasicBlock::Create(context, "entry", constructor));
  const std::string moduleName = module_.getSourceFileName().empty() ? module_.getModuleIdentifier()
                                                                     : module_.getSourceFileName();
  builder.CreateCall(
      registerTypes,
      {table, slots, llvm::ConstantInt::get(sizeType, descriptors.size()), string(moduleName)});
  builder.CreateRetVoid();
  llvm::appendToGlobalCtors(module_, constructor, kRegistrationPriority);
}

}  // namespace cairn::plugin
