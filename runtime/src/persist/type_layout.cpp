#include "persist/type_layout.h"

#include <cstring>

#include "types/layout_diff.h"

namespace cairn::persist {

namespace {

// Nested layouts (base classes) deeper than this are refused as damaged.
constexpr int kMaxNesting = CAIRN_MAX_NESTING;

void PutU32(std::string &s, uint32_t v) {
  for (int i = 0; i < 4; i++) s.push_back(char(v >> (8 * i)));
}
void PutU64(std::string &s, uint64_t v) {
  for (int i = 0; i < 8; i++) s.push_back(char(v >> (8 * i)));
}
void PutStr(std::string &s, const char *str) {
  size_t n = str ? std::strlen(str) : 0;
  PutU32(s, uint32_t(n));
  s.append(str ? str : "", n);
}

class Reader {
 public:
  explicit Reader(std::string_view b) : b_(b) {}
  bool U8(uint8_t *v) {
    if (pos_ + 1 > b_.size()) return false;
    *v = uint8_t(b_[pos_++]);
    return true;
  }
  bool U32(uint32_t *v) {
    if (pos_ + 4 > b_.size()) return false;
    *v = 0;
    for (int i = 0; i < 4; i++) *v |= uint32_t(uint8_t(b_[pos_ + i])) << (8 * i);
    pos_ += 4;
    return true;
  }
  bool U64(uint64_t *v) {
    if (pos_ + 8 > b_.size()) return false;
    *v = 0;
    for (int i = 0; i < 8; i++) *v |= uint64_t(uint8_t(b_[pos_ + i])) << (8 * i);
    pos_ += 8;
    return true;
  }
  bool Str(std::string *s) {
    uint32_t n;
    if (!U32(&n) || pos_ + n > b_.size()) return false;
    s->assign(b_.data() + pos_, n);
    pos_ += n;
    return true;
  }
  bool done() const { return pos_ == b_.size(); }

