// The OO7 operations (../shared/design/oo7.md, "Operations"), written once over a store
// (store_interface.md) for both peers, step for step as oo7/operations.cairn does them. Each
// returns its result count. Random operations (T7, Q1, Q4, Insert) start from OpSeed(op) every
// time they run, as the protocol's reseeding at each iteration asks.
#ifndef CAIRN_OO7_PEERS_OPERATIONS_H
#define CAIRN_OO7_PEERS_OPERATIONS_H

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "config.h"
#include "generator.h"
#include "id_set.h"
#include "random.h"
#include "schema.h"
#include "texts.h"

namespace oo7 {

// Every operation's name, in the order `run all` uses.
inline const std::vector<std::string> &OperationNames() {
  static const std::vector<std::string> names = {
      "T1", "T2a", "T2b", "T2c", "T3a", "T3b", "T3c", "T4", "T5do", "T5undo", "T6",     "T7",
      "T8", "T9",  "Q1",  "Q2",  "Q3",  "Q4",  "Q5",  "Q6", "Q7",   "Q8",     "Insert", "Delete"};
  return names;
}

// The seed each random operation starts from (the same in oo7/operations.cairn).
inline int64_t OpSeed(const std::string &op) {
  if (op == "T7") return 7007;
  if (op == "Q1") return 8001;
  if (op == "Q4") return 8004;
  if (op == "Insert") return 9001;
  return 0;
}

// Composite parts Insert adds and Delete removes per run.
constexpr int64_t kInsertCount = 10;

template <class S>
class Operations {
 public:
  using R = typename S::Refs;

  Operations(S &s, const Config &c) : s_(s), c_(c) {}

  // Runs op; false if there is no operation of that name.
  bool Run(const std::string &op, int64_t *count) {
    int64_t n = 0;
    if (op == "T1")
      n = T1();
    else if (op == "T2a")
      n = T2(1, 0);
    else if (op == "T2b")
      n = T2(0, 1);
    else if (op == "T2c")
      n = T2(0, 4);
    else if (op == "T3a")
      n = T3(1, 0);
    else if (op == "T3b")
      n = T3(0, 1);
    else if (op == "T3c")
      n = T3(0, 4);
    else if (op == "T4")
      n = T4();
    else if (op == "T5do")
      n = T5("I am", "This is");
    else if (op == "T5undo")
      n = T5("This is", "I am");
    else if (op == "T6")
      n = T6();
    else if (op == "T7")
      n = T7();
    else if (op == "T8")
      n = T8();
    else if (op == "T9")
      n = T9();
    else if (op == "Q1")
      n = Q1();
    else if (op == "Q2")
      n = DateRange(1990);
    else if (op == "Q3")
      n = DateRange(1900);
    else if (op == "Q4")
      n = Q4();
    else if (op == "Q5")
      n = Q5();
    else if (op == "Q6")
      n = Q6();
    else if (op == "Q7")
      n = Q7();
    else if (op == "Q8")
      n = Q8();
    else if (op == "Insert")
      n = Insert();
    else if (op == "Delete")
      n = Delete();
    else
      return false;
    *count = n;
    return true;
  }

  // T1: the assembly hierarchy, each base assembly's private composites, a depth-first search
  // of each composite's part graph; the parts visited.
  int64_t T1() {
    int64_t n = 0;
    ForEachPrivateComposite([&](CompRef<R> c) {
      const auto &cp = s_.Get(c);
      n += Dfs(cp.root_part, [](PartRef<R>, const AtomicPart<R> &) {});
    });
    return n;
  }

  // T2: as T1, swapping x and y of the root part of each composite (root_swaps 1) or of every
  // part `swaps` times; the updates.
  int64_t T2(int root_swaps, int swaps) {
    int64_t updates = 0;
    ForEachPrivateComposite([&](CompRef<R> c) {
      const auto &cp = s_.Get(c);
      PartRef<R> root = cp.root_part;
      Dfs(root, [&](PartRef<R> p, const AtomicPart<R> &part) {
        int times = p == root ? std::max(root_swaps, swaps) : swaps;
        if (times == 0) return;
        s_.Modify(p, part, [&](AtomicPart<R> &w) {
          for (int k = 0; k < times; k++) std::swap(w.x, w.y);
        });
        updates += times;
      });
    });
    return updates;
  }

  // T3: as T2, toggling buildDate (odd +1, even -1) and moving the part in the date index.
  int64_t T3(int root_times, int times_each) {
    int64_t updates = 0;
    ForEachPrivateComposite([&](CompRef<R> c) {
      const auto &cp = s_.Get(c);
      PartRef<R> root = cp.root_part;
      Dfs(root, [&](PartRef<R> p, const AtomicPart<R> &part) {
        int times = p == root ? std::max(root_times, times_each) : times_each;
        if (times == 0) return;
        s_.Modify(p, part, [&](AtomicPart<R> &w) {
          for (int k = 0; k < times; k++) {
            int64_t old = w.build_date;
            w.build_date = old % 2 != 0 ? old + 1 : old - 1;
            s_.MoveDate(p, w.id, old, w.build_date);
          }
        });
        updates += times;
      });
    });
    return updates;
  }

