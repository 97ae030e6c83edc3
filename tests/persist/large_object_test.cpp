// Large objects (runs of whole pages): a 100 KB text, a 320 KB integer array and a reference
// array made persistent, read back by a fresh process, modified in the middle of their runs,
// and read back again; then what D16 of persist/persistence.h promises of a modified run: its
// pages trap and are copied one by one, a commit reads, encodes, writes and lists the
// references of the changed pages only, an abort puts the written pages back, the copy budget
// and the mapping budget.
#include <cstring>

#include "child.h"
#include "persist_test.h"
#include "persist_types.h"

using namespace cairn_ptest;

namespace {

void **Slots(void *array) { return ArrayData<void *>(array); }

constexpr size_t kTextBytes = 100 * 1024;
int64_t IntCount() { return Scaled(40000, 40000); }
int64_t RefCount() { return Scaled(2000, 1100); }  // at least two pages
constexpr size_t kTextPoke = 99000;
int64_t IntPoke() { return IntCount() / 2; }
int64_t RefPoke() { return RefCount() - 7; }

char TextByte(size_t i) { return static_cast<char>('a' + (i * 7 + i / 8192) % 26); }
int64_t IntAt(int64_t i) { return i * 1000003 - 17; }

// root: Wide{r0 text, r1 [int], r2 [any] of nodes, r3 [Pair] referring to the text and [int]}
__attribute__((noinline)) Wide *BuildLarge() {
  auto *root = static_cast<Wide *>(cairn_malloc_typed(&kWideType));
  void *text = cairn_malloc_array(&cairn_text_type, kTextBytes);
  for (size_t i = 0; i < kTextBytes; i++) ArrayData<char>(text)[i] = TextByte(i);
  root->r0 = text;
  void *ints = cairn_malloc_array(&cairn_i64_array_type, IntCount());
  for (int64_t i = 0; i < IntCount(); i++) ArrayData<int64_t>(ints)[i] = IntAt(i);
  root->r1 = ints;
  void *refs = cairn_malloc_array(&cairn_ref_array_type, RefCount());
  root->r2 = refs;
  for (int64_t k = 0; k < RefCount(); k++) ArrayData<void *>(root->r2)[k] = NewNode(k);
  void *pairs = cairn_malloc_array(&kPairArrayType, 2);
  ArrayData<Pair>(pairs)[0] = Pair{root->r0, 0};
  ArrayData<Pair>(pairs)[1] = Pair{root->r1, 1};
  root->r3 = pairs;
  return root;
}

void CheckLarge(Wide *root, bool modified) {
  CK(root != nullptr);
  void *text = root->r0;
  CK(cairn_type_of(text) == &cairn_text_type);
  CK_EQ(cairn_array_length(text), kTextBytes);
  const char *t = ArrayData<char>(text);
  for (size_t i = 0; i < kTextBytes; i++) {
    char want = modified && i == kTextPoke ? '#' : TextByte(i);
    CK_EQ(t[i], want) << " at byte " << i << " of the text";
  }
  void *ints = root->r1;
  CK(cairn_type_of(ints) == &cairn_i64_array_type);
  CK_EQ(cairn_array_length(ints), static_cast<size_t>(IntCount()));
  for (int64_t i = 0; i < IntCount(); i++) {
    CK_EQ(ArrayData<int64_t>(ints)[i], modified && i == IntPoke() ? -1 : IntAt(i)) << " at " << i;
  }
  void *refs = root->r2;
  CK(cairn_type_of(refs) == &cairn_ref_array_type);
  CK_EQ(cairn_array_length(refs), static_cast<size_t>(RefCount()));
  for (int64_t k = 0; k < RefCount(); k++) {
    auto *n = static_cast<Node *>(ArrayData<void *>(refs)[k]);
    CK(n != nullptr) << "element " << k;
    int64_t id = modified && k == RefPoke() ? 3 : k;
    CK_EQ(n->id, id) << " element " << k;
    CK_EQ(n->value, id * 7 + 1);
  }
  if (modified) {
    CK(ArrayData<void *>(refs)[RefPoke()] == ArrayData<void *>(refs)[3]) << "not shared";
  }
  CK(ArrayData<Pair>(root->r3)[0].ref == text);
  CK(ArrayData<Pair>(root->r3)[1].ref == ints);
  CK_EQ(cairn_verify_heap(10), 0u);
}

}  // namespace

