// cairn_lang_catch_stack_overflow (cairn/lang.h): a recursion too deep is a runtime error that
// an embedder's hook gets (and may jump back from, as often as it happens), or that ends the
// program with its message and CAIRN_EXIT_RUNTIME_ERROR; any other fault goes to the handler it
// displaced, or to the default action. Each case runs in a process of its own.
#include <pthread.h>
#include <unistd.h>

#include <csetjmp>
#include <csignal>
#include <cstdint>
#include <string>

#include "program.h"

namespace cairn_langtest {
namespace {

volatile int stop_at = -1;
volatile uintptr_t bad_address = 16;  // a fault that is not a stack overflow  // never reached:
                                      // keeps the compiler from calling the recursion endless

__attribute__((noinline)) int Deep(int n) {
  volatile char pad[512];
  pad[0] = static_cast<char>(n);
  if (n == stop_at) return 0;
  return Deep(n + 1) + pad[0];
}

sigjmp_buf hook_env;
std::string hook_message;

void JumpBack(const cairn_loc *loc, const char *message, void *) {
  hook_message = std::string(loc == nullptr ? "" : "a position: ") + message;
  siglongjmp(hook_env, 1);
}

LANG_PROGRAM(OverflowThroughTheHook) {
  if (cairn_lang_catch_stack_overflow() != 0) SayLine("not installed");
  cairn_set_runtime_error_hook(JumpBack, nullptr);
  int caught = 0;
  for (int i = 0; i < 3; i++) {
    if (sigsetjmp(hook_env, 1) == 0)
      Deep(0);
    else
      caught++;
  }
  SayLine("caught " + std::to_string(caught));
  SayLine(hook_message);
}

TEST(StackOverflowTest, TheHookGetsItAndMayJumpBackEachTime) {
  ChildResult r = RunProgram("OverflowThroughTheHook");
  ASSERT_TRUE(r.ok()) << r.Describe();
  EXPECT_EQ(r.out.rfind("caught 3\nstack overflow: the calls nest too deeply for the stack of ", 0),
            0u)
      << r.out;
  EXPECT_EQ(r.err, "");
}

LANG_PROGRAM(OverflowWithoutHook) {
  if (cairn_lang_catch_stack_overflow() != 0) SayLine("not installed");
  Say("before");
  Deep(0);
  SayLine("not reached");
}

TEST(StackOverflowTest, WithoutAHookItEndsTheProgramWithTheMessage) {
  ChildResult r = RunProgram("OverflowWithoutHook");
  EXPECT_EQ(r.exit_code, CAIRN_EXIT_RUNTIME_ERROR) << r.Describe();
  EXPECT_EQ(r.out, "before");  // standard output flushed first
  EXPECT_EQ(r.err.rfind("stack overflow: the calls nest too deeply", 0), 0u) << r.err;
}

// A thread with a stack of its own: calling cairn_lang_catch_stack_overflow there moves the
// watch to that stack (the hook, set by the main thread, gets the thread's overflow too).
void *OverflowInThread(void *result) {
  if (cairn_lang_catch_stack_overflow() != 0) return nullptr;
  if (sigsetjmp(hook_env, 1) == 0) {
    Deep(0);
  } else {
    *static_cast<int *>(result) = 1;
  }
  return nullptr;
}

LANG_PROGRAM(OverflowInAnotherThread) {
  cairn_set_runtime_error_hook(JumpBack, nullptr);
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstacksize(&attr, 512 * 1024);
  pthread_t thread;
  int caught = 0;
  if (pthread_create(&thread, &attr, OverflowInThread, &caught) != 0) SayLine("no thread");
  pthread_join(thread, nullptr);
  pthread_attr_destroy(&attr);
  SayLine("caught " + std::to_string(caught));
  SayLine(hook_message);
}

TEST(StackOverflowTest, CallingItInAnotherThreadWatchesThatThreadsStack) {
  ChildResult r = RunProgram("OverflowInAnotherThread");
  ASSERT_TRUE(r.ok()) << r.Describe();
  // The thread's stack is 512 KiB, not the main thread's 8 MiB: the message names its size.
  EXPECT_EQ(
      r.out.rfind("caught 1\nstack overflow: the calls nest too deeply for the stack of 5", 0), 0u)
      << r.out;
}

void Mine(int, siginfo_t *info, void *) {
  const char msg[] = "mine\n";
  ssize_t ignored = write(STDOUT_FILENO, msg, sizeof msg - 1);
  (void)ignored;
  _exit(info->si_addr == reinterpret_cast<void *>(16) ? 42 : 43);
}

LANG_PROGRAM(OtherFaultGoesToTheDisplacedHandler) {
  struct sigaction sa{};
  sa.sa_sigaction = Mine;
  sa.sa_flags = SA_SIGINFO;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGSEGV, &sa, nullptr);
  if (cairn_lang_catch_stack_overflow() != 0) SayLine("not installed");
  *reinterpret_cast<volatile int *>(bad_address) = 1;
  SayLine("not reached");
}

TEST(StackOverflowTest, AnyOtherFaultGoesToTheHandlerItDisplaced) {
  ChildResult r = RunProgram("OtherFaultGoesToTheDisplacedHandler");
  EXPECT_EQ(r.exit_code, 42) << r.Describe();
  EXPECT_EQ(r.out, "mine\n");
}

LANG_PROGRAM(OtherFaultWithNothingBelow) {
  struct sigaction dfl{};
  dfl.sa_handler = SIG_DFL;
  sigemptyset(&dfl.sa_mask);
  sigaction(SIGSEGV, &dfl, nullptr);
  if (cairn_lang_catch_stack_overflow() != 0) SayLine("not installed");
  *reinterpret_cast<volatile int *>(bad_address) = 1;
  SayLine("not reached");
}

TEST(StackOverflowTest, AnyOtherFaultWithNothingBelowTakesTheDefaultAction) {
  ChildResult r = RunProgram("OtherFaultWithNothingBelow");
  EXPECT_EQ(r.signal, SIGSEGV) << r.Describe();
  EXPECT_EQ(r.out, "");
}

}  // namespace
}  // namespace cairn_langtest
