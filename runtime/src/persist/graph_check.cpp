// The object-graph audit of a database (cairn/graph_check.h, G1 and G2): every page in use read
// as objects, every reference and the root checked against the objects found, and what the root
// reaches marked, so that the pages it does not reach are reported as garbage.
//
// Memory: a record per object (24 bytes) and per reference (24 bytes), and 24 bytes per page:
// about a third of the database's size for small objects with a few references each.
#include "cairn/graph_check.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "heap/page_info.h"
#include "persist/ref_codec.h"
#include "persist/type_layout.h"
#include "types/type_registry.h"

namespace cairn::persist {
namespace {

using store::PageNo;
constexpr size_t kPage = heap::kPageSize;
constexpr size_t kWord = heap::kWordSize;
constexpr uint64_t kNone = UINT64_MAX;

size_t RoundUp8(size_t n) { return (n + 7) & ~size_t{7}; }

enum class Kind : uint8_t {
  kUnread,     // damaged (Store::Check reports it) or not readable: cannot be verified
  kFree,       // on the free list
  kSmall,      // small objects, end to end from offset 0
  kLargeHead,  // the first page of a large object's run
  kLargeTail,  // another page of a run
};

struct Page {
  Kind kind = Kind::kUnread;
  bool complete = true;  // kSmall: every object read (else reading stopped at `end`)
  uint32_t run = 0;      // kLargeHead: pages in the run; kLargeTail: pages back to the head
  uint32_t end = 0;      // kSmall: where the objects read end
  uint32_t objects = 0;  // how many objects (from first_object on) are on this page
  uint64_t first_object = 0;
};

struct Object {
  PageNo page = 0;
  uint32_t offset = 0;  // of the payload
  uint32_t type = 0;    // index in the type table
  uint64_t first_ref = 0;
};

struct Ref {
  uint64_t value = 0;
  uint64_t target = kNone;  // the object it points at, when it is valid
  uint32_t slot = 0;        // offset of the slot from the start of the object's page (or run)
};

class GraphAuditor {
 public:
  GraphAuditor(store::Store &s, std::string_view name, store::CheckReport *r)
      : store_(s), name_(name), report_(r) {}

  Status Run();

 private:
  Status Begin();
  // Reads page p into buf; a failure ends the transaction (the next read begins another).
  Status Read(PageNo p, char *buf);
  Status LoadTypes();
  void ReadPages();
  void ReadSmall(PageNo p, const char *buf);
  void ReadLarge(PageNo p, std::vector<char> &run, size_t bytes, uint32_t type);
  // The size of the object of layout `l` whose payload is at `payload` with `room` bytes left
  // from its header; 0 if it does not fit (`why` says how).
  size_t ObjectSize(const StoredLayout &l, const char *payload, size_t room, std::string *why);
  void CollectRefs(const StoredLayout &l, const char *base, size_t payload);
  uint64_t RefSlotsOnPages(const StoredLayout &l, const std::vector<char> &run,
                           const std::vector<uint32_t> &which);
  // Resolves a reference to the object it points at, or reports why it does not (kNone).
  uint64_t Resolve(uint64_t value, const std::string &where);
  void CheckReferences();
  void Reach();
  void Problem(std::string what) { report_->Add(std::move(what)); }
  std::string TypeName(uint32_t index) const {
    return index < types_.size() && types_[index] ? types_[index]->name : "?";
  }

