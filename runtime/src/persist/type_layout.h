// The layout of a type as a database's type table stores it, and the check that a program's
// descriptor matches it.
//
// A database records, for every type it holds objects of, the type's fingerprint (the key) and
// its layout: name, flags, size, element kind, reference offsets and fields, and since encoding
// version 2 each field's declared type and a nested struct's own layout (a base class's fields),
// so that a tool can show the data without the program's source (docs/store-format.md gives the
// bytes). Version 1 entries (stores written before) are read as well: they lack those two. When a
// program faults in an object, the type index in its header leads to the stored fingerprint; the
// program must register a descriptor with that fingerprint, and the descriptor's layout must equal
// the stored one (same size, element kind and reference offsets: offsets can differ between
// machines even when fingerprints agree). Anything else is an error naming the type, never garbage.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "cairn/persist.h"
#include "cairn/status.h"
#include "cairn/type.h"

namespace cairn::persist {

// What the upgrade of a database (upgrade.h, U6) appends to the name of a definition whose
// objects it converted: the entry stays (old pages no root reaches may hold its objects) but
// names no type a program defines.
inline constexpr std::string_view kReplacedByUpgrade = CAIRN_REPLACED_BY_UPGRADE;
inline bool ReplacedByUpgrade(std::string_view name) { return name.ends_with(kReplacedByUpgrade); }

// The encoding EncodeLayout writes; DecodeLayout reads it and every earlier one.
inline constexpr uint8_t kLayoutVersion = 2;

// The bytes stored for a descriptor (the current version of the encoding).
std::string EncodeLayout(const cairn_type *t);

// What a stored layout says, decoded.
struct StoredLayout {
  uint8_t version = 0;  // of the encoding it was read from
  std::string name;
  uint32_t flags = 0;
  uint64_t size = 0;
  uint32_t elem_kind = 0;
  std::vector<uint32_t> refs;
  struct Field {
    std::string name;
    uint32_t offset = 0;
    uint16_t kind = 0;
    uint32_t count = 0;
    std::string type;                      // the declared type ("" : unknown; version 1)
    std::unique_ptr<StoredLayout> nested;  // a STRUCT field's layout (null: unknown; version 1)
  };
  std::vector<Field> fields;
};

Status DecodeLayout(std::string_view bytes, StoredLayout *out);

// A stored layout as a descriptor, for the same-layout rule and for tools. It has no field sizes
// (a database stores none), which the rule then does not compare, and no methods; a STRUCT
// field's nested layout and a field's declared type are there when the entry has them.
class LayoutImage {
 public:
  explicit LayoutImage(const StoredLayout &stored, uint64_t fingerprint = 0);
  LayoutImage(const LayoutImage &) = delete;
  LayoutImage &operator=(const LayoutImage &) = delete;
  const cairn_type *type() const { return &type_; }

 private:
  std::vector<cairn_field> fields_;
  std::vector<std::unique_ptr<LayoutImage>> nested_;
  cairn_type type_{};
};

// What differs between the fields of a stored type and a program's type of the same name but
// another fingerprint: "field 'next' is missing in this program; this program adds field 'prev'
// (ref)". Empty if nothing the stored layout shows differs.
std::string DescribeFieldChanges(const StoredLayout &stored, const cairn_type *local);

// OK if `local` can read objects stored with `stored`; else CAIRN_TYPE_MISMATCH saying which
// type, in which database (unless `database` is empty: the caller names it), and what differs.
Status CheckLayout(const StoredLayout &stored, const cairn_type *local, std::string_view database);

}  // namespace cairn::persist
