// TypeRegistry: the descriptors this program has registered (cairn/type.h, invariants T1-T5).
//
// Registration may happen before cairn_init (module constructors run first), so the registry is
// a function-local static and registration is locked. Lookups by the collector are lock-free
// reads of data that only grows.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "cairn/status.h"
#include "cairn/type.h"

namespace cairn::types {

class TypeRegistry {
 public:
  static TypeRegistry &Get();

  // Checks T1-T3 and T5, then records the descriptor. Registering it again is OK.
  Status Register(const cairn_type *t);
  bool IsRegistered(const cairn_type *t) const;
  const cairn_type *Find(uint64_t fingerprint) const;

  // A registered descriptor for pointer-free blocks of `bytes` (rounded up to 8) bytes.
  const cairn_type *AtomicType(size_t bytes);

  size_t size() const;

 private:
  TypeRegistry();
  Status Validate(const cairn_type *t) const;

  mutable std::mutex mu_;
  std::unordered_set<const cairn_type *> registered_;
  std::unordered_map<uint64_t, const cairn_type *> by_fingerprint_;
  // Descriptors made at run time for atomic blocks, by rounded size.
  struct OwnedType {
    std::string name;
    cairn_type type;
  };
  std::unordered_map<size_t, std::unique_ptr<OwnedType>> atomic_;
  std::vector<const cairn_type *> atomic_small_;  // fast path: index = bytes / 8, small sizes
};

}  // namespace cairn::types
