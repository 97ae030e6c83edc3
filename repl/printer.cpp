// Printing values from descriptors (printer.h).
#include "printer.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <cstring>

#include "cairn/lang.h"
#include "source/quote.h"

namespace cairn::repl {
namespace {

const char *payload(const void *obj) { return static_cast<const char *>(obj); }

// The bytes of a heap text.
std::string_view textOf(const void *text) {
  return {payload(text) + CAIRN_ARRAY_DATA_OFFSET, cairn_array_length(text)};
}

bool isText(const cairn_type *t) { return (t->flags & CAIRN_TYPE_TEXT) != 0; }
bool isArray(const cairn_type *t) { return (t->flags & CAIRN_TYPE_ARRAY) != 0; }

template <class T>
T load(const char *p) {
  T v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

}  // namespace

std::string Printer::quote(const char *bytes, size_t n, size_t max) {
  return front::QuoteText(std::string_view(bytes, n), max);
}

std::string Printer::value(const front::Type *type, const void *slot) {
  using front::TypeKind;
  const char *p = static_cast<const char *>(slot);
  switch (type->kind) {
    case TypeKind::Int:
      return std::to_string(load<int64_t>(p));
    case TypeKind::Float:
      return scalar(CAIRN_KIND_F64, p, 0);
    case TypeKind::Bool:
      return (load<uint8_t>(p) & 1) ? "true" : "false";
    case TypeKind::Database: {
      auto *db = load<cairn_db *>(p);
      return db ? "Database(" + quote(cairn_db_name(db), std::strlen(cairn_db_name(db)), 200) + ")"
                : "nil";
    }
    case TypeKind::Transaction: {
      const int64_t t = load<int64_t>(p);
      if (t == 0) return "nil";  // as str(t) (cairn_lang_txn_str)
      return "Transaction#" + std::to_string(t) + (cairn_lang_txn_is_open(t) ? " (open)" : "");
    }
    case TypeKind::Fn:
      return load<void *>(p) ? front::typeName(type) : "nil";
    default:
      path_.clear();
      objects_ = 0;
      capped_ = false;
      return ref(load<void *>(p), options_.depth);
  }
}

std::string Printer::scalar(uint32_t kind, const char *p, int depth) {
  switch (kind) {
    case CAIRN_KIND_BOOL:
      return (load<uint8_t>(p) & 1) ? "true" : "false";
    case CAIRN_KIND_I8:
      return std::to_string(load<int8_t>(p));
    case CAIRN_KIND_I16:
      return std::to_string(load<int16_t>(p));
    case CAIRN_KIND_I32:
      return std::to_string(load<int32_t>(p));
    case CAIRN_KIND_I64:
      return std::to_string(load<int64_t>(p));
    case CAIRN_KIND_F32:
    case CAIRN_KIND_F64: {
      const double d = kind == CAIRN_KIND_F32 ? load<float>(p) : load<double>(p);
      // The runtime's own shortest form (what str() gives), read back from the text it makes.
      void *t = cairn_str_float(d);
      return std::string(textOf(t));
    }
    case CAIRN_KIND_REF:
      return ref(load<void *>(p), depth);
    case CAIRN_KIND_RAW: {
      char buf[32];
      std::snprintf(buf, sizeof buf, "<address %p>", load<void *>(p));
      return buf;
    }
    default:
      return "?";
  }
}

std::string Printer::name(const void *obj, const cairn_type *t) {
  return std::string(t->name) + "#" + std::to_string(cairn_identity_hash(obj));
}

std::string Printer::lengthNote(const void *obj, const cairn_type *t) {
  if (isArray(t)) return " (" + std::to_string(cairn_array_length(obj)) + ")";
  int64_t n = 0;
  if (length_ && length_(obj, &n)) return " (" + std::to_string(n) + ")";
  return "";
}

// Whether an array holds values only (numbers, booleans, texts, nils): shown whole at any depth.
bool Printer::holdsValues(const void *arr, const cairn_type *t) {
  if (t->nfields > 0) return false;
  if (t->elem_kind != CAIRN_KIND_REF) return true;
  const uint64_t n = std::min<uint64_t>(cairn_array_length(arr), options_.max_elements);
  const char *elems = payload(arr) + CAIRN_ARRAY_DATA_OFFSET;
  for (uint64_t i = 0; i < n; i++) {
    const void *e = load<const void *>(elems + i * t->size);
    if (e != nullptr && !isText(cairn_type_of(e))) return false;
  }
  return true;
}

std::string Printer::ref(const void *obj, int depth) {
  if (obj == nullptr) return "nil";
  const cairn_type *t = cairn_type_of(obj);
  if (isText(t)) {
    std::string_view s = textOf(obj);
    return quote(s.data(), s.size(), options_.max_text);
  }
  // An array is a container, not a level: its elements are shown at its own depth.
  const bool shown_whole = isArray(t) ? depth > 0 || holdsValues(obj, t) : depth > 0;
  if (!shown_whole) return name(obj, t) + lengthNote(obj, t);
  if (objects_ >= options_.max_objects) {
    // Said once, where the value stops being shown.
    std::string note;
    if (!capped_)
      note = " (and no further: a value shows at most " + std::to_string(options_.max_objects) +
             " objects with their fields)";
    capped_ = true;
    return name(obj, t) + lengthNote(obj, t) + note;
  }
  if (std::find(path_.begin(), path_.end(), obj) != path_.end()) return name(obj, t) + " (cycle)";
  ++objects_;
  path_.push_back(obj);
  std::string out = isArray(t) ? array(obj, t, depth) : object(obj, t, depth);
  path_.pop_back();
  return out;
}

std::string Printer::array(const void *arr, const cairn_type *t, int depth) {
  const uint64_t n = cairn_array_length(arr);
  const char *elems = payload(arr) + CAIRN_ARRAY_DATA_OFFSET;
  std::string out = "[";
  for (uint64_t i = 0; i < n; i++) {
    if (i > 0) out += ", ";
    if (i == options_.max_elements) {
      out += "... (" + std::to_string(n) + " elements)";
      break;
    }
    const char *e = elems + i * t->size;
    if (t->nfields > 0) {  // an array of structs (C): each element by its fields
      std::string fs;
      bool first = true;
      fields(e, t, depth - 1, &fs, &first);
      out += "{" + fs + "}";
    } else {
      out += scalar(t->elem_kind, e, depth);
    }
  }
  return out + "]";
}

void Printer::fields(const char *base, const cairn_type *t, int depth, std::string *out,
                     bool *first) {
  for (uint32_t i = 0; i < t->nfields; i++) {
    const cairn_field &f = t->fields[i];
    const char *p = base + f.offset;
    if (f.kind == CAIRN_KIND_STRUCT) {
      // A base class (the first field) is flattened: its fields are the object's own.
      if (f.nested != nullptr && f.count == 1) {
        fields(p, f.nested, depth, out, first);
        continue;
      }
    }
    if (!*first) *out += ", ";
    *first = false;
    *out += std::string(f.name ? f.name : "?") + ": ";
    if (f.count != 1) {
      *out += "[";
      for (uint32_t k = 0; k < f.count && k < options_.max_elements; k++)
        *out += (k ? ", " : "") + scalar(f.kind, p + k * f.size, depth);
      *out += f.count > options_.max_elements ? ", ...]" : "]";
      continue;
    }
    *out += scalar(f.kind, p, depth);
  }
}

std::string Printer::object(const void *obj, const cairn_type *t, int depth) {
  std::string fs;
  bool first = true;
  fields(payload(obj), t, depth - 1, &fs, &first);
  return name(obj, t) + " {" + fs + "}";
}

}  // namespace cairn::repl
