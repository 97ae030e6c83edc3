#include "types/layout_diff.h"

namespace cairn::types {

const char *KindName(uint32_t kind) {
  switch (kind) {
    case CAIRN_KIND_NONE:
      return "none";
    case CAIRN_KIND_BOOL:
      return "bool";
    case CAIRN_KIND_I8:
      return "i8";
    case CAIRN_KIND_I16:
      return "i16";
    case CAIRN_KIND_I32:
      return "i32";
    case CAIRN_KIND_I64:
      return "i64";
    case CAIRN_KIND_F32:
      return "f32";
    case CAIRN_KIND_F64:
      return "f64";
    case CAIRN_KIND_REF:
      return "ref";
    case CAIRN_KIND_RAW:
      return "raw";
    case CAIRN_KIND_STRUCT:
      return "struct";
    default:
      return "unknown kind";
  }
}

namespace {

std::string Shape(const cairn_type *t) {
  if (t->flags & CAIRN_TYPE_TEXT) return "a text type";
  if (t->flags & CAIRN_TYPE_ARRAY) return std::string("an array of ") + KindName(t->elem_kind);
  return "a plain type";
}

std::string Str(const char *s) { return s ? s : "(none)"; }

}  // namespace

std::string DescribeLayoutDiff(const cairn_type *a, std::string_view a_where, const cairn_type *b,
                               std::string_view b_where, cairn_layout_diff d, uint32_t index) {
  const std::string in_a(a_where), in_b(b_where);
  auto both = [&](const std::string &what, const std::string &va, const std::string &vb) {
    return what + " " + va + " " + in_a + ", " + vb + " " + in_b;
  };
  const cairn_field *fa = index < a->nfields ? &a->fields[index] : nullptr;
  const cairn_field *fb = index < b->nfields ? &b->fields[index] : nullptr;
  const std::string field = fa ? "field '" + Str(fa->name) + "'" : "field " + std::to_string(index);
  switch (d) {
    case CAIRN_LAYOUT_SAME:
      return "the layouts are the same";
    case CAIRN_LAYOUT_NAME:
      return both("it is named", "'" + Str(a->name) + "'", "'" + Str(b->name) + "'");
    case CAIRN_LAYOUT_SHAPE:
      return both("it is", Shape(a), Shape(b));
    case CAIRN_LAYOUT_SIZE:
      return both((a->flags & CAIRN_TYPE_ARRAY) ? "its elements have" : "its objects have",
                  std::to_string(a->size) + " bytes", std::to_string(b->size));
    case CAIRN_LAYOUT_NREFS:
      return both("it has", std::to_string(a->nrefs) + " references", std::to_string(b->nrefs));
    case CAIRN_LAYOUT_REF_OFFSET:
      return both("reference " + std::to_string(index) + " is at",
                  "offset " + std::to_string(a->refs[index]),
                  "at " + std::to_string(b->refs[index]));
    case CAIRN_LAYOUT_NFIELDS:
      return both("it has", std::to_string(a->nfields) + " fields", std::to_string(b->nfields));
    case CAIRN_LAYOUT_FIELD_NAME:
      return both("field " + std::to_string(index) + " is named", "'" + Str(fa->name) + "'",
                  "'" + Str(fb->name) + "'");
    case CAIRN_LAYOUT_FIELD_KIND:
      return both(field + " is", KindName(fa->kind), KindName(fb->kind));
    case CAIRN_LAYOUT_FIELD_COUNT:
      return both(field + " has", std::to_string(fa->count) + " elements",
                  std::to_string(fb->count));
    case CAIRN_LAYOUT_FIELD_OFFSET:
      return both(field + " is at", "offset " + std::to_string(fa->offset),
                  "at " + std::to_string(fb->offset));
    case CAIRN_LAYOUT_FIELD_SIZE:
      return both(field + " has elements of", std::to_string(fa->size) + " bytes",
                  std::to_string(fb->size));
    case CAIRN_LAYOUT_FIELD_TYPE:
      return both(field + " is declared", "'" + Str(fa->type) + "'", "'" + Str(fb->type) + "'");
    case CAIRN_LAYOUT_FIELD_NESTED: {
      uint32_t inner = 0;
      cairn_layout_diff nd = cairn_type_layout_compare(fa->nested, fb->nested, &inner);
      return field + " (a struct) differs: " +
             DescribeLayoutDiff(fa->nested, a_where, fb->nested, b_where, nd, inner);
    }
  }
  return "the layouts differ";
}

}  // namespace cairn::types
