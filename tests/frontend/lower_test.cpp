// What lowering (lower/lower.h) leaves out of the IR: runtime checks that cannot fail. A
// method's `self` is never nil (every call checks its receiver first, and `self` cannot be
// assigned: lowering.h, self_slot_), so a field access or a call through `self` has no nil
// check; a division by a non-zero constant has no division-by-zero check. Each test also
// checks that the same operation on a value that may fail keeps its check, so that the test
// fails if checks disappear altogether. And the two forms of a check (lowering.h, L2): at -O2
// a call of cairn_rt_check_failed per check, at -O0 one per function. And twins (lower.h,
// LowerOptions::twins): each function defined by one twin, what they share made alike.
#include "lower/lower.h"

#include <gtest/gtest.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Operator.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Support/raw_ostream.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <memory>
#include <string>

#include "cairn/lang.h"
#include "check/checker.h"
#include "check/module_loader.h"
#include "check/types.h"
#include "source/diagnostics.h"

namespace cairn::front {
namespace {

// A program's text, checked and lowered.
class Lowered {
 public:
  // twins, twin: LowerOptions'; name: the file's name (else a unique one).
  explicit Lowered(const std::string &text, bool optimized = true, unsigned twins = 1,
                   unsigned twin = 0, const std::string &name = "", bool interruptible = false)
      : interruptible_(interruptible) {
    path_ = ::testing::TempDir() + (name.empty() ? "lowertest_XXXXXX.cairn" : name + ".cairn");
    if (name.empty()) {
      const int fd = mkstemps(path_.data(), 6);
      EXPECT_GE(fd, 0);
      close(fd);
    }
    std::ofstream(path_) << text;
    LoadOptions lo;
    EXPECT_TRUE(loadProgram(path_, lo, sources_, diags_, loaded_));
    program_ = checkProgram(loaded_.order, loaded_.main, diags_, types_, true);
    if (diags_.hasErrors()) {
      diags_.print(stderr, false);
      ADD_FAILURE() << "the program has errors (above)";
      return;
    }
    LowerOptions options;
    options.debug_info = false;
    options.optimized = optimized;
    options.twins = twins;
    options.twin = twin;
    options.interruptible = interruptible_;
    if (program_) module_ = lowerProgram(*program_, sources_, context_, options);
  }
  const llvm::Module *module() const { return module_.get(); }
  const sem::Program *program() const { return program_.get(); }
  ~Lowered() { std::remove(path_.c_str()); }

  // How many calls of runtime function `callee` the function whose name ends in `suffix` makes.
  int callsIn(const std::string &suffix, const std::string &callee) const {
    if (!module_) return -1;
    for (const llvm::Function &f : *module_) {
      if (f.isDeclaration() || !f.getName().ends_with(suffix)) continue;
      int n = 0;
      for (const llvm::BasicBlock &bb : f)
        for (const llvm::Instruction &i : bb)
          if (const auto *call = llvm::dyn_cast<llvm::CallInst>(&i))
            if (const llvm::Function *target = call->getCalledFunction())
              n += target->getName() == callee ? 1 : 0;
      return n;
    }
    ADD_FAILURE() << "no function named *" << suffix;
    return -1;
  }

