// Runtime errors of compiled programs (the cairn_rt_* functions of cairn/lang.h are built on
// RuntimeError) and the runtime's own internal errors.
#pragma once

#include <string>
#include <string_view>

#include "cairn/lang.h"

namespace cairn::lang {

// Flushes standard output, prints "<file>:<line>:<col>: <message>" on standard error (just the
// message if loc is NULL), aborts the open transaction and exits with CAIRN_EXIT_RUNTIME_ERROR.
// With an embedder's hook (cairn_set_runtime_error_hook), it aborts the transaction and calls
// the hook instead of printing; the hook jumps away without running destructors, so callers
// build the message in ErrorMessage() (then nothing of it leaks), not in a std::string of their
// own (which would leak when a hook is set).
[[noreturn]] void RuntimeError(const cairn_loc *loc, std::string_view message);

// Whether an embedder's hook is set (cairn_set_runtime_error_hook).
bool HasRuntimeErrorHook();

// This thread's buffer for a runtime error's message (reused by the next error).
std::string &ErrorMessage();

// A database or transaction call failed: "database error: <cairn_last_error()>".
[[noreturn]] void DatabaseError(const cairn_loc *loc);

// A call the generated code should never make (an argument out of its documented range):
// prints "cairn: internal error: <message>" and aborts, like the runtime's fatal errors.
[[noreturn]] void InternalError(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

}  // namespace cairn::lang