  // T4: the 'I's in the document of each private composite visited.
  int64_t T4() {
    int64_t n = 0;
    ForEachPrivateComposite([&](CompRef<R> c) {
      const auto &cp = s_.Get(c);
      const auto &d = s_.Get(cp.documentation);
      n += static_cast<int64_t>(std::count(d.text.begin(), d.text.end(), 'I'));
    });
    return n;
  }

  // T5do / T5undo: each visited document starting with `from` starts with `to` instead; the
  // documents changed (a composite visited twice changes once).
  int64_t T5(const std::string &from, const std::string &to) {
    int64_t n = 0;
    ForEachPrivateComposite([&](CompRef<R> c) {
      const auto &cp = s_.Get(c);
      const auto &d = s_.Get(cp.documentation);
      if (d.text.compare(0, from.size(), from) != 0) return;
      s_.Modify(cp.documentation, d,
                [&](Document<R> &w) { w.text = to + w.text.substr(from.size()); });
      n++;
    });
    return n;
  }

  // T6: as T1, visiting only each composite's root part.
  int64_t T6() {
    int64_t n = 0;
    ForEachPrivateComposite([&](CompRef<R> c) {
      const auto &cp = s_.Get(c);
      const auto &root = s_.Get(cp.root_part);
      if (root.id != 0) n++;
    });
    return n;
  }

  // T7: a random atomic part, its composite, every base assembly using it privately and their
  // ancestors; the distinct assemblies.
  int64_t T7() {
    Random rng(OpSeed("T7"));
    PartRef<R> p = s_.PartById(rng.Int(1, c_.AtomicParts() + 1));
    if (!p) return 0;
    const auto &part = s_.Get(p);
    const auto &cp = s_.Get(part.part_of);
    visited_.Clear();
    for (AssmRef<R> a : cp.used_in_priv) {
      while (a) {
        const auto &as = s_.Get(a);
        if (!visited_.Insert(as.id)) break;  // it and its ancestors are counted
        a = as.super_assembly;
      }
    }
    return visited_.Size();
  }

  // T8: the 'I's in each module's manual.
  int64_t T8() {
    int64_t n = 0;
    for (ModuleRef<R> m : s_.Modules()) {
      const auto &mod = s_.Get(m);
      const auto &man = s_.Get(mod.man);
      n += static_cast<int64_t>(std::count(man.text.begin(), man.text.end(), 'I'));
    }
    return n;
  }

  // T9: per module, 1 if its manual's first and last bytes are equal.
  int64_t T9() {
    int64_t n = 0;
    for (ModuleRef<R> m : s_.Modules()) {
      const auto &mod = s_.Get(m);
      const auto &man = s_.Get(mod.man);
      if (!man.text.empty() && man.text.front() == man.text.back()) n++;
    }
    return n;
  }

  // Q1: 10 random atomic part ids looked up; the parts found.
  int64_t Q1() {
    Random rng(OpSeed("Q1"));
    int64_t n = 0;
    for (int k = 0; k < 10; k++) {
      PartRef<R> p = s_.PartById(rng.Int(1, c_.AtomicParts() + 1));
      if (!p) continue;
      const auto &part = s_.Get(p);
      if (part.id != 0) n++;
    }
    return n;
  }

  // Q2 / Q3: the atomic parts with buildDate >= lo, through the date index.
  int64_t DateRange(int64_t lo) {
    int64_t n = 0;
    s_.ForEachPartByDate(lo, [&](PartRef<R> p) {
      const auto &part = s_.Get(p);
      if (part.build_date >= lo) n++;
    });
    return n;
  }

  // Q4: 10 random document titles; the base assemblies using each one's composite privately
  // (with duplicates).
  int64_t Q4() {
    Random rng(OpSeed("Q4"));
    int64_t n = 0;
    for (int k = 0; k < 10; k++) {
      DocRef<R> d = s_.DocByTitle(DocTitle(rng.Int(1, c_.Composites() + 1)));
      if (!d) continue;
      const auto &doc = s_.Get(d);
      const auto &cp = s_.Get(doc.part);
      for (AssmRef<R> b : cp.used_in_priv) {
        const auto &base = s_.Get(b);
        if (base.is_base) n++;
      }
    }
    return n;
  }

  // Q5: the (base assembly, private composite) pairs with the composite younger.
  int64_t Q5() {
    int64_t n = 0;
    for (ModuleRef<R> m : s_.Modules()) {
      const auto &mod = s_.Get(m);
      for (AssmRef<R> b : mod.all_bases) {
        const auto &base = s_.Get(b);
        for (CompRef<R> c : base.components_priv)
          if (s_.Get(c).build_date > base.build_date) n++;
      }
    }
    return n;
  }

  // Q6: the assemblies that use, transitively, a composite younger than themselves.
  int64_t Q6() {
    int64_t n = 0;
    for (ModuleRef<R> m : s_.Modules()) {
      const auto &mod = s_.Get(m);
      NewestBelow(mod.design_root, &n);
    }
    return n;
  }

