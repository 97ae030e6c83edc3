#include "types/type_registry.h"

#include <cinttypes>
#include <cstdio>

#include "cairn/gc.h"

namespace cairn::types {

namespace {

std::string Describe(const cairn_type *t) {
  char fp[32];
  std::snprintf(fp, sizeof fp, "%016" PRIx64, t->fingerprint);
  return std::string("type '") + (t->name ? t->name : "(unnamed)") + "' (fingerprint " + fp + ")";
}

Status Invalid(const cairn_type *t, const std::string &what) {
  return Status(CAIRN_INVALID_ARGUMENT, Describe(t) + ": " + what +
                                            "; the descriptor is malformed (if the compiler "
                                            "plugin made it, please report a bug)");
}

bool SameLayout(const cairn_type *a, const cairn_type *b) {
  if (a->size != b->size || a->elem_kind != b->elem_kind || a->nrefs != b->nrefs ||
      (a->flags & CAIRN_TYPE_ARRAY) != (b->flags & CAIRN_TYPE_ARRAY))
    return false;
  for (uint32_t i = 0; i < a->nrefs; i++)
    if (a->refs[i] != b->refs[i]) return false;
  return true;
}

}  // namespace

TypeRegistry &TypeRegistry::Get() {
  static TypeRegistry *registry = new TypeRegistry();  // never destroyed: types outlive exit
  return *registry;
}

TypeRegistry::TypeRegistry() {
  for (const cairn_type *t : {&cairn_text_type, &cairn_ref_array_type, &cairn_i64_array_type,
                              &cairn_f64_array_type, &cairn_bool_array_type}) {
    registered_.insert(t);
    by_fingerprint_.emplace(t->fingerprint, t);
  }
}

Status TypeRegistry::Validate(const cairn_type *t) const {
  // Nothing but `abi` may be read before it is checked: a program compiled without the compiler
  // plugin passes its marker global, which may be smaller than a descriptor.
  if (t->abi != CAIRN_TYPE_ABI) {
    char where[32];
    std::snprintf(where, sizeof where, "%p", static_cast<const void *>(t));
    return Status(CAIRN_UNSUPPORTED,
                  std::string("the descriptor at ") + where + " has ABI version " +
                      std::to_string(t->abi) + " where this runtime reads " +
                      std::to_string(CAIRN_TYPE_ABI) +
                      ": either the program was built against another runtime (rebuild it), or "
                      "it was compiled without the Cairn compiler plugin and a type marker "
                      "reached the runtime (compile with -fpass-plugin=CairnDescriptors.so)");
  }
  if (!t->name || !t->name[0]) return Invalid(t, "it has no name");
  if (t->flags & CAIRN_TYPE_LAYOUT)
    return Invalid(t, "it is a nested layout, not a heap type, so it cannot be registered");
  if (t->fingerprint == 0 || t->fingerprint != cairn_type_fingerprint_compute(t))
    return Invalid(t, "its fingerprint does not match its structure (T1)");
  const bool array = t->flags & CAIRN_TYPE_ARRAY;
  if (array && (t->elem_kind == CAIRN_KIND_NONE || t->size == 0))
    return Invalid(t, "an array type needs an element kind and an element size (T3)");
  if (!array && t->elem_kind != CAIRN_KIND_NONE)
    return Invalid(t, "a plain type must not have an element kind (T3)");
  if (t->nrefs && !t->refs) return Invalid(t, "nrefs > 0 but no offsets (T2)");
  if (t->nfields && !t->fields) return Invalid(t, "nfields > 0 but no fields");
  if (t->size > (uint64_t{1} << 40)) return Invalid(t, "its size is absurd");
  for (uint32_t i = 0; i < t->nrefs; i++) {
    uint32_t off = t->refs[i];
    if (off % 8)
      return Invalid(t, "reference offset " + std::to_string(off) + " is not 8-aligned (T2)");
    if (uint64_t(off) + 8 > t->size)
      return Invalid(t, "reference offset " + std::to_string(off) + " lies outside its " +
                            std::to_string(t->size) + " bytes (T2)");
    if (i && off <= t->refs[i - 1])
      return Invalid(t, "reference offsets are not strictly increasing (T2)");
  }
  if (array && t->elem_kind == CAIRN_KIND_REF && (t->size != 8 || t->nrefs != 1))
    return Invalid(t, "an array of references must have 8-byte elements and one offset 0");
  return Status::Ok();
}

Status TypeRegistry::Register(const cairn_type *t) {
  if (!t) return Status(CAIRN_INVALID_ARGUMENT, "cairn_register_type was given NULL");
  std::lock_guard<std::mutex> lock(mu_);
  if (registered_.count(t)) return Status::Ok();
  Status s = Validate(t);
  if (!s.ok()) return s;
  auto [it, inserted] = by_fingerprint_.emplace(t->fingerprint, t);
  if (!inserted && !SameLayout(it->second, t))
    return Status(CAIRN_TYPE_MISMATCH,
                  Describe(t) +
                      " is registered twice with different layouts (T5): the program "
                      "was built from two different definitions of it; rebuild all "
                      "of it from one definition");
  registered_.insert(t);
  return Status::Ok();
}

bool TypeRegistry::IsRegistered(const cairn_type *t) const {
  std::lock_guard<std::mutex> lock(mu_);
  return registered_.count(t) != 0;
}

const cairn_type *TypeRegistry::Find(uint64_t fingerprint) const {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = by_fingerprint_.find(fingerprint);
  return it == by_fingerprint_.end() ? nullptr : it->second;
}

size_t TypeRegistry::size() const {
  std::lock_guard<std::mutex> lock(mu_);
  return registered_.size();
}

const cairn_type *TypeRegistry::AtomicType(size_t bytes) {
  size_t rounded = (bytes + 7) & ~size_t{7};
  size_t slot = rounded / 8;
  if (slot < atomic_small_.size() && atomic_small_[slot]) return atomic_small_[slot];
  std::lock_guard<std::mutex> lock(mu_);
  auto &owned = atomic_[rounded];
  if (!owned) {
    owned = std::make_unique<OwnedType>();
    owned->name = "atomic[" + std::to_string(rounded) + "]";
    cairn_type &t = owned->type;
    t = cairn_type{};
    t.abi = CAIRN_TYPE_ABI;
    t.name = owned->name.c_str();
    t.size = rounded;
    t.align = 8;
    t.fingerprint = cairn_type_fingerprint_compute(&t);
    registered_.insert(&t);
    by_fingerprint_.emplace(t.fingerprint, &t);
  }
  if (slot < 1024) {
    if (atomic_small_.size() <= slot) atomic_small_.resize(1024, nullptr);
    atomic_small_[slot] = &owned->type;
  }
  return &owned->type;
}

}  // namespace cairn::types