PERSIST_CHILD(Large_Write) {
  OpenStore(args);
  cairn_db *db = CreateDb("large");
  CK_OK(cairn_txn_begin());
  CK_OK(cairn_db_set_root(db, BuildLarge()));
  CK_OK(cairn_txn_commit());
  cairn_persist_stats s = LastCommitStats();
  SayStats("", s);
  CK(s.pages_large >= kTextBytes / CAIRN_PAGE_SIZE) << "large pages made persistent in place";
  CK(s.bytes_made_persistent >= kTextBytes + IntCount() * 8);
  CK_OK(cairn_txn_begin());
  CheckLarge(RootAs<Wide>(db), false);
  CK_OK(cairn_txn_commit());
  return 0;
}

PERSIST_CHILD(Large_Modify) {
  OpenStore(args);
  cairn_db *db = OpenDb("large");
  CK_OK(cairn_txn_begin());
  Wide *root = RootAs<Wide>(db);
  CheckLarge(root, false);
  uint64_t faults = Stats().write_faults;
  ArrayData<char>(root->r0)[kTextPoke] = '#';
  ArrayData<int64_t>(root->r1)[IntPoke()] = -1;
  ArrayData<void *>(root->r2)[RefPoke()] = ArrayData<void *>(root->r2)[3];
  CK(Stats().write_faults >= faults + 3) << "writes in three large runs were not all trapped";
  CK_OK(cairn_txn_commit());
  SayStats("", LastCommitStats());
  // D16: of each run, only the page written to is written (not the 13 + 40 + 2 pages).
  CK_EQ(LastCommitStats().pages_written, 3u);
  CK(LastCommitStats().bytes_written < 4 * 8224u) << LastCommitStats().bytes_written;
  // A commit keeps no large object's run writable (D15 of persist/persistence.h): written
  // again in the next transaction, each traps again. Written with what they held, they are
  // not written at all (D16).
  CK_OK(cairn_txn_begin());
  faults = Stats().write_faults;
  ArrayData<char>(root->r0)[kTextPoke] = '#';
  ArrayData<int64_t>(root->r1)[IntPoke()] = -1;
  ArrayData<void *>(root->r2)[RefPoke()] = ArrayData<void *>(root->r2)[3];
  CK(Stats().write_faults >= faults + 3) << "a large run stayed writable after its commit";
  CK_OK(cairn_txn_commit());
  CK_EQ(LastCommitStats().pages_written, 0u);
  // Two pages of one run changed, one changed back (D16 compares with the run as it was
  // clean, not as it was at the first write).
  CK_OK(cairn_txn_begin());
  ArrayData<int64_t>(root->r1)[0] = 12345;
  ArrayData<int64_t>(root->r1)[IntCount() - 1] = 54321;
  ArrayData<int64_t>(root->r1)[IntCount() - 1] = IntAt(IntCount() - 1);
  CK_OK(cairn_txn_commit());
  CK_EQ(LastCommitStats().pages_written, 1u);
  CK_OK(cairn_txn_begin());
  ArrayData<int64_t>(root->r1)[0] = IntAt(0);
  CK_OK(cairn_txn_commit());
  CK_EQ(LastCommitStats().pages_written, 1u);
  return 0;
}

