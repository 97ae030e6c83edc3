// Cairn compiler plugin: fingerprints through the runtime's own function.
#include "fingerprint.h"

#include <memory>
#include <vector>

#include "layout.h"

namespace cairn::plugin {
namespace {

// A cairn_type with the storage its pointers point into, built recursively for nested types.
struct DescriptorImage {
  cairn_type type{};
  std::vector<cairn_field> fields;
  std::vector<std::unique_ptr<DescriptorImage>> nested;

  explicit DescriptorImage(const TypeLayout &layout) {
    type.abi = CAIRN_TYPE_ABI;
    type.flags = layout.flags;
    type.name = layout.name.c_str();
    type.size = layout.size;
    type.align = layout.align;
    type.elem_kind = layout.elemKind;
    type.nrefs = static_cast<uint32_t>(layout.refs.size());
    type.refs = layout.refs.data();
    for (const FieldLayout &field : layout.fields) {
      cairn_field image{};
      image.name = field.name.c_str();
      image.offset = field.offset;
      image.kind = static_cast<uint16_t>(field.kind);
      image.count = field.count;
      image.size = field.size;
      if (field.nested != nullptr) {
        nested.push_back(std::make_unique<DescriptorImage>(*field.nested));
        image.nested = &nested.back()->type;
      }
      fields.push_back(image);
    }
    type.nfields = static_cast<uint32_t>(fields.size());
    type.fields = fields.data();
  }
};

}  // namespace

uint64_t fingerprintOf(const TypeLayout &layout) {
  const DescriptorImage image(layout);
  return cairn_type_fingerprint_compute(&image.type);
}

}  // namespace cairn::plugin
