// Settings from the environment: the one reading rule for the runtime's variables (CAIRN_GC_VERIFY,
// CAIRN_GC_TRACE, CAIRN_HEAP_RESERVE_MB, CAIRN_PERSIST_TRACE; docs/gc.md and docs/persistence.md
// say what each does). Part of the base library.
#pragma once

#include <cstdint>

namespace cairn {

// 1 if the variable is "1", 0 if it is "0", `fallback` if it is unset or anything else.
int EnvFlag(const char *name, int fallback);

// The variable as a positive whole number of MiB, in bytes; `fallback` if it is unset or empty.
// Anything else is a fatal error naming the variable and its value.
uint64_t EnvMegabytes(const char *name, uint64_t fallback);

}  // namespace cairn