// D16's budget: the copies of one transaction's run pages are at most kMaxRunImagePages
// (8,192) pages; a page written past it has none, so it is written at commit even if it holds
// what it held. Three int arrays of 3,001 pages each, every page written with the value it
// holds, in one transaction: the last 811 pages written are written, the others not.
PERSIST_CHILD(Large_ImageBudget) {
  OpenStore(args);
  cairn_db *db = CreateDb("images");
  constexpr int64_t kInts = 3000 * 1024;
  CK_OK(cairn_txn_begin());
  void *three = cairn_malloc_array(&cairn_ref_array_type, 3);
  CK_OK(cairn_db_set_root(db, three));
  for (int k = 0; k < 3; k++) {
    void *ints = cairn_malloc_array(&cairn_i64_array_type, kInts);
    ArrayData<void *>(Root(db))[k] = ints;
    for (int64_t i = 0; i < kInts; i += 1000) ArrayData<int64_t>(ints)[i] = i + k;
  }
  three = nullptr;
  CK_OK(cairn_txn_commit());
  const uint64_t run = (16 + kInts * 8 + CAIRN_PAGE_SIZE - 1) / CAIRN_PAGE_SIZE;
  CK_EQ(run, 3001u);
  // The first int of page p of a run: ints start 16 bytes in (header and length).
  auto first_on = [](uint64_t p) { return p == 0 ? int64_t{0} : int64_t(p * 1024 - 2); };
  CK_OK(cairn_txn_begin());
  for (int k = 0; k < 3; k++) {
    int64_t *ints = ArrayData<int64_t>(ArrayData<void *>(Root(db))[k]);
    for (uint64_t p = 0; p < run; p++) {
      volatile int64_t *at = &ints[first_on(p)];
      *at = *at;  // written, unchanged
    }
  }
  CK_OK(cairn_txn_commit());
  Say("pages_written=%lu run=%lu\n", static_cast<unsigned long>(LastCommitStats().pages_written),
      static_cast<unsigned long>(run));
  CK_EQ(LastCommitStats().pages_written, 3 * run - 8192);
  CK_EQ(cairn_verify_heap(10), 0u);
  // One element changed in each: a page each.
  CK_OK(cairn_txn_begin());
  for (int k = 0; k < 3; k++) ArrayData<int64_t>(ArrayData<void *>(Root(db))[k])[5000] = -k;
  CK_OK(cairn_txn_commit());
  CK_EQ(LastCommitStats().pages_written, 3u);
  CK_EQ(cairn_verify_heap(10), 0u);
  CK_OK(cairn_txn_begin());
  for (int k = 0; k < 3; k++) {
    const int64_t *ints = ArrayData<int64_t>(ArrayData<void *>(Root(db))[k]);
    CK_EQ(ints[5000], -k);
    CK_EQ(ints[kInts - 1000], kInts - 1000 + k);
  }
  CK_OK(cairn_txn_abort());
  return 0;
}

// D16: the pages of a persistent run become writable one at a time, at their first write in a
// transaction (a write elsewhere in the run traps again; one on the same page does not); past
// half the budget of mapping pieces (max_protection_runs: here 400) a run is made writable
// whole instead of being split further. An abort puts back the pages written from their
// copies: the run is clean again without being read from the store.
PERSIST_CHILD(Large_PageByPage) {
  cairn_persist_options opts{};
  opts.max_protection_runs = 400;
  OpenStore(args, opts);
  cairn_db *db = CreateDb("pages");
  constexpr int64_t kInts = 2000 * 1024;
  CK_OK(cairn_txn_begin());
  void *ints = cairn_malloc_array(&cairn_i64_array_type, kInts);
  CK_OK(cairn_db_set_root(db, ints));
  ints = nullptr;
  for (int64_t i = 0; i < kInts; i++) ArrayData<int64_t>(Root(db))[i] = i;
  CK_OK(cairn_txn_commit());

  CK_OK(cairn_txn_begin());
  int64_t *a = ArrayData<int64_t>(Root(db));
  uint64_t faults = Stats().write_faults;
  a[10] = -10;
  CK_EQ(Stats().write_faults, faults + 1);
  a[11] = -11;  // the same page: writable now
  CK_EQ(Stats().write_faults, faults + 1);
  a[5000] = -5000;  // another page of the run
  CK_EQ(Stats().write_faults, faults + 2);
  CK_EQ(cairn_verify_heap(10), 0u);  // D7: the run's pages written are writable, the others not
  // An abort: the two pages are put back from their copies; reading them reads no page.
  CK_OK(cairn_txn_abort());
  const uint64_t faulted = Stats().pages_faulted;
  CK_OK(cairn_txn_begin());
  a = ArrayData<int64_t>(Root(db));
  CK_EQ(a[10], 10);
  CK_EQ(a[11], 11);
  CK_EQ(a[5000], 5000);
  CK_EQ(Stats().pages_faulted, faulted) << "the run was read again after the abort";
  CK_EQ(cairn_verify_heap(10), 0u);

  // Every other page written: scattered writable pages would split the mapping in about 2,000
  // pieces; the run is made writable whole before 200.
  faults = Stats().write_faults;
  for (int64_t p = 1; p < 2000; p += 2) a[p * 1024] = -p;
  const uint64_t trapped = Stats().write_faults - faults;
  Say("trapped=%lu\n", static_cast<unsigned long>(trapped));
  CK(trapped < 200u) << trapped;
  CK_EQ(cairn_verify_heap(10), 0u);
  CK_OK(cairn_txn_commit());
  CK_EQ(LastCommitStats().pages_written, 1000u);  // the pages that changed, not the run
  CK_EQ(cairn_verify_heap(10), 0u);
  CK_OK(cairn_txn_begin());
  a = ArrayData<int64_t>(Root(db));
  for (int64_t i = 0; i < kInts; i += 97) {
    const int64_t p = i / 1024;
    CK_EQ(a[i], i % 1024 == 0 && p % 2 == 1 ? -p : i) << " at " << i;
  }
  CK_OK(cairn_txn_abort());
  return 0;
}

