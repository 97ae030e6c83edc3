// Cairn compiler plugin: descriptor constants and the registration constructor.
//
// Each layout becomes one internal constant of the IR struct type `cairn.type`, whose layout
// is struct cairn_type of cairn/type.h (and `cairn.field` is struct cairn_field); names, fields
// and reference offsets are private constants beside it. Marked types are named
// @"cairn.type.<Name>", nested struct layouts @"cairn.layout.<Name>" (flag CAIRN_TYPE_LAYOUT).
// A plain type with methods (methods.h) gets a private [n x ptr] @"cairn.type.<Name>.methods".
// The marked types' canonical slots are one mutable [n x ptr] @"cairn.canon" (plain pointers,
// no roots), element i first holding the module's own descriptor of types[i]. The module
// constructor @"cairn.register_types" (priority 101, before ordinary constructors that might
// allocate) passes the marked types and the slots to cairn_register_module_or_exit, which
// stores each type's canonical descriptor in its slot (docs/plugin.md).
#ifndef CAIRN_PLUGIN_EMIT_H
#define CAIRN_PLUGIN_EMIT_H

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace llvm {
class Constant;
class GlobalVariable;
class Module;
class StructType;
}  // namespace llvm

namespace cairn::plugin {

class MethodTables;
struct TypeLayout;

// Priority of the registration constructor (0-100 are reserved for the implementation).
inline constexpr int kRegistrationPriority = 101;

class DescriptorEmitter {
 public:
  DescriptorEmitter(llvm::Module &module, const MethodTables &methods);

  // The descriptor global of `layout` (and, recursively, of the layouts it refers to).
  llvm::GlobalVariable *descriptor(const TypeLayout &layout);

  // The canonical slots of `descriptors`, in that order (none: nullptr).
  llvm::GlobalVariable *canonicalSlots(const std::vector<llvm::GlobalVariable *> &descriptors);

  // Emits the constructor that registers `descriptors` with the runtime and fills `slots`
  // (none: nothing).
  void emitRegistration(const std::vector<llvm::GlobalVariable *> &descriptors,
                        llvm::GlobalVariable *slots);

 private:
  llvm::Constant *string(const std::string &text);
  llvm::Constant *refsArray(const TypeLayout &layout, const std::string &base);
  llvm::Constant *fieldsArray(const TypeLayout &layout, const std::string &base);
  llvm::Constant *methodsArray(const TypeLayout &layout, const std::string &base, uint32_t *count);

  llvm::Module &module_;
  const MethodTables &methods_;
  llvm::StructType *typeType_;
  llvm::StructType *fieldType_;
  std::map<const TypeLayout *, llvm::GlobalVariable *> descriptors_;
  std::map<std::string, llvm::Constant *> strings_;
};

}  // namespace cairn::plugin

#endif  // CAIRN_PLUGIN_EMIT_H
