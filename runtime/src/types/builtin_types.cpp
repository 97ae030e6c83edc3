// The runtime's own descriptors: text and arrays of the language's value types and references.
#include "cairn/gc.h"

namespace {

constexpr uint32_t kRefOffset0[] = {0};

constexpr cairn_type MakeArrayType(const char *name, uint32_t flags, uint32_t kind, uint64_t size,
                                   bool refs) {
  cairn_type t{};
  t.abi = CAIRN_TYPE_ABI;
  t.flags = CAIRN_TYPE_ARRAY | flags;
  t.name = name;
  t.size = size;
  t.align = 8;
  t.elem_kind = kind;
  t.nrefs = refs ? 1 : 0;
  t.refs = refs ? kRefOffset0 : nullptr;
  t.fingerprint = cairn_type_fingerprint_compute(&t);
  return t;
}

}  // namespace

extern "C" {
constinit const cairn_type cairn_text_type =
    MakeArrayType("text", CAIRN_TYPE_TEXT, CAIRN_KIND_I8, 1, false);
constinit const cairn_type cairn_ref_array_type =
    MakeArrayType("[any]", 0, CAIRN_KIND_REF, 8, true);
constinit const cairn_type cairn_i64_array_type =
    MakeArrayType("[int]", 0, CAIRN_KIND_I64, 8, false);
constinit const cairn_type cairn_f64_array_type =
    MakeArrayType("[float]", 0, CAIRN_KIND_F64, 8, false);
constinit const cairn_type cairn_bool_array_type =
    MakeArrayType("[bool]", 0, CAIRN_KIND_BOOL, 1, false);
}