PERSIST_CHILD(Large_Check) {
  OpenStore(args);
  cairn_db *db = OpenDb("large");
  CK_OK(cairn_txn_begin());
  CheckLarge(RootAs<Wide>(db), true);
  CK_OK(cairn_txn_commit());
  return 0;
}

// Large objects of plain (not array) types: one of a page and one of three pages, with
// references at both ends.
namespace {

template <size_t kWords>
struct Big {
  void *first;
  int64_t words[kWords];
  void *last;
};
using Big1 = Big<600>;                 // 4,816 bytes: one page
using Big3 = Big<2600>;                // 20,816 bytes: three pages
constexpr int64_t kOnePageRefs = 600;  // a reference array of 4,816 bytes: one page
template <class B>
constexpr cairn_field kBigFields[] = {
    Field("first", offsetof(B, first), CAIRN_KIND_REF),
    Field("words", offsetof(B, words), CAIRN_KIND_I64, sizeof(B::words) / 8),
    Field("last", offsetof(B, last), CAIRN_KIND_REF),
};
constexpr cairn_type kBig1 = cairn::PlainType<kBigFields<Big1>>("ptest.Big1", sizeof(Big1));
constexpr cairn_type kBig3 = cairn::PlainType<kBigFields<Big3>>("ptest.Big3", sizeof(Big3));

template <class B>
B *NewBig(const cairn_type *t, int64_t seed) {
  auto *b = static_cast<B *>(cairn_malloc_typed(t));
  for (size_t i = 0; i < sizeof(b->words) / 8; i++) b->words[i] = seed * 100000 + i;
  return b;
}

template <class B>
void CheckBig(const B *b, const cairn_type *t, int64_t seed) {
  CK(b != nullptr);
  CK(cairn_type_of(b) == t) << t->name;
  for (size_t i = 0; i < sizeof(b->words) / 8; i++) {
    CK_EQ(b->words[i], seed * 100000 + static_cast<int64_t>(i)) << " " << t->name << " " << i;
  }
}

}  // namespace

// args: which large objects (big1: plain, one page; big3: plain, three pages; refs: a
// reference array of one page). root: Node{id 1, left: the object, right: node 2}. A Big's
// `first` refers to the root, its `last` to node 2; the array holds node 2 at both ends.
PERSIST_CHILD(LargePlain_Write) {
  std::string kind = args.args.at(0);
  OpenStore(args);
  CK_OK(cairn_register_type(&kBig1));
  CK_OK(cairn_register_type(&kBig3));
  cairn_db *db = CreateDb("plain");
  CK_OK(cairn_txn_begin());
  CK_OK(cairn_db_set_root(db, NewNode(1)));
  RootAs<Node>(db)->right = NewNode(2);
  void *big = nullptr;
  if (kind == "big1") {
    auto *b = NewBig<Big1>(&kBig1, 1);
    b->first = Root(db);
    b->last = RootAs<Node>(db)->right;
    big = b;
  } else if (kind == "big3") {
    auto *b = NewBig<Big3>(&kBig3, 3);
    b->first = Root(db);
    b->last = RootAs<Node>(db)->right;
    big = b;
  } else {
    big = cairn_malloc_array(&cairn_ref_array_type, kOnePageRefs);
    ArrayData<void *>(big)[0] = RootAs<Node>(db)->right;
    ArrayData<void *>(big)[kOnePageRefs - 1] = RootAs<Node>(db)->right;
  }
  RootAs<Node>(db)->left = static_cast<Node *>(big);
  big = nullptr;
  CK_OK(cairn_txn_commit());
  SayStats("", LastCommitStats());
  CK(LastCommitStats().pages_large >= 1);
  return 0;
}

