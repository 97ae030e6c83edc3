#include "persist/type_layout.h"

#include <cstring>

namespace cairn::persist {

namespace {

constexpr uint8_t kLayoutVersion = 1;

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

std::string EncodeLayout(const cairn_type *t) {
  std::string s;
  s.push_back(char(kLayoutVersion));
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
  }
  return s;
}

Status DecodeLayout(std::string_view bytes, StoredLayout *out) {
  Reader r(bytes);
  uint8_t version = 0;
  uint32_t nrefs = 0, nfields = 0;
  auto bad = [] {
    return Status(CAIRN_CORRUPTION, "a type table entry is malformed; run `cairn db check`");
  };
  if (!r.U8(&version)) return bad();
  if (version != kLayoutVersion)
    return Status(CAIRN_UNSUPPORTED, "a type table entry has layout encoding version " +
                                         std::to_string(version) +
                                         ", which this version of Cairn does not read");
  if (!r.Str(&out->name) || !r.U32(&out->flags) || !r.U64(&out->size) || !r.U32(&out->elem_kind) ||
      !r.U32(&nrefs) || nrefs > (1u << 20))
    return bad();
  out->refs.resize(nrefs);
  for (uint32_t &ref : out->refs)
    if (!r.U32(&ref)) return bad();
  if (!r.U32(&nfields) || nfields > (1u << 20)) return bad();
  out->fields.resize(nfields);
  for (StoredLayout::Field &f : out->fields) {
    uint32_t kind = 0;
    if (!r.Str(&f.name) || !r.U32(&f.offset) || !r.U32(&kind) || !r.U32(&f.count)) return bad();
    f.kind = uint16_t(kind);
  }
  if (!r.done()) return bad();
  return Status::Ok();
}

Status CheckLayout(const StoredLayout &stored, const cairn_type *local, std::string_view database) {
  auto mismatch = [&](const std::string &what) {
    return Status(CAIRN_TYPE_MISMATCH,
                  "type '" + stored.name + "' in database '" + std::string(database) +
                      "': " + what +
                      "; the program must define the type exactly as the program that "
                      "stored it did (same fields, names and order, same platform)");
  };
  if (stored.name != local->name)
    return mismatch("this program's type with the same fingerprint is named '" +
                    std::string(local->name) + "'");
  if (stored.flags != (local->flags & (CAIRN_TYPE_ARRAY | CAIRN_TYPE_TEXT)) ||
      stored.elem_kind != local->elem_kind)
    return mismatch("stored as a different kind of type (array or not, element kind)");
  if (stored.size != local->size)
    return mismatch("stored with " + std::to_string(stored.size) + " bytes, this program's has " +
                    std::to_string(local->size));
  if (stored.refs.size() != local->nrefs)
    return mismatch("stored with " + std::to_string(stored.refs.size()) +
                    " references, this program's has " + std::to_string(local->nrefs));
  for (uint32_t i = 0; i < local->nrefs; i++)
    if (stored.refs[i] != local->refs[i])
      return mismatch("reference " + std::to_string(i) + " is at offset " +
                      std::to_string(stored.refs[i]) + " in the database but at " +
                      std::to_string(local->refs[i]) + " in this program");
  return Status::Ok();
}

}  // namespace cairn::persist
