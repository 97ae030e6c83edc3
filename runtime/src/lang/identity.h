// The number an object shows in its textual form ("Point#N").
#pragma once

#include <cstdint>

namespace cairn::lang {

// The object's identity number. For now its address divided by 8, which is stable only while
// the object does not move (a collection moves objects that only the heap reaches) and is not
// kept across runs; switch this one function to cairn_identity_hash once the runtime has a
// stable identity hash (issue 9). Printed in hex.
uint64_t IdentityNumber(const void *obj);

}  // namespace cairn::lang