  store::Store &store_;
  std::string name_;
  store::CheckReport *report_;
  store::DatabaseId id_ = 0;
  std::unique_ptr<store::Transaction> txn_;
  uint64_t page_count_ = 0;
  uint64_t root_ = 0;
  std::vector<std::unique_ptr<StoredLayout>> types_;  // by index; null: unreadable
  std::vector<bool> filler_;                          // by index: the type of fillers
  std::vector<Page> pages_;                           // [1..page_count]
  std::vector<Object> objects_;
  std::vector<Ref> refs_;
  uint64_t root_target_ = kNone;
};

Status GraphAuditor::Begin() {
  if (txn_ && txn_->state() == store::Transaction::State::kActive) return Status::Ok();
  txn_.reset();
  return store_.BeginTransaction(&txn_);
}

Status GraphAuditor::Read(PageNo p, char *buf) {
  Status s = Begin();
  if (!s.ok()) return s;
  s = txn_->ReadPage(id_, p, buf);
  if (!s.ok()) txn_.reset();
  return s;
}

Status GraphAuditor::LoadTypes() {
  std::vector<store::TypeEntry> entries;
  Status s = Begin();
  if (s.ok()) s = txn_->ListTypes(id_, &entries);
  if (!s.ok()) {
    txn_.reset();
    return s;
  }
  for (const store::TypeEntry &e : entries) {
    if (types_.size() <= e.index) types_.resize(e.index + 1);
    auto l = std::make_unique<StoredLayout>();
    Status d = DecodeLayout(e.layout, l.get());
    if (!d.ok()) {
      Problem("type index " + std::to_string(e.index) + ": its stored layout cannot be read (" +
              d.message() + ") (G1)");
      continue;
    }
    if (filler_.size() <= e.index) filler_.resize(e.index + 1);
    // A filler (P8 of heap/page_info.h; a store written before fillers had their own type
    // holds them as atomic[N], which cannot be told from a pointer-free object).
    filler_[e.index] = types::TypeRegistry::PlainKindOf(l->name) == types::TypeRegistry::kFiller &&
                       l->refs.empty() && !(l->flags & CAIRN_TYPE_ARRAY);
    types_[e.index] = std::move(l);
  }
  return Status::Ok();
}

size_t GraphAuditor::ObjectSize(const StoredLayout &l, const char *payload, size_t room,
                                std::string *why) {
  const bool array = l.flags & CAIRN_TYPE_ARRAY;
  if (!array) {
    size_t bytes = kWord + (l.size ? RoundUp8(l.size) : kWord);
    if (bytes <= room) return bytes;
    *why = "does not fit (" + std::to_string(bytes) + " bytes)";
    return 0;
  }
  uint64_t length = 0;
  std::memcpy(&length, payload, sizeof length);
  const uint64_t elem = l.size ? l.size : 1;
  if (room < 2 * kWord || length > (room - 2 * kWord) / elem) {
    *why = "does not fit (an array of " + std::to_string(length) + " elements)";
    return 0;
  }
  return kWord + RoundUp8(CAIRN_ARRAY_DATA_OFFSET + length * elem);
}

void GraphAuditor::CollectRefs(const StoredLayout &l, const char *base, size_t payload) {
  auto add = [&](size_t slot) {
    uint64_t v = 0;
    std::memcpy(&v, base + slot, sizeof v);
    if (v != 0) refs_.push_back(Ref{v, kNone, uint32_t(slot)});
  };
  if (l.refs.empty()) return;
  if (!(l.flags & CAIRN_TYPE_ARRAY)) {
    for (uint32_t r : l.refs) add(payload + r);
    return;
  }
  uint64_t length = 0;
  std::memcpy(&length, base + payload, sizeof length);
  const size_t data = payload + CAIRN_ARRAY_DATA_OFFSET;
  for (uint64_t i = 0; i < length; i++)
    for (uint32_t r : l.refs) add(data + i * l.size + r);
}

void GraphAuditor::ReadSmall(PageNo p, const char *buf) {
  Page &pg = pages_[p];
  pg.kind = Kind::kSmall;
  pg.first_object = objects_.size();
  size_t off = 0;
  const std::string where = "page " + std::to_string(p) + ": ";
  while (off + 2 * kWord <= kPage) {
    uint64_t header = 0;
    std::memcpy(&header, buf + off, sizeof header);
    if (header == 0) break;
    if (header >= types_.size() || !types_[header]) {
      Problem(where + "the object header at offset " + std::to_string(off) +
              (header > UINT32_MAX ? " is not a type index"
                                   : " names type index " + std::to_string(header) +
                                         ", which the type table lacks") +
              " (G1)");
      pg.complete = false;
      break;
    }
    const StoredLayout &l = *types_[header];
    std::string why;
    size_t bytes = ObjectSize(l, buf + off + kWord, kPage - off, &why);
    if (bytes != 0 && bytes > heap::kLargeObjectBytes) why = "is large, but not alone on its page";
    if (bytes == 0 || bytes > heap::kLargeObjectBytes) {
      Problem(where + "the object of type '" + l.name + "' at offset " + std::to_string(off) + " " +
              why + " (G1)");
      pg.complete = false;
      break;
    }
    objects_.push_back(Object{p, uint32_t(off + kWord), uint32_t(header), refs_.size()});
    CollectRefs(l, buf, off + kWord);
    off += bytes;
  }
  pg.end = uint32_t(off);
  pg.objects = uint32_t(objects_.size() - pg.first_object);
}

void GraphAuditor::ReadLarge(PageNo p, std::vector<char> &run, size_t bytes, uint32_t type) {
  const uint32_t n = uint32_t((bytes + kPage - 1) / kPage);
  const std::string where = "page " + std::to_string(p) + ": ";
  if (p + n - 1 > page_count_) {
    Problem(where + "its large object of type '" + TypeName(type) + "' (" + std::to_string(bytes) +
            " bytes) runs past the database's last page (G1)");
    return;
  }
  run.resize(size_t(n) * kPage);
  // A page of the run that cannot be read is reported (Store::Check reported its damage too)
  // and the reference slots on it counted as unverifiable (what only they reach is then counted
  // unreachable, and the report says how many could not be checked); the run stays one object,
  // so its other pages are not read as pages of small objects (each would be a spurious
  // problem) and what it reaches through its readable pages is still reached.
  std::vector<uint32_t> damaged;
  for (uint32_t k = 1; k < n; k++) {
    char *dst = run.data() + size_t(k) * kPage;
    Status s = Read(p + k, dst);
    if (!s.ok()) {
      // Why is the page's own problem (Store::Check's), not repeated here.
      (void)s;
      Problem(where + "page " + std::to_string(p + k) + " of its large object's run of " +
              std::to_string(n) +
              " cannot be read; the references on the run's other pages were checked (G1)");
      std::memset(dst, 0, kPage);
      damaged.push_back(k);
    }
  }
  pages_[p].kind = Kind::kLargeHead;
  pages_[p].run = n;
  pages_[p].first_object = objects_.size();
  pages_[p].objects = 1;
  for (uint32_t k = 1; k < n; k++) {
    pages_[p + k].kind = Kind::kLargeTail;
    pages_[p + k].run = k;
  }
  objects_.push_back(Object{p, uint32_t(kWord), type, refs_.size()});
  CollectRefs(*types_[type], run.data(), kWord);
  if (!damaged.empty()) report_->unverifiable_refs += RefSlotsOnPages(*types_[type], run, damaged);
}

// How many reference slots of the large object in `run` (its payload at offset kWord) lie on
// the run's pages `which`.
uint64_t GraphAuditor::RefSlotsOnPages(const StoredLayout &l, const std::vector<char> &run,
                                       const std::vector<uint32_t> &which) {
  uint64_t n = 0;
  auto count = [&](uint64_t slot) {
    const uint64_t page = slot / kPage;
    n += std::find(which.begin(), which.end(), uint32_t(page)) != which.end();
  };
  if (l.refs.empty()) return 0;
  if (!(l.flags & CAIRN_TYPE_ARRAY)) {
    for (uint32_t r : l.refs) count(kWord + r);
    return n;
  }
  uint64_t length = 0;
  std::memcpy(&length, run.data() + kWord, sizeof length);
  const uint64_t data = kWord + CAIRN_ARRAY_DATA_OFFSET;
  for (uint64_t i = 0; i < length; i++)
    for (uint32_t r : l.refs) count(data + i * l.size + r);
  return n;
}

void GraphAuditor::ReadPages() {
  std::vector<char> buf(kPage);
  for (PageNo p = 1; p <= page_count_; p++) {
    if (pages_[p].kind == Kind::kLargeTail) continue;  // read with its head
    Status s = Read(p, buf.data());
    if (s.code() == CAIRN_NOT_FOUND) {
      pages_[p].kind = Kind::kFree;
      continue;
    }
    if (!s.ok()) continue;  // damaged: Store::Check reports it
    uint64_t header = 0;
    std::memcpy(&header, buf.data(), sizeof header);
    if (header != 0 && header < types_.size() && types_[header]) {
      std::string why;
      size_t bytes = ObjectSize(*types_[header], buf.data() + kWord, SIZE_MAX / 2, &why);
      if (bytes > heap::kLargeObjectBytes) {
        ReadLarge(p, buf, bytes, uint32_t(header));
        buf.resize(kPage);
        continue;
      }
    }
    ReadSmall(p, buf.data());
  }
}

uint64_t GraphAuditor::Resolve(uint64_t value, const std::string &where) {
  const PersistentRef r = DecodeRef(value);
  auto bad = [&](const std::string &what) {
    Problem(where + " " + what + " (G2)");
    return kNone;
  };
  if (!WellFormed(r)) return bad("is malformed");
  const uint64_t last = r.page + (r.run ? r.run : 1) - 1;
  const std::string page = "page " + std::to_string(r.page);
  if (last > page_count_)
    return bad("points to page " + std::to_string(last) + ", past the database's last page (" +
               std::to_string(page_count_) + ")");
  const Page &pg = pages_[r.page];
  switch (pg.kind) {
    case Kind::kUnread:
      report_->unverifiable_refs++;
      return kNone;
    case Kind::kFree:
      return bad("points to " + page + ", which is free");
    case Kind::kLargeTail:
      return bad("points inside the large object at page " + std::to_string(r.page - pg.run));
    case Kind::kLargeHead:
      if (r.run != pg.run)
        return bad("names " + page + " as a large object of " + std::to_string(r.run) +
                   " page(s); it is one of " + std::to_string(pg.run));
      return pg.first_object;
    case Kind::kSmall:
      break;
  }
  if (r.run != 0)
    return bad("names " + page + " as a large object of " + std::to_string(r.run) +
               " page(s), but it holds small objects");
  auto first = objects_.begin() + std::ptrdiff_t(pg.first_object);
  auto end = first + pg.objects;
  auto it = std::lower_bound(first, end, r.offset,
                             [](const Object &o, uint32_t off) { return o.offset < off; });
  if (it != end && it->offset == r.offset) {
    if (it->type < filler_.size() && filler_[it->type])
      return bad("points to " + page + ", offset " + std::to_string(r.offset) +
                 ", at a filler (the place of a dead object), not at an object");
    return uint64_t(it - objects_.begin());
  }
  if (!pg.complete && r.offset >= pg.end) {
    report_->unverifiable_refs++;  // past where reading that page stopped
    return kNone;
  }
  return bad("points to " + page + ", offset " + std::to_string(r.offset) +
             ", where no object starts");
}

void GraphAuditor::CheckReferences() {
  for (size_t o = 0; o < objects_.size(); o++) {
    const Object &obj = objects_[o];
    const uint64_t end = o + 1 < objects_.size() ? objects_[o + 1].first_ref : refs_.size();
    for (uint64_t k = obj.first_ref; k < end; k++) {
      Ref &ref = refs_[k];
      const PageNo page = obj.page + ref.slot / kPage;
      const std::string where = "page " + std::to_string(page) + ": the reference at offset " +
                                std::to_string(ref.slot % kPage) + " (in an object of type '" +
                                TypeName(obj.type) + "')";
      report_->references++;
      ref.target = Resolve(ref.value, where);
    }
  }
  if (root_ != 0) {
    report_->references++;
    char hex[40];
    std::snprintf(hex, sizeof hex, "the root (%#" PRIx64 ")", root_);
    root_target_ = Resolve(root_, hex);
  }
}

void GraphAuditor::Reach() {
  std::vector<bool> reached(objects_.size());
  std::deque<uint64_t> queue;
  if (root_target_ != kNone) {
    reached[root_target_] = true;
    queue.push_back(root_target_);
  }
  while (!queue.empty()) {
    uint64_t o = queue.front();
    queue.pop_front();
    const uint64_t end = o + 1 < objects_.size() ? objects_[o + 1].first_ref : refs_.size();
    for (uint64_t k = objects_[o].first_ref; k < end; k++) {
      uint64_t t = refs_[k].target;
      if (t != kNone && !reached[t]) {
        reached[t] = true;
        queue.push_back(t);
      }
    }
  }
  std::vector<bool> page_reached(page_count_ + 1);
  for (size_t o = 0; o < objects_.size(); o++) {
    if (!reached[o]) continue;
    const Page &pg = pages_[objects_[o].page];
    const uint32_t n = pg.kind == Kind::kLargeHead ? pg.run : 1;
    for (uint32_t k = 0; k < n; k++) page_reached[objects_[o].page + k] = true;
  }
  for (PageNo p = 1; p <= page_count_; p++) {
    Kind k = pages_[p].kind;
    if (k != Kind::kSmall && k != Kind::kLargeHead && k != Kind::kLargeTail) continue;
    report_->pages_in_use++;
    if (!page_reached[p]) report_->pages_unreached++;
  }
  // Dead objects that share a page with live ones: kept with the page (a program reading it
  // must define their types) until `cairn db gc` makes them fillers.
  for (size_t o = 0; o < objects_.size(); o++) {
    if (reached[o] || !page_reached[objects_[o].page]) continue;
    if (objects_[o].type < filler_.size() && filler_[objects_[o].type]) continue;
    report_->dead_objects++;
    const std::string name = TypeName(objects_[o].type);
    auto &names = report_->dead_types;
    if (std::find(names.begin(), names.end(), name) != names.end()) continue;
    if (names.size() < 5)
      names.push_back(name);
    else
      report_->dead_types_more = true;
  }
}

Status GraphAuditor::Run() {
  Status s = store_.FindDatabase(name_, &id_);
  if (!s.ok()) return s;
  s = Begin();
  if (s.ok()) s = txn_->GetPageCount(id_, &page_count_);
  if (s.ok()) s = txn_->GetRoot(id_, &root_);
  if (!s.ok()) {
    // The record cannot be read: Store::Check reports why, and the graph cannot be walked.
    txn_.reset();
    Problem("the object graph cannot be checked: " + s.message());
    return Status::Ok();
  }
  s = LoadTypes();
  if (!s.ok()) {
    Problem("the object graph cannot be checked: its type table cannot be read: " + s.message());
    return Status::Ok();
  }
  pages_.assign(page_count_ + 1, Page{});
  ReadPages();
  for (const Object &o : objects_) {
    if (o.type < filler_.size() && filler_[o.type])
      report_->fillers++;
    else
      report_->objects++;
  }
  CheckReferences();
  Reach();
  report_->graph_checked = true;
  if (txn_) txn_->Abort();
  return Status::Ok();
}

}  // namespace

Status CheckObjectGraph(store::Store &store, std::string_view name, store::CheckReport *report) {
  GraphAuditor audit(store, name, report);
  return audit.Run();
}

}  // namespace cairn::persist
