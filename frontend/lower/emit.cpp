// Optimizing and emitting a module (emit.h).
#include "lower/emit.h"

#include <llvm/Analysis/CGSCCPassManager.h>
#include <llvm/Analysis/LoopAnalysisManager.h>
#include <llvm/Bitcode/BitcodeReader.h>
#include <llvm/Bitcode/BitcodeWriter.h>
#include <llvm/CodeGen/MachineModuleInfo.h>
#include <llvm/CodeGen/Passes.h>
#include <llvm/CodeGen/TargetPassConfig.h>
#include <llvm/IR/DiagnosticInfo.h>
#include <llvm/IR/DiagnosticPrinter.h>
#include <llvm/IR/IntrinsicInst.h>
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

#include <algorithm>
#include <chrono>
#include <map>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "cairn_plugin/descriptor_pass.h"
#include "lower/lower.h"

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

namespace {

double secondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// Records a phase's time in options.times (if set) and restarts the clock.
void lap(const EmitOptions &options, const char *phase,
         std::chrono::steady_clock::time_point *start) {
  if (options.times) options.times->emplace_back(phase, secondsSince(*start));
  *start = std::chrono::steady_clock::now();
}

}  // namespace

bool optimizeModule(llvm::Module &module, llvm::TargetMachine *tm, const EmitOptions &options,
                    std::string *error) {
  auto start = std::chrono::steady_clock::now();
  if (options.verify) {
    std::string text;
    llvm::raw_string_ostream os(text);
    if (llvm::verifyModule(module, &os)) {
      *error = "internal error: the generated IR is invalid (please report it):\n" + os.str();
      return false;
    }
    lap(options, "verify", &start);
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
  lap(options, "passes", &start);
  ctx.setDiagnosticHandler(std::move(saved));
  if (!pass_errors.empty()) {
    *error = "internal error in the descriptor pass (please report it):\n" + pass_errors;
    return false;
  }
  return true;
}

namespace {

// The host's target machine, position-independent code, at the given level.
std::unique_ptr<llvm::TargetMachine> makeTargetMachine(int opt_level, std::string *error) {
  std::string triple = llvm::sys::getDefaultTargetTriple();
  std::string lookup_error;
  const llvm::Target *target = llvm::TargetRegistry::lookupTarget(triple, lookup_error);
  if (target == nullptr) {
    *error = "no code generator for " + triple + ": " + lookup_error;
    return nullptr;
  }
  llvm::TargetOptions topts;
  // Module constructors and destructors (the descriptor pass's registration of types and
  // roots, priority 101) go in .init_array.N / .fini_array.N, the sections every ELF linker
  // runs. LLVM's default is the legacy .ctors.N, which only GNU ld's default script folds into
  // .init_array: lld keeps .ctors as a section nothing runs, so a program linked with it never
  // registered its types or its roots (emit.h).
  topts.UseInitArray = true;
  // -O0: every jump is emitted in its long form at once, so the assembler does not iterate its
  // layout to grow short ones (a tenth of an -O0 build went to that); the code is a little
  // larger, which -O0 code does not mind.
  topts.MCOptions.MCRelaxAll = opt_level == 0;
  return std::unique_ptr<llvm::TargetMachine>(target->createTargetMachine(
      triple, "generic", "", topts, llvm::Reloc::PIC_, std::nullopt,
      opt_level == 0 ? llvm::CodeGenOptLevel::None : llvm::CodeGenOptLevel::Default));
}

// Whether the module tells the debugger about any variable (a dbg.value or dbg.declare, as a
// record or an intrinsic). Lowering emits line tables only, so no module of a program does.
bool describesVariables(const llvm::Module &module) {
  for (const llvm::Function &f : module)
    for (const llvm::BasicBlock &block : f)
      for (const llvm::Instruction &inst : block)
        if (inst.hasDbgRecords() || llvm::isa<llvm::DbgVariableIntrinsic>(inst)) return true;
  return false;
}

// The passes that turn a module into an object file: the target's standard code generation
// pipeline and its object writer, as addPassesToEmitFile makes them, except
// - without variables, LiveDebugValues and RemoveRedundantDebugValues: the first carries
//   variables' locations from block to block; with none to carry it still walked every
//   instruction of every function with debug info, an eighth of an -O0 build;
// - the passes for what lowering never emits: funclets (Windows exception handling), stack
//   maps and patch points, XRay, fentry and patchable-function attributes, sanitizer
//   metadata. Each finds nothing to do but still visits every function (about 2 us a function
//   each, a few per cent of an -O0 build between them).
// False if the target cannot.
bool addObjectPasses(llvm::legacy::PassManager &pm, llvm::TargetMachine &tm,
                     llvm::raw_pwrite_stream &out, bool variables) {
  auto &target = static_cast<llvm::LLVMTargetMachine &>(tm);
  auto *info = new llvm::MachineModuleInfoWrapperPass(&target);  // owned by pm
  llvm::TargetPassConfig *config = target.createPassConfig(pm);  // owned by pm
  config->setDisableVerify(true);
  pm.add(config);
  pm.add(info);
  if (!variables) {
    config->disablePass(&llvm::LiveDebugValuesID);
    config->disablePass(&llvm::RemoveRedundantDebugValuesID);
  }
  for (llvm::AnalysisID unused :
       {&llvm::FuncletLayoutID, &llvm::StackMapLivenessID, &llvm::XRayInstrumentationID,
        &llvm::FEntryInserterID, &llvm::PatchableFunctionID,
        &llvm::MachineSanitizerBinaryMetadataID})
    config->disablePass(unused);
  if (config->addISelPasses()) return false;
  config->addMachinePasses();
  config->setInitialized();
  if (target.addAsmPrinter(pm, out, nullptr, llvm::CodeGenFileType::ObjectFile,
                           info->getMMI().getContext()))
    return false;
  pm.add(llvm::createFreeMachineFunctionPass());
  return true;
}

// Code generation of `module` (target and layout set) into an object file at `path`.
bool generate(llvm::Module &module, llvm::TargetMachine &tm, const std::string &path,
              std::string *error) {
  std::error_code ec;
  llvm::raw_fd_ostream out(path, ec, llvm::sys::fs::OF_None);
  if (ec) {
    *error = "cannot write " + path + ": " + ec.message();
    return false;
  }
  llvm::legacy::PassManager codegen;
  if (!addObjectPasses(codegen, tm, out, describesVariables(module))) {
    *error = "the target cannot emit object files";
    return false;
  }
  codegen.run(module);
  out.close();  // a failure to close (a full disk's last write) is checked here too
  if (out.has_error()) {
    *error = "cannot write " + path + ": " + out.error().message();
    out.clear_error();
    return false;
  }
  return true;
}

// Part i's object: object_path for 0, else object_path with ".i.o" for its ".o".
std::string partPath(const std::string &object_path, unsigned i) {
  if (i == 0) return object_path;
  std::string stem = object_path;
  if (stem.size() > 2 && stem.compare(stem.size() - 2, 2, ".o") == 0) stem.resize(stem.size() - 2);
  return stem + "." + std::to_string(i) + ".o";
}

size_t instructionCount(const llvm::Module &module) {
  size_t n = 0;
  for (const llvm::Function &f : module) n += f.getInstructionCount();
  return n;
}

// Which part generates each function defined in the module: the largest first, each to the
// part with the fewest instructions so far. Global variables and the module's constructor lists
// stay in part 0.
std::map<std::string, unsigned> assignParts(llvm::Module &module, unsigned parts) {
  std::vector<std::pair<size_t, llvm::Function *>> bySize;
  for (llvm::Function &f : module)
    if (!f.isDeclaration()) bySize.emplace_back(f.getInstructionCount(), &f);
  std::stable_sort(bySize.begin(), bySize.end(),
                   [](const auto &a, const auto &b) { return a.first > b.first; });
  std::vector<size_t> load(parts, 0);
  std::map<std::string, unsigned> part;
  for (const auto &[size, f] : bySize) {
    unsigned lightest =
        static_cast<unsigned>(std::min_element(load.begin(), load.end()) - load.begin());
    load[lightest] += size;
    part[f->getName().str()] = lightest;
  }
  return part;
}

// A digest of what twins (E1) share, in module order: the name and linkage of every global
// value not their own (lower.h, kCairnOwn) and the size of each such variable's initializer.
// Twins lowered alike agree on it; a module tagged kCairnTwinUnfit disagrees with every other.
uint64_t sharedShape(const llvm::Module &module, unsigned twin) {
  uint64_t h = 1469598103934665603ull;
  auto mix = [&h](uint64_t v) { h = (h ^ v) * 1099511628211ull; };
  auto mixName = [&mix](llvm::StringRef name) {
    mix(name.size());
    for (char c : name) mix(static_cast<unsigned char>(c));
  };
  const llvm::DataLayout &layout = module.getDataLayout();
  for (const llvm::Function &f : module) {
    if (f.hasMetadata(front::kCairnOwn)) continue;
    mixName(f.getName());
    mix(f.getLinkage());
  }
  for (const llvm::GlobalVariable &g : module.globals()) {
    if (g.hasMetadata(front::kCairnOwn)) continue;
    mixName(g.getName());
    mix(g.getLinkage());
    mix(g.hasInitializer() ? layout.getTypeAllocSize(g.getValueType()).getFixedValue() + 1 : 0);
  }
  if (module.getNamedMetadata(front::kCairnTwinUnfit) != nullptr) mix(twin + 1);
  return h;
}

// Gives every local symbol (internal or private: functions, text, locations, descriptors) a
// hidden global one, so that a part can reach what another part defines; named uniquely first.
// Twins (E1): not what a twin made for itself (kCairnOwn), which no other part reaches.
void externalizeLocals(llvm::Module &module) {
  auto externalize = [](llvm::GlobalValue &gv) {
    if (!gv.hasLocalLinkage()) return;
    if (auto *object = llvm::dyn_cast<llvm::GlobalObject>(&gv);
        object && object->hasMetadata(front::kCairnOwn))
      return;
    if (!gv.hasName()) gv.setName("cairn.part.unnamed");
    gv.setLinkage(llvm::GlobalValue::ExternalLinkage);
    gv.setVisibility(llvm::GlobalValue::HiddenVisibility);
  };
  for (llvm::Function &f : module) externalize(f);
  for (llvm::GlobalVariable &g : module.globals())
    if (!g.getName().starts_with("llvm.")) externalize(g);
  for (llvm::GlobalAlias &a : module.aliases()) externalize(a);
}

// Keeps in `module` only what part `self` generates: the other parts' function bodies become
// declarations; outside part 0, so do the global variables, and the constructor and used lists
// go (part 0 has them).
void keepPart(llvm::Module &module, const std::map<std::string, unsigned> &parts, unsigned self) {
  for (llvm::Function &f : module) {
    auto it = parts.find(f.getName().str());
    if (it != parts.end() && it->second != self) f.deleteBody();
  }
  if (self == 0) return;
  std::vector<llvm::GlobalVariable *> lists;
  for (llvm::GlobalVariable &g : module.globals()) {
    if (g.getName().starts_with("llvm.")) {
      if (g.hasAppendingLinkage()) lists.push_back(&g);
      continue;
    }
    if (g.isDeclaration()) continue;
    g.setInitializer(nullptr);
    g.setLinkage(llvm::GlobalValue::ExternalLinkage);
    g.setComdat(nullptr);
  }
  for (llvm::GlobalVariable *g : lists) g->eraseFromParent();
}

// Twins (E1), outside twin 0: keeps defined only what this twin made for itself (kCairnOwn);
// what the twins share (variables, descriptors, the descriptor pass's functions) becomes a
// declaration of twin 0's, and the constructor and used lists go (twin 0 has them).
void keepOwn(llvm::Module &module) {
  for (llvm::Function &f : module)
    if (!f.isDeclaration() && !f.hasMetadata(front::kCairnOwn) &&
        !f.hasMetadata(front::kCairnBodyHere))
      f.deleteBody();
  std::vector<llvm::GlobalVariable *> lists;
  for (llvm::GlobalVariable &g : module.globals()) {
    if (g.getName().starts_with("llvm.")) {
      if (g.hasAppendingLinkage()) lists.push_back(&g);
      continue;
    }
    if (g.isDeclaration() || g.hasMetadata(front::kCairnOwn)) continue;
    g.setInitializer(nullptr);
    g.setLinkage(llvm::GlobalValue::ExternalLinkage);
    g.setComdat(nullptr);
  }
  for (llvm::GlobalVariable *g : lists) g->eraseFromParent();
}

// Generates a module in parts, part 0 here and each other in a thread of its own, from a
// bitcode copy read lazily (only its own function bodies) into a context of its own: an
// LLVMContext is not shared between threads.
bool generateParts(llvm::Module &module, unsigned n, llvm::TargetMachine &tm,
                   const EmitOptions &options, const std::string &object_path,
                   std::vector<std::string> *objects, std::string *error) {
  externalizeLocals(module);
  const std::map<std::string, unsigned> parts = assignParts(module, n);
  auto bitcode = std::make_shared<llvm::SmallVector<char, 0>>();
  {
    llvm::raw_svector_ostream os(*bitcode);
    llvm::WriteBitcodeToFile(module, os);
  }
  std::vector<std::string> errors(n);
  std::vector<char> ok(n, 0);
  std::vector<std::thread> workers;
  objects->push_back(object_path);
  for (unsigned i = 1; i < n; ++i) {
    objects->push_back(partPath(object_path, i));
    std::string path = objects->back();
    workers.emplace_back([&options, &errors, &ok, &parts, i, bitcode, path] {
      llvm::LLVMContext context;
      llvm::Expected<std::unique_ptr<llvm::Module>> part = llvm::getLazyBitcodeModule(
          llvm::MemoryBufferRef(llvm::StringRef(bitcode->data(), bitcode->size()), "part"),
          context);
      llvm::Error read = part ? llvm::Error::success() : part.takeError();
      if (!read) {
        keepPart(**part, parts, i);
        read = (*part)->materializeAll();
      }
      if (read) {
        errors[i] = "internal error: a part of the module does not read back: " +
                    llvm::toString(std::move(read));
        return;
      }
      std::unique_ptr<llvm::TargetMachine> part_tm =
          makeTargetMachine(options.opt_level, &errors[i]);
      if (part_tm) ok[i] = generate(**part, *part_tm, path, &errors[i]);
    });
  }
  keepPart(module, parts, 0);
  ok[0] = generate(module, tm, object_path, &errors[0]);
  for (std::thread &w : workers) w.join();
  for (unsigned i = 0; i < n; ++i) {
    if (ok[i]) continue;
    *error = errors[i];
    return false;
  }
  return true;
}

}  // namespace

bool emitObjects(llvm::Module &module, const EmitOptions &options, const std::string &object_path,
                 std::vector<std::string> *objects, std::string *error) {
  static std::once_flag targets;  // twins (E1) come here from two threads at once
  std::call_once(targets, [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
  });
  std::unique_ptr<llvm::TargetMachine> tm = makeTargetMachine(options.opt_level, error);
  if (!tm) return false;
  module.setTargetTriple(tm->getTargetTriple().str());
  module.setDataLayout(tm->createDataLayout());
  module.setPICLevel(llvm::PICLevel::BigPIC);
  module.setPIELevel(llvm::PIELevel::Large);

  if (!optimizeModule(module, tm.get(), options, error)) return false;
  // Unwind tables (.eh_frame) for every function, exact at every instruction: the runtime walks
  // out of a signal handler through Cairn frames to find a stack overflow's or a failed page
  // fault's position (runtime/src/lang/source_position.h). Only the size of the executable
  // grows; the code is the same. The REPL's JIT code has none (its errors have no position).
  for (llvm::Function &f : module)
    if (!f.isDeclaration()) f.setUWTableKind(llvm::UWTableKind::Async);

  if (!options.ir_path.empty()) {
    std::error_code ec;
    llvm::raw_fd_ostream out(options.ir_path, ec, llvm::sys::fs::OF_Text);
    if (ec) {
      *error = "cannot write " + options.ir_path + ": " + ec.message();
      return false;
    }
    module.print(out, nullptr);
    out.close();
    if (out.has_error()) {  // a full disk: said here (unchecked, LLVM's destructor aborted)
      *error = "cannot write " + options.ir_path + ": " + out.error().message();
      out.clear_error();
      return false;
    }
  }

  if (options.twins > 1) {
    // E1: the module holds this twin's functions (lower.h, LowerOptions::twins) and what the
    // twins share, which twin 0 defines; after a digest of what they share.
    objects->clear();
    auto start = std::chrono::steady_clock::now();
    externalizeLocals(module);
    if (options.shape) *options.shape = sharedShape(module, options.twin);
    if (options.twin != 0) keepOwn(module);
    objects->push_back(partPath(object_path, options.twin));
    const bool ok = generate(module, *tm, objects->back(), error);
    lap(options, "codegen", &start);
    if (!ok) {
      llvm::sys::fs::remove(objects->back());
      objects->clear();
    }
    return ok;
  }

  unsigned threads = options.threads;
  if (threads == 0) threads = std::clamp(std::thread::hardware_concurrency(), 1u, 8u);
  // No more parts than functions to give them, and none smaller than half the size at which
  // splitting pays (each part costs a bitcode read and a TargetMachine), whatever -j says.
  const size_t count = instructionCount(module);
  size_t defined = 0;
  for (const llvm::Function &f : module) defined += f.isDeclaration() ? 0 : 1;
  size_t parts = std::min<size_t>(threads, std::max<size_t>(defined, 1));
  if (options.split_instructions >= 2)
    parts = std::min<size_t>(parts, std::max<size_t>(2, count / (options.split_instructions / 2)));
  threads = static_cast<unsigned>(parts);
  objects->clear();
  auto start = std::chrono::steady_clock::now();
  bool ok;
  if (threads <= 1 || count <= options.split_instructions) {
    objects->push_back(object_path);
    ok = generate(module, *tm, object_path, error);
  } else {
    ok = generateParts(module, threads, *tm, options, object_path, objects, error);
  }
  lap(options, "codegen", &start);
  if (!ok) {
    for (const std::string &path : *objects) llvm::sys::fs::remove(path);
    objects->clear();
  }
  return ok;
}

bool emitObject(llvm::Module &module, const EmitOptions &options, const std::string &object_path,
                std::string *error) {
  EmitOptions one = options;
  one.threads = 1;
  std::vector<std::string> objects;
  return emitObjects(module, one, object_path, &objects, error);
}

}  // namespace cairn::front
