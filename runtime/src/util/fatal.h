// Fatal errors: conditions the runtime cannot report as a value (a call from the wrong thread,
// the heap's reservation exhausted, a corrupted heap). They print one clear message and abort.
#pragma once

namespace cairn {

[[noreturn]] void Fatal(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

}  // namespace cairn
