// The transient peer's store: every object in ordinary memory (new/delete), references as
// addresses, indexes in std::map. Nothing persists: this is the hot lower bound that a
// persistent language can at best match. See store_interface.md for the members.
//
// Ownership: the store owns every object reachable from its indexes and modules; Remove deletes
// one object, the destructor everything still there (parts with their outgoing connections,
// composites with their documents, modules with their manuals and assembly trees).
#ifndef CAIRN_OO7_PEERS_TRANSIENT_DB_H
#define CAIRN_OO7_PEERS_TRANSIENT_DB_H

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "index_sizes.h"
#include "schema.h"

namespace oo7 {

class TransientDb {
 public:
  using Refs = PointerRefs;
  using Part = AtomicPart<Refs>;
  using Conn = Connection<Refs>;
  using Comp = CompositePart<Refs>;
  using Doc = Document<Refs>;
  using Man = Manual<Refs>;
  using Assm = Assembly<Refs>;
  using Mod = Module<Refs>;

  TransientDb() = default;
  TransientDb(const TransientDb &) = delete;
  TransientDb &operator=(const TransientDb &) = delete;
  ~TransientDb();

  Part *NewPart(int64_t) { return new Part; }
  Conn *NewConn() { return new Conn; }
  Comp *NewComp(int64_t) { return new Comp; }
  Doc *NewDoc(int64_t) { return new Doc; }
  Assm *NewAssembly(int64_t) { return new Assm; }
  Mod *NewModule(int64_t) { return new Mod; }
  Man *NewManual(int64_t) { return new Man; }

  template <class T>
  void Put(T *ref, T object) {
    *ref = std::move(object);
  }
  template <class T>
  const T &Get(const T *ref) const {
    return *ref;
  }
  template <class T, class F>
  void Modify(T *ref, const T &, F f) {
    f(*ref);
  }
  template <class T, class F>
  void Update(T *ref, F f) {
    f(*ref);
  }
  template <class T>
  void Remove(T *ref) {
    delete ref;
  }

  void IndexPart(Part *p, int64_t id, int64_t date) {
    part_by_id_[id] = p;
    part_by_date_.emplace(date, p);
  }
  void UnindexPart(Part *p, int64_t id, int64_t date) {
    part_by_id_.erase(id);
    RemoveDate(p, date);
  }
  void MoveDate(Part *p, int64_t, int64_t old_date, int64_t new_date) {
    RemoveDate(p, old_date);
    part_by_date_.emplace(new_date, p);
  }
  Part *PartById(int64_t id) const { return Find(part_by_id_, id); }
  template <class F>
  void ForEachPartByDate(int64_t lo, F f) const {
    for (auto it = part_by_date_.lower_bound(lo); it != part_by_date_.end(); ++it) f(it->second);
  }
  template <class F>
  void ForEachPart(F f) const {
    for (const auto &[id, p] : part_by_id_) f(p, *p);
  }
  int64_t MaxPartId() const { return part_by_id_.empty() ? 0 : part_by_id_.rbegin()->first; }

  void IndexComp(Comp *c, int64_t id) { comp_by_id_[id] = c; }
  void UnindexComp(int64_t id) { comp_by_id_.erase(id); }
  Comp *CompById(int64_t id) const { return Find(comp_by_id_, id); }
  template <class F>
  void ForEachCompFrom(int64_t lo, F f) const {
    for (auto it = comp_by_id_.lower_bound(lo); it != comp_by_id_.end(); ++it) f(it->second);
  }
  int64_t MaxCompId() const { return comp_by_id_.empty() ? 0 : comp_by_id_.rbegin()->first; }

  void IndexDoc(Doc *d, const std::string &title, int64_t id) {
    doc_by_title_[title] = d;
    doc_by_id_[id] = d;
  }
  void UnindexDoc(const std::string &title, int64_t id) {
    doc_by_title_.erase(title);
    doc_by_id_.erase(id);
  }
  Doc *DocByTitle(const std::string &title) const { return Find(doc_by_title_, title); }
  Doc *DocById(int64_t id) const { return Find(doc_by_id_, id); }

  void IndexBase(Assm *a, int64_t id) { base_by_id_[id] = a; }

  void AddModule(Mod *m, const std::string &name) {
    modules_.push_back(m);
    module_by_name_[name] = m;
  }
  const std::vector<Mod *> &Modules() const { return modules_; }

  IndexSizes Sizes() const;
  void Commit() {}

 private:
  template <class M, class K>
  static typename M::mapped_type Find(const M &map, const K &key) {
    auto it = map.find(key);
    return it == map.end() ? nullptr : it->second;
  }
  void RemoveDate(Part *p, int64_t date);
  void DeleteAssembly(Assm *a);

  std::map<int64_t, Part *> part_by_id_;  // also the extent of all atomic parts
  std::multimap<int64_t, Part *> part_by_date_;
  std::map<int64_t, Comp *> comp_by_id_;
  std::map<std::string, Doc *> doc_by_title_;
  std::map<int64_t, Doc *> doc_by_id_;
  std::map<int64_t, Assm *> base_by_id_;
  std::map<std::string, Mod *> module_by_name_;
  std::vector<Mod *> modules_;  // the extent of all modules
};

}  // namespace oo7

#endif  // CAIRN_OO7_PEERS_TRANSIENT_DB_H
