// The upgrade of a database to this program's types (upgrade.h, U1-U7).
#include "persist/upgrade.h"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "gc/identity_hash.h"
#include "heap/object.h"
#include "persist/ref_codec.h"
#include "persist/stored_graph.h"
#include "persist/type_layout.h"
#include "types/layout_diff.h"
#include "types/type_registry.h"

namespace cairn::persist {

namespace {

using store::kPageSize;

// A scalar field (or fixed array of scalars) of a type, its base classes flattened (U2).
struct Leaf {
  std::string name;
  uint32_t offset = 0;  // in the payload
  uint16_t kind = 0;
  uint32_t count = 0;
  std::string type;  // declared type, "" if unknown
  uint32_t bytes() const { return cairn_kind_size(kind) * count; }
};

void FlattenLocal(const cairn_type *t, uint32_t base, std::vector<Leaf> *out) {
  for (uint32_t i = 0; i < t->nfields; i++) {
    const cairn_field &f = t->fields[i];
    if (f.kind == CAIRN_KIND_STRUCT && f.nested) {
      // (A fixed array of structs is not in the language: its first element is flattened.)
      FlattenLocal(f.nested, base + f.offset, out);
      continue;
    }
    out->push_back(
        Leaf{f.name ? f.name : "", base + f.offset, f.kind, f.count, f.type ? f.type : ""});
  }
}

// False if a STRUCT field's layout is unknown (a version 1 entry).
bool FlattenStored(const StoredLayout &l, uint32_t base, std::vector<Leaf> *out) {
  for (const StoredLayout::Field &f : l.fields) {
    if (f.kind == CAIRN_KIND_STRUCT) {
      if (!f.nested || !FlattenStored(*f.nested, base + f.offset, out)) return false;
      continue;
    }
    out->push_back(Leaf{f.name, base + f.offset, f.kind, f.count, f.type});
  }
  return true;
}

// How the objects of one stored type become the program's.
struct Conversion {
  const cairn_type *from = nullptr;  // the stored layout, as a descriptor
  const cairn_type *to = nullptr;    // the program's canonical descriptor
  uint32_t index = 0;                // `to`'s type table index
  struct Copy {
    uint32_t from, to, bytes;
  };
  std::vector<Copy> copies;  // payload bytes that keep their values (plain types)
  bool moves = false;        // the object's size changes (plain types)
  // For the summary (U7): the fields added and dropped, and the objects converted.
  std::vector<std::string> added;
  struct Dropped {
    std::string name;
    uint32_t offset, bytes;
    uint64_t holding = 0;  // objects converted whose value of it was not zero
  };
  std::vector<Dropped> dropped;
  uint64_t objects = 0;
};

std::string Quote(const std::string &s) { return "'" + s + "'"; }

// A field's declared type, or its kind where the database or the program did not record one.
std::string Declared(const Leaf &l) { return l.type.empty() ? types::KindName(l.kind) : l.type; }

class Upgrader {
 public:
  Upgrader(store::Transaction &txn, const store::DatabaseInfo &info, cairn_upgrade_report *report)
      : txn_(txn), info_(info), graph_(txn, info, "nothing was converted"), report_(report) {}

