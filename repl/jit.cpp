// The REPL's JIT (jit.h).
#include "jit.h"

#include <llvm/ExecutionEngine/Orc/ExecutionUtils.h>
#include <llvm/ExecutionEngine/Orc/IndirectionUtils.h>
#include <llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h>
#include <llvm/ExecutionEngine/Orc/LLJIT.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/TargetSelect.h>

#include <algorithm>
#include <vector>

namespace cairn::repl {
namespace {

// Moves the entries of `array` (llvm.global_ctors or llvm.global_dtors) into a new external
// function `name` that calls them in priority order (J1). Returns "" if there were none.
std::string collectStructors(llvm::Module &m, const char *array, const std::string &name) {
  llvm::GlobalVariable *gv = m.getGlobalVariable(array);
  if (gv == nullptr) return "";
  std::vector<std::pair<uint64_t, llvm::Function *>> entries;
  if (gv->hasInitializer())
    if (auto *init = llvm::dyn_cast<llvm::ConstantArray>(gv->getInitializer()))
      for (llvm::Use &op : init->operands())
        if (auto *cs = llvm::dyn_cast<llvm::ConstantStruct>(op.get()))
          if (auto *fn = llvm::dyn_cast<llvm::Function>(cs->getOperand(1)->stripPointerCasts()))
            entries.push_back(
                {llvm::cast<llvm::ConstantInt>(cs->getOperand(0))->getZExtValue(), fn});
  gv->eraseFromParent();
  if (entries.empty()) return "";
  std::stable_sort(entries.begin(), entries.end(),
                   [](const auto &a, const auto &b) { return a.first < b.first; });
  llvm::LLVMContext &ctx = m.getContext();
  llvm::Function *f =
      llvm::Function::Create(llvm::FunctionType::get(llvm::Type::getVoidTy(ctx), false),
                             llvm::GlobalValue::ExternalLinkage, name, m);
  llvm::IRBuilder<> b(llvm::BasicBlock::Create(ctx, "entry", f));
  for (const auto &[priority, fn] : entries) b.CreateCall(fn);
  b.CreateRetVoid();
  return name;
}

llvm::Error errorOf(const std::string &message) {
  return llvm::make_error<llvm::StringError>(message, llvm::inconvertibleErrorCode());
}

}  // namespace

std::unique_ptr<Jit> Jit::create(std::string *error) {
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  auto jtmb = llvm::orc::JITTargetMachineBuilder::detectHost();
  if (!jtmb) {
    *error = llvm::toString(jtmb.takeError());
    return nullptr;
  }
  jtmb->setCodeGenOptLevel(llvm::CodeGenOptLevel::Default);
  std::unique_ptr<Jit> jit(new Jit());
  auto tm = jtmb->createTargetMachine();
  if (!tm) {
    *error = llvm::toString(tm.takeError());
    return nullptr;
  }
  jit->tm_ = std::move(*tm);
  jit->triple_ = jtmb->getTargetTriple().str();
  auto lljit = llvm::orc::LLJITBuilder().setJITTargetMachineBuilder(*jtmb).create();
  if (!lljit) {
    *error = llvm::toString(lljit.takeError());
    return nullptr;
  }
  jit->lljit_ = std::move(*lljit);
  // Kept for explain(), not printed by LLVM to standard error.
  jit->lljit_->getExecutionSession().setErrorReporter([j = jit.get()](llvm::Error e) {
    llvm::handleAllErrors(
        std::move(e),
        [j](const llvm::orc::SymbolsNotFound &missing) {
          for (const llvm::orc::SymbolStringPtr &name : missing.getSymbols())
            j->missing_.push_back((*name).str());
        },
        [j](const llvm::ErrorInfoBase &other) { j->session_errors_.push_back(other.message()); });
  });
  // The runtime (linked into this executable, its symbols exported) and the C library.
  auto gen = llvm::orc::DynamicLibrarySearchGenerator::GetForCurrentProcess(
      jit->lljit_->getDataLayout().getGlobalPrefix());
  if (!gen) {
    *error = llvm::toString(gen.takeError());
    return nullptr;
  }
  jit->lljit_->getMainJITDylib().addGenerator(std::move(*gen));
  auto builder = llvm::orc::createLocalIndirectStubsManagerBuilder(jtmb->getTargetTriple());
  if (!builder) {
    *error = "no indirect stubs for " + jit->triple_;
    return nullptr;
  }
  jit->stubs_ = builder();
  return jit;
}

Jit::~Jit() = default;

std::string Jit::explain(llvm::Error error) {
  std::string message;
  llvm::handleAllErrors(
      std::move(error),
      [&](const llvm::orc::SymbolsNotFound &missing) {
        for (const llvm::orc::SymbolStringPtr &name : missing.getSymbols())
          missing_.push_back((*name).str());
      },
      [&](const llvm::ErrorInfoBase &other) { message = other.message(); });
  std::string text;
  if (!missing_.empty()) {
    std::sort(missing_.begin(), missing_.end());
    missing_.erase(std::unique(missing_.begin(), missing_.end()), missing_.end());
    // An extern fn the process lacks is an error at its calls (UnitSpec::extern_missing):
    // a symbol missing here is one the session itself should have defined.
    std::string names;
    for (const std::string &n : missing_) names += (names.empty() ? "'" : ", '") + n + "'";
    text = "internal error: the JIT found no symbol " + names;
  } else {
    text = "internal error: " + message;
    for (const std::string &e : session_errors_) text += "; " + e;
  }
  missing_.clear();
  session_errors_.clear();
  return text;
}

const llvm::DataLayout &Jit::dataLayout() const { return lljit_->getDataLayout(); }

llvm::Error Jit::add(llvm::orc::ThreadSafeModule module, std::shared_ptr<Unit> *out) {
  auto unit = std::make_shared<Unit>();
  module.withModuleDo([&](llvm::Module &m) {
    unit->name = m.getModuleIdentifier();
    unit->registers_types = m.getFunction("cairn.register_types") != nullptr;
    unit->constructors = collectStructors(m, "llvm.global_ctors", unit->name + ".ctors");
    unit->destructors = collectStructors(m, "llvm.global_dtors", unit->name + ".dtors");
  });
  unit->tracker = lljit_->getMainJITDylib().createResourceTracker();
  if (llvm::Error e = lljit_->addIRModule(unit->tracker, std::move(module))) return e;
  *out = std::move(unit);
  return llvm::Error::success();
}

llvm::Expected<uint64_t> Jit::lookup(const std::string &symbol) {
  auto addr = lljit_->lookup(symbol);
  if (!addr) return addr.takeError();
  return addr->getValue();
}

llvm::Error Jit::runConstructors(Unit &unit) {
  if (unit.constructed || unit.constructors.empty()) {
    unit.constructed = true;
    return llvm::Error::success();
  }
  auto addr = lookup(unit.constructors);
  if (!addr) return addr.takeError();
  unit.constructed = true;
  reinterpret_cast<void (*)()>(*addr)();
  return llvm::Error::success();
}

llvm::Error Jit::remove(Unit &unit) {
  if (unit.removed) return llvm::Error::success();
  unit.removed = true;
  if (unit.constructed && !unit.destructors.empty()) {
    auto addr = lookup(unit.destructors);
    if (!addr) return addr.takeError();
    reinterpret_cast<void (*)()>(*addr)();
  }
  // The runtime's type registry knows each registered descriptor by its address, for good (it
  // has no unregistration): freeing one would let a later unit's descriptor be placed at that
  // address and be taken for the old type (its fingerprint and method table: a class defined
  // after an input that made an object got another's, and its methods crashed). Such a unit's
  // code and data stay.
  if (unit.constructed && unit.registers_types) return llvm::Error::success();
  return unit.tracker->remove();
}

llvm::Error Jit::ensureStub(const std::string &name) {
  if (hasStub(name)) return llvm::Error::success();
  if (llvm::Error e =
          stubs_->createStub(name, llvm::orc::ExecutorAddr(),
                             llvm::JITSymbolFlags::Exported | llvm::JITSymbolFlags::Callable))
    return e;
  llvm::orc::ExecutorSymbolDef def = stubs_->findStub(name, false);
  if (!def.getAddress()) return errorOf("the stub '" + name + "' was not made");
  llvm::orc::SymbolMap symbols;
  symbols[lljit_->mangleAndIntern(name)] = def;
  return lljit_->getMainJITDylib().define(llvm::orc::absoluteSymbols(std::move(symbols)));
}

bool Jit::hasStub(const std::string &name) const {
  return static_cast<bool>(stubs_->findStub(name, false).getAddress());
}

llvm::Error Jit::pointStub(const std::string &name, uint64_t address) {
  return stubs_->updatePointer(name, llvm::orc::ExecutorAddr(address));
}

}  // namespace cairn::repl
