/* Cairn: building type descriptors (cairn/type.h) in C++.
 *
 * The one way C++ code (the runtime's built-in types, tests, benchmarks, embedders) makes a
 * descriptor by hand. It fills what follows from the fields, so that a descriptor made here
 * keeps T2, T3 and T6 by construction: the reference offsets (computed from the REF fields and
 * the nested structs' references), each field's element size (from its kind, or its nested
 * struct), the ABI version and the fingerprint.
 *
 * At compile time, for static descriptors (the fields array must be a constant with static
 * storage, since the descriptor points at it and at the references computed from it):
 *
 *   struct Node { Node *left; Node *right; int64_t id; };
 *   inline constexpr cairn_field kNodeFields[] = {
 *       cairn::Field("left", offsetof(Node, left), CAIRN_KIND_REF),
 *       cairn::Field("right", offsetof(Node, right), CAIRN_KIND_REF),
 *       cairn::Field("id", offsetof(Node, id), CAIRN_KIND_I64),
 *   };
 *   inline constexpr cairn_type kNodeType = cairn::PlainType<kNodeFields>("Node", sizeof(Node));
 *   inline constexpr cairn_type kInts = cairn::ArrayType("[int]", CAIRN_KIND_I64);
 *
 * At run time (descriptors that live as long as the process, T4):
 *
 *   const cairn_type *t = cairn::TypeBuilder::Plain("Node", 24)
 *                             .Add("left", 0, CAIRN_KIND_REF)
 *                             .Add("right", 8, CAIRN_KIND_REF)
 *                             .Add("id", 16, CAIRN_KIND_I64)
 *                             .Build();
 *
 * Neither registers the descriptor: cairn_register_type (or the first allocation) does, and
 * checks the rest (names, sizes, that fields fit and are in offset order).
 */
#ifndef CAIRN_TYPE_BUILDER_HPP
#define CAIRN_TYPE_BUILDER_HPP

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "cairn/type.h"

