// The number an object shows in its textual form ("Point#N").
#pragma once

#include <cstdint>

namespace cairn::lang {

// The object's identity number: cairn_identity_hash, stable across collections (objects move),
// commits and later processes, so a persistent object shows the same number in every run.
// Printed in decimal.
uint64_t IdentityNumber(const void *obj);

}  // namespace cairn::lang
