// Identity numbers of objects, for their textual form (see identity.h).
#include "lang/identity.h"

#include <cstdint>

namespace cairn::lang {

uint64_t IdentityNumber(const void *obj) { return reinterpret_cast<uintptr_t>(obj) / 8; }

}  // namespace cairn::lang
