// TypeRegistry: the descriptors this process has registered, and the canonical descriptor of
// each type (cairn/type.h, invariants T1-T7).
//
// Invariants of the registry:
//   R1. registered_ maps every descriptor registered so far to its type's canonical descriptor;
//       a canonical descriptor maps to itself.
//   R2. by_fingerprint_ holds one entry per fingerprint: the canonical descriptor, the first one
//       registered with that fingerprint (T7), and the module that registered it (for messages).
//       by_name_ lists the canonical descriptors by type name (several fingerprints may share a
//       name: a type redefined with other fields).
//   R3. Every descriptor in registered_ satisfies T1-T3 and T6, and has the same layout as its
//       canonical one (T5) and, if it has methods, as many as the canonical one.
//   R4. A registration changes the registry entirely or not at all (a module's types are
//       accepted together or refused together).
//
// Registration may happen before cairn_init (module constructors run first), so the registry is
// a function-local static and every operation takes its lock. Entries are never removed (T4).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "cairn/status.h"
#include "cairn/type.h"

namespace cairn::types {

class TypeRegistry {
 public:
  static TypeRegistry &Get();

  // Registers a module's descriptors (T1-T7), all or none (R4). If canonical is not null, slot
  // i receives the canonical descriptor of types[i]. `module` names the module in messages (may
  // be null). Registering a descriptor again is OK.
  Status RegisterModule(std::span<const cairn_type *const> types, const cairn_type **canonical,
                        const char *module);
  Status Register(const cairn_type *t, const cairn_type **canonical = nullptr) {
    return RegisterModule(std::span<const cairn_type *const>(&t, 1), canonical, nullptr);
  }

  bool IsRegistered(const cairn_type *t) const;
  // The canonical descriptor of a registered descriptor, or null if t is not registered.
  const cairn_type *Canonical(const cairn_type *t) const;
  // The canonical descriptor with this fingerprint, or null.
  const cairn_type *Find(uint64_t fingerprint) const;
  // The canonical descriptors named `name`, in the order they were registered.
  std::vector<const cairn_type *> FindByName(std::string_view name) const;
  // The canonical descriptors whose name is `name` qualified by a module (`lib.items.Item` for
  // `Item`: a compiled program names a class of an imported module so when another of its
  // modules declares a class of that name too), in no particular order. For messages.
  std::vector<const cairn_type *> FindQualified(std::string_view name) const;

  // A registered descriptor for pointer-free blocks of `bytes` (rounded up to 8) bytes, named
  // atomic[N].
  const cairn_type *AtomicType(size_t bytes) { return PlainType(kAtomic, bytes); }
  // The descriptor of a filler of `bytes` (rounded up to 8) bytes: the place of a dead object on
  // a page that stays (P8 of heap/page_info.h), or of another database's object in a shared
  // page's stored form (D13 of persist/persistence.h). Pointer-free like an atomic block, and
  // named filler[N] so that a heap or database check can tell that nothing may refer to it.
  const cairn_type *FillerType(size_t bytes) { return PlainType(kFiller, bytes); }
  // Whether t is a FillerType (by its name: also a filler read from a database).
  static bool IsFiller(const cairn_type *t);
  // Of a stored type's name: kAtomic for atomic[N], kFiller for filler[N] (the runtime's own
  // pointer-free descriptors, which no program defines), else kNotPlain.
  enum PlainKind { kAtomic, kFiller, kNotPlain };
  static PlainKind PlainKindOf(std::string_view name);
  // The canonical descriptor of the array type `name` with elements of kind `elem` (a scalar or
  // a reference): the one registered with its fingerprint if there is one, else one built and
  // registered now. For a database's array types the program never mentions ([Shape] stored by
  // another program): an array's layout is known from its element kind alone.
  const cairn_type *ArrayType(const std::string &name, cairn_kind elem);

  size_t size() const;

 private:
  TypeRegistry();
  Status Validate(const cairn_type *t) const;
  Status CheckSameType(const cairn_type *canonical, const std::string &canonical_module,
                       const cairn_type *t, const char *module) const;
  void AddCanonical(const cairn_type *t, const char *module);  // R2, lock held

  mutable std::mutex mu_;
  std::unordered_map<const cairn_type *, const cairn_type *> registered_;  // R1
  struct Canon {
    const cairn_type *type;
    std::string module;
  };
  std::unordered_map<uint64_t, Canon> by_fingerprint_;                        // R2
  std::unordered_map<std::string, std::vector<const cairn_type *>> by_name_;  // R2
  const cairn_type *PlainType(PlainKind kind, size_t bytes);
  std::unordered_map<size_t, const cairn_type *> plain_[2];     // by kind, then rounded size
  std::unordered_map<std::string, const cairn_type *> arrays_;  // ArrayType's, by name and kind
  std::vector<const cairn_type *> plain_small_[2];  // fast path: index = bytes / 8, small sizes
};

}  // namespace cairn::types