  // U1, U2: the conversions, or the error that one type cannot be converted.
  Status Plan() {
    Status s = graph_.LoadTypes();
    if (!s.ok()) return s;
    types::TypeRegistry &registry = types::TypeRegistry::Get();
    std::map<uint32_t, const StoredGraph::StoredType *> by_index;  // in table order
    for (const auto &[index, stored] : graph_.types()) by_index[index] = stored.get();
    for (const auto &[index, stored] : by_index) {
      const StoredLayout &layout = stored->layout;
      if (types::TypeRegistry::PlainKindOf(layout.name) != types::TypeRegistry::kNotPlain &&
          layout.refs.empty() && layout.fields.empty())
        continue;
      if (const cairn_type *local = registry.Find(stored->fingerprint)) {
        // U2: kept as it is, so it must read as it is: a reference field declared another
        // type (the fingerprint has only its kind) is refused before anything is written (the
        // open after the upgrade refused it, with the other types converted already).
        if (ReplacedByUpgrade(layout.name)) continue;  // this program's, given back by Enter
        s = CheckKept(layout, local);
        if (!s.ok()) return s;
        continue;
      }
      std::vector<const cairn_type *> named = registry.FindByName(layout.name);
      if (named.empty()) continue;  // a type the program lacks: left as it is
      Conversion c;
      c.from = stored->image->type();
      c.to = named.back();
      s = Match(layout, &c);
      if (!s.ok()) return s;
      s = Enter(c.to, &c.index);
      if (!s.ok()) return s;
      // U6: the converted definition is renamed in the table.
      cairn_type renamed = *c.from;
      const std::string name = layout.name + std::string(kReplacedByUpgrade);
      renamed.name = name.c_str();
      s = txn_.ReplaceTypeLayout(info_.id, stored->fingerprint, EncodeLayout(&renamed));
      if (!s.ok()) return s;
      conversions_[index] = std::move(c);
      report_->types_converted++;
    }
    return Status::Ok();
  }

  bool needed() const { return !conversions_.empty(); }

  // U7: what was converted, a line per type: its objects, the fields added, the fields dropped
  // and how many objects held a value of them (renaming a field drops the old one's values).
  std::string Summary() const {
    std::map<std::string, const Conversion *> by_name;
    for (const auto &[index, c] : conversions_) by_name[c.to->name] = &c;
    std::string out;
    for (const auto &[name, c] : by_name) {
      if (!out.empty()) out += "\n";
      out += "'" + name + "': " + std::to_string(c->objects) +
             (c->objects == 1 ? " object converted" : " objects converted");
      for (const std::string &a : c->added) out += "; field '" + a + "' added (zero)";
      for (const Conversion::Dropped &d : c->dropped) {
        out += "; field '" + d.name + "' dropped";
        if (d.holding)
          out += " with the values of " + std::to_string(d.holding) +
                 (d.holding == 1 ? " object" : " objects");
      }
    }
    return out;
  }

  Status Walk() {
    Status s = graph_.Reach(info_.root, 0);
    if (s.ok()) s = graph_.Drain();
    return s;
  }

  // U3: a place in a new page (or run, for an object of more than heap::kLargeObjectBytes) for
  // every reached object whose size changes.
  Status PlaceMovers() {
    for (uint64_t page : graph_.small_pages()) {
      const StoredGraph::Image *image = nullptr;
      Status s = graph_.Read(page, 1, false, &image);
      if (!s.ok()) return s;
      for (size_t i = 0; i < image->starts.size(); i++) {
        auto c = conversions_.find(image->indexes[i]);
        if (c == conversions_.end() || !c->second.moves) continue;
        if (!graph_.live(page, image->starts[i])) continue;
        s = Allot(Key(page, image->starts[i]), c->second);
        if (!s.ok()) return s;
      }
    }
    for (const StoredGraph::Run &run : graph_.runs()) {
      const StoredGraph::Image *image = nullptr;
      Status s = graph_.Read(run.page, run.pages, true, &image);
      if (!s.ok()) return s;
      if (image->starts.empty()) continue;
      auto c = conversions_.find(image->indexes[0]);
      if (c == conversions_.end() || !c->second.moves) continue;
      s = Allot(Key(run.page, image->starts[0]), c->second);
      if (!s.ok()) return s;
    }
    return Status::Ok();
  }

