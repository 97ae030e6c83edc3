// cairn-crash-campaign-child: the program that scripts/crash-campaign kills, and the verifier of
// what it left. Through the runtime's C API (cairn/persist.h), like a compiled Cairn program.
//
//   cairn-crash-campaign-child STORE init              create database "campaign" (commit 0)
//   cairn-crash-campaign-child STORE verify ACKED      check the database against the model, exit
//   cairn-crash-campaign-child STORE run ACKED MODE    verify, then commit forever (MODE: sync or
//                                                      async durability) until killed
//
// The model. The root is a Holder: `last` (the last durable point c), an array of kItems Items
// and a journal (a list of Entries c, c - 1, ..., at most kJournal). Durable point c (c >= 1)
// applies the changes PlanFor(c) computes from c alone: some items are rewritten in place, some
// replaced by new objects (the old ones become garbage), some by large objects (more than a
// page); then `last` = c and Entry c is prepended to the journal. It ends with a commit, a chain
// or a checkpoint, also chosen by the plan; some plans first make changes that they abort (the
// values they write, stamped -c, must never be on disk). An Item stamped s at index i holds
// check = Mix(s, i, -1) and payload[j] = Mix(s, i, j): its values say which commit wrote them.
//
// Output, written unbuffered as it happens (a kill loses nothing already said):
//   VERIFIED last=L lost=N torn=N wrong=N open_ms=T verify_ms=T
//   ACK c commit|chain|checkpoint
// where, against ACKED (the last durable point a child acknowledged before): lost = ACKED - L if
// L < ACKED; torn = items, journal entries or `last` that disagree with the model's state after L
// (a commit partly there) with self-consistent values; wrong = values that no commit wrote
// (Mix does not match). An error (the store or a page that cannot be read) is printed by the
// runtime on standard error, and the status is not 0.
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "cairn/gc.h"
#include "cairn/persist.h"
#include "cairn/type_builder.hpp"

