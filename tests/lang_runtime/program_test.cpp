// Program start and end: arguments, exit, finish (programs in processes of their own).
#include "program.h"

#include <string>

namespace cairn_langtest {
namespace {

LANG_PROGRAM(PrintArgs) {
  cairn_print_int(cairn_lang_argc());
  cairn_print_newline();
  for (int64_t i = 0; i < cairn_lang_argc(); i++) {
    cairn_print_ref(Text("[" + std::string(cairn_lang_argv(i)) + "]"));
    cairn_print_newline();
  }
}

TEST(ProgramTest, Arguments) {
  ChildResult r = RunProgram("PrintArgs", {"a", "b c", "", "é"});
  ASSERT_TRUE(r.ok()) << r.Describe();
  EXPECT_EQ(r.out, "4\n[a]\n[b c]\n[]\n[é]\n");
}

TEST(ProgramTest, NoArguments) {
  ChildResult r = RunProgram("PrintArgs");
  ASSERT_TRUE(r.ok()) << r.Describe();
  EXPECT_EQ(r.out, "0\n");
}

LANG_PROGRAM(ExitWithArgument) {
  cairn_print_ref(Text("out"));
  cairn_lang_exit(std::stoll(cairn_lang_argv(0)));
}

TEST(ProgramTest, ExitFlushesAndGivesTheStatus) {
  for (int code : {0, 3, 70, 255}) {
    ChildResult r = RunProgram("ExitWithArgument", {std::to_string(code)});
    EXPECT_EQ(r.exit_code, code) << r.Describe();
    EXPECT_EQ(r.out, "out");
    EXPECT_EQ(r.err, "");
  }
}

LANG_PROGRAM(FinishFlushes) {
  cairn_print_ref(Text(std::string(100000, 'y')));
  cairn_print_ref(Text("done"));
}

TEST(ProgramTest, FinishFlushesAndExitsZero) {
  ChildResult r = RunProgram("FinishFlushes");
  ASSERT_TRUE(r.ok()) << r.Describe();
  EXPECT_EQ(r.out, std::string(100000, 'y') + "done");
}

LANG_PROGRAM(HeapIsReady) {
  cairn_print_bool(cairn_is_initialized());
  cairn_print_bool(cairn_txn_is_open());
}

TEST(ProgramTest, StartSetsUpTheHeap) {
  ChildResult r = RunProgram("HeapIsReady");
  ASSERT_TRUE(r.ok()) << r.Describe();
  EXPECT_EQ(r.out, "truefalse");
}

// A heap that cannot be set up (a reservation below the runtime's minimum) stops the program
// before it runs, with a message and status 70.
TEST(ProgramTest, StartFailsClearly) {
  ChildResult r = RunProgram("HeapIsReady", {}, "", {"CAIRN_HEAP_RESERVE_MB=1"});
  EXPECT_EQ(r.exit_code, CAIRN_EXIT_RUNTIME_ERROR) << r.Describe();
  EXPECT_EQ(r.out, "");
  const std::string prefix = "cairn: fatal: the heap could not be set up: ";
  EXPECT_EQ(r.err.substr(0, prefix.size()), prefix) << r.err;
}

// Running out of heap ends a program like a runtime error: the message says how to reserve
// more, what it printed before is flushed, status 70 and no signal (before: SIGABRT, 134).
LANG_PROGRAM(ExhaustsTheHeap) {
  cairn_print_ref(Text("before"));
  void *volatile keep[2048];  // ambiguous roots: every block stays live
  for (int i = 0; i < 2048; ++i) keep[i] = cairn_malloc_atomic(size_t(1) << 20);
  cairn_print_ref(Text("never"));
  (void)keep;
}

TEST(ProgramTest, RunningOutOfHeapExitsAsARuntimeError) {
  ChildResult r = RunProgram("ExhaustsTheHeap", {}, "", {"CAIRN_HEAP_RESERVE_MB=256"});
  EXPECT_EQ(r.exit_code, CAIRN_EXIT_RUNTIME_ERROR) << r.Describe();
  EXPECT_EQ(r.signal, 0) << r.Describe();
  EXPECT_EQ(r.out, "before");
  EXPECT_NE(r.err.find("cairn: fatal: out of memory"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("CAIRN_HEAP_RESERVE_MB"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace cairn_langtest