  // U3, U4: every reached page with something to change, written; the new pages; the root.
  Status Rewrite() {
    for (uint64_t page : graph_.small_pages()) {
      Status s = RewriteSmallPage(page);
      if (!s.ok()) return s;
    }
    for (const StoredGraph::Run &run : graph_.runs()) {
      Status s = RewriteRun(run);
      if (!s.ok()) return s;
    }
    for (const NewPage &p : new_pages_)
      for (uint64_t k = 0; k < std::max<uint64_t>(p.run, 1); k++) {
        Status s = txn_.WritePage(info_.id, p.page + k, p.bytes.data() + k * kPageSize);
        if (!s.ok()) return s;
        report_->pages_written++;
      }
    // U4: the pages no root reaches are freed, as `cairn db gc` does (their dead objects may
    // refer to places the upgrade made fillers, or be of converted types).
    // (A free page reused by Allot is the upgrade's own: kept.)
    uint64_t already_free = 0;
    Status s = graph_.FreeUnreached([this](uint64_t p) { return allotted_.count(p) != 0; },
                                    &report_->pages_freed, &already_free);
    if (!s.ok()) return s;
    const uint64_t root = Remap(info_.root);
    if (root != info_.root) return txn_.SetRoot(info_.id, root);
    return Status::Ok();
  }

 private:
  struct Place {
    size_t page;      // in new_pages_
    uint32_t offset;  // of the payload
  };
  struct NewPage {
    store::PageNo page;  // the first of its run
    uint32_t run;        // 0: a page of small objects; else the pages of one large object
    std::vector<char> bytes;
  };

  // Allots a place to the converted object now at `key`: packed with others on a new page, or alone
  // at the start of a new run if large (P3 of heap/page_info.h).
  Status Allot(uint64_t key, const Conversion &c) {
    const size_t bytes = heap::PlainObjectBytes(c.to);
    if (bytes > heap::kLargeObjectBytes) {
      const uint64_t pages = (bytes + kPageSize - 1) / kPageSize;
      if (pages > kMaxRun)
        return Status(CAIRN_TYPE_MISMATCH,
                      "type '" + std::string(c.to->name) + "' in database '" + info_.name +
                          "' cannot be upgraded to this program's definition: an object of it "
                          "would take " +
                          std::to_string(bytes) +
                          " bytes, more than a run holds. Nothing was "
                          "converted");
      store::PageNo first = 0;
      Status s = txn_.AllocatePageRun(info_.id, pages, &first);
      if (!s.ok()) return s;
      new_pages_.push_back(
          NewPage{first, uint32_t(pages), std::vector<char>(pages * kPageSize, 0)});
      for (uint64_t k = 0; k < pages; k++) allotted_.insert(first + k);
      moved_[key] = Place{new_pages_.size() - 1, uint32_t(heap::kWordSize)};
      return Status::Ok();
    }
    if (small_page_ == SIZE_MAX || fill_ + bytes > kPageSize) {
      store::PageNo p = 0;
      Status s = txn_.AllocatePage(info_.id, &p);
      if (!s.ok()) return s;
      new_pages_.push_back(NewPage{p, 0, std::vector<char>(kPageSize, 0)});
      allotted_.insert(p);
      small_page_ = new_pages_.size() - 1;
      fill_ = 0;
    }
    moved_[key] = Place{small_page_, uint32_t(fill_ + heap::kWordSize)};
    fill_ += bytes;
    return Status::Ok();
  }

  static uint64_t Key(uint64_t page, uint32_t offset) { return page * kPageSize + offset; }

  // The table index of the program's type `t`: its entry, added if it is not there, or given
  // back its layout if an upgrade renamed it (a database upgraded and then upgraded back).
  // (From the table as the graph loaded it: a lookup that finds nothing would fail the store
  // transaction. PutType finds an entry this transaction added.)
  Status Enter(const cairn_type *t, uint32_t *index) {
    const std::string layout = EncodeLayout(t);
    for (const auto &[i, stored] : graph_.types()) {
      if (stored->fingerprint != t->fingerprint) continue;
      *index = i;
      if (stored->bytes == layout) return Status::Ok();
      return txn_.ReplaceTypeLayout(info_.id, t->fingerprint, layout);
    }
    return txn_.PutType(info_.id, t->fingerprint, layout, index);
  }

