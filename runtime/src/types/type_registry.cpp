#include "types/type_registry.h"

#include <cinttypes>
#include <cstdio>

#include "cairn/gc.h"
#include "cairn/type_builder.hpp"
#include "types/layout_diff.h"
#include "util/fatal.h"

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

std::string ModuleName(const char *module) {
  return module && module[0] ? std::string("module ") + module : "a module with no name";
}

std::string Offsets(const uint32_t *refs, uint32_t n) {
  std::string s = "{";
  for (uint32_t i = 0; i < n; i++) s += (i ? ", " : "") + std::to_string(refs[i]);
  return s + "}";
}

// T6 for t's fields, and (recursively) its nested structs'. depth bounds a malformed cycle.
Status CheckFields(const cairn_type *top, const cairn_type *t, int depth) {
  if (depth > CAIRN_MAX_NESTING)
    return Invalid(top, "its nested structs are nested more than " +
                            std::to_string(CAIRN_MAX_NESTING) + " deep");
  if (t->nfields && !t->fields) return Invalid(top, "nfields > 0 but no fields");
  const std::string in = t == top ? "" : " of its nested struct '" + std::string(t->name) + "'";
  uint64_t end = 0;  // of the previous field
  for (uint32_t i = 0; i < t->nfields; i++) {
    const cairn_field &f = t->fields[i];
    const std::string name = "field " + std::to_string(i) + in;
    if (!f.name || !f.name[0]) return Invalid(top, name + " has no name");
    const std::string what = "field '" + std::string(f.name) + "'" + in;
    if (f.kind == CAIRN_KIND_NONE || f.kind > CAIRN_KIND_STRUCT)
      return Invalid(top, what + " has no valid kind (" + std::to_string(f.kind) + ")");
    if (f.kind == CAIRN_KIND_STRUCT) {
      if (!f.nested) return Invalid(top, what + " is a struct with no nested layout (T6)");
      if (f.nested->abi != CAIRN_TYPE_ABI)
        return Invalid(top, what + "'s nested layout has another ABI version");
      if (f.size != f.nested->size)
        return Invalid(top, what + " has elements of " + std::to_string(f.size) +
                                " bytes but its struct has " + std::to_string(f.nested->size) +
                                " (T6)");
      Status s = CheckFields(top, f.nested, depth + 1);
      if (!s.ok()) return s;
    } else if (f.size != cairn_kind_size(f.kind)) {
      return Invalid(top, what + " of kind " + KindName(f.kind) + " has elements of " +
                              std::to_string(f.size) + " bytes, not " +
                              std::to_string(cairn_kind_size(f.kind)) + " (T6)");
    }
    if (f.offset < end)
      return Invalid(top, what + " at offset " + std::to_string(f.offset) +
                              " overlaps the field before it or is out of offset order (T6)");
    end = uint64_t(f.offset) + uint64_t(f.count) * f.size;
    if (end > t->size)
      return Invalid(top, what + " ends at byte " + std::to_string(end) + ", outside the " +
                              std::to_string(t->size) + " bytes" + in + " (T6)");
  }
  if (!cairn_type_refs_agree(t)) {
    std::vector<uint32_t> want(CountRefs(std::span(t->fields, t->nfields)));
    RefsFromFields(std::span(t->fields, t->nfields), want.data());
    if (t->nfields == 0 && (t->flags & CAIRN_TYPE_ARRAY) && t->elem_kind == CAIRN_KIND_REF)
      want = {0};
    return Invalid(top, "its references" + in + " " + Offsets(t->refs, t->nrefs) +
                            " are not those its fields describe " +
                            Offsets(want.data(), uint32_t(want.size())) + " (T6)");
  }
  return Status::Ok();
}

}  // namespace

TypeRegistry &TypeRegistry::Get() {
  static TypeRegistry *registry = new TypeRegistry();  // never destroyed: types outlive exit
  return *registry;
}

TypeRegistry::TypeRegistry() {
  for (const cairn_type *t :
       {&cairn_text_type, &cairn_ref_array_type, &cairn_i64_array_type, &cairn_f64_array_type,
        &cairn_bool_array_type, &cairn_text_array_type, &cairn_byte_buffer_type}) {
    registered_.emplace(t, t);
    AddCanonical(t, "the runtime");
  }
}