  // Q7: every atomic part, through the extent.
  int64_t Q7() {
    int64_t n = 0;
    s_.ForEachPart([&](PartRef<R>, const AtomicPart<R> &part) {
      if (part.id != 0) n++;
    });
    return n;
  }

  // Q8: the (document, atomic part) pairs with document.id == part.docId.
  int64_t Q8() {
    int64_t n = 0;
    s_.ForEachPart([&](PartRef<R>, const AtomicPart<R> &part) {
      if (s_.DocById(part.doc_id)) n++;
    });
    return n;
  }

  // Insert: 10 new composite parts (ids and part ids after the largest), each with its document,
  // parts and connections, each added to the private bag of a random base assembly; all indexed.
  int64_t Insert() {
    Random rng(OpSeed("Insert"));
    int64_t comp_id = s_.MaxCompId() + 1;
    int64_t part_id = s_.MaxPartId() + 1;
    auto modules = s_.Modules();
    for (int64_t k = 0; k < kInsertCount; k++) {
      CompRef<R> c = MakeComposite(s_, rng, c_, comp_id + k, part_id + k * c_.atomic_per_comp);
      ModuleRef<R> m =
          modules[static_cast<size_t>(rng.Int(0, static_cast<int64_t>(modules.size())))];
      const auto &mod = s_.Get(m);
      AssmRef<R> b = mod.all_bases[static_cast<size_t>(
          rng.Int(0, static_cast<int64_t>(mod.all_bases.size())))];
      s_.Update(b, [&](Assembly<R> &base) { base.components_priv.push_back(c); });
      s_.Update(c, [&](CompositePart<R> &cp) { cp.used_in_priv.push_back(b); });
    }
    return kInsertCount;
  }

  // Delete: removes the (up to) 10 composite parts with the largest ids above the generated
  // ones, with their documents, parts and connections, from every bag and index.
  int64_t Delete() {
    std::vector<CompRef<R>> extra;
    s_.ForEachCompFrom(c_.Composites() + 1, [&](CompRef<R> c) { extra.push_back(c); });
    int64_t n = 0;
    while (!extra.empty() && n < kInsertCount) {
      CompRef<R> c = extra.back();
      extra.pop_back();
      const auto &cp = s_.Get(c);
      for (AssmRef<R> b : cp.used_in_priv)
        s_.Update(b, [&](Assembly<R> &base) { RemoveFirst(base.components_priv, c); });
      for (AssmRef<R> b : cp.used_in_shar)
        s_.Update(b, [&](Assembly<R> &base) { RemoveFirst(base.components_shar, c); });
      for (PartRef<R> p : cp.parts) {
        const auto &part = s_.Get(p);
        for (ConnRef<R> conn : part.to) s_.Remove(conn);
        s_.UnindexPart(p, part.id, part.build_date);
        s_.Remove(p);
      }
      const auto &d = s_.Get(cp.documentation);
      s_.UnindexDoc(d.title, d.id);
      s_.Remove(cp.documentation);
      s_.UnindexComp(cp.id);
      s_.Remove(c);
      n++;
    }
    return n;
  }

 private:
  template <class F>
  void ForEachPrivateComposite(F f) {
    for (ModuleRef<R> m : s_.Modules()) {
      const auto &mod = s_.Get(m);
      Walk(mod.design_root, f);
    }
  }

  template <class F>
  void Walk(AssmRef<R> a, F &f) {
    const auto &as = s_.Get(a);
    if (as.is_base) {
      for (CompRef<R> c : as.components_priv) f(c);
    } else {
      for (AssmRef<R> sub : as.sub_assemblies) Walk(sub, f);
    }
  }

  // Depth-first search from root along `to` connections, each part once; f(ref, part) at each.
  template <class F>
  int64_t Dfs(PartRef<R> root, F f) {
    visited_.Clear();
    return DfsFrom(root, f);
  }

  template <class F>
  int64_t DfsFrom(PartRef<R> p, F &f) {
    const auto &part = s_.Get(p);
    if (!visited_.Insert(part.id)) return 0;
    f(p, part);
    int64_t n = 1;
    for (ConnRef<R> c : part.to) n += DfsFrom(s_.Get(c).to, f);
    return n;
  }

  // The newest buildDate of a composite used privately below a (INT64_MIN if none); counts the
  // assemblies older than it into *n.
  int64_t NewestBelow(AssmRef<R> a, int64_t *n) {
    const auto &as = s_.Get(a);
    int64_t newest = INT64_MIN;
    if (as.is_base) {
      for (CompRef<R> c : as.components_priv) newest = std::max(newest, s_.Get(c).build_date);
    } else {
      for (AssmRef<R> sub : as.sub_assemblies) newest = std::max(newest, NewestBelow(sub, n));
    }
    if (newest > as.build_date) (*n)++;
    return newest;
  }

  template <class T>
  static void RemoveFirst(std::vector<T> &bag, T x) {
    auto it = std::find(bag.begin(), bag.end(), x);
    if (it != bag.end()) bag.erase(it);
  }

  S &s_;
  const Config &c_;
  IdSet visited_;
};

}  // namespace oo7

#endif  // CAIRN_OO7_PEERS_OPERATIONS_H
