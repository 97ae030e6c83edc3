// A summary of an OO7 instance: object counts, index sizes and a checksum of its contents, the
// same as oo7/summary.cairn computes, so that `gen` on every side can show it built the same
// instance and the tests can show that Insert then Delete, or T5do then T5undo, leave it as it
// was.
//
// The checksum folds values into h with h = (h ^ v) * 1099511628211 (64-bit wrapping; h starts
// at -3750763034362895579, FNV-1a's offset basis), in this order: per module (extent order) its
// id, type, date, manual (title, id, length, first and last byte) and its assembly tree depth
// first (id, type, date, is_base; a base's private then shared composite ids, each bag with its
// length first; a complex one's child count). Then per composite part in id order: id, type,
// date, its document (title, id, length, first and last byte), its parts in bag order (id, type,
// date, x, y, docId, the `to` bag: target id, type, length of each connection; the length of the
// `from` bag), and the ids of the base assemblies in both usedIn bags. A text is folded as its
// length then its bytes.
#ifndef CAIRN_OO7_PEERS_SUMMARY_H
#define CAIRN_OO7_PEERS_SUMMARY_H

#include <cstdint>
#include <string>

#include "index_sizes.h"
#include "schema.h"

namespace oo7 {

struct Summary {
  int64_t modules = 0, complex_assemblies = 0, base_assemblies = 0, composites = 0,
          atomic_parts = 0, connections = 0;
  IndexSizes index;
  uint64_t checksum = 0;
};

class Fold {
 public:
  void Int(int64_t v) { h_ = (h_ ^ static_cast<uint64_t>(v)) * 1099511628211ull; }
  void Text(const std::string &t) {
    Int(static_cast<int64_t>(t.size()));
    for (unsigned char ch : t) Int(ch);
  }
  // A long text: length, first and last byte.
  void Contents(const std::string &t) {
    Int(static_cast<int64_t>(t.size()));
    Int(t.empty() ? -1 : static_cast<unsigned char>(t.front()));
    Int(t.empty() ? -1 : static_cast<unsigned char>(t.back()));
  }
  uint64_t value() const { return h_; }

 private:
  uint64_t h_ = 14695981039346656037ull;
};

template <class S>
class Summarizer {
 public:
  using R = typename S::Refs;
  explicit Summarizer(S &s) : s_(s) {}

  Summary Run() {
    Summary out;
    for (ModuleRef<R> m : s_.Modules()) {
      const auto &mod = s_.Get(m);
      out.modules++;
      f_.Int(mod.id);
      f_.Text(mod.type);
      f_.Int(mod.build_date);
      const auto &man = s_.Get(mod.man);
      f_.Text(man.title);
      f_.Int(man.id);
      f_.Contents(man.text);
      Assembly(mod.design_root, &out);
    }
    s_.ForEachCompFrom(INT64_MIN, [&](CompRef<R> c) { Composite(c, &out); });
    out.index = s_.Sizes();
    out.checksum = f_.value();
    return out;
  }

 private:
  void Assembly(AssmRef<R> a, Summary *out) {
    const auto &as = s_.Get(a);
    f_.Int(as.id);
    f_.Text(as.type);
    f_.Int(as.build_date);
    f_.Int(as.is_base ? 1 : 0);
    if (as.is_base) {
      out->base_assemblies++;
      for (const auto *bag : {&as.components_priv, &as.components_shar}) {
        f_.Int(static_cast<int64_t>(bag->size()));
        for (CompRef<R> c : *bag) f_.Int(s_.Get(c).id);
      }
    } else {
      out->complex_assemblies++;
      f_.Int(static_cast<int64_t>(as.sub_assemblies.size()));
      for (AssmRef<R> sub : as.sub_assemblies) Assembly(sub, out);
    }
  }

  void Composite(CompRef<R> c, Summary *out) {
    const auto &cp = s_.Get(c);
    out->composites++;
    f_.Int(cp.id);
    f_.Text(cp.type);
    f_.Int(cp.build_date);
    const auto &d = s_.Get(cp.documentation);
    f_.Text(d.title);
    f_.Int(d.id);
    f_.Contents(d.text);
    f_.Int(static_cast<int64_t>(cp.parts.size()));
    for (PartRef<R> p : cp.parts) {
      const auto &part = s_.Get(p);
      out->atomic_parts++;
      f_.Int(part.id);
      f_.Text(part.type);
      f_.Int(part.build_date);
      f_.Int(part.x);
      f_.Int(part.y);
      f_.Int(part.doc_id);
      f_.Int(static_cast<int64_t>(part.to.size()));
      for (ConnRef<R> cr : part.to) {
        const auto &conn = s_.Get(cr);
        out->connections++;
        f_.Int(s_.Get(conn.to).id);
        f_.Text(conn.type);
        f_.Int(conn.length);
      }
      f_.Int(static_cast<int64_t>(part.from.size()));
    }
    for (const auto *bag : {&cp.used_in_priv, &cp.used_in_shar}) {
      f_.Int(static_cast<int64_t>(bag->size()));
      for (AssmRef<R> b : *bag) f_.Int(s_.Get(b).id);
    }
  }

  S &s_;
  Fold f_;
};

}  // namespace oo7

#endif  // CAIRN_OO7_PEERS_SUMMARY_H
