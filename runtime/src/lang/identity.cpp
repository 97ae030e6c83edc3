// Identity numbers of objects, for their textual form (see identity.h).
#include "lang/identity.h"

#include <cstdint>

#include "cairn/gc.h"

namespace cairn::lang {

// The runtime's identity hash: stable across collections, commits and processes.
uint64_t IdentityNumber(const void *obj) { return cairn_identity_hash(obj); }

}  // namespace cairn::lang
