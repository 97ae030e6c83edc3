// str(e): the textual form of values (cairn/lang.h, Conversions to text).
#include "lang/format.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string_view>
#include <vector>

#include "cairn/lang.h"
#include "cairn/text_literal.hpp"
#include "lang/identity.h"
#include "lang/text.h"

namespace cairn::lang {
namespace {

template <class T>
T Load(const char *p) {
  T v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

// "Type#N": an object that has no textual form of its own.
void AppendObject(std::string *out, const void *obj) {
  out->append(cairn_type_name_of(obj));
  out->push_back('#');
  char buf[32];
  auto r = std::to_chars(buf, buf + sizeof buf, IdentityNumber(obj));
  out->append(buf, r.ptr);
}

// What the arrays being shown are: the ones open (an array among them is a cycle) and how many
// elements have been shown.
struct ArrayWalk {
  std::vector<const void *> open;
  uint64_t shown = 0;
};

void AppendArray(std::string *out, const void *array, ArrayWalk &walk);

// A text element as a literal that reads back: quoted, escaped by cairn/text_literal.hpp's rule.
void AppendQuoted(std::string *out, std::string_view text) {
  out->push_back('"');
  AppendEscapedText(out, text);
  out->push_back('"');
}

// An element that is a reference: as str shows it, but a text is a quoted literal.
void AppendRefElement(std::string *out, const void *v, ArrayWalk &walk) {
  if (v == nullptr) {
    out->append("nil");
  } else if (IsText(v)) {
    AppendQuoted(out, TextView(v));
  } else if (cairn_type_of(v)->flags & CAIRN_TYPE_ARRAY) {
    AppendArray(out, v, walk);
  } else {
    AppendObject(out, v);
  }
}

// Whether the elements of an array of this descriptor have a textual form (scalars and
// references; inline structs and raw addresses do not).
bool HasElementForm(const cairn_type *t) {
  switch (t->elem_kind) {
    case CAIRN_KIND_BOOL:
    case CAIRN_KIND_I8:
    case CAIRN_KIND_I16:
    case CAIRN_KIND_I32:
    case CAIRN_KIND_I64:
    case CAIRN_KIND_F32:
    case CAIRN_KIND_F64:
    case CAIRN_KIND_REF:
      return true;
    default:
      return false;
  }
}

void AppendElement(std::string *out, const cairn_type *t, const char *p, ArrayWalk &walk) {
  switch (t->elem_kind) {
    case CAIRN_KIND_BOOL:
      AppendBool(out, *p != 0);
      break;
    case CAIRN_KIND_I8:
      AppendInt(out, Load<int8_t>(p));
      break;
    case CAIRN_KIND_I16:
      AppendInt(out, Load<int16_t>(p));
      break;
    case CAIRN_KIND_I32:
      AppendInt(out, Load<int32_t>(p));
      break;
    case CAIRN_KIND_I64:
      AppendInt(out, Load<int64_t>(p));
      break;
    case CAIRN_KIND_F32:
      AppendFloat(out, Load<float>(p));
      break;
    case CAIRN_KIND_F64:
      AppendFloat(out, Load<double>(p));
      break;
    case CAIRN_KIND_REF:
      AppendRefElement(out, Load<const void *>(p), walk);
      break;
    default:
      break;
  }
}

void AppendArray(std::string *out, const void *array, ArrayWalk &walk) {
  const cairn_type *t = cairn_type_of(array);
  if (!HasElementForm(t)) {
    AppendObject(out, array);
    return;
  }
  if (walk.open.size() >= size_t(kMaxArrayDepth) || walk.shown >= kMaxShownElements ||
      out->size() >= kMaxShownBytes ||
      std::find(walk.open.begin(), walk.open.end(), array) != walk.open.end()) {
    out->append("[...]");
    return;
  }
  walk.open.push_back(array);
  const uint64_t n = cairn_array_length(array);
  const char *elems = static_cast<const char *>(array) + CAIRN_ARRAY_DATA_OFFSET;
  out->push_back('[');
  for (uint64_t i = 0; i < n; i++) {
    if (i > 0) out->append(", ");
    if (walk.shown >= kMaxShownElements || out->size() >= kMaxShownBytes) {
      out->append("...");
      break;
    }
    walk.shown++;
    AppendElement(out, t, elems + i * t->size, walk);
  }
  out->push_back(']');
  walk.open.pop_back();
}

}  // namespace

void AppendInt(std::string *out, int64_t v) {
  char buf[32];
  auto r = std::to_chars(buf, buf + sizeof buf, v);
  out->append(buf, r.ptr);
}

// The shortest digits that read back as the same double (std::to_chars), laid out as people
// read numbers: plain when the decimal exponent is in [-4, 16), scientific otherwise, always
// with a '.' or an 'e' so that it reads as a float: 3.0, 0.1, 100000.0, 0.0001, 1e-05,
// 1e+16, 1.5e+300. NaN is "nan" whatever its sign bit; infinities are "inf" and "-inf".
void AppendFloat(std::string *out, double v) {
  if (std::isnan(v)) {
    out->append("nan");
    return;
  }
  if (std::isinf(v)) {
    out->append(v < 0 ? "-inf" : "inf");
    return;
  }
  char buf[64];
  auto r = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::scientific);
  std::string_view s(buf, static_cast<size_t>(r.ptr - buf));
  // s = [-]d[.ddd]e[+-]XX
  size_t e = s.find('e');
  std::string_view mant = s.substr(0, e);
  int exp = std::atoi(std::string(s.substr(e + 1)).c_str());
  bool neg = !mant.empty() && mant[0] == '-';
  if (neg) mant.remove_prefix(1);
  std::string digits;
  for (char c : mant)
    if (c != '.') digits.push_back(c);
  if (neg) out->push_back('-');
  if (exp >= -4 && exp < 16) {
    if (exp < 0) {
      out->append("0.");
      out->append(static_cast<size_t>(-exp - 1), '0');
      out->append(digits);
    } else if (static_cast<size_t>(exp) + 1 >= digits.size()) {
      out->append(digits);
      out->append(static_cast<size_t>(exp) + 1 - digits.size(), '0');
      out->append(".0");
    } else {
      out->append(digits, 0, static_cast<size_t>(exp) + 1);
      out->push_back('.');
      out->append(digits, static_cast<size_t>(exp) + 1);
    }
    return;
  }
  out->append(mant);
  char ebuf[16];
  std::snprintf(ebuf, sizeof ebuf, "e%c%02d", exp < 0 ? '-' : '+', exp < 0 ? -exp : exp);
  out->append(ebuf);
}

void AppendBool(std::string *out, bool v) { out->append(v ? "true" : "false"); }

void AppendRef(std::string *out, const void *v) {
  if (v == nullptr) {
    out->append("nil");
  } else if (IsText(v)) {
    out->append(TextView(v));
  } else if (cairn_type_of(v)->flags & CAIRN_TYPE_ARRAY) {
    ArrayWalk walk;
    AppendArray(out, v, walk);
  } else {
    AppendObject(out, v);
  }
}

}  // namespace cairn::lang

using namespace cairn::lang;

extern "C" {

void *cairn_str_int(int64_t v) {
  std::string s;
  AppendInt(&s, v);
  return NewText(s);
}

void *cairn_str_float(double v) {
  std::string s;
  AppendFloat(&s, v);
  return NewText(s);
}

void *cairn_str_bool(int v) { return NewText(v ? "true" : "false"); }

void *cairn_str_ref(void *v) {
  if (IsText(v)) return v;  // immutable: str of a text is the text itself
  std::string s;
  AppendRef(&s, v);  // reads the heap only; nothing is allocated until NewText
  return NewText(s);
}

}  // extern "C"