  Status Mismatch(const StoredLayout &layout, const std::string &what) const {
    return Status(CAIRN_TYPE_MISMATCH, "type '" + layout.name + "' in database '" + info_.name +
                                           "' cannot be upgraded to this program's definition: " +
                                           what + ". Nothing was converted");
  }

  // A field whose declared type differs, said as an upgrade says it (U2); a rename of the class
  // named is no upgrade (campaign M: the message spoke of the field alone).
  std::string RetypedField(const Leaf &o, const Leaf &l) const {
    std::string what = "field " + Quote(l.name) + " is " + Declared(o) + " in the database and " +
                       Declared(l) +
                       " here (an upgrade keeps a field's type: give the field of the new type "
                       "another name)";
    // A name in the stored declared type that the program's does not have, and that names no
    // type of the program ("[Item]" where it declares "[Item2]").
    auto names = [](const std::string &type) {
      std::vector<std::string> out;
      std::string word;
      for (char ch : type + " ") {
        if (std::isalnum(static_cast<unsigned char>(ch)) || ch == '_' || ch == '.' ||
            static_cast<unsigned char>(ch) >= 0x80) {
          word += ch;
        } else if (!word.empty()) {
          out.push_back(word);
          word.clear();
        }
      }
      return out;
    };
    const std::vector<std::string> now = names(l.type);
    for (const std::string &n : names(o.type)) {
      if (n == "int" || n == "float" || n == "bool" || n == "text" || n == "any") continue;
      if (std::find(now.begin(), now.end(), n) != now.end()) continue;
      if (!types::TypeRegistry::Get().FindByName(n).empty()) continue;
      return what + "; this program has no class '" + n +
             "': an upgrade does not rename classes (the objects of a class renamed are of a "
             "class this program lacks)";
    }
    return what;
  }

  // U2: a stored type the program has by fingerprint keeps its objects as they are, so it must
  // pass the open's same-layout rule now, before anything is written (U5): a reference field
  // declared another type is said as an upgrade says it; any other difference (another
  // platform's offsets) as the open says it.
  Status CheckKept(const StoredLayout &layout, const cairn_type *local) const {
    std::vector<Leaf> old_leaves, new_leaves;
    if (FlattenStored(layout, 0, &old_leaves)) {
      FlattenLocal(local, 0, &new_leaves);
      for (size_t i = 0; i < old_leaves.size() && i < new_leaves.size(); i++) {
        const Leaf &o = old_leaves[i], &l = new_leaves[i];
        if (o.name == l.name && !o.type.empty() && !l.type.empty() && o.type != l.type)
          return Mismatch(layout, RetypedField(o, l));
      }
    }
    return CheckLayout(layout, local, info_.name);
  }

  // U2: the classes a stored class extends, by name, from its nested base layouts.
  static std::vector<std::string> StoredBases(const StoredLayout &l) {
    std::vector<std::string> out;
    for (const StoredLayout *at = &l; at;) {
      const StoredLayout *next = nullptr;
      if (!at->fields.empty() && at->fields[0].kind == CAIRN_KIND_STRUCT && at->fields[0].nested) {
        next = at->fields[0].nested.get();
        out.push_back(next->name);
      }
      at = next;
    }
    return out;
  }

