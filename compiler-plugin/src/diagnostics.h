// Cairn compiler plugin: errors about types and code the pass cannot describe.
//
// Every problem is reported through the LLVMContext's diagnostic handler (clang shows it as a
// compile error, opt prints it and fails), never by crashing. A message names the type or
// function, says what is wrong, and says what to do.
#ifndef CAIRN_PLUGIN_DIAGNOSTICS_H
#define CAIRN_PLUGIN_DIAGNOSTICS_H

#include <llvm/ADT/Twine.h>

namespace llvm {
class Instruction;
class LLVMContext;
}  // namespace llvm

namespace cairn::plugin {

class Diagnostics {
 public:
  explicit Diagnostics(llvm::LLVMContext &context) : context_(context) {}

  // Reports an error; `at`, if given, supplies the function and source location.
  void error(const llvm::Twine &message, const llvm::Instruction *at = nullptr);

  // True once any error was reported through this object.
  bool failed() const { return errors_ > 0; }

 private:
  llvm::LLVMContext &context_;
  unsigned errors_ = 0;
};

}  // namespace cairn::plugin

#endif  // CAIRN_PLUGIN_DIAGNOSTICS_H
