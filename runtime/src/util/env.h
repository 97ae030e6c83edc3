// Settings from the environment: the one reading rule for the runtime's variables (CAIRN_GC_VERIFY,
// CAIRN_GC_TRACE, CAIRN_HEAP_RESERVE_MB, CAIRN_PERSIST_TRACE; docs/gc.md and docs/persistence.md
// say what each does). Part of the base library.
#pragma once

#include <cstdint>
#include <string>

namespace cairn {

// 1 if the variable is "1", 0 if it is "0", `fallback` if it is unset or anything else.
int EnvFlag(const char *name, int fallback);

// The variable as a positive whole number of MiB, in bytes, into *bytes; `fallback` if it is
// unset or empty. Anything else (a sign, letters, 0, too large) returns false and leaves in
// *problem a message naming the variable and its value.
bool EnvMegabytes(const char *name, uint64_t fallback, uint64_t *bytes, std::string *problem);

}  // namespace cairn