  Status Match(const StoredLayout &layout, Conversion *c) const {
    const cairn_type *to = c->to;
    const bool stored_array = layout.flags & CAIRN_TYPE_ARRAY;
    if (stored_array != bool(to->flags & CAIRN_TYPE_ARRAY))
      return Mismatch(layout, stored_array ? "it is an array type there and a class here"
                                           : "it is a class there and an array type here");
    std::vector<Leaf> old_leaves, new_leaves;
    if (!FlattenStored(layout, 0, &old_leaves))
      return Mismatch(layout,
                      "the database's entry for it does not record its base class's fields "
                      "(written by an older version of Cairn)");
    FlattenLocal(to, 0, &new_leaves);
    if (stored_array) {
      // U2: elements keep their bytes.
      bool same = layout.elem_kind == to->elem_kind && layout.size == to->size &&
                  layout.refs == std::vector<uint32_t>(to->refs, to->refs + to->nrefs) &&
                  old_leaves.size() == new_leaves.size();
      for (size_t i = 0; same && i < old_leaves.size(); i++)
        same = old_leaves[i].offset == new_leaves[i].offset &&
               old_leaves[i].kind == new_leaves[i].kind &&
               old_leaves[i].count == new_leaves[i].count;
      if (!same) return Mismatch(layout, "its elements are laid out differently here");
      return Status::Ok();
    }
    // U2: a class keeps every class it extended (references declared as one of them may hold
    // its objects: campaign M read a field of another class through one, and crashed).
    for (const std::string &base : StoredBases(layout)) {
      bool kept = false;
      for (const cairn_type *b = to->super; b && !kept; b = b->super) kept = base == b->name;
      if (!kept)
        return Mismatch(layout, "it extended '" + base + "' in the database and does not here " +
                                    "(what refers to its objects as a '" + base +
                                    "' could not read them): an upgrade keeps a class's base " +
                                    "classes (it may add new ones)");
    }
    std::unordered_map<std::string, const Leaf *> old_by_name;
    for (const Leaf &l : old_leaves)
      if (!old_by_name.emplace(l.name, &l).second)
        return Mismatch(layout, "it has two fields named '" + l.name + "' in the database");
    std::unordered_map<std::string, int> seen;
    for (const Leaf &l : new_leaves) {
      if (seen[l.name]++)
        return Mismatch(layout, "this program's definition has two fields named '" + l.name + "'");
      auto it = old_by_name.find(l.name);
      if (it == old_by_name.end()) {  // added: starts as zero
        c->added.push_back(l.name);
        continue;
      }
      const Leaf &o = *it->second;
      const bool types_known = !o.type.empty() && !l.type.empty();
      // U2: a reference kept with no declared type recorded (an entry of an older Cairn's
      // encoding, version 1) could hold objects of a class the program's field does not
      // declare: refused. (A C program's types declare none on either side: its own affair.)
      if (o.kind == CAIRN_KIND_REF && layout.version < 2 && !l.type.empty())
        return Mismatch(layout,
                        "the database's entry for it does not record the declared type "
                        "of field " +
                            Quote(l.name) +
                            " (written by an older version of Cairn), so the upgrade "
                            "cannot tell that its objects fit this program's field");
      if (o.kind != l.kind || o.count != l.count || (types_known && o.type != l.type))
        return Mismatch(layout, RetypedField(o, l));
      c->copies.push_back(Conversion::Copy{o.offset, l.offset, l.bytes()});
    }
    for (const Leaf &o : old_leaves)
      if (!seen.count(o.name)) c->dropped.push_back({o.name, o.offset, o.bytes()});
    c->moves = heap::PlainObjectBytes(c->from) != heap::PlainObjectBytes(to);
    return Status::Ok();
  }

  uint64_t Remap(uint64_t pref) const {
    if (pref == 0) return 0;
    const PersistentRef r = DecodeRef(pref);
    auto it = moved_.find(Key(r.page, r.offset));
    if (it == moved_.end()) return pref;
    const NewPage &to = new_pages_[it->second.page];
    return EncodeRef(PersistentRef{to.page, it->second.offset, to.run});
  }

  // Rewrites every reference slot of the object at `payload` (of type t).
  void RemapSlots(const cairn_type *t, char *payload) const {
    heap::ForEachRefSlot(t, payload, [&](void **slot) {
      uint64_t v = 0;
      std::memcpy(&v, slot, sizeof v);
      v = Remap(v);
      std::memcpy(slot, &v, sizeof v);
    });
  }

