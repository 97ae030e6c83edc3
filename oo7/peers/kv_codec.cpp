// The key-value peer's record layout (kv_codec.h).
#include "kv_codec.h"

#include <cstring>
#include <vector>

namespace oo7 {
namespace {

constexpr uint64_t kSignBit = uint64_t{1} << 63;

void PutBig(std::string *out, int64_t n) {
  uint64_t u = static_cast<uint64_t>(n) ^ kSignBit;
  for (int shift = 56; shift >= 0; shift -= 8) out->push_back(static_cast<char>(u >> shift));
}

class Writer {
 public:
  explicit Writer(std::string *out) : out_(out) { out_->clear(); }
  void Int(int64_t v) { out_->append(reinterpret_cast<const char *>(&v), sizeof v); }
  void Count(size_t n) {
    uint32_t c = static_cast<uint32_t>(n);
    out_->append(reinterpret_cast<const char *>(&c), sizeof c);
  }
  void Text(const std::string &t) {
    Count(t.size());
    out_->append(t);
  }
  template <class T>
  void Ref(Oid<T> r) {
    Int(r.v);
  }
  template <class T>
  void Bag(const std::vector<Oid<T>> &bag) {
    Count(bag.size());
    for (Oid<T> r : bag) Int(r.v);
  }

 private:
  std::string *out_;
};

class Reader {
 public:
  explicit Reader(std::string_view in) : in_(in) {}
  bool ok() const { return ok_ && in_.empty(); }
  int64_t Int() {
    int64_t v = 0;
    Take(&v, sizeof v);
    return v;
  }
  size_t Count() {
    uint32_t c = 0;
    Take(&c, sizeof c);
    return c;
  }
  void Text(std::string *t) {
    size_t n = Count();
    if (n > in_.size()) {
      ok_ = false;
      return;
    }
    t->assign(in_.data(), n);
    in_.remove_prefix(n);
  }
  template <class T>
  void Ref(Oid<T> *r) {
    r->v = Int();
  }
  template <class T>
  void Bag(std::vector<Oid<T>> *bag) {
    size_t n = Count();
    if (n * 8 > in_.size()) {
      ok_ = false;
      return;
    }
    bag->resize(n);
    for (Oid<T> &r : *bag) r.v = Int();
  }

 private:
  void Take(void *to, size_t n) {
    if (in_.size() < n) {
      ok_ = false;
      std::memset(to, 0, n);
      return;
    }
    std::memcpy(to, in_.data(), n);
    in_.remove_prefix(n);
  }
  std::string_view in_;
  bool ok_ = true;
};

}  // namespace

std::string KeyOf(char tag, int64_t n) {
  std::string k(1, tag);
  PutBig(&k, n);
  return k;
}

std::string KeyOf2(char tag, int64_t a, int64_t b) {
  std::string k = KeyOf(tag, a);
  PutBig(&k, b);
  return k;
}

int64_t KeyNumber(std::string_view key, size_t at) {
  uint64_t u = 0;
  for (size_t i = 0; i < 8 && at + i < key.size(); i++)
    u = (u << 8) | static_cast<unsigned char>(key[at + i]);
  return static_cast<int64_t>(u ^ kSignBit);
}

void Encode(const AtomicPart<IdRefs> &o, std::string *out) {
  Writer w(out);
  w.Int(o.id);
  w.Text(o.type);
  w.Int(o.build_date);
  w.Int(o.x);
  w.Int(o.y);
  w.Int(o.doc_id);
  w.Bag(o.to);
  w.Bag(o.from);
  w.Ref(o.part_of);
}

bool Decode(std::string_view in, AtomicPart<IdRefs> *o) {
  Reader r(in);
  o->id = r.Int();
  r.Text(&o->type);
  o->build_date = r.Int();
  o->x = r.Int();
  o->y = r.Int();
  o->doc_id = r.Int();
  r.Bag(&o->to);
  r.Bag(&o->from);
  r.Ref(&o->part_of);
  return r.ok();
}

void Encode(const Connection<IdRefs> &o, std::string *out) {
  Writer w(out);
  w.Text(o.type);
  w.Int(o.length);
  w.Ref(o.from);
  w.Ref(o.to);
}

bool Decode(std::string_view in, Connection<IdRefs> *o) {
  Reader r(in);
  r.Text(&o->type);
  o->length = r.Int();
  r.Ref(&o->from);
  r.Ref(&o->to);
  return r.ok();
}

void Encode(const CompositePart<IdRefs> &o, std::string *out) {
  Writer w(out);
  w.Int(o.id);
  w.Text(o.type);
  w.Int(o.build_date);
  w.Ref(o.documentation);
  w.Bag(o.parts);
  w.Ref(o.root_part);
  w.Bag(o.used_in_priv);
  w.Bag(o.used_in_shar);
}

bool Decode(std::string_view in, CompositePart<IdRefs> *o) {
  Reader r(in);
  o->id = r.Int();
  r.Text(&o->type);
  o->build_date = r.Int();
  r.Ref(&o->documentation);
  r.Bag(&o->parts);
  r.Ref(&o->root_part);
  r.Bag(&o->used_in_priv);
  r.Bag(&o->used_in_shar);
  return r.ok();
}

void Encode(const Document<IdRefs> &o, std::string *out) {
  Writer w(out);
  w.Text(o.title);
  w.Int(o.id);
  w.Text(o.text);
  w.Ref(o.part);
}

bool Decode(std::string_view in, Document<IdRefs> *o) {
  Reader r(in);
  r.Text(&o->title);
  o->id = r.Int();
  r.Text(&o->text);
  r.Ref(&o->part);
  return r.ok();
}

void Encode(const Manual<IdRefs> &o, std::string *out) {
  Writer w(out);
  w.Text(o.title);
  w.Int(o.id);
  w.Text(o.text);
  w.Ref(o.module);
}

bool Decode(std::string_view in, Manual<IdRefs> *o) {
  Reader r(in);
  r.Text(&o->title);
  o->id = r.Int();
  r.Text(&o->text);
  r.Ref(&o->module);
  return r.ok();
}

void Encode(const Assembly<IdRefs> &o, std::string *out) {
  Writer w(out);
  w.Int(o.id);
  w.Text(o.type);
  w.Int(o.build_date);
  w.Ref(o.super_assembly);
  w.Ref(o.module);
  w.Int(o.is_base ? 1 : 0);
  w.Bag(o.sub_assemblies);
  w.Bag(o.components_priv);
  w.Bag(o.components_shar);
}

bool Decode(std::string_view in, Assembly<IdRefs> *o) {
  Reader r(in);
  o->id = r.Int();
  r.Text(&o->type);
  o->build_date = r.Int();
  r.Ref(&o->super_assembly);
  r.Ref(&o->module);
  o->is_base = r.Int() != 0;
  r.Bag(&o->sub_assemblies);
  r.Bag(&o->components_priv);
  r.Bag(&o->components_shar);
  return r.ok();
}

void Encode(const Module<IdRefs> &o, std::string *out) {
  Writer w(out);
  w.Int(o.id);
  w.Text(o.type);
  w.Int(o.build_date);
  w.Ref(o.man);
  w.Ref(o.design_root);
  w.Bag(o.all_bases);
}

bool Decode(std::string_view in, Module<IdRefs> *o) {
  Reader r(in);
  o->id = r.Int();
  r.Text(&o->type);
  o->build_date = r.Int();
  r.Ref(&o->man);
  r.Ref(&o->design_root);
  r.Bag(&o->all_bases);
  return r.ok();
}

}  // namespace oo7
