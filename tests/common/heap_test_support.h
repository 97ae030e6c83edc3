// What the runtime's and the persistence tests share: building descriptors, keeping an address
// without making it an ambiguous root, and scrubbing dead stack.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "cairn/gc.h"

namespace cairn_testing {

// A descriptor with its fingerprint computed (constexpr, so it can be a static constant).
constexpr cairn_type MakeType(const char *name, uint64_t size, const uint32_t *refs, uint32_t nrefs,
                              const cairn_field *fields, uint32_t nfields, uint32_t flags = 0,
                              uint32_t elem_kind = CAIRN_KIND_NONE) {
  cairn_type t{};
  t.abi = CAIRN_TYPE_ABI;
  t.flags = flags;
  t.name = name;
  t.size = size;
  t.align = 8;
  t.elem_kind = elem_kind;
  t.nrefs = nrefs;
  t.refs = refs;
  t.nfields = nfields;
  t.fields = fields;
  t.fingerprint = cairn_type_fingerprint_compute(&t);
  return t;
}

constexpr cairn_field Field(const char *name, uint32_t offset, cairn_kind kind, uint32_t count = 1,
                            uint32_t size = 8) {
  return cairn_field{name, offset, static_cast<uint16_t>(kind), 0, count, size, nullptr};
}

// An address kept where the collector cannot see it as a root (the complement is stored).
class HiddenAddress {
 public:
  HiddenAddress() = default;
  explicit HiddenAddress(const void *p) : bits_(~reinterpret_cast<uintptr_t>(p)) {}
  void *get() const { return reinterpret_cast<void *>(~bits_); }

 private:
  uintptr_t bits_ = ~uintptr_t{0};
};

// Overwrites a stretch of dead stack so stale copies of references left by earlier calls do not
// act as ambiguous roots. Not instrumented by AddressSanitizer, whose fake frames would put the
// buffer elsewhere.
__attribute__((noinline, no_sanitize("address"))) inline void ScrubStack() {
  volatile char buf[32 * 1024];
  std::memset(const_cast<char *>(buf), 0, sizeof buf);
  asm volatile("" : : "r"(buf) : "memory");
}

}  // namespace cairn_testing
