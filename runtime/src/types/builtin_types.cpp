// The runtime's own descriptors: text and arrays of the language's value types and references.
#include "cairn/gc.h"
#include "cairn/type_builder.hpp"

extern "C" {
constinit const cairn_type cairn_text_type = cairn::TextType("text");
constinit const cairn_type cairn_ref_array_type = cairn::ArrayType("[any]", CAIRN_KIND_REF);
constinit const cairn_type cairn_i64_array_type = cairn::ArrayType("[int]", CAIRN_KIND_I64);
constinit const cairn_type cairn_f64_array_type = cairn::ArrayType("[float]", CAIRN_KIND_F64);
constinit const cairn_type cairn_bool_array_type = cairn::ArrayType("[bool]", CAIRN_KIND_BOOL);
constinit const cairn_type cairn_text_array_type = cairn::ArrayType("[text]", CAIRN_KIND_REF);
constinit const cairn_type cairn_byte_buffer_type = cairn::ArrayType("[byte]", CAIRN_KIND_I8);
}
