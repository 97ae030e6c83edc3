// Fingerprints of classes before their descriptors exist (fingerprint.h).
#include "fingerprint.h"

#include <vector>

#include "cairn/type.h"

namespace cairn::repl {
namespace {

uint16_t kindOf(const front::Type *t) {
  switch (t->kind) {
    case front::TypeKind::Int:
      return CAIRN_KIND_I64;
    case front::TypeKind::Float:
      return CAIRN_KIND_F64;
    case front::TypeKind::Bool:
      return CAIRN_KIND_BOOL;
    default:
      return CAIRN_KIND_REF;
  }
}

// An image of the descriptor, as far as the fingerprint reads it (names, kinds, counts, nested
// structs); `keep` owns the nested images.
const cairn_type *image(const front::ClassInfo *cls,
                        std::vector<std::unique_ptr<cairn_type>> *types,
                        std::vector<std::unique_ptr<std::vector<cairn_field>>> *fields) {
  auto fs = std::make_unique<std::vector<cairn_field>>();
  if (cls->super != nullptr) {
    cairn_field f{};
    f.name = cls->super->name.c_str();
    f.kind = CAIRN_KIND_STRUCT;
    f.count = 1;
    f.nested = image(cls->super, types, fields);
    fs->push_back(f);
  }
  for (const auto &own : cls->own_fields) {
    cairn_field f{};
    f.name = own->name.c_str();
    f.kind = kindOf(own->type);
    f.count = 1;
    fs->push_back(f);
  }
  auto t = std::make_unique<cairn_type>();
  t->abi = CAIRN_TYPE_ABI;
  t->name = cls->name.c_str();
  t->elem_kind = CAIRN_KIND_NONE;
  t->nfields = static_cast<uint32_t>(fs->size());
  t->fields = fs->data();
  fields->push_back(std::move(fs));
  types->push_back(std::move(t));
  return types->back().get();
}

}  // namespace

uint64_t classFingerprint(const front::ClassInfo *cls) {
  std::vector<std::unique_ptr<cairn_type>> types;
  std::vector<std::unique_ptr<std::vector<cairn_field>>> fields;
  return cairn_type_fingerprint_compute(image(cls, &types, &fields));
}

}  // namespace cairn::repl