PERSIST_CHILD(LargePlain_Read) {
  std::string kind = args.args.at(0);
  OpenStore(args);
  CK_OK(cairn_register_type(&kBig1));
  CK_OK(cairn_register_type(&kBig3));
  cairn_db *db = OpenDb("plain");
  CK_OK(cairn_txn_begin());
  Node *root = RootAs<Node>(db);
  CK_EQ(root->id, 1);
  Node *two = root->right;
  CK_EQ(two->id, 2);
  if (kind == "big1") {
    auto *b = reinterpret_cast<Big1 *>(root->left);
    CheckBig(b, &kBig1, 1);
    CK(b->first == root && b->last == two);
  } else if (kind == "big3") {
    auto *b = reinterpret_cast<Big3 *>(root->left);
    CheckBig(b, &kBig3, 3);
    CK(b->first == root && b->last == two);
  } else {
    void *a = root->left;
    CK(cairn_type_of(a) == &cairn_ref_array_type);
    CK_EQ(cairn_array_length(a), static_cast<size_t>(kOnePageRefs));
    CK(ArrayData<void *>(a)[0] == two && ArrayData<void *>(a)[kOnePageRefs - 1] == two);
    for (int64_t i = 1; i < kOnePageRefs - 1; i++) CK(ArrayData<void *>(a)[i] == nullptr);
  }
  CK_EQ(cairn_verify_heap(10), 0u);
  CK_OK(cairn_txn_abort());
  return 0;
}

// A commit that changed a few pages of big runs reads, encodes and lists the references of only
// those pages (D16, D10 of persist/persistence.h); what it writes must still be all of the
// change: a new object reached only from a changed page persists, the references recorded for
// each run are exactly what its pages refer to (the heap verifier compares), and a fresh process
// reads every change back. The runs: a reference array of 8 pages, a three-page plain object
// with references at both ends, and an array of 24-byte structs whose elements straddle page
// boundaries (a reference on one page, its neighbour on the next).
namespace {

struct Triple {
  int64_t a;
  void *ref;
  int64_t b;
};
constexpr cairn_field kTripleFields[] = {
    Field("a", offsetof(Triple, a), CAIRN_KIND_I64),
    Field("ref", offsetof(Triple, ref), CAIRN_KIND_REF),
    Field("b", offsetof(Triple, b), CAIRN_KIND_I64),
};
constexpr cairn_type kTripleArrayType =
    cairn::StructArrayType<kTripleFields>("ptest.[Triple]", sizeof(Triple));
constexpr int64_t kRunRefs = 8 * 1024;  // 8 pages and a bit
constexpr int64_t kTriples = 3 * 1024;  // 9 pages and a bit

void RegisterRunTypes() {
  CK_OK(cairn_register_type(&kBig3));
  CK_OK(cairn_register_type(&kTripleArrayType));
}

// The element of the triple array whose `ref` is the first slot of page k of its run.
int64_t TripleOnPage(int64_t k) {
  // Element i's ref is at 8 (header) + 8 (length) + 24 i + 8 bytes from the run's start.
  const int64_t at = k * CAIRN_PAGE_SIZE;
  return (at - 24 + 23) / 24;
}

}  // namespace