namespace cairn {

/* --- Fields ------------------------------------------------------------------------------------
 */

/* A scalar or reference field (count > 1: a fixed array of them); its size follows its kind. */
constexpr cairn_field Field(const char *name, uint32_t offset, cairn_kind kind,
                            uint32_t count = 1) {
  return cairn_field{name,    offset, static_cast<uint16_t>(kind), 0, count, cairn_kind_size(kind),
                     nullptr, nullptr};
}

/* An inline struct field laid out as `nested` (a heap type, or one marked CAIRN_TYPE_LAYOUT). */
constexpr cairn_field StructField(const char *name, uint32_t offset, const cairn_type &nested,
                                  uint32_t count = 1) {
  return cairn_field{name,    offset, CAIRN_KIND_STRUCT,
                     0,       count,  static_cast<uint32_t>(nested.size),
                     &nested, nullptr};
}

/* Whether a STRUCT field's nested layout can be read (CAIRN_FP_HAS_NESTED_ in type.h says why
 * constant evaluation reads it without the test). */
constexpr bool HasNested(const cairn_field &f) { return CAIRN_FP_HAS_NESTED_(&f); }

/* The number of references that `fields` describe (T6). */
constexpr uint32_t CountRefs(std::span<const cairn_field> fields) {
  uint32_t n = 0;
  for (const cairn_field &f : fields) {
    if (f.kind == CAIRN_KIND_REF) n += f.count;
    if (f.kind == CAIRN_KIND_STRUCT && HasNested(f)) n += f.count * f.nested->nrefs;
  }
  return n;
}

/* Writes the reference offsets that `fields` describe into out (CountRefs(fields) entries), in
 * field order (ascending when the fields are in offset order, as T6 requires). */
constexpr void RefsFromFields(std::span<const cairn_field> fields, uint32_t *out) {
  uint32_t n = 0;
  for (const cairn_field &f : fields)
    for (uint32_t k = 0; k < f.count; k++) {
      const uint32_t base = f.offset + k * f.size;
      if (f.kind == CAIRN_KIND_REF) out[n++] = base;
      if (f.kind == CAIRN_KIND_STRUCT && HasNested(f))
        for (uint32_t r = 0; r < f.nested->nrefs; r++) out[n++] = base + f.nested->refs[r];
    }
}

namespace detail {

template <const auto &Fields, uint32_t N>
constexpr std::array<uint32_t, N> ComputeRefs() {
  std::array<uint32_t, N> a{};
  if constexpr (N > 0) RefsFromFields(Fields, a.data());
  return a;
}

/* The references of a constant fields array, as a constant with static storage. */
template <const auto &Fields>
struct RefsOf {
  static constexpr uint32_t count = CountRefs(Fields);
  static constexpr std::array<uint32_t, count> value = ComputeRefs<Fields, count>();
  static constexpr const uint32_t *data() { return count ? value.data() : nullptr; }
};

inline constexpr uint32_t kRefAtZero[1] = {0};

constexpr cairn_type Finish(cairn_type t) {
  t.abi = CAIRN_TYPE_ABI;
  t.fingerprint = cairn_type_fingerprint_compute(&t);
  return t;
}

}  // namespace detail

/* --- Descriptors at compile time ---------------------------------------------------------------
 */

/* A plain type: objects of `size` payload bytes holding Fields (which may be empty only through
 * the overload below). `super`: the type this one extends, whose layout Fields[0] must be. */
template <const auto &Fields>
constexpr cairn_type PlainType(const char *name, uint64_t size, const cairn_type *super = nullptr,
                               uint32_t align = 8) {
  cairn_type t{};
  t.name = name;
  t.size = size;
  t.align = align;
  t.nfields = static_cast<uint32_t>(std::size(Fields));
  t.fields = Fields;
  t.nrefs = detail::RefsOf<Fields>::count;
  t.refs = detail::RefsOf<Fields>::data();
  t.super = super;
  return detail::Finish(t);
}

/* A plain type without fields: `size` bytes of untyped, pointer-free data. */
constexpr cairn_type PlainType(const char *name, uint64_t size) {
  cairn_type t{};
  t.name = name;
  t.size = size;
  t.align = 8;
  return detail::Finish(t);
}

/* A nested struct layout (CAIRN_TYPE_LAYOUT): the `nested` of struct fields that are not heap
 * types themselves. Not registrable. */
template <const auto &Fields>
constexpr cairn_type LayoutType(const char *name, uint64_t size) {
  cairn_type t = PlainType<Fields>(name, size);
  t.flags |= CAIRN_TYPE_LAYOUT;
  return t;
}

/* An array whose elements are scalars or references of kind `elem` (element size from the
 * kind). */
constexpr cairn_type ArrayType(const char *name, cairn_kind elem) {
  cairn_type t{};
  t.flags = CAIRN_TYPE_ARRAY;
  t.name = name;
  t.size = cairn_kind_size(elem);
  t.align = static_cast<uint32_t>(t.size);
  t.elem_kind = elem;
  if (elem == CAIRN_KIND_REF) {
    t.nrefs = 1;
    t.refs = detail::kRefAtZero;
  }
  return detail::Finish(t);
}

/* A text type: an array of bytes (UTF-8 by convention). */
constexpr cairn_type TextType(const char *name) {
  cairn_type t = ArrayType(name, CAIRN_KIND_I8);
  t.flags |= CAIRN_TYPE_TEXT;
  return detail::Finish(t);
}

/* An array whose elements are structs of Fields, `elem_size` bytes each. */
template <const auto &Fields>
constexpr cairn_type StructArrayType(const char *name, uint64_t elem_size, uint32_t align = 8) {
  cairn_type t = PlainType<Fields>(name, elem_size, nullptr, align);
  t.flags = CAIRN_TYPE_ARRAY;
  t.elem_kind = CAIRN_KIND_STRUCT;
  return detail::Finish(t);
}

/* t with a method table (`n` entries of `methods`, static storage). Methods are not part of the
 * fingerprint or the layout. */
constexpr cairn_type WithMethods(cairn_type t, void *const *methods, uint32_t n) {
  t.methods = methods;
  t.nmethods = n;
  return t;
}

/* --- Descriptors at run time -------------------------------------------------------------------
 */

/* Builds a descriptor whose memory (name, fields, references, methods) the builder allocates and
 * never frees, as T4 requires of anything that may be registered. */
class TypeBuilder {
 public:
  /* A plain type of `size` payload bytes; add its fields. */
  static TypeBuilder Plain(std::string name, uint64_t size) {
    return TypeBuilder(std::move(name), 0, size, CAIRN_KIND_NONE);
  }
  /* An array of scalars or references of kind `elem`. */
  static TypeBuilder Array(std::string name, cairn_kind elem) {
    return TypeBuilder(std::move(name), CAIRN_TYPE_ARRAY, cairn_kind_size(elem), elem);
  }
  /* An array of structs of `elem_size` bytes; add the element's fields. */
  static TypeBuilder StructArray(std::string name, uint64_t elem_size) {
    return TypeBuilder(std::move(name), CAIRN_TYPE_ARRAY, elem_size, CAIRN_KIND_STRUCT);
  }
  static TypeBuilder Text(std::string name) {
    return TypeBuilder(std::move(name), CAIRN_TYPE_ARRAY | CAIRN_TYPE_TEXT, 1, CAIRN_KIND_I8);
  }