namespace {

using cairn::Field;

constexpr int64_t kItems = 300;
constexpr int64_t kJournal = 20;
constexpr const char *kDatabase = "campaign";

struct Item {
  int64_t stamp;
  int64_t index;
  int64_t check;
  void *payload;  // [int]
};
constexpr cairn_field kItemFields[] = {
    Field("stamp", offsetof(Item, stamp), CAIRN_KIND_I64),
    Field("index", offsetof(Item, index), CAIRN_KIND_I64),
    Field("check", offsetof(Item, check), CAIRN_KIND_I64),
    Field("payload", offsetof(Item, payload), CAIRN_KIND_REF),
};
constexpr cairn_type kItemType = cairn::PlainType<kItemFields>("campaign.Item", sizeof(Item));

struct Entry {
  int64_t c;
  Entry *next;
};
constexpr cairn_field kEntryFields[] = {
    Field("c", offsetof(Entry, c), CAIRN_KIND_I64),
    Field("next", offsetof(Entry, next), CAIRN_KIND_REF),
};
constexpr cairn_type kEntryType = cairn::PlainType<kEntryFields>("campaign.Entry", sizeof(Entry));

struct Holder {
  int64_t last;
  void *items;  // [any] of Items
  Entry *journal;
};
constexpr cairn_field kHolderFields[] = {
    Field("last", offsetof(Holder, last), CAIRN_KIND_I64),
    Field("items", offsetof(Holder, items), CAIRN_KIND_REF),
    Field("journal", offsetof(Holder, journal), CAIRN_KIND_REF),
};
constexpr cairn_type kHolderType =
    cairn::PlainType<kHolderFields>("campaign.Holder", sizeof(Holder));

// --- The model --------------------------------------------------------------------------------

int64_t Mix(int64_t stamp, int64_t index, int64_t j) {
  uint64_t x = uint64_t(stamp) * 0x9E3779B97F4A7C15ull ^ uint64_t(index) * 0xC2B2AE3D27D4EB4Full ^
               uint64_t(j + 7) * 0x165667B19E3779F9ull;
  x ^= x >> 31;
  x *= 0xBF58476D1CE4E5B9ull;
  x ^= x >> 29;
  return int64_t(x);
}

enum class End { kCommit, kChain, kCheckpoint };
enum class Op { kInPlace, kReplace, kLarge };

struct Change {
  int64_t index;
  Op op;
  int64_t length;  // the payload's length after the change
};

struct Plan {
  End end = End::kCommit;
  bool abort_first = false;  // first change some items (stamped -c), then abort
  std::vector<Change> changes;
};

int64_t SmallLength(std::mt19937_64 &rng) { return 4 + int64_t(rng() % 200); }
int64_t LargeLength(std::mt19937_64 &rng) { return 1100 + int64_t(rng() % 4000); }  // > a page

// The plan of durable point c; `lengths` (the model's payload lengths before it) gives in-place
// changes their length.
Plan PlanFor(int64_t c, std::vector<int64_t> lengths) {
  std::mt19937_64 rng(uint64_t(c) * 0x2545F4914F6CDD1Dull + 99);
  Plan p;
  uint64_t e = rng() % 10;
  p.end = e < 5 ? End::kCommit : e < 8 ? End::kChain : End::kCheckpoint;
  p.abort_first = rng() % 8 == 0;
  int64_t n = rng() % 16 == 0 ? 20 + int64_t(rng() % 60) : 1 + int64_t(rng() % 6);
  for (int64_t k = 0; k < n; k++) {
    Change ch;
    ch.index = int64_t(rng() % kItems);
    uint64_t o = rng() % 20;
    ch.op = o < 10 ? Op::kInPlace : o < 19 ? Op::kReplace : Op::kLarge;
    ch.length = ch.op == Op::kInPlace   ? lengths[ch.index]
                : ch.op == Op::kReplace ? SmallLength(rng)
                                        : LargeLength(rng);
    lengths[ch.index] = ch.length;  // an item may change twice in one plan
    p.changes.push_back(ch);
  }
  return p;
}

// The state after durable point `last`: each item's stamp and payload length.
struct Model {
  std::vector<int64_t> stamp = std::vector<int64_t>(kItems, 0);
  std::vector<int64_t> length = std::vector<int64_t>(kItems, 0);
  Model() {
    std::mt19937_64 rng(4242);
    for (int64_t i = 0; i < kItems; i++) length[i] = SmallLength(rng);
  }
  void Apply(int64_t c) {
    for (const Change &ch : PlanFor(c, length).changes) {
      stamp[ch.index] = c;
      length[ch.index] = ch.length;
    }
  }
};

// --- The heap ---------------------------------------------------------------------------------

[[noreturn]] void Die(const char *what) {
  std::fprintf(stderr, "campaign child: %s: %s\n", what, cairn_last_error());
  std::fflush(nullptr);
  _exit(1);
}

void Check(cairn_status s, const char *what) {
  if (s != CAIRN_OK) Die(what);
}

void Say(const std::string &line) {
  std::string l = line + "\n";
  if (write(1, l.data(), l.size()) != ssize_t(l.size())) _exit(3);
}

int64_t *Words(void *array) {
  return reinterpret_cast<int64_t *>(static_cast<char *>(array) + CAIRN_ARRAY_DATA_OFFSET);
}
void **Refs(void *array) {
  return reinterpret_cast<void **>(static_cast<char *>(array) + CAIRN_ARRAY_DATA_OFFSET);
}

void Stamp(Item *item, int64_t stamp) {
  item->stamp = stamp;
  item->check = Mix(stamp, item->index, -1);
  int64_t *w = Words(item->payload);
  const int64_t n = int64_t(cairn_array_length(item->payload));
  for (int64_t j = 0; j < n; j++) w[j] = Mix(stamp, item->index, j);
}

Item *NewItem(int64_t index, int64_t length, int64_t stamp) {
  auto *item = static_cast<Item *>(cairn_malloc_typed(&kItemType));
  item->index = index;
  item->payload = cairn_malloc_array(&cairn_i64_array_type, size_t(length));
  Stamp(item, stamp);
  return item;
}

Holder *Root(cairn_db *db) {
  void *root = nullptr;
  Check(cairn_db_get_root(db, &root), "reading the root");
  if (root == nullptr) Die("the database has no root");
  return static_cast<Holder *>(root);
}

void Apply(Holder *h, const Plan &p, int64_t stamp) {
  void **items = Refs(h->items);
  for (const Change &ch : p.changes) {
    auto *item = static_cast<Item *>(items[ch.index]);
    if (ch.op == Op::kInPlace)
      Stamp(item, stamp);
    else
      items[ch.index] = NewItem(ch.index, ch.length, stamp);
  }
}

void Journal(Holder *h, int64_t c) {
  auto *e = static_cast<Entry *>(cairn_malloc_typed(&kEntryType));
  e->c = c;
  e->next = h->journal;
  h->journal = e;
  Entry *t = e;
  for (int64_t k = 1; k < kJournal && t->next; k++) t = t->next;
  t->next = nullptr;  // the rest is garbage
}

// --- Verification -----------------------------------------------------------------------------

// $CAIRN_CAMPAIGN_DEBUG set: every disagreement is described on standard error.
bool Debug() { return std::getenv("CAIRN_CAMPAIGN_DEBUG") != nullptr; }

struct Verdict {
  int64_t last = 0, lost = 0, torn = 0, wrong = 0;
};

Verdict Verify(cairn_db *db, int64_t acked) {
  Verdict v;
  Holder *h = Root(db);
  v.last = h->last;
  if (v.last < 0 || v.last > acked + 1) {
    if (Debug())
      std::fprintf(stderr, "last %lld, acknowledged %lld\n", (long long)v.last, (long long)acked);
  }
  if (v.last < 0) {
    v.wrong++;
    return v;
  }
  if (v.last < acked) v.lost = acked - v.last;
  if (v.last > acked + 1) v.wrong++;  // only the commit in flight can be there unacknowledged
  Model m;
  for (int64_t c = 1; c <= v.last; c++) m.Apply(c);
  if (cairn_array_length(h->items) != size_t(kItems)) {
    v.wrong++;
    return v;
  }
  void **items = Refs(h->items);
  for (int64_t i = 0; i < kItems; i++) {
    const auto *item = static_cast<const Item *>(items[i]);
    if (item == nullptr || item->index != i || item->payload == nullptr) {
      v.wrong++;
      continue;
    }
    const int64_t s = item->stamp;
    bool consistent = item->check == Mix(s, i, -1);
    const int64_t n = int64_t(cairn_array_length(item->payload));
    const int64_t *w = Words(item->payload);
    for (int64_t j = 0; consistent && j < n; j++) consistent = w[j] == Mix(s, i, j);
    if (Debug() && (!consistent || s < 0 || s != m.stamp[i] || n != m.length[i]))
      std::fprintf(stderr, "item %lld: stamp %lld length %lld consistent %d; model %lld %lld\n",
                   (long long)i, (long long)s, (long long)n, int(consistent), (long long)m.stamp[i],
                   (long long)m.length[i]);
    if (!consistent || s < 0) {
      v.wrong++;  // no commit wrote these values (an aborted change's are stamped -c)
    } else if (s != m.stamp[i] || n != m.length[i]) {
      v.torn++;  // values of another commit than the model's after `last`
    }
  }
  int64_t expect = v.last;
  int64_t entries = 0;
  for (const Entry *e = h->journal; e; e = e->next, expect--, entries++) {
    if (e->c != expect) {
      v.torn++;
      break;
    }
  }
  if (entries != std::min(kJournal, v.last + 1)) v.torn++;
  return v;
}

double MsSince(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t).count();
}