PERSIST_CHILD(Large_PartialRuns_Write) {
  OpenStore(args);
  RegisterRunTypes();
  cairn_db *db = CreateDb("runs");
  CK_OK(cairn_txn_begin());
  void *root = cairn_malloc_array(&cairn_ref_array_type, 3);
  CK_OK(cairn_db_set_root(db, root));
  root = nullptr;
  void *refs = cairn_malloc_array(&cairn_ref_array_type, kRunRefs);
  ArrayData<void *>(Root(db))[0] = refs;
  for (int64_t k = 0; k < kRunRefs; k++) ArrayData<void *>(refs)[k] = NewNode(k);
  refs = nullptr;
  auto *big = NewBig<Big3>(&kBig3, 3);
  big->first = NewNode(-1);
  big->last = NewNode(-2);
  ArrayData<void *>(Root(db))[1] = big;
  big = nullptr;
  void *triples = cairn_malloc_array(&kTripleArrayType, kTriples);
  ArrayData<void *>(Root(db))[2] = triples;
  for (int64_t k = 0; k < kTriples; k++)
    ArrayData<Triple>(triples)[k] = Triple{k, NewNode(100000 + k), -k};
  triples = nullptr;
  CK_OK(cairn_txn_commit());

  // 1. New objects reached only from one changed page of each run.
  CK_OK(cairn_txn_begin());
  void **r = ArrayData<void *>(ArrayData<void *>(Root(db))[0]);
  r[5000] = NewNode(-5);
  static_cast<Big3 *>(ArrayData<void *>(Root(db))[1])->last = NewNode(-7);
  Triple *t = ArrayData<Triple>(ArrayData<void *>(Root(db))[2]);
  const int64_t straddle = TripleOnPage(4) - 1;  // its ref on page 3, its b on page 4
  t[straddle].ref = NewNode(-9);
  // Collections before the commit move the new nodes: the written pages are read (and their
  // slots updated), the others not (D16).
  for (int k = 0; k < 3; k++) {
    for (int g = 0; g < 1000; g++) NewNode(g);
    cairn_collect();
  }
  CK_EQ(cairn_verify_heap(10), 0u);
  CK_EQ(static_cast<Node *>(r[5000])->id, -5);
  CK_EQ(static_cast<Node *>(t[straddle].ref)->id, -9);
  CK_OK(cairn_txn_commit());
  cairn_persist_stats s = LastCommitStats();
  SayStats("new objects: ", s);
  CK_EQ(s.objects_made_persistent, 3u);
  CK(s.pages_written <= 3 + 2) << s.pages_written;  // a page of each run, the nodes' page(s)
  CK_EQ(cairn_verify_heap(10), 0u);

  // 2. A page of references all replaced by one persistent object: the frames only they
  // referred to are no longer the run's (D10; the verifier compares).
  CK_OK(cairn_txn_begin());
  r = ArrayData<void *>(ArrayData<void *>(Root(db))[0]);
  for (int64_t k = 0; k < 1000; k++) r[k] = r[5000];
  t = ArrayData<Triple>(ArrayData<void *>(Root(db))[2]);
  t[straddle + 1].b = 4242;  // a data word on page 4 only
  CK_OK(cairn_txn_commit());
  CK_EQ(LastCommitStats().objects_made_persistent, 0u);
  CK_EQ(LastCommitStats().pages_written, 2u) << "page 0 of the array (k < 1000), 4 of the triples";
  CK_EQ(cairn_verify_heap(10), 0u);
  cairn_collect();
  CK_EQ(cairn_verify_heap(10), 0u);
  return 0;
}

PERSIST_CHILD(Large_PartialRuns_Check) {
  OpenStore(args);
  RegisterRunTypes();
  cairn_db *db = OpenDb("runs");
  CK_OK(cairn_txn_begin());
  void **r = ArrayData<void *>(ArrayData<void *>(Root(db))[0]);
  for (int64_t k = 0; k < kRunRefs; k++) {
    const int64_t want = k < 1000 || k == 5000 ? -5 : k;
    CK_EQ(static_cast<Node *>(r[k])->id, want) << " element " << k;
  }
  CK(r[0] == r[5000]);
  auto *big = static_cast<Big3 *>(ArrayData<void *>(Root(db))[1]);
  CheckBig(big, &kBig3, 3);
  CK_EQ(static_cast<Node *>(big->first)->id, -1);
  CK_EQ(static_cast<Node *>(big->last)->id, -7);
  const Triple *t = ArrayData<Triple>(ArrayData<void *>(Root(db))[2]);
  const int64_t straddle = TripleOnPage(4) - 1;
  for (int64_t k = 0; k < kTriples; k++) {
    CK_EQ(t[k].a, k);
    CK_EQ(t[k].b, k == straddle + 1 ? 4242 : -k) << " element " << k;
    CK_EQ(static_cast<Node *>(t[k].ref)->id, k == straddle ? -9 : 100000 + k) << " element " << k;
  }
  CK_EQ(cairn_verify_heap(10), 0u);
  CK_OK(cairn_txn_abort());
  return 0;
}

// A commit that fails after its stabilization made objects persistent that written pages of a
// run refer to (one of them refers to another database's object), then an abort: the run's
// written pages are put back from their copies (D16), the objects made persistent are
// transient again (D9), and the run reads as it was, in this process and the next.
// What a commit's writes hold in memory (cairn_persist_options.commit_memory_bytes,
// CheckCommitMemory of persist/persistence.h): a commit that would hold more fails with
// CAIRN_OUT_OF_MEMORY, says so, and writes nothing; the transaction aborts, and a smaller commit
// goes through (campaign P: an 8 GB array took 24 GB to commit, near the kernel's out-of-memory
// kill).
constexpr int64_t kMemoryInts = 12 << 20;  // 96 MiB of integers that do not compress

// Fills `a` with integers that do not compress, from `seed`.
void FillIncompressible(void *a, int64_t n, uint64_t seed) {
  uint64_t x = seed;
  for (int64_t i = 0; i < n; i++) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    ArrayData<int64_t>(a)[i] = int64_t(x);
  }
}