 private:
  std::string_view b_;
  size_t pos_ = 0;
};

}  // namespace

namespace {

// The body of a layout (everything after the version byte), recursively for nested structs.
void EncodeBody(std::string &s, const cairn_type *t) {
  PutStr(s, t->name);
  PutU32(s, t->flags & (CAIRN_TYPE_ARRAY | CAIRN_TYPE_TEXT));
  PutU64(s, t->size);
  PutU32(s, t->elem_kind);
  PutU32(s, t->nrefs);
  for (uint32_t i = 0; i < t->nrefs; i++) PutU32(s, t->refs[i]);
  PutU32(s, t->nfields);
  for (uint32_t i = 0; i < t->nfields; i++) {
    const cairn_field &f = t->fields[i];
    PutStr(s, f.name);
    PutU32(s, f.offset);
    PutU32(s, f.kind);
    PutU32(s, f.count);
    PutStr(s, f.type);
    const bool nested = f.kind == CAIRN_KIND_STRUCT && f.nested != nullptr;
    s.push_back(char(nested ? 1 : 0));
    if (nested) EncodeBody(s, f.nested);
  }
}

// Reads a body of encoding `version` into *out; false if it is malformed.
bool DecodeBody(Reader &r, uint8_t version, int depth, StoredLayout *out) {
  uint32_t nrefs = 0, nfields = 0;
  out->version = version;
  if (!r.Str(&out->name) || !r.U32(&out->flags) || !r.U64(&out->size) || !r.U32(&out->elem_kind) ||
      !r.U32(&nrefs) || nrefs > (1u << 20))
    return false;
  out->refs.resize(nrefs);
  for (uint32_t &ref : out->refs)
    if (!r.U32(&ref)) return false;
  if (!r.U32(&nfields) || nfields > (1u << 20)) return false;
  out->fields.resize(nfields);
  for (StoredLayout::Field &f : out->fields) {
    uint32_t kind = 0;
    if (!r.Str(&f.name) || !r.U32(&f.offset) || !r.U32(&kind) || !r.U32(&f.count)) return false;
    f.kind = uint16_t(kind);
    if (version < 2) continue;
    uint8_t nested = 0;
    if (!r.Str(&f.type) || !r.U8(&nested) || nested > 1) return false;
    if (nested) {
      if (f.kind != CAIRN_KIND_STRUCT || depth >= kMaxNesting) return false;
      f.nested = std::make_unique<StoredLayout>();
      if (!DecodeBody(r, version, depth + 1, f.nested.get())) return false;
    }
  }
  return true;
}

}  // namespace

std::string EncodeLayout(const cairn_type *t) {
  std::string s;
  s.push_back(char(kLayoutVersion));
  EncodeBody(s, t);
  return s;
}

Status DecodeLayout(std::string_view bytes, StoredLayout *out) {
  Reader r(bytes);
  uint8_t version = 0;
  // The callers name the entry and the database, and say what to do.
  auto bad = [] { return Status(CAIRN_CORRUPTION, "its encoding is malformed"); };
  if (!r.U8(&version)) return bad();
  if (version < 1 || version > kLayoutVersion)
    return Status(CAIRN_UNSUPPORTED,
                  "its layout encoding is version " + std::to_string(version) +
                      ", which this version of Cairn does not read (it reads versions 1 to " +
                      std::to_string(kLayoutVersion) +
                      "): a newer Cairn wrote the database (open it with that one), or the entry "
                      "is damaged");
  if (!DecodeBody(r, version, 0, out) || !r.done()) return bad();
  return Status::Ok();
}

LayoutImage::LayoutImage(const StoredLayout &stored, uint64_t fingerprint) {
  for (const StoredLayout::Field &f : stored.fields) {
    const cairn_type *nested = nullptr;
    uint32_t size = 0;  // known only for a nested struct: its layout's
    if (f.nested) {
      nested_.push_back(std::make_unique<LayoutImage>(*f.nested));
      nested = nested_.back()->type();
      size = uint32_t(nested->size);
    }
    fields_.push_back(cairn_field{f.name.c_str(), f.offset, f.kind, 0, f.count, size, nested,
                                  f.type.empty() ? nullptr : f.type.c_str()});
  }
  type_.fingerprint = fingerprint;
  type_.abi = CAIRN_TYPE_ABI;
  type_.flags = stored.flags;
  type_.name = stored.name.c_str();
  type_.size = stored.size;
  type_.elem_kind = stored.elem_kind;
  type_.nrefs = uint32_t(stored.refs.size());
  type_.refs = stored.refs.data();
  type_.nfields = uint32_t(fields_.size());
  type_.fields = fields_.data();
}

Status CheckLayout(const StoredLayout &stored, const cairn_type *local, std::string_view database) {
  LayoutImage image(stored);
  uint32_t where = 0;
  cairn_layout_diff d = cairn_type_layout_compare(image.type(), local, &where);
  if (d == CAIRN_LAYOUT_SAME) return Status::Ok();
  const std::string in_database =
      database.empty() ? std::string() : " in database '" + std::string(database) + "'";
  if (d == CAIRN_LAYOUT_FIELD_TYPE) {
    // The same bytes (every reference is 8), another meaning: the program would read a stored
    // text as an array, or one class's objects as another's.
    const cairn_field &f = image.type()->fields[where], &g = local->fields[where];
    return Status(CAIRN_TYPE_MISMATCH,
                  "type '" + stored.name + "'" + in_database + " stores field '" +
                      std::string(f.name) + "' as " + std::string(f.type) +
                      ", but this program declares it " + std::string(g.type) +
                      ": declare it as the program that stored it did (a stored class does "
                      "not change: to change a field's type, copy the objects into a class of "
                      "another name, with a program that declares both)");
  }
  return Status(CAIRN_TYPE_MISMATCH,
                "type '" + stored.name + "'" + in_database +
                    " has the fingerprint of this program's type but another layout: " +
                    types::DescribeLayoutDiff(image.type(), "in the database", local,
                                              "in this program", d, where) +
                    "; the program must define the type exactly as the program that stored it "
                    "did (same fields, names and order, same platform)");
}

namespace {

// A field's kind, with the Cairn type that has it first (the language's programs are the
// runtime's main users): "int (i64)", "a reference (ref)", "i32[4]".
std::string KindText(uint32_t kind, uint32_t count) {
  std::string s = types::KindName(kind);
  if (count != 1) return s + "[" + std::to_string(count) + "]";
  switch (kind) {
    case CAIRN_KIND_I64:
      return "int (" + s + ")";
    case CAIRN_KIND_F64:
      return "float (" + s + ")";
    case CAIRN_KIND_REF:
      return "a reference (" + s + ")";
    default:
      return s;
  }
}

// A field's type as its program declared it when known ("text", "List[int]"), else its kind.
std::string TypeText(const char *declared, uint32_t kind, uint32_t count) {
  if (declared && *declared) return declared;
  return KindText(kind, count);
}

std::string FieldText(const std::string &name, const char *declared, uint32_t kind,
                      uint32_t count) {
  return "'" + name + "' of type " + TypeText(declared, kind, count);
}

}  // namespace

std::string DescribeFieldChanges(const StoredLayout &stored, const cairn_type *local) {
  std::vector<std::string> said;
  LayoutImage image(stored);
  const uint32_t shape = CAIRN_TYPE_ARRAY | CAIRN_TYPE_TEXT;
  if ((stored.flags & shape) != (local->flags & shape) || stored.elem_kind != local->elem_kind)
    said.push_back(types::DescribeLayoutDiff(image.type(), "in the database", local,
                                             "in this program", CAIRN_LAYOUT_SHAPE, 0));
  auto local_field = [&](const std::string &name) -> const cairn_field * {
    for (uint32_t i = 0; i < local->nfields; i++)
      if (local->fields[i].name && name == local->fields[i].name) return &local->fields[i];
    return nullptr;
  };
  // A STRUCT field named as its layout is a base class (how the language lays out a class:
  // its base's fields first, as one field); another is a nested struct (C).
  auto isBase = [](const std::string &field, const char *layout) {
    return layout != nullptr && field == layout;
  };
  // The base class (at any depth) of this program's type that declares a field `name`; nullptr
  // if none does.
  auto baseDeclaring = [&](const std::string &name) -> const char * {
    for (const cairn_type *t = local; t != nullptr;) {
      const cairn_type *next = nullptr;
      for (uint32_t i = 0; i < t->nfields; i++) {
        const cairn_field &g = t->fields[i];
        if (g.kind != CAIRN_KIND_STRUCT || !g.nested || !g.name || !isBase(g.name, g.nested->name))
          continue;
        for (uint32_t k = 0; k < g.nested->nfields; k++)
          if (g.nested->fields[k].name && name == g.nested->fields[k].name) return g.name;
        next = g.nested;
      }
      t = next;
    }
    return nullptr;
  };
  std::vector<std::string> common_stored;  // names in both, in stored order
  for (const StoredLayout::Field &f : stored.fields) {
    const cairn_field *g = local_field(f.name);
    const bool base =
        f.kind == CAIRN_KIND_STRUCT && f.nested && isBase(f.name, f.nested->name.c_str());
    const char *moved = !g && !base ? baseDeclaring(f.name) : nullptr;
    if (!g) {
      said.push_back(
          base ? "in the database its base class is '" + f.name + "', in this program it is not"
          : moved
              ? "field " + FieldText(f.name, f.type.c_str(), f.kind, f.count) +
                    " is declared by '" + stored.name +
                    "' itself in the database, by its base class '" + moved + "' in this program"
              : "field " + FieldText(f.name, f.type.c_str(), f.kind, f.count) +
                    " is missing in this program");
      continue;
    }
    common_stored.push_back(f.name);
    if (f.kind == CAIRN_KIND_STRUCT && g->kind == CAIRN_KIND_STRUCT && f.nested && g->nested) {
      // What changed inside (a base class that gained a field), in the same words.
      const std::string inner = DescribeFieldChanges(*f.nested, g->nested);
      if (!inner.empty())
        said.push_back((base ? "in its base class '" : "in its nested struct '") + f.name +
                       "': " + inner);
    }
    if (g->kind != f.kind || g->count != f.count)
      said.push_back("field '" + f.name + "' is " + TypeText(f.type.c_str(), f.kind, f.count) +
                     " in the database, " + TypeText(g->type, g->kind, g->count) +
                     " in this program");
  }
  std::vector<std::string> common_local;
  for (uint32_t i = 0; i < local->nfields; i++) {
    const cairn_field &g = local->fields[i];
    const std::string name = g.name ? g.name : "";
    bool stored_has = false;
    for (const StoredLayout::Field &f : stored.fields) stored_has = stored_has || f.name == name;
    if (stored_has)
      common_local.push_back(name);
    else if (g.kind == CAIRN_KIND_STRUCT && g.nested && isBase(name, g.nested->name))
      said.push_back("this program gives it the base class '" + name + "'");
    else
      said.push_back("this program adds field " + FieldText(name, g.type, g.kind, g.count));
  }
  if (common_stored != common_local) said.push_back("the fields are in another order");
  std::string text;
  for (const std::string &s : said) text += (text.empty() ? "" : "; ") + s;
  return text;
}

}  // namespace cairn::persist