cairn_db *OpenDatabase(const char *store, int durability, double *open_ms) {
  auto t0 = std::chrono::steady_clock::now();
  Check(cairn_init(nullptr), "setting up the heap");
  const cairn_type *types[] = {&kItemType, &kEntryType, &kHolderType};
  Check(cairn_register_types(types, 3), "registering the types");
  cairn_persist_options o{};
  o.store_dir = store;
  o.durability = durability;
  o.no_create = 1;
  Check(cairn_store_open(&o), "opening the store");
  cairn_db *db = nullptr;
  Check(cairn_db_open(kDatabase, &db), "opening the database");
  *open_ms = MsSince(t0);
  return db;
}

int Init(const char *store) {
  Check(cairn_init(nullptr), "setting up the heap");
  cairn_persist_options o{};
  o.store_dir = store;
  Check(cairn_store_open(&o), "creating the store");
  cairn_db *db = nullptr;
  Check(cairn_db_create(kDatabase, &db), "creating the database");
  Check(cairn_txn_begin(), "beginning");
  Model m;
  auto *h = static_cast<Holder *>(cairn_malloc_typed(&kHolderType));
  h->last = 0;
  h->items = cairn_malloc_array(&cairn_ref_array_type, kItems);
  for (int64_t i = 0; i < kItems; i++) Refs(h->items)[i] = NewItem(i, m.length[i], 0);
  Journal(h, 0);
  Check(cairn_db_set_root(db, h), "setting the root");
  Check(cairn_txn_commit(), "committing");
  Say("ACK 0 commit");
  return 0;
}

