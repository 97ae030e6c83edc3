// Cairn compiler plugin: the structural fingerprint of a layout.
//
// Computed by cairn_type_fingerprint_compute from cairn/type.h, on an in-memory image of the
// descriptor the pass will emit, so the pass and the runtime cannot disagree.
#ifndef CAIRN_PLUGIN_FINGERPRINT_H
#define CAIRN_PLUGIN_FINGERPRINT_H

#include <cstdint>

namespace cairn::plugin {

struct TypeLayout;

uint64_t fingerprintOf(const TypeLayout &layout);

}  // namespace cairn::plugin

#endif  // CAIRN_PLUGIN_FINGERPRINT_H
