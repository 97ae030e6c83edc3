// Runtime errors as jumps back to the REPL (guard.h).
#include "guard.h"

#include <csetjmp>

#include "cairn/lang.h"

namespace cairn::repl {
namespace {

sigjmp_buf *target = nullptr;  // the innermost runGuarded's, or nullptr outside one
RuntimeFailure *report = nullptr;

void onRuntimeError(const cairn_loc *loc, const char *message, void *) {
  if (target == nullptr) return;  // not from code the REPL runs: the runtime exits as usual
  report->fault = false;
  report->file = loc && loc->file ? loc->file : "";
  report->line = loc ? loc->line : 0;
  report->col = loc ? loc->col : 0;
  report->message = message;
  siglongjmp(*target, 1);
}

}  // namespace

void installGuardHooks() { cairn_set_runtime_error_hook(onRuntimeError, nullptr); }

bool runGuarded(const std::function<void()> &f, RuntimeFailure *failure) {
  sigjmp_buf env;
  sigjmp_buf *saved_target = target;
  RuntimeFailure *saved_report = report;
  if (sigsetjmp(env, 1) != 0) {
    target = saved_target;
    report = saved_report;
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
