// Lowering a program: LLVM types of Cairn types, heap type markers with their field names and
// method tables, functions, globals, text literals, runtime entry points, debug info, and the C
// `main` that starts the runtime, initializes the modules and calls the program's main.
#include <llvm/BinaryFormat/Dwarf.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Metadata.h>
#include <llvm/IR/Verifier.h>

#include <algorithm>
#include <cstddef>
#include <set>

#include "cairn/type.h"
#include "lower/lowering.h"

namespace cairn::front {

static_assert(kMaxBaseClasses == CAIRN_MAX_NESTING,
              "a class's bases are nested structs of its descriptor: the checker's bound must be "
              "the runtime's");

Lowering::Lowering(const sem::Program &program, const SourceManager &sources,
                   llvm::LLVMContext &ctx, const LowerOptions &options)
    : program_(program), sources_(sources), ctx_(ctx), options_(options), b_(ctx) {
  module_ = std::make_unique<llvm::Module>(program.main_file, ctx);
  ref_ = llvm::PointerType::get(ctx, 1);
  raw_ = llvm::PointerType::get(ctx, 0);
  i64_ = llvm::Type::getInt64Ty(ctx);
  i32_ = llvm::Type::getInt32Ty(ctx);
  i1_ = llvm::Type::getInt1Ty(ctx);
  f64_ = llvm::Type::getDoubleTy(ctx);
  loc_type_ = llvm::StructType::create(ctx, {raw_, i32_, i32_}, "cairn.loc");
  site_type_ =
      llvm::StructType::create(ctx, {raw_, i32_, i32_, i32_, raw_, raw_}, "cairn.check_site");
}

// --- Types ------------------------------------------------------------------------------------

llvm::Type *Lowering::llvmType(const Type *t) {
  switch (t->kind) {
    case TypeKind::Int:
    case TypeKind::Transaction:
      return i64_;
    case TypeKind::Float:
      return f64_;
    case TypeKind::Bool:
      return i1_;
    case TypeKind::Void:
      return llvm::Type::getVoidTy(ctx_);
    case TypeKind::Fn:
    case TypeKind::Database:
      return raw_;
    default:
      return ref_;
  }
}

llvm::Type *Lowering::elemStorageType(const Type *elem) { return llvmType(elem); }

llvm::StructType *Lowering::classStruct(ClassInfo *cls) {
  auto it = structs_.find(cls);
  if (it != structs_.end()) return it->second;
  llvm::StructType *st = llvm::StructType::create(ctx_, cls->name);
  structs_[cls] = st;
  std::vector<llvm::Type *> elems;
  std::vector<llvm::Metadata *> names;
  std::vector<llvm::Metadata *> types;  // declared types, for tools (docs/plugin.md)
  names.push_back(llvm::ConstantAsMetadata::get(llvm::PoisonValue::get(st)));
  types.push_back(names.front());
  if (cls->super) {
    elems.push_back(classStruct(cls->super));
    names.push_back(llvm::MDString::get(ctx_, cls->super->name));
    types.push_back(llvm::MDString::get(ctx_, ""));
  }
  for (const auto &f : cls->own_fields) {
    elems.push_back(llvmType(f->type));
    names.push_back(llvm::MDString::get(ctx_, f->name));
    types.push_back(llvm::MDString::get(ctx_, typeName(f->type)));
  }
  st->setBody(elems);
  module_->getOrInsertNamedMetadata("cairn.fields")->addOperand(llvm::MDNode::get(ctx_, names));
  module_->getOrInsertNamedMetadata("cairn.field_types")
      ->addOperand(llvm::MDNode::get(ctx_, types));
  return st;
}

llvm::Constant *Lowering::marker(const Type *t) {
  auto it = markers_.find(t);
  if (it != markers_.end()) return it->second;
  llvm::GlobalVariable *g = nullptr;
  if (t->kind == TypeKind::Class) {
    llvm::StructType *st = classStruct(t->cls);
    g = new llvm::GlobalVariable(*module_, st, false, llvm::GlobalValue::InternalLinkage,
                                 llvm::Constant::getNullValue(st),
                                 "cairn_heap_type_" + t->cls->name);
  } else if (t->kind == TypeKind::Array) {
    const Type *e = t->elem;
    if (e->kind == TypeKind::Int || e->kind == TypeKind::Float || e->kind == TypeKind::Bool ||
        e->kind == TypeKind::Any || e->kind == TypeKind::Text)
      return nullptr;  // the runtime's own descriptors
    llvm::Type *et = elemStorageType(e);
    g = new llvm::GlobalVariable(*module_, et, false, llvm::GlobalValue::InternalLinkage,
                                 llvm::Constant::getNullValue(et),
                                 "cairn_heap_array_" + typeName(t));
  } else {
    return nullptr;
  }
  madeShared();
  markers_[t] = g;
  return g;
}

llvm::Value *Lowering::descriptorRef(const Type *t) {
  auto builtin = [&](const char *name) {
    return module_->getOrInsertGlobal(name, llvm::StructType::get(ctx_));
  };
  if (t->kind == TypeKind::Text) return builtin("cairn_text_type");
  if (t->kind == TypeKind::Array) {
    switch (t->elem->kind) {
      case TypeKind::Int:
        return builtin("cairn_i64_array_type");
      case TypeKind::Float:
        return builtin("cairn_f64_array_type");
      case TypeKind::Bool:
        return builtin("cairn_bool_array_type");
      case TypeKind::Any:
        return builtin("cairn_ref_array_type");
      case TypeKind::Text:
        return builtin("cairn_text_array_type");
      default:
        break;
    }
  }
  llvm::Constant *m = marker(t);
  return b_.CreateCall(rt("cairn_type_ref"), {m});
}

llvm::FunctionType *Lowering::functionType(const FuncInfo *f) {
  std::vector<llvm::Type *> params;
  if (f->owner) params.push_back(ref_);
  for (const Type *p : f->params) params.push_back(llvmType(p));
  if (takesCallerLoc(f)) params.push_back(raw_);
  return llvm::FunctionType::get(llvmType(f->ret), params, false);
}

llvm::Function *Lowering::function(const FuncInfo *f) {
  auto it = functions_.find(f);
  if (it != functions_.end()) return it->second;
  llvm::Function *fn;
  if (f->is_extern) {
    fn = llvm::cast<llvm::Function>(
        module_->getOrInsertFunction(f->symbol, functionType(f)).getCallee());
    for (size_t i = 0; i < f->params.size(); ++i)
      if (f->params[i]->kind == TypeKind::Bool) fn->addParamAttr(i, llvm::Attribute::ZExt);
    if (f->ret->kind == TypeKind::Bool) fn->addRetAttr(llvm::Attribute::ZExt);
  } else if (unit_ != nullptr) {
    // Called by its call symbol, defined here or elsewhere (a stub's or its own).
    std::string callee = unit_->call_symbol ? unit_->call_symbol(f) : std::string();
    if (callee.empty()) callee = f->symbol;
    if (callee == f->symbol) {
      fn = definition(f);
    } else {
      fn = llvm::cast<llvm::Function>(
          module_->getOrInsertFunction(callee, functionType(f)).getCallee());
    }
  } else if (twinned()) {
    // Defined by one twin, declared by the others (an internal declaration is not valid IR).
    madeShared();
    fn = llvm::Function::Create(functionType(f), llvm::GlobalValue::ExternalLinkage, f->symbol,
                                *module_);
    fn->setVisibility(llvm::GlobalValue::HiddenVisibility);
  } else {
    fn = llvm::Function::Create(functionType(f), llvm::GlobalValue::InternalLinkage, f->symbol,
                                *module_);
  }
  functions_[f] = fn;
  return fn;
}

llvm::Function *Lowering::definition(const FuncInfo *f) {
  if (unit_ == nullptr) return function(f);
  auto it = definitions_.find(f);
  if (it != definitions_.end()) return it->second;
  // A declaration of it may exist already (a call seen before its body): give it the body.
  llvm::Function *fn = module_->getFunction(f->symbol);
  if (fn == nullptr)
    fn = llvm::Function::Create(functionType(f), llvm::GlobalValue::ExternalLinkage, f->symbol,
                                *module_);
  definitions_[f] = fn;
  return fn;
}

namespace {

struct RuntimeEntry {
  const char *name;
  const char *sig;  // result then parameters: v void, p ptr, r ref, l i64, i i32, d double
  bool noreturn;
};

// The runtime entry points (cairn/lang.h, cairn/gc.h) as the generated code calls them.
constexpr RuntimeEntry kRuntime[] = {
    // Declared to return a reference (cairn/gc.h returns void *): the same register, and no
    // addrspacecast, which -O0's FastISel cannot select (the block would go to SelectionDAG).
    {"cairn_malloc_typed", "rp", false},
    {"cairn_malloc_array", "rpl", false},
    {"cairn_type_ref", "pp", false},
    {"cairn_lang_start", "vip", false},
    {"cairn_lang_argc", "l", false},
    {"cairn_lang_argv", "pl", false},
    {"cairn_lang_exit", "vl", true},
    {"cairn_lang_finish", "v", true},
    {"cairn_text_new", "rpl", false},
    {"cairn_text_concat", "rprr", false},
    {"cairn_text_eq", "irr", false},
    {"cairn_text_cmp", "lrr", false},
    {"cairn_any_eq", "irr", false},
    {"cairn_hash_ref", "lr", false},
    {"cairn_text_byte", "lprl", false},
    {"cairn_str_int", "rl", false},
    {"cairn_str_float", "rd", false},
    {"cairn_str_bool", "ri", false},
    {"cairn_str_ref", "rr", false},
    {"cairn_print_int", "vl", false},
    {"cairn_print_float", "vd", false},
    {"cairn_print_bool", "vi", false},
    {"cairn_print_ref", "vr", false},
    {"cairn_print_newline", "v", false},
    {"cairn_print_space", "v", false},
    {"cairn_float_to_int", "lpd", false},
    {"cairn_is_a", "irp", false},
    {"cairn_rt_nil_field", "vppp", true},
    {"cairn_rt_nil_method", "vppp", true},
    {"cairn_rt_nil", "vpp", true},
    {"cairn_rt_index", "vpll", true},
    {"cairn_rt_negative_length", "vpl", true},
    {"cairn_rt_cast", "vprp", true},
    {"cairn_rt_div_zero", "vp", true},
    {"cairn_rt_exit_status", "vpl", true},
    {"cairn_rt_check_array_length", "vppl", false},
    {"cairn_rt_check_failed", "vpllp", true},
    {"cairn_rt_panic", "vpr", true},
    {"cairn_rt_error", "vpp", true},
    {"cairn_rt_interrupted", "vp", true},
    {"cairn_lang_db_create", "ppr", false},
    {"cairn_lang_db_open", "ppr", false},
    {"cairn_lang_db_upgrade", "ppr", false},
    {"cairn_lang_db_exists", "ipr", false},
    {"cairn_lang_db_drop", "vpr", false},
    {"cairn_lang_db_names_count", "lp", false},
    {"cairn_lang_db_names_at", "rl", false},
    {"cairn_lang_db_get_root", "rpp", false},
    {"cairn_lang_db_set_root", "vppr", false},
    {"cairn_lang_db_name", "rp", false},
    {"cairn_lang_db_str", "rp", false},
    {"cairn_lang_txn_begin", "lp", false},
    {"cairn_lang_txn_commit", "vpl", false},
    {"cairn_lang_txn_abort", "vpl", false},
    {"cairn_lang_txn_chain", "vpl", false},
    {"cairn_lang_txn_checkpoint", "vpl", false},
    {"cairn_lang_txn_is_open", "il", false},
    {"cairn_lang_txn_str", "rl", false},
    {"cairn_lang_atomic_begin", "vp", false},
    {"cairn_lang_atomic_commit", "vp", false},
    {"strlen", "lp", false},
};

}  // namespace

llvm::FunctionCallee Lowering::rt(const char *name) {
  for (const RuntimeEntry &e : kRuntime) {
    if (std::string_view(e.name) != name) continue;
    auto ty = [&](char c) -> llvm::Type * {
      switch (c) {
        case 'v':
          return llvm::Type::getVoidTy(ctx_);
        case 'p':
          return raw_;
        case 'r':
          return ref_;
        case 'l':
          return i64_;
        case 'i':
          return i32_;
        default:
          return f64_;
      }
    };
    std::vector<llvm::Type *> params;
    for (const char *c = e.sig + 1; *c; ++c) params.push_back(ty(*c));
    llvm::FunctionType *ft = llvm::FunctionType::get(ty(e.sig[0]), params, false);
    llvm::FunctionCallee callee = module_->getOrInsertFunction(name, ft);
    if (auto *f = llvm::dyn_cast<llvm::Function>(callee.getCallee())) {
      if (e.noreturn) {
        f->setDoesNotReturn();
        f->addFnAttr(llvm::Attribute::Cold);
      }
      f->addFnAttr(llvm::Attribute::NoUnwind);
    }
    return callee;
  }
  llvm::report_fatal_error(llvm::Twine("cairn: unknown runtime entry ") + name);
}

llvm::Constant *Lowering::cstring(const std::string &s) {
  auto it = cstrings_.find(s);
  if (it != cstrings_.end()) return it->second;
  llvm::Constant *data = llvm::ConstantDataArray::getString(ctx_, s, true);
  auto *g = new llvm::GlobalVariable(*module_, data->getType(), true,
                                     llvm::GlobalValue::PrivateLinkage, data, ownName("cairn.str"));
  g->setUnnamedAddr(llvm::GlobalValue::UnnamedAddr::Global);
  g->setAlignment(llvm::Align(1));
  cstrings_[s] = g;
  return g;
}

std::string missingExternMessage(const std::string &symbol) {
  return "no function '" + symbol +
         "' in this process: an extern fn at the prompt can call the C functions of the "
         "libraries the REPL has loaded (the C library's, the runtime's); a program built with "
         "cairn build links its own";
}

bool takesCallerLoc(const FuncInfo *f) {
  if (f->is_extern || f->decl == nullptr) return false;  // extern, or a function literal
  if (f->owner == nullptr) return f->module != nullptr && f->module->is_std;
  // A method: as the slot's first class says (every class's vtable begins with its base's).
  const ClassInfo *top = f->owner;
  while (top->super != nullptr && top->super->vtable.size() > static_cast<size_t>(f->slot))
    top = top->super;
  return top->module != nullptr && top->module->is_std;
}

llvm::Value *Lowering::loc(Span span) {
  llvm::Constant *here = staticLoc(span);
  llvm::Value *caller = callerLoc();
  if (llvm::isa<llvm::ConstantPointerNull>(caller)) return here;
  return b_.CreateSelect(b_.CreateIsNull(caller), here, caller);
}

llvm::Function *Lowering::functionValue(const FuncInfo *f) {
  if (!takesCallerLoc(f)) return function(f);
  auto it = value_thunks_.find(f);
  if (it != value_thunks_.end()) return it->second;
  llvm::FunctionType *full = functionType(f);
  std::vector<llvm::Type *> params(full->param_begin(), full->param_end() - 1);
  llvm::FunctionType *type = llvm::FunctionType::get(full->getReturnType(), params, false);
  const std::string name = shared_done_ ? f->symbol + "/value" : f->symbol + ".value";
  if (unit_ != nullptr && definitions_.count(f) == 0) {
    // A module of the REPL: the thunk is defined with f, in the unit that lives as long as f
    // (runUnit); one made here would go with this unit, maybe while a variable still holds it.
    auto *decl = llvm::cast<llvm::Function>(module_->getOrInsertFunction(name, type).getCallee());
    value_thunks_[f] = decl;
    return decl;
  }
  auto *thunk = llvm::Function::Create(
      type,
      unit_ != nullptr ? llvm::GlobalValue::ExternalLinkage : llvm::GlobalValue::InternalLinkage,
      name, *module_);
  llvm::IRBuilder<> b(llvm::BasicBlock::Create(ctx_, "entry", thunk));
  std::vector<llvm::Value *> args;
  for (llvm::Argument &a : thunk->args()) args.push_back(&a);
  args.push_back(llvm::ConstantPointerNull::get(llvm::PointerType::get(ctx_, 0)));
  llvm::CallInst *call = b.CreateCall(function(f), args);
  if (full->getReturnType()->isVoidTy())
    b.CreateRetVoid();
  else
    b.CreateRet(call);
  value_thunks_[f] = thunk;
  return thunk;
}

llvm::Constant *Lowering::staticLoc(Span span) {
  LineCol lc;
  uint32_t file = span.valid() ? span.file : 0;
  if (span.valid()) lc = sources_.file(span.file).lineCol(span.begin);
  auto key = std::make_tuple(file, lc.line, lc.col);
  auto it = locs_.find(key);
  if (it != locs_.end()) return it->second;
  std::string path = span.valid() ? sources_.file(span.file).path() : program_.main_file;
  llvm::Constant *init = llvm::ConstantStruct::get(
      loc_type_,
      {cstring(path), llvm::ConstantInt::get(i32_, lc.line), llvm::ConstantInt::get(i32_, lc.col)});
  auto *g = new llvm::GlobalVariable(*module_, loc_type_, true, llvm::GlobalValue::PrivateLinkage,
                                     init, ownName("cairn.loc"));
  g->setUnnamedAddr(llvm::GlobalValue::UnnamedAddr::Global);
  locs_[key] = g;
  return g;
}

llvm::GlobalVariable *Lowering::global(const GlobalInfo *g) {
  auto it = globals_.find(g);
  if (it != globals_.end()) return it->second;
  llvm::Type *t = llvmType(g->type);
  if (unit_ != nullptr) {
    bool here = false;
    for (const GlobalInfo *d : unit_->globals) here |= d == g;
    auto *gv =
        here ? new llvm::GlobalVariable(*module_, t, false, llvm::GlobalValue::ExternalLinkage,
                                        llvm::Constant::getNullValue(t), g->symbol)
             : new llvm::GlobalVariable(*module_, t, false, llvm::GlobalValue::ExternalLinkage,
                                        nullptr, g->symbol);
    globals_[g] = gv;
    return gv;
  }
  madeShared();
  auto *gv = new llvm::GlobalVariable(*module_, t, false, llvm::GlobalValue::InternalLinkage,
                                      llvm::Constant::getNullValue(t), g->symbol);
  globals_[g] = gv;
  return gv;
}

llvm::GlobalVariable *Lowering::textSlot(const std::string &value) {
  auto it = text_slots_.find(value);
  if (it != text_slots_.end()) return it->second;
  madeShared();
  auto *gv = new llvm::GlobalVariable(*module_, ref_, false, llvm::GlobalValue::InternalLinkage,
                                      llvm::Constant::getNullValue(ref_), "cairn.text");
  text_slots_[value] = gv;
  text_order_.push_back({value, gv});
  return gv;
}

llvm::DIFile *Lowering::diFile(uint32_t file) {
  auto it = di_files_.find(file);
  if (it != di_files_.end()) return it->second;
  // The whole path as given, as cairn_loc spells it, with no directory: the runtime finds a
  // fault's position in this line table and must print the file as the compiler's own runtime
  // errors do (runtime/src/lang/source_position.h, 3), and a name split from its directory
  // cannot always be joined back ("./a.cairn" and "a.cairn" both gave "." and "a.cairn"). A
  // debugger reads a relative name from the current directory, as it read one under ".".
  llvm::DIFile *f = di_->createFile(sources_.file(file).path(), "");
  di_files_[file] = f;
  return f;
}

void Lowering::setLoc(Span span) {
  if (!di_ || !di_fn_ || !span.valid()) return;
  // The same place as the last call, still the builder's: nothing to look up (statements and
  // their expressions often start at the same offset).
  if (span.file == last_loc_span_.file && span.begin == last_loc_span_.begin && last_loc_ &&
      last_loc_->getScope() == di_fn_ && b_.getCurrentDebugLocation().get() == last_loc_)
    return;
  LineCol lc = sources_.file(span.file).lineCol(span.begin);
  // One location per line (the column of what began it, usually its statement): the line
  // table gets a row per line, not per expression, which -O0's code generation pays for.
  if (last_loc_ && last_loc_->getScope() == di_fn_ && last_loc_->getLine() == lc.line) {
    last_loc_span_ = span;
    b_.SetCurrentDebugLocation(last_loc_);
    return;
  }
  last_loc_ = llvm::DILocation::get(ctx_, lc.line, lc.col, di_fn_);
  last_loc_span_ = span;
  b_.SetCurrentDebugLocation(last_loc_);
}

// --- The program ------------------------------------------------------------------------------

namespace {

// Every `bool` parameter and result, of Cairn functions and at every call (direct or through a
// function value), is `zeroext i1`: the C ABI's rule for bool, which extern functions follow
// too, and what -O0's FastISel needs to select such a call, return or entry instead of handing
// the block to SelectionDAG.
void markBoolExtension(llvm::Module &module) {
  auto isBool = [](llvm::Type *t) { return t->isIntegerTy(1); };
  for (llvm::Function &f : module) {
    // Intrinsics are not calls under the C ABI (llvm.memcpy's i1 is an immediate, `immarg`).
    if (f.isIntrinsic()) continue;
    for (unsigned i = 0; i < f.arg_size(); ++i)
      if (isBool(f.getArg(i)->getType())) f.addParamAttr(i, llvm::Attribute::ZExt);
    if (isBool(f.getReturnType())) f.addRetAttr(llvm::Attribute::ZExt);
    for (llvm::BasicBlock &block : f)
      for (llvm::Instruction &inst : block) {
        auto *call = llvm::dyn_cast<llvm::CallBase>(&inst);
        if (call == nullptr || llvm::isa<llvm::IntrinsicInst>(call)) continue;
        for (unsigned i = 0; i < call->arg_size(); ++i)
          if (isBool(call->getArgOperand(i)->getType()))
            call->addParamAttr(i, llvm::Attribute::ZExt);
        if (isBool(call->getType())) call->addRetAttr(llvm::Attribute::ZExt);
      }
  }
}

}  // namespace

std::unique_ptr<llvm::Module> Lowering::run() {
  if (options_.debug_info) {
    di_ = std::make_unique<llvm::DIBuilder>(*module_);
    uint32_t main_file = 0;
    for (uint32_t i = 0; i < sources_.size(); ++i)
      if (sources_.file(i).path() == program_.main_file) main_file = i;
    cu_ = di_->createCompileUnit(llvm::dwarf::DW_LANG_C, diFile(main_file), "cairn 0.1.0",
                                 options_.optimized, "", 0);
    module_->addModuleFlag(llvm::Module::Warning, "Debug Info Version",
                           llvm::DEBUG_METADATA_VERSION);
    module_->addModuleFlag(llvm::Module::Warning, "Dwarf Version", 5);
  }
  // Heap types: every class (with its method table) and every array type.
  for (ClassInfo *cls : program_.classes) marker(cls->type);
  for (const Type *t : program_.array_types) marker(t);
  for (ClassInfo *cls : program_.classes) {
    if (cls->vtable.empty()) continue;
    std::vector<llvm::Metadata *> ops;
    ops.push_back(llvm::ConstantAsMetadata::get(llvm::PoisonValue::get(classStruct(cls))));
    for (FuncInfo *m : cls->vtable) ops.push_back(llvm::ValueAsMetadata::get(function(m)));
    module_->getOrInsertNamedMetadata("cairn.methods")->addOperand(llvm::MDNode::get(ctx_, ops));
  }
  for (const auto &fn : program_.functions) function(fn->info);
  std::vector<unsigned> parts(program_.functions.size(), 0);
  std::vector<const llvm::GlobalValue *> shared;
  if (twinned()) {
    // What every twin makes alike (lower.h), then the functions of this one.
    for (const GlobalInfo *g : program_.globals) global(g);
    for (const std::string &text : program_.text_literals) textSlot(text);
    for (const llvm::GlobalValue &v : module_->global_values()) shared.push_back(&v);
    shared_done_ = true;
    parts = twinParts(program_, options_.twins);
  }
  for (size_t i = 0; i < program_.functions.size(); ++i)
    if (program_.functions[i]->body && parts[i] == options_.twin)
      lowerFunction(*program_.functions[i]);
  if (options_.twin != 0) {
    finishCheckSites();
    if (di_) di_->finalize();
    markBoolExtension(*module_);
    finishTwin(shared);
    return std::move(module_);
  }

  // Module initialization: global initializers in order.
  llvm::Function *init =
      llvm::Function::Create(llvm::FunctionType::get(b_.getVoidTy(), false),
                             llvm::GlobalValue::InternalLinkage, ownSymbol("cairn.init"), *module_);
  {
    fn_ = init;
    self_value_ = nullptr;
    proven_block_ = nullptr;
    sem_fn_ = nullptr;
    slots_.clear();
    values_.clear();
    loops_.clear();
    atomics_.clear();
    di_fn_ = nullptr;
    if (di_) {
      llvm::DIFile *file = diFile(0);
      for (uint32_t i = 0; i < sources_.size(); ++i)
        if (sources_.file(i).path() == program_.main_file) file = diFile(i);
      di_fn_ = di_->createFunction(
          file, "cairn.init", "cairn.init", file, 1,
          di_->createSubroutineType(di_->getOrCreateTypeArray({})), 1, llvm::DINode::FlagArtificial,
          llvm::DISubprogram::SPFlagDefinition | llvm::DISubprogram::SPFlagLocalToUnit);
      init->setSubprogram(di_fn_);
    }
    llvm::BasicBlock *entry = llvm::BasicBlock::Create(ctx_, "entry", init);
    b_.SetInsertPoint(entry);
    if (di_fn_) b_.SetCurrentDebugLocation(llvm::DILocation::get(ctx_, 1, 1, di_fn_));
    for (const sem::GlobalInit &gi : program_.global_inits) {
      if (!gi.init) continue;
      setLoc(gi.global->span);
      llvm::Value *v = lowerExpr(*gi.init);
      b_.CreateStore(v, global(gi.global));
    }
    b_.CreateRetVoid();
    b_.SetCurrentDebugLocation(llvm::DebugLoc());
  }

  // int main(int argc, char **argv)
  llvm::Function *cmain =
      llvm::Function::Create(llvm::FunctionType::get(i32_, {i32_, raw_}, false),
                             llvm::GlobalValue::ExternalLinkage, "main", *module_);
  llvm::BasicBlock *entry = llvm::BasicBlock::Create(ctx_, "entry", cmain);
  b_.SetInsertPoint(entry);
  fn_ = cmain;
  self_value_ = nullptr;
  proven_block_ = nullptr;
  di_fn_ = nullptr;
  b_.CreateCall(rt("cairn_lang_start"), {cmain->getArg(0), cmain->getArg(1)});
  makeTextLiterals();
  b_.CreateCall(init);
  if (program_.main) b_.CreateCall(function(program_.main));
  b_.CreateCall(rt("cairn_lang_finish"));
  b_.CreateUnreachable();

  finishCheckSites();
  if (di_) di_->finalize();
  markBoolExtension(*module_);
  if (twinned()) finishTwin(shared);
  return std::move(module_);
}

void Lowering::finishTwin(const std::vector<const llvm::GlobalValue *> &shared) {
  std::set<const llvm::GlobalValue *> before(shared.begin(), shared.end());
  llvm::MDNode *own = llvm::MDNode::get(ctx_, {});
  for (llvm::GlobalObject &v : module_->global_objects()) {
    if (!before.count(&v))
      v.setMetadata(kCairnOwn, own);
    else if (llvm::isa<llvm::Function>(v) && !v.isDeclaration())
      v.setMetadata(kCairnBodyHere, own);
  }
  if (unfit_) module_->getOrInsertNamedMetadata(kCairnTwinUnfit);
}

std::vector<unsigned> twinParts(const sem::Program &program, unsigned twins) {
  std::vector<std::pair<uint64_t, size_t>> by_size;
  for (size_t i = 0; i < program.functions.size(); ++i) {
    const sem::Block *body = program.functions[i]->body.get();
    if (body == nullptr) continue;
    // A function costs code generation about as much as 64 bytes of source besides its body.
    by_size.emplace_back(64 + body->span.end - std::min(body->span.begin, body->span.end), i);
  }
  std::stable_sort(by_size.begin(), by_size.end(),
                   [](const auto &a, const auto &b) { return a.first > b.first; });
  std::vector<uint64_t> load(std::max(twins, 1u), 0);
  // main (the text literals made) and the module initializer (the variables' initial values).
  load[0] = 64 * (2 + program.text_literals.size() / 16 + program.global_inits.size());
  std::vector<unsigned> parts(program.functions.size(), 0);
  for (const auto &[size, i] : by_size) {
    const auto lightest =
        static_cast<unsigned>(std::min_element(load.begin(), load.end()) - load.begin());
    load[lightest] += size;
    parts[i] = lightest;
  }
  return parts;
}

// The program's text literals, each made once into its slot (textSlot) at the insertion point.
// Many of them (a word list) are made by a loop over a table of (bytes, length, slot), so that
// the function stays small: one call per literal made a function that -O2 took seconds over.
void Lowering::makeTextLiterals() {
  auto make = [&](llvm::Value *bytes, llvm::Value *length, llvm::Value *slot) {
    b_.CreateStore(b_.CreateCall(rt("cairn_text_new"), {bytes, length}), slot);
  };
  if (text_order_.size() < 16) {
    for (const auto &[value, slot] : text_order_)
      make(cstring(value), llvm::ConstantInt::get(i64_, static_cast<int64_t>(value.size())), slot);
    return;
  }
  llvm::StructType *entry_type = llvm::StructType::get(ctx_, {raw_, i64_, raw_});
  std::vector<llvm::Constant *> entries;
  for (const auto &[value, slot] : text_order_)
    entries.push_back(llvm::ConstantStruct::get(
        entry_type,
        {cstring(value), llvm::ConstantInt::get(i64_, static_cast<int64_t>(value.size())), slot}));
  auto *table_type = llvm::ArrayType::get(entry_type, entries.size());
  auto *table = new llvm::GlobalVariable(
      *module_, table_type, true, llvm::GlobalValue::PrivateLinkage,
      llvm::ConstantArray::get(table_type, entries), ownSymbol("cairn.text.literals"));
  countedLoop(entries.size(), "texts", [&](llvm::Value *i) {
    auto field = [&](unsigned k, llvm::Type *t) {
      return b_.CreateLoad(
          t, b_.CreateInBoundsGEP(table_type, table, {b_.getInt64(0), i, b_.getInt32(k)}));
    };
    make(field(0, raw_), field(1, i64_), field(2, raw_));
  });
}

void Lowering::countedLoop(uint64_t count, const char *name,
                           const std::function<void(llvm::Value *i)> &body) {
  llvm::BasicBlock *before = b_.GetInsertBlock();
  llvm::BasicBlock *loop = llvm::BasicBlock::Create(ctx_, name, fn_);
  llvm::BasicBlock *done = llvm::BasicBlock::Create(ctx_, std::string(name) + ".done", fn_);
  b_.CreateBr(loop);
  b_.SetInsertPoint(loop);
  llvm::PHINode *i = b_.CreatePHI(i64_, 2);
  i->addIncoming(b_.getInt64(0), before);
  body(i);
  llvm::Value *next = b_.CreateAdd(i, b_.getInt64(1));
  i->addIncoming(next, b_.GetInsertBlock());
  b_.CreateCondBr(b_.CreateICmpULT(next, b_.getInt64(count)), loop, done);
  b_.SetInsertPoint(done);
}

std::unique_ptr<llvm::Module> Lowering::runUnit(const UnitSpec &unit) {
  unit_ = &unit;
  module_->setModuleIdentifier(unit.name);
  // A base class defined by an earlier unit is marked here too: the plugin takes a struct's
  // first element for a base (the descriptor's `super`) only when it is a marked heap type, and
  // a base taken for an inline struct made the subclass's descriptor another type than a
  // program's (`o is A` false for a B, `as A` failing, a database's B not this session's).
  for (ClassInfo *cls : unit.classes)
    for (const ClassInfo *c = cls; c != nullptr; c = c->super) marker(c->type);
  for (const Type *t : unit.array_types) marker(t);
  for (const GlobalInfo *g : unit.globals) global(g);
  for (const sem::Function *fn : unit.functions) definition(fn->info);
  // The thunk of each std function defined here, which other units use as its value.
  for (const sem::Function *fn : unit.functions)
    if (fn->info->owner == nullptr && takesCallerLoc(fn->info)) functionValue(fn->info);
  for (const sem::Function *fn : unit.functions)
    if (fn->body) lowerFunction(*fn);
  // Method tables of every class marked here (docs/plugin.md: every module with a marker of a
  // type that has methods lists them; here they are stubs, the same in every module).
  for (const auto &[cls, st] : structs_) {
    if (cls->vtable.empty() || markers_.count(cls->type) == 0) continue;
    std::vector<llvm::Metadata *> ops;
    ops.push_back(llvm::ConstantAsMetadata::get(llvm::PoisonValue::get(st)));
    for (FuncInfo *m : cls->vtable) ops.push_back(llvm::ValueAsMetadata::get(function(m)));
    module_->getOrInsertNamedMetadata("cairn.methods")->addOperand(llvm::MDNode::get(ctx_, ops));
  }
  // The text literals, made by the init function.
  llvm::Function *init =
      llvm::Function::Create(llvm::FunctionType::get(b_.getVoidTy(), false),
                             llvm::GlobalValue::ExternalLinkage, unit.init_symbol, *module_);
  fn_ = init;
  self_value_ = nullptr;
  proven_block_ = nullptr;
  di_fn_ = nullptr;
  b_.SetInsertPoint(llvm::BasicBlock::Create(ctx_, "entry", init));
  b_.SetCurrentDebugLocation(llvm::DebugLoc());
  makeTextLiterals();
  b_.CreateRetVoid();
  finishCheckSites();
  markBoolExtension(*module_);
  return std::move(module_);
}

std::unique_ptr<llvm::Module> lowerUnit(const UnitSpec &unit, const SourceManager &sources,
                                        llvm::LLVMContext &ctx, const LowerOptions &options) {
  static const sem::Program kNoProgram;
  LowerOptions o = options;
  o.debug_info = false;
  Lowering lowering(kNoProgram, sources, ctx, o);
  return lowering.runUnit(unit);
}

std::unique_ptr<llvm::Module> lowerProgram(const sem::Program &program,
                                           const SourceManager &sources, llvm::LLVMContext &ctx,
                                           const LowerOptions &options) {
  Lowering lowering(program, sources, ctx, options);
  return lowering.run();
}

}  // namespace cairn::front
