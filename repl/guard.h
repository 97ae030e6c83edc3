// Running compiled code so that a runtime error ends only the current input.
//
// runGuarded(f) calls f with a jump target set: a runtime error in compiled code (through the
// hook of cairn/lang.h, cairn_set_runtime_error_hook) and an error while faulting a persistent
// page in (the fault-error hook of cairn/persist.h) jump back to it, and runGuarded returns
// false with what happened. The runtime has already aborted the open transaction for a runtime
// error; for a fault error the transaction is failed and runGuarded aborts it. A full heap
// (the out-of-memory hook of cairn/gc.h, called inside the allocation) is reported as a runtime
// error, and runGuarded aborts the open transaction, as the runtime does for one. Either way the
// runtime is usable again, and the session goes on.
#ifndef CAIRN_REPL_GUARD_H
#define CAIRN_REPL_GUARD_H

#include <cstdint>
#include <functional>
#include <string>

namespace cairn::repl {

struct RuntimeFailure {
  bool fault = false;          // an error while faulting a page in (else a runtime error)
  bool out_of_memory = false;  // a runtime error: the heap is full (cairn_set_out_of_memory_hook)
  std::string file;            // where in the source ("" if unknown)
  uint32_t line = 0;
  uint32_t col = 0;
  std::string message;
  bool transaction_failed = false;  // a fault error failed the open transaction (now aborted)
  int code = 0;                     // a fault error's cairn_status (CAIRN_TYPE_MISMATCH, ...)
  std::string database;             // ... and its database's name
};

// Installs the hooks (once, at the session's start, after the store's SIGSEGV handler could be
// installed by LLVM's): see the top of this file.
void installGuardHooks();

// Calls f; false if a runtime or fault error ended it (*failure says which and where).
bool runGuarded(const std::function<void()> &f, RuntimeFailure *failure);

}  // namespace cairn::repl

#endif  // CAIRN_REPL_GUARD_H
