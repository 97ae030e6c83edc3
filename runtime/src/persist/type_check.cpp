// The type check when a database is opened: its type table against this program's types.
//
// What is an error at open (CAIRN_TYPE_MISMATCH from cairn_db_open, naming the type and what
// differs), and what waits until an object of the type is faulted in:
//   - A stored type whose fingerprint this program has registered, with another layout (the
//     same fields on another platform, or a hand-made descriptor that disagrees): an error.
//   - A stored type this program defines differently: it has a type of that name but none with
//     the stored fingerprint (fields added, removed, renamed, retyped or reordered): an error,
//     unless the table also holds the program's version of that name (then the stored one is an
//     older version of the type, and only touching an object of it is an error).
//   - A stored type this program lacks entirely (no type of that name): not an error; the
//     program may never touch objects of it. Faulting in a page holding one is.
//   - Types registered after the open (a JIT module, a library loaded later) are checked when
//     an object of them is first faulted in.
#include <cinttypes>
#include <cstdio>
#include <set>

#include "persist/persistence.h"
#include "persist/type_layout.h"
#include "types/type_registry.h"

namespace cairn::persist {

namespace {

std::string Hex(uint64_t v) {
  char b[24];
  std::snprintf(b, sizeof b, "%016" PRIx64, v);
  return b;
}

// The runtime's own descriptors for pointer-free blocks and fillers (made at run time).
bool IsRuntimeAtomic(const StoredLayout &l) {
  return types::TypeRegistry::PlainKindOf(l.name) != types::TypeRegistry::kNotPlain &&
         l.refs.empty() && l.fields.empty();
}

}  // namespace

Status Persistence::CheckTypes(cairn_db &db) {
  std::vector<store::TypeEntry> entries;
  std::unique_ptr<store::Transaction> temp;
  store::Transaction *t = nullptr;
  Status s = Reader(&temp, &t);
  if (s.ok()) s = t->ListTypes(db.id, &entries);
  if (temp) temp->Abort();
  if (!s.ok()) return s;

  std::vector<StoredLayout> layouts(entries.size());
  std::set<std::pair<std::string, uint64_t>> stored;  // (name, fingerprint) of every entry
  for (size_t i = 0; i < entries.size(); i++) {
    s = DecodeLayout(entries[i].layout, &layouts[i]);
    if (!s.ok())
      return Status(s.code(), "database '" + db.name + "', type table entry " +
                                  std::to_string(entries[i].index) + ": " + s.message() + "; " +
                                  store::DamageAdvice(store_->dir(), db.name));
    stored.emplace(layouts[i].name, entries[i].fingerprint);
  }
  types::TypeRegistry &registry = types::TypeRegistry::Get();
  for (size_t i = 0; i < entries.size(); i++) {
    const store::TypeEntry &e = entries[i];
    const StoredLayout &layout = layouts[i];
    if (IsRuntimeAtomic(layout)) continue;
    if (const cairn_type *local = registry.Find(e.fingerprint)) {
      if (ReplacedByUpgrade(layout.name)) {
        // This program's definition is one an upgrade replaced (upgrade.h, U6).
        const std::string name =
            layout.name.substr(0, layout.name.size() - kReplacedByUpgrade.size());
        return Status(CAIRN_TYPE_MISMATCH,
                      "database '" + db.name + "' was upgraded to another definition of type '" +
                          name + "' than this program's (fingerprint " + Hex(e.fingerprint) +
                          "), whose objects it converted: build the program with the "
                          "definition it was upgraded to, or open it with Database.upgrade(\"" +
                          db.name +
                          "\") (cairn_db_upgrade) to convert them back to this "
                          "program's (the values of the fields the other definition added are "
                          "then lost)");
      }
      s = CheckLayout(layout, local, db.name);
      if (!s.ok()) return s;
      // D4: known good, so faulting needs no check for it.
      if (db.type_by_index.size() <= e.index) db.type_by_index.resize(e.index + 1, nullptr);
      db.type_by_index[e.index] = local;
      db.index_of[local] = e.index;
      continue;
    }
    std::vector<const cairn_type *> named = registry.FindByName(layout.name);
    if (named.empty()) continue;  // a type this program lacks: an error only when faulted
    bool ours_stored_too = false;
    for (const cairn_type *n : named)
      ours_stored_too = ours_stored_too || stored.count({layout.name, n->fingerprint});
    if (ours_stored_too) continue;  // an older version of it: an error only when faulted
    const cairn_type *local = named.back();
    // The stored objects are most likely of a class this program names with its module because
    // another of its modules declares one of the same name (campaign M's F3): say so, not that
    // the class changed (an upgrade would convert them to the other class).
    for (const cairn_type *q : registry.FindQualified(layout.name))
      if (DescribeFieldChanges(layout, q).empty())
        return Status(
            CAIRN_TYPE_MISMATCH,
            "type '" + layout.name + "' in database '" + db.name + "' has the fields of this " +
                "program's class '" + q->name + "', not of its class '" + layout.name +
                "': a program names a class of one of its modules with the module ('" + q->name +
                "') when another of its modules declares a class of the same name, and the "
                "database's objects were stored by a program without that other class. To "
                "read the database, rename this program's other class '" +
                layout.name +
                "' (Database.upgrade would convert the objects to it, losing the fields it "
                "lacks)");
    std::string what = DescribeFieldChanges(layout, local);
    if (what.empty())
      what =
          "its own fields have the same names, kinds and counts, so the fields of a base "
          "class (or of a nested struct) differ: compare its base classes";
    return Status(CAIRN_TYPE_MISMATCH,
                  "type '" + layout.name + "' in database '" + db.name +
                      "' is defined differently by this program (fingerprint " +
                      Hex(e.fingerprint) + " in the database, " + Hex(local->fingerprint) +
                      " here): " + what +
                      ". To convert the database's objects to this program's definition "
                      "(fields matched by name; a new field starts as 0, 0.0, false or nil), "
                      "open it with Database.upgrade(\"" +
                      db.name +
                      "\") (cairn_db_upgrade); else build the program with the definition "
                      "the database was written with");
  }
  return Status::Ok();
}

}  // namespace cairn::persist
