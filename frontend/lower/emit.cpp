// Optimizing and emitting a module (emit.h).
#include "lower/emit.h"

#include <llvm/Analysis/CGSCCPassManager.h>
#include <llvm/Analysis/LoopAnalysisManager.h>
#include <llvm/IR/DiagnosticInfo.h>
#include <llvm/IR/DiagnosticPrinter.h>
#include <llvm/IR/LegacyPassManager.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/PassManager.h>
#include <llvm/IR/Verifier.h>
#include <llvm/MC/TargetRegistry.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/TargetSelect.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Target/TargetMachine.h>
#include <llvm/Target/TargetOptions.h>
#include <llvm/TargetParser/Host.h>

#include <memory>

#include "cairn_plugin/descriptor_pass.h"

namespace cairn::front {
namespace {

// Collects error diagnostics (the descriptor pass reports through the context).
struct CollectingHandler : llvm::DiagnosticHandler {
  std::string *errors;
  explicit CollectingHandler(std::string *e) : errors(e) {}
  bool handleDiagnostics(const llvm::DiagnosticInfo &di) override {
    if (di.getSeverity() != llvm::DS_Error) return true;
    std::string text;
    llvm::raw_string_ostream os(text);
    llvm::DiagnosticPrinterRawOStream printer(os);
    di.print(printer);
    *errors += os.str() + "\n";
    return true;
  }
};

}  // namespace

bool optimizeModule(llvm::Module &module, llvm::TargetMachine *tm, const EmitOptions &options,
                    std::string *error) {
  if (options.verify) {
    std::string text;
    llvm::raw_string_ostream os(text);
    if (llvm::verifyModule(module, &os)) {
      *error = "internal error: the generated IR is invalid (please report it):\n" + os.str();
      return false;
    }
  }

  llvm::LLVMContext &ctx = module.getContext();
  std::string pass_errors;
  auto saved = ctx.getDiagnosticHandler();
  ctx.setDiagnosticHandler(std::make_unique<CollectingHandler>(&pass_errors));

  llvm::LoopAnalysisManager lam;
  llvm::FunctionAnalysisManager fam;
  llvm::CGSCCAnalysisManager cgam;
  llvm::ModuleAnalysisManager mam;
  llvm::PassBuilder pb(tm);
  cairn::plugin::registerDescriptorPass(pb);
  pb.registerModuleAnalyses(mam);
  pb.registerCGSCCAnalyses(cgam);
  pb.registerFunctionAnalyses(fam);
  pb.registerLoopAnalyses(lam);
  pb.crossRegisterProxies(lam, fam, cgam, mam);
  llvm::ModulePassManager mpm = options.opt_level == 0
                                    ? pb.buildO0DefaultPipeline(llvm::OptimizationLevel::O0)
                                    : pb.buildPerModuleDefaultPipeline(llvm::OptimizationLevel::O2);
  mpm.run(module, mam);
  ctx.setDiagnosticHandler(std::move(saved));
  if (!pass_errors.empty()) {
    *error = "internal error in the descriptor pass (please report it):\n" + pass_errors;
    return false;
  }
  return true;
}

bool emitObject(llvm::Module &module, const EmitOptions &options, const std::string &object_path,
                std::string *error) {
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  std::string triple = llvm::sys::getDefaultTargetTriple();
  std::string lookup_error;
  const llvm::Target *target = llvm::TargetRegistry::lookupTarget(triple, lookup_error);
  if (target == nullptr) {
    *error = "no code generator for " + triple + ": " + lookup_error;
    return false;
  }
  llvm::TargetOptions topts;
  // Module constructors and destructors (the descriptor pass's registration of types and
  // roots, priority 101) go in .init_array.N / .fini_array.N, the sections every ELF linker
  // runs. LLVM's default is the legacy .ctors.N, which only GNU ld's default script folds into
  // .init_array: lld keeps .ctors as a section nothing runs, so a program linked with it never
  // registered its types or its roots (emit.h).
  topts.UseInitArray = true;
  std::unique_ptr<llvm::TargetMachine> tm(target->createTargetMachine(
      triple, "generic", "", topts, llvm::Reloc::PIC_, std::nullopt,
      options.opt_level == 0 ? llvm::CodeGenOptLevel::None : llvm::CodeGenOptLevel::Default));
  module.setTargetTriple(triple);
  module.setDataLayout(tm->createDataLayout());
  module.setPICLevel(llvm::PICLevel::BigPIC);
  module.setPIELevel(llvm::PIELevel::Large);

  if (!optimizeModule(module, tm.get(), options, error)) return false;

  if (!options.ir_path.empty()) {
    std::error_code ec;
    llvm::raw_fd_ostream out(options.ir_path, ec, llvm::sys::fs::OF_Text);
    if (ec) {
      *error = "cannot write " + options.ir_path + ": " + ec.message();
      return false;
    }
    module.print(out, nullptr);
  }

  std::error_code ec;
  llvm::raw_fd_ostream out(object_path, ec, llvm::sys::fs::OF_None);
  if (ec) {
    *error = "cannot write " + object_path + ": " + ec.message();
    return false;
  }
  llvm::legacy::PassManager codegen;
  if (tm->addPassesToEmitFile(codegen, out, nullptr, llvm::CodeGenFileType::ObjectFile)) {
    *error = "the target cannot emit object files";
    return false;
  }
  codegen.run(module);
  out.flush();
  return true;
}

}  // namespace cairn::front