  // Writes the object of `c` made from the stored payload `from` at `payload` (whose header
  // word is just before it), its references remapped.
  void Convert(Conversion &c, const char *from, char *payload) {
    c.objects++;
    for (Conversion::Dropped &d : c.dropped) {
      bool zero = true;
      for (uint32_t k = 0; k < d.bytes && zero; k++) zero = from[d.offset + k] == 0;
      d.holding += !zero;
    }
    const uint64_t header = c.index;
    std::memcpy(payload - heap::kWordSize, &header, sizeof header);
    if (!(c.to->flags & CAIRN_TYPE_ARRAY)) {
      std::vector<char> old(from, from + heap::PlainObjectBytes(c.from) - heap::kWordSize);
      std::memset(payload, 0, heap::PlainObjectBytes(c.to) - heap::kWordSize);
      for (const Conversion::Copy &k : c.copies)
        std::memcpy(payload + k.to, old.data() + k.from, k.bytes);
    }
    RemapSlots(c.to, payload);
  }

  Status RewriteSmallPage(uint64_t page) {
    const StoredGraph::Image *image = nullptr;
    Status s = graph_.Read(page, 1, false, &image);
    if (!s.ok()) return s;
    std::vector<char> bytes = image->bytes;
    // (Fill and FillerIndex read no page: `image` stays valid, G3.)
    size_t live_left = 0;
    bool moved_any = false;
    for (size_t i = 0; i < image->starts.size(); i++) {
      const uint32_t start = image->starts[i];
      auto c = conversions_.find(image->indexes[i]);
      Conversion *conv = c == conversions_.end() ? nullptr : &c->second;
      if (!graph_.live(page, start)) {
        // U4: every dead object becomes a filler (one of a converted type could not be read by
        // the program; one of another type may refer to a place the upgrade made a filler,
        // which db check reports as damage: campaign M).
        if (!types::TypeRegistry::IsFiller(image->types[i]))
          s = graph_.Fill(bytes.data(), start, image->types[i]);
        if (!s.ok()) return s;
        continue;
      }
      report_->objects_converted += conv != nullptr;
      if (conv && conv->moves) {
        const Place &to = moved_.at(Key(page, start));
        Convert(*conv, image->bytes.data() + start, new_pages_[to.page].bytes.data() + to.offset);
        report_->objects_moved++;
        moved_any = true;
        s = graph_.Fill(bytes.data(), start, image->types[i]);
        if (!s.ok()) return s;
        continue;
      }
      live_left++;
      if (conv)
        Convert(*conv, image->bytes.data() + start, bytes.data() + start);
      else
        RemapSlots(image->types[i], bytes.data() + start);
    }
    if (moved_any) {
      s = MoveIdentityHashes(page, *image);
      if (!s.ok()) return s;
    }
    if (live_left == 0) {
      report_->pages_freed++;
      return txn_.FreePage(info_.id, page);
    }
    if (std::memcmp(bytes.data(), image->bytes.data(), kPageSize) == 0) return Status::Ok();
    report_->pages_written++;
    return txn_.WritePage(info_.id, page, bytes.data());
  }

  Status RewriteRun(const StoredGraph::Run &run) {
    const StoredGraph::Image *image = nullptr;
    Status s = graph_.Read(run.page, run.pages, true, &image);
    if (!s.ok()) return s;
    if (image->starts.empty()) return Status::Ok();
    const uint32_t start = image->starts[0];
    auto c = conversions_.find(image->indexes[0]);
    if (c != conversions_.end() && c->second.moves) {
      // U3: the object moves; its run is freed.
      const Place &to = moved_.at(Key(run.page, start));
      Convert(c->second, image->bytes.data() + start, new_pages_[to.page].bytes.data() + to.offset);
      report_->objects_converted++;
      report_->objects_moved++;
      s = MoveIdentityHashes(run.page, *image);
      for (uint64_t k = 0; s.ok() && k < run.pages; k++) s = txn_.FreePage(info_.id, run.page + k);
      report_->pages_freed += run.pages;
      return s;
    }
    std::vector<char> bytes = image->bytes;
    if (c != conversions_.end()) {
      report_->objects_converted++;
      Convert(c->second, image->bytes.data() + start, bytes.data() + start);  // the same size
    } else {
      RemapSlots(image->types[0], bytes.data() + start);
    }
    for (uint64_t k = 0; k < run.pages; k++) {
      const char *now = bytes.data() + k * kPageSize;
      if (std::memcmp(now, image->bytes.data() + k * kPageSize, kPageSize) == 0) continue;
      s = txn_.WritePage(info_.id, run.page + k, now);
      if (!s.ok()) return s;
      report_->pages_written++;
    }
    return Status::Ok();
  }

