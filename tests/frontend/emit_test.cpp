// The object file front::emitObject writes (lower/emit.h): its constructors and destructors are
// in .init_array / .fini_array sections, which every ELF linker runs, and never in the legacy
// .ctors / .dtors ones, which only GNU ld's default script folds into .init_array. With .ctors, a
// program linked with lld never ran the descriptor pass's registration of its types and roots
// (its own database's types were unknown in its next run, its module variables were not roots).
#include "lower/emit.h"

#include <gtest/gtest.h>
#include <llvm/IR/BasicBlock.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/Object/ObjectFile.h>
#include <llvm/Transforms/Utils/ModuleUtils.h>
#include <unistd.h>

#include <cstdlib>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace cairn::front {
namespace {

// An external function `void name()` that calls `callee` (so it survives -O2, and relocations
// name it rather than a section).
llvm::Function *makeFunction(llvm::Module &module, const std::string &name,
                             llvm::FunctionCallee callee) {
  llvm::LLVMContext &context = module.getContext();
  auto *function =
      llvm::Function::Create(llvm::FunctionType::get(llvm::Type::getVoidTy(context), false),
                             llvm::GlobalValue::ExternalLinkage, name, module);
  llvm::IRBuilder<> builder(llvm::BasicBlock::Create(context, "entry", function));
  builder.CreateCall(callee);
  builder.CreateRetVoid();
  return function;
}

// Section name -> the names of the symbols its relocations point at, in order.
using Sections = std::map<std::string, std::vector<std::string>>;

// Emits `module` at `opt_level` into a temporary object file and reads its sections back.
Sections emitAndRead(llvm::Module &module, int opt_level) {
  std::string path = ::testing::TempDir() + "cairn-emit-test-XXXXXX";
  const int fd = mkstemp(path.data());
  EXPECT_GE(fd, 0);
  close(fd);
  EmitOptions options;
  options.opt_level = opt_level;
  std::string error;
  EXPECT_TRUE(emitObject(module, options, path, &error)) << error;

  Sections sections;
  auto object = llvm::object::ObjectFile::createObjectFile(path);
  if (!object) {
    ADD_FAILURE() << "cannot read the object: " << llvm::toString(object.takeError());
    unlink(path.c_str());
    return sections;
  }
  // Every section by name; the relocations of an ELF section are in its own relocation section
  // (.rela.init_array.101 for .init_array.101), whose targets are listed under the section they
  // relocate.
  for (const llvm::object::SectionRef &section : object->getBinary()->sections()) {
    llvm::Expected<llvm::StringRef> name = section.getName();
    if (!name) {
      ADD_FAILURE() << llvm::toString(name.takeError());
      continue;
    }
    sections[name->str()];
  }
  for (const llvm::object::SectionRef &section : object->getBinary()->sections()) {
    llvm::Expected<llvm::object::section_iterator> relocated = section.getRelocatedSection();
    if (!relocated) {
      ADD_FAILURE() << llvm::toString(relocated.takeError());
      continue;
    }
    if (*relocated == object->getBinary()->section_end()) continue;
    llvm::Expected<llvm::StringRef> name = (*relocated)->getName();
    if (!name) {
      ADD_FAILURE() << llvm::toString(name.takeError());
      continue;
    }
    std::vector<std::string> &targets = sections[name->str()];
    for (const llvm::object::RelocationRef &relocation : section.relocations()) {
      llvm::Expected<llvm::StringRef> symbol = relocation.getSymbol()->getName();
      targets.push_back(symbol ? symbol->str() : llvm::toString(symbol.takeError()));
    }
  }
  unlink(path.c_str());
  return sections;
}

// A module with what the descriptor pass adds (a constructor and a destructor of priority 101)
// and a constructor and a destructor of the default priority.
std::unique_ptr<llvm::Module> moduleWithConstructors(llvm::LLVMContext &context) {
  auto module = std::make_unique<llvm::Module>("ctors", context);
  llvm::FunctionCallee work = module->getOrInsertFunction(
      "cairn_emit_test_work", llvm::FunctionType::get(llvm::Type::getVoidTy(context), false));
  llvm::appendToGlobalCtors(*module, makeFunction(*module, "register_early", work), 101);
  llvm::appendToGlobalCtors(*module, makeFunction(*module, "register_late", work), 65535);
  llvm::appendToGlobalDtors(*module, makeFunction(*module, "unregister_early", work), 101);
  llvm::appendToGlobalDtors(*module, makeFunction(*module, "unregister_late", work), 65535);
  return module;
}

void expectInitArrays(const Sections &sections) {
  for (const auto &section : sections) {
    const std::string &name = section.first;
    EXPECT_NE(name.rfind(".ctors", 0), 0u) << "a legacy constructor section: " << name;
    EXPECT_NE(name.rfind(".dtors", 0), 0u) << "a legacy destructor section: " << name;
  }
  // Priority N goes in .init_array.N (linkers sort those by N), the default in .init_array.
  auto targetsOf = [&](const std::string &name) {
    auto it = sections.find(name);
    return it == sections.end() ? std::vector<std::string>{"(no section " + name + ")"}
                                : it->second;
  };
  EXPECT_EQ(targetsOf(".init_array.101"), std::vector<std::string>{"register_early"});
  EXPECT_EQ(targetsOf(".init_array"), std::vector<std::string>{"register_late"});
  EXPECT_EQ(targetsOf(".fini_array.101"), std::vector<std::string>{"unregister_early"});
  EXPECT_EQ(targetsOf(".fini_array"), std::vector<std::string>{"unregister_late"});
}

TEST(Emit, ConstructorsGoInInitArrayOptimized) {
  llvm::LLVMContext context;
  std::unique_ptr<llvm::Module> module = moduleWithConstructors(context);
  expectInitArrays(emitAndRead(*module, 2));
}

TEST(Emit, ConstructorsGoInInitArrayUnoptimized) {
  llvm::LLVMContext context;
  std::unique_ptr<llvm::Module> module = moduleWithConstructors(context);
  expectInitArrays(emitAndRead(*module, 0));
}

}  // namespace
}  // namespace cairn::front
