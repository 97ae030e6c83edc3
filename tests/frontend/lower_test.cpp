// What lowering (lower/lower.h) leaves out of the IR: runtime checks that cannot fail. A
// method's `self` is never nil (every call checks its receiver first, and `self` cannot be
// assigned: lowering.h, self_slot_), so a field access or a call through `self` has no nil
// check; a division by a non-zero constant has no division-by-zero check. Each test also
// checks that the same operation on a value that may fail keeps its check, so that the test
// fails if checks disappear altogether.
#include "lower/lower.h"

#include <gtest/gtest.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <memory>
#include <string>

#include "check/checker.h"
#include "check/module_loader.h"
#include "check/types.h"
#include "source/diagnostics.h"

namespace cairn::front {
namespace {

// A program's text, checked and lowered.
class Lowered {
 public:
  explicit Lowered(const std::string &text) {
    path_ = ::testing::TempDir() + "lowertest_XXXXXX.cairn";
    const int fd = mkstemps(path_.data(), 6);
    EXPECT_GE(fd, 0);
    close(fd);
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
    if (program_) module_ = lowerProgram(*program_, sources_, context_, options);
  }
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

 private:
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
  EXPECT_EQ(l.callsIn("Counter.bump", "cairn_rt_nil_field"), 0);
  EXPECT_EQ(l.callsIn("Counter.twice", "cairn_rt_nil_method"), 0);
  // other.count is checked; self.count is not.
  EXPECT_EQ(l.callsIn("Counter.add", "cairn_rt_nil_field"), 1);
  // The receiver of a call from outside a method is checked.
  EXPECT_GE(l.callsIn("main", "cairn_rt_nil_method"), 1);
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
  EXPECT_EQ(l.callsIn("byConstant", "cairn_rt_div_zero"), 0);
  EXPECT_EQ(l.callsIn("byVariable", "cairn_rt_div_zero"), 1);
}

}  // namespace
}  // namespace cairn::front
