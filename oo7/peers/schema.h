// The OO7 schema (../shared/design/oo7.md, "Schema") for both peers, written once over the kind
// of reference: PointerRefs (the transient peer: a reference is the object's address) or IdRefs
// (the key-value peer: a reference is the object id it is stored under). The operations and the
// generator (operations.h, generator.h) are written once over these types too.
//
// Complex and base assemblies share one struct (is_base tells them apart; a complex assembly
// leaves components_* empty, a base one sub_assemblies) so that the key-value peer stores one
// kind of record for both.
#ifndef CAIRN_OO7_PEERS_SCHEMA_H
#define CAIRN_OO7_PEERS_SCHEMA_H

#include <cstdint>
#include <string>
#include <vector>

namespace oo7 {

template <class R>
struct AtomicPart;
template <class R>
struct Connection;
template <class R>
struct CompositePart;
template <class R>
struct Document;
template <class R>
struct Manual;
template <class R>
struct Assembly;
template <class R>
struct Module;

// References held by objects of the transient peer: plain addresses (nullptr is nil).
struct PointerRefs {
  template <class T>
  using Ref = T *;
};

// A reference held by objects of the key-value peer: the object id it is stored under (0 is nil).
template <class T>
struct Oid {
  int64_t v = 0;
  explicit operator bool() const { return v != 0; }
  bool operator==(const Oid &o) const { return v == o.v; }
};
struct IdRefs {
  template <class T>
  using Ref = Oid<T>;
};

template <class R>
using PartRef = typename R::template Ref<AtomicPart<R>>;
template <class R>
using ConnRef = typename R::template Ref<Connection<R>>;
template <class R>
using CompRef = typename R::template Ref<CompositePart<R>>;
template <class R>
using DocRef = typename R::template Ref<Document<R>>;
template <class R>
using ManualRef = typename R::template Ref<Manual<R>>;
template <class R>
using AssmRef = typename R::template Ref<Assembly<R>>;
template <class R>
using ModuleRef = typename R::template Ref<Module<R>>;

template <class R>
struct AtomicPart {
  int64_t id = 0;
  std::string type;
  int64_t build_date = 0;
  int64_t x = 0, y = 0;
  int64_t doc_id = 0;          // 1..#composites: the join key of Q8
  std::vector<ConnRef<R>> to;  // exactly conn_per_atomic
  std::vector<ConnRef<R>> from;
  CompRef<R> part_of{};
};

template <class R>
struct Connection {
  std::string type;
  int64_t length = 0;
  PartRef<R> from{};
  PartRef<R> to{};
};

template <class R>
struct CompositePart {
  int64_t id = 0;
  std::string type;
  int64_t build_date = 0;
  DocRef<R> documentation{};
  std::vector<PartRef<R>> parts;
  PartRef<R> root_part{};
  std::vector<AssmRef<R>> used_in_priv;  // a bag: a base assembly once per use
  std::vector<AssmRef<R>> used_in_shar;
};

template <class R>
struct Document {
  std::string title;
  int64_t id = 0;
  std::string text;
  CompRef<R> part{};
};

template <class R>
struct Manual {
  std::string title;
  int64_t id = 0;
  std::string text;
  ModuleRef<R> module{};
};

template <class R>
struct Assembly {
  int64_t id = 0;
  std::string type;
  int64_t build_date = 0;
  AssmRef<R> super_assembly{};
  ModuleRef<R> module{};
  bool is_base = false;
  std::vector<AssmRef<R>> sub_assemblies;   // complex only
  std::vector<CompRef<R>> components_priv;  // base only (bags)
  std::vector<CompRef<R>> components_shar;
};

template <class R>
struct Module {
  int64_t id = 0;
  std::string type;
  int64_t build_date = 0;
  ManualRef<R> man{};
  AssmRef<R> design_root{};
  std::vector<AssmRef<R>> all_bases;
};

}  // namespace oo7

#endif  // CAIRN_OO7_PEERS_SCHEMA_H
