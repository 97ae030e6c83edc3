// The transient peer's store (transient_db.h).
#include "transient_db.h"

namespace oo7 {

TransientDb::~TransientDb() {
  for (auto &[id, p] : part_by_id_) {
    for (Conn *c : p->to) delete c;
    delete p;
  }
  for (auto &[id, c] : comp_by_id_) {
    delete c->documentation;
    delete c;
  }
  for (Mod *m : modules_) {
    delete m->man;
    DeleteAssembly(m->design_root);
    delete m;
  }
}

void TransientDb::DeleteAssembly(Assm *a) {
  if (a == nullptr) return;
  for (Assm *sub : a->sub_assemblies) DeleteAssembly(sub);
  delete a;
}

void TransientDb::RemoveDate(Part *p, int64_t date) {
  auto [lo, hi] = part_by_date_.equal_range(date);
  for (auto it = lo; it != hi; ++it) {
    if (it->second == p) {
      part_by_date_.erase(it);
      return;
    }
  }
}

IndexSizes TransientDb::Sizes() const {
  IndexSizes s;
  s.part_by_id = static_cast<int64_t>(part_by_id_.size());
  s.part_by_date = static_cast<int64_t>(part_by_date_.size());
  s.comp_by_id = static_cast<int64_t>(comp_by_id_.size());
  s.doc_by_title = static_cast<int64_t>(doc_by_title_.size());
  s.doc_by_id = static_cast<int64_t>(doc_by_id_.size());
  s.base_by_id = static_cast<int64_t>(base_by_id_.size());
  s.modules = static_cast<int64_t>(modules_.size());
  return s;
}

}  // namespace oo7
