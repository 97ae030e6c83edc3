// The OO7 generator, written once over a store (store_interface.md), drawing from SplitMix64 in
// exactly the order oo7/generate.cairn does, so that Cairn and both peers build the same instance
// from the same seed (`gen` prints a checksum of it on every side; summary.h).
//
// Order: every composite part of every module first (ids 1..#composites; MakeComposite), then
// per module its record, its manual and its assembly hierarchy, depth first (MakeAssembly).
#ifndef CAIRN_OO7_PEERS_GENERATOR_H
#define CAIRN_OO7_PEERS_GENERATOR_H

#include <cstdint>
#include <vector>

#include "config.h"
#include "random.h"
#include "schema.h"
#include "texts.h"

namespace oo7 {

// Makes composite part `cid` with its document, atomic parts (ids first_part..) and connections,
// stores and indexes them. Draws: type, date; per part type, date, x, y, docId; per connection
// (part by part, `to` by `to`) the target (all but the first), type, length.
template <class S>
CompRef<typename S::Refs> MakeComposite(S &s, Random &rng, const Config &c, int64_t cid,
                                        int64_t first_part) {
  using R = typename S::Refs;
  CompRef<R> comp = s.NewComp(cid);
  DocRef<R> doc = s.NewDoc(cid);
  CompositePart<R> cp;
  cp.id = cid;
  cp.type = TypeName(rng.Int(0, 10));
  cp.build_date = cid % 10 == 0 ? rng.Int(2000, 3000) : rng.Int(0, 1000);
  cp.documentation = doc;
  Document<R> d;
  d.title = DocTitle(cid);
  d.id = cid;
  d.text = DocText(cid, c.doc_size);
  d.part = comp;
  const int64_t n = c.atomic_per_comp;
  std::vector<AtomicPart<R>> parts(static_cast<size_t>(n));
  std::vector<PartRef<R>> refs;
  for (int64_t i = 0; i < n; i++) {
    AtomicPart<R> &p = parts[static_cast<size_t>(i)];
    p.id = first_part + i;
    refs.push_back(s.NewPart(p.id));
    p.type = TypeName(rng.Int(0, 10));
    p.build_date = rng.Int(1000, 2000);
    p.x = rng.Int(0, 100000);
    p.y = rng.Int(0, 100000);
    p.doc_id = rng.Int(1, c.Composites() + 1);
    p.part_of = comp;
  }
  for (int64_t i = 0; i < n; i++) {
    for (int64_t j = 0; j < c.conn_per_atomic; j++) {
      int64_t target = j == 0 ? (i + 1) % n : rng.Int(0, n);
      Connection<R> conn;
      conn.type = TypeName(rng.Int(0, 10));
      conn.length = rng.Int(0, 100000);
      conn.from = refs[static_cast<size_t>(i)];
      conn.to = refs[static_cast<size_t>(target)];
      ConnRef<R> cr = s.NewConn();
      s.Put(cr, std::move(conn));
      parts[static_cast<size_t>(i)].to.push_back(cr);
      parts[static_cast<size_t>(target)].from.push_back(cr);
    }
  }
  for (int64_t i = 0; i < n; i++) {
    AtomicPart<R> &p = parts[static_cast<size_t>(i)];
    s.IndexPart(refs[static_cast<size_t>(i)], p.id, p.build_date);
    s.Put(refs[static_cast<size_t>(i)], std::move(p));
  }
  cp.parts = refs;
  cp.root_part = refs.empty() ? PartRef<R>{} : refs[0];
  s.IndexDoc(doc, d.title, d.id);
  s.Put(doc, std::move(d));
  s.IndexComp(comp, cid);
  s.Put(comp, std::move(cp));
  return comp;
}

// State of one generation run.
template <class S>
struct Generation {
  S &s;
  Random &rng;
  const Config &c;
  std::vector<CompRef<typename S::Refs>> comps;  // comps[id - 1]
  int64_t next_assembly = 1;
};

// Makes the assembly at `level` (1: the design root) of module `m` (1-based) and everything
// below it. Draws: type, date; a base assembly then its private picks (from its module's
// composites) and its shared picks (from all composites); a complex one its children in order.
template <class S>
AssmRef<typename S::Refs> MakeAssembly(Generation<S> &g, int64_t level,
                                       AssmRef<typename S::Refs> super,
                                       ModuleRef<typename S::Refs> mref, int64_t m,
                                       Module<typename S::Refs> &module) {
  using R = typename S::Refs;
  const Config &c = g.c;
  int64_t id = g.next_assembly++;
  AssmRef<R> ref = g.s.NewAssembly(id);
  Assembly<R> a;
  a.id = id;
  a.type = TypeName(g.rng.Int(0, 10));
  a.build_date = g.rng.Int(1000, 2000);
  a.super_assembly = super;
  a.module = mref;
  if (level == c.assm_levels) {
    a.is_base = true;
    for (int64_t k = 0; k < c.comp_per_assm; k++) {
      CompRef<R> comp = g.comps[static_cast<size_t>((m - 1) * c.comp_per_module +
                                                    g.rng.Int(0, c.comp_per_module))];
      a.components_priv.push_back(comp);
      g.s.Update(comp, [&](CompositePart<R> &cp) { cp.used_in_priv.push_back(ref); });
    }
    for (int64_t k = 0; k < c.comp_per_assm; k++) {
      CompRef<R> comp = g.comps[static_cast<size_t>(g.rng.Int(0, c.Composites()))];
      a.components_shar.push_back(comp);
      g.s.Update(comp, [&](CompositePart<R> &cp) { cp.used_in_shar.push_back(ref); });
    }
    module.all_bases.push_back(ref);
    g.s.IndexBase(ref, id);
  } else {
    for (int64_t k = 0; k < c.assm_per_assm; k++)
      a.sub_assemblies.push_back(MakeAssembly(g, level + 1, ref, mref, m, module));
  }
  g.s.Put(ref, std::move(a));
  return ref;
}

// Generates the whole instance into s. progress(done, total) is called after each composite.
template <class S, class P>
void Generate(S &s, const Config &c, int64_t seed, P progress) {
  using R = typename S::Refs;
  Random rng(seed);
  Generation<S> g{s, rng, c, {}, 1};
  const int64_t total = c.Composites();
  for (int64_t cid = 1; cid <= total; cid++) {
    g.comps.push_back(MakeComposite(s, rng, c, cid, (cid - 1) * c.atomic_per_comp + 1));
    progress(cid, total);
  }
  for (int64_t m = 1; m <= c.modules; m++) {
    ModuleRef<R> mref = s.NewModule(m);
    Module<R> mod;
    mod.id = m;
    mod.type = TypeName(rng.Int(0, 10));
    mod.build_date = rng.Int(1000, 2000);
    ManualRef<R> man = s.NewManual(m);
    Manual<R> manual;
    manual.title = ManualTitle(m);
    manual.id = m;
    manual.text = ManualText(m, c.manual_size);
    manual.module = mref;
    s.Put(man, std::move(manual));
    mod.man = man;
    mod.design_root = MakeAssembly(g, 1, AssmRef<R>{}, mref, m, mod);
    s.Put(mref, std::move(mod));
    s.AddModule(mref, ModuleName(m));
  }
}

}  // namespace oo7

#endif  // CAIRN_OO7_PEERS_GENERATOR_H
