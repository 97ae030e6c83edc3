// The runtime-error hook of cairn/lang.h (cairn_set_runtime_error_hook), what an embedder such
// as the REPL uses to end only the current input: the hook gets the position and the message,
// nothing is printed, the open transaction is aborted before it runs, and a jump out of it
// leaves the runtime usable; a hook that returns, and no hook, end the process as before.
#include <csetjmp>
#include <csignal>
#include <string>

#include "program.h"

namespace cairn_langtest {
namespace {

struct Caught {
  sigjmp_buf env;
  std::string message;
  std::string where;
  int txn_open_in_hook = -1;
  int calls = 0;
};

void JumpBack(const cairn_loc *loc, const char *message, void *ctx) {
  auto *c = static_cast<Caught *>(ctx);
  c->calls++;
  c->message = message;
  c->where = loc ? std::string(loc->file) + ":" + std::to_string(loc->line) + ":" +
                       std::to_string(loc->col)
                 : "";
  c->txn_open_in_hook = cairn_txn_is_open();
  siglongjmp(c->env, 1);
}

// Calls f with the hook set; true if f ended by a runtime error (caught in *c).
template <class F>
bool Catch(Caught *c, F f) {
  cairn_set_runtime_error_hook(JumpBack, c);
  bool caught = false;
  if (sigsetjmp(c->env, 1) == 0)
    f();
  else
    caught = true;
  cairn_set_runtime_error_hook(nullptr, nullptr);
  return caught;
}

using ErrorHookTest = LangTest;

TEST_F(ErrorHookTest, JumpsBackWithThePositionAndTheMessageAndPrintsNothing) {
  Caught c;
  testing::internal::CaptureStderr();
  EXPECT_TRUE(Catch(&c, [] { cairn_rt_div_zero(&kLoc); }));
  EXPECT_TRUE(Catch(&c, [] { cairn_rt_index(&kLoc2, 10, 3); }));
  EXPECT_EQ(testing::internal::GetCapturedStderr(), "");
  EXPECT_EQ(c.calls, 2);
  EXPECT_EQ(c.where, "dir/prog.cairn:41:17");
  EXPECT_EQ(c.message, "index out of range: index 10, length 3");
  EXPECT_TRUE(Catch(&c, [] { cairn_rt_error(nullptr, "no position"); }));
  EXPECT_EQ(c.where, "");
  EXPECT_EQ(c.message, "no position");
  // The runtime goes on: allocation, text, and errors again.
  EXPECT_EQ(Bytes(cairn_text_concat(&kLoc, Text("a"), Text("b"))), "ab");
  EXPECT_TRUE(Catch(&c, [] { cairn_text_concat(&kLoc, nullptr, Text("b")); }));
  EXPECT_EQ(c.message, "nil dereference: text in '+'");
  EXPECT_FALSE(Catch(&c, [] { cairn_str_int(5); }));
}

TEST_F(ErrorHookTest, AHookThatReturnsEndsTheProcessAsWithout) {
  auto returns = [](const cairn_loc *, const char *, void *) {};
  EXPECT_EXIT(
      {
        cairn_set_runtime_error_hook(returns, nullptr);
        cairn_rt_div_zero(&kLoc);
      },
      ::testing::ExitedWithCode(CAIRN_EXIT_RUNTIME_ERROR),
      ::testing::Eq(std::string("t.cairn:3:7: division by zero\n")));
  EXPECT_EXIT(
      {
        Caught c;
        cairn_set_runtime_error_hook(JumpBack, &c);
        cairn_set_runtime_error_hook(nullptr, nullptr);
        cairn_rt_panic(&kLoc, Text("removed"));
      },
      ::testing::ExitedWithCode(CAIRN_EXIT_RUNTIME_ERROR),
      ::testing::Eq(std::string("t.cairn:3:7: panic: removed\n")));
}

// Interrupts (cairn/lang.h): cairn_interrupt sets the flag compiled polls read, from a signal
// handler too; cairn_rt_interrupted clears it and is the runtime error "interrupted" through
// the hook; cairn_interrupt_clear drops a request no poll took.
TEST_F(ErrorHookTest, AnInterruptIsARuntimeErrorThatClearsTheFlag) {
  EXPECT_EQ(cairn_interrupt_pending, 0);
  signal(SIGUSR1, [](int) { cairn_interrupt(); });
  raise(SIGUSR1);
  signal(SIGUSR1, SIG_DFL);
  EXPECT_EQ(cairn_interrupt_pending, 1);
  cairn_interrupt_clear();
  EXPECT_EQ(cairn_interrupt_pending, 0);
  Caught c;
  cairn_interrupt();
  EXPECT_TRUE(Catch(&c, [] {
    if (cairn_interrupt_pending != 0) cairn_rt_interrupted(&kLoc2);
  }));
  EXPECT_EQ(c.message, "interrupted");
  EXPECT_EQ(c.where, "dir/prog.cairn:41:17");
  EXPECT_EQ(cairn_interrupt_pending, 0);
  EXPECT_EXIT(cairn_rt_interrupted(&kLoc), ::testing::ExitedWithCode(CAIRN_EXIT_RUNTIME_ERROR),
              ::testing::Eq(std::string("t.cairn:3:7: interrupted\n")));
}

// Database "h" with root [1]; then a transaction that sets the root to [2] fails by a runtime
// error caught by the hook: the transaction was aborted before the hook ran, and the program
// goes on to read the root ([1]) and to commit another change ([3]).
LANG_PROGRAM(HookAbortsTransaction) {
  cairn_db *db = cairn_lang_db_create(&kLoc, Text("h"));
  cairn_lang_atomic_begin(&kLoc);
  cairn_lang_db_set_root(&kLoc, db, IntArray({1}));
  cairn_lang_atomic_commit(&kLoc);

  Caught c;
  const bool caught = Catch(&c, [db] {
    cairn_lang_atomic_begin(&kLoc);
    cairn_lang_db_set_root(&kLoc, db, IntArray({2}));
    cairn_rt_panic(&kLoc, Text("in the middle"));
  });
  SayLine(std::string("caught=") + (caught ? "yes" : "no") + " message=" + c.message +
          " open_in_hook=" + std::to_string(c.txn_open_in_hook) +
          " open_after=" + std::to_string(cairn_txn_is_open()));
  // A database error inside a transaction is a runtime error too.
  const bool caught2 = Catch(&c, [] {
    cairn_lang_atomic_begin(&kLoc);
    cairn_lang_db_open(&kLoc, Text("no such database"));
  });
  SayLine(std::string("caught2=") + (caught2 ? "yes" : "no") +
          " open_after=" + std::to_string(cairn_txn_is_open()));

  cairn_lang_atomic_begin(&kLoc);
  cairn_print_ref(cairn_lang_db_get_root(&kLoc, db));
  cairn_print_newline();
  cairn_lang_db_set_root(&kLoc, db, IntArray({3}));
  cairn_lang_atomic_commit(&kLoc);
}

LANG_PROGRAM(ShowHookRoot) {
  cairn_db *db = cairn_lang_db_open(&kLoc, Text("h"));
  cairn_lang_atomic_begin(&kLoc);
  cairn_print_ref(cairn_lang_db_get_root(&kLoc, db));
  cairn_lang_atomic_commit(&kLoc);
}

using ErrorHookStoreTest = StoreTest;

TEST_F(ErrorHookStoreTest, TheTransactionIsAbortedBeforeTheHookAndTheProgramGoesOn) {
  ChildResult r = Run("HookAbortsTransaction");
  ASSERT_TRUE(r.ok()) << r.Describe();
  EXPECT_EQ(r.out,
            "caught=yes message=panic: in the middle open_in_hook=0 open_after=0\n"
            "caught2=yes open_after=0\n"
            "[1]\n");
  EXPECT_EQ(r.err, "");
  ChildResult shown = Run("ShowHookRoot");
  ASSERT_TRUE(shown.ok()) << shown.Describe();
  EXPECT_EQ(shown.out, "[3]");
}

}  // namespace
}  // namespace cairn_langtest
