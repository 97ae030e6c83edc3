// Fatal errors: conditions the runtime cannot report as a value (a call from the wrong thread,
// the heap's reservation exhausted, a corrupted heap). They print one clear message and abort.
#pragma once

namespace cairn {

[[noreturn]] void Fatal(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

// The heap's reservation is exhausted: printed as Fatal, then the process ends with the status
// SetOutOfMemoryExit chose (cairn_set_out_of_memory_exit), else aborts as Fatal does.
[[noreturn]] void OutOfMemory(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

// OutOfMemory's exit status from now on (-1: abort, the default).
void SetOutOfMemoryExit(int status);

// The hook of cairn_set_out_of_memory_hook, called by an allocation that finds the heap full
// with the heap consistent (C1 of gc/gc_heap.h), before OutOfMemory; it may jump away.
void SetOutOfMemoryHook(void (*hook)(const char *message, void *ctx), void *ctx);
void CallOutOfMemoryHook(const char *message);

}  // namespace cairn