  // U3: a moved object keeps its identity hash: the one recorded for it, else the one its place
  // gave it (gc/identity_hash.h), recorded at its new place. For the objects of `page` (a small
  // page or a run's first) that move.
  Status MoveIdentityHashes(uint64_t page, const StoredGraph::Image &image) {
    std::vector<store::IdentityHashEntry> hashes;
    Status s = txn_.ListIdentityHashes(info_.id, page, &hashes);
    std::unordered_map<uint32_t, uint64_t> recorded;
    for (const store::IdentityHashEntry &e : hashes) recorded[e.offset] = e.hash;
    for (size_t i = 0; s.ok() && i < image.starts.size(); i++) {
      auto it = moved_.find(Key(page, image.starts[i]));
      if (it == moved_.end()) continue;
      auto r = recorded.find(image.starts[i]);
      const uint64_t hash =
          r != recorded.end() ? r->second : gc::LocationHash(info_.id, page, image.starts[i]);
      s = txn_.PutIdentityHash(info_.id, new_pages_[it->second.page].page, it->second.offset, hash);
    }
    return s;
  }

  store::Transaction &txn_;
  const store::DatabaseInfo &info_;
  StoredGraph graph_;
  cairn_upgrade_report *report_;
  std::unordered_map<uint32_t, Conversion> conversions_;  // by stored type index
  std::unordered_map<uint64_t, Place> moved_;             // by Key of the stored object
  std::vector<NewPage> new_pages_;
  std::unordered_set<uint64_t> allotted_;  // the pages of new_pages_
  size_t small_page_ = SIZE_MAX;           // the page of new_pages_ being filled with small objects
  size_t fill_ = 0;                        // bytes used in it
};

}  // namespace

Status UpgradeDatabase(store::Store &store, std::string_view name, cairn_upgrade_report *report,
                       std::string *summary) {
  summary->clear();
  *report = cairn_upgrade_report{};
  store::DatabaseInfo info;
  Status s = store.GetDatabaseInfo(name, &info);
  if (!s.ok()) return s;
  std::unique_ptr<store::Transaction> txn;
  // Exclusive: no one has the database open (the process holds the store, and opens the
  // database only after), and the process's own open transaction, if any, has only read (D3).
  s = store.BeginExclusiveTransaction(&txn);
  if (!s.ok()) return s;
  // The root and page count as of this transaction's snapshot.
  s = txn->GetRoot(info.id, &info.root);
  if (s.ok()) s = txn->GetPageCount(info.id, &info.page_count);
  Upgrader upgrader(*txn, info, report);
  if (s.ok()) s = upgrader.Plan();
  if (s.ok() && !upgrader.needed()) {
    txn->Abort();  // nothing to convert: nothing written
    return Status::Ok();
  }
  if (s.ok()) s = upgrader.Walk();
  if (s.ok()) s = upgrader.PlaceMovers();
  if (s.ok()) s = upgrader.Rewrite();
  if (s.ok()) s = txn->Commit();
  if (!s.ok()) {
    txn->Abort();
    *report = cairn_upgrade_report{};
    return s;
  }
  *summary = upgrader.Summary();
  return Status::Ok();
}

}  // namespace cairn::persist
