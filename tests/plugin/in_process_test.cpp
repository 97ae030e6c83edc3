// The pass linked into a program and run in-process, as the front end will: through the static
// library cairn_descriptor_pass and the shared libLLVM, with a diagnostic handler of its own.
#include <gtest/gtest.h>
#include <llvm/AsmParser/Parser.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/DiagnosticInfo.h>
#include <llvm/IR/DiagnosticPrinter.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Support/SourceMgr.h>
#include <llvm/Support/raw_ostream.h>

#include <memory>
#include <string>
#include <vector>

#include "cairn/type.h"
#include "cairn/type_builder.hpp"
#include "cairn_plugin/descriptor_pass.h"

namespace {

// Collects error messages instead of printing them (and instead of exiting at the first).
struct CollectingHandler : llvm::DiagnosticHandler {
  std::vector<std::string> *errors;
  explicit CollectingHandler(std::vector<std::string> *out) : errors(out) {}
  bool handleDiagnostics(const llvm::DiagnosticInfo &info) override {
    if (info.getSeverity() != llvm::DS_Error) return false;
    std::string text;
    llvm::raw_string_ostream stream(text);
    llvm::DiagnosticPrinterRawOStream printer(stream);
    info.print(printer);
    errors->push_back(text);
    return true;
  }
};

struct Compiled {
  std::unique_ptr<llvm::LLVMContext> context = std::make_unique<llvm::LLVMContext>();
  std::unique_ptr<llvm::Module> module;
  std::vector<std::string> errors;
};

// Parses `ir` and runs the pass on it the way the front end will: registered on a PassBuilder.
std::unique_ptr<Compiled> runPass(const std::string &ir, const char *pipeline) {
  auto result = std::make_unique<Compiled>();
  result->context->setDiagnosticHandler(std::make_unique<CollectingHandler>(&result->errors));
  llvm::SMDiagnostic parseError;
  result->module = llvm::parseAssemblyString(ir, parseError, *result->context);
  if (!result->module) {
    ADD_FAILURE() << "IR does not parse: " << parseError.getMessage().str();
    return result;
  }
  llvm::LoopAnalysisManager loops;
  llvm::FunctionAnalysisManager functions;
  llvm::CGSCCAnalysisManager sccs;
  llvm::ModuleAnalysisManager modules;
  llvm::PassBuilder builder;
  cairn::plugin::registerDescriptorPass(builder);
  builder.registerModuleAnalyses(modules);
  builder.registerCGSCCAnalyses(sccs);
  builder.registerFunctionAnalyses(functions);
  builder.registerLoopAnalyses(loops);
  builder.crossRegisterProxies(loops, functions, sccs, modules);
  llvm::ModulePassManager passes;
  if (llvm::Error error = builder.parsePassPipeline(passes, pipeline)) {
    ADD_FAILURE() << "pipeline: " << llvm::toString(std::move(error));
    return result;
  }
  passes.run(*result->module, modules);
  return result;
}

const char *kNodeIR = R"(
%Node = type { i64, ptr addrspace(1) }
@cairn_heap_type_Node = internal global %Node zeroinitializer
!cairn.fields = !{!0}
!0 = !{%Node poison, !"value", !"next"}
declare ptr @cairn_malloc_typed(ptr)
define ptr @make() {
  %p = call ptr @cairn_malloc_typed(ptr @cairn_heap_type_Node)
  ret ptr %p
}
)";

constexpr cairn_field kNodeFields[] = {cairn::Field("value", 0, CAIRN_KIND_I64),
                                       cairn::Field("next", 8, CAIRN_KIND_REF)};

uint64_t nodeFingerprintByHand() { return cairn::PlainType<kNodeFields>("Node", 16).fingerprint; }

void expectNodeDescriptor(const Compiled &compiled) {
  ASSERT_TRUE(compiled.module);
  EXPECT_TRUE(compiled.errors.empty());
  EXPECT_FALSE(llvm::verifyModule(*compiled.module, &llvm::errs()));
  EXPECT_EQ(compiled.module->getGlobalVariable("cairn_heap_type_Node", true), nullptr);
  const llvm::GlobalVariable *descriptor =
      compiled.module->getGlobalVariable("cairn.type.Node", true);
  ASSERT_NE(descriptor, nullptr);
  const auto *init = llvm::cast<llvm::ConstantStruct>(descriptor->getInitializer());
  EXPECT_EQ(llvm::cast<llvm::ConstantInt>(init->getOperand(0))->getZExtValue(), CAIRN_TYPE_ABI);
  EXPECT_EQ(llvm::cast<llvm::ConstantInt>(init->getOperand(2))->getZExtValue(),
            nodeFingerprintByHand());
  EXPECT_EQ(llvm::cast<llvm::ConstantInt>(init->getOperand(4))->getZExtValue(), 16u);
  EXPECT_NE(compiled.module->getFunction("cairn.register_types"), nullptr);
}

TEST(PluginInProcess, NamedPassEmitsTheDescriptor) {
  expectNodeDescriptor(*runPass(kNodeIR, "cairn-descriptors"));
}