void TypeRegistry::AddCanonical(const cairn_type *t, const char *module) {
  by_fingerprint_.emplace(t->fingerprint, Canon{t, module ? module : ""});
  by_name_[t->name].push_back(t);
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
  if (array && t->nrefs && t->size % 8)
    return Invalid(t, "its elements hold references but are " + std::to_string(t->size) +
                          " bytes, not a multiple of 8: every reference must be 8-aligned in the "
                          "array (T2)");
  if (array && t->elem_kind == CAIRN_KIND_REF && (t->size != 8 || t->nrefs != 1))
    return Invalid(t, "an array of references must have 8-byte elements and one offset 0");
  if (t->nmethods && !t->methods) return Invalid(t, "nmethods > 0 but no method table");
  return CheckFields(t, t, 0);
}

Status TypeRegistry::CheckSameType(const cairn_type *canonical, const std::string &canonical_module,
                                   const cairn_type *t, const char *module) const {
  const std::string first = canonical_module.empty() ? "its first registration"
                                                     : "its first registration (by " +
                                                           (canonical_module == "the runtime"
                                                                ? canonical_module
                                                                : "module " + canonical_module) +
                                                           ")";
  uint32_t where = 0;
  cairn_layout_diff d = cairn_type_layout_compare(canonical, t, &where);
  if (d != CAIRN_LAYOUT_SAME)
    return Status(CAIRN_TYPE_MISMATCH,
                  Describe(t) + " registered by " + ModuleName(module) +
                      " has another layout than " + first +
                      " (T5): " + DescribeLayoutDiff(canonical, "there", t, "here", d, where) +
                      ". The program was built from two different definitions of it; rebuild "
                      "all of it from one definition");
  if (t->nmethods != 0 && t->nmethods != canonical->nmethods)
    return Status(CAIRN_TYPE_MISMATCH,
                  Describe(t) + " registered by " + ModuleName(module) + " has " +
                      std::to_string(t->nmethods) + " methods, but " + first + " has " +
                      std::to_string(canonical->nmethods) +
                      "; the method table of a type is fixed by its first registration "
                      "(docs/plugin.md, Canonical descriptors): rebuild all of the program from "
                      "one definition of the type, or give a redefined type another name");
  return Status::Ok();
}

Status TypeRegistry::RegisterModule(std::span<const cairn_type *const> types,
                                    const cairn_type **canonical, const char *module) {
  std::lock_guard<std::mutex> lock(mu_);
  std::vector<const cairn_type *> canon(types.size());
  std::unordered_map<uint64_t, const cairn_type *> fresh;  // new fingerprints in this call
  auto refused = [&](const Status &s) {
    if (!module) return s;
    return Status(s.code(), ModuleName(module) + ": " + s.message());
  };
  for (size_t i = 0; i < types.size(); i++) {
    const cairn_type *t = types[i];
    if (!t)
      return refused(
          Status(CAIRN_INVALID_ARGUMENT,
                 "type registration was given NULL (descriptor " + std::to_string(i) + ")"));
    if (auto it = registered_.find(t); it != registered_.end()) {
      canon[i] = it->second;
      continue;
    }
    Status s = Validate(t);
    if (!s.ok()) return refused(s);
    if (auto it = by_fingerprint_.find(t->fingerprint); it != by_fingerprint_.end()) {
      s = CheckSameType(it->second.type, it->second.module, t, module);
      canon[i] = it->second.type;
    } else if (auto f = fresh.find(t->fingerprint); f != fresh.end()) {
      s = CheckSameType(f->second, module ? module : "", t, module);
      canon[i] = f->second;
    } else {
      fresh.emplace(t->fingerprint, t);
      canon[i] = t;
    }
    if (!s.ok()) return s;
  }
  // Accepted, all of them (R4).
  for (size_t i = 0; i < types.size(); i++) {
    if (!registered_.emplace(types[i], canon[i]).second) continue;
    if (canon[i] == types[i]) AddCanonical(types[i], module);
  }
  if (canonical)
    for (size_t i = 0; i < types.size(); i++) canonical[i] = canon[i];
  return Status::Ok();
}