  // How many checks of `kind` (CAIRN_CHECK_*) the function whose name ends in `suffix` makes:
  // the sites its calls of cairn_rt_check_failed can report, a site table index each (a
  // constant at -O2, a phi of them at -O0).
  int checksIn(const std::string &suffix, uint32_t kind) const {
    if (!module_) return -1;
    const llvm::GlobalVariable *table = module_->getNamedGlobal("cairn.checks");
    if (table == nullptr) return 0;
    const auto *sites = llvm::cast<llvm::ConstantArray>(table->getInitializer());
    const uint64_t site_size =
        module_->getDataLayout().getTypeAllocSize(sites->getType()->getElementType());
    auto kindAt = [&](uint64_t index) {
      EXPECT_LT(index, sites->getNumOperands());
      if (index >= sites->getNumOperands()) return uint64_t{0};
      const auto *site = llvm::cast<llvm::ConstantStruct>(sites->getOperand(index));
      return llvm::cast<llvm::ConstantInt>(site->getOperand(3))->getZExtValue();
    };
    for (const llvm::Function &f : *module_) {
      if (f.isDeclaration() || !f.getName().ends_with(suffix)) continue;
      int n = 0;
      for (const llvm::BasicBlock &bb : f)
        for (const llvm::Instruction &i : bb) {
          const auto *call = llvm::dyn_cast<llvm::CallInst>(&i);
          if (call == nullptr || call->getCalledFunction() == nullptr ||
              call->getCalledFunction()->getName() != "cairn_rt_check_failed")
            continue;
          // -O0: the table's element at an index loaded from a stack slot that each check
          // stores its constant index into (L2); -O2: a constant address in the table (which
          // LLVM folds to a byte offset, or to the table itself for the first).
          const llvm::Value *site = call->getArgOperand(0);
          if (site == table) {
            n += kindAt(0) == kind ? 1 : 0;
            continue;
          }
          const auto *gep = llvm::dyn_cast<llvm::GEPOperator>(site);
          EXPECT_TRUE(gep != nullptr && gep->getPointerOperand() == table);
          if (gep == nullptr) continue;
          const llvm::Value *last = gep->getOperand(gep->getNumOperands() - 1);
          if (const auto *load = llvm::dyn_cast<llvm::LoadInst>(last)) {
            const auto *slot = llvm::dyn_cast<llvm::AllocaInst>(load->getPointerOperand());
            EXPECT_TRUE(slot != nullptr);
            if (slot == nullptr) continue;
            for (const llvm::User *u : slot->users()) {
              const auto *store = llvm::dyn_cast<llvm::StoreInst>(u);
              if (store == nullptr || store->getPointerOperand() != slot) continue;
              const auto *index = llvm::dyn_cast<llvm::ConstantInt>(store->getValueOperand());
              EXPECT_TRUE(index != nullptr);
              if (index != nullptr) n += kindAt(index->getZExtValue()) == kind ? 1 : 0;
            }
          } else {
            llvm::APInt offset(64, 0);
            EXPECT_TRUE(gep->accumulateConstantOffset(module_->getDataLayout(), offset));
            n += kindAt(offset.getZExtValue() / site_size) == kind ? 1 : 0;
          }
        }
      return n;
    }
    ADD_FAILURE() << "no function named *" << suffix;
    return -1;
  }