  /* A scalar or reference field (count > 1: a fixed array of them). */
  TypeBuilder &Add(std::string name, uint32_t offset, cairn_kind kind, uint32_t count = 1) {
    fields_.push_back(FieldSpec{std::move(name), Field(nullptr, offset, kind, count), {}, false});
    return *this;
  }
  /* An inline struct field laid out as `nested` (which must outlive the descriptor). */
  TypeBuilder &AddStruct(std::string name, uint32_t offset, const cairn_type *nested,
                         uint32_t count = 1) {
    fields_.push_back(
        FieldSpec{std::move(name), StructField(nullptr, offset, *nested, count), {}, false});
    return *this;
  }
  /* The declared type of the field added last (cairn_field.type), as the source writes it. */
  TypeBuilder &Declared(std::string type) {
    if (!fields_.empty()) {
      fields_.back().declared = std::move(type);
      fields_.back().has_declared = true;
    }
    return *this;
  }
  TypeBuilder &Super(const cairn_type *super) {
    super_ = super;
    return *this;
  }
  TypeBuilder &Methods(std::vector<void *> methods) {
    methods_ = std::move(methods);
    return *this;
  }

  /* The descriptor, with its references and fingerprint. Each call makes a new one. */
  const cairn_type *Build() const {
    auto owned = std::make_unique<Owned>();
    owned->name = name_;
    owned->field_names.reserve(fields_.size());
    owned->field_types.reserve(fields_.size());
    for (const FieldSpec &f : fields_) {
      owned->field_names.push_back(f.name);
      owned->field_types.push_back(f.declared);
      owned->fields.push_back(f.field);
    }
    for (size_t i = 0; i < fields_.size(); i++) {
      owned->fields[i].name = owned->field_names[i].c_str();
      if (fields_[i].has_declared) owned->fields[i].type = owned->field_types[i].c_str();
    }
    owned->refs.resize(CountRefs(owned->fields));
    RefsFromFields(owned->fields, owned->refs.data());
    if (fields_.empty() && elem_kind_ == CAIRN_KIND_REF) owned->refs = {0};
    owned->methods = methods_;
    cairn_type &t = owned->type;
    t = cairn_type{};
    t.flags = flags_;
    t.name = owned->name.c_str();
    t.size = size_;
    t.align = size_ < 8 && (flags_ & CAIRN_TYPE_ARRAY) ? static_cast<uint32_t>(size_) : 8;
    t.elem_kind = elem_kind_;
    t.nfields = static_cast<uint32_t>(owned->fields.size());
    t.fields = owned->fields.empty() ? nullptr : owned->fields.data();
    t.nrefs = static_cast<uint32_t>(owned->refs.size());
    t.refs = owned->refs.empty() ? nullptr : owned->refs.data();
    t.super = super_;
    t.methods = owned->methods.empty() ? nullptr : owned->methods.data();
    t.nmethods = static_cast<uint32_t>(owned->methods.size());
    t = detail::Finish(t);
    const cairn_type *result = &owned->type;
    Keep(std::move(owned));
    return result;
  }

 private:
  struct FieldSpec {
    std::string name;
    cairn_field field;
    std::string declared;
    bool has_declared = false;
  };
  struct Owned {
    std::string name;
    std::vector<std::string> field_names;
    std::vector<std::string> field_types;
    std::vector<cairn_field> fields;
    std::vector<uint32_t> refs;
    std::vector<void *> methods;
    cairn_type type;
  };
  TypeBuilder(std::string name, uint32_t flags, uint64_t size, cairn_kind elem_kind)
      : name_(std::move(name)), flags_(flags), size_(size), elem_kind_(elem_kind) {}
  /* Kept for the life of the process (reachable, so leak checkers do not report it). */
  static void Keep(std::unique_ptr<Owned> owned) {
    static std::mutex *mu = new std::mutex;
    static std::vector<std::unique_ptr<Owned>> *all = new std::vector<std::unique_ptr<Owned>>;
    std::lock_guard<std::mutex> lock(*mu);
    all->push_back(std::move(owned));
  }

  std::string name_;
  uint32_t flags_;
  uint64_t size_;
  cairn_kind elem_kind_;
  std::vector<FieldSpec> fields_;
  const cairn_type *super_ = nullptr;
  std::vector<void *> methods_;
};

}  // namespace cairn

#endif /* CAIRN_TYPE_BUILDER_HPP */
