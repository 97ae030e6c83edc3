// The object file front::emitObject writes (lower/emit.h): its constructors and destructors are
// in .init_array / .fini_array sections, which every ELF linker runs, and never in the legacy
// .ctors / .dtors ones, which only GNU ld's default script folds into .init_array. With .ctors, a
// program linked with lld never ran the descriptor pass's registration of its types and roots
// (its own database's types were unknown in its next run, its module variables were not roots).
// And front::emitObjects's parts: a split module's functions each defined in exactly one object,
// its locals reachable from the others, its constructor lists in the first.
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
#include <set>
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

Sections readSections(const std::string &path);

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
  Sections sections = readSections(path);
  unlink(path.c_str());
  return sections;
}

// The sections of the object file at `path`, with the symbols their relocations name.
Sections readSections(const std::string &path) {
  Sections sections;
  auto object = llvm::object::ObjectFile::createObjectFile(path);
  if (!object) {
    ADD_FAILURE() << "cannot read the object: " << llvm::toString(object.takeError());
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

// The symbols an object defines (functions and data) and those it only references.
struct Symbols {
  std::set<std::string> defined, undefined;
};

Symbols readSymbols(const std::string &path) {
  Symbols out;
  auto object = llvm::object::ObjectFile::createObjectFile(path);
  if (!object) {
    ADD_FAILURE() << "cannot read " << path << ": " << llvm::toString(object.takeError());
    return out;
  }
  for (const llvm::object::SymbolRef &symbol : object->getBinary()->symbols()) {
    llvm::Expected<llvm::StringRef> name = symbol.getName();
    llvm::Expected<uint32_t> flags = symbol.getFlags();
    llvm::Expected<llvm::object::SymbolRef::Type> type = symbol.getType();
    if (!name || !flags || !type || name->empty()) {
      if (!name) llvm::consumeError(name.takeError());
      if (!flags) llvm::consumeError(flags.takeError());
      if (!type) llvm::consumeError(type.takeError());
      continue;
    }
    if (*type == llvm::object::SymbolRef::ST_File || *type == llvm::object::SymbolRef::ST_Debug)
      continue;
    if (*flags & llvm::object::SymbolRef::SF_Undefined)
      out.undefined.insert(name->str());
    else
      out.defined.insert(name->str());
  }
  return out;
}

TEST(Emit, SplitModuleDefinesEachFunctionOnceAndKeepsConstructorsInPartZero) {
  llvm::LLVMContext context;
  std::unique_ptr<llvm::Module> module = moduleWithConstructors(context);
  // Internal functions that call one another, and a private constant they use: after the split
  // some caller and callee are in different parts, so each must be a (hidden) global symbol.
  llvm::LLVMContext &c = context;
  llvm::FunctionCallee use = module->getOrInsertFunction(
      "cairn_emit_test_use",
      llvm::FunctionType::get(llvm::Type::getVoidTy(c), {llvm::PointerType::get(c, 0)}, false));
  auto *text =
      new llvm::GlobalVariable(*module, llvm::ArrayType::get(llvm::Type::getInt8Ty(c), 3), true,
                               llvm::GlobalValue::PrivateLinkage,
                               llvm::ConstantDataArray::getString(c, "hi", true), "cairn.str");
  llvm::Function *previous = nullptr;
  std::vector<std::string> names;
  for (int i = 0; i < 8; ++i) {
    auto *f = llvm::Function::Create(llvm::FunctionType::get(llvm::Type::getVoidTy(c), false),
                                     llvm::GlobalValue::InternalLinkage,
                                     "local" + std::to_string(i), *module);
    llvm::IRBuilder<> b(llvm::BasicBlock::Create(c, "entry", f));
    b.CreateCall(use, {text});
    if (previous != nullptr) b.CreateCall(previous);
    b.CreateRetVoid();
    previous = f;
    names.push_back(f->getName().str());
  }
  // register_late calls the last of the chain, so all of them are live.
  llvm::Function *late = module->getFunction("register_late");
  late->getEntryBlock().getTerminator()->eraseFromParent();
  llvm::IRBuilder<> b(&late->getEntryBlock());
  b.CreateCall(previous);
  b.CreateRetVoid();

  std::string path = ::testing::TempDir() + "cairn-split-test-XXXXXX.o";
  const int fd = mkstemps(path.data(), 2);
  ASSERT_GE(fd, 0);
  close(fd);
  EmitOptions options;
  options.opt_level = 0;
  options.threads = 2;
  options.split_instructions = 0;
  std::vector<std::string> objects;
  std::string error;
  ASSERT_TRUE(emitObjects(*module, options, path, &objects, &error)) << error;
  ASSERT_EQ(objects.size(), 2u);
  EXPECT_EQ(objects[0], path);
  EXPECT_EQ(objects[1], path.substr(0, path.size() - 2) + ".1.o");

  std::vector<Symbols> parts{readSymbols(objects[0]), readSymbols(objects[1])};
  names.insert(names.end(),
               {"register_early", "register_late", "unregister_early", "unregister_late"});
  for (const std::string &name : names) {
    int defined = parts[0].defined.count(name) + parts[1].defined.count(name);
    EXPECT_EQ(defined, 1) << name << " is defined in " << defined << " parts";
  }
  EXPECT_FALSE(parts[0].defined.empty());
  EXPECT_GT(parts[1].defined.size(), 0u) << "the second part generated nothing";
  // Whatever one part calls of another's is an undefined symbol there, defined in the other.
  for (int p = 0; p < 2; ++p) {
    for (const std::string &name : parts[p].undefined) {
      if (name.rfind("local", 0) == 0 || name == "cairn.str") {
        EXPECT_EQ(parts[1 - p].defined.count(name), 1u) << name << " is defined nowhere";
      }
    }
  }
  // The private text is defined once, in part 0 (the variables stay there).
  EXPECT_EQ(parts[0].defined.count("cairn.str"), 1u);
  EXPECT_EQ(parts[1].defined.count("cairn.str"), 0u);

  // The constructor lists are in part 0 only.
  auto object = llvm::object::ObjectFile::createObjectFile(objects[1]);
  ASSERT_TRUE(static_cast<bool>(object));
  for (const llvm::object::SectionRef &section : object->getBinary()->sections()) {
    llvm::Expected<llvm::StringRef> name = section.getName();
    ASSERT_TRUE(static_cast<bool>(name));
    EXPECT_FALSE(name->starts_with(".init_array")) << "part 1 has " << name->str();
    EXPECT_FALSE(name->starts_with(".fini_array")) << "part 1 has " << name->str();
  }
  unlink(objects[1].c_str());
  // Part 0 has them, as an unsplit object would.
  expectInitArrays(readSections(objects[0]));
  unlink(objects[0].c_str());
}

// Whatever -j says, no more parts than functions, and none below half the split size.
TEST(Emit, PartsAreCappedByFunctionsAndSize) {
  // split_below: split_instructions as the module's instruction count minus this (0: forced).
  auto partsFor = [](unsigned threads, size_t split_below) -> size_t {
    llvm::LLVMContext context;
    std::unique_ptr<llvm::Module> module = moduleWithConstructors(context);
    size_t defined = 0, count = 0;
    for (const llvm::Function &f : *module) {
      defined += f.isDeclaration() ? 0 : 1;
      count += f.getInstructionCount();
    }
    EXPECT_GE(defined, 3u);
    EXPECT_GT(count, split_below);
    const size_t split_instructions = split_below == 0 ? 0 : count - split_below;
    std::string path = ::testing::TempDir() + "cairn-cap-test-XXXXXX.o";
    const int fd = mkstemps(path.data(), 2);
    EXPECT_GE(fd, 0);
    close(fd);
    EmitOptions options;
    options.opt_level = 0;
    options.threads = threads;
    options.split_instructions = split_instructions;
    std::vector<std::string> objects;
    std::string error;
    EXPECT_TRUE(emitObjects(*module, options, path, &objects, &error)) << error;
    for (const std::string &o : objects) unlink(o.c_str());
    EXPECT_LE(objects.size(), defined);
    return objects.size();
  };
  EXPECT_GE(partsFor(64, 0), 3u);  // split forced: as many parts as functions allow
  // Just over the split size: two parts of about half of it each, not 64 smaller ones.
  EXPECT_EQ(partsFor(64, 1), 2u);
}

}  // namespace
}  // namespace cairn::front