 private:
  bool interruptible_ = false;
  std::string path_;
  SourceManager sources_;
  Diagnostics diags_{sources_};
  TypeContext types_;
  LoadedProgram loaded_;
  std::unique_ptr<sem::Program> program_;
  llvm::LLVMContext context_;
  std::unique_ptr<llvm::Module> module_;
};

TEST(Lower, SelfIsNeverNilChecked) {
  Lowered l(R"(
class Counter {
    count: int
    fn bump() { self.count += 1 }
    fn twice() {
        self.bump()
        self.bump()
    }
    fn add(other: Counter) { self.count += other.count }
}
class Loud : Counter {
    override fn bump() { self.count += 10 }
}
fn main() {
    let c = new Counter { count: 0 }
    c.twice()
    c.add(c)
    println(c.count)
}
)");
  EXPECT_EQ(l.checksIn("Counter:bump", CAIRN_CHECK_NIL_FIELD), 0);
  EXPECT_EQ(l.checksIn("Counter:twice", CAIRN_CHECK_NIL_METHOD), 0);
  // other.count is checked; self.count is not.
  EXPECT_EQ(l.checksIn("Counter:add", CAIRN_CHECK_NIL_FIELD), 1);
  // The receiver of a call from outside a method is checked.
  EXPECT_GE(l.checksIn("main", CAIRN_CHECK_NIL_METHOD), 1);
}

TEST(Lower, DivisionByNonZeroConstantIsNotChecked) {
  Lowered l(R"(
fn byConstant(a: int) -> int {
    return a / 7 + a % 3
}
fn byVariable(a: int, b: int) -> int {
    return a / b
}
fn main() {
    println(byConstant(100) + byVariable(9, 3))
}
)");
  EXPECT_EQ(l.checksIn("byConstant", CAIRN_CHECK_DIV_ZERO), 0);
  EXPECT_EQ(l.checksIn("byVariable", CAIRN_CHECK_DIV_ZERO), 1);
}

// At -O2 each check calls cairn_rt_check_failed from a block of its own; at -O0 every check of
// a function branches to one block with one call (lowering.h, L2), which reports the same sites.
TEST(Lower, ChecksShareOneFailingBlockAtO0) {
  const char *text = R"(
class Box {
    items: [int]
}
fn sum(b: Box, i: int, j: int) -> int {
    return b.items[i] + b.items[j] / j
}
fn main() {
    println(sum(new Box { items: [1, 2, 3] }, 0, 1))
}
)";
  Lowered o2(text, true), o0(text, false);
  for (const Lowered *l : {&o2, &o0}) {
    // `b` (a parameter never assigned: its argument) is checked once: the second `b.items` is
    // on the straight line of checks after the first (L2, proven_nonnull_). Each `b.items` is
    // a fresh load, checked before its index.
    EXPECT_EQ(l->checksIn("sum", CAIRN_CHECK_NIL_FIELD), 1);
    EXPECT_EQ(l->checksIn("sum", CAIRN_CHECK_NIL), 2);
    EXPECT_EQ(l->checksIn("sum", CAIRN_CHECK_INDEX), 2);
    EXPECT_EQ(l->checksIn("sum", CAIRN_CHECK_DIV_ZERO), 1);
  }
  EXPECT_EQ(o2.callsIn("sum", "cairn_rt_check_failed"), 6);
  EXPECT_EQ(o0.callsIn("sum", "cairn_rt_check_failed"), 1);
}

// Twins (lower.h, LowerOptions::twins; emit.h, E1): lowered twice, as the two threads of an
// -O0 build do, the program's functions are each defined in exactly one twin, `main` and the
// module initializer in twin 0; what the twins share (every global value not their own, in
// module order, names and linkage) is alike, text literals' slots included, whichever twin's
// functions use them; what a twin makes for itself is tagged kCairnOwn and its constants are
// unnamed; neither module is unfit.
TEST(Lower, TwinsDefineEachFunctionOnceAndShareAlike) {
  std::string text =
      "class Shape {\n    name: text\n    fn area() -> int { return 0 }\n}\n"
      "class Square : Shape {\n    side: int\n    override fn area() -> int { return "
      "self.side * self.side }\n}\n"
      "var count = 0\nlet greeting = \"hello\"\n";
  for (int i = 0; i < 12; ++i) {
    const std::string n = std::to_string(i);
    text += "fn f" + n + "(s: Shape, xs: [int]) -> text {\n    count = count + xs[" + n +
            " % 3]\n    return s.name + \"-" + n + "\" + str(s.area())\n}\n";
  }
  text += "fn main() {\n    let s = new Square { name: \"sq\", side: 3 }\n";
  for (int i = 0; i < 12; ++i) text += "    println(f" + std::to_string(i) + "(s, [1, 2, 3]))\n";
  text += "    println(greeting, count)\n}\n";
  Lowered one(text, false, 2, 0, "twins_program"), two(text, false, 2, 1, "twins_program");
  ASSERT_TRUE(one.module() && two.module());
  auto shared = [](const llvm::Module &m) {
    std::vector<std::string> names;
    for (const llvm::Function &f : m)
      if (!f.hasMetadata(kCairnOwn)) names.push_back("fn " + f.getName().str());
    for (const llvm::GlobalVariable &g : m.globals())
      if (!g.hasMetadata(kCairnOwn)) names.push_back("var " + g.getName().str());
    return names;
  };
  EXPECT_EQ(shared(*one.module()), shared(*two.module()));
  EXPECT_EQ(one.module()->getNamedMetadata(kCairnTwinUnfit), nullptr);
  EXPECT_EQ(two.module()->getNamedMetadata(kCairnTwinUnfit), nullptr);
  size_t defined_in_two = 0;
  for (const auto &fn : one.program()->functions) {
    if (!fn->body) continue;
    const llvm::Function *a = one.module()->getFunction(fn->info->symbol);
    const llvm::Function *b = two.module()->getFunction(fn->info->symbol);
    ASSERT_TRUE(a && b) << fn->info->symbol;
    EXPECT_NE(a->isDeclaration(), b->isDeclaration()) << fn->info->symbol;
    EXPECT_EQ(!a->isDeclaration(), a->hasMetadata(kCairnBodyHere)) << fn->info->symbol;
    defined_in_two += b->isDeclaration() ? 0 : 1;
  }
  EXPECT_GT(defined_in_two, 3u);  // the bodies are shared out, not all in one twin
  const llvm::Function *main0 = one.module()->getFunction("main");
  EXPECT_TRUE(main0 && !main0->isDeclaration());
  EXPECT_EQ(two.module()->getFunction("main"), nullptr);
  // The slots of all 16 text literals ("hello", "sq", "-0".."-11", ...) in both twins.
  auto slots = [](const llvm::Module &m) {
    size_t n = 0;
    for (const llvm::GlobalVariable &g : m.globals())
      if (g.getName().starts_with("cairn.text") && !g.getName().starts_with("cairn.text.literals"))
        ++n;
    return n;
  };
  EXPECT_GE(slots(*one.module()), 14u);
  EXPECT_EQ(slots(*one.module()), slots(*two.module()));
  for (const llvm::Module *m : {one.module(), two.module()}) {
    for (const llvm::GlobalVariable &g : m->globals()) {
      if (g.hasMetadata(kCairnOwn) && g.hasLocalLinkage() && g.hasInitializer()) {
        EXPECT_TRUE(!g.hasName() || g.getName() == "cairn/checks" ||
                    g.getName() == "cairn/text.literals")
            << g.getName().str();
      }
    }
  }
}

// Symbols (types.h, S1 and S2): a module or class name is escaped in a symbol so that none
// starts with `llvm.`, `.L`, `cairn` or `_Z` or holds an '@', and distinct things never share
// one; a method's symbol is never a module function's.
TEST(Symbols, QualifiersAreEscapedApart) {
  EXPECT_EQ(symbolQualifier("prog", false), "prog");
  EXPECT_EQ(symbolQualifier("std.list", true), "std.list");
  EXPECT_EQ(symbolQualifier("std.list", false), "std$2elist");  // a main file std.list.cairn
  EXPECT_EQ(symbolQualifier("llvm", true), "_llvm");
  EXPECT_EQ(symbolQualifier("llvm.x", true), "_llvm.x");
  EXPECT_EQ(symbolQualifier("cairn", false), "_cairn");
  EXPECT_EQ(symbolQualifier("cairn_heap_text_m", true), "_cairn_heap_text_m");
  EXPECT_EQ(symbolQualifier("_llvm", false), "__llvm");
  EXPECT_EQ(symbolQualifier("_ZL3abc", false), "__ZL3abc");
  EXPECT_EQ(symbolQualifier(".Lprog", false), "$2eLprog");
  EXPECT_EQ(symbolQualifier("a@@b", false), "a$40$40b");
  EXPECT_EQ(symbolQualifier("a$b", false), "a$24b");
  EXPECT_EQ(symbolQualifier("caf\xc3\xa9", false), "caf$c3$a9");
  EXPECT_EQ(symbolQualifier("LLVM", false), "LLVM");
}

TEST(Symbols, NoProgramSymbolIsLlvmsOrAnother) {
  // A main module named llvm, a class named llvm, a method and a module function of one name.
  const std::string text =
      "class llvm {\n    n: int\n    fn get() -> int { return self.n }\n}\n"
      "var kept: llvm = nil\n"
      "fn get() -> int { return 7 }\n"
      "fn main() {\n    kept = new llvm { n: 5 }\n    println(kept.get() + get())\n}\n";
  for (bool optimized : {false, true}) {
    Lowered lowered(text, optimized, 1, 0, "llvm");
    ASSERT_TRUE(lowered.module());
    const llvm::Module &m = *lowered.module();
    std::string errors;
    llvm::raw_string_ostream os(errors);
    EXPECT_FALSE(llvm::verifyModule(m, &os)) << errors;
    size_t defined = 0;
    for (const llvm::Function &f : m) {
      if (f.isDeclaration()) continue;
      ++defined;
      EXPECT_FALSE(f.getName().starts_with("llvm.")) << f.getName().str();
      EXPECT_FALSE(f.isIntrinsic()) << f.getName().str();
    }
    EXPECT_GE(defined, 3u);
    for (const llvm::GlobalVariable &g : m.globals())
      EXPECT_FALSE(g.getName().starts_with("llvm.") && !g.getName().starts_with("llvm.used") &&
                   !g.getName().starts_with("llvm.global"))
          << g.getName().str();
    const llvm::Function *method = m.getFunction("_llvm:get");
    const llvm::Function *fn = m.getFunction("_llvm.get");
    ASSERT_TRUE(method && fn);
    EXPECT_NE(method, fn);
    EXPECT_NE(m.getGlobalVariable("_llvm.kept", true), nullptr);
  }
}

// Polls (lower.h, LowerOptions::interruptible): the REPL's code reads the interrupt flag at the
// head of every loop (while, for over a range, an array, an object) and at the entry of every
// function, and calls cairn_rt_interrupted when it is set; a program's code has no poll at all.
TEST(Lower, EveryLoopPollsForAnInterruptOnlyWhenAsked) {
  const std::string text =
      "class Bag {\n    fn len() -> int { return 2 }\n    fn get(i: int) -> int { return i }\n}\n"
      "fn loops(xs: [int]) -> int {\n    var n = 0\n    while n < 3 { n = n + 1 }\n"
      "    for i in 0..4 { n = n + i }\n    for x in xs { n = n + x }\n"
      "    for y in new Bag {} { n = n + y }\n    return n\n}\n"
      "fn straight(a: int) -> int { return a + 1 }\n"
      "fn main() {\n    println(loops([1, 2]) + straight(1))\n}\n";
  for (bool optimized : {false, true}) {
    Lowered polled(text, optimized, 1, 0, "", true), plain(text, optimized, 1, 0, "", false);
    ASSERT_TRUE(polled.module() && plain.module());
    EXPECT_EQ(polled.callsIn(".loops", "cairn_rt_interrupted"), 5);
    EXPECT_EQ(polled.callsIn(".straight", "cairn_rt_interrupted"), 1);
    EXPECT_EQ(plain.callsIn(".straight", "cairn_rt_interrupted"), 0);
    EXPECT_EQ(plain.callsIn(".loops", "cairn_rt_interrupted"), 0);
    EXPECT_NE(polled.module()->getNamedGlobal("cairn_interrupt_pending"), nullptr);
    EXPECT_EQ(plain.module()->getNamedGlobal("cairn_interrupt_pending"), nullptr);
    std::string errors;
    llvm::raw_string_ostream os(errors);
    EXPECT_FALSE(llvm::verifyModule(*polled.module(), &os)) << errors;
  }
}

}  // namespace
}  // namespace cairn::front