__attribute__((noinline)) void *MakeIncompressible(int64_t n) {
  void *a = cairn_malloc_array(&cairn_i64_array_type, n);
  FillIncompressible(a, n, 0x9e3779b97f4a7c15u);
  return a;
}

PERSIST_CHILD(Large_CommitMemory) {
  cairn_persist_options o{};
  o.commit_memory_bytes = uint64_t{32} << 20;  // under the default's 64 MiB step: still kept
  OpenStore(args, o);
  cairn_db *db = CreateDb("mem");
  CK_OK(cairn_txn_begin());
  CK_OK(cairn_db_set_root(db, NewNode(7)));
  CK_OK(cairn_txn_commit());
  CK_OK(cairn_txn_begin());
  RootAs<Node>(db)->left = static_cast<Node *>(MakeIncompressible(kMemoryInts));
  const cairn_status st = cairn_txn_commit();
  const std::string why = cairn_last_error();
  Say("commit=%s error=\"%s\"\n", cairn_status_name(st), why.c_str());
  CK_EQ(st, CAIRN_OUT_OF_MEMORY);
  CK(why.find("MiB of pages so far") != std::string::npos) << why;
  CK(why.find("cairn_persist_options.commit_memory_bytes allows 32 MiB") != std::string::npos)
      << why;
  CK(why.find("nothing of it was written") != std::string::npos) << why;
  CK_OK(cairn_txn_abort());
  CK_EQ(cairn_verify_heap(10), 0u);
  CK_OK(cairn_txn_begin());
  CK(RootAs<Node>(db)->left == nullptr);
  RootAs<Node>(db)->left = static_cast<Node *>(MakeIncompressible(1 << 20));  // 8 MiB: fits
  CK_OK(cairn_txn_commit());
  return 0;
}

PERSIST_CHILD(Large_CommitMemory_Check) {
  OpenStore(args);
  cairn_db *db = OpenDb("mem");
  CK_OK(cairn_txn_begin());
  Node *root = RootAs<Node>(db);
  CK_EQ(root->id, 7);
  CK(root->left != nullptr);
  CK_EQ(cairn_array_length(root->left), size_t{1} << 20);
  // Without a limit: a 20 MiB array, for the next child to write again whole.
  root->right = static_cast<Node *>(MakeIncompressible(int64_t{20} << 17));
  CK_OK(cairn_txn_commit());
  return 0;
}

// A persistent run whose every page changes (D16's path, not a new run's) is checked as well.
PERSIST_CHILD(Large_CommitMemory_Rewrite) {
  cairn_persist_options o{};
  o.commit_memory_bytes = uint64_t{32} << 20;
  OpenStore(args, o);
  cairn_db *db = OpenDb("mem");
  CK_OK(cairn_txn_begin());
  void *big = RootAs<Node>(db)->right;
  FillIncompressible(big, int64_t(cairn_array_length(big)), 12345);
  CK_STATUS(cairn_txn_commit(), CAIRN_OUT_OF_MEMORY);
  CK_OK(cairn_txn_abort());
  return 0;
}

PERSIST_CHILD(Large_FailedCommitAbort) {
  OpenStore(args);
  cairn_db *alpha = CreateDb("alpha");
  cairn_db *beta = CreateDb("beta");
  constexpr int64_t kRefs = 4 * 1024;  // a run of 5 pages
  CK_OK(cairn_txn_begin());
  void *refs = cairn_malloc_array(&cairn_ref_array_type, kRefs);
  CK_OK(cairn_db_set_root(alpha, refs));
  refs = nullptr;
  for (int64_t k = 0; k < kRefs; k += 100) Slots(Root(alpha))[k] = NewNode(k);
  CK_OK(cairn_db_set_root(beta, NewNode(-1)));
  CK_OK(cairn_txn_commit());

  CK_OK(cairn_txn_begin());
  void **r = Slots(Root(alpha));
  const uint64_t faulted = Stats().pages_faulted;
  r[100] = NewNode(-100, NewNode(-101));  // page 0: new objects, persisted by the stabilization
  r[3000] = NewNode(-3000, RootAs<Node>(beta));  // page 2: ... one refers into beta
  ScrubStack();
  CK(cairn_txn_commit() != CAIRN_OK) << "a reference into another database was committed";
  CK_EQ(cairn_verify_heap(10), 0u);
  CK_OK(cairn_txn_abort());
  CK_EQ(cairn_verify_heap(10), 0u);
  CK_OK(cairn_txn_begin());
  r = Slots(Root(alpha));
  for (int64_t k = 0; k < kRefs; k++) {
    if (k % 100 == 0)
      CK_EQ(static_cast<Node *>(r[k])->id, k) << " element " << k;
    else
      CK(r[k] == nullptr) << " element " << k;
  }
  // (The page the stabilizer added the new nodes to is read again to put them back as tenants:
  // D14, D17; the run is not.)
  CK(Stats().pages_faulted <= faulted + 1)
      << Stats().pages_faulted - faulted << " faults: the run was read again, not put back";
  cairn_collect();
  CK_EQ(cairn_verify_heap(10), 0u);
  // The same change without the foreign reference commits.
  r[100] = NewNode(-100, NewNode(-101));
  CK_OK(cairn_txn_commit());
  CK_EQ(cairn_verify_heap(10), 0u);
  return 0;
}

