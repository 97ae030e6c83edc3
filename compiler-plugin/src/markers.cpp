// Cairn compiler plugin: finding marker globals, checking and replacing their uses.
#include "markers.h"

#include <llvm/ADT/StringRef.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/DerivedTypes.h>
#include <llvm/IR/GlobalVariable.h>
#include <llvm/IR/InstrTypes.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Transforms/Utils/Local.h>
#include <llvm/Transforms/Utils/ModuleUtils.h>

#include <cctype>
#include <set>

#include "diagnostics.h"

namespace cairn::plugin {
namespace {

struct Prefix {
  llvm::StringRef text;
  MarkerKind kind;
};
constexpr Prefix kPrefixes[] = {
    {"cairn_heap_type_", MarkerKind::Type},
    {"cairn_heap_array_", MarkerKind::Array},
    {"cairn_heap_text_", MarkerKind::Text},
};

// "Node.12" -> "Node": the suffix clang or the IR linker adds to a renamed local symbol.
llvm::StringRef stripLocalSuffix(llvm::StringRef name) {
  size_t dot = name.rfind('.');
  if (dot == llvm::StringRef::npos || dot + 1 == name.size()) return name;
  for (char c : name.drop_front(dot + 1))
    if (!std::isdigit(static_cast<unsigned char>(c))) return name;
  return name.take_front(dot);
}

// "_ZL23cairn_heap_type_Derived" -> "cairn_heap_type_Derived": clang++ mangles a static at
// namespace scope as _ZL<length><identifier>.
llvm::StringRef stripStaticMangling(llvm::StringRef name) {
  if (!name.consume_front("_ZL")) return name;
  size_t length = 0;
  if (name.consumeInteger(10, length) || length != name.size()) return "";
  return name;
}

llvm::StringRef allocatorFor(MarkerKind kind) {
  return kind == MarkerKind::Type ? "cairn_malloc_typed" : "cairn_malloc_array";
}

llvm::StringRef macroFor(MarkerKind kind) {
  switch (kind) {
    case MarkerKind::Type:
      return "CAIRN_NEW(T)";
    case MarkerKind::Array:
      return "CAIRN_NEW_ARRAY(Name, n)";
    case MarkerKind::Text:
      return "CAIRN_NEW_TEXT(Name, n)";
  }
  return "";
}

llvm::StringRef typeMacroFor(MarkerKind kind) {
  switch (kind) {
    case MarkerKind::Type:
      return "CAIRN_TYPE(T)";
    case MarkerKind::Array:
      return "CAIRN_ARRAY_TYPE(Name)";
    case MarkerKind::Text:
      return "CAIRN_TEXT_TYPE(Name)";
  }
  return "";
}

// `call ptr @cairn_type_ref(ptr marker)` (or an invoke): one argument, a result in address
// space 0 that the descriptor's address can replace.
bool isTypeRefForm(const llvm::CallBase &call) {
  return (llvm::isa<llvm::CallInst>(call) || llvm::isa<llvm::InvokeInst>(call)) &&
         call.arg_size() == 1 && call.getType()->isPointerTy() &&
         call.getType()->getPointerAddressSpace() == 0;
}

bool isTypeRefCall(const llvm::CallBase &call, const llvm::Use &use) {
  const llvm::Function *callee = call.getCalledFunction();
  return callee != nullptr && callee->getName() == kTypeRefFunction && call.isArgOperand(&use) &&
         call.getArgOperandNo(&use) == 0;
}

// A use inside the initializer of llvm.used or llvm.compiler.used.
bool isUsedListUse(const llvm::User *user) {
  if (!llvm::isa<llvm::ConstantArray>(user)) return false;
  for (const llvm::User *outer : user->users()) {
    const auto *list = llvm::dyn_cast<llvm::GlobalVariable>(outer);
    if (list == nullptr ||
        (list->getName() != "llvm.used" && list->getName() != "llvm.compiler.used"))
      return false;
  }
  return true;
}

std::string printed(const llvm::Value &value) {
  std::string text;
  llvm::raw_string_ostream out(text);
  value.print(out);
  return llvm::StringRef(text).trim().str();
}

}  // namespace

std::vector<Marker> findMarkers(llvm::Module &module) {
  std::vector<Marker> markers;
  for (llvm::GlobalVariable &global : module.globals()) {
    llvm::StringRef symbol = global.getName();
    if (global.hasLocalLinkage()) symbol = stripStaticMangling(stripLocalSuffix(symbol));
    for (const Prefix &prefix : kPrefixes) {
      if (!symbol.starts_with(prefix.text)) continue;
      llvm::StringRef name = symbol.drop_front(prefix.text.size());
      markers.push_back(Marker{&global, prefix.kind, name.str()});
      break;
    }
  }
  return markers;
}

bool checkMarkerUses(const Marker &marker, Diagnostics &diagnostics) {
  const llvm::GlobalVariable &global = *marker.global;
  bool ok = true;
  if (global.getAddressSpace() != 0) {
    diagnostics.error("marker @" + global.getName() + " of heap type '" + marker.name +
                      "' is in address space " + llvm::Twine(global.getAddressSpace()) +
                      "; declare markers as ordinary globals (address space 0)");
    ok = false;
  }
  const llvm::StringRef expected = allocatorFor(marker.kind);
  for (const llvm::Use &use : global.uses()) {
    const llvm::User *user = use.getUser();
    if (isUsedListUse(user)) continue;
    if (const auto *call = llvm::dyn_cast<llvm::CallBase>(user)) {
      if (isTypeRefCall(*call, use)) {
        if (isTypeRefForm(*call)) continue;
        diagnostics.error("heap type '" + marker.name + "' is named by `" + printed(*call) +
                              "`; declare cairn_type_ref as `ptr @cairn_type_ref(ptr)` and " +
                              "call it with the marker as its only argument (" +
                              typeMacroFor(marker.kind) + " in cairn/heap_c.h)",
                          call);
        ok = false;
        continue;
      }
      const llvm::Function *callee = call->getCalledFunction();
      const bool isArgument = call->isArgOperand(&use);
      if (callee != nullptr && isArgument && call->getArgOperandNo(&use) == 0 &&
          callee->getName() == expected)
        continue;
      if (callee != nullptr && isArgument &&
          (callee->getName() == "cairn_malloc_typed" ||
           callee->getName() == "cairn_malloc_array")) {
        diagnostics.error("heap type '" + marker.name + "' is allocated with " + callee->getName() +
                              " but its marker @" + global.getName() + " names " +
                              (marker.kind == MarkerKind::Type ? "a plain" : "an array") +
                              " type; allocate it with " + expected + " (" + macroFor(marker.kind) +
                              " in cairn/heap_c.h)",
                          call);
        ok = false;
        continue;
      }
    }
    std::string where;
    const auto *instruction = llvm::dyn_cast<llvm::Instruction>(user);
    if (instruction == nullptr)
      where = " in the constant `" + printed(*user) + "`";
    else
      where = " by `" + printed(*instruction) + "`";
    diagnostics.error("unknown use of the marker of heap type '" + marker.name + "': @" +
                          global.getName() + " is used" + where + "; a marker may only be the " +
                          "first argument of a direct call to " + expected + " (" +
                          macroFor(marker.kind) + ") or to " + kTypeRefFunction + " (" +
                          typeMacroFor(marker.kind) + ", for the descriptor's address), see " +
                          "cairn/heap_c.h",
                      instruction);
    ok = false;
  }
  return ok;
}

void checkTypeRefCalls(llvm::Module &module, const std::vector<Marker> &markers,
                       Diagnostics &diagnostics) {
  const llvm::Function *typeRef = module.getFunction(kTypeRefFunction);
  if (typeRef == nullptr) return;
  std::set<const llvm::Value *> globals;
  for (const Marker &marker : markers) globals.insert(marker.global);
  for (const llvm::Use &use : typeRef->uses()) {
    const auto *call = llvm::dyn_cast<llvm::CallBase>(use.getUser());
    if (call != nullptr && call->isCallee(&use)) {
      if (call->arg_size() >= 1 && globals.count(call->getArgOperand(0)) != 0) continue;
      diagnostics.error(llvm::Twine("`") + printed(*call) +
                            "` does not name a heap type: " + kTypeRefFunction +
                            " takes a marker global (cairn_heap_type_<Name>, "
                            "cairn_heap_array_<Name> or cairn_heap_text_<Name>) as its only "
                            "argument, and is replaced by that type's descriptor (CAIRN_TYPE(T) " +
                            "in cairn/heap_c.h)",
                        call);
      continue;
    }
    const auto *instruction = llvm::dyn_cast<llvm::Instruction>(use.getUser());
    diagnostics.error(llvm::Twine("the address of ") + kTypeRefFunction + " is used by `" +
                          printed(*use.getUser()) +
                          "`; it is no real function (the pass replaces its calls): only call "
                          "it directly, with a marker",
                      instruction);
  }
}

void replaceTypeRef(llvm::CallBase &call, CanonicalSlot slot) {
  llvm::CallBase *replaced = &call;
  if (auto *invoke = llvm::dyn_cast<llvm::InvokeInst>(replaced))
    replaced = llvm::changeToCall(invoke);  // no unwind edge: nothing is called
  if (replaced->use_empty()) {              // the descriptor is not needed: nothing to load
    replaced->eraseFromParent();
    return;
  }
  llvm::LLVMContext &context = replaced->getContext();
  auto *i64 = llvm::Type::getInt64Ty(context);
  llvm::Constant *address = llvm::ConstantExpr::getInBoundsGetElementPtr(
      slot.slots->getValueType(), slot.slots,
      llvm::ArrayRef<llvm::Constant *>{llvm::ConstantInt::get(i64, 0),
                                       llvm::ConstantInt::get(i64, slot.index)});
  auto *load = new llvm::LoadInst(llvm::PointerType::getUnqual(context), address, "cairn.canonical",
                                  false, llvm::Align(8), replaced);
  load->setDebugLoc(replaced->getDebugLoc());
  replaced->replaceAllUsesWith(load);
  replaced->eraseFromParent();
}

void replaceMarker(const Marker &marker, llvm::GlobalVariable *descriptor, CanonicalSlot slot) {
  llvm::GlobalVariable *global = marker.global;
  llvm::removeFromUsedLists(*global->getParent(),
                            [global](llvm::Constant *c) { return c == global; });
  std::vector<llvm::CallBase *> typeRefs;
  for (llvm::Use &use : global->uses())
    if (auto *call = llvm::dyn_cast<llvm::CallBase>(use.getUser()))
      if (isTypeRefCall(*call, use)) typeRefs.push_back(call);
  for (llvm::CallBase *call : typeRefs) replaceTypeRef(*call, slot);
  global->replaceAllUsesWith(descriptor);
  global->eraseFromParent();
}

void dropTypeRefDeclaration(llvm::Module &module) {
  llvm::Function *typeRef = module.getFunction(kTypeRefFunction);
  if (typeRef != nullptr && typeRef->isDeclaration() && typeRef->use_empty())
    typeRef->eraseFromParent();
}

}  // namespace cairn::plugin
