// Cairn compiler plugin: the diagnostic kind of the pass and its printing.
#include "diagnostics.h"

#include <llvm/IR/DebugInfoMetadata.h>
#include <llvm/IR/DiagnosticInfo.h>
#include <llvm/IR/DiagnosticPrinter.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/Instruction.h>
#include <llvm/IR/LLVMContext.h>

#include <string>

namespace cairn::plugin {
namespace {

// A plugin diagnostic kind, allocated once per process.
int cairnDiagnosticKind() {
  static const int kind = llvm::getNextAvailablePluginDiagnosticKind();
  return kind;
}

// "cairn-descriptors: [file:line:col: ][in function 'f': ]message". The location is part of
// the text because clang prints plugin diagnostics without one.
class DiagnosticInfoCairn : public llvm::DiagnosticInfo {
 public:
  DiagnosticInfoCairn(std::string text)
      : DiagnosticInfo(cairnDiagnosticKind(), llvm::DS_Error), text_(std::move(text)) {}
  void print(llvm::DiagnosticPrinter &printer) const override { printer << text_; }

 private:
  std::string text_;
};

}  // namespace

void Diagnostics::error(const llvm::Twine &message, const llvm::Instruction *at) {
  std::string text = "cairn-descriptors: ";
  if (at != nullptr) {
    if (const llvm::DILocation *loc = at->getDebugLoc().get()) {
      text += (loc->getFilename() + ":" + llvm::Twine(loc->getLine()) + ":" +
               llvm::Twine(loc->getColumn()) + ": ")
                  .str();
    }
    if (const llvm::Function *fn = at->getFunction())
      text += ("in function '" + fn->getName() + "': ").str();
  }
  text += message.str();
  ++errors_;
  context_.diagnose(DiagnosticInfoCairn(std::move(text)));
}

}  // namespace cairn::plugin
