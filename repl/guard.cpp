// Runtime errors as jumps back to the REPL (guard.h).
#include "guard.h"

#include <csetjmp>

#include "cairn/gc.h"
#include "cairn/lang.h"

namespace cairn::repl {
namespace {

sigjmp_buf *target = nullptr;  // the innermost runGuarded's, or nullptr outside one
RuntimeFailure *report = nullptr;

void onRuntimeError(const cairn_loc *loc, const char *message, void *) {
  if (target == nullptr) return;  // not from code the REPL runs: the runtime exits as usual
  report->fault = false;
  report->out_of_memory = false;
  report->code = 0;
  report->database.clear();
  report->file = loc && loc->file ? loc->file : "";
  report->line = loc ? loc->line : 0;
  report->col = loc ? loc->col : 0;
  report->message = message;
  siglongjmp(*target, 1);
}

// Runs inside the runtime's SIGSEGV handler (on its alternate stack) or cairn_make_resident,
// with the runtime consistent (cairn/persist.h): copy the report and jump back.
void onFaultError(const cairn_fault_error *error, void *) {
  if (target == nullptr) return;  // not from code the REPL runs: the runtime stops as usual
  report->fault = true;
  report->file.clear();
  report->line = report->col = 0;
  report->message = error->message ? error->message : "a page could not be faulted in";
  report->transaction_failed = error->transaction_failed != 0;
  report->code = error->code;
  report->database = error->database ? error->database : "";
  siglongjmp(*target, 1);
}

// Runs inside an allocation that found the heap full, with the heap consistent (cairn/gc.h).
void onOutOfMemory(const char *message, void *) {
  if (target == nullptr) return;  // not from code the REPL runs: the runtime stops as usual
  report->fault = false;
  report->out_of_memory = true;
  report->code = 0;
  report->database.clear();
  report->file.clear();
  report->line = report->col = 0;
  report->message = message;
  siglongjmp(*target, 1);
}

}  // namespace

void installGuardHooks() {
  cairn_set_runtime_error_hook(onRuntimeError, nullptr);
  cairn_set_fault_error_hook(onFaultError, nullptr);
  cairn_set_out_of_memory_hook(onOutOfMemory, nullptr);
}

bool runGuarded(const std::function<void()> &f, RuntimeFailure *failure) {
  sigjmp_buf env;
  sigjmp_buf *saved_target = target;
  RuntimeFailure *saved_report = report;
  // Whatever installed a SIGSEGV handler since (LLVM may), the runtime's comes first again.
  (void)cairn_install_fault_handler();
  if (sigsetjmp(env, 1) != 0) {
    target = saved_target;
    report = saved_report;
    // A fault error leaves the transaction failed: only abort is allowed (cairn/persist.h).
    if (failure->fault && failure->transaction_failed && cairn_txn_is_open()) cairn_txn_abort();
    // A full heap ends the input as a runtime error does, which aborts an open transaction.
    if (failure->out_of_memory && cairn_txn_is_open()) cairn_txn_abort();
    return false;
  }
  target = &env;
  report = failure;
  f();
  target = saved_target;
  report = saved_report;
  return true;
}

}  // namespace cairn::repl