bool TypeRegistry::IsRegistered(const cairn_type *t) const {
  std::lock_guard<std::mutex> lock(mu_);
  return registered_.count(t) != 0;
}

const cairn_type *TypeRegistry::Canonical(const cairn_type *t) const {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = registered_.find(t);
  return it == registered_.end() ? nullptr : it->second;
}

const cairn_type *TypeRegistry::Find(uint64_t fingerprint) const {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = by_fingerprint_.find(fingerprint);
  return it == by_fingerprint_.end() ? nullptr : it->second.type;
}

std::vector<const cairn_type *> TypeRegistry::FindByName(std::string_view name) const {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = by_name_.find(std::string(name));
  return it == by_name_.end() ? std::vector<const cairn_type *>{} : it->second;
}

std::vector<const cairn_type *> TypeRegistry::FindQualified(std::string_view name) const {
  std::lock_guard<std::mutex> lock(mu_);
  std::vector<const cairn_type *> found;
  for (const auto &[n, list] : by_name_)
    if (n.size() > name.size() + 1 && n.compare(n.size() - name.size(), name.size(), name) == 0 &&
        n[n.size() - name.size() - 1] == '.' && n.find('[') >= n.size() - name.size())
      found.insert(found.end(), list.begin(), list.end());
  return found;
}

size_t TypeRegistry::size() const {
  std::lock_guard<std::mutex> lock(mu_);
  return registered_.size();
}

const cairn_type *TypeRegistry::PlainType(PlainKind kind, size_t bytes) {
  size_t rounded = (bytes + 7) & ~size_t{7};
  size_t slot = rounded / 8;
  std::vector<const cairn_type *> &small = plain_small_[kind];
  if (slot < small.size() && small[slot]) return small[slot];
  std::lock_guard<std::mutex> lock(mu_);
  const cairn_type *&t = plain_[kind][rounded];
  if (!t) {
    const char *prefix = kind == kAtomic ? "atomic[" : "filler[";
    const cairn_type *built =
        TypeBuilder::Plain(prefix + std::to_string(rounded) + "]", rounded).Build();
    // A program may have registered a type of the same structure first: that one is canonical.
    if (auto it = by_fingerprint_.find(built->fingerprint); it != by_fingerprint_.end()) {
      if (!cairn_type_same_layout(it->second.type, built))
        Fatal(
            "type '%s' registered by %s is not %zu bytes of untyped data; the runtime "
            "reserves names of the form atomic[N] and filler[N] for those: rename the type",
            built->name, ModuleName(it->second.module.c_str()).c_str(), rounded);
      t = it->second.type;
      registered_.emplace(built, t);
    } else {
      t = built;
      registered_.emplace(t, t);
      AddCanonical(t, "the runtime");
    }
  }
  if (slot < 1024) {
    if (small.size() <= slot) small.resize(1024, nullptr);
    small[slot] = t;
  }
  return t;
}

bool TypeRegistry::IsFiller(const cairn_type *t) {
  return t != nullptr && t->name != nullptr && PlainKindOf(t->name) == kFiller;
}

TypeRegistry::PlainKind TypeRegistry::PlainKindOf(std::string_view name) {
  if (name.rfind("atomic[", 0) == 0) return kAtomic;
  if (name.rfind("filler[", 0) == 0) return kFiller;
  return kNotPlain;
}

const cairn_type *TypeRegistry::ArrayType(const std::string &name, cairn_kind elem) {
  std::lock_guard<std::mutex> lock(mu_);
  // One descriptor built per array type and element kind, however often asked for (T4: it is
  // never freed).
  const cairn_type *&built = arrays_[name + '\0' + char('0' + int(elem))];
  if (!built) built = TypeBuilder::Array(name, elem).Build();
  if (auto it = by_fingerprint_.find(built->fingerprint); it != by_fingerprint_.end()) {
    // Registered already (by the program, or by an earlier call): that one is canonical. (If its
    // layout were another, the caller's layout check refuses it.)
    if (cairn_type_same_layout(it->second.type, built)) registered_.emplace(built, it->second.type);
    return it->second.type;
  }
  registered_.emplace(built, built);
  AddCanonical(built, "the runtime");
  return built;
}

}  // namespace cairn::types