int VerifyAndRun(const char *store, int64_t acked, bool run, int durability) {
  double open_ms = 0;
  cairn_db *db = OpenDatabase(store, durability, &open_ms);
  auto t0 = std::chrono::steady_clock::now();
  Check(cairn_txn_begin(), "beginning");
  Verdict v = Verify(db, acked);
  Check(cairn_txn_abort(), "ending the verification");
  char line[200];
  std::snprintf(line, sizeof line,
                "VERIFIED last=%lld lost=%lld torn=%lld wrong=%lld open_ms=%.0f verify_ms=%.0f",
                (long long)v.last, (long long)v.lost, (long long)v.torn, (long long)v.wrong,
                open_ms, MsSince(t0));
  Say(line);
  if (!run) return 0;
  if (v.lost || v.torn || v.wrong) return 2;  // do not build on a wrong state

  Model m;  // lengths are needed for in-place changes' plans
  for (int64_t c = 1; c <= v.last; c++) m.Apply(c);
  bool open = false;
  for (int64_t c = v.last + 1;; c++) {
    const Plan p = PlanFor(c, m.length);
    if (!open) Check(cairn_txn_begin(), "beginning");
    open = true;
    if (p.abort_first) {
      Apply(Root(db), p, -c);
      Check(cairn_txn_abort(), "aborting");
      Check(cairn_txn_begin(), "beginning after an abort");
    }
    Holder *h = Root(db);
    Apply(h, p, c);
    h->last = c;
    Journal(h, c);
    const char *kind = "commit";
    switch (p.end) {
      case End::kCommit:
        Check(cairn_txn_commit(), "committing");
        open = false;
        break;
      case End::kChain:
        Check(cairn_txn_chain(), "chaining");
        kind = "chain";
        break;
      case End::kCheckpoint:
        Check(cairn_txn_checkpoint(), "checkpointing");
        kind = "checkpoint";
        break;
    }
    m.Apply(c);
    Say("ACK " + std::to_string(c) + " " + kind);
  }
}

}  // namespace

int main(int argc, char **argv) {
  if (argc == 3 && std::strcmp(argv[2], "init") == 0) return Init(argv[1]);
  if (argc == 4 && std::strcmp(argv[2], "verify") == 0)
    return VerifyAndRun(argv[1], std::atoll(argv[3]), false, 0);
  if (argc == 5 && std::strcmp(argv[2], "run") == 0)
    return VerifyAndRun(argv[1], std::atoll(argv[3]), true, std::strcmp(argv[4], "async") == 0);
  std::fprintf(stderr, "usage: %s STORE init | STORE verify ACKED | STORE run ACKED sync|async\n",
               argv[0]);
  return 2;
}