PERSIST_CHILD(Large_FailedCommitAbort_Check) {
  OpenStore(args);
  cairn_db *alpha = OpenDb("alpha");
  CK_OK(cairn_txn_begin());
  void **r = Slots(Root(alpha));
  CK_EQ(static_cast<Node *>(r[100])->id, -100);
  CK_EQ(static_cast<Node *>(r[100])->left->id, -101);
  CK_EQ(static_cast<Node *>(r[3000])->id, 3000);
  CK_EQ(cairn_verify_heap(10), 0u);
  CK_OK(cairn_txn_abort());
  return 0;
}

class PersistLarge : public PersistTest {};

TEST_F(PersistLarge, ACommitThatWouldHoldTooMuchMemoryIsRefusedWritingNothing) {
  ChildResult r = Run("Large_CommitMemory");
  std::printf("%s", r.out.c_str());
  ASSERT_CHILD_OK(r);
  ASSERT_CHILD_OK(Run("Large_CommitMemory_Check"));
  ASSERT_CHILD_OK(Run("Large_CommitMemory_Rewrite"));
}
TEST_F(PersistLarge, AFailedCommitThenAnAbortPutsARunsWrittenPagesBack) {
  ChildResult r = Run("Large_FailedCommitAbort");
  std::printf("%s", r.out.c_str());
  ASSERT_CHILD_OK(r);
  ASSERT_CHILD_OK(Run("Large_FailedCommitAbort_Check"));
}

TEST_F(PersistLarge, ARunsPagesBecomeWritableOneByOneAndAnAbortPutsThemBack) {
  ChildResult r = Run("Large_PageByPage");
  std::printf("%s", r.out.c_str());
  ASSERT_CHILD_OK(r);
}

TEST_F(PersistLarge, ACommitOfAFewPagesOfBigRunsWritesAndRecordsThemExactly) {
  ChildResult w = Run("Large_PartialRuns_Write");
  std::printf("%s", w.out.c_str());
  ASSERT_CHILD_OK(w);
  ASSERT_CHILD_OK(Run("Large_PartialRuns_Check"));
}

// Large objects of less than a page: more than 4 KiB with the header, so a page run of one.
TEST_F(PersistLarge, OnePagePlainLargeObjectPersists) {
  ASSERT_CHILD_OK(Run("LargePlain_Write", {"big1"}));
  ASSERT_CHILD_OK(Run("LargePlain_Read", {"big1"}));
}

TEST_F(PersistLarge, OnePageArrayLargeObjectPersists) {
  ASSERT_CHILD_OK(Run("LargePlain_Write", {"refs"}));
  ASSERT_CHILD_OK(Run("LargePlain_Read", {"refs"}));
}

TEST_F(PersistLarge, ThreePagePlainLargeObjectPersists) {
  ASSERT_CHILD_OK(Run("LargePlain_Write", {"big3"}));
  ASSERT_CHILD_OK(Run("LargePlain_Read", {"big3"}));
}

TEST_F(PersistLarge, RunImagesOfATransactionStayWithinTheirBudget) {
  ChildResult r = Run("Large_ImageBudget");
  std::printf("%s", r.out.c_str());
  ASSERT_CHILD_OK(r);
}

TEST_F(PersistLarge, LargeObjectsSpanningPageRunsPersistAndUpdate) {
  ASSERT_CHILD_OK(Run("Large_Write"));
  ASSERT_CHILD_OK(Run("Large_Modify"));
  ChildResult check = Run("Large_Check");
  ASSERT_CHILD_OK(check);
}
