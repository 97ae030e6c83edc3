// What the runtime's and the persistence tests share: keeping an address without making it an
// ambiguous root, and scrubbing dead stack. (Descriptors are built with cairn/type_builder.hpp.)
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "cairn/gc.h"

namespace cairn_testing {

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