TEST(PluginInProcess, DefaultPipelineRunsThePassFirst) {
  expectNodeDescriptor(*runPass(kNodeIR, "default<O2>"));
}

TEST(PluginInProcess, EveryErrorReachesTheHandler) {
  auto compiled = runPass(R"(
%union.U = type { ptr addrspace(1) }
%Holder = type { %union.U }
@cairn_heap_type_Holder = internal global %Holder zeroinitializer
@cairn_heap_type_Count = internal global i64 0
@cairn_heap_type_Node = internal global { i64, ptr addrspace(1) } zeroinitializer
@sink = global ptr @cairn_heap_type_Node
)",
                          "cairn-descriptors");
  ASSERT_EQ(compiled->errors.size(), 3u);
  EXPECT_NE(compiled->errors[0].find("union holding a reference"), std::string::npos);
  EXPECT_NE(compiled->errors[1].find("not a struct"), std::string::npos);
  EXPECT_NE(compiled->errors[2].find("unknown use of the marker"), std::string::npos);
  // Types in error are left alone, and the module stays valid.
  EXPECT_FALSE(llvm::verifyModule(*compiled->module, &llvm::errs()));
  EXPECT_NE(compiled->module->getGlobalVariable("cairn_heap_type_Node", true), nullptr);
}

TEST(PluginInProcess, MethodTypeRefAndRootErrorsAllReachTheHandler) {
  auto compiled = runPass(R"(
%Node = type { i64 }
%Loose = type { i64 }
%Elem = type { i64, ptr addrspace(1) }
@cairn_heap_type_Node = internal global %Node zeroinitializer
@cairn_heap_array_Elems = internal global %Elem zeroinitializer
@table = global ptr null
@current = thread_local global ptr addrspace(1) null
!cairn.methods = !{!0, !1, !2}
!0 = !{%Loose poison, ptr @show}
!1 = !{%Elem poison, ptr @show}
!2 = !{%Node poison, ptr @show, !"show", ptr @table}
declare void @show(ptr addrspace(1))
declare ptr @cairn_type_ref(ptr)
define ptr @what(ptr %p) {
  %t = call ptr @cairn_type_ref(ptr %p)
  ret ptr %t
}
)",
                          "cairn-descriptors");
  ASSERT_EQ(compiled->errors.size(), 6u);
  EXPECT_NE(compiled->errors[0].find("does not name a heap type"), std::string::npos);
  EXPECT_NE(compiled->errors[1].find("methods for %Loose, which is not a plain heap type"),
            std::string::npos);
  EXPECT_NE(compiled->errors[2].find("methods for %Elem, which is not a plain heap type"),
            std::string::npos);
  EXPECT_NE(compiled->errors[3].find("slot 1 is `!\"show\"`, not a function"), std::string::npos);
  EXPECT_NE(compiled->errors[4].find("slot 2 is `ptr @table`, not a function"), std::string::npos);
  EXPECT_NE(compiled->errors[5].find("@current is thread-local"), std::string::npos);
  EXPECT_FALSE(llvm::verifyModule(*compiled->module, &llvm::errs()));
}

TEST(PluginInProcess, MethodsTypeRefsAndRootsInTheDefaultPipeline) {
  auto compiled = runPass(R"(
%Node = type { i64, ptr addrspace(1) }
@cairn_heap_type_Node = internal global %Node zeroinitializer
@last = internal global ptr addrspace(1) null
!cairn.methods = !{!0}
!0 = !{%Node poison, ptr @Node.show}
define internal void @Node.show(ptr addrspace(1) %self) {
  ret void
}
declare ptr @cairn_type_ref(ptr)
define ptr @type() {
  %t = call ptr @cairn_type_ref(ptr @cairn_heap_type_Node)
  ret ptr %t
}
define void @keep(ptr addrspace(1) %n) {
  store ptr addrspace(1) %n, ptr @last
  ret void
}
)",
                          "default<O2>");
  ASSERT_TRUE(compiled->module);
  EXPECT_TRUE(compiled->errors.empty());
  EXPECT_FALSE(llvm::verifyModule(*compiled->module, &llvm::errs()));
  const llvm::GlobalVariable *descriptor =
      compiled->module->getGlobalVariable("cairn.type.Node", true);
  ASSERT_NE(descriptor, nullptr);
  const auto *init = llvm::cast<llvm::ConstantStruct>(descriptor->getInitializer());
  EXPECT_EQ(llvm::cast<llvm::ConstantInt>(init->getOperand(13))->getZExtValue(), 1u);
  const auto *methods = llvm::dyn_cast<llvm::GlobalVariable>(init->getOperand(12));
  ASSERT_NE(methods, nullptr);
  EXPECT_EQ(methods->getInitializer()->getOperand(0), compiled->module->getFunction("Node.show"));
  EXPECT_EQ(compiled->module->getFunction("cairn_type_ref"), nullptr);
  EXPECT_NE(compiled->module->getFunction("cairn.register_roots"), nullptr);
  EXPECT_NE(compiled->module->getFunction("cairn.unregister_roots"), nullptr);
  EXPECT_NE(compiled->module->getGlobalVariable("last", true), nullptr);
}

}  // namespace
